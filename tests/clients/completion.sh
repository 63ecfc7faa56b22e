#!/usr/bin/env bash
# Bash completion: with git's completion script and
# contrib/completion/git-maintainer.bash sourced, what `git maintainer
# <word><TAB>` and `git-maintainer <word><TAB>` offer. The words are set
# up as readline would (COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT) and
# the function registered with `complete` for the command is called.
# Also checks the option list against the option table in src/cli/options.c:
# every option the program implements is offered, negated forms included.
#
# usage: tests/clients/completion.sh SOURCE_DIR COMPLETION
# (COMPLETION: the file the build generates, which is the one installed)

. "$(dirname -- "$0")/lib.sh"

[ $# -eq 2 ] || { echo "usage: $0 SOURCE_DIR COMPLETION" >&2; exit 2; }
SRC=$(cd "$1" && pwd -P) || exit 2
OURS=$2
[ -f "$OURS" ] || { echo "$OURS not found" >&2; exit 2; }

GITCOMP=
for f in /usr/share/bash-completion/completions/git \
	 /usr/share/git-core/contrib/completion/git-completion.bash \
	 /etc/bash_completion.d/git; do
	if [ -f "$f" ]; then
		GITCOMP=$f
		break
	fi
done
[ -n "$GITCOMP" ] || t_skip "git's bash completion script is not installed"

# A repository to complete revisions and file names in.
REPO=$TMP/repo
make_fixture "$REPO" || exit 2
git -C "$REPO" branch maint-1.0

# complete_words WORD...: run the completion for the command line WORD...
# (the last word being completed) in a fresh bash inside the repository
# and print COMPREPLY, one entry a line, trailing blanks removed, sorted.
complete_words()
{
	(cd "$REPO" && bash --norc --noprofile -s "$GITCOMP" "$OURS" "$@") <<'EOF'
gitcomp=$1 ours=$2
shift 2
. "$gitcomp" >/dev/null 2>&1
. "$ours"
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
COMP_TYPE=9
COMP_KEY=9
COMPREPLY=()
spec=$(complete -p -- "$1" 2>/dev/null)
func=$(printf '%s\n' "$spec" | sed -n 's/.* -F \([^ ]*\) .*/\1/p')
if [ -z "$func" ]; then
	echo "no completion function for $1: '$spec'"
	exit 1
fi
"$func" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
for w in "${COMPREPLY[@]}"; do
	printf '%s\n' "${w%"${w##*[! ]}"}"
done | sort
EOF
}

# expect NAME "EXPECTED LINES" WORD...: COMPREPLY is exactly that.
expect()
{
	local name=$1 want=$2

	shift 2
	check_eq "$name" "$want" "$(complete_words "$@")"
}

# expect_has NAME ENTRY WORD...: COMPREPLY has ENTRY among others.
expect_has()
{
	local name=$1 want=$2

	shift 2
	check_contains "$name" "$want" "$(complete_words "$@")"
}

expect_has "git maintainer --hi" --history git maintainer --hi
expect "git maintainer --rol" "$(printf -- '--roles\n--rolestats')" \
	git maintainer --rol
expect "git maintainer --no-hi" --no-history git maintainer --no-hi
expect_has "git maintainer --se offers --series=" --series= git maintainer --se
expect "git maintainer --format=" "$(printf 'json\ntext')" \
	git maintainer --format=
expect "git maintainer --format=j" json git maintainer --format=j
expect "git maintainer --check=" "$(printf 'approvals\nrecipients')" \
	git maintainer --check=
expect_has "git maintainer --rev=mai" maint-1.0 git maintainer --rev=mai
expect "git maintainer MAIN (file names)" MAINTAINERS git maintainer MAIN
expect "git maintainer -f al (directories)" alpha git maintainer -f al
expect "git maintainer --series=al" alpha git maintainer --series=al

# The dashed command.
expect_has "git-maintainer --hi" --history git-maintainer --hi
expect "git-maintainer --rol" "$(printf -- '--roles\n--rolestats')" \
	git-maintainer --rol
spec=$(bash --norc --noprofile -c '. "$1" >/dev/null 2>&1; . "$2";
	complete -p git-maintainer' - "$GITCOMP" "$OURS" 2>&1)
case $spec in
*" -F "*" git-maintainer") ok "complete -F ... git-maintainer" ;;
*) not_ok "complete -F ... git-maintainer" "$spec" ;;
esac

# Every option offered is one the program knows, and every long option of
# the program is offered (--usage, the same as --help, aside), each
# negatable one with its --no- form too.
table=$(sed -n 's/^[[:space:]]*{ "\([a-z_-]*\)", OPT_\([A-Z]*\),.*/\1 \2/p' \
	"$SRC/src/cli/options.c")
check_eq "the option table of src/cli/options.c is read" 1 \
	"$([ "$(printf '%s\n' "$table" | wc -l)" -gt 40 ] && echo 1)"
known=$(printf '%s\n' "$table" | awk '$2 != "UNSUPPORTED" { print $1 }' | sort)
words=$(bash --norc --noprofile -c '. "$1"; printf "%s\n" $__git_maintainer_options' \
	- "$OURS" 2>/dev/null)
offered=$(printf '%s\n' "$words" | sed -e '/^--$/d' -e 's/=$//' \
	-e 's/^--no-//' -e 's/^--//' | sort -u)
unknown=$(comm -13 <(printf '%s\n' "$known") <(printf '%s\n' "$offered"))
check_eq "every option offered is in src/cli/options.c" "" "$unknown"
missing=$(printf '%s\n' "$known" | awk 'length($1) > 1 && $1 != "usage"' |
	comm -23 - <(printf '%s\n' "$offered"))
check_eq "every long option of src/cli/options.c is offered" "" "$missing"
bools=$(printf '%s\n' "$table" | awk '$2 == "BOOL" && length($1) > 1 { print "--no-" $1 }' | sort)
negated=$(printf '%s\n' "$words" | grep '^--no-' | sort)
check_eq "every negatable option is offered as --no-<option>" "$bools" "$negated"
for o in --git --git-since= --git-blame --self-test --self-test=; do
	check_contains "$o is offered" "$o" "$words"
done

t_done
