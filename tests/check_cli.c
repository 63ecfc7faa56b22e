#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"

#include "gm_tests.h"
#include "gm_testutil.h"

#define ALPHA_SHORT "ALPHA SUBSYSTEM WITH A VERY LONG NAME THAT EXCE..."

static const struct gm_test_file old_files[] = {
	{ "MAINTAINERS", "OLDSEC\nM:\tOld Maint <old@example.com>\n"
	  "F:\tdrivers/\n", 0 },
	{ "drivers/net/foo/a.c", "\n", 0 },
	{ "Makefile", "\n", 0 },
};

/* Fixture A's tree (§16). */
static const struct gm_test_file new_files[] = {
	{ "MAINTAINERS", gm_test_fixture_a, 0 },
	{ "drivers/net/foo/a.c", "\n", 0 },
	{ "drivers/net/foo/a.cpp", "\n", 0 },
	{ "drivers/net/bar/b.c", "\n", 0 },
	{ "drivers/gpio/gpio-x.c", "\n", 0 },
	{ "include/linux/foo.h", "\n", 0 },
	{ "fs/ext4/inode.c", "\n", 0 },
	{ "fs/ext4/sub/deep.c", "\n", 0 },
	{ "Makefile", "\n", 0 },
	{ "Documentation/devicetree/bindings/x.yaml",
	  "maintainers:\n"
	  "  - Jane Doe <jane@doe.org>\n"
	  "  - devicetree@vger.kernel.org\n"
	  "  - \"Zo\xc3\xab \xc3\x85ngstr\xc3\xb6m\" <zoe@example.org>\n", 0 },
};

static const struct gm_test_commit history[] = {
	{ "old\n", 1700000000, old_files, ARRAY_SIZE(old_files) },
	{ "fixture A\n", 1700003600, new_files, ARRAY_SIZE(new_files) },
};

static char *repo_dir, *home_dir, *outside_dir;

/* Unchecked: the repository, with a dirty MAINTAINERS in its work tree. */
static void cli_setup(void)
{
	static const char dirty[] =
		"DIRTY\nM:\tDirty <dirty@example.com>\nF:\t*\nF:\t*/\n";

	ck_assert_int_eq(gm_test_repo_create(&repo_dir, NULL, history,
					     ARRAY_SIZE(history)), 0);
	ck_assert_int_eq(gm_test_write_file(repo_dir, "MAINTAINERS", dirty), 0);
	ck_assert_int_eq(gm_test_write_file(repo_dir, "untracked.c", "\n"), 0);
	home_dir = gm_test_tmpdir();
	outside_dir = gm_test_tmpdir();
	ck_assert_ptr_nonnull(home_dir);
	ck_assert_ptr_nonnull(outside_dir);
}

static void cli_teardown(void)
{
	gm_test_rmtree(repo_dir);
	gm_test_rmtree(home_dir);
	gm_test_rmtree(outside_dir);
	repo_dir = home_dir = outside_dir = NULL;
}

