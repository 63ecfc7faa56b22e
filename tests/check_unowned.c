#define _GNU_SOURCE	/* open_memstream */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gm/buf.h"
#include "gm/match.h"
#include "gm/unowned.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/* ==================== claims against the matcher ==================== */

/*
 * Whether gm_unowned_match() reports exactly the sections that
 * gm_match_files() finds for each file, with no K: line,
 * each once.
 */
static void check_against_matcher(const struct gm_maintainers *m,
				  struct gm_test_dirs *dirs,
				  const struct gm_strvec *files, int depth)
{
	struct gm_unowned_opts o = GM_UNOWNED_OPTS_INIT;
	struct gm_match_ctx *ctx = gm_test_match_ctx(m, dirs);
	struct gm_matches *mt = NULL, *got = NULL;
	unsigned char *bits = calloc(m->nr_sections + 1, 1);

	o.isdir = gm_test_isdir;
	o.payload = dirs;
	o.pattern_depth = depth;
	ck_assert_ptr_nonnull(bits);
	ck_assert_int_eq(gm_unowned_match(&got, m, &o,
					  (const char *const *)files->v,
					  files->nr), 0);
	ck_assert_int_eq(gm_match_files(&mt, m, ctx, files, depth), 0);
	for (size_t i = 0; i < files->nr; i++) {
		const struct gm_match_file *f = &mt->files[i];
		const struct gm_match_file *g = &got->files[i];

		memset(bits, 0, m->nr_sections + 1);
		for (size_t k = 0; k < g->nr_sections; k++) {
			ck_assert_msg(!bits[g->sections[k]],
				      "claim of section %zu on file %zu "
				      "reported twice", g->sections[k], i);
			bits[g->sections[k]] = 1;
		}
		for (size_t k = 0; k < f->nr_sections; k++)
			ck_assert_msg(bits[f->sections[k]],
				      "'%s' (depth %d): no claim of '%s'",
				      files->v[i], depth,
				      m->sections[f->sections[k]].name);
		/* and nothing more */
		ck_assert_uint_eq(g->nr_sections, f->nr_sections);
	}
	gm_matches_free(got);
	gm_matches_free(mt);
	gm_match_ctx_free(ctx);
	free(bits);
}

static const char *const fixture_files[] = {
	"MAINTAINERS", "Makefile", "README",
	"drivers/gpio/gpio-x.c", "drivers/gpio/gpio.c",
	"drivers/net/bar/b.c", "drivers/net/foo/a.c", "drivers/net/foo/a.cpp",
	"drivers/net/foo/a.c.orig", "drivers/net/foo/sub/c.c",
	"drivers/net/x.c", "fs/ext4/inode.c", "fs/ext4/sub/deep.c",
	"include/linux/foo.h", "net/foo/a.c",
};

static void push_all(struct gm_strvec *sv, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(gm_strvec_push(sv, v[i]), 0);
	gm_strvec_sort_uniq(sv);
}

/* Fixture A of the spec, every depth. */
START_TEST(test_unowned_claims_fixture_a)
{
	struct gm_strvec files = GM_STRVEC_INIT;
	struct gm_test_dirs d;
	struct gm_maintainers *m = gm_test_parse_fixture_a(&d);

	push_all(&files, fixture_files, ARRAY_SIZE(fixture_files));
	for (int depth = 0; depth <= 5; depth++)
		check_against_matcher(m, &d, &files, depth);
	gm_strvec_release(&files);
	gm_maintainers_free(m);
}
END_TEST

/*
 * A file that starts with tag lines: the first is the section's name and
 * still one of its lines for the matcher.
 */
START_TEST(test_unowned_claims_first_line_a_tag)
{
	static const char *const texts[] = {
		"N:\tfoo\nM:\tA <a@example.com>\nF:\tbar/\n",
		"F:\tbar/\nM:\tA <a@example.com>\nN:\tfoo\n",
		"X:\tbar/x.c\nM:\tA <a@example.com>\nF:\tbar/\n",
	};
	static const char *const paths[] = { "bar/foo.c", "bar/x.c", "foo",
					     "lib/y.c" };
	struct gm_strvec files = GM_STRVEC_INIT;
	struct gm_test_dirs d;

	memset(&d, 0, sizeof(d));
	push_all(&files, paths, ARRAY_SIZE(paths));
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		struct gm_maintainers *m = gm_test_parse(texts[i]);

		check_against_matcher(m, &d, &files, 0);
		gm_maintainers_free(m);
	}
	gm_strvec_release(&files);
}
END_TEST

