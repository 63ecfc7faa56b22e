#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/pattern.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/* A glob of its own with its state, matched through `pc`. */
struct glob_env {
	struct gm_test_dirs d;
	struct gm_pattern_ctx pc;
	struct gm_glob g;
	struct gm_glob_state st;
};

/* `glob`, the directories being `dirs` (NULL: no directory test). */
static void glob_env_init(struct glob_env *e, const char *glob,
			  const char *const *dirs)
{
	memset(e, 0, sizeof(*e));
	e->d.dirs = dirs;
	ck_assert_int_eq(gm_pattern_ctx_init(&e->pc,
					     dirs ? gm_test_isdir : NULL,
					     &e->d), 0);
	gm_glob_init(&e->g, glob, strlen(glob));
	e->st = (struct gm_glob_state)GM_GLOB_STATE_INIT;
}

static bool glob_env_matches(struct glob_env *e, const char *path, size_t len)
{
	return gm_glob_matches(&e->g, &e->st, &e->pc, path, len,
			       gm_pattern_slashes(path, len));
}

static void glob_env_release(struct glob_env *e)
{
	gm_glob_state_release(&e->st);
	gm_pattern_ctx_release(&e->pc);
}

/* Whether glob `glob` matches `path`, the directories being `dirs`. */
static bool glob_test(const char *glob, const char *path,
		      const char *const *dirs, int *calls)
{
	struct glob_env e;
	bool hit;

	glob_env_init(&e, glob, dirs);
	hit = glob_env_matches(&e, path, strlen(path));
	if (calls)
		*calls = e.d.calls;
	glob_env_release(&e);
	return hit;
}

/* ==================== F:/X: globs (R-12, R-13) ==================== */

struct glob_case {
	const char *glob;
	const char *path;
	bool isdir;	/* the glob names a directory of the tree */
	bool match;
};

