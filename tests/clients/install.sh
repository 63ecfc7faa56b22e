#!/usr/bin/env bash
# `cmake --install` into a scratch prefix, then use the installed program
# the way a user does: as `git maintainer` found on PATH, with its manual
# page found by `git help maintainer` and `git maintainer --help` (git runs
# `man git-maintainer` for both).
#
# usage: tests/clients/install.sh BUILD_DIR SOURCE_DIR

. "$(dirname -- "$0")/lib.sh"

[ $# -eq 2 ] || { echo "usage: $0 BUILD_DIR SOURCE_DIR" >&2; exit 2; }
BUILD=$(cd "$1" && pwd -P) || exit 2
SRC=$(cd "$2" && pwd -P) || exit 2

command -v man >/dev/null 2>&1 || t_skip "man is not installed (Debian: man-db)"

PREFIX=$TMP/prefix
if cmake --install "$BUILD" --prefix "$PREFIX" >"$TMP/install.out" 2>&1; then
	ok "cmake --install"
else
	not_ok "cmake --install" "$(cat "$TMP/install.out")"
	t_done
fi

bin=$PREFIX/bin/git-maintainer
page=$(find "$PREFIX" -path '*/man1/git-maintainer.1' | head -n 1)
if [ -x "$bin" ]; then
	ok "installs bin/git-maintainer"
else
	not_ok "installs bin/git-maintainer" "$(cd "$PREFIX" && find . -type f)"
fi
if [ -n "$page" ]; then
	ok "installs man1/git-maintainer.1 (${page#"$PREFIX"/})"
	mandir=${page%/man1/git-maintainer.1}
else
	not_ok "installs man1/git-maintainer.1" "$(cd "$PREFIX" && find . -type f)"
	mandir=$PREFIX/share/man
fi

# The installed program and page only: no viewer configured (HOME's
# .gitconfig is empty), no pager, MANPATH pointing into the prefix (the
# trailing ':' keeps the system's pages too).
unset GIT_MAN_VIEWER MANOPT MANSECT MAN_KEEP_FORMATTING
export PATH=$PREFIX/bin:$PATH
export MANPATH=$mandir:
export PAGER=cat MANPAGER=cat GIT_PAGER=cat
export MANWIDTH=80 LC_ALL=C.UTF-8
check_eq "man.viewer is unset" "" "$(git config man.viewer)"

REPO=$TMP/repo
make_fixture "$REPO" || exit 2

# help_text CMD...: what CMD prints, overstriking removed.
help_text()
{
	(cd "$REPO" && "$@") </dev/null 2>"$TMP/err" | sed 's/.\x08//g'
}

# The NAME line of the page source, as a pattern for the rendered page
# (words in order, any spacing between them).
name_line=$(sed -n '/^\.SH NAME/{n;p;q;}' "$SRC/doc/git-maintainer.1.in" |
	sed -e 's/\\-/-/g' -e 's/  */ +/g')
check_eq "the page source has a NAME line" 1 "$(printf '%s' "$name_line" | grep -c 'git-maintainer')"
for cmd in "git help maintainer" "git maintainer --help" "git help -m maintainer"; do
	read -r -a words <<<"$cmd"
	text=$(help_text "${words[@]}")
	if printf '%s\n' "$text" | tr -s ' \n' '  ' | grep -Eq "$name_line"; then
		ok "$cmd prints the manual page"
	else
		not_ok "$cmd prints the manual page" "stdout:" "$(printf '%s\n' "$text" | head -n 5)" \
			"stderr:" "$(cat "$TMP/err")"
	fi
done

# -h is the program's own: usage, status 129.
out=$(cd "$REPO" && git maintainer -h 2>&1)
rc=$?
check_eq "git maintainer -h exits 129" 129 "$rc"
if printf '%s\n' "$out" | grep -q '^usage: git maintainer '; then
	ok "git maintainer -h prints the usage"
else
	not_ok "git maintainer -h prints the usage" "$out"
fi

out=$(cd "$REPO" && git maintainer --version 2>&1)
rc=$?
check_eq "git maintainer --version exits 0" 0 "$rc"
if printf '%s\n' "$out" | grep -Eq '^git-maintainer version [0-9]+\.[0-9]+'; then
	ok "git maintainer --version: $out"
else
	not_ok "git maintainer --version" "$out"
fi
version=${out#git-maintainer version }
if help_text git help maintainer | tail -n 1 | grep -qF "git-maintainer $version"; then
	ok "the installed page is for version $version"
else
	not_ok "the installed page is for version $version" \
		"$(help_text git help maintainer | tail -n 1)"
fi

# And it works as a git subcommand from a subdirectory.
out=$(cd "$REPO/alpha" && git maintainer -f a.c 2>&1)
check_eq "git maintainer -f a.c from alpha/" "Alice Maintainer <alice@example.com>
Rob Reviewer <rob@example.com>
Chief Penguin <chief@example.com>
alpha@lists.example.org
rest@lists.example.org" "$out"

t_done
