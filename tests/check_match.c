#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/match.h"
#include "gm/patch.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/*
 * The names of the sections matching `path`, in order, joined by ",";
 * `exact` gets the exact-match flag. `dirs` is the tree.
 */
static char *match_names(const struct gm_maintainers *m,
			 struct gm_test_dirs *dirs, const char *path,
			 int depth, bool *exact)
{
	struct gm_strvec files = GM_STRVEC_INIT, names = GM_STRVEC_INIT;
	struct gm_match_ctx *ctx = gm_test_match_ctx(m, dirs);
	struct gm_matches *mt = NULL;
	char *joined;
	size_t k;

	gm_strvec_push(&files, path);
	ck_assert_int_eq(gm_match_files(&mt, m, ctx, &files, depth), 0);
	ck_assert_uint_eq(mt->nr_files, 1);
	ck_assert_str_eq(mt->files[0].path, path);
	for (k = 0; k < mt->files[0].nr_sections; k++)
		gm_strvec_push(&names,
			       m->sections[mt->files[0].sections[k]].name);
	if (exact)
		*exact = mt->files[0].exact;
	joined = gm_test_join(&names, ",");
	gm_strvec_release(&names);
	gm_matches_free(mt);
	gm_match_ctx_free(ctx);
	gm_strvec_release(&files);
	return joined;
}

#define ALPHA \
	"ALPHA SUBSYSTEM WITH A VERY LONG NAME THAT EXCEEDS FIFTY CHARACTERS"

struct file_case {
	const char *path;
	int depth;		/* --pattern-depth */
	const char *sections;
	bool exact;
};

/* Fixture A (§16). */
static const struct file_case fixture_a_cases[] = {
	/* E1: BETA 4, ALPHA 3, GAMMA 2, THE REST -1 */
	{ "drivers/net/foo/a.c", 0, "BETA DRIVER," ALPHA ",GAMMA,THE REST",
	  true },
	{ "drivers/net/foo/a.cpp", 0, "BETA DRIVER," ALPHA ",GAMMA,THE REST",
	  true },						/* E3 */
	{ "drivers/net/bar/b.c", 0, "THE REST", false },	/* E4: X: */
	{ "drivers/gpio/gpio-x.c", 0, "GAMMA,THE REST", false },	/* E5 */
	{ "fs/ext4/sub/deep.c", 0, "EXT4,THE REST", false },	/* E6 */
	{ "fs/ext4/inode.c", 0, "EXT4,THE REST", true },
	{ "include/linux/foo.h", 0, "NOSTATUS,THE REST", false },	/* E7 */
	{ "Makefile", 0, "THE REST", false },
	{ "MAINTAINERS", 0, "THE REST", false },		/* E37 */
	{ "&STDIN", 0, "THE REST", false },			/* */
	{ "net/foo/a.c", 0, "THE REST", false },		/* E19 */
	{ "dev/null", 0, "THE REST", false },
	{ "drivers/net/", 0, "GAMMA,THE REST", false },		/* E20 */
	{ "drivers/net/foo/", 0, ALPHA ",GAMMA,THE REST", true },
	/* E11 and R-42 */
	{ "drivers/net/foo/a.c", 1, "BETA DRIVER," ALPHA, true },
	{ "drivers/net/foo/a.c", 2, "BETA DRIVER," ALPHA ",GAMMA", true },
	{ "drivers/net/foo/a.c", 4, "BETA DRIVER," ALPHA ",GAMMA", true },
	{ "drivers/net/foo/a.c", 5, "BETA DRIVER," ALPHA ",GAMMA,THE REST",
	  true },
	{ "drivers/gpio/gpio-x.c", 1, "GAMMA", false },	/* N: ignores depth */
};

