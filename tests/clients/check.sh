#!/usr/bin/env bash
# --check on real mail: a series written by git format-patch and sent by
# git send-email (through a sendmail stand-in that keeps each message,
# which is what `--dry-run` shows), then the same thread read by b4 from
# a local mbox (offline). Each patch's verdict is asserted:
#   1 "alpha: change"  sent to everyone the rules name         -> ok
#   2 "beta: tweak"    Bob, BETA's maintainer, left out        -> missing
#   3 "beta: fix"      Dave, author of the Fixes: commit, out  -> missing
#   4 "alpha: again"   Alice only at an address .mailmap joins -> ok
# Also --check=approvals on a history with acks from the right and the
# wrong people, in the work tree and in a bare clone (--rev), and the
# exit statuses.
#
# usage: tests/clients/check.sh BINARY

. "$(dirname -- "$0")/lib.sh"

[ $# -eq 1 ] || { echo "usage: $0 BINARY" >&2; exit 2; }
BIN=$(t_binary "$1") || exit 2

need_send_email
export GIT_SEND_EMAIL_NOTTY=1

REPO=$TMP/repo
make_fixture "$REPO" || { echo "fixture failed" >&2; exit 2; }
fixed=$(git -C "$REPO" rev-parse --short=12 HEAD)
(
	cd "$REPO" &&
	git config user.name Test && git config user.email test@example.com &&
	echo 'Alice Maintainer <alice@example.com> <alice@old.example.net>' \
		>.mailmap &&
	git add .mailmap && git commit -q -m 'mailmap' &&
	printf 'int alpha_more;\n' >>alpha/a.c &&
	git commit -q -a -s -m 'alpha: change' &&
	printf 'int beta_more;\n' >>beta/b.c &&
	git commit -q -a -s -m 'beta: tweak' &&
	printf 'int beta_fixed;\n' >>beta/b.c &&
	git commit -q -a -s -m 'beta: fix' \
		-m "Fixes: $fixed (\"beta: add a broken thing\")" &&
	printf 'int alpha_again;\n' >>alpha/a.c &&
	git commit -q -a -s -m 'alpha: again' &&
	git format-patch -q -4 -o "$TMP/series"
) || { echo "series failed" >&2; exit 2; }

ALICE='Alice Maintainer <alice@example.com>'
BOB='Bob Maintainer <bob@example.com>'
CHIEF='Chief Penguin <chief@example.com>'
LA=alpha@lists.example.org LB=beta@lists.example.org LR=rest@lists.example.org

# The recipients of each patch: `rcpt to|cc FILE`, as send-email's
# to-cmd and cc-cmd run it.
cat >"$TMP/rcpt" <<EOF
#!/bin/sh
for f; do :; done
case "\$1 \${f##*/}" in
"to 0001-"*) exec "$BIN" --to "\$f" ;;
"cc 0001-"*) exec "$BIN" --cc "\$f" ;;
"to 0002-"*) printf '%s\n' "$CHIEF" $LB $LR ;;
"to 0003-"*) printf '%s\n' "$BOB" "$CHIEF" $LB $LR ;;
"to 0004-"*) printf '%s\n' "Alice <alice@old.example.net>" "$CHIEF" $LA $LR ;;
"cc 0004-"*) echo 'Rob Reviewer <rob@example.com>' ;;
esac
EOF
# The sendmail stand-in: each message into $TMP/mail/NNNN.eml.
cat >"$TMP/sendmail" <<EOF
#!/bin/sh
mkdir -p "$TMP/mail"
n=\$(ls "$TMP/mail" | wc -l)
cat >"$TMP/mail/\$(printf %04d \$((n + 1))).eml"
EOF
chmod +x "$TMP/rcpt" "$TMP/sendmail"