static const struct glob_case glob_cases[] = {
	/* a trailing '/' is a prefix at any depth */
	{ "drivers/net/", "drivers/net/x.c", false, true },
	{ "drivers/net/", "drivers/net/a/b/x.c", false, true },
	{ "drivers/net/", "drivers/netx/x.c", false, false },
	{ "drivers/net/", "drivers/net", false, false },
	{ "drivers/net/", "drivers/net/", false, true },
	{ "Documentation/", "Documentation/x.rst", false, true },
	/* otherwise a prefix at the same number of slashes */
	{ "drivers/net/*", "drivers/net/x.c", false, true },
	{ "drivers/net/*", "drivers/net/a/x.c", false, false },
	{ "drivers/net/*", "drivers/net/", false, true },	/* */
	{ "drivers/net/foo/", "drivers/net/", false, false },
	{ "drivers/net/foo/a.c", "drivers/net/foo/a.c", false, true },
	/* */
	{ "drivers/net/foo/a.c", "drivers/net/foo/a.cpp", false, true },
	{ "drivers/net/foo/a.c", "drivers/net/foo/a.c.orig", false, true },
	{ "drivers/net/foo/a.c", "drivers/net/foo/aXc", false, false },
	{ "drivers/net/foo/a.c", "drivers/net/foo/a.c/x", false, false },
	{ "drivers/net/foo/a.c", "xdrivers/net/foo/a.c", false, false },
	{ "include/linux/foo.h", "include/linux/foo.h", false, true },
	/* '*' and '?' */
	{ "*", "Makefile", false, true },
	{ "*", "drivers/x.c", false, false },
	{ "*", "&STDIN", false, true },
	{ "*/", "drivers/x.c", false, true },
	{ "*/", "a/b/c/d.c", false, true },
	{ "*/", "Makefile", false, false },
	{ "drivers/gpio/gpio-?.c", "drivers/gpio/gpio-x.c", false, true },
	{ "drivers/gpio/gpio-?.c", "drivers/gpio/gpio-xy.c", false, false },
	{ "drivers/*/foo.c", "drivers/net/foo.c", false, true },
	{ "drivers/*/foo.c", "drivers/net/foo/foo.c", false, false },
	{ "*/net/*", "drivers/net/x.c", false, true },
	/* '**' at any depth, but its slashes still need matching */
	{ "fs/**/*foo*.c", "fs/foo.c", false, false },
	{ "fs/**/*foo*.c", "fs/a/xfooy.c", false, true },
	{ "fs/**/*foo*.c", "fs/a/b/c/foo.c", false, true },
	{ "fs/**/*foo*.c", "fs/a/b/bar.c", false, false },
	{ "**/x", "x", false, false },
	{ "**/x", "a/b/x", false, true },
	/* other regex syntax keeps its meaning (pcre2) */
	{ "da9\?\?\?-regulator.[ch]", "da9055-regulator.c", false, true },
	{ "da9\?\?\?-regulator.[ch]", "da9055-regulator.h", false, true },
	{ "da9\?\?\?-regulator.[ch]", "da9055-regulator.o", false, false },
	{ "drivers/regulator/da9\?\?\?-regulator.[ch]",
	  "drivers/regulator/da9055-regulator.c", false, true },
	{ "arch/[ab]/", "arch/a/x.c", false, true },
	{ "arch/[ab]/", "arch/c/x.c", false, false },
	{ "net/(ipv4|ipv6)/", "net/ipv6/route.c", false, true },
	{ "net/(ipv4|ipv6)/", "net/core/dev.c", false, false },
	{ "lib/foo+bar.c", "lib/foobar.c", false, true },
	{ "lib/foo+bar.c", "lib/fooobar.c", false, true },
	{ "lib/foo+bar.c", "lib/foo+bar.c", false, false },
	{ "lib/x$", "lib/x", false, true },
	{ "lib/x$", "lib/xy", false, false },
	/* an invalid regex never matches */
	{ "a[", "a[", false, false },
	{ "lib/(x", "lib/(x", false, false },
	/* a directory without its '/' gets one (R-12, E6, E20) */
	{ "fs/ext4", "fs/ext4/inode.c", true, true },
	{ "fs/ext4", "fs/ext4/sub/deep.c", true, true },
	{ "fs/ext4", "fs/ext4/sub/deep.c", false, false },
	{ "fs/ext4", "fs/ext4.c", true, false },
	{ "fs/ext4", "fs/ext4.c", false, true },
	{ "fs/ext4", "fs/ext4", false, true },
	{ "fs/ext4", "fs/ext4/", true, true },
	{ "drivers/net", "drivers/net/", true, true },
	{ "drivers/net", "drivers/net/foo/a.c", true, true },
};

START_TEST(test_pattern_glob_table)
{
	const struct glob_case *c = &glob_cases[_i];
	const char *dirs[2] = { NULL, NULL };

	if (c->isdir)
		dirs[0] = c->glob;
	ck_assert_msg(glob_test(c->glob, c->path, dirs, NULL) == c->match,
		      "row %d: F: %s %s %s", _i, c->glob,
		      c->match ? "should match" : "should not match", c->path);
}
END_TEST

START_TEST(test_pattern_regroup_both_ways)
{
	static const struct {
		const char *in, *braces, *back;
		size_t n;
	} cases[] = {
		{ "a/{b,c}.h", "a/(b|c).h", "a/{b,c}.h", 1 },
		{ "{a,b}/{c,d,e}x{f,g}", "{a,b}/(c|d|e)x(f|g)",
		  "{a,b}/{c,d,e}x{f,g}", 2 },	/* never at the start */
		{ "a/{b}.h", "a/{b}.h", "a/{b}.h", 0 },	/* no separator */
		{ "a\\{b,c}", "a\\{b,c}", "a\\{b,c}", 0 },	/* escaped */
		{ "a{b{c,d}", "a{b(c|d)", "a{b{c,d}", 1 },	/* innermost */
		{ "a{b,c", "a{b,c", "a{b,c", 0 },		/* unclosed */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char s[64];
		size_t len = strlen(cases[i].in);

		memcpy(s, cases[i].in, len + 1);
		ck_assert_uint_eq(gm_pattern_regroup(s, len, "{,}", "(|)"),
				  cases[i].n);
		ck_assert_str_eq(s, cases[i].braces);
		ck_assert_uint_eq(gm_pattern_regroup(s, len, "(|)", "{,}"),
				  cases[i].n);
		ck_assert_str_eq(s, cases[i].back);
	}
}
END_TEST