START_TEST(test_match_fixture_a_table)
{
	const struct file_case *c = &fixture_a_cases[_i];
	struct gm_test_dirs d;
	struct gm_maintainers *m = gm_test_parse_fixture_a(&d);
	bool exact = !c->exact;
	char *got = match_names(m, &d, c->path, c->depth, &exact);

	ck_assert_msg(!strcmp(got, c->sections), "row %d %s: got '%s'", _i,
		      c->path, got);
	ck_assert_msg(exact == c->exact, "row %d %s: exact %d", _i, c->path,
		      exact);
	free(got);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_match_several_files)
{
	struct gm_test_dirs d;
	struct gm_maintainers *m = gm_test_parse_fixture_a(&d);
	struct gm_match_ctx *ctx = gm_test_match_ctx(m, &d);
	struct gm_strvec files = GM_STRVEC_INIT;
	struct gm_matches *mt = NULL;

	gm_strvec_push(&files, "fs/ext4/inode.c");
	gm_strvec_push(&files, "Makefile");
	gm_strvec_push(&files, "fs/ext4/inode.c");
	ck_assert_int_eq(gm_match_files(&mt, m, ctx, &files, 0), 0);
	ck_assert_uint_eq(mt->nr_files, 3);
	ck_assert_ptr_eq(mt->files[1].path, files.v[1]);	/* borrowed */
	ck_assert_uint_eq(mt->files[0].nr_sections, 2);
	ck_assert_uint_eq(mt->files[1].nr_sections, 1);
	ck_assert_uint_eq(mt->files[2].nr_sections, 2);
	ck_assert_uint_eq(mt->files[0].sections[0],
			  gm_test_section(m, "EXT4"));
	/* the line that decided: EXT4's F: */
	ck_assert_int_eq(m->lines[mt->files[0].lines[0]].tag, 'F');
	ck_assert_str_eq(m->lines[mt->files[0].lines[0]].value, "fs/ext4");
	gm_matches_free(mt);
	gm_match_ctx_free(ctx);
	gm_strvec_release(&files);
	gm_maintainers_free(m);
}
END_TEST

/* ==================== order (R-40, R-41, Q-4) ==================== */

struct order_case {
	const char *maintainers;
	const char *path;
	const char *sections;
};

static const struct order_case order_cases[] = {
	/* ties in file order, whatever the names */
	{ "S2\nM: b@x\nF: x/\n\nS1\nM: a@x\nF: x/\n", "x/y.c", "S2,S1" },
	{ "B\nF: x/\n\nC\nF: x/\n\nA\nF: x/\n", "x/y.c", "B,C,A" },
	/* deeper first */
	{ "TOP\nF: */\n\nLIB\nF: lib/\n\nDEEP\nF: lib/a/\n", "lib/a/b.c",
	  "DEEP,LIB,TOP" },
	/* the last matching line decides, not the deepest */
	{ "LAST\nF: drivers/net/foo/a.c\nF: drivers/\n\nMID\nF: drivers/net/\n",
	  "drivers/net/foo/a.c", "MID,LAST" },
	{ "LAST\nF: drivers/\nF: drivers/net/foo/a.c\n\nMID\nF: drivers/net/\n",
	  "drivers/net/foo/a.c", "LAST,MID" },
	{ "LAST\nF: drivers/net/foo/a.c\nN: drivers\n\nMID\nF: drivers/net/\n",
	  "drivers/net/foo/a.c", "MID,LAST" },
	/* N: is depth 0: above THE REST, below any F: */
	{ "REST\nF: */\n\nN1\nN: foo\n\nF1\nF: a/\n", "a/foo.c", "F1,N1,REST" },
	/* X: excludes the whole section, N: included, wherever it is */
	{ "SEC\nM: a@x\nN: gpio\nX: drivers/gpio/\n", "drivers/gpio/gpio-x.c",
	  "" },
	{ "SEC\nX: drivers/gpio/\nF: drivers/\n", "drivers/gpio/x.c", "" },
	{ "SEC\nX: drivers/gpio/\nF: drivers/\n", "drivers/net/x.c", "SEC" },
	{ "SEC\nM: a@x\nN: gpio\nX: drivers/gpio/\n", "lib/gpio.c", "SEC" },
	/* N: is a /x regex on the path */
	{ "SEC\nN: [^a-z]tegra\n", "drivers/tegra/x.c", "SEC" },
	{ "SEC\nN: [^a-z]tegra\n", "drivers/ntegra/x.c", "" },
	{ "SEC\nN: gp io\n", "gpio.c", "SEC" },
	/* Q-16, not reproduced: a CRLF F: value matches as with LF */
	{ "A\r\nM: a@x\r\nF: dir/\r\n", "dir/x.c", "A" },
	/* the preamble is no section */
	{ "\tF: *\nPRE\n", "x", "" },
	/* a file reaching a section through several F: lines: once */
	{ "S\nF: lib/\nF: lib/a/\nF: */\n", "lib/a/b.c", "S" },
};

