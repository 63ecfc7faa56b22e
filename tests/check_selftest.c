#define _GNU_SOURCE	/* open_memstream() is POSIX 2008; this keeps it visible */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/error.h"
#include "gm/mailmap.h"
#include "gm/selftest.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/*
 * --self-test on MAINTAINERS texts and file lists given here. The
 * expected lines of the script's checks (sections, patterns, scm's
 * malformed entry) are what get_maintainer.pl 6.1 prints for the same
 * files in a git repository holding `paths`.
 */

struct fx_file {
	const char *name;
	const char *text;
};

struct fx {
	const struct fx_file *files;
	size_t nr_files;
	const char *const *paths;	/* NULL-terminated, any order */
	const char *const *dirs;	/* NULL-terminated */
	const char *mailmap;		/* or NULL */
};

/* Run `checks` on the fixture: what is printed, and how many warnings. */
static char *run(const struct fx *fx, unsigned checks, size_t *nr)
{
	static const char *const none[] = { NULL };
	struct gm_selftest_input in = GM_SELFTEST_INPUT_INIT;
	struct gm_test_dirs dirs = { fx->dirs ? fx->dirs : none, 0, "" };
	struct gm_repo_file *files;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	files = calloc(fx->nr_files + 1, sizeof(*files));
	ck_assert_ptr_nonnull(files);
	for (size_t i = 0; i < fx->nr_files; i++) {
		files[i].path = strdup(fx->files[i].name);
		files[i].text = (struct gm_buf)GM_BUF_INIT;
		ck_assert_int_eq(gm_buf_puts(&files[i].text, fx->files[i].text),
				 0);
	}
	in.files = files;
	in.nr_files = fx->nr_files;
	for (const char *const *p = fx->paths; p && *p; p++)
		ck_assert_int_eq(gm_strvec_push(&in.paths, *p), 0);
	gm_strvec_sort_uniq(&in.paths);
	in.isdir = gm_test_isdir;
	in.isdir_payload = &dirs;
	if (fx->mailmap)
		ck_assert_int_eq(gm_mailmap_from_buffer(&in.mailmap, fx->mailmap,
							strlen(fx->mailmap)),
				 0);
	f = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(gm_selftest_run(&in, checks, f, NULL, nr), 0);
	fclose(f);
	gm_selftest_release(&in);
	return out;
}

static void assert_run(const struct fx *fx, unsigned checks, const char *want,
		       size_t want_nr)
{
	size_t nr = 99;
	char *got = run(fx, checks, &nr);

	ck_assert_str_eq(got, want);
	ck_assert_uint_eq(nr, want_nr);
	free(got);
}

#define ONE_FILE(text) (const struct fx_file[]){ { "./MAINTAINERS", text } }, 1

/* ==================== the words ==================== */

static const struct {
	const char *words;
	int error;
	unsigned checks;
} words_cases[] = {
	{ "", 0, GM_SELFTEST_SCRIPT },	/* bare --self-test: the script's */
	{ NULL, 0, GM_SELFTEST_SCRIPT },
	{ "sections", 0, GM_SELFTEST_SECTIONS },
	{ "sections,patterns", 0, GM_SELFTEST_SECTIONS | GM_SELFTEST_PATTERNS },
	{ " links scm ", 0, GM_SELFTEST_LINKS | GM_SELFTEST_SCM },
	{ "order;addresses", 0, GM_SELFTEST_ORDER | GM_SELFTEST_ADDRESSES },
	{ ",", 0, GM_SELFTEST_SCRIPT },
	{ "pattern", GM_EUSAGE, 0 },	/* a typo is no silent pass */
	{ "sections,Patterns", GM_EUSAGE, 0 },
	{ "foo-sections", GM_EUSAGE, 0 },
};