START_TEST(test_pattern_glob_path_length_bounded)
{
	struct glob_env e;
	const char *path = "drivers/net/x.c-and-more/y";

	glob_env_init(&e, "drivers/net/*", NULL);
	/* only the first 15 bytes are the path: two slashes */
	ck_assert(glob_env_matches(&e, path, 15));
	glob_env_release(&e);
	/* "drivers/net", the glob's length bounded too */
	glob_env_init(&e, "", NULL);
	gm_glob_init(&e.g, "drivers/net/x.c-and-more/y", 11);
	ck_assert_uint_eq(e.g.slashes, 1);
	ck_assert(glob_env_matches(&e, "drivers/netdev", 14));
	glob_env_release(&e);
}
END_TEST

/* ==================== the directory test ==================== */

START_TEST(test_pattern_isdir_only_when_it_matters)
{
	static const char *const dirs[] = { "fs/ext4", "drivers/net", NULL };
	int calls = -1;

	/* a glob with its '/' already needs no test */
	ck_assert(glob_test("drivers/net/", "drivers/net/x.c", dirs, &calls));
	ck_assert_int_eq(calls, 0);
	/* nor one with a wildcard or a '.' (R-12: "a.d" is tested as a\.d) */
	ck_assert(glob_test("drivers/net/*", "drivers/net/x.c", dirs, &calls));
	ck_assert_int_eq(calls, 0);
	ck_assert(glob_test("fs/ext4.c", "fs/ext4.c", dirs, &calls));
	ck_assert_int_eq(calls, 0);
	/* nor a path that the prefix already rejects */
	ck_assert(!glob_test("fs/ext4", "lib/x.c", dirs, &calls));
	ck_assert_int_eq(calls, 0);
	/* a literal prefix that matches: asked once */
	ck_assert(glob_test("fs/ext4", "fs/ext4/inode.c", dirs, &calls));
	ck_assert_int_eq(calls, 1);
}
END_TEST

START_TEST(test_pattern_isdir_asked_at_most_once)
{
	static const char *const dirs[] = { "fs/ext4", NULL };
	static const char *const paths[] = {
		"fs/ext4/inode.c", "fs/ext4/sub/deep.c", "fs/ext4.c",
		"fs/ext4/", "fs/ext4",
	};
	static const bool want[] = { true, true, false, true, false };
	struct glob_env e;
	size_t i;

	glob_env_init(&e, "fs/ext4", dirs);
	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		bool hit = glob_env_matches(&e, paths[i], strlen(paths[i]));

		ck_assert_msg(hit == want[i], "path %s", paths[i]);
	}
	ck_assert_int_eq(e.d.calls, 1);
	ck_assert_str_eq(e.d.last, "fs/ext4");	/* the value as written */
	ck_assert_int_eq(e.st.dir, GM_GLOB_DIR);
	glob_env_release(&e);
}
END_TEST

START_TEST(test_pattern_no_isdir_callback)
{
	struct glob_env e;

	glob_env_init(&e, "fs/ext4", NULL);
	ck_assert(!glob_env_matches(&e, "fs/ext4/inode.c", 15));
	ck_assert(glob_env_matches(&e, "fs/ext4", 7));
	ck_assert_int_eq(e.st.dir, GM_GLOB_NOT_DIR);
	glob_env_release(&e);
}
END_TEST