START_TEST(test_match_order_table)
{
	const struct order_case *c = &order_cases[_i];
	struct gm_maintainers *m = gm_test_parse(c->maintainers);
	char *got = match_names(m, NULL, c->path, 0, NULL);

	ck_assert_msg(!strcmp(got, c->sections), "row %d %s: got '%s'", _i,
		      c->path, got);
	free(got);
	gm_maintainers_free(m);
}
END_TEST

/* ==================== exact matches (R-43) ==================== */

struct exact_case {
	const char *maintainers;
	const char *path;
	bool exact;
};

static const struct exact_case exact_cases[] = {
	{ "SUP\nM: a@x\nS: Supported\nF: lib/\n", "lib/x.c", true },
	{ "MNT\nM: a@x\nS: Maintained\nF: lib/\n", "lib/x.c", true },
	{ "ODD\nM: a@x\nS: Odd Fixes\nF: lib/\n", "lib/x.c", false },
	{ "ORP\nM: a@x\nS: Orphan\nF: lib/\n", "lib/x.c", false },
	{ "NOS\nM: a@x\nF: lib/\n", "lib/x.c", false },
	{ "NOM\nR: a@x\nS: Maintained\nF: lib/\n", "lib/x.c", false },
	/* the pattern must be as deep as the file */
	{ "SUP\nM: a@x\nS: Supported\nF: lib/\n", "lib/a/b.c", false },
	{ "SUP\nM: a@x\nS: Supported\nF: lib/a/b.c\n", "lib/a/b.c", true },
	/* N: never makes a match exact */
	{ "NS\nM: a@x\nS: Maintained\nN: foo\n", "foo.c", false },
	/* X: removes the section before it can */
	{ "SUP\nM: a@x\nS: Supported\nF: lib/\nX: lib/\n", "lib/x.c", false },
};

START_TEST(test_match_exact_table)
{
	const struct exact_case *c = &exact_cases[_i];
	struct gm_maintainers *m = gm_test_parse(c->maintainers);
	bool exact = !c->exact;
	char *got = match_names(m, NULL, c->path, 0, &exact);

	ck_assert_msg(exact == c->exact, "row %d %s", _i, c->path);
	free(got);
	gm_maintainers_free(m);
}
END_TEST

/* ==================== keywords (R-46, Q-5) ==================== */

/* The keyword fixture of §16. */
static const char keyword_fixture[] =
	"SPACEKW\n"
	"M:\tSpace <sp@x.org>\n"
	"S:\tMaintained\n"
	"K:\tfoo bar\n"
	"\n"
	"ALTKW\n"
	"M:\tAlt <alt@x.org>\n"
	"S:\tMaintained\n"
	"K:\taaa|bbb\n"
	"\n"
	"HASHKW\n"
	"M:\tHash <hash@x.org>\n"
	"S:\tMaintained\n"
	"K:\tzzz#comment\n";

static const char keyword_patch[] =
	"From: A <a@x.org>\n"
	"Subject: [PATCH] touch x\n"
	"\n"
	"---\n"
	"diff --git a/src/x.c b/src/x.c\n"
	"--- a/src/x.c\n"
	"+++ b/src/x.c\n"
	"@@ -1,2 +1,4 @@\n"
	" context bbb\n"
	"+foobar\n"
	"+zzzq\n";

static char *keyword_names(const struct gm_maintainers *m,
			   const struct gm_matches *mt)
{
	struct gm_strvec names = GM_STRVEC_INIT;
	char *joined;
	size_t i;

	for (i = 0; i < mt->nr_keywords; i++) {
		size_t s = m->section_of[mt->keywords[i]];

		gm_strvec_push(&names, m->sections[s].name);
	}
	joined = gm_test_join(&names, ",");
	gm_strvec_release(&names);
	return joined;
}