/* ==================== random rules and trees ==================== */

static unsigned long rnd_next(unsigned long *state)
{
	*state = *state * 6364136223846793005UL + 1442695040888963407UL;
	return (*state >> 33) & 0x7fffffff;
}

static const char *rnd_pick(unsigned long *state, const char *const *v,
			    size_t n)
{
	return v[rnd_next(state) % n];
}

static const char *const components[] = {
	"a", "b", "ab", "a.b", "ab.c", "x.c", "x.cpp", "y.h", "a-b", "b_a",
};

static const char *const glob_parts[] = {
	"a", "b", "ab", "a.b", "x.c", "x.", "*", "a*", "*b", "?b", "x.*",
	"*.c", "[ab]", "[ab]x.c", "a+", "(a|b)", "**", "ab.c", "y.h", "a?",
	"a{1}", "b\\.", "^a", "a$", "(?i)AB", "ab{0,1}", "x|b",
};

static const char *const regexes[] = {
	"a/b", "x\\.c$", "^b", "[ab]/x", "(?i)AB", "y", "b_a|a-b",
	"\\.cpp", "(?:ab|ba)\\.c", "a  /  b  # /x comment", "^(a|ab)/",
};

/* A random path of up to four components. */
static void rnd_path(unsigned long *state, struct gm_buf *b)
{
	size_t n = 1 + rnd_next(state) % 4;

	gm_buf_reset(b);
	for (size_t i = 0; i < n; i++) {
		if (i)
			gm_buf_putc(b, '/');
		gm_buf_puts(b, rnd_pick(state, components,
					ARRAY_SIZE(components)));
	}
}

static void rnd_glob(unsigned long *state, struct gm_buf *b)
{
	size_t n = 1 + rnd_next(state) % 3;

	for (size_t i = 0; i < n; i++) {
		if (i)
			gm_buf_putc(b, '/');
		gm_buf_puts(b, rnd_pick(state, glob_parts,
					ARRAY_SIZE(glob_parts)));
	}
	if (rnd_next(state) % 3 == 0)
		gm_buf_putc(b, '/');
}

/* Random MAINTAINERS text: sections of F:, X:, N: lines. */
static void rnd_maintainers(unsigned long *state, struct gm_buf *b)
{
	size_t sections = 2 + rnd_next(state) % 6;

	for (size_t s = 0; s < sections; s++) {
		size_t lines = 1 + rnd_next(state) % 5;

		gm_buf_printf(b, "SECTION %zu\n", s);
		if (rnd_next(state) % 4)
			gm_buf_printf(b, "M:\tP%zu <p%zu@example.com>\n", s, s);
		gm_buf_puts(b, "S:\tMaintained\n");
		for (size_t k = 0; k < lines; k++) {
			unsigned long kind = rnd_next(state) % 8;

			if (kind == 0) {
				gm_buf_printf(b, "N:\t%s\n",
					      rnd_pick(state, regexes,
						       ARRAY_SIZE(regexes)));
				continue;
			}
			gm_buf_puts(b, kind < 3 ? "X:\t" : "F:\t");
			rnd_glob(state, b);
			gm_buf_putc(b, '\n');
		}
		gm_buf_putc(b, '\n');
	}
	gm_buf_puts(b, "THE REST\nM:\tL T <lt@example.com>\nF:\t*\nF:\t*/\n");
}