/*
 * Matching writes only the caller's state: the glob is left as it was,
 * and two states of one glob, for two trees, each keep their own answer
 * (asked once each).
 */
START_TEST(test_pattern_glob_state_is_the_callers)
{
	static const char *const dirs[] = { "fs/ext4", NULL };
	static const char *const none[] = { NULL };
	struct glob_env a, b;
	struct gm_glob before;
	size_t len;

	glob_env_init(&a, "fs/ext4", dirs);
	glob_env_init(&b, "fs/ext4", none);
	memcpy(&before, &a.g, sizeof(before));
	for (int i = 0; i < 2; i++) {
		ck_assert(glob_env_matches(&a, "fs/ext4/inode.c", 15));
		ck_assert(!glob_env_matches(&b, "fs/ext4/inode.c", 15));
		/* a path with a newline goes through the regex engine */
		ck_assert(glob_env_matches(&a, "fs/ext4/a\nb", 11));
		ck_assert(!glob_env_matches(&b, "fs/ext4/a\nb", 11));
	}
	ck_assert_str_eq(gm_glob_value(&a.g, &a.st, &a.pc, &len), "fs/ext4/");
	ck_assert_str_eq(gm_glob_value(&b.g, &b.st, &b.pc, &len), "fs/ext4");
	ck_assert_int_eq(a.d.calls, 1);
	ck_assert_int_eq(b.d.calls, 1);
	ck_assert_mem_eq(&a.g, &before, sizeof(before));
	glob_env_release(&a);
	glob_env_release(&b);
}
END_TEST

/* ==================== depth (R-40) ==================== */

struct depth_case {
	const char *glob;
	bool isdir;
	int depth;
};

static const struct depth_case depth_cases[] = {
	{ "drivers/net/", false, 2 },
	{ "drivers/net/foo/", false, 3 },
	{ "drivers/net/foo/a.c", false, 4 },
	{ "drivers/net/*", false, 3 },
	{ "Makefile", false, 1 },
	{ "fs/ext4", false, 2 },
	{ "fs/ext4", true, 2 },		/* "fs/ext4/": 2 slashes, no +1 */
	{ "fs/**/*foo*.c", false, 3 },
	{ "?foo", false, 1 },		/* ".foo" does not start with ".*" */
	{ "*", false, -1 },		/* THE REST */
	{ "*/", false, -1 },
	{ "*.c", false, -1 },
	{ "**/x", false, -1 },		/* "(?:.*)/x" */
};

START_TEST(test_pattern_depth_table)
{
	const struct depth_case *c = &depth_cases[_i];
	const char *dirs[2] = { NULL, NULL };
	struct glob_env e;
	size_t len;

	if (c->isdir)
		dirs[0] = c->glob;
	glob_env_init(&e, c->glob, dirs);
	/* the directory answer, once known, changes no depth */
	gm_glob_value(&e.g, &e.st, &e.pc, &len);
	ck_assert_int_eq(e.st.dir, c->isdir ? GM_GLOB_DIR : GM_GLOB_NOT_DIR);
	ck_assert_msg(gm_glob_depth(&e.g) == c->depth, "row %d %s: %d", _i,
		      c->glob, gm_glob_depth(&e.g));
	glob_env_release(&e);
}
END_TEST

/* ==================== the converted value (R-12) ==================== */

struct value_case {
	const char *glob;
	bool isdir;
	const char *value;
};

static const struct value_case value_cases[] = {
	{ "drivers/net/foo/a.c", false, "drivers/net/foo/a\\.c" },
	{ "drivers/net/*", false, "drivers/net/.*" },
	{ "da9\?\?\?-regulator.[ch]", false, "da9...-regulator\\.[ch]" },
	{ "fs/**/*foo*.c", false, "fs/(?:.*)/.*foo.*\\.c" },
	{ "fs/ext4", true, "fs/ext4/" },
	{ "fs/ext4", false, "fs/ext4" },
	{ "fs/ext4/", true, "fs/ext4/" },
	{ "*", false, ".*" },
	{ "?", false, "." },
	{ "net/(a|b)/", false, "net/(a|b)/" },
};