/* Run the program in `sub` of the repository. */
static void run(struct gm_test_run *r, const char *sub, const char *stdin_text,
		const char *const *args)
{
	struct gm_buf cwd = GM_BUF_INIT;

	gm_buf_printf(&cwd, "%s%s%s", repo_dir, *sub ? "/" : "", sub);
	ck_assert_int_eq(gm_test_run_binary(r, cwd.ptr, home_dir, NULL,
					    stdin_text, args), 0);
	gm_buf_release(&cwd);
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* E1 as this tool prints it by default: no roles. */
static const char e1_plain[] =
	"\"Bob O'Neil\" <bob@example.com>\n"
	"\"Carol, Jr.\" <carol@example.com>\n"
	"Alice Example <alice@example.com>\n"
	"Rob Reviewer <rob@example.com>\n"
	"beta@lists.example.com\n"
	"alpha@lists.example.com\n"
	"gamma@lists.example.com\n"
	"linux-kernel@vger.kernel.org\n";

/* The format-patch file of E17. */
static const char patch_e17[] =
	"From 1234567890abcdef1234567890abcdef12345678 "
	"Mon Sep 17 00:00:00 2001\n"
	"From: Some One <some@one.com>\n"
	"Subject: [PATCH] fs: touch beta_magic stuff\n"
	"\n"
	"Fixes: abcdef123456 (\"something\")\n"
	"Signed-off-by: Some One <some@one.com>\n"
	"---\n"
	" fs/ext4/inode.c | 1 +\n"
	" 1 file changed, 1 insertion(+)\n"
	"\n"
	"diff --git a/fs/ext4/inode.c b/fs/ext4/inode.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/fs/ext4/inode.c\n"
	"+++ b/fs/ext4/inode.c\n"
	"@@ -1,3 +1,4 @@\n"
	" context\n"
	"+added\n"
	"-removed\n";

START_TEST(test_cli_help_exits_129)
{
	static const char *const args[] = { "-h", NULL };
	struct gm_test_run r;

	run(&r, "", NULL, args);
	ck_assert_int_eq(r.status, 129);
	ck_assert(starts_with(r.out, "usage: git maintainer"));
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_version)
{
	static const char *const args[] = { "--version", NULL };
	struct gm_test_run r;

	run(&r, "", NULL, args);
	ck_assert_int_eq(r.status, 0);
	ck_assert(starts_with(r.out, "git-maintainer version "));
	ck_assert_str_eq(r.err, "");
	gm_test_run_release(&r);
}
END_TEST

/* Bad input: a one-line message, a defined status, nothing on stdout. */
struct exit_case {
	const char *const args[4];
	int status;
	const char *prefix;	/* of stderr */
};

static const struct exit_case exit_cases[] = {
	{ { "--bogus", "-f", "Makefile", NULL }, 129, "error: " },
	{ { "--noemail", "-f", "Makefile", NULL }, 129, "error: " },
	{ { "--rev=no-such-rev", "-f", "Makefile", NULL }, 128, "fatal: " },
	{ { "-f", "no/such/file.c", NULL }, 128, "fatal: " },
};

START_TEST(test_cli_exit_table)
{
	const struct exit_case *c = &exit_cases[_i];
	struct gm_test_run r;

	run(&r, "", NULL, c->args);
	ck_assert_int_eq(r.status, c->status);
	ck_assert_msg(starts_with(r.err, c->prefix), "%s: stderr '%s'",
		      c->args[0], r.err);
	if (c->status == 128)	/* usage errors go on with the usage */
		ck_assert_ptr_eq(strchr(r.err, '\n'),
				 r.err + strlen(r.err) - 1);
	ck_assert_str_eq(r.out, "");
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_not_a_repository_exits_128)
{
	static const char *const args[] = { "-f", "Makefile", NULL };
	struct gm_test_run r;

	ck_assert_int_eq(gm_test_run_binary(&r, outside_dir, home_dir, "/tmp",
					    NULL, args), 0);
	ck_assert_int_eq(r.status, 128);
	ck_assert(starts_with(r.err, "fatal: "));
	ck_assert_str_eq(r.out, "");
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_default_output_has_no_roles)
{
	static const char *const args[] = { "-f", "drivers/net/foo/a.c", NULL };
	struct gm_test_run r;

	run(&r, "", NULL, args);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, e1_plain);
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_rolestats_adds_roles)
{
	static const char *const args[] = {
		"--rolestats", "-f", "drivers/net/foo/a.c", NULL
	};
	struct gm_test_run r;

	run(&r, "", NULL, args);
	ck_assert_int_eq(r.status, 0);
	/* E2 */
	ck_assert_str_eq(r.out,
		"\"Bob O'Neil\" <bob@example.com> (odd fixer:BETA DRIVER)\n"
		"\"Carol, Jr.\" <carol@example.com> (odd fixer:BETA DRIVER)\n"
		"Alice Example <alice@example.com> (supporter:"
		ALPHA_SHORT ")\n"
		"Rob Reviewer <rob@example.com> (reviewer:" ALPHA_SHORT ")\n"
		"beta@lists.example.com (moderated list:BETA DRIVER)\n"
		"alpha@lists.example.com (open list:" ALPHA_SHORT ")\n"
		"gamma@lists.example.com (open list:GAMMA)\n"
		"linux-kernel@vger.kernel.org (open list)\n");
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_separator)
{
	static const char *const args[] = {
		"--separator", " | ", "-f", "drivers/gpio/gpio-x.c", NULL
	};
	struct gm_test_run r;

	run(&r, "", NULL, args);
	ck_assert_int_eq(r.status, 0);
	/* E5, one line */
	ck_assert_str_eq(r.out, "Alice Example <alice2@example.com> | "
			 "alice@example.com | gamma@lists.example.com | "
			 "linux-kernel@vger.kernel.org\n");
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_reads_head_not_work_tree)
{
	static const char *const args[] = { "-f", "Makefile", NULL };
	struct gm_test_run r;

	run(&r, "", NULL, args);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "linux-kernel@vger.kernel.org\n");
	ck_assert_ptr_null(strstr(r.out, "dirty"));
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_subdirectory_same_output)
{
	static const char *const args[] = { "-f", "foo/a.c", NULL };
	static const char *const up[] = { "-f", "../../Makefile", NULL };
	struct gm_test_run r;

	run(&r, "drivers/net", NULL, args);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, e1_plain);
	gm_test_run_release(&r);

	run(&r, "drivers/net", NULL, up);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "linux-kernel@vger.kernel.org\n");
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_rev_reads_older_maintainers)
{
	static const char *const args[] = {
		"--rev", "HEAD~1", "-f", "drivers/net/foo/a.c", NULL
	};
	struct gm_test_run r;

	run(&r, "", NULL, args);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "Old Maint <old@example.com>\n");
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_patch_on_stdin)
{
	static const char *const none[] = { NULL };
	static const char *const dash[] = { "--rolestats", "-", NULL };
	struct gm_test_run r;

	/* E17: no arguments and stdin not a terminal */
	run(&r, "", patch_e17, none);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out,
			 "Ted <ted@example.com>\n"
			 "\"Bob O'Neil\" <bob@example.com>\n"
			 "\"Carol, Jr.\" <carol@example.com>\n"
			 "linux-kernel@vger.kernel.org\n"
			 "beta@lists.example.com\n");
	gm_test_run_release(&r);

	/* "-" is stdin too; 6.1 roles, no keyword suffix */
	run(&r, "", patch_e17, dash);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out,
		"Ted <ted@example.com> (maintainer:EXT4)\n"
		"\"Bob O'Neil\" <bob@example.com> (odd fixer:BETA DRIVER)\n"
		"\"Carol, Jr.\" <carol@example.com> (odd fixer:BETA DRIVER)\n"
		"linux-kernel@vger.kernel.org (open list)\n"
		"beta@lists.example.com (moderated list:BETA DRIVER)\n");
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_not_a_patch_warns)
{
	static const char *const none[] = { NULL };
	struct gm_test_run r;

	run(&r, "", "just some text\n", none);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "");
	ck_assert_ptr_nonnull(strstr(r.err, "doesn't appear to be a patch"));
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_sections_letters)
{
	static const char *const args[] = {
		"--letters=SF", "-f", "fs/ext4/inode.c", NULL
	};
	struct gm_test_run r;

	run(&r, "", NULL, args);
	ck_assert_int_eq(r.status, 0);
	/* E16 */
	ck_assert_str_eq(r.out,
			 "EXT4\n"
			 "S:\tMaintained\n"
			 "F:\tfs/ext4/\n"
			 "\n"
			 "THE REST\n"
			 "S:\tBuried alive in reporters\n"
			 "F:\t*\n"
			 "F:\t*/\n"
			 "\n");
	gm_test_run_release(&r);
}
END_TEST

