/* memmem() is a GNU and BSD extension, in every libc we build with. */
#define _GNU_SOURCE

#include "gm/pattern.h"

#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"

/* Limits that keep a hostile N:/K: regex from running away. */
#define GM_REGEX_MATCH_LIMIT 200000
#define GM_REGEX_DEPTH_LIMIT 5000

static pcre2_match_context *match_context;
static pcre2_match_data *match_data;

static void pattern_free_shared(void)
{
	pcre2_match_context_free(match_context);
	pcre2_match_data_free(match_data);
}

static bool pattern_init_shared(void)
{
	if (match_data)
		return true;
	match_context = pcre2_match_context_create(NULL);
	match_data = pcre2_match_data_create(1, NULL);
	if (!match_context || !match_data) {
		pattern_free_shared();
		match_context = NULL;
		match_data = NULL;
		return false;
	}
	pcre2_set_match_limit(match_context, GM_REGEX_MATCH_LIMIT);
	pcre2_set_depth_limit(match_context, GM_REGEX_DEPTH_LIMIT);
	atexit(pattern_free_shared);
	return true;
}

size_t gm_pattern_slashes(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += s[i] == '/';
	return n;
}

static pcre2_code *pattern_compile(const char *src, size_t len, uint32_t flags)
{
	int errcode;
	PCRE2_SIZE erroff;
	pcre2_code *code;

	code = pcre2_compile((PCRE2_SPTR)src, len, flags, &errcode, &erroff,
			     NULL);
	return code;
}

pcre2_match_context *gm_pattern_match_context(void)
{
	return pattern_init_shared() ? match_context : NULL;
}

/*
 * Run `code` on `s`. A regex that exceeds the engine's limits is marked
 * `*bad`: it is input, and one that backtracks without end on one subject
 * would on the next one too.
 */
static bool pattern_run(pcre2_code *code, const char *s, size_t len, bool *bad)
{
	int rc;

	if (!code || !pattern_init_shared())
		return false;
	rc = pcre2_match(code, (PCRE2_SPTR)s, len, 0, 0, match_data,
			 match_context);
	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
	    rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT)
		*bad = true;
	return rc >= 0;
}

/* ==================== globs (F:, X:) ==================== */

enum {
	GLOB_SLASH = 1,		/* '/' */
	GLOB_WILD = 2,		/* '*', '?', '.': not a literal path */
	GLOB_REGEX = 4		/* regex syntax the plain matcher lacks */
};

static unsigned char glob_class[256];

static void glob_class_init(void)
{
	const char *regex = "[](){}+^$|\\\n";

	glob_class['/'] = GLOB_SLASH;
	glob_class['*'] = glob_class['?'] = glob_class['.'] = GLOB_WILD;
	for (; *regex; regex++)
		glob_class[(unsigned char)*regex] = GLOB_REGEX;
}

int gm_glob_init(struct gm_glob *g, const char *glob, size_t len)
{
	unsigned seen = 0;

	if (!glob_class['/'])
		glob_class_init();
	memset(g, 0, sizeof(*g));
	g->glob = glob;
	g->len = len;
	g->isdir = -1;
	for (size_t i = 0; i < len; i++) {
		unsigned char k = glob_class[(unsigned char)glob[i]];

		seen |= k;
		g->slashes += k == GLOB_SLASH;
	}
	g->plain = !(seen & GLOB_REGEX);
	g->literal = !(seen & (GLOB_REGEX | GLOB_WILD));
	g->anydepth = (seen & GLOB_WILD) && memmem(glob, len, "**", 2);
	return 0;
}

void gm_glob_release(struct gm_glob *g)
{
	free(g->regex);
	pcre2_code_free(g->code);
	memset(g, 0, sizeof(*g));
}

/* The directory slash counts as written: isdir is 1 only once asked. */
static bool glob_has_slash(const struct gm_glob *g)
{
	return (g->len && g->glob[g->len - 1] == '/') || g->isdir == 1;
}

int gm_glob_depth(const struct gm_glob *g)
{
	if (g->len && g->glob[0] == '*')
		return -1;
	return (int)g->slashes + (g->len && g->glob[g->len - 1] == '/' ? 0 : 1);
}

/* '.' to "\.", "**" to "(?:.*)", '*' to ".*", '?' to '.'. */
static char *glob_convert(const struct gm_glob *g)
{
	struct gm_buf re = GM_BUF_INIT;
	int error = gm_buf_grow(&re, g->len * 6 + 2);

	for (size_t i = 0; i < g->len && !error; i++) {
		char c = g->glob[i];

		if (c == '.') {
			error = gm_buf_puts(&re, "\\.");
		} else if (c == '*' && i + 1 < g->len && g->glob[i + 1] == '*') {
			error = gm_buf_puts(&re, "(?:.*)");
			i++;
		} else if (c == '*') {
			error = gm_buf_puts(&re, ".*");
		} else {
			error = gm_buf_putc(&re, c == '?' ? '.' : c);
		}
	}
	if (!error && g->isdir == 1)
		error = gm_buf_putc(&re, '/');
	if (error) {
		gm_buf_release(&re);
		return NULL;
	}
	return gm_buf_detach(&re, NULL);
}