START_TEST(test_pattern_value_table)
{
	const struct value_case *c = &value_cases[_i];
	const char *dirs[2] = { NULL, NULL };
	struct glob_env e;
	const char *v;
	size_t len = 0;

	if (c->isdir)
		dirs[0] = c->glob;
	glob_env_init(&e, c->glob, dirs);
	v = gm_glob_value(&e.g, &e.st, &e.pc, &len);
	ck_assert_ptr_nonnull(v);
	ck_assert_str_eq(v, c->value);
	ck_assert_uint_eq(len, strlen(c->value));
	/* asking again neither asks the tree again nor changes the value */
	v = gm_glob_value(&e.g, &e.st, &e.pc, &len);
	ck_assert_str_eq(v, c->value);
	ck_assert_int_le(e.d.calls, 1);
	glob_env_release(&e);
}
END_TEST

START_TEST(test_pattern_glob_fields)
{
	struct gm_glob g;

	gm_glob_init(&g, "fs/**/x.c", 9);
	ck_assert_uint_eq(g.slashes, 2);
	ck_assert(g.anydepth);
	ck_assert(g.plain);
	ck_assert(!g.literal);

	gm_glob_init(&g, "drivers/net", 11);
	ck_assert(g.literal);
	ck_assert(!g.anydepth);

	gm_glob_init(&g, "x/[ab]", 6);
	ck_assert(!g.plain);
	ck_assert(!g.literal);
}
END_TEST

/* ==================== N:/K: regexes (R-14, R-33) ==================== */

/* A regex of its own with its state, matched through `pc`. */
struct regex_env {
	struct gm_pattern_ctx pc;
	struct gm_regex re;
	struct gm_regex_state st;
};

static void regex_env_init(struct regex_env *e, const char *src, size_t len)
{
	memset(e, 0, sizeof(*e));
	ck_assert_int_eq(gm_pattern_ctx_init(&e->pc, NULL, NULL), 0);
	ck_assert_int_eq(gm_regex_init(&e->re, src, len), 0);
	e->st = (struct gm_regex_state)GM_REGEX_STATE_INIT;
}

static bool regex_env_matches(struct regex_env *e, const char *s, size_t len,
			      bool prefixed)
{
	return gm_regex_matches(&e->re, &e->st, &e->pc, s, len, prefixed);
}

static void regex_env_release(struct regex_env *e)
{
	gm_regex_state_release(&e->st);
	gm_regex_release(&e->re);
	gm_pattern_ctx_release(&e->pc);
}

struct regex_case {
	const char *re;
	const char *subject;
	bool prefixed;
	bool match;
};

