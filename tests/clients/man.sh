#!/usr/bin/env bash
# The built manual page: it renders with man-db and groff without a single
# warning, and it documents every option the program accepts.
#
# usage: tests/clients/man.sh BUILD_DIR [SOURCE_DIR]
#
# SOURCE_DIR (for src/cli/options.c) defaults to the one BUILD_DIR was
# configured from.

. "$(dirname -- "$0")/lib.sh"

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 BUILD_DIR [SOURCE_DIR]" >&2
	exit 2
fi
BUILD=$(cd "$1" && pwd -P) || exit 2
SRC=${2:-$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$BUILD/CMakeCache.txt" 2>/dev/null)}
PAGE=$BUILD/doc/git-maintainer.1

command -v man >/dev/null 2>&1 || t_skip "man is not installed (Debian: man-db)"
command -v groff >/dev/null 2>&1 || t_skip "groff is not installed (Debian: groff-base)"

if [ ! -f "$PAGE" ]; then
	not_ok "$PAGE exists" "is doc/ part of the build (add_subdirectory(doc))?"
	t_done
fi
ok "doc/git-maintainer.1 is built"

if grep -q '@[A-Z_]*@' "$PAGE"; then
	not_ok "no @VARIABLE@ left" "$(grep -n '@[A-Z_]*@' "$PAGE")"
else
	ok "no @VARIABLE@ left"
fi

# The rendering check, exactly as the page is meant to pass it.
LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 \
	man --warnings -E UTF-8 -l -Tutf8 -Z "$PAGE" >"$TMP/page.out" 2>"$TMP/page.err"
rc=$?
check_eq "man --warnings exits 0" 0 "$rc"
check_eq "man --warnings prints nothing on stderr" "" "$(cat "$TMP/page.err")"

# groff with every warning on, for what man's defaults let through.
groff -man -Tutf8 -ww -z "$PAGE" 2>"$TMP/groff.err"
check_eq "groff -ww prints nothing on stderr" "" "$(cat "$TMP/groff.err")"

# The page as a reader sees it, 80 columns, no overstriking.
LC_ALL=C.UTF-8 MANWIDTH=80 MAN_KEEP_FORMATTING='' man -l "$PAGE" 2>/dev/null |
	sed 's/.\x08//g' >"$TMP/page.txt"
if grep -Eq '^ +git-maintainer +- +tell +whom +to +send +a +patch' "$TMP/page.txt"; then
	ok "NAME line"
else
	not_ok "NAME line" "$(sed -n '1,6p' "$TMP/page.txt")"
fi
for section in NAME SYNOPSIS DESCRIPTION OPTIONS CONFIGURATION FILES \
	       'JSON OUTPUT' 'EXIT STATUS' EXAMPLES 'SEE ALSO'; do
	if grep -qx "$section" "$TMP/page.txt"; then
		ok "section $section"
	else
		not_ok "section $section"
	fi
done
width=$(LC_ALL=C.UTF-8 wc -L <"$TMP/page.txt")
if [ "$width" -le 80 ]; then
	ok "no line wider than 80 columns"
else
	not_ok "no line wider than 80 columns" "widest: $width"
fi

# Every option of the option table, as -x for one letter and --xy else.
if [ -n "$SRC" ] && [ -f "$SRC/src/cli/options.c" ]; then
	missing=
	for name in $(sed -n 's/^[[:space:]]*{ "\([a-z-]*\)", OPT_.*/\1/p' \
			"$SRC/src/cli/options.c"); do
		if [ ${#name} -eq 1 ]; then
			opt=-$name
		else
			opt=--$name
		fi
		grep -qE -- "(^|[^-[:alnum:]])$opt([^-[:alnum:]]|$)" "$TMP/page.txt" ||
			missing="$missing $opt"
	done
	check_eq "every option in src/cli/options.c is documented" "" "${missing# }"
	for key in maintainer.history maintainer.since maintainer.rolestats \
		   maintainer.format; do
		if grep -qx "       $key" "$TMP/page.txt"; then
			ok "config key $key"
		else
			not_ok "config key $key"
		fi
	done
else
	not_ok "every option in src/cli/options.c is documented" "no source directory"
fi

# The version in the footer is the program's.
if [ -x "$BUILD/git-maintainer" ]; then
	version=$("$BUILD/git-maintainer" --version | sed -n 's/^git-maintainer version //p')
	if tail -n 1 "$TMP/page.txt" | grep -qF "git-maintainer $version"; then
		ok "footer names version $version"
	else
		not_ok "footer names version $version" "$(tail -n 1 "$TMP/page.txt")"
	fi
fi

t_done