/* The directories of the tree `files` makes, NULL-terminated. */
static char **dirs_of(const struct gm_strvec *files)
{
	struct gm_strvec dirs = GM_STRVEC_INIT;

	for (size_t i = 0; i < files->nr; i++)
		for (const char *p = files->v[i]; (p = strchr(p, '/')); p++)
			gm_strvec_pushn(&dirs, files->v[i],
					(size_t)(p - files->v[i]));
	gm_strvec_sort_uniq(&dirs);
	if (!dirs.v)
		gm_strvec_push(&dirs, "never-a-dir-here");
	return dirs.v;	/* NULL-terminated; freed with free_dirs() */
}

static void free_dirs(char **dirs)
{
	for (size_t i = 0; dirs[i]; i++)
		free(dirs[i]);
	free(dirs);
}

/*
 * A file cannot also be a directory of the tree: drop the paths that are
 * a directory of another.
 */
static void drop_dir_clashes(struct gm_strvec *files)
{
	size_t j = 0;

	for (size_t i = 0; i < files->nr; i++) {
		size_t len = strlen(files->v[i]);
		bool clash = i + 1 < files->nr &&
			     !strncmp(files->v[i + 1], files->v[i], len) &&
			     files->v[i + 1][len] == '/';

		for (size_t k = i + 1; !clash && k < files->nr &&
		     !strncmp(files->v[k], files->v[i], len); k++)
			clash = files->v[k][len] == '/';
		if (clash)
			free(files->v[i]);
		else
			files->v[j++] = files->v[i];
	}
	files->nr = j;
	files->v[j] = NULL;
}

START_TEST(test_unowned_claims_random)
{
	unsigned long state = 0x9e3779b97f4a7c15UL * (unsigned long)(_i + 1);
	struct gm_strvec files = GM_STRVEC_INIT;
	struct gm_buf text = GM_BUF_INIT, path = GM_BUF_INIT;
	struct gm_maintainers *m;
	struct gm_test_dirs d;
	size_t n = 20 + rnd_next(&state) % 60;
	char **dirs;

	for (size_t i = 0; i < n; i++) {
		rnd_path(&state, &path);
		gm_strvec_push(&files, path.ptr);
	}
	gm_strvec_sort_uniq(&files);
	drop_dir_clashes(&files);
	rnd_maintainers(&state, &text);
	dirs = dirs_of(&files);
	memset(&d, 0, sizeof(d));
	d.dirs = (const char *const *)dirs;
	m = gm_test_parse(text.ptr);
	for (int depth = 0; depth <= 3; depth++)
		check_against_matcher(m, &d, &files, depth);
	gm_maintainers_free(m);
	free_dirs(dirs);
	gm_strvec_release(&files);
	gm_buf_release(&text);
	gm_buf_release(&path);
}
END_TEST

/* ==================== catch-all, owned ==================== */

static const char owners_text[] =
	"FOO DRIVER\n"
	"M:\tMaria Maint <maria@example.com>\n"
	"S:\tMaintained\n"
	"F:\tdrivers/foo/\n"
	"X:\tdrivers/foo/legacy/\n"
	"\n"
	"BAR BY NAME\n"
	"M:\tBen Bar <ben@example.com>\n"
	"S:\tMaintained\n"
	"N:\tbar\n"
	"\n"
	"REVIEWED ONLY\n"
	"R:\tRita Review <rita@example.com>\n"
	"S:\tMaintained\n"
	"F:\tdocs/\n"
	"\n"
	"THE REST\n"
	"M:\tLinus T <lt@example.com>\n"
	"S:\tBuried alive in reporters\n"
	"F:\tMakefile\n"
	"F:\t*\n"
	"F:\t*/\n";