static const struct regex_case regex_cases[] = {
	/* unanchored */
	{ "gpio", "drivers/gpio/gpio-x.c", false, true },
	{ "[^a-z]tegra", "drivers/tegra/x.c", false, true },
	{ "[^a-z]tegra", "ntegra", false, false },
	{ "^abc", "xabc", false, false },
	{ "\\bbeta_magic\\b", "touch beta_magic stuff", false, true },
	{ "\\bbeta_magic\\b", "beta_magically", false, false },
	/* /x: white space ignored, '#' starts a comment */
	{ "foo bar", "foobar", false, true },
	{ "foo bar", "foo bar", false, false },
	{ "zzz#c", "zzzq", false, true },
	{ "zzz#comment", "zzz", false, true },
	{ "zzz#c", "zz#c", false, false },
	{ "a\\ b", "a b", false, true },
	{ "[#]x", "#x", false, true },
	/* the syntax of the real data */
	{ "(?i)FOO", "foo", false, true },
	{ "(?i:xdp)", "XDP", false, true },
	{ "(?:\\b|_)xdp(?:\\b|_)", "net/xdp.c", false, true },
	{ "(?:\\b|_)xdp(?:\\b|_)", "netxdpx.c", false, false },
	{ "\\b(?:foo|bar)_ops\\b", "struct bar_ops x", false, true },
	{ "a.b", "a\nb", false, false },
	/* more regex syntax */
	{ "[0-9]{3,4}", "id 12345", false, true },
	{ "[0-9]{3,4}", "id 12", false, false },
	{ "x{3}", "axxxb", false, true },
	{ "\\x41BC", "ABC", false, true },
	{ "[[:digit:]]abc", "1abc", false, true },
	{ "(ab)+cde", "ababcde", false, true },
	{ "abc?def", "abdef", false, true },
	/* patch lines after the first file line: "^[+-].*" + K */
	{ "foo", " foo", true, false },
	{ "foo", "+x foo", true, true },
	{ "foo", "-foo", true, true },
	{ "foo bar", "+foobar\n", true, true },
	{ "aaa|bbb", " context bbb", true, true },	/* */
	{ "aaa|bbb", " context aaa", true, false },
	{ "aaa|bbb", "+aaa", true, true },
	{ "(?:aaa|bbb)", " context bbb", true, false },
	/* an invalid regex never matches */
	{ "foo(", "foo(", false, false },
	{ "[", "[", false, false },
	{ "foo(", "+foo(", true, false },
};

START_TEST(test_pattern_regex_table)
{
	const struct regex_case *c = &regex_cases[_i];
	struct regex_env e;
	bool hit;

	regex_env_init(&e, c->re, strlen(c->re));
	hit = regex_env_matches(&e, c->subject, strlen(c->subject),
				c->prefixed);
	regex_env_release(&e);
	ck_assert_msg(hit == c->match, "row %d: /%s/x %s '%s'%s", _i, c->re,
		      c->match ? "should match" : "should not match",
		      c->subject, c->prefixed ? " (prefixed)" : "");
}
END_TEST

START_TEST(test_pattern_regex_source_copied)
{
	char src[] = "abc|def";
	struct regex_env e;

	regex_env_init(&e, src, 3);
	src[0] = 'X';
	ck_assert_str_eq(e.re.source, "abc");
	ck_assert(regex_env_matches(&e, "xabcx", 5, false));
	ck_assert(!regex_env_matches(&e, "def", 3, false));
	regex_env_release(&e);
}
END_TEST

START_TEST(test_pattern_regex_invalid_is_bad)
{
	struct regex_env e;

	regex_env_init(&e, "(unclosed", 9);
	ck_assert(!regex_env_matches(&e, "(unclosed", 9, false));
	ck_assert(e.st.bad);
	ck_assert_ptr_null(e.st.code);
	ck_assert(!regex_env_matches(&e, "(unclosed", 9, false));
	regex_env_release(&e);
}
END_TEST

START_TEST(test_pattern_regex_long_subject)
{
	struct gm_buf text = GM_BUF_INIT;
	struct regex_env re, other;
	size_t i;

	for (i = 0; i < 2000; i++)
		gm_buf_puts(&text, "lorem ipsum\n");
	gm_buf_puts(&text, "the needle_42 is here\n");
	regex_env_init(&re, "needle_\\d+", 10);
	regex_env_init(&other, "haystack", 8);
	ck_assert(regex_env_matches(&re, text.ptr, text.len, false));
	ck_assert(re.st.jit);		/* a long subject */
	ck_assert(!regex_env_matches(&other, text.ptr, text.len, false));
	regex_env_release(&other);
	/* '^' and '$' are the ends of the whole text */
	regex_env_init(&other, "^the", 4);
	ck_assert(!regex_env_matches(&other, text.ptr, text.len, false));
	regex_env_release(&other);
	regex_env_release(&re);
	gm_buf_release(&text);
}
END_TEST