START_TEST(test_match_keywords_sorted_as_strings)
{
	struct gm_maintainers *m = gm_test_parse(keyword_fixture);
	struct gm_patch p = GM_PATCH_INIT;
	struct gm_matches *mt = calloc(1, sizeof(*mt));
	struct gm_match_ctx *ctx = gm_test_match_ctx(m, NULL);
	char *names;

	ck_assert_int_eq(gm_patch_parse(&p, keyword_patch,
					strlen(keyword_patch)), 0);
	ck_assert_int_eq(gm_match_keywords_patch(mt, m, ctx, keyword_patch, &p),
			 0);
	gm_match_keywords_finish(mt);
	/* E33: lines 11, 3, 7 ("11" < "3" < "7") */
	ck_assert_uint_eq(mt->nr_keywords, 3);
	ck_assert_uint_eq(mt->keywords[0], 11);
	ck_assert_uint_eq(mt->keywords[1], 3);
	ck_assert_uint_eq(mt->keywords[2], 7);
	names = keyword_names(m, mt);
	ck_assert_str_eq(names, "HASHKW,SPACEKW,ALTKW");
	free(names);
	gm_matches_free(mt);
	gm_match_ctx_free(ctx);
	gm_patch_release(&p);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_match_keywords_prefix_on_patch_lines)
{
	/* before the first file line every line counts, after it only +/- */
	static const char patch[] =
		"Subject: aaa in the subject\n"
		"---\n"
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -1,1 +1,1 @@\n"
		" foobar in context\n"
		" zzz in context\n";
	struct gm_maintainers *m = gm_test_parse(keyword_fixture);
	struct gm_patch p = GM_PATCH_INIT;
	struct gm_matches *mt = calloc(1, sizeof(*mt));
	struct gm_match_ctx *ctx = gm_test_match_ctx(m, NULL);
	char *names;

	ck_assert_int_eq(gm_patch_parse(&p, patch, strlen(patch)), 0);
	ck_assert_int_eq(gm_match_keywords_patch(mt, m, ctx, patch, &p), 0);
	gm_match_keywords_finish(mt);
	names = keyword_names(m, mt);
	ck_assert_str_eq(names, "ALTKW");
	free(names);
	gm_matches_free(mt);
	gm_match_ctx_free(ctx);
	gm_patch_release(&p);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_match_keywords_in_text)
{
	/* the second time with zeros after it, used in place */
	static const char text[] = "int foobar;\n/* zzz */\n"
				   "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
	size_t len = strlen(text), pad = sizeof(text) - 1 - len;
	struct gm_maintainers *m = gm_test_parse(keyword_fixture);
	struct gm_matches *mt = calloc(1, sizeof(*mt));
	struct gm_match_ctx *ctx = gm_test_match_ctx(m, NULL);

	ck_assert_int_eq(gm_match_keywords_text(mt, m, ctx, text, len, 0), 0);
	ck_assert_int_eq(gm_match_keywords_text(mt, m, ctx, text, len, pad), 0);
	gm_match_keywords_finish(mt);
	/* unique, string order */
	ck_assert_uint_eq(mt->nr_keywords, 2);
	ck_assert_uint_eq(mt->keywords[0], 11);
	ck_assert_uint_eq(mt->keywords[1], 3);
	gm_matches_free(mt);
	gm_match_ctx_free(ctx);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_match_keywords_e17_subject)
{
	static const char patch[] =
		"Subject: [PATCH] fs: touch beta_magic stuff\n"
		"---\n"
		"--- a/fs/ext4/inode.c\n"
		"+++ b/fs/ext4/inode.c\n"
		"@@ -1,3 +1,4 @@\n"
		" beta_magic in context only\n"
		"+added\n";
	struct gm_test_dirs d;
	struct gm_maintainers *m = gm_test_parse_fixture_a(&d);
	struct gm_patch p = GM_PATCH_INIT;
	struct gm_matches *mt = calloc(1, sizeof(*mt));
	struct gm_match_ctx *ctx = gm_test_match_ctx(m, NULL);

	ck_assert_int_eq(gm_patch_parse(&p, patch, strlen(patch)), 0);
	ck_assert_int_eq(gm_match_keywords_patch(mt, m, ctx, patch, &p), 0);
	gm_match_keywords_finish(mt);
	ck_assert_uint_eq(mt->nr_keywords, 1);
	ck_assert_uint_eq(mt->keywords[0], 19);
	ck_assert_uint_eq(m->section_of[19], gm_test_section(m, "BETA DRIVER"));
	gm_matches_free(mt);
	gm_match_ctx_free(ctx);
	gm_patch_release(&p);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_match_keywords_none)
{
	struct gm_maintainers *m = gm_test_parse(keyword_fixture);
	struct gm_matches *mt = calloc(1, sizeof(*mt));
	struct gm_match_ctx *ctx = gm_test_match_ctx(m, NULL);

	ck_assert_int_eq(gm_match_keywords_text(mt, m, ctx, "nothing", 7, 0),
			 0);
	gm_match_keywords_finish(mt);
	ck_assert_uint_eq(mt->nr_keywords, 0);
	gm_matches_free(mt);
	gm_matches_free(NULL);
	gm_match_ctx_free(ctx);
	gm_match_ctx_free(NULL);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_match_keywords_many_lines_string_order)
{
	struct gm_buf text = GM_BUF_INIT;
	struct gm_maintainers *m;
	struct gm_matches *mt = calloc(1, sizeof(*mt));
	struct gm_match_ctx *ctx;
	size_t i;

	/* K: lines at indices 1, 3, ..., 25: "1" < "11" < ... < "9" */
	for (i = 0; i < 13; i++)
		gm_buf_printf(&text, "S%zu\nK: hit\n", i);
	m = gm_test_parse(text.ptr);
	ctx = gm_test_match_ctx(m, NULL);
	ck_assert_int_eq(gm_match_keywords_text(mt, m, ctx, "hit", 3, 0), 0);
	gm_match_keywords_finish(mt);
	ck_assert_uint_eq(mt->nr_keywords, 13);
	ck_assert_uint_eq(mt->keywords[0], 1);
	ck_assert_uint_eq(mt->keywords[1], 11);
	ck_assert_uint_eq(mt->keywords[2], 13);
	ck_assert_uint_eq(mt->keywords[7], 23);
	ck_assert_uint_eq(mt->keywords[8], 25);
	ck_assert_uint_eq(mt->keywords[9], 3);
	ck_assert_uint_eq(mt->keywords[12], 9);
	gm_matches_free(mt);
	gm_match_ctx_free(ctx);
	gm_maintainers_free(m);
	gm_buf_release(&text);
}
END_TEST