/* The stdin patch of E18. */
static const char patch_e18[] =
	"diff --git a/drivers/net/bar/b.c b/include/linux/foo.h\n"
	"similarity index 90%\n"
	"rename from drivers/net/bar/b.c\n"
	"rename to include/linux/foo.h\n"
	"diff --git a/Makefile b/Makefile\n"
	"old mode 100644\n"
	"new mode 100755\n"
	"--- /dev/null\n"
	"+++ b/fs/ext4/sub/deep.c\n"
	"@@ -0,0 +1 @@\n"
	"+ beta_magic here\n";

START_TEST(test_cli_patch_e18)
{
	static const char *const args[] = { "--rolestats", NULL };
	struct gm_test_run r;

	run(&r, "", patch_e18, args);
	ck_assert_int_eq(r.status, 0);
	/* E18 with the roles of 6.1 */
	ck_assert_str_eq(r.out,
		"Ted <ted@example.com> (maintainer:EXT4)\n"
		"Nobody <nobody@example.com> (unknown:NOSTATUS)\n"
		"\"Bob O'Neil\" <bob@example.com> (odd fixer:BETA DRIVER)\n"
		"\"Carol, Jr.\" <carol@example.com> (odd fixer:BETA DRIVER)\n"
		"linux-kernel@vger.kernel.org (open list)\n"
		"beta@lists.example.com (moderated list:BETA DRIVER)\n");
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_directory_argument)
{
	static const char *const args[] = { "-f", "drivers/net", NULL };
	struct gm_test_run r;

	run(&r, "", NULL, args);
	ck_assert_int_eq(r.status, 0);
	/* E20: processed as drivers/net/, which only GAMMA matches */
	ck_assert_str_eq(r.out, "Alice Example <alice2@example.com>\n"
			 "alice@example.com\n"
			 "gamma@lists.example.com\n"
			 "linux-kernel@vger.kernel.org\n");
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_yaml_file_emails)
{
	static const char *const args[] = {
		"--rolestats", "-f", "Documentation/devicetree/bindings/x.yaml",
		NULL
	};
	struct gm_test_run r;

	run(&r, "", NULL, args);
	ck_assert_int_eq(r.status, 0);
	/* E22 as 6.1 prints it */
	ck_assert_str_eq(r.out,
		"Jane Doe <jane@doe.org> (in file)\n"
		"- <devicetree@vger.kernel.org> (in file)\n"
		"\"Zo\xc3\xab \xc3\x85ngstr\xc3\xb6m\" <zoe@example.org>"
		" (in file)\n"
		"linux-kernel@vger.kernel.org (open list)\n");
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_untracked_file_warns)
{
	static const char *const args[] = { "-f", "untracked.c", NULL };
	struct gm_test_run r;

	run(&r, "", NULL, args);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "linux-kernel@vger.kernel.org\n");
	ck_assert_ptr_nonnull(strstr(r.err, "not found in version control"));
	gm_test_run_release(&r);
}
END_TEST