START_TEST(test_selftest_words)
{
	unsigned checks = 12345;

	ck_assert_int_eq(gm_selftest_parse_checks(&checks,
						  words_cases[_i].words),
			 words_cases[_i].error);
	if (!words_cases[_i].error)
		ck_assert_uint_eq(checks, words_cases[_i].checks);
	else
		ck_assert_str_ne(gm_error_last(), "");
}
END_TEST

/* ==================== sections ==================== */

/* The kinds of finding, each once, and a clean section with none. */
START_TEST(test_selftest_sections_findings)
{
	const struct fx fx = { ONE_FILE(
		"List of maintainers\n"
		"-------------------\n"
		"\n"
		"GOOD DRIVER\n"
		"M:\tA <a@x.org>\n"
		"S:\tMaintained\n"
		"F:\tgood/\n"
		"\n"
		"NO STATUS\n"
		"L:\tlist@x.org\n"
		"F:\tx/\n"
		"\n"
		"NO FILES\n"
		"R:\tB <b@x.org>\n"
		"S:\tSupported\n"
		"\n"
		"NOBODY\n"
		"S:\tMaintained\n"
		"N:\tnobody\n"
		"\n"
		"ORPHANED\n"
		"S:\tOrphan / Obsolete\n"
		"F:\to/\n"
		"\n"
		"OLD\n"
		"S:\tobsolete\n"
		"F:\told/\n"
		"\n"
		"EMPTY\n"
		"M:\n"
		"S:\tMaintained\n"), NULL, NULL, NULL };

	assert_run(&fx, GM_SELFTEST_SECTIONS,
		   "./MAINTAINERS:9: warning: section without status \tNO STATUS\n"
		   "./MAINTAINERS:13: warning: section without file pattern\tNO FILES\n"
		   "./MAINTAINERS:17: warning: section without email address\tNOBODY\n",
		   3);
}
END_TEST

/*
 * A header is a duplicate when an earlier one starts with it (the
 * script's test is a prefix match), not when it starts with an earlier.
 */
START_TEST(test_selftest_sections_duplicate_is_prefix)
{
	const struct fx fx = { ONE_FILE(
		"FOO BAR\n"
		"M:\tA <a@x.org>\nS:\tMaintained\nF:\ta/\n"
		"FOO BAR BAZ\n"
		"M:\tA <a@x.org>\nS:\tMaintained\nF:\tb/\n"
		"FOO\n"
		"M:\tA <a@x.org>\nS:\tMaintained\nF:\tc/\n"
		"FOO BAR\n"
		"S:\tMaintained\nF:\td/\n"), NULL, NULL, NULL };

	assert_run(&fx, GM_SELFTEST_SECTIONS,
		   "./MAINTAINERS:9: warning: duplicate section header\tFOO\n"
		   "./MAINTAINERS:13: warning: duplicate section header\tFOO BAR\n"
		   "./MAINTAINERS:13: warning: section without email address\tFOO BAR\n",
		   3);
}
END_TEST

/*
 * Physical lines: a comment or a blank line ends a section's tag run, a
 * header is any line not starting with white space or "X:" that has a
 * tag line with a value right after it (a comment too), and the next
 * line of a file's last line is the next file's first.
 */
START_TEST(test_selftest_sections_physical_lines)
{
	static const struct fx_file files[] = {
		{ "a/MAINTAINERS",
		  "COMMENTED\n"
		  "M:\tA <a@x.org>\n"
		  "# a comment\n"
		  "S:\tMaintained\n"
		  "F:\ta/\n"
		  "NOT A HEADER\n"
		  "# comment first\n"
		  "M:\tA <a@x.org>\n"
		  "EMPTY TAG FIRST\n"
		  "F:\n"
		  "S:\tMaintained\n"
		  " INDENTED\n"
		  "M:\tA <a@x.org>\n"
		  "LAST LINE" },
		{ "b/MAINTAINERS",
		  "S:\tMaintained\n"
		  "F:\tb/\n" },
	};
	const struct fx fx = { files, 2, NULL, NULL, NULL };

	assert_run(&fx, GM_SELFTEST_SECTIONS,
		   "a/MAINTAINERS:1: warning: section without status \tCOMMENTED\n"
		   "a/MAINTAINERS:1: warning: section without file pattern\tCOMMENTED\n"
		   "a/MAINTAINERS:3: warning: section without email address\t# a comment\n"
		   "a/MAINTAINERS:7: warning: section without status \t# comment first\n"
		   "a/MAINTAINERS:7: warning: section without file pattern\t# comment first\n"
		   "a/MAINTAINERS:14: warning: section without email address\tLAST LINE\n",
		   6);
}
END_TEST