/* ==================== contexts and threads ==================== */

/* Literal globs without a '/': each asks the directory test. */
static const char dirtest_fixture[] =
	"A\n"
	"F:\tlib\n"
	"X:\tlib/skip\n"
	"\n"
	"B\n"
	"F:\tfs/ext4\n"
	"\n"
	"C\n"
	"F:\tlib\n"
	"F:\tnever\n";

static const char *const dirtest_dirs[] = {
	"lib", "lib/skip", "fs/ext4", "never", NULL
};

static const char *const dirtest_paths[] = {
	"lib/a.c", "lib/skip/x.c", "fs/ext4/inode.c", "lib/b.c", "README",
};

static struct gm_matches *dirtest_match(const struct gm_maintainers *m,
					struct gm_match_ctx *ctx,
					const struct gm_strvec *files)
{
	struct gm_matches *mt = NULL;

	ck_assert_int_eq(gm_match_files(&mt, m, ctx, files, 0), 0);
	return mt;
}

/*
 * The directory test is asked at most once per glob and context, by the
 * matches and the --sections values alike, and only for the globs a path
 * reached; a second context asks for itself.
 */
START_TEST(test_match_isdir_once_per_glob_and_context)
{
	struct gm_maintainers *m = gm_test_parse(dirtest_fixture);
	struct gm_test_dirs d = { dirtest_dirs, 0, "" };
	struct gm_match_ctx *ctx = gm_test_match_ctx(m, &d);
	struct gm_strvec files = GM_STRVEC_INIT;
	struct gm_match_ctx *other;
	struct gm_matches *mt;
	const char *v;
	size_t len;

	for (size_t i = 0; i < ARRAY_SIZE(dirtest_paths); i++)
		gm_strvec_push(&files, dirtest_paths[i]);
	mt = dirtest_match(m, ctx, &files);
	/* lib (A), lib/skip, fs/ext4, lib (C); "never" is not reached */
	ck_assert_int_eq(d.calls, 4);
	/* lib/skip/x.c is excluded from A, not from C */
	ck_assert_uint_eq(mt->files[1].nr_sections, 1);
	ck_assert_uint_eq(mt->files[1].sections[0], gm_test_section(m, "C"));
	gm_matches_free(mt);
	mt = dirtest_match(m, ctx, &files);
	ck_assert_int_eq(d.calls, 4);
	v = gm_match_glob_value(m, ctx, 1, &len);
	ck_assert_str_eq(v, "lib/");
	ck_assert_uint_eq(len, 4);
	ck_assert_int_eq(d.calls, 4);
	v = gm_match_glob_value(m, ctx, 7, &len);	/* F: never */
	ck_assert_str_eq(v, "never/");
	ck_assert_int_eq(d.calls, 5);
	ck_assert_ptr_eq(gm_match_glob_value(m, ctx, 7, &len), v);
	ck_assert_int_eq(d.calls, 5);
	ck_assert_ptr_null(gm_match_glob_value(m, ctx, 0, &len));  /* A */
	gm_matches_free(mt);

	other = gm_test_match_ctx(m, &d);
	mt = dirtest_match(m, other, &files);
	ck_assert_int_eq(d.calls, 9);
	gm_matches_free(mt);
	gm_match_ctx_free(other);
	gm_match_ctx_free(ctx);
	gm_strvec_release(&files);
	gm_maintainers_free(m);
}
END_TEST