START_TEST(test_pattern_slashes)
{
	ck_assert_uint_eq(gm_pattern_slashes("a/b/c", 5), 2);
	ck_assert_uint_eq(gm_pattern_slashes("a/b/c", 2), 1);
	ck_assert_uint_eq(gm_pattern_slashes("", 0), 0);
	ck_assert_uint_eq(gm_pattern_slashes("//", 2), 2);
}
END_TEST

/*
 * The literals every match contains one of (R-14, R-33 regexes): a
 * shortcut that must never change an answer, so each expected set is also
 * checked against subjects with and without its literals.
 */
struct required_case {
	const char *re;
	const char *literals;	/* space-separated; "" for none known */
	bool caseless;
};

static const struct required_case required_cases[] = {
	{ "mediatek", "mediatek", false },
	{ "[^@]sifive", "sifive", false },
	{ "(?:\\b|_)bpf(?:\\b|_)", "bpf", false },
	{ "\\bdma_(?:buf|fence|resv)\\b", "dma_", false },
	/* alternatives at the top level: one literal each */
	{ "abcd|efgh", "abcd efgh", false },
	{ "abc|", "", false },
	{ "abc|de", "", false },
	{ "phylink\\.h|struct\\s+phylink|>phylink_", "phylink", false },
	/* a group that must match gives its set */
	{ "\\b(pstore|ramoops)", "pstore ramoops", false },
	{ "\\b(clone_args|kernel_clone_args)\\b", "clone_args", false },
	{ "((abc|abd)e|xyz)", "abc abd xyz", false },
	{ "(?P<n>abcd|efgh)zz", "abcd efgh", false },
	{ "(?'n'abcd)", "abcd", false },
	{ "(abcd) +x", "abcd", false },
	/* but not one that may match nothing, or is not part of the match */
	{ "(abcd)?x", "", false },
	{ "(abcd) ?x", "", false },
	{ "(abcd)(?#c)*x", "", false },
	{ "(abcd){0,2}x", "", false },
	{ "a(?:bcd|bce)*", "", false },
	{ "(?=abcd)", "", false },
	{ "(?!abcd)x", "", false },
	{ "(?<=abcd)x", "", false },
	{ "(?(1)abc|def)", "", false },
	/* case: any (?i anywhere makes every literal caseless */
	{ "\\b(?i:clang|llvm)\\b", "clang llvm", true },
	{ "(?i)pidfd", "pidfd", true },
	{ "ABC|(?i)abc", "ABC", true },
	/* what the scan does not understand gives nothing */
	{ "a(*ACCEPT)bcd", "", false },
	{ "\\Qabc\\E", "", false },
	{ "abc\\1", "", false },
};

static void required_join(const struct gm_regex *re, struct gm_buf *out)
{
	for (size_t i = 0; i < re->required.nr; i++) {
		if (i)
			gm_buf_putc(out, ' ');
		gm_buf_puts(out, re->required.v[i]);
	}
}

START_TEST(test_pattern_regex_required_table)
{
	const struct required_case *c = &required_cases[_i];
	struct gm_buf got = GM_BUF_INIT;
	struct gm_regex re;

	ck_assert_int_eq(gm_regex_init(&re, c->re, strlen(c->re)), 0);
	required_join(&re, &got);
	ck_assert_msg(!strcmp(got.ptr ? got.ptr : "", c->literals),
		      "%s: got \"%s\", want \"%s\"", c->re,
		      got.ptr ? got.ptr : "", c->literals);
	if (*c->literals)
		ck_assert_int_eq(re.caseless, c->caseless);
	gm_buf_release(&got);
	gm_regex_release(&re);
}
END_TEST