/* The line is printed as read: a CR of a CRLF file stays in it. */
START_TEST(test_selftest_sections_crlf)
{
	const struct fx fx = { ONE_FILE("CRLF\r\nM:\tA <a@x.org>\r\n"
					"F:\ta/\r\n"), NULL, NULL, NULL };

	assert_run(&fx, GM_SELFTEST_SECTIONS,
		   "./MAINTAINERS:1: warning: section without status \tCRLF\r\n",
		   1);
}
END_TEST

/* ==================== patterns ==================== */

static const char *const tree_paths[] = {
	"Makefile",
	"drivers/net/tun.c",
	"drivers/net/wan/x.c",
	"drivers/netdevsim/a.c",
	"drivers/gpio/gpio-a.c",
	"drivers/gpio/gpio-b.h",
	"fs/ext4/inode.c",
	"a.c",
	"abc",
	"\"quoted\\tname\"",
	NULL
};

static const char *const tree_dirs[] = {
	"drivers", "drivers/net", "drivers/net/wan", "drivers/netdevsim",
	"drivers/gpio", "fs", "fs/ext4", NULL
};

/* One F: line: whether the script reports it. */
static const struct {
	const char *value;
	bool reported;
} pattern_cases[] = {
	{ "drivers/net/tun.c", false },
	{ "drivers/net/tun.h", true },
	{ "drivers/net/", false },
	{ "drivers/ne", false },		/* a prefix of a path matches */
	{ "drivers/netdevsim", false },
	{ "fs/ext4/inode", false },		/* a prefix, no slash rule */
	{ "drivers/*/x.c", false },		/* '*' crosses '/' */
	{ "drivers/*.h", false },
	{ "drivers/*.s", true },
	{ "drivers/gpio/gpio-?.h", false },
	{ "drivers/gpio/gpio-??.c", true },
	{ "a.c", false },
	{ "a?c", false },
	{ "abc.", true },			/* '.' is literal */
	{ "a.b", true },
	{ "drivers/(net|gpio)/gpio", false },	/* regex syntax is regex */
	{ "drivers/(net|gpio)/tun", false },
	{ "drivers/(wan|x)/", true },
	{ "drivers/gpio/gpio-[ab].c", false },
	{ "drivers/gpio/gpio-[cd].c", true },
	{ "drivers/net/tun+.c", false },
	{ "drivers/net/tt{0,1}un.c", false },	/* the 't' may be absent */
	{ "drivers/gpio/ ", true },		/* the value keeps its space */
	{ "Makefile$", false },
	{ "Make$", true },
	{ "*/wan/", false },
	{ "*/lan/", true },
	{ "\"quoted", false },			/* as ls-files quotes it */
	{ "quoted", true },
	{ "drivers/(unclosed", true },		/* matches nothing here */
	{ "", false },
};

START_TEST(test_selftest_patterns_table)
{
	char text[256], want[512];
	const struct fx_file file = { "./MAINTAINERS", text };
	const struct fx fx = { &file, 1, tree_paths, tree_dirs, NULL };
	const char *v = pattern_cases[_i].value;

	snprintf(text, sizeof(text),
		 "SECTION\nM:\tA <a@x.org>\nS:\tMaintained\nF:\t%s\n", v);
	snprintf(want, sizeof(want),
		 "./MAINTAINERS:4: warning: no file matches\tF:\t%s\n", v);
	assert_run(&fx, GM_SELFTEST_PATTERNS,
		   pattern_cases[_i].reported ? want : "",
		   pattern_cases[_i].reported);
}
END_TEST