/*
 * Whether the plain glob matches a prefix of `s`: '*' any run of
 * characters, '?' any one, everything else itself. Backtracking to the
 * last star only suffices for wildcards of this kind.
 */
static bool plain_prefix_match(const char *p, size_t plen, const char *s,
			       size_t slen)
{
	size_t r = 0, i = 0, star_r = (size_t)-1, star_i = 0;

	for (;;) {
		if (r < plen && p[r] == '*') {
			while (r < plen && p[r] == '*')
				r++;
			star_r = r;
			star_i = i;
			continue;
		}
		if (r == plen)
			return true;
		if (i < slen && (p[r] == '?' || p[r] == s[i])) {
			r++;
			i++;
			continue;
		}
		if (star_r == (size_t)-1 || star_i >= slen)
			return false;
		r = star_r;
		i = ++star_i;
	}
}

static bool glob_prefix_match(struct gm_glob *g, const char *path, size_t len)
{
	struct gm_buf src = GM_BUF_INIT;

	if (g->bad)
		return false;
	if (g->plain && !memchr(path, '\n', len))
		return plain_prefix_match(g->glob, g->len, path, len) &&
		       (g->isdir != 1 || (len > g->len && path[g->len] == '/'));
	if (!g->code) {
		free(g->regex);
		g->regex = glob_convert(g);
		if (g->regex && gm_buf_putc(&src, '^') == 0 &&
		    gm_buf_puts(&src, g->regex) == 0)
			g->code = pattern_compile(src.ptr, src.len, 0);
		gm_buf_release(&src);
		if (!g->code) {
			g->bad = true;
			return false;
		}
	}
	return pattern_run(g->code, path, len, &g->bad);
}

/*
 * Whether the value names a directory of the tree. The script
 * tests the converted regex as a path, which for a value with '.', '*' or
 * '?' names a directory only with backslashes or dots in its name: such
 * values are not looked up.
 */
static bool glob_isdir(struct gm_glob *g, gm_pattern_isdir_fn isdir,
		       void *payload)
{
	char *path;

	if (g->isdir >= 0)
		return g->isdir;
	g->isdir = 0;
	if (!g->literal || !g->len || g->glob[g->len - 1] == '/' || !isdir)
		return false;
	path = malloc(g->len + 1);
	if (!path)
		return false;
	memcpy(path, g->glob, g->len);
	path[g->len] = '\0';
	g->isdir = isdir(path, payload);
	free(path);
	pcre2_code_free(g->code);
	g->code = NULL;
	return g->isdir;
}

bool gm_glob_matches(struct gm_glob *g, const char *path, size_t len,
		     size_t path_slashes, gm_pattern_isdir_fn isdir,
		     void *payload)
{
	if (!glob_prefix_match(g, path, len))
		return false;
	if (glob_has_slash(g))
		return true;
	if (glob_isdir(g, isdir, payload))
		return glob_prefix_match(g, path, len);
	return g->anydepth || path_slashes == g->slashes;
}

const char *gm_glob_value(struct gm_glob *g, gm_pattern_isdir_fn isdir,
			  void *payload, size_t *len)
{
	glob_isdir(g, isdir, payload);
	free(g->regex);
	g->regex = glob_convert(g);
	*len = g->regex ? strlen(g->regex) : 0;
	return g->regex;
}

/* ==================== regexes (N:, K:) ==================== */

static bool regex_is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static bool regex_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

/* Whether the regex sets the case-insensitive flag anywhere. */
static bool regex_has_caseless(const char *s, size_t len)
{
	for (size_t i = 0; i + 2 < len; i++) {
		if (s[i] != '(' || s[i + 1] != '?')
			continue;
		for (size_t j = i + 2; j < len && s[j] != ':' && s[j] != ')'; j++)
			if (s[j] == 'i')
				return true;
	}
	return false;
}

/* The index of the ']' closing the class that opens at s[i]. */
static size_t regex_skip_class(const char *s, size_t len, size_t i)
{
	i++;
	if (i < len && s[i] == '^')
		i++;
	if (i < len && s[i] == ']')	/* a leading ']' is literal */
		i++;
	for (; i < len && s[i] != ']'; i++) {
		if (s[i] == '\\') {
			i++;
		} else if (s[i] == '[' && i + 1 < len && s[i + 1] == ':') {
			for (size_t j = i + 2; j + 1 < len; j++) {
				if (s[j] == ':' && s[j + 1] == ']') {
					i = j + 1;
					break;
				}
			}
		}
	}
	return i;
}

/* End the current run: keep it in `best` if it is the longest. */
static void run_end(struct gm_buf *run, struct gm_buf *best)
{
	if (run->len > best->len) {
		gm_buf_reset(best);
		gm_buf_put(best, run->ptr, run->len);
	}
	gm_buf_reset(run);
}