START_TEST(test_unowned_mark_known)
{
	static const struct {
		const char *path;
		int owned;
	} cases[] = {
		{ "Makefile", 1 },		/* THE REST names it itself */
		{ "README", 0 },		/* only THE REST's F: * */
		{ "docs/guide.txt", 0 },	/* R: only: no maintainer */
		{ "drivers/bar/x.c", 1 },	/* N: */
		{ "drivers/foo/a.c", 1 },
		{ "drivers/foo/legacy/old.c", 0 },	/* X: */
		{ "lib/sub/bar.c", 1 },	/* N: at any depth */
		{ "lib/x.c", 0 },		/* only THE REST's F: */
	};
	struct gm_unowned_opts o = GM_UNOWNED_OPTS_INIT;
	struct gm_strvec files = GM_STRVEC_INIT;
	struct gm_test_dirs d;
	static const char *const dirs[] = { "docs", "drivers", "drivers/bar",
					    "drivers/foo", "drivers/foo/legacy",
					    "lib", "lib/sub", NULL };
	struct gm_maintainers *m;
	unsigned char owned[ARRAY_SIZE(cases)];

	memset(&d, 0, sizeof(d));
	d.dirs = dirs;
	m = gm_test_parse(owners_text);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		gm_strvec_push(&files, cases[i].path);
	o.isdir = gm_test_isdir;
	o.payload = &d;
	ck_assert_int_eq(gm_unowned_mark(owned, m, &o,
					 (const char *const *)files.v,
					 files.nr), 0);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		ck_assert_msg(owned[i] == cases[i].owned, "%s: owned %d",
			      cases[i].path, owned[i]);
	gm_strvec_release(&files);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_unowned_catch_all_rule)
{
	static const struct {
		const char *text;
		bool catch_all;
	} want[] = {
		{ "STAR ONLY\nM:\tA <a@example.com>\nF:\t*\n", false },
		{ "BOTH\nM:\tB <b@example.com>\nF:\t*/\nF:\t*\n", true },
		/* its others still claim */
		{ "BOTH AND MORE\nM:\tC <c@example.com>\nF:\tx\nF:\t*\n"
		  "F:\t*/\nX:\tdrivers/\n", true },
		/* the name does not count */
		{ "NAMED THE REST\nM:\tD <d@example.com>\nF:\t*/\n", false },
	};
	static const char *const paths[] = { "d/y", "x", "y" };
	struct gm_unowned_opts o = GM_UNOWNED_OPTS_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		struct gm_maintainers *m = gm_test_parse(want[i].text);
		unsigned char owned[3];

		/* a catch-all's two lines claim "y" and "d/y" for no one */
		ck_assert_int_eq(gm_unowned_mark(owned, m, &o, paths, 3), 0);
		ck_assert_msg(!(owned[0] || owned[2]) == want[i].catch_all,
			      "%s", want[i].text);
		gm_maintainers_free(m);
	}
}
END_TEST

/* --pattern-depth=1 keeps only patterns at the file's level. */
START_TEST(test_unowned_mark_pattern_depth)
{
	static const char text[] =
		"TOP\nM:\tA <a@example.com>\nF:\tdrivers/\n\n"
		"THE REST\nM:\tL <l@example.com>\nF:\t*\nF:\t*/\n";
	static const char *const paths[] = { "drivers/a.c", "drivers/x/b.c" };
	struct gm_unowned_opts o = GM_UNOWNED_OPTS_INIT;
	struct gm_maintainers *m = gm_test_parse(text);
	unsigned char owned[2];

	ck_assert_int_eq(gm_unowned_mark(owned, m, &o, paths, 2), 0);
	ck_assert(owned[0] && owned[1]);
	o.pattern_depth = 1;
	ck_assert_int_eq(gm_unowned_mark(owned, m, &o, paths, 2), 0);
	ck_assert(owned[0] && !owned[1]);
	gm_maintainers_free(m);
}
END_TEST

/* ==================== output ==================== */

static char *write_to_string(const char *const *files, size_t nr,
			     const unsigned char *owned, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(gm_unowned_write(f, files, nr, owned, "0123abcd",
					  json ? GM_UNOWNED_JSON :
					  GM_UNOWNED_LIST, true), 0);
	fclose(f);
	return buf;
}

START_TEST(test_unowned_write_text_quotes)
{
	static const char *const files[] = { "a b.c", "new\nline", "ok.c",
					     "q\"uote", "t\tab" };
	static const unsigned char owned[] = { 0, 0, 1, 0, 0 };
	char *out = write_to_string(files, 5, owned, false);

	ck_assert_str_eq(out, "a b.c\n\"new\\nline\"\n\"q\\\"uote\"\n"
			      "\"t\\tab\"\n");
	free(out);
}
END_TEST

