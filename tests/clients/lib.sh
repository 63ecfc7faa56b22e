# Shared helpers for the client tests in tests/clients/, sourced by each.
#
# Every test runs in a scratch directory ($TMP) with a HOME of its own and
# an empty ~/.gitconfig, fixed identities and time zone, so neither the
# user's configuration nor the clock changes the answers. It counts checks
# with ok/not_ok and ends with t_done, which prints "N passed, M failed"
# and exits 0 only if nothing failed. t_skip exits 77.

set -u

t_passed=0
t_failed=0
t_name=${0##*/}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gm-clients.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

# Nothing from the caller's git environment may leak into the fixtures.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY \
	GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_NAMESPACE GIT_CONFIG \
	GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT GIT_CONFIG_GLOBAL \
	GIT_CONFIG_SYSTEM GIT_PREFIX GIT_EDITOR GIT_SEQUENCE_EDITOR \
	GIT_MAN_VIEWER GIT_SENDEMAIL_FILE_COUNTER GIT_SENDEMAIL_FILE_TOTAL \
	EMAIL POSIXLY_CORRECT
export HOME=$TMP/home
export XDG_CONFIG_HOME=$HOME/.config
export GIT_CONFIG_NOSYSTEM=1
export GIT_CEILING_DIRECTORIES=$TMP
export GIT_AUTHOR_NAME=Test GIT_AUTHOR_EMAIL=test@example.com
export GIT_COMMITTER_NAME=Test GIT_COMMITTER_EMAIL=test@example.com
export TZ=UTC LC_ALL=C
export GIT_PAGER=cat PAGER=cat
mkdir -p "$HOME" "$XDG_CONFIG_HOME"
: >"$HOME/.gitconfig"

ok()
{
	t_passed=$((t_passed + 1))
	printf 'ok %d - %s\n' $((t_passed + t_failed)) "$1"
}

# not_ok NAME [DETAIL...]: a failed check, with details indented below.
not_ok()
{
	local name=$1

	shift
	t_failed=$((t_failed + 1))
	printf 'not ok %d - %s\n' $((t_passed + t_failed)) "$name"
	for line in "$@"; do
		printf '%s\n' "$line" | sed 's/^/#   /'
	done
}

# check_eq NAME EXPECTED ACTUAL
check_eq()
{
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "expected:" "$2" "actual:" "$3"
	fi
}

# check_contains NAME NEEDLE HAYSTACK: NEEDLE is one whole line of HAYSTACK.
check_contains()
{
	if printf '%s\n' "$3" | grep -qxF -- "$2"; then
		ok "$1"
	else
		not_ok "$1" "no line '$2' in:" "$3"
	fi
}

# t_skip REASON: the test cannot run here; one line, as ctest's output.
t_skip()
{
	printf 'SKIP: clients.%s: %s\n' "${t_name%.sh}" "$1"
	exit 77
}

# Skip unless git send-email is installed and can parse an address: a
# dry run of one message outside any repository. Debian's git-email
# leaves Perl's Mail::Address to a recommended package, and without it
# send-email stops at the first address it reads.
need_send_email()
{
	local probe=$TMP/send-email-probe

	[ -x "$(git --exec-path)/git-send-email" ] ||
		t_skip "git send-email is not installed (Debian: git-email)"
	mkdir -p "$probe" &&
	printf '%s\n' 'From: Test <test@example.com>' \
		'Date: Mon, 1 Jan 2024 10:00:00 +0000' \
		'Subject: [PATCH] probe' '' 'probe' >"$probe/p.patch" || exit 2
	if ! (cd "$probe" && GIT_SEND_EMAIL_NOTTY=1 git send-email --dry-run \
		--confirm=never --from='Test <test@example.com>' \
		--to=probe@example.com --suppress-cc=all \
		--smtp-server=/bin/true --no-format-patch p.patch) \
		</dev/null >"$probe/out" 2>&1 &&
	   grep -q "Mail::Address" "$probe/out"; then
		t_skip "git send-email cannot parse addresses: Perl's Mail::Address is missing (Debian: libmailtools-perl)"
	fi
	rm -rf -- "$probe"
}

t_done()
{
	printf '%d passed, %d failed\n' "$t_passed" "$t_failed"
	[ "$t_failed" -eq 0 ]
	exit
}

# An absolute path for the binary under test, or a usage error.
t_binary()
{
	local bin=$1

	case $bin in
	*/*) bin=$(cd "$(dirname -- "$bin")" && pwd -P)/${bin##*/} ;;
	*) bin=$(command -v -- "$bin") ;;
	esac
	if [ -z "$bin" ] || [ ! -x "$bin" ]; then
		printf '%s: binary %s not found\n' "$t_name" "$1" >&2
		exit 2
	fi
	printf '%s\n' "$bin"
}