/* ==================== the tree's own files ==================== */

/* Run in a repository of one commit made of `files`; removed afterwards. */
static void run_in(struct gm_test_run *r, const struct gm_test_file *files,
		   size_t nr, const char *message, char *head,
		   const char *stdin_text, const char *const *args)
{
	struct gm_test_commit c;
	char *dir = NULL;

	c.message = message;
	c.time = 1700000000;
	c.files = files;
	c.nr_files = nr;
	ck_assert_int_eq(gm_test_repo_create(&dir, head, &c, 1), 0);
	ck_assert_int_eq(gm_test_run_binary(r, dir, home_dir, NULL, stdin_text,
					    args), 0);
	gm_test_rmtree(dir);
}

START_TEST(test_cli_conf_words_come_first)
{
	static const struct gm_test_file files[] = {
		{ "MAINTAINERS", "SEC\nM:\tA <a@x.org>\nL:\tl@x.org\n"
		  "S:\tMaintained\nF:\t*\n", 0 },
		{ ".get_maintainer.conf",
		  "# options for everybody\n"
		  "  --rolestats   #--nom\n"
		  "--nol\n", 0 },
		{ "x.c", "\n", 0 },
	};
	static const char *const args[] = { "-f", "x.c", NULL };
	static const char *const override[] = { "-l", "-f", "x.c", NULL };
	struct gm_test_run r;

	/* the conf words, '#' ending a line, before the command line */
	run_in(&r, files, ARRAY_SIZE(files), "conf\n", NULL, NULL, args);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "A <a@x.org> (maintainer:SEC)\n");
	gm_test_run_release(&r);

	run_in(&r, files, ARRAY_SIZE(files), "conf\n", NULL, NULL, override);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "A <a@x.org> (maintainer:SEC)\n"
			 "l@x.org (open list:SEC)\n");
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_mailmap_from_the_tree)
{
	static const struct gm_test_file files[] = {
		{ "MAINTAINERS", "SEC\nM:\tTed <ted@example.com>\nF:\t*\n", 0 },
		{ ".mailmap", "Theodore Tso <ted@example.com>\n", 0 },
		{ "x.c", "\n", 0 },
	};
	static const char *const args[] = { "-f", "x.c", NULL };
	static const char *const nomailmap[] = { "--nomailmap", "-f", "x.c",
						 NULL };
	static const char *const non[] = { "--non", "-f", "x.c", NULL };
	struct gm_test_run r;

	run_in(&r, files, ARRAY_SIZE(files), "mailmap\n", NULL, NULL, args);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "Theodore Tso <ted@example.com>\n");
	gm_test_run_release(&r);

	run_in(&r, files, ARRAY_SIZE(files), "mailmap\n", NULL, NULL,
	       nomailmap);
	ck_assert_str_eq(r.out, "Ted <ted@example.com>\n");
	gm_test_run_release(&r);

	/* the name comes back under --non */
	run_in(&r, files, ARRAY_SIZE(files), "mailmap\n", NULL, NULL, non);
	ck_assert_str_eq(r.out, "Theodore Tso <ted@example.com>\n");
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_fixes_signers)
{
	static const struct gm_test_file files[] = {
		{ "MAINTAINERS",
		  "NET DRIVER\n"
		  "M:\tNina Net <nina@example.com>\n"
		  "L:\tnet@lists.example.com\n"
		  "S:\tMaintained\n"
		  "F:\tdrivers/net/\n"
		  "\n"
		  "THE REST\n"
		  "M:\tLinus Torvalds <torvalds@linux-foundation.org>\n"
		  "L:\tlinux-kernel@vger.kernel.org\n"
		  "S:\tBuried alive in reporters\n"
		  "F:\t*\n"
		  "F:\t*/\n", 0 },
		{ "drivers/net/n.c", "one\n", 0 },
	};
	static const char *const args[] = { "--rolestats", NULL };
	static const char *const nofixes[] = {
		"--rolestats", "--nofixes", NULL
	};
	static const char message[] =
		"core: five\n"
		"\n"
		"Signed-off-by: Bob Builder <bob@example.com>\n"
		"Tested-by: Tess Tester <tess@example.com>\n"
		"Signed-off-by: Mark Maint <mark@example.com>\n";
	char head[GIT_OID_HEXSZ + 1], *patch;
	struct gm_test_run r;
	struct gm_buf b = GM_BUF_INIT;

	/* the id is known once the commit is made: make it twice */
	run_in(&r, files, ARRAY_SIZE(files), message, head, NULL, args);
	gm_test_run_release(&r);
	gm_buf_printf(&b, "Subject: [PATCH] net: fix\n\n"
		      "Fixes: %.12s (\"core: five\")\n"
		      "---\n"
		      "--- a/drivers/net/n.c\n"
		      "+++ b/drivers/net/n.c\n"
		      "@@ -1,1 +1,1 @@\n"
		      "-one\n"
		      "+two\n", head);
	patch = gm_buf_detach(&b, NULL);
	/* E31: the signers of the Fixes: commit, ties in byte order */
	run_in(&r, files, ARRAY_SIZE(files), message, NULL, patch, args);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out,
		"Nina Net <nina@example.com> (maintainer:NET DRIVER)\n"
		"Bob Builder <bob@example.com> (blamed_fixes:1/1=100%)\n"
		"Mark Maint <mark@example.com> (blamed_fixes:1/1=100%)\n"
		"net@lists.example.com (open list:NET DRIVER)\n"
		"linux-kernel@vger.kernel.org (open list)\n");
	gm_test_run_release(&r);

	run_in(&r, files, ARRAY_SIZE(files), message, NULL, patch, nofixes);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out,
			 "Nina Net <nina@example.com> (maintainer:NET DRIVER)\n"
			 "net@lists.example.com (open list:NET DRIVER)\n"
			 "linux-kernel@vger.kernel.org (open list)\n");
	gm_test_run_release(&r);
	free(patch);
}
END_TEST