START_TEST(test_unowned_dirs)
{
	static const char *const files[] = { "Makefile", "README", "a/b/c.c",
					     "a/b/d.c", "a/x.c", "a/y.c",
					     "e/f/g.c", "e/h.c" };
	static const unsigned char owned[] = { 1, 0, 0, 0, 1, 0, 0, 1 };
	struct gm_unowned_dirs d;

	ck_assert_int_eq(gm_unowned_dirs(&d, files, 8, owned), 0);
	ck_assert_uint_eq(d.files, 8);
	ck_assert_uint_eq(d.unowned, 5);
	ck_assert_uint_eq(d.nr, 4);
	/* most first, then by path */
	ck_assert_str_eq(d.v[0].path, "a/b/");
	ck_assert_uint_eq(d.v[0].unowned, 2);
	ck_assert_uint_eq(d.v[0].files, 2);
	ck_assert(d.v[0].whole);
	ck_assert_str_eq(d.v[1].path, "");
	ck_assert_uint_eq(d.v[1].unowned, 1);
	ck_assert(!d.v[1].whole);
	ck_assert_str_eq(d.v[2].path, "a/");
	ck_assert_uint_eq(d.v[2].unowned, 1);
	ck_assert_uint_eq(d.v[2].files, 4);
	ck_assert(!d.v[2].whole);
	ck_assert_str_eq(d.v[3].path, "e/f/");
	ck_assert(d.v[3].whole);
	gm_unowned_dirs_release(&d);
}
END_TEST

START_TEST(test_unowned_write_json)
{
	static const char *const files[] = { "Makefile", "README", "arch/x.c",
					     "arch/y/z.c", "drivers/a.c" };
	static const unsigned char owned[] = { 1, 0, 1, 0, 1 };
	char *out = write_to_string(files, 5, owned, true);

	ck_assert_str_eq(out,
		"{\n  \"version\": 1,\n  \"rev\": \"0123abcd\",\n"
		"  \"files\": 5,\n  \"owned\": 3,\n  \"unowned\": [\n"
		"    \"README\",\n    \"arch/y/z.c\"\n  ],\n"
		"  \"directories\": [\n"
		"    {\"name\": \".\", \"owned\": 1, \"unowned\": 1},\n"
		"    {\"name\": \"arch\", \"owned\": 1, \"unowned\": 1},\n"
		"    {\"name\": \"drivers\", \"owned\": 1, \"unowned\": 0}\n"
		"  ]\n}\n");
	free(out);
}
END_TEST

START_TEST(test_unowned_write_json_empty)
{
	char *out = write_to_string(NULL, 0, NULL, true);

	ck_assert_str_eq(out, "{\n  \"version\": 1,\n  \"rev\": \"0123abcd\",\n"
			      "  \"files\": 0,\n  \"owned\": 0,\n"
			      "  \"unowned\": [],\n  \"directories\": []\n}\n");
	free(out);
}
END_TEST

/* ==================== the tree's files ==================== */

static const struct gm_test_file tree_files[] = {
	{ "Makefile", "all:\n", 0 },
	{ "a-b", "dash\n", 0 },
	{ "a.c", "dot\n", 0 },
	{ "a/b/c.c", "deep\n", 0 },
	{ "a/link", "b/c.c", GIT_FILEMODE_LINK },
	{ "drivers/foo/x.c", "x\n", 0 },
	{ ".hidden", "dot file\n", 0 },
};

static const struct gm_test_commit tree_commit[] = {
	{ "files\n", 1700000000, tree_files, ARRAY_SIZE(tree_files) },
};

static char *tree_dir;
static char *saved_cwd;

static void tree_setup(void)
{
	ck_assert_int_eq(gm_test_repo_create(&tree_dir, NULL, tree_commit, 1),
			 0);
}

static void tree_teardown(void)
{
	gm_test_rmtree(tree_dir);
	tree_dir = NULL;
}

static void cwd_enter(void)
{
	saved_cwd = getcwd(NULL, 0);
	ck_assert_int_eq(chdir(tree_dir), 0);
}

static void cwd_leave(void)
{
	ck_assert_int_eq(chdir(saved_cwd), 0);
	free(saved_cwd);
}

