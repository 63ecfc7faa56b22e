#!/usr/bin/env bash
# git send-email with `git maintainer --to` / `--cc` as its to-cmd and
# cc-cmd, in dry-run mode (nothing is sent, no network, no prompt): the
# recipients of every message of a 3-patch series and its cover letter,
# run from the top of the repository, from a subdirectory, with the series
# outside and inside the work tree, and with maintainer.* defaults set.
# Also counts how often send-email runs the cc command for each file.
#
# usage: tests/clients/send-email.sh BINARY

. "$(dirname -- "$0")/lib.sh"

[ $# -eq 1 ] || { echo "usage: $0 BINARY" >&2; exit 2; }
BIN=$(t_binary "$1") || exit 2

need_send_email

# No terminal for prompts: send-email reads its answers from stdin.
export GIT_SEND_EMAIL_NOTTY=1

REPO=$TMP/repo
if ! make_fixture "$REPO" || ! make_series "$REPO"; then
	echo "fixture failed" >&2
	exit 2
fi
format_series "$REPO" "$TMP/series" || exit 2
EXPECTED=$(expected_recipients)
# With --history the recipients are the same: THE REST's maintainer
# scores 0 where a section of the patch has its own M:, but the place
# the author (the sender) would take is his.
EXPECTED_HISTORY=$EXPECTED

# send_email DIR [OPTIONS...] -- FILES...: a dry run from DIR; the output
# in $TMP/out, the status in $rc.
send_email()
{
	local dir=$1

	shift
	(cd "$dir" && git send-email --dry-run --confirm=never \
		--suppress-cc=self --from='Test <test@example.com>' \
		--smtp-server=/bin/true --no-format-patch "$@") \
		</dev/null >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

# check_run NAME EXPECTED: the last run succeeded, sent 4 messages, and
# their recipients are EXPECTED.
check_run()
{
	local name=$1 expected=$2 got n

	if [ "$rc" -ne 0 ]; then
		not_ok "$name: send-email exits 0" "status $rc" "$(cat "$TMP/err")"
		return
	fi
	n=$(grep -c '^Dry-OK\. Log says:$' "$TMP/out")
	check_eq "$name: 4 messages" 4 "$n"
	got=$(send_email_recipients <"$TMP/out")
	if [ "$got" = "$expected" ]; then
		ok "$name: recipients of every message"
	else
		not_ok "$name: recipients of every message" \
			"(- missing, + unexpected)" "$(diff_lines "$expected" "$got")"
	fi
}

TO="$BIN --to"
CC="$BIN --cc"

# 1. From the top, the series in a directory outside the repository.
send_email "$REPO" --to-cmd="$TO" --cc-cmd="$CC" "$TMP"/series/*.patch
check_run "top, series outside" "$EXPECTED"

# 2. From a subdirectory, the same series.
send_email "$REPO/docs" --to-cmd="$TO" --cc-cmd="$CC" "$TMP"/series/*.patch
check_run "subdirectory" "$EXPECTED"

# 3. From the top, the series inside the work tree, named relatively.
format_series "$REPO" "$REPO/outgoing" || exit 2
rel=(outgoing/0000-cover-letter.patch outgoing/0001-alpha-change.patch
     outgoing/0002-beta-fix.patch outgoing/0003-readme-update.patch)
send_email "$REPO" --to-cmd="$TO" --cc-cmd="$CC" "${rel[@]}"
check_run "top, series in the work tree" "$EXPECTED"

# 4. From a subdirectory, the series named relatively to it.
send_email "$REPO/docs" --to-cmd="$TO" --cc-cmd="$CC" "${rel[@]/#/../}"
check_run "subdirectory, relative series" "$EXPECTED"
rm -rf "$REPO/outgoing"

# 5. Configured defaults: maintainer.rolestats must not leak role text into
# --to/--cc, and maintainer.history adds the people of the recent history
# to Cc (the fixture's commits are from January 2024). A wrapper keeps what
# the cc command printed. Test, the author of the series, comes from the
# history, but is the sender and so dropped by --suppress-cc=self; Dave
# signed "beta: broken" and is already a Cc of the beta patch; Bob signed
# it too but is a To recipient there, so never a Cc: the recipients stay
# the same, but for THE REST's maintainer (EXPECTED_HISTORY).
cat >"$TMP/cc-tee" <<EOF
#!/bin/bash
set -o pipefail
"$BIN" --cc "\$@" | tee -a "$TMP/cc-out.log"
EOF
chmod +x "$TMP/cc-tee"
git -C "$REPO" config maintainer.rolestats true
git -C "$REPO" config maintainer.history true
git -C "$REPO" config maintainer.since 2023-06-01
rm -f "$TMP/cc-out.log"
send_email "$REPO" --to-cmd="$TO" --cc-cmd="$TMP/cc-tee" "$TMP"/series/*.patch
check_run "maintainer.history, maintainer.rolestats" "$EXPECTED_HISTORY"
touch "$TMP/cc-out.log"
# Test only wrote and signed: within the default budget the reviewers of
# MAINTAINERS outrank them; with no budget the walk's people all show.
check_contains "maintainer.history: the history's people are printed" \
	'Test <test@example.com>' \
	"$(cd "$REPO" && "$BIN" --cc --max-recipients=0 "$TMP"/series/*.patch)"
if grep -q '(' "$TMP/cc-out.log"; then
	not_ok "maintainer.rolestats: no role text with --cc" "$(cat "$TMP/cc-out.log")"
else
	ok "maintainer.rolestats: no role text with --cc"
fi
# The command line wins over the configuration.
rm -f "$TMP/cc-out.log"
send_email "$REPO" --to-cmd="$TO" --cc-cmd="$TMP/cc-tee --no-history" \
	"$TMP"/series/*.patch
check_run "--no-history over maintainer.history" "$EXPECTED_HISTORY"
touch "$TMP/cc-out.log"
if grep -q 'test@example.com' "$TMP/cc-out.log"; then
	not_ok "--no-history overrides maintainer.history" "$(cat "$TMP/cc-out.log")"
else
	ok "--no-history overrides maintainer.history"
fi
git -C "$REPO" config --unset maintainer.rolestats
git -C "$REPO" config --unset maintainer.history
git -C "$REPO" config --unset maintainer.since

# maintainer.format=json is a default for people reading the output; a mail
# program asking with --to/--cc still needs one address a line.
git -C "$REPO" config maintainer.format json
send_email "$REPO" --to-cmd="$TO" --cc-cmd="$CC" "$TMP"/series/*.patch
check_run "maintainer.format=json" "$EXPECTED"
git -C "$REPO" config --unset maintainer.format

# 6. How often is the cc command run per file? A reading of
# git-send-email.perl says twice from git 2.41 on when
# validation is on (the default): once in the validation pass, with
# GIT_SENDEMAIL_FILE_COUNTER set, and once when sending; once before 2.41.
# Each call appends "COUNTER FILE" to a log; the counts per file confirm
# or refute that.
cat >"$TMP/cc-logger" <<EOF
#!/bin/sh
for last; do :; done
printf '%s %s\n' "\${GIT_SENDEMAIL_FILE_COUNTER:--}" "\${last##*/}" >>"$TMP/cc.log"
exec "$BIN" --cc "\$@"
EOF
chmod +x "$TMP/cc-logger"

# calls_per_file: "FILE N" for each file of the log, sorted.
calls_per_file()
{
	awk '{ n[$2]++ } END { for (f in n) print f, n[f] }' "$TMP/cc.log" | sort
}

series_files=$(cd "$TMP/series" && ls -- *.patch)
gitver=$(git_version_number)
if [ "$gitver" -ge 241 ]; then
	want=2
else
	want=1
fi

for mode in default --validate --no-validate; do
	rm -f "$TMP/cc.log"
	if [ $mode = default ]; then
		send_email "$REPO" --to-cmd="$TO" --cc-cmd="$TMP/cc-logger" \
			"$TMP"/series/*.patch
	else
		send_email "$REPO" $mode --to-cmd="$TO" \
			--cc-cmd="$TMP/cc-logger" "$TMP"/series/*.patch
	fi
	check_run "cc command logged ($mode)" "$EXPECTED"
	[ -f "$TMP/cc.log" ] || : >"$TMP/cc.log"
	n=$want
	[ $mode = --no-validate ] && n=1
	expected_calls=$(for f in $series_files; do echo "$f $n"; done | sort)
	got_calls=$(calls_per_file)
	check_eq "cc command runs $n time(s) per file ($mode, git $(git --version | cut -d' ' -f3))" \
		"$expected_calls" "$got_calls"
	counted=$(awk '$1 != "-"' "$TMP/cc.log" | wc -l)
	check_eq "calls with GIT_SENDEMAIL_FILE_COUNTER set ($mode)" \
		$(( (n - 1) * $(echo "$series_files" | wc -l) )) "$counted"
	printf '# %s: cc command calls per file: %s\n' "$mode" \
		"$(calls_per_file | awk '{ printf "%s%s=%s", sep, $1, $2; sep = " " }')"
done

# 7. An empty answer is fine: the README patch has no Cc at all, and
# --suppress-cc=cccmd leaves the cc command out entirely.
send_email "$REPO" --to-cmd="$TO" --cc-cmd="$CC" --suppress-cc=cccmd \
	"$TMP"/series/*.patch
check_run "--suppress-cc=cccmd" "$(printf '%s\n' "$EXPECTED" | grep -P '\tTo\t')"

t_done