START_TEST(test_cli_keywords_in_file_contents)
{
	static const struct gm_test_file files[] = {
		{ "MAINTAINERS", gm_test_fixture_a, 0 },
		{ "lib/k.c", "int beta_magic;\n", 0 },
	};
	static const char *const args[] = { "-f", "lib/k.c", NULL };
	static const char *const nokf[] = { "--nokf", "-f", "lib/k.c", NULL };
	struct gm_test_run r;

	/* §13.3: 6.1 tests K: against the contents of -f files */
	run_in(&r, files, ARRAY_SIZE(files), "k\n", NULL, NULL, args);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "\"Bob O'Neil\" <bob@example.com>\n"
			 "\"Carol, Jr.\" <carol@example.com>\n"
			 "linux-kernel@vger.kernel.org\n"
			 "beta@lists.example.com\n");
	gm_test_run_release(&r);

	run_in(&r, files, ARRAY_SIZE(files), "k\n", NULL, NULL, nokf);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "linux-kernel@vger.kernel.org\n");
	gm_test_run_release(&r);
}
END_TEST

START_TEST(test_cli_maintainers_file_itself)
{
	static const char *const args[] = { "-f", "MAINTAINERS", NULL };
	struct gm_test_run r;

	run(&r, "", NULL, args);
	ck_assert_int_eq(r.status, 0);
	/* E37 */
	ck_assert_str_eq(r.out, "linux-kernel@vger.kernel.org\n");
	gm_test_run_release(&r);
}
END_TEST

Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *exit_tc = tcase_create("exit");
	TCase *output = tcase_create("output");
	TCase *tree = tcase_create("tree");

	tcase_add_unchecked_fixture(exit_tc, cli_setup, cli_teardown);
	tcase_add_test(exit_tc, test_cli_help_exits_129);
	tcase_add_test(exit_tc, test_cli_version);
	tcase_add_loop_test(exit_tc, test_cli_exit_table, 0,
			    (int)ARRAY_SIZE(exit_cases));
	tcase_add_test(exit_tc, test_cli_not_a_repository_exits_128);
	suite_add_tcase(s, exit_tc);

	tcase_add_unchecked_fixture(output, cli_setup, cli_teardown);
	tcase_add_test(output, test_cli_default_output_has_no_roles);
	tcase_add_test(output, test_cli_rolestats_adds_roles);
	tcase_add_test(output, test_cli_separator);
	tcase_add_test(output, test_cli_reads_head_not_work_tree);
	tcase_add_test(output, test_cli_subdirectory_same_output);
	tcase_add_test(output, test_cli_rev_reads_older_maintainers);
	tcase_add_test(output, test_cli_patch_on_stdin);
	tcase_add_test(output, test_cli_not_a_patch_warns);
	tcase_add_test(output, test_cli_sections_letters);
	tcase_add_test(output, test_cli_patch_e18);
	tcase_add_test(output, test_cli_directory_argument);
	tcase_add_test(output, test_cli_yaml_file_emails);
	tcase_add_test(output, test_cli_untracked_file_warns);
	tcase_add_test(output, test_cli_maintainers_file_itself);
	suite_add_tcase(s, output);

	tcase_add_unchecked_fixture(tree, cli_setup, cli_teardown);
	tcase_add_test(tree, test_cli_conf_words_come_first);
	tcase_add_test(tree, test_cli_mailmap_from_the_tree);
	tcase_add_test(tree, test_cli_fixes_signers);
	tcase_add_test(tree, test_cli_keywords_in_file_contents);
	suite_add_tcase(s, tree);
	return s;
}
