#include <stdlib.h>
#include <string.h>

#include "gm/patch.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/* The format-patch file p1.patch of E17. */
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

/* The stdin patch of E18: a rename, a mode change, a new file. */
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

/* Parse `text` into `p` (which the caller releases). */
static void parse(struct gm_patch *p, const char *text)
{
	ck_assert_int_eq(gm_patch_parse(p, text, strlen(text)), 0);
}

static char *files_of(const struct gm_patch *p)
{
	return gm_test_join(&p->files, ",");
}

/* The keyword line `k` as a string without its newline. */
static char *line_of(const char *text, const struct gm_patch *p, size_t k)
{
	const struct gm_patch_line *l = &p->lines[k];
	size_t len = l->len;
	char *s;

	while (len && (text[l->off + len - 1] == '\n' ||
		       text[l->off + len - 1] == '\r'))
		len--;
	s = malloc(len + 1);
	memcpy(s, text + l->off, len);
	s[len] = '\0';
	return s;
}

START_TEST(test_patch_format_patch_e17)
{
	static const char *const kw[] = {
		"From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001",
		"From: Some One <some@one.com>",
		"Subject: [PATCH] fs: touch beta_magic stuff",
		"",
		"Signed-off-by: Some One <some@one.com>",
		"---",
		" fs/ext4/inode.c | 1 +",
		" 1 file changed, 1 insertion(+)",
		"",
		"index 1111111..2222222 100644",
		" context",
		"+added",
		"-removed",
	};
	struct gm_patch p = GM_PATCH_INIT;
	char *files, *line;
	size_t k;

	parse(&p, patch_e17);
	files = files_of(&p);
	/* diff --git gives two names, ---/+++ one each (R-31) */
	ck_assert_str_eq(files, "fs/ext4/inode.c,fs/ext4/inode.c,"
			 "fs/ext4/inode.c,fs/ext4/inode.c");
	ck_assert_uint_eq(p.fixes.nr, 1);
	ck_assert_str_eq(p.fixes.v[0], "abcdef123456");
	ck_assert_uint_eq(p.nr_lines, ARRAY_SIZE(kw));
	for (k = 0; k < p.nr_lines; k++) {
		line = line_of(patch_e17, &p, k);
		ck_assert_str_eq(line, kw[k]);
		/* R-33: only lines after the first ---/+++ file line */
		ck_assert_int_eq(p.lines[k].prefixed, k >= 10);
		free(line);
	}
	/* the length includes the newline */
	ck_assert_uint_eq(p.lines[2].len, strlen(kw[2]) + 1);
	free(files);
	gm_patch_release(&p);
}
END_TEST

START_TEST(test_patch_rename_lists_both_paths)
{
	struct gm_patch p = GM_PATCH_INIT;
	char *files;

	parse(&p, patch_e18);
	files = files_of(&p);
	ck_assert_str_eq(files, "drivers/net/bar/b.c,include/linux/foo.h,"
			 "drivers/net/bar/b.c,include/linux/foo.h,"
			 "Makefile,Makefile,dev/null,fs/ext4/sub/deep.c");
	free(files);
	/* the sorted, unique list of E18 */
	gm_strvec_sort_uniq(&p.files);
	files = files_of(&p);
	ck_assert_str_eq(files, "Makefile,dev/null,drivers/net/bar/b.c,"
			 "fs/ext4/sub/deep.c,include/linux/foo.h");
	free(files);
	/* "old mode"/"new mode" and "similarity" are keyword lines */
	ck_assert_uint_eq(p.nr_lines, 4);
	ck_assert(!p.lines[2].prefixed);
	ck_assert(p.lines[3].prefixed);
	gm_patch_release(&p);
}
END_TEST

struct files_case {
	const char *text;
	const char *files;	/* joined by ',' */
};