/* A copy of the bytes of the model's arrays, to compare after matching. */
struct model_bytes {
	void *lines, *globs, *regexes, *sections;
};

static void *bytes_copy(const void *p, size_t n)
{
	void *c = malloc(n ? n : 1);

	ck_assert_ptr_nonnull(c);
	memcpy(c, p, n);
	return c;
}

static void model_bytes_take(struct model_bytes *b,
			     const struct gm_maintainers *m)
{
	b->lines = bytes_copy(m->lines, m->nr_lines * sizeof(*m->lines));
	b->globs = bytes_copy(m->globs, m->nr_globs * sizeof(*m->globs));
	b->regexes = bytes_copy(m->regexes,
				m->nr_regexes * sizeof(*m->regexes));
	b->sections = bytes_copy(m->sections,
				 m->nr_sections * sizeof(*m->sections));
}

static void model_bytes_check(struct model_bytes *b,
			      const struct gm_maintainers *m)
{
	ck_assert_mem_eq(b->lines, m->lines, m->nr_lines * sizeof(*m->lines));
	ck_assert_mem_eq(b->globs, m->globs, m->nr_globs * sizeof(*m->globs));
	ck_assert_mem_eq(b->regexes, m->regexes,
			 m->nr_regexes * sizeof(*m->regexes));
	ck_assert_mem_eq(b->sections, m->sections,
			 m->nr_sections * sizeof(*m->sections));
	free(b->lines);
	free(b->globs);
	free(b->regexes);
	free(b->sections);
}

/* Fixture A's paths, with a K: hit, an N: hit and a directory. */
static const char *const fixture_a_paths[] = {
	"drivers/net/foo/a.c", "drivers/net/bar/b.c", "drivers/gpio/gpio-x.c",
	"fs/ext4/sub/deep.c", "fs/ext4.c", "include/linux/foo.h", "Makefile",
	"drivers/net/", "x\ny.c",
};

static const char fixture_a_text[] =
	"static int beta_magic;\n/* a long enough text for the scan */\n";

/*
 * Everything a run does with the model, through `ctx`, as a string; NULL
 * if a call fails. It asserts nothing, to be run in a thread of its own.
 */
static char *fixture_a_run(const struct gm_maintainers *m,
			   struct gm_match_ctx *ctx)
{
	struct gm_strvec files = GM_STRVEC_INIT;
	struct gm_buf out = GM_BUF_INIT;
	struct gm_matches *mt = NULL, *kw = calloc(1, sizeof(*kw));
	char *got = NULL;
	size_t len;

	for (size_t i = 0; i < ARRAY_SIZE(fixture_a_paths); i++)
		if (gm_strvec_push(&files, fixture_a_paths[i]) < 0)
			goto out;
	if (!kw || gm_match_files(&mt, m, ctx, &files, 0) < 0)
		goto out;
	for (size_t i = 0; i < mt->nr_files; i++) {
		gm_buf_printf(&out, "%s:", mt->files[i].path);
		for (size_t k = 0; k < mt->files[i].nr_sections; k++)
			gm_buf_printf(&out, " %zu/%zu",
				      mt->files[i].sections[k],
				      mt->files[i].lines[k]);
		gm_buf_puts(&out, "\n");
	}
	for (size_t i = 0; i < m->nr_lines; i++) {
		const char *v = gm_match_glob_value(m, ctx, i, &len);

		if (v)
			gm_buf_printf(&out, "%zu %s\n", i, v);
	}
	if (gm_match_keywords_text(kw, m, ctx, fixture_a_text,
				   strlen(fixture_a_text), 0) < 0)
		goto out;
	gm_match_keywords_finish(kw);
	for (size_t i = 0; i < kw->nr_keywords; i++)
		gm_buf_printf(&out, "K %zu\n", kw->keywords[i]);
	got = gm_buf_detach(&out, NULL);
out:
	gm_buf_release(&out);
	gm_matches_free(kw);
	gm_matches_free(mt);
	gm_strvec_release(&files);
	return got;
}