send_email()
{
	(cd "$REPO" && git send-email --confirm=never --suppress-cc=self \
		--from='Test <test@example.com>' --to-cmd="$TMP/rcpt to" \
		--cc-cmd="$TMP/rcpt cc" --no-format-patch "$@" \
		"$TMP"/series/*.patch) </dev/null >"$TMP/out" 2>&1
}
send_email --dry-run || { cat "$TMP/out"; exit 2; }
dry=$(send_email_recipients <"$TMP/out")
send_email --smtp-server="$TMP/sendmail" || { cat "$TMP/out"; exit 2; }
sent=$(for f in "$TMP"/mail/*.eml; do echo 'Dry-OK. Log says:'; cat "$f"; done |
	send_email_recipients)
check_eq "the mails sent have the dry run's recipients" "$dry" "$sent"
check_eq "four mails" 4 "$(ls "$TMP/mail" | wc -l)"

# run [ARGS...]: git maintainer in the work tree; $out, $err, $rc.
run()
{
	out=$(cd "$REPO" && "$BIN" "$@" 2>"$TMP/err")
	rc=$?
	err=$(cat "$TMP/err")
}

M=$TMP/mail
run --check "$M"
check_eq "a miss: exit 1" 1 "$rc"
check_eq "nothing on stderr" "" "$err"
check_contains "1: the maintainer reached" "  ok: $ALICE (maintainer:ALPHA DRIVER)" \
	"$(printf '%s\n' "$out" | sed -n '/0001.eml:/,/^$/p')"
check_eq "1: nothing missing" "" \
	"$(printf '%s\n' "$out" | sed -n '/0001.eml:/,/^$/p' | grep missing)"
check_eq "2: Bob is missing, and only Bob" \
	"  missing: $BOB (supporter:BETA LIBRARY)" \
	"$(printf '%s\n' "$out" | sed -n '/0002.eml:/,/^$/p' | grep missing)"
check_eq "3: Dave, author of the Fixes: commit, is missing" \
	"  missing: Dave Fixer <dave@example.com> (author of Fixes: $fixed, blamed_fixes)" \
	"$(printf '%s\n' "$out" | sed -n '/0003.eml:/,/^$/p' | grep missing)"
check_contains "4: Alice reached through the .mailmap" \
	"  ok: $ALICE (maintainer:ALPHA DRIVER) via Alice <alice@old.example.net>" \
	"$(printf '%s\n' "$out" | sed -n '/0004.eml:/,/^$/p')"
check_eq "4: nothing missing" "" \
	"$(printf '%s\n' "$out" | sed -n '/0004.eml:/,/^$/p' | grep missing)"
check_contains "2: the reviewer not reached is advice" \
	"  advice: Carol Reviewer <carol@example.com> (reviewer:BETA LIBRARY)" \
	"$(printf '%s\n' "$out" | sed -n '/0002.eml:/,/^$/p')"
run --check --format=json "$M"
check_eq "json: missing per patch" "$(printf '0 0001\n1 0002\n1 0003\n0 0004')" \
	"$(printf '%s\n' "$out" | sed -n 's/^ {"missing": \([0-9]*\), "name": "[^"]*\/\([0-9]*\)\.eml".*/\1 \2/p')"
check_contains "json: the total" '{"check": "recipients", "missing": 2, "patches": [' "$out"
run --check "$M/0001.eml" "$M/0004.eml"
check_eq "all reached: exit 0" 0 "$rc"
run --check --check-reviewers "$M/0002.eml"
check_eq "--check-reviewers: Carol is missing too" \
	"  missing: $BOB (supporter:BETA LIBRARY)
  missing: Carol Reviewer <carol@example.com> (reviewer:BETA LIBRARY)" \
	"$(printf '%s\n' "$out" | grep missing)"

# A cover letter's recipients count for every patch of its series.
{
	printf 'From: Test <test@example.com>\nTo: %s\n' "$BOB"
	printf 'Subject: [PATCH 0/1] Beta\n\nOne patch.\n'
} >"$TMP/cover.eml"
run --check "$TMP/cover.eml" "$M/0002.eml"
check_eq "the cover letter's To: covers Bob" 0 "$rc"

# The README's recipe: the recipients written by format-patch --to/--cc.
git -C "$REPO" format-patch -q --cover-letter -4 -o "$TMP/outgoing" \
	--to="$ALICE" --to="$BOB" --to="$CHIEF" --to=$LA --to=$LB --to=$LR \
	--cc='Rob Reviewer <rob@example.com>' || exit 2
run --check "$TMP/outgoing"
check_eq "format-patch --to/--cc: only Dave missing" \
	"1|  missing: Dave Fixer <dave@example.com> (author of Fixes: $fixed, blamed_fixes)" \
	"$rc|$(printf '%s\n' "$out" | grep missing)"

# ---- b4: the thread as an mbox, with Bob's ack of patch 2 ----
if command -v b4 >/dev/null 2>&1; then
	export http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9
	export HTTP_PROXY=$http_proxy HTTPS_PROXY=$https_proxy
	mid=$(sed -n 's/^Message-Id: *//Ip' "$M/0002.eml" | head -n 1)
	{
		for f in "$M"/*.eml; do
			echo 'From mboxrd@z Thu Jan  1 00:00:00 1970'
			cat "$f"
			echo
		done
		echo 'From mboxrd@z Thu Jan  1 00:00:00 1970'
		printf 'From: %s\nTo: Test <test@example.com>\n' "$BOB"
		printf 'Subject: Re: [PATCH 2/4] beta: tweak\n'
		printf 'Date: Mon, 1 Jan 2024 12:00:00 +0000\n'
		printf 'Message-Id: <ack@example.com>\nIn-Reply-To: %s\n' "$mid"
		printf 'References: %s\n\nFine.\n\nAcked-by: %s\n' "$mid" "$BOB"
	} >"$TMP/thread.mbox"
	mkdir "$TMP/b4mbox" "$TMP/b4am"
	(cd "$REPO" && b4 --offline-mode -n mbox -m "$TMP/thread.mbox" \
		-o "$TMP/b4mbox" && b4 --offline-mode -n am \
		-m "$TMP/thread.mbox" -o "$TMP/b4am") </dev/null \
		>"$TMP/b4.log" 2>&1 || { cat "$TMP/b4.log"; exit 2; }
	run --check --format=json "$TMP/b4mbox"
	check_eq "b4 mbox: the same misses" \
		"$(printf '0 :1\n1 :2\n1 :3\n0 :4')" \
		"$(printf '%s\n' "$out" | sed -n 's/^ {"missing": \([0-9]*\), "name": "[^"]*\(:[0-9]\)".*/\1 \2/p')"
	run --check=approvals "$TMP/b4am"
	check_eq "b4 am: Bob's ack covers BETA" \
		"  ok: BETA LIBRARY (Acked-by: $BOB)" \
		"$(printf '%s\n' "$out" | sed -n '/beta: tweak/,/^$/p' | grep 'BETA')"
	check_eq "b4 am: the other patches wait for their maintainers" \
		"  missing: ALPHA DRIVER (not approved); could: $ALICE
  missing: BETA LIBRARY (not approved); could: $BOB
  missing: ALPHA DRIVER (not approved); could: $ALICE" \
		"$(printf '%s\n' "$out" | grep missing)"
else
	printf '# b4 is not installed (Debian: b4): its part is skipped\n'
fi

# ---- approvals on a history: acks from the right and the wrong people ----
(
	cd "$REPO" &&
	git checkout -q -b approvals main~4 &&
	commit() { git commit -q -a --allow-empty "$@"; } &&
	echo 1 >>alpha/a.c && commit -m 'alpha: acked by Bob' \
		-m "Acked-by: $BOB" -m 'Signed-off-by: Test <test@example.com>' &&
	echo 1 >>beta/b.c && commit -m 'beta: reviewed by Bob' \
		-m "Signed-off-by: Test <test@example.com>
Reviewed-by: $BOB" &&
	echo 2 >>alpha/a.c && commit -m 'alpha: Alice signs after' \
		-m "Signed-off-by: Test <test@example.com>
Signed-off-by: Alice <alice@old.example.net>" &&
	echo 3 >>alpha/a.c && commit -m 'alpha: Alice signs first' \
		-m "Signed-off-by: Alice <alice@example.com>
Signed-off-by: Test <test@example.com>" &&
	echo 4 >>alpha/a.c && GIT_COMMITTER_NAME=Alice \
		GIT_COMMITTER_EMAIL=alice@example.com commit -m 'alpha: Alice commits' &&
	echo 2 >>README && commit -m 'readme'
) || { echo "history failed" >&2; exit 2; }
want="acked by Bob|missing ALPHA DRIVER
reviewed by Bob|ok BETA LIBRARY
Alice signs after|ok ALPHA DRIVER
Alice signs first|missing ALPHA DRIVER
Alice commits|ok ALPHA DRIVER
readme|apart THE REST"
# verdicts: "SUBJECT|VERDICT SECTION" for every section but THE REST
# (and THE REST where it is the only one).
verdicts()
{
	printf '%s\n' "$out" | awk '
		/^[^ ]/ { sub(/^[0-9a-f]*: /, ""); sub(/^[a-z]*: /, "")
			s = $0; next }
		/^  / { v = $1; sub(/:$/, "", v); $1 = ""
			sub(/^ /, ""); sub(/ \(.*$/, "")
			if ($0 != "THE REST" || s == "readme")
				print s "|" v " " $0 }'
}
run --check=approvals main~4..approvals
check_eq "approvals: exit 1" 1 "$rc"
check_eq "approvals: each commit's sections" "$want" "$(verdicts)"
check_contains "approvals: who covered it" \
	"  ok: ALPHA DRIVER (committed by Alice <alice@example.com>)" "$out"
check_contains "approvals: who could" \
	"  missing: ALPHA DRIVER (not approved); could: $ALICE" "$out"
check_contains "approvals: THE REST apart" \
	"  apart: THE REST (catch-all); could: $CHIEF" "$out"
run --check=approvals approvals~1
check_eq "approvals: one commit covered: exit 0" 0 "$rc"
check_eq "approvals: one commit, one block" 3 "$(printf '%s\n' "$out" | wc -l)"

git clone -q --bare "$REPO" "$TMP/bare.git"
bare=$(cd "$TMP/bare.git" && "$BIN" --rev=approvals --check=approvals \
	main~4..approvals 2>&1)
run --check=approvals main~4..approvals
check_eq "a bare repository on --rev: the same verdicts" "$out" "$bare"
bare=$(cd "$TMP/bare.git" && "$BIN" --rev=approvals --check "$M" 2>&1)
run --check "$M"
check_eq "a bare repository: the same recipients verdicts" "$out" "$bare"

# ---- usage and errors ----
run --check=bogus "$M"
check_eq "--check=bogus: 129" 129 "$rc"
run --check
check_eq "--check without patches: 129" 129 "$rc"
run --check -f alpha/a.c
check_eq "--check -f: 129" 129 "$rc"
run --check "$TMP/nonesuch"
check_eq "a file not found: 128" "128|fatal: file '$TMP/nonesuch' not found" \
	"$rc|$err"
run --check "$REPO/README"
check_eq "no patch at all: 128" "128|fatal: no patch to check" "$rc|$err"
run --check=approvals no-such-rev..main
check_eq "a bad range: 128" 128 "$rc"

t_done