static const struct files_case files_cases[] = {
	/* R-31 rule 1: no stripping; one name to the end of the line */
	{ " mode change 100644 => 100755 scripts/foo.sh\n", "scripts/foo.sh" },
	{ " mode change 100644 => 100755 scripts/foo.sh  \n",
	  "scripts/foo.sh" },
	{ " mode change 100644 => 100755 a b\n", "" },
	{ " create mode 100644 new/file.c\n", "" },
	{ " mode change 100644 => 100755 \"sp ace.sh\"\n", "sp ace.sh" },
	/* rule 2 */
	{ "rename from a/b.c\nrename to c/d.c\n", "a/b.c,c/d.c" },
	{ "rename from a/b.c  \n", "a/b.c" },
	/* rule 3, and names with spaces that it does not take */
	{ "diff --git a/x/y.c b/x/z.c\n", "x/y.c,x/z.c" },
	{ "diff --git a/foo bar.c b/foo bar.c\n", "" },
	/* rule 5 and R-32: through the first '/' */
	{ "--- a/x/y.c\n+++ b/x/y.c\n", "x/y.c,x/y.c" },
	{ "--- /dev/null\n+++ b/new.c\n", "dev/null,new.c" },
	{ "--- drivers/net/x.c\n+++ drivers/net/x.c\n", "net/x.c,net/x.c" },
	{ "--- drivers/net/foo/a.c.orig\n+++ drivers/net/foo/a.c\n",
	  "net/foo/a.c.orig,net/foo/a.c" },		/* E19 */
	{ "--- Makefile\n", "Makefile" },
	{ "+++\tb/tab.c\n", "tab.c" },
	{ "--- a/x.c\t2020-01-01 00:00:00.000000000 +0000\n", "x.c" },
	{ "--- a/foo bar.c\n", "foo" },
	{ "+++ b/foo bar.c\t2020-01-01 00:00:00\n", "foo bar.c" },
	{ "--- a/foo bar.c\t(revision 1)\n", "foo bar.c" },
	{ "---\n--- \n+++b/x.c\n----x\n", "" },
	{ "+++ b/last.c", "last.c" },		/* no final newline */
	/* C-quoted names, as git writes them */
	{ "diff --git \"a/sp ace.c\" \"b/sp ace.c\"\n", "sp ace.c,sp ace.c" },
	{ "--- \"a/sp ace.c\"\n+++ \"b/sp ace.c\"\n", "sp ace.c,sp ace.c" },
	{ "+++ \"b/caf\\303\\251.c\"\n", "caf\xc3\xa9.c" },
	{ "rename from \"caf\\303\\251.c\"\n", "caf\xc3\xa9.c" },
	{ "+++ \"b/a\\tb\\\"c\\\\d.c\"\n", "a\tb\"c\\d.c" },
	/* CRLF lines */
	{ "diff --git a/x.c b/x.c\r\n--- a/x.c\r\n+++ b/x.c\r\n",
	  "x.c,x.c,x.c,x.c" },
	{ "rename from r.c\r\n", "r.c" },
};

START_TEST(test_patch_files_table)
{
	const struct files_case *c = &files_cases[_i];
	struct gm_patch p = GM_PATCH_INIT;
	char *files;

	parse(&p, c->text);
	files = files_of(&p);
	ck_assert_msg(!strcmp(files, c->files), "row %d: got '%s', want '%s'",
		      _i, files, c->files);
	free(files);
	gm_patch_release(&p);
}
END_TEST

struct fixes_case {
	const char *line;
	const char *id;		/* NULL: not a Fixes: line */
};

static const struct fixes_case fixes_cases[] = {
	{ "Fixes: abcdef1 (\"x\")\n", "abcdef1" },
	{ "Fixes:\tABCDEF123456\n", "ABCDEF123456" },
	{ "Fixes:    123456 (\"six\")\n", "123456" },
	{ "Fixes: abcdefg\n", "abcdef" },
	{ "Fixes: 1234567890abcdef1234567890abcdef12345678\n",
	  "1234567890abcdef1234567890abcdef12345678" },
	{ "Fixes: 1234567890abcdef1234567890abcdef123456789\n",
	  "1234567890abcdef1234567890abcdef12345678" },
	{ "Fixes: abcde (\"x\")\n", NULL },		/* 5 digits */
	{ " Fixes: abcdef123456\n", NULL },	/* column 0 only */
	{ "    Fixes: abcdef123456\n", NULL },	/* git log -p indents */
	{ "fixes: abcdef123456\n", NULL },	/* case-sensitive */
	{ "Fixes:abcdef123456\n", NULL },	/* white space required */
	{ "Fixes: xyz123456\n", NULL },
};

START_TEST(test_patch_fixes_table)
{
	const struct fixes_case *c = &fixes_cases[_i];
	struct gm_patch p = GM_PATCH_INIT;

	parse(&p, c->line);
	if (c->id) {
		ck_assert_uint_eq(p.fixes.nr, 1);
		ck_assert_str_eq(p.fixes.v[0], c->id);
		ck_assert_uint_eq(p.nr_lines, 0);	/* not a keyword line */
	} else {
		ck_assert_uint_eq(p.fixes.nr, 0);
		ck_assert_uint_eq(p.nr_lines, 1);
	}
	gm_patch_release(&p);
}
END_TEST

START_TEST(test_patch_hunk_headers)
{
	static const char text[] =
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -1,3 +1,4 @@ static int f(void)\n"
		"@@ -5 +5 @@\n"
		"@@ -7 +7,2 @@\n"
		"@@ -x,1 +1 @@\n";
	struct gm_patch p = GM_PATCH_INIT;
	char *line;

	parse(&p, text);
	/* only "@@ -N,M" is a hunk header; the others are keyword lines */
	ck_assert_uint_eq(p.nr_lines, 3);
	line = line_of(text, &p, 0);
	ck_assert_str_eq(line, "@@ -5 +5 @@");
	free(line);
	line = line_of(text, &p, 1);
	ck_assert_str_eq(line, "@@ -7 +7,2 @@");
	free(line);
	ck_assert(p.lines[0].prefixed);
	gm_patch_release(&p);
}
END_TEST