/* X: lines too; other tags not; a directory gets its slash. */
START_TEST(test_selftest_patterns_directory_slash)
{
	static const char *const paths[] = { "lib/a.c", "libfoo.c", NULL };
	static const char *const dirs[] = { "lib", "other", NULL };
	const struct fx fx = { ONE_FILE(
		"S\nM:\tA <a@x.org>\nS:\tMaintained\n"
		"F:\tlib\n"
		"X:\tlibfoo\n"
		"X:\tother\n"
		"N:\tnothing\n"
		"K:\tnothing\n"), paths, dirs, NULL };

	assert_run(&fx, GM_SELFTEST_PATTERNS,
		   "./MAINTAINERS:6: warning: no file matches\tX:\tother\n", 1);
}
END_TEST

/*
 * A submodule: `git ls-files` lists "ext/sub", the script's -d finds its
 * directory and adds the slash, so "F: ext/sub" matches no file; the
 * directory test sees the value alone, not the regex's '^'.
 */
START_TEST(test_selftest_patterns_submodule)
{
	static const char *const paths[] = { "ext/sub", "ext/subtle.c",
					     "lib/a.c", NULL };
	static const char *const dirs[] = { "ext", "ext/sub", "lib", NULL };
	const struct fx fx = { ONE_FILE(
		"S\nM:\tA <a@x.org>\nS:\tMaintained\n"
		"F:\text/sub\n"
		"F:\text/\n"
		"F:\tlib\n"
		"F:\text/subtle.c\n"), paths, dirs, NULL };

	assert_run(&fx, GM_SELFTEST_PATTERNS,
		   "./MAINTAINERS:4: warning: no file matches\tF:\text/sub\n", 1);
}
END_TEST

/* ==================== scm: the form of T: ==================== */

START_TEST(test_selftest_scm_malformed)
{
	const struct fx fx = { ONE_FILE(
		"S\nM:\tA <a@x.org>\nS:\tMaintained\nF:\ta\n"
		"T:\tgit\n"
		"T:\tsvn http://svn.example/\n"
		"T:\thttps://git.example/x.git\n"
		"T:\tquilt ftp://x.example/\n"
		"T:\thg ssh://x.example/\n"
		"T:\tgitx git://x.example/\n"
		"T:\n"), NULL, NULL, NULL };

	/* quilt and hg URLs that are not http(s) are not checked at all */
	assert_run(&fx, GM_SELFTEST_SCM,
		   "./MAINTAINERS:5: warning: malformed entry\tT:\tgit\n"
		   "./MAINTAINERS:6: warning: malformed entry\tT:\tsvn http://svn.example/\n"
		   "./MAINTAINERS:7: warning: malformed entry\tT:\thttps://git.example/x.git\n"
		   "./MAINTAINERS:10: warning: malformed entry\tT:\tgitx git://x.example/\n"
		   "./MAINTAINERS:11: warning: malformed entry\tT:\n",
		   5);
}
END_TEST

/* ==================== addresses ==================== */

