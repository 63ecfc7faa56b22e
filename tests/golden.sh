#!/usr/bin/env bash
# Golden end-to-end test: run one case under fixtures/cli/ against BINARY.
#
# usage: tests/golden.sh BINARY CASEDIR
#
# A case directory holds:
#   tree/         files of the repository (committed as one commit, fixed
#                 identity and dates, so commit ids are the same on every run)
#   setup         optional bash snippet run in the repository after the commit,
#                 with REPO (the repository), TMP (a scratch directory outside
#                 it) and CASE (the case directory) in the environment
#   args          the arguments, one per line (a line may contain spaces; an
#                 empty line is an empty argument); "$TMP" and "$REPO" in a
#                 line are replaced by those directories
#   stdin         optional: fed to BINARY (otherwise stdin is /dev/null)
#   cwd           optional, one line: where to run, relative to the repository
#                 or an absolute path using $TMP/$REPO (default: the top)
#   expected.out  exact stdout
#   expected.rc   optional exit status (default 0)
#   expected.err  optional exact stderr (if absent, stderr is not checked)
#
# Exits 0 on pass, 1 on failure, 2 on a broken case or usage error.
#
# Cases not named tool-*: expected.out is exactly what the Linux 6.1
# scripts/get_maintainer.pl prints for the same arguments plus --no-tree, run
# from the top of a copy of tree/ without .git, stdout not a terminal, the same
# for PERL_HASH_SEED 0, 1 and 2 (no ties between sections of equal depth).
# Their args always pass --rolestats or --norolestats, because this tool's
# default prints no roles.  Cases named tool-* cover behaviour of this tool
# only (HEAD's tree, --rev, subdirectories, bare repositories, errors); their
# expected output is written by hand from the rules.

set -u

die() {
	printf 'golden: %s\n' "$*" >&2
	exit 2
}

[ $# -eq 2 ] || die "usage: golden.sh BINARY CASEDIR"

bin=$1
case_dir=$2

# A binary named with a slash is resolved against the current directory;
# a bare name is looked up in PATH when it is run.
case $bin in
*/*)
	[ -x "$bin" ] || die "binary '$bin' is not executable"
	bin=$(cd "$(dirname -- "$bin")" && pwd -P)/$(basename -- "$bin")
	;;
*)
	command -v -- "$bin" >/dev/null 2>&1 || die "binary '$bin' not found in PATH"
	;;
esac

[ -d "$case_dir" ] || die "case directory '$case_dir' does not exist"
case_dir=$(cd "$case_dir" && pwd -P)
name=$(basename -- "$case_dir")

[ -d "$case_dir/tree" ] || die "$name: no tree/ directory"
[ -f "$case_dir/args" ] || die "$name: no args file"
[ -f "$case_dir/expected.out" ] || die "$name: no expected.out file"

root=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXXXX") || die "mktemp failed"
root=$(cd "$root" && pwd -P)
# shellcheck disable=SC2317
cleanup() {
	chmod -R u+rwX "$root" 2>/dev/null
	rm -rf -- "$root"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

REPO=$root/repo
TMP=$root/tmp
mkdir -p "$REPO" "$TMP" "$root/home/.config" "$root/out" || die "mkdir failed"

# Keep the caller's git configuration and environment out of the test.
while IFS= read -r var; do
	unset "$var"
done < <(compgen -e | grep -E '^GIT_' || true)
unset POSIXLY_CORRECT
export HOME=$root/home
export XDG_CONFIG_HOME=$root/home/.config
export GIT_CONFIG_NOSYSTEM=1
export GIT_CEILING_DIRECTORIES=$root
export GIT_AUTHOR_NAME='Fixture Author'
export GIT_AUTHOR_EMAIL='author@fixture.example'
export GIT_AUTHOR_DATE='1700000000 +0000'
export GIT_COMMITTER_NAME='Fixture Committer'
export GIT_COMMITTER_EMAIL='committer@fixture.example'
export GIT_COMMITTER_DATE='1700000000 +0000'
export LC_ALL=C
export TZ=UTC
export REPO TMP
export CASE=$case_dir

gitq() {
	git -c user.name="$GIT_COMMITTER_NAME" -c user.email="$GIT_COMMITTER_EMAIL" \
		-c core.autocrlf=false -c commit.gpgSign=false "$@"
}

# Build the repository: one commit holding everything in tree/.
cp -R -- "$case_dir/tree/." "$REPO/" || die "$name: copying tree/ failed"
(
	cd "$REPO" &&
	gitq -c init.defaultBranch=main init -q &&
	gitq add -A -f . &&
	gitq commit -q --no-verify --allow-empty -m 'fixture'
) >"$root/out/git.log" 2>&1 || {
	cat "$root/out/git.log" >&2
	die "$name: creating the fixture repository failed"
}

if [ -f "$case_dir/setup" ]; then
	(cd "$REPO" && bash -e "$case_dir/setup") >"$root/out/setup.log" 2>&1 || {
		cat "$root/out/setup.log" >&2
		die "$name: setup failed"
	}
fi

# Replace the literal words $REPO and $TMP (quoted, so that a '&' in a
# directory name is not taken as the matched text).
# shellcheck disable=SC2016
subst() {
	local s=$1
	s=${s//'$REPO'/"$REPO"}
	s=${s//'$TMP'/"$TMP"}
	printf '%s' "$s"
}

args=()
while IFS= read -r line || [ -n "$line" ]; do
	args+=("$(subst "$line")")
done <"$case_dir/args"

run_dir=$REPO
if [ -f "$case_dir/cwd" ]; then
	IFS= read -r line <"$case_dir/cwd" || [ -n "$line" ] || die "$name: empty cwd file"
	line=$(subst "$line")
	case $line in
	/*) run_dir=$line ;;
	*) run_dir=$REPO/$line ;;
	esac
	[ -d "$run_dir" ] || die "$name: cwd '$run_dir' is not a directory"
fi

stdin=/dev/null
[ -f "$case_dir/stdin" ] && stdin=$case_dir/stdin

want_rc=0
if [ -f "$case_dir/expected.rc" ]; then
	read -r want_rc <"$case_dir/expected.rc" || [ -n "$want_rc" ]
	case $want_rc in
	'' | *[!0-9]*) die "$name: expected.rc is not a number" ;;
	esac
fi

out=$root/out/stdout
err=$root/out/stderr
(cd "$run_dir" && exec "$bin" ${args[@]+"${args[@]}"}) <"$stdin" >"$out" 2>"$err"
rc=$?

fail=0
if ! cmp -s "$case_dir/expected.out" "$out"; then
	fail=1
	echo "--- $name: stdout differs"
	diff -u --label expected.out --label actual.out "$case_dir/expected.out" "$out"
fi
if [ -f "$case_dir/expected.err" ] && ! cmp -s "$case_dir/expected.err" "$err"; then
	fail=1
	echo "--- $name: stderr differs"
	diff -u --label expected.err --label actual.err "$case_dir/expected.err" "$err"
fi
if [ "$rc" -ne "$want_rc" ]; then
	fail=1
	echo "--- $name: exit status $rc, expected $want_rc"
fi

if [ "$fail" -ne 0 ]; then
	echo "--- $name: exit status was $rc"
	if [ ! -f "$case_dir/expected.err" ] && [ -s "$err" ]; then
		echo "--- $name: stderr was:"
		cat "$err"
	fi
	echo "FAIL $name"
	exit 1
fi
echo "PASS $name"
exit 0