# The git version as one comparable number: 2.41.0 gives 241.
git_version_number()
{
	git --version | sed -n 's/^git version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' |
		{ read -r major minor && echo $((major * 100 + minor)); }
}

# make_fixture DIR: a repository with a small MAINTAINERS and a history
# with fixed dates and identities, so its commit ids never change:
#
#   ALPHA DRIVER   alpha/   M: Alice  R: Rob    L: alpha@lists
#   BETA LIBRARY   beta/    M: Bob    R: Carol  L: beta@lists
#   THE REST       *, */    M: Chief            L: rest@lists
#
# and a commit "beta: broken" signed off by Dave and Bob, which the
# series of make_series fixes. The work tree is on branch main.
make_fixture()
{
	local dir=$1

	export GIT_AUTHOR_DATE='2024-01-01T10:00:00Z'
	export GIT_COMMITTER_DATE='2024-01-01T10:00:00Z'
	git init -q -b main "$dir" || return 1
	mkdir -p "$dir/alpha" "$dir/beta" "$dir/docs"
	cat >"$dir/MAINTAINERS" <<'EOF'
List of maintainers
===================

Each section names the people and lists for one part of the tree.

ALPHA DRIVER
M:	Alice Maintainer <alice@example.com>
R:	Rob Reviewer <rob@example.com>
L:	alpha@lists.example.org
S:	Maintained
F:	alpha/

BETA LIBRARY
M:	Bob Maintainer <bob@example.com>
R:	Carol Reviewer <carol@example.com>
L:	beta@lists.example.org
S:	Supported
F:	beta/

THE REST
M:	Chief Penguin <chief@example.com>
L:	rest@lists.example.org
S:	Buried alive in reporters
F:	*
F:	*/
EOF
	printf 'int alpha;\n' >"$dir/alpha/a.c"
	printf 'int beta;\n' >"$dir/beta/b.c"
	printf 'Read me.\n' >"$dir/README"
	printf 'Notes.\n' >"$dir/docs/notes.txt"
	(
		cd "$dir" &&
		git add . &&
		git commit -q -m 'Initial tree' &&
		export GIT_AUTHOR_NAME='Dave Fixer' &&
		export GIT_AUTHOR_EMAIL=dave@example.com &&
		export GIT_AUTHOR_DATE='2024-01-02T10:00:00Z' &&
		export GIT_COMMITTER_DATE='2024-01-02T10:00:00Z' &&
		printf 'int beta_broken;\n' >>beta/b.c &&
		git commit -q -a -m 'beta: add a broken thing' \
			-m 'Signed-off-by: Dave Fixer <dave@example.com>
Signed-off-by: Bob Maintainer <bob@example.com>'
	) || return 1
}

# make_series DIR: three commits on top of make_fixture's history:
#   1 "alpha: change"    alpha/a.c
#   2 "beta: fix"        beta/b.c, with a Fixes: line for "beta: broken"
#   3 "readme: update"   README (only THE REST)
make_series()
{
	local dir=$1 fixed

	(
		cd "$dir" &&
		fixed=$(git rev-parse --short=12 HEAD) &&
		export GIT_AUTHOR_DATE='2024-01-03T10:00:00Z' &&
		export GIT_COMMITTER_DATE='2024-01-03T10:00:00Z' &&
		printf 'int alpha_more;\n' >>alpha/a.c &&
		git commit -q -a -s -m 'alpha: change' &&
		printf 'int beta_fixed;\n' >>beta/b.c &&
		git commit -q -a -s -m 'beta: fix' \
			-m "Fixes: $fixed (\"beta: add a broken thing\")" &&
		printf 'Read me twice.\n' >>README &&
		git commit -q -a -s -m 'readme: update'
	)
}

