#!/usr/bin/env bash
# Hostile-input tests: run every case under fixtures/hostile/ with
# tests/golden.sh (same case layout as fixtures/cli/), each run of the
# binary limited to HOSTILE_TIMEOUT seconds (default 20) so that a hang is
# a failure, not a stuck suite.
#
# usage: tests/hostile.sh [BINARY [CASES_DIR]]
#
# BINARY defaults to build/git-maintainer, CASES_DIR to fixtures/hostile.
# `tests/hostile.sh build/git-maintainer fixtures/hostile-pending` runs the
# cases that show known bugs (expected to fail until they are fixed).
# Every case's recipients are also checked to be RFC 5322 mailboxes, one
# per line (see the wrapper below); `tests/hostile.sh BINARY fixtures/cli`
# checks the golden cases that way too.
# Prints one PASS/FAIL line per case and "N passed, M failed"; exits 1 if
# any case failed, 2 on a usage error.

set -u

top=$(cd "$(dirname -- "$0")/.." && pwd -P)
bin=${1:-$top/build/git-maintainer}
cases=${2:-$top/fixtures/hostile}
limit=${HOSTILE_TIMEOUT:-20}

die() {
	printf 'hostile: %s\n' "$*" >&2
	exit 2
}

case $bin in
*/*) ;;
*) bin=$(command -v -- "$bin") || die "'$bin' not found in PATH" ;;
esac
[ -x "$bin" ] || die "binary '$bin' is not executable"
[ -d "$cases" ] || die "no directory '$cases'"
bin=$(cd "$(dirname -- "$bin")" && pwd -P)/$(basename -- "$bin")
command -v timeout >/dev/null 2>&1 || die "timeout(1) is needed"

wrap=$(mktemp -d "${TMPDIR:-/tmp}/hostile.XXXXXXXX") || exit 2
trap 'rm -rf -- "$wrap"' EXIT
trap 'exit 1' HUP INT TERM
# golden.sh runs this wrapper in place of the binary. After a run that
# exits 0 (and prints recipients: not --unowned, --activity) it runs the
# binary again on the same input with only the recipients printed (no
# roles, no other groups; with --noemail, whose lists are printed only
# beside another group, --email with no person: the lists alone), and
# that run must exit 0, print recipients if the first printed an
# address, and every line of it must be one RFC 5322 mailbox
# (tests/property/mailbox); if not, the wrapper says why and exits 125,
# and the case fails. A FIFO argument gives its patch to one reader: its
# case (patch-is-fifo) is not run again, its expected.out is the check.
checker=$top/tests/property/mailbox
if ! command -v python3 >/dev/null 2>&1; then
	echo "hostile: no python3: the recipients are not checked as mailboxes"
	checker=
fi
cat >"$wrap/git-maintainer" <<WRAP
#!/usr/bin/env bash
in=\$(mktemp "$wrap/in.XXXXXX") && out=\$(mktemp "$wrap/out.XXXXXX") &&
	first=\$(mktemp "$wrap/first.XXXXXX") || exit 2
trap 'rm -f -- "\$in" "\$out" "\$first"' EXIT
cat >"\$in"
timeout -k 5 $limit '$bin' "\$@" <"\$in" >"\$first"
rc=\$?
cat "\$first"
[ \$rc -eq 0 ] && [ -n '$checker' ] || exit \$rc
for a in "\$@"; do	# modes whose lines are no recipients; a FIFO read once
	case \$a in --unowned | --activity) exit \$rc ;; esac
	[ -p "\$a" ] && exit \$rc
done
only=(--noroles --norolestats --noscm --nostatus --nosubsystem --noweb
	--nobug --nosubstatus --nosections --letters= --format=text
	'--separator=, ' --multiline)
args=()
for a in "\$@"; do
	[ "\$a" = -- ] && [ \${#only[@]} -gt 0 ] && args+=("\${only[@]}") && only=()
	case \$a in
	--noemail) args+=(--email --nom --nor --nofe --nogit --nogit-fallback
		--nogit-blame --nohistory) ;;
	*) args+=("\$a") ;;
	esac
done
args+=(\${only[@]+"\${only[@]}"})
timeout -k 5 $limit '$bin' "\${args[@]}" <"\$in" >"\$out" 2>/dev/null
rc2=\$?
if [ \$rc2 -ne 0 ]; then
	echo "hostile: the recipients-only run exited \$rc2" >&2
	exit 125
fi
if grep -q @ "\$first" && [ ! -s "\$out" ]; then
	echo "hostile: the recipients-only run printed none" >&2
	exit 125
fi
'$checker' "\$out" || exit 125
exit \$rc
WRAP
chmod +x "$wrap/git-maintainer"
pass=0
fail=0
for dir in "$cases"/*/; do
	dir=${dir%/}
	[ -f "$dir/args" ] || continue
	if "$top/tests/golden.sh" "$wrap/git-maintainer" "$dir"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