START_TEST(test_pattern_regex_required_filters)
{
	struct regex_env e;

	/* a subject without a required literal never reaches the engine */
	regex_env_init(&e, "\\b(pstore|ramoops)", 18);
	ck_assert(!regex_env_matches(&e, "x ram oops y", 12, false));
	ck_assert_ptr_null(e.st.code);
	ck_assert(regex_env_matches(&e, "x ramoops y", 11, false));
	ck_assert_ptr_nonnull(e.st.code);
	ck_assert(!regex_env_matches(&e, "xramoops", 8, false));
	regex_env_release(&e);

	regex_env_init(&e, "(?i:clang|llvm)", 15);
	ck_assert(!regex_env_matches(&e, "built with gcc", 14, false));
	ck_assert_ptr_null(e.st.code);
	ck_assert(regex_env_matches(&e, "built with LLVM", 15, false));
	regex_env_release(&e);

	regex_env_init(&e, "(abc)?x", 7);
	ck_assert(regex_env_matches(&e, "x", 1, false));	/* none known */
	ck_assert_ptr_nonnull(e.st.code);
	regex_env_release(&e);
}
END_TEST

/*
 * Matching writes only the caller's state: the regex is left as it was,
 * and a second state compiles its own code.
 */
START_TEST(test_pattern_regex_state_is_the_callers)
{
	struct regex_env e;
	struct gm_regex_state other = GM_REGEX_STATE_INIT;
	struct gm_regex before;

	regex_env_init(&e, "foo|bar", 7);
	memcpy(&before, &e.re, sizeof(before));
	ck_assert(regex_env_matches(&e, "a bar", 5, false));
	ck_assert(regex_env_matches(&e, "+a bar", 6, true));
	ck_assert_ptr_nonnull(e.st.code);
	ck_assert_ptr_nonnull(e.st.prefixed);
	ck_assert(gm_regex_matches(&e.re, &other, &e.pc, "foo", 3, false));
	ck_assert_ptr_nonnull(other.code);
	ck_assert_ptr_ne(other.code, e.st.code);
	ck_assert_ptr_null(other.prefixed);
	ck_assert_mem_eq(&e.re, &before, sizeof(before));
	gm_regex_state_release(&other);
	regex_env_release(&e);
}
END_TEST

Suite *pattern_suite(void)
{
	Suite *s = suite_create("pattern");
	TCase *glob = tcase_create("glob");
	TCase *regex = tcase_create("regex");

	tcase_add_loop_test(glob, test_pattern_glob_table, 0,
			    (int)ARRAY_SIZE(glob_cases));
	tcase_add_test(glob, test_pattern_regroup_both_ways);
	tcase_add_test(glob, test_pattern_glob_path_length_bounded);
	tcase_add_test(glob, test_pattern_isdir_only_when_it_matters);
	tcase_add_test(glob, test_pattern_isdir_asked_at_most_once);
	tcase_add_test(glob, test_pattern_no_isdir_callback);
	tcase_add_test(glob, test_pattern_glob_state_is_the_callers);
	tcase_add_loop_test(glob, test_pattern_depth_table, 0,
			    (int)ARRAY_SIZE(depth_cases));
	tcase_add_loop_test(glob, test_pattern_value_table, 0,
			    (int)ARRAY_SIZE(value_cases));
	tcase_add_test(glob, test_pattern_glob_fields);
	tcase_add_test(glob, test_pattern_slashes);
	suite_add_tcase(s, glob);

	tcase_add_loop_test(regex, test_pattern_regex_table, 0,
			    (int)ARRAY_SIZE(regex_cases));
	tcase_add_test(regex, test_pattern_regex_source_copied);
	tcase_add_test(regex, test_pattern_regex_invalid_is_bad);
	tcase_add_test(regex, test_pattern_regex_long_subject);
	tcase_add_loop_test(regex, test_pattern_regex_required_table, 0,
			    (int)ARRAY_SIZE(required_cases));
	tcase_add_test(regex, test_pattern_regex_required_filters);
	tcase_add_test(regex, test_pattern_regex_state_is_the_callers);
	suite_add_tcase(s, regex);
	return s;
}