# format_series REPO OUTDIR: the 3-patch series with a cover letter, its
# template subject and blurb filled in (send-email refuses to send them).
format_series()
{
	git -C "$1" format-patch -q --cover-letter -3 -o "$2" || return 1
	sed -i -e 's/\*\*\* SUBJECT HERE \*\*\*/Fixture series/' \
		-e 's/\*\*\* BLURB HERE \*\*\*/Three small changes./' \
		"$2"/0000-cover-letter.patch
}

# The recipients the fixture's MAINTAINERS gives each message of the
# series, as "SUBJECT<TAB>To|Cc<TAB>ADDRESS" lines, sorted.
expected_recipients()
{
	local cover='[PATCH 0/3] Fixture series'
	local p1='[PATCH 1/3] alpha: change'
	local p2='[PATCH 2/3] beta: fix'
	local p3='[PATCH 3/3] readme: update'
	local alice='Alice Maintainer <alice@example.com>'
	local bob='Bob Maintainer <bob@example.com>'
	local chief='Chief Penguin <chief@example.com>'
	local rob='Rob Reviewer <rob@example.com>'
	local carol='Carol Reviewer <carol@example.com>'
	local dave='Dave Fixer <dave@example.com>'
	local la=alpha@lists.example.org lb=beta@lists.example.org
	local lr=rest@lists.example.org

	{
		for a in "$alice" "$bob" "$chief" "$la" "$lb" "$lr"; do
			printf '%s\tTo\t%s\n' "$cover" "$a"
		done
		for a in "$rob" "$carol" "$dave"; do
			printf '%s\tCc\t%s\n' "$cover" "$a"
		done
		for a in "$alice" "$chief" "$la" "$lr"; do
			printf '%s\tTo\t%s\n' "$p1" "$a"
		done
		printf '%s\tCc\t%s\n' "$p1" "$rob"
		for a in "$bob" "$chief" "$lb" "$lr"; do
			printf '%s\tTo\t%s\n' "$p2" "$a"
		done
		for a in "$carol" "$dave"; do
			printf '%s\tCc\t%s\n' "$p2" "$a"
		done
		for a in "$chief" "$lr"; do
			printf '%s\tTo\t%s\n' "$p3" "$a"
		done
	} | sort
}

# send_email_recipients: read `git send-email --dry-run` output on stdin
# and print, for every message, "SUBJECT<TAB>To|Cc<TAB>ADDRESS" lines
# (headers unfolded, one address a line), sorted.
send_email_recipients()
{
	awk '
	function flush(   i, n, parts, field, v) {
		for (i = 1; i <= nh; i++) {
			field = hdr[i]
			sub(/:.*/, "", field)
			v = hdr[i]
			sub(/^[^:]*:[ \t]*/, "", v)
			if (field == "Subject")
				subject = v
		}
		for (i = 1; i <= nh; i++) {
			field = hdr[i]
			sub(/:.*/, "", field)
			if (field != "To" && field != "Cc")
				continue
			v = hdr[i]
			sub(/^[^:]*:[ \t]*/, "", v)
			n = split(v, parts, /,[ \t]*/)
			for (k = 1; k <= n; k++) {
				gsub(/^[ \t]+|[ \t]+$/, "", parts[k])
				if (parts[k] != "")
					printf "%s\t%s\t%s\n", subject, field, parts[k]
			}
		}
	}
	/^Dry-OK\. Log says:$/ { inhdr = 1; nh = 0; subject = ""; next }
	inhdr && /^$/ { flush(); inhdr = 0; next }
	inhdr && /^[ \t]/ { sub(/^[ \t]+/, " "); hdr[nh] = hdr[nh] $0; next }
	inhdr { hdr[++nh] = $0 }
	' | sort
}

# Lines only in the first or only in the second sorted text, marked - / +.
diff_lines()
{
	diff <(printf '%s\n' "$1") <(printf '%s\n' "$2") |
		sed -n 's/^< /- /p; s/^> /+ /p'
}