/*
 * A literal that every match of the /x regex `s` contains, into `best`:
 * the longest run of literal characters outside groups and classes, not
 * made optional by a quantifier. None if the regex has a top-level '|' or
 * ignores case. A subject without it cannot match, which a plain search
 * finds out much faster than the regex engine.
 */
/* Whether s[i] starts a counted repeat: {n}, {n,}, {n,m}. */
static bool regex_counted_repeat(const char *s, size_t len, size_t *i)
{
	size_t j = *i + 1, digits = 0;

	while (j < len && s[j] >= '0' && s[j] <= '9')
		j++, digits++;
	if (!digits)
		return false;
	if (j < len && s[j] == ',')
		for (j++; j < len && s[j] >= '0' && s[j] <= '9'; j++)
			;
	if (j >= len || s[j] != '}')
		return false;
	*i = j;
	return true;
}

/* Drop the run's last character (a quantifier may follow), end the run. */
static void run_cut(struct gm_buf *run, struct gm_buf *best)
{
	if (run->len)
		run->ptr[--run->len] = '\0';
	run_end(run, best);
}

static void regex_find_required(const char *s, size_t len, struct gm_buf *best)
{
	struct gm_buf run = GM_BUF_INIT;
	size_t depth = 0;

	if (regex_has_caseless(s, len))
		return;
	for (size_t i = 0; i < len; i++) {
		char c = s[i], lit = 0;
		char next = i + 1 < len ? s[i + 1] : 0;
		unsigned char u = (unsigned char)c;

		if (regex_is_space(c) || u >= 0x80) {
			/* /x: ignored, and a quantifier may follow it */
			run_cut(&run, best);
			continue;
		}
		if (c == '(' && (next == '*' || (next == '?' && i + 2 < len &&
						 s[i + 2] == '#'))) {
			if (next == '*')	/* (*ACCEPT) and other verbs */
				goto none;
			while (i < len && s[i] != ')')
				i++;
			run_cut(&run, best);
			continue;
		}
		if (c == '\\' && i + 1 < len && !regex_is_alnum(next) &&
		    !regex_is_space(next) && (unsigned char)next < 0x80) {
			lit = next;
			next = ++i + 1 < len ? s[i + 1] : 0;
		} else if (c == '\\') {
			/* only escapes without an argument are understood */
			if (i + 1 >= len || !strchr("bBdDsSwWhHvVAzZGRXKntrfea", next))
				goto none;
			i++;
		} else if (c == '[') {
			i = regex_skip_class(s, len, i);
		} else if (c == '{') {
			regex_counted_repeat(s, len, &i);
		} else if (c == '#') {
			break;
		} else if (c == '(') {
			depth++;
		} else if (c == ')') {
			depth -= depth > 0;
		} else if (c == '|' && !depth) {
			goto none;
		} else if (!strchr("^$.?*+{}", c)) {
			lit = c;
		}
		if (!lit || depth || next == '?' || next == '*' || next == '{') {
			run_end(&run, best);
			continue;
		}
		gm_buf_putc(&run, lit);
		if (next == '+')
			run_end(&run, best);
	}
	run_end(&run, best);
	gm_buf_release(&run);
	return;
none:
	gm_buf_reset(best);
	gm_buf_release(&run);
}

int gm_regex_init(struct gm_regex *re, const char *source, size_t len)
{
	struct gm_buf required = GM_BUF_INIT;

	memset(re, 0, sizeof(*re));
	re->source = malloc(len + 1);
	if (!re->source)
		return gm_error_set(GM_ERROR, "out of memory");
	memcpy(re->source, source, len);
	re->source[len] = '\0';
	regex_find_required(source, len, &required);
	if (required.len >= 3)
		re->required = gm_buf_detach(&required, &re->required_len);
	gm_buf_release(&required);
	return 0;
}

void gm_regex_release(struct gm_regex *re)
{
	free(re->source);
	free(re->required);
	pcre2_code_free(re->code);
	pcre2_code_free(re->prefixed);
	memset(re, 0, sizeof(*re));
}

static pcre2_code *regex_get(struct gm_regex *re, bool prefixed)
{
	pcre2_code **slot = prefixed ? &re->prefixed : &re->code;
	struct gm_buf src = GM_BUF_INIT;

	if (re->bad)
		return NULL;
	if (*slot)
		return *slot;
	if ((!prefixed || gm_buf_puts(&src, "^[+-].*") == 0) &&
	    gm_buf_puts(&src, re->source) == 0)
		*slot = pattern_compile(src.ptr, src.len, PCRE2_EXTENDED);
	gm_buf_release(&src);
	re->bad = !*slot;
	return *slot;
}

/* Subjects from this size on are worth JIT-compiling the regex for. */
#define GM_REGEX_JIT_MIN 4096

bool gm_regex_matches(struct gm_regex *re, const char *s, size_t len,
		      bool prefixed)
{
	pcre2_code *code;

	if (re->required && !memmem(s, len, re->required, re->required_len))
		return false;
	code = regex_get(re, prefixed);
	if (code && len >= GM_REGEX_JIT_MIN && !re->jit) {
		re->jit = true;
		pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
	}
	return pattern_run(code, s, len, &re->bad);
}
