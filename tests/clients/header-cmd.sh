#!/usr/bin/env bash
# `git maintainer --headers` as sendemail.headerCmd. git 2.41 runs the
# header command once per message and adds its lines to the message's own
# headers; git 2.39 has no --header-cmd, so this test does the same by
# hand: it runs `BINARY --headers PATCH` for each file of a format-patch
# series, inserts the output after the patch's headers (before the blank
# line that ends them), and gives the result to `git send-email --dry-run`
# without --to-cmd or --cc-cmd. It checks the header text itself (To:
# then Cc:, ", " between addresses, folded before 78 columns with
# one-space continuation lines, no empty header) and the recipients
# send-email reads from it.
#
# usage: tests/clients/header-cmd.sh BINARY

. "$(dirname -- "$0")/lib.sh"

[ $# -eq 1 ] || { echo "usage: $0 BINARY" >&2; exit 2; }
BIN=$(t_binary "$1") || exit 2

need_send_email
export GIT_SEND_EMAIL_NOTTY=1

REPO=$TMP/repo
if ! make_fixture "$REPO" || ! make_series "$REPO"; then
	echo "fixture failed" >&2
	exit 2
fi
format_series "$REPO" "$TMP/series" || exit 2
EXPECTED=$(expected_recipients)

# check_header_text NAME TEXT: the form of one --headers answer.
check_header_text()
{
	local name=$1 text=$2 bad

	bad=$(printf '%s\n' "$text" | awk '
		length($0) > 78 { print "longer than 78 columns: " $0 }
		/[ \t]$/ { print "trailing white space: " $0 }
		/^\t/ || /^  / { print "continuation not one space: " $0 }
		/^$/ { print "empty line" }
		/^[^ ]/ {
			if ($0 !~ /^(To|Cc): [^ ]/)
				print "not a To: or Cc: header: " $0
			f = substr($0, 1, 2)
			if (seen[f]++)
				print "header given twice: " f
			if (f == "To" && seen["Cc"])
				print "To: after Cc:"
		}
		NR == 1 && /^ / { print "starts with a continuation line" }
		/,[^ ]/ || / ,/ { print "addresses not separated by \", \": " $0 }
	')
	if [ -z "$bad" ]; then
		ok "$name: header form"
	else
		not_ok "$name: header form" "$bad" "in:" "$text"
	fi
}

mkdir "$TMP/with-headers"
# All headers first, from the untouched series, as send-email would see
# the files; then the edited copies.
for p in "$TMP"/series/*.patch; do
	f=${p##*/}
	(cd "$REPO" && "$BIN" --headers "$p") >"$TMP/$f.headers" 2>"$TMP/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		not_ok "$f: --headers exits 0" "status $rc" "$(cat "$TMP/err")"
		continue
	fi
	ok "$f: --headers exits 0"
	check_header_text "$f" "$(cat "$TMP/$f.headers")"
done
for p in "$TMP"/series/*.patch; do
	f=${p##*/}
	awk -v h="$TMP/$f.headers" '
		!done && /^$/ {
			while ((getline line < h) > 0)
				print line
			done = 1
		}
		{ print }
	' "$p" >"$TMP/with-headers/$f"
done

# The README patch has no Cc recipient: no Cc: line at all.
if grep -q '^Cc:' "$TMP/0003-readme-update.patch.headers"; then
	not_ok "no Cc: header when nobody is Cc" "$(cat "$TMP/0003-readme-update.patch.headers")"
else
	ok "no Cc: header when nobody is Cc"
fi

# A long list is folded: the cover letter's To: has six addresses.
lines=$(grep -c '' "$TMP/0000-cover-letter.patch.headers")
if [ "$lines" -gt 2 ]; then
	ok "the cover letter's headers are folded"
else
	not_ok "the cover letter's headers are folded" "$(cat "$TMP/0000-cover-letter.patch.headers")"
fi

(cd "$REPO" && git send-email --dry-run --confirm=never --suppress-cc=self \
	--from='Test <test@example.com>' --smtp-server=/bin/true \
	--no-format-patch "$TMP"/with-headers/*.patch) \
	</dev/null >"$TMP/out" 2>"$TMP/err"
rc=$?
check_eq "send-email exits 0" 0 "$rc"
[ $rc -eq 0 ] || printf '%s\n' "$(cat "$TMP/err")" | sed 's/^/#   /'
check_eq "4 messages" 4 "$(grep -c '^Dry-OK\. Log says:$' "$TMP/out")"
got=$(send_email_recipients <"$TMP/out")
if [ "$got" = "$EXPECTED" ]; then
	ok "recipients of every message"
else
	not_ok "recipients of every message" "(- missing, + unexpected)" \
		"$(diff_lines "$EXPECTED" "$got")"
fi

# The same answers from a subdirectory, and for a cover letter named by
# --series instead of by its directory.
(cd "$REPO/docs" && "$BIN" --headers "$TMP/series/0002-beta-fix.patch") \
	>"$TMP/sub.headers" 2>/dev/null
check_eq "--headers from a subdirectory" \
	"$(cat "$TMP/0002-beta-fix.patch.headers")" "$(cat "$TMP/sub.headers")"
(cd "$REPO" && "$BIN" --headers --series="$TMP/series") \
	>"$TMP/series.headers" 2>/dev/null
check_eq "--headers --series=DIR gives the cover letter's headers" \
	"$(cat "$TMP/0000-cover-letter.patch.headers")" "$(cat "$TMP/series.headers")"

t_done