START_TEST(test_unowned_repo_files)
{
	struct gm_strvec all = GM_STRVEC_INIT;
	struct gm_repo *r = NULL;
	char *joined;

	ck_assert_int_eq(gm_test_repo_open(&r, NULL), 0);
	ck_assert_int_eq(gm_repo_files(r, &all), 0);
	joined = gm_test_join(&all, ",");
	/* path (byte) order, dot files and links included */
	ck_assert_str_eq(joined, ".hidden,Makefile,a-b,a.c,a/b/c.c,a/link,"
				 "drivers/foo/x.c");
	free(joined);
	gm_strvec_release(&all);
	gm_repo_free(r);
}
END_TEST

static char *select_joined(struct gm_repo *r, const char *const *args,
			   size_t n)
{
	struct gm_strvec all = GM_STRVEC_INIT, argv = GM_STRVEC_INIT;
	struct gm_strvec picked = GM_STRVEC_INIT;
	const char **files = NULL;
	size_t nr = 0;
	char *joined;

	ck_assert_int_eq(gm_repo_files(r, &all), 0);
	push_all(&argv, args, n);
	ck_assert_int_eq(gm_unowned_select(&files, &nr, r, &all, &argv), 0);
	for (size_t i = 0; i < nr; i++)
		gm_strvec_push(&picked, files[i]);
	joined = gm_test_join(&picked, ",");
	free(files);
	gm_strvec_release(&picked);
	gm_strvec_release(&argv);
	gm_strvec_release(&all);
	return joined ? joined : strdup("");
}

START_TEST(test_unowned_select_paths)
{
	static const char *const dir_a[] = { "a" };
	static const char *const file_and_dir[] = { "a.c", "drivers/" };
	static const char *const missing[] = { "new/file.c", "a-b" };
	static const char *const top[] = { "." };
	struct gm_repo *r = NULL;
	char *s;

	ck_assert_int_eq(gm_test_repo_open(&r, NULL), 0);
	s = select_joined(r, dir_a, 1);
	ck_assert_str_eq(s, "a/b/c.c,a/link");	/* not a-b, not a.c */
	free(s);
	s = select_joined(r, file_and_dir, 2);
	ck_assert_str_eq(s, "a.c,drivers/foo/x.c");
	free(s);
	s = select_joined(r, missing, 2);	/* taken as a file */
	ck_assert_str_eq(s, "a-b,new/file.c");
	free(s);
	s = select_joined(r, top, 1);
	ck_assert_str_eq(s, ".hidden,Makefile,a-b,a.c,a/b/c.c,a/link,"
			    "drivers/foo/x.c");
	free(s);
	gm_repo_free(r);
}
END_TEST

Suite *unowned_suite(void)
{
	Suite *s = suite_create("unowned");
	TCase *claims = tcase_create("claims");
	TCase *owned = tcase_create("owned");
	TCase *output = tcase_create("output");
	TCase *tree = tcase_create("tree");

	tcase_add_test(claims, test_unowned_claims_fixture_a);
	tcase_add_test(claims, test_unowned_claims_first_line_a_tag);
	tcase_add_loop_test(claims, test_unowned_claims_random, 0, 300);
	suite_add_tcase(s, claims);
	tcase_add_test(owned, test_unowned_mark_known);
	tcase_add_test(owned, test_unowned_catch_all_rule);
	tcase_add_test(owned, test_unowned_mark_pattern_depth);
	suite_add_tcase(s, owned);
	tcase_add_test(output, test_unowned_write_text_quotes);
	tcase_add_test(output, test_unowned_dirs);
	tcase_add_test(output, test_unowned_write_json);
	tcase_add_test(output, test_unowned_write_json_empty);
	suite_add_tcase(s, output);
	tcase_add_unchecked_fixture(tree, tree_setup, tree_teardown);
	tcase_add_checked_fixture(tree, cwd_enter, cwd_leave);
	tcase_add_test(tree, test_unowned_repo_files);
	tcase_add_test(tree, test_unowned_select_paths);
	suite_add_tcase(s, tree);
	return s;
}