START_TEST(test_selftest_addresses_invalid)
{
	const struct fx fx = { ONE_FILE(
		"S\n"
		"M:\tRafael J. Wysocki <rafael@x.org>\n"
		"M:\tJuri Lelli <juri@x.org> (SCHED_DEADLINE)\n"
		"R:\tbare@x.org\n"
		"M:\t\"Q, Name\" <q@x.org>\n"
		"L:\tlist@x.org (moderated for non-subscribers)\n"
		"M:\tNo Address\n"
		"M:\tA <a@x.org>, B <b@x.org>\n"
		"M:\tBroken <b@x.org\n"
		"M:\tTrailing <t@x.org> junk\n"
		"R:\tTwo <t@@x.org>\n"
		"L:\tList Name <list@x.org>\n"
		"L:\tnot-an-address\n"
		"S:\tMaintained\n"), NULL, NULL, NULL };

	assert_run(&fx, GM_SELFTEST_ADDRESSES,
		   "./MAINTAINERS:7: warning: invalid email address\tM:\tNo Address\n"
		   "./MAINTAINERS:8: warning: invalid email address\tM:\tA <a@x.org>, B <b@x.org>\n"
		   "./MAINTAINERS:9: warning: invalid email address\tM:\tBroken <b@x.org\n"
		   "./MAINTAINERS:10: warning: invalid email address\tM:\tTrailing <t@x.org> junk\n"
		   "./MAINTAINERS:11: warning: invalid email address\tR:\tTwo <t@@x.org>\n"
		   "./MAINTAINERS:12: warning: invalid email address\tL:\tList Name <list@x.org>\n"
		   "./MAINTAINERS:13: warning: invalid email address\tL:\tnot-an-address\n",
		   7);
}
END_TEST

/* The first line that names an address is the reference for later ones. */
START_TEST(test_selftest_addresses_names)
{
	const struct fx fx = { ONE_FILE(
		"ONE\n"
		"M:\tbob@x.org\n"
		"M:\tBob Smith <bob@x.org>\n"
		"S:\tMaintained\n"
		"TWO\n"
		"M:\tBob Smith <BOB@x.org>\n"
		"R:\tRobert Smith <bob@x.org>\n"
		"M:\tBob  Smith <bob@x.org>\n"
		"M:\t\"Bob Smith\" <bob@x.org>\n"
		"S:\tMaintained\n"), NULL, NULL, NULL };

	/* no name is no other name; names compare as the output shows them */
	assert_run(&fx, GM_SELFTEST_ADDRESSES,
		   "./MAINTAINERS:7: warning: name differs from ./MAINTAINERS:3\tR:\tRobert Smith <bob@x.org>\n"
		   "./MAINTAINERS:8: warning: name differs from ./MAINTAINERS:3\tM:\tBob  Smith <bob@x.org>\n",
		   2);
}
END_TEST

START_TEST(test_selftest_addresses_mailmap)
{
	const struct fx fx = { ONE_FILE(
		"ONE\n"
		"M:\tOld Name <old@x.org>\n"
		"M:\tSame <same@x.org>\n"
		"R:\tCase <case@x.org>\n"
		"M:\tJust Renamed <renamed@x.org>\n"
		"S:\tMaintained\n"),
		NULL, NULL,
		"New Name <new@x.org> <old@x.org>\n"
		"<Case@X.org> <case@x.org>\n"
		"Other Name <renamed@x.org>\n" };

	/* a change of the name alone, or of case, sends mail nowhere else */
	assert_run(&fx, GM_SELFTEST_ADDRESSES,
		   "./MAINTAINERS:2: warning: .mailmap maps the address to new@x.org\tM:\tOld Name <old@x.org>\n",
		   1);
}
END_TEST

/* ==================== order ==================== */

START_TEST(test_selftest_order)
{
	static const struct fx_file files[] = {
		{ "./MAINTAINERS",
		  "Header text\n"
		  "\n"
		  "3C59X\nS:\tMaintained\n"
		  "ALPHA\nS:\tMaintained\n"
		  "CHARLIE\nS:\tMaintained\n"
		  "BETA\nS:\tMaintained\n"
		  "delta\nS:\tMaintained\n"
		  "THE REST\nS:\tBuried alive in reporters\n"
		  "ZETA\nS:\tMaintained\n" },
		{ "./sub/MAINTAINERS",
		  "ZZZ\nS:\tMaintained\n"
		  "AAA\nS:\tMaintained\n" },
	};
	const struct fx fx = { files, 2, NULL, NULL, NULL };

	/*
	 * The longest sorted run stays (of the earliest sections, where
	 * there are several); each other section is named with its place.
	 * Case is ignored, THE REST sorts last, and each file is in order
	 * on its own.
	 */
	assert_run(&fx, GM_SELFTEST_ORDER,
		   "./MAINTAINERS:9: warning: section out of alphabetical order, belongs before CHARLIE\tBETA\n"
		   "./MAINTAINERS:15: warning: section out of alphabetical order, belongs before THE REST\tZETA\n"
		   "./sub/MAINTAINERS:3: warning: section out of alphabetical order, belongs before ZZZ\tAAA\n",
		   3);
}
END_TEST