START_TEST(test_patch_prefix_never_reset_in_mbox)
{
	static const char text[] =
		"Subject: [PATCH 1/2] one\n"
		"\n"
		"first message\n"
		"---\n"
		"--- a/a.c\n"
		"+++ b/a.c\n"
		"@@ -1,1 +1,1 @@\n"
		"+one\n"
		"From 1111111111111111111111111111111111111111 "
		"Mon Sep 17 00:00:00 2001\n"
		"Subject: [PATCH 2/2] two\n"
		"Fixes: 222222222222 (\"two\")\n"
		"second message\n"
		"--- a/b.c\n"
		"+++ b/b.c\n";
	struct gm_patch p = GM_PATCH_INIT;
	char *files, *line;

	parse(&p, text);
	files = files_of(&p);
	ck_assert_str_eq(files, "a.c,a.c,b.c,b.c");
	free(files);
	ck_assert_uint_eq(p.fixes.nr, 1);
	ck_assert_str_eq(p.fixes.v[0], "222222222222");
	ck_assert_uint_eq(p.nr_lines, 8);
	ck_assert(!p.lines[0].prefixed);
	ck_assert(!p.lines[3].prefixed);	/* the "---" separator */
	ck_assert(p.lines[4].prefixed);		/* "+one" */
	line = line_of(text, &p, 7);
	ck_assert_str_eq(line, "second message");
	free(line);
	ck_assert(p.lines[7].prefixed);		/* Q-6 */
	gm_patch_release(&p);
}
END_TEST

START_TEST(test_patch_crlf_keyword_lines)
{
	static const char text[] =
		"--- a/x.c\r\n"
		"+++ b/x.c\r\n"
		"@@ -1,1 +1,1 @@\r\n"
		"+new\r\n";
	struct gm_patch p = GM_PATCH_INIT;

	parse(&p, text);
	ck_assert_uint_eq(p.files.nr, 2);
	ck_assert_str_eq(p.files.v[1], "x.c");
	ck_assert_uint_eq(p.nr_lines, 1);
	ck_assert_uint_eq(p.lines[0].len, 6);	/* "+new\r\n" */
	ck_assert_mem_eq(text + p.lines[0].off, "+new\r\n", 6);
	gm_patch_release(&p);
}
END_TEST

START_TEST(test_patch_appends_to_earlier_parse)
{
	struct gm_patch p = GM_PATCH_INIT;

	parse(&p, "--- a/one.c\n");
	parse(&p, "+++ b/two.c\nFixes: 333333 (\"x\")\n");
	ck_assert_uint_eq(p.files.nr, 2);
	ck_assert_str_eq(p.files.v[0], "one.c");
	ck_assert_str_eq(p.files.v[1], "two.c");
	ck_assert_uint_eq(p.fixes.nr, 1);
	gm_patch_release(&p);
	ck_assert_uint_eq(p.files.nr, 0);
	ck_assert_uint_eq(p.nr_lines, 0);
}
END_TEST

START_TEST(test_patch_not_a_patch)
{
	static const char text[] = "just some text\nwith two lines\n";
	struct gm_patch p = GM_PATCH_INIT;

	parse(&p, text);
	ck_assert_uint_eq(p.files.nr, 0);
	ck_assert_uint_eq(p.nr_lines, 2);
	ck_assert(!p.lines[0].prefixed);
	gm_patch_release(&p);

	parse(&p, "");
	ck_assert_uint_eq(p.files.nr, 0);
	ck_assert_uint_eq(p.nr_lines, 0);
	gm_patch_release(&p);
}
END_TEST

Suite *patch_suite(void)
{
	Suite *s = suite_create("patch");
	TCase *tc = tcase_create("parse");
	TCase *lines = tcase_create("lines");

	tcase_add_test(tc, test_patch_format_patch_e17);
	tcase_add_test(tc, test_patch_rename_lists_both_paths);
	tcase_add_loop_test(tc, test_patch_files_table, 0,
			    (int)ARRAY_SIZE(files_cases));
	tcase_add_loop_test(tc, test_patch_fixes_table, 0,
			    (int)ARRAY_SIZE(fixes_cases));
	tcase_add_test(tc, test_patch_appends_to_earlier_parse);
	tcase_add_test(tc, test_patch_not_a_patch);
	suite_add_tcase(s, tc);

	tcase_add_test(lines, test_patch_hunk_headers);
	tcase_add_test(lines, test_patch_prefix_never_reset_in_mbox);
	tcase_add_test(lines, test_patch_crlf_keyword_lines);
	suite_add_tcase(s, lines);
	return s;
}