/* Matching, values and keywords write nothing of the model (R-12 cache). */
START_TEST(test_match_model_read_only)
{
	struct gm_test_dirs d;
	struct gm_maintainers *m = gm_test_parse_fixture_a(&d);
	struct gm_match_ctx *ctx = gm_test_match_ctx(m, &d);
	struct model_bytes b;
	char *got;

	model_bytes_take(&b, m);
	got = fixture_a_run(m, ctx);
	ck_assert_ptr_nonnull(got);
	/* the run saw the directory, the N: line and the K: line */
	ck_assert_ptr_nonnull(strstr(got, "fs/ext4/sub/deep.c: 3/31 5/44\n"));
	ck_assert_ptr_nonnull(strstr(got, "drivers/gpio/gpio-x.c: 2/27"));
	ck_assert_ptr_nonnull(strstr(got, "31 fs/ext4/\n"));
	ck_assert_ptr_nonnull(strstr(got, "K 19\n"));
	model_bytes_check(&b, m);
	free(got);
	gm_match_ctx_free(ctx);
	gm_maintainers_free(m);
}
END_TEST

/* One thread's run: its own context and directory test on one model. */
struct run_thread {
	const struct gm_maintainers *m;
	char *got;
};

static void *run_thread_main(void *payload)
{
	struct run_thread *t = payload;
	struct gm_test_dirs d = { gm_test_fixture_a_dirs, 0, "" };
	struct gm_match_ctx *ctx = NULL;

	for (int i = 0; i < 20; i++) {
		if (gm_match_ctx_new(&ctx, t->m, gm_test_isdir, &d) < 0)
			return NULL;
		free(t->got);
		t->got = fixture_a_run(t->m, ctx);
		gm_match_ctx_free(ctx);
	}
	return NULL;
}

/*
 * Several threads match one model at once, each with its own context,
 * and all get the answers of a run alone (the ThreadSanitizer build
 * checks that they share nothing they write).
 */
START_TEST(test_match_threads_share_one_model)
{
	struct gm_test_dirs d;
	struct gm_maintainers *m = gm_test_parse_fixture_a(&d);
	struct gm_match_ctx *ctx = gm_test_match_ctx(m, &d);
	struct run_thread t[4];
	pthread_t tid[4];
	char *want = fixture_a_run(m, ctx);

	ck_assert_ptr_nonnull(want);
	gm_match_ctx_free(ctx);
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		t[i].m = m;
		t[i].got = NULL;
		ck_assert_int_eq(pthread_create(&tid[i], NULL, run_thread_main,
						&t[i]), 0);
	}
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		ck_assert_int_eq(pthread_join(tid[i], NULL), 0);
		ck_assert_ptr_nonnull(t[i].got);
		ck_assert_str_eq(t[i].got, want);
		free(t[i].got);
	}
	free(want);
	gm_maintainers_free(m);
}
END_TEST

Suite *match_suite(void)
{
	Suite *s = suite_create("match");
	TCase *files = tcase_create("files");
	TCase *keywords = tcase_create("keywords");
	TCase *contexts = tcase_create("contexts");

	tcase_add_loop_test(files, test_match_fixture_a_table, 0,
			    (int)ARRAY_SIZE(fixture_a_cases));
	tcase_add_test(files, test_match_several_files);
	tcase_add_loop_test(files, test_match_order_table, 0,
			    (int)ARRAY_SIZE(order_cases));
	tcase_add_loop_test(files, test_match_exact_table, 0,
			    (int)ARRAY_SIZE(exact_cases));
	suite_add_tcase(s, files);

	tcase_add_test(keywords, test_match_keywords_sorted_as_strings);
	tcase_add_test(keywords, test_match_keywords_prefix_on_patch_lines);
	tcase_add_test(keywords, test_match_keywords_in_text);
	tcase_add_test(keywords, test_match_keywords_e17_subject);
	tcase_add_test(keywords, test_match_keywords_none);
	tcase_add_test(keywords, test_match_keywords_many_lines_string_order);
	suite_add_tcase(s, keywords);

	tcase_add_test(contexts, test_match_isdir_once_per_glob_and_context);
	tcase_add_test(contexts, test_match_model_read_only);
	tcase_add_test(contexts, test_match_threads_share_one_model);
	suite_add_tcase(s, contexts);
	return s;
}
