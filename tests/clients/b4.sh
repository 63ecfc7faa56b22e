#!/usr/bin/env bash
# b4 with `git maintainer --to` / `--cc` as b4.send-auto-to-cmd and
# b4.send-auto-cc-cmd: `b4 prep --auto-to-cc` runs them for every patch of
# the prep branch, the patch on stdin, from the top of the repository, and
# writes the addresses as To:/Cc: trailers into the cover letter commit.
# Nothing is sent: b4 runs in offline mode, and any HTTP(S) access would
# go to a closed local port.
#
# usage: tests/clients/b4.sh BINARY

. "$(dirname -- "$0")/lib.sh"

[ $# -eq 1 ] || { echo "usage: $0 BINARY" >&2; exit 2; }
BIN=$(t_binary "$1") || exit 2

command -v b4 >/dev/null 2>&1 || t_skip "b4 is not installed (Debian: b4)"

export http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9
export HTTP_PROXY=$http_proxy HTTPS_PROXY=$https_proxy no_proxy='' NO_PROXY=''

REPO=$TMP/repo
make_fixture "$REPO" || { echo "fixture failed" >&2; exit 2; }
git -C "$REPO" config user.name Test
git -C "$REPO" config user.email test@example.com
fixed=$(git -C "$REPO" rev-parse --short=12 HEAD)

# b4 finds its cover letter with `git log --since=1.year`: the commits made
# from here on get the real date.
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE

b4_run()
{
	(cd "$1" && shift && b4 --offline-mode -n "$@") </dev/null \
		>"$TMP/out" 2>&1
	rc=$?
}

b4_run "$REPO" prep -n test
if [ $rc -ne 0 ]; then
	not_ok "b4 prep -n test" "status $rc" "$(cat "$TMP/out")"
	t_done
fi
ok "b4 prep -n test"
cover=$(git -C "$REPO" rev-parse HEAD)

# The series: one patch for ALPHA, one for BETA that fixes "beta: broken".
add_patches()
{
	(
		cd "$REPO" &&
		printf 'int alpha_more;\n' >>alpha/a.c &&
		git commit -q -a -s -m 'alpha: change' &&
		printf 'int beta_fixed;\n' >>beta/b.c &&
		git commit -q -a -s -m 'beta: fix' \
			-m "Fixes: $fixed (\"beta: add a broken thing\")"
	) || { echo "commits failed" >&2; exit 2; }
}
add_patches

# shlex splits the command: quote the binary's path.
git -C "$REPO" config b4.send-auto-to-cmd "'$BIN' --to"
git -C "$REPO" config b4.send-auto-cc-cmd "'$BIN' --cc"

# The cover letter commit is the first one after main; its trailers as
# "To|Cc<TAB>ADDRESS" lines, sorted.
cover_trailers()
{
	local c

	c=$(git -C "$REPO" rev-list --reverse main..HEAD | head -n 1)
	git -C "$REPO" log -1 --format=%B "$c" |
		sed -n 's/^\(To\|Cc\): *\(.*\)$/\1\t\2/p' | sort
}

expected=$(sort <<'EOF'
To	Alice Maintainer <alice@example.com>
To	Bob Maintainer <bob@example.com>
To	Chief Penguin <chief@example.com>
To	alpha@lists.example.org
To	beta@lists.example.org
To	rest@lists.example.org
Cc	Rob Reviewer <rob@example.com>
Cc	Carol Reviewer <carol@example.com>
Cc	Dave Fixer <dave@example.com>
EOF
)

# From a subdirectory: b4 runs the commands from the top itself.
b4_run "$REPO/docs" prep --auto-to-cc
if [ $rc -eq 0 ]; then
	ok "b4 prep --auto-to-cc exits 0"
else
	not_ok "b4 prep --auto-to-cc exits 0" "status $rc" "$(cat "$TMP/out")"
fi
got=$(cover_trailers)
if [ "$got" = "$expected" ]; then
	ok "cover letter To:/Cc: trailers"
else
	not_ok "cover letter To:/Cc: trailers" "(- missing, + unexpected)" \
		"$(diff_lines "$expected" "$got")" "b4 said:" "$(cat "$TMP/out")"
fi
if [ "$(git -C "$REPO" rev-list --count main..HEAD)" -eq 3 ]; then
	ok "the branch still has the cover letter and two patches"
else
	not_ok "the branch still has the cover letter and two patches" \
		"$(git -C "$REPO" log --oneline main..HEAD)"
fi
if grep -qiw 'sent\|sending\|smtp' "$TMP/out"; then
	not_ok "nothing sent" "$(cat "$TMP/out")"
else
	ok "nothing sent"
fi

# A second run finds nothing new and leaves the trailers alone.
b4_run "$REPO" prep --auto-to-cc
check_eq "second b4 prep --auto-to-cc exits 0" 0 "$rc"
check_eq "second run changes nothing" "$expected" "$(cover_trailers)"

# A patch that nobody covers but THE REST: b4 gets no Cc at all, and an
# empty answer from --cc is not an error.
(
	cd "$REPO" &&
	git reset -q --hard "$cover" &&
	printf 'Read me twice.\n' >>README &&
	git commit -q -a -s -m 'readme: update'
) || exit 2
b4_run "$REPO" prep --auto-to-cc
check_eq "README only: b4 prep --auto-to-cc exits 0" 0 "$rc"
check_eq "README only: To: THE REST, no Cc:" \
	"$(printf 'To\tChief Penguin <chief@example.com>\nTo\trest@lists.example.org')" \
	"$(cover_trailers)"

# The example .b4-config of contrib/, as a project would ship it: the
# commands are `git maintainer ...`, found on PATH.
example=$(dirname -- "$0")/../../contrib/b4-config
if [ -f "$example" ]; then
	git -C "$REPO" config --unset b4.send-auto-to-cmd
	git -C "$REPO" config --unset b4.send-auto-cc-cmd
	mkdir "$TMP/bin" && ln -s "$BIN" "$TMP/bin/git-maintainer"
	git -C "$REPO" reset -q --hard "$cover"
	add_patches
	cp "$example" "$REPO/.b4-config"
	PATH=$TMP/bin:$PATH b4_run "$REPO" prep --auto-to-cc
	check_eq "contrib/b4-config: b4 prep --auto-to-cc exits 0" 0 "$rc"
	got=$(cover_trailers)
	if [ "$got" = "$expected" ]; then
		ok "contrib/b4-config: cover letter To:/Cc: trailers"
	else
		not_ok "contrib/b4-config: cover letter To:/Cc: trailers" \
			"(- missing, + unexpected)" "$(diff_lines "$expected" "$got")" \
			"b4 said:" "$(cat "$TMP/out")"
	fi
else
	not_ok "contrib/b4-config exists" "$example"
fi

t_done