/* Every check, and nothing to say: no output, no warning counted. */
START_TEST(test_selftest_clean)
{
	static const char *const paths[] = { "a/x.c", NULL };
	const struct fx fx = { ONE_FILE(
		"Intro\n"
		"\n"
		"A SECTION\n"
		"M:\tA Person <a@x.org>\n"
		"L:\tlist@x.org\n"
		"S:\tMaintained\n"
		"F:\ta/\n"
		"T:\tquilt ftp://x.example/\n"
		"\n"
		"THE REST\n"
		"M:\tA Person <a@x.org>\n"
		"S:\tBuried alive in reporters\n"
		"F:\t*\n"), paths, NULL, NULL };

	assert_run(&fx, GM_SELFTEST_SECTIONS | GM_SELFTEST_PATTERNS |
				GM_SELFTEST_SCM | GM_SELFTEST_ADDRESSES |
				GM_SELFTEST_ORDER,
		   "", 0);
}
END_TEST

/* The checks print in line order, a header's before its tags'. */
START_TEST(test_selftest_line_order)
{
	const struct fx fx = { ONE_FILE(
		"BBB\n"
		"M:\tbroken\n"
		"F:\tnone/\n"
		"AAA\n"
		"M:\tA <a@x.org>\n"
		"S:\tMaintained\n"
		"F:\tnone/\n"), NULL, NULL, NULL };

	assert_run(&fx, GM_SELFTEST_SECTIONS | GM_SELFTEST_PATTERNS |
				GM_SELFTEST_ADDRESSES | GM_SELFTEST_ORDER,
		   "./MAINTAINERS:1: warning: section without status \tBBB\n"
		   "./MAINTAINERS:2: warning: invalid email address\tM:\tbroken\n"
		   "./MAINTAINERS:3: warning: no file matches\tF:\tnone/\n"
		   "./MAINTAINERS:4: warning: section out of alphabetical order, belongs before BBB\tAAA\n"
		   "./MAINTAINERS:7: warning: no file matches\tF:\tnone/\n",
		   5);
}
END_TEST

Suite *selftest_suite(void)
{
	Suite *s = suite_create("selftest");
	TCase *words = tcase_create("words");
	TCase *script = tcase_create("script");
	TCase *own = tcase_create("own");

	tcase_add_loop_test(words, test_selftest_words, 0,
			    ARRAY_SIZE(words_cases));
	suite_add_tcase(s, words);

	tcase_add_test(script, test_selftest_sections_findings);
	tcase_add_test(script, test_selftest_sections_duplicate_is_prefix);
	tcase_add_test(script, test_selftest_sections_physical_lines);
	tcase_add_test(script, test_selftest_sections_crlf);
	tcase_add_loop_test(script, test_selftest_patterns_table, 0,
			    ARRAY_SIZE(pattern_cases));
	tcase_add_test(script, test_selftest_patterns_directory_slash);
	tcase_add_test(script, test_selftest_patterns_submodule);
	tcase_add_test(script, test_selftest_scm_malformed);
	suite_add_tcase(s, script);

	tcase_add_test(own, test_selftest_addresses_invalid);
	tcase_add_test(own, test_selftest_addresses_names);
	tcase_add_test(own, test_selftest_addresses_mailmap);
	tcase_add_test(own, test_selftest_order);
	tcase_add_test(own, test_selftest_clean);
	tcase_add_test(own, test_selftest_line_order);
	suite_add_tcase(s, own);
	return s;
}
