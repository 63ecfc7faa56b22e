#include "gm/pattern.h"

#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"

/* Limits that keep a hostile N:/K: regex from running away. */
#define GM_REGEX_MATCH_LIMIT 1000000
#define GM_REGEX_DEPTH_LIMIT 10000

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

static bool pattern_run(pcre2_code *code, const char *s, size_t len)
{
	if (!code || !pattern_init_shared())
		return false;
	return pcre2_match(code, (PCRE2_SPTR)s, len, 0, 0, match_data,
			   match_context) >= 0;
}

/* ==================== globs (F:, X:) ==================== */

static bool glob_char_is_regex(char c)
{
	return strchr("[](){}+^$|\\", c) != NULL;
}

int gm_glob_init(struct gm_glob *g, const char *glob, size_t len)
{
	struct gm_buf re = GM_BUF_INIT;
	int error = 0;

	memset(g, 0, sizeof(*g));
	g->plain = true;
	g->isdir = -1;
	for (size_t i = 0; i < len && !error; i++) {
		char c = glob[i];

		if (c == '.') {
			error = gm_buf_puts(&re, "\\.");
		} else if (c == '*' && i + 1 < len && glob[i + 1] == '*') {
			error = gm_buf_puts(&re, "(?:.*)");
			g->anydepth = true;
			i++;
		} else if (c == '*') {
			error = gm_buf_puts(&re, ".*");
		} else if (c == '?') {
			error = gm_buf_putc(&re, '.');
		} else {
			g->plain &= !glob_char_is_regex(c) && c != '\n';
			error = gm_buf_putc(&re, c);
		}
	}
	if (error) {
		gm_buf_release(&re);
		return error;
	}
	g->len = re.len;
	g->regex = gm_buf_detach(&re, NULL);
	g->slashes = gm_pattern_slashes(g->regex, g->len);
	return 0;
}

void gm_glob_release(struct gm_glob *g)
{
	free(g->regex);
	pcre2_code_free(g->code);
	memset(g, 0, sizeof(*g));
}

static bool glob_has_slash(const struct gm_glob *g)
{
	return g->len && g->regex[g->len - 1] == '/';
}

int gm_glob_depth(const struct gm_glob *g)
{
	if (g->len >= 2 && (!strncmp(g->regex, ".*", 2) ||
			    !strncmp(g->regex, "(?:.*)", 6)))
		return -1;
	return (int)g->slashes + (glob_has_slash(g) ? 0 : 1);
}

/*
 * Whether the plain glob regex `re` matches a prefix of `s`: '.' any
 * character but newline, ".*" any run of them, "\." a dot, "(?:.*)" as
 * ".*". Backtracks to the last star only, which suffices for one-star
 * wildcards.
 */
static bool plain_prefix_match(const char *re, size_t rlen, const char *s,
			       size_t slen)
{
	size_t r = 0, i = 0, star_r = (size_t)-1, star_i = 0;

	for (;;) {
		if (r < rlen && re[r] == '(') {	/* "(?:.*)" */
			r += 6;
			star_r = r;
			star_i = i;
			continue;
		}
		if (r + 1 < rlen && re[r] == '.' && re[r + 1] == '*') {
			r += 2;
			star_r = r;
			star_i = i;
			continue;
		}
		if (r == rlen)
			return true;
		if (i < slen) {
			bool ok;

			if (re[r] == '\\')
				ok = s[i] == re[r + 1];
			else if (re[r] == '.')
				ok = s[i] != '\n';
			else
				ok = s[i] == re[r];
			if (ok) {
				r += re[r] == '\\' ? 2 : 1;
				i++;
				continue;
			}
		}
		if (star_r == (size_t)-1 || star_i >= slen || s[star_i] == '\n')
			return false;
		star_i++;
		r = star_r;
		i = star_i;
	}
}

static bool glob_prefix_match(struct gm_glob *g, const char *path, size_t len)
{
	if (g->bad)
		return false;
	if (g->plain && !memchr(path, '\n', len))
		return plain_prefix_match(g->regex, g->len, path, len);
	if (!g->code) {
		struct gm_buf src = GM_BUF_INIT;

		if (gm_buf_putc(&src, '^') == 0 &&
		    gm_buf_put(&src, g->regex, g->len) == 0)
			g->code = pattern_compile(src.ptr, src.len, 0);
		gm_buf_release(&src);
		if (!g->code) {
			g->bad = true;
			return false;
		}
	}
	return pattern_run(g->code, path, len);
}

/*
 * Whether the value names a directory of the tree; the first time the
 * answer is yes, the value gets its trailing slash, as the script stores it.
 */
static bool glob_isdir(struct gm_glob *g, gm_pattern_isdir_fn isdir,
		       void *payload)
{
	char *p;

	if (g->isdir >= 0)
		return g->isdir;
	g->isdir = g->len && g->regex[g->len - 1] != '/' && isdir &&
		   isdir(g->regex, payload);
	if (!g->isdir)
		return false;
	p = realloc(g->regex, g->len + 2);
	if (!p) {
		g->isdir = 0;
		return false;
	}
	p[g->len] = '/';
	p[++g->len] = '\0';
	g->regex = p;
	g->slashes++;
	pcre2_code_free(g->code);
	g->code = NULL;
	return true;
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
	*len = g->len;
	return g->regex;
}

/* ==================== regexes (N:, K:) ==================== */

int gm_regex_init(struct gm_regex *re, const char *source, size_t len)
{
	memset(re, 0, sizeof(*re));
	re->source = malloc(len + 1);
	if (!re->source)
		return gm_error_set(GM_ERROR, "out of memory");
	memcpy(re->source, source, len);
	re->source[len] = '\0';
	return 0;
}

void gm_regex_release(struct gm_regex *re)
{
	free(re->source);
	pcre2_code_free(re->code);
	pcre2_code_free(re->prefixed);
	memset(re, 0, sizeof(*re));
}

static pcre2_code *regex_get(struct gm_regex *re, bool prefixed)
{
	pcre2_code **slot = prefixed ? &re->prefixed : &re->code;
	struct gm_buf src = GM_BUF_INIT;

	if (*slot || re->bad)
		return *slot;
	if ((!prefixed || gm_buf_puts(&src, "^[+-].*") == 0) &&
	    gm_buf_puts(&src, re->source) == 0)
		*slot = pattern_compile(src.ptr, src.len, PCRE2_EXTENDED);
	gm_buf_release(&src);
	re->bad = !*slot;
	return *slot;
}

bool gm_regex_matches(struct gm_regex *re, const char *s, size_t len,
		      bool prefixed)
{
	return pattern_run(regex_get(re, prefixed), s, len);
}
