/* memmem() is a GNU and BSD extension, in every libc we build with. */
#define _GNU_SOURCE

#include "gm/pattern.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/strvec.h"

/* Limits that keep a hostile N:/K: regex from running away. */
#define GM_REGEX_MATCH_LIMIT 200000
#define GM_REGEX_DEPTH_LIMIT 5000

/* Made once; pcre2_match() only reads a match context. */
static pcre2_match_context *match_context;
static pthread_once_t match_context_once = PTHREAD_ONCE_INIT;

static void match_context_create(void)
{
	match_context = pcre2_match_context_create(NULL);
	if (!match_context)
		return;
	pcre2_set_match_limit(match_context, GM_REGEX_MATCH_LIMIT);
	pcre2_set_depth_limit(match_context, GM_REGEX_DEPTH_LIMIT);
}

pcre2_match_context *gm_pattern_match_context(void)
{
	pthread_once(&match_context_once, match_context_create);
	return match_context;
}

int gm_pattern_ctx_init(struct gm_pattern_ctx *pc, gm_pattern_isdir_fn isdir,
			void *payload)
{
	memset(pc, 0, sizeof(*pc));
	pc->isdir = isdir;
	pc->payload = payload;
	pc->limits = gm_pattern_match_context();
	if (!pc->limits || !(pc->md = pcre2_match_data_create(1, NULL)))
		return gm_error_set(GM_ERROR, "out of memory");
	return 0;
}

void gm_pattern_ctx_release(struct gm_pattern_ctx *pc)
{
	pcre2_match_data_free(pc->md);
	memset(pc, 0, sizeof(*pc));
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

	return pcre2_compile((PCRE2_SPTR)src, len, flags, &errcode, &erroff,
			     NULL);
}

/*
 * Run `code` on `s`. A regex that exceeds the engine's limits is marked
 * `*bad`: it is input, and one that backtracks without end on one subject
 * would on the next one too.
 */
static bool pattern_run(pcre2_code *code, struct gm_pattern_ctx *pc,
			const char *s, size_t len, bool *bad)
{
	int rc;

	if (!code)
		return false;
	rc = pcre2_match(code, (PCRE2_SPTR)s, len, 0, 0, pc->md, pc->limits);
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

static const unsigned char glob_class[256] = {
	['/'] = GLOB_SLASH,
	['*'] = GLOB_WILD, ['?'] = GLOB_WILD, ['.'] = GLOB_WILD,
	['['] = GLOB_REGEX, [']'] = GLOB_REGEX,
	['('] = GLOB_REGEX, [')'] = GLOB_REGEX,
	['{'] = GLOB_REGEX, ['}'] = GLOB_REGEX,
	['+'] = GLOB_REGEX, ['^'] = GLOB_REGEX, ['$'] = GLOB_REGEX,
	['|'] = GLOB_REGEX, ['\\'] = GLOB_REGEX, ['\n'] = GLOB_REGEX,
};

void gm_glob_init(struct gm_glob *g, const char *glob, size_t len)
{
	unsigned seen = 0;

	memset(g, 0, sizeof(*g));
	g->glob = glob;
	g->len = len;
	for (size_t i = 0; i < len; i++) {
		unsigned char k = glob_class[(unsigned char)glob[i]];

		seen |= k;
		g->slashes += k == GLOB_SLASH;
	}
	g->plain = !(seen & GLOB_REGEX);
	g->literal = !(seen & (GLOB_REGEX | GLOB_WILD));
	g->anydepth = (seen & GLOB_WILD) && memmem(glob, len, "**", 2);
}

void gm_glob_state_release(struct gm_glob_state *st)
{
	pcre2_code_free(st->code);
	free(st->value);
	memset(st, 0, sizeof(*st));
}

int gm_glob_depth(const struct gm_glob *g)
{
	if (g->len && g->glob[0] == '*')
		return -1;
	return (int)g->slashes + (g->len && g->glob[g->len - 1] == '/' ? 0 : 1);
}

/*
 * '.' to "\.", "**" to "(?:.*)", '*' to ".*", '?' to '.'; and a
 * final '/' for a directory. After `prefix`, in a string the caller owns.
 */
static char *glob_convert(const struct gm_glob *g, bool dir, const char *prefix)
{
	struct gm_buf re = GM_BUF_INIT;
	int error = gm_buf_grow(&re, g->len * 6 + 2) || gm_buf_puts(&re, prefix);

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
	if (!error && dir)
		error = gm_buf_putc(&re, '/');
	if (error)
		gm_buf_release(&re);
	return error ? NULL : gm_buf_detach(&re, NULL);
}

/* Backtracking to the last star only suffices for wildcards of this kind. */
bool gm_pattern_prefix_match(const char *p, size_t plen, const char *s,
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

static bool glob_prefix_match(const struct gm_glob *g, struct gm_glob_state *st,
			      struct gm_pattern_ctx *pc, const char *path,
			      size_t len)
{
	if (st->bad)
		return false;
	if (g->plain && !memchr(path, '\n', len))
		return gm_pattern_prefix_match(g->glob, g->len, path, len) &&
		       (st->dir != GM_GLOB_DIR ||
			(len > g->len && path[g->len] == '/'));
	if (!st->code) {	/* "^" and the converted value */
		char *regex = glob_convert(g, st->dir == GM_GLOB_DIR, "^");

		if (regex)
			st->code = pattern_compile(regex, strlen(regex), 0);
		free(regex);
		st->bad = !st->code;
	}
	return pattern_run(st->code, pc, path, len, &st->bad);
}

/*
 * Whether the value names a directory of the tree. The script
 * tests the converted regex as a path, which for a value with '.', '*' or
 * '?' names a directory only with backslashes or dots in its name: such
 * values are not looked up.
 */
static bool glob_isdir(const struct gm_glob *g, struct gm_glob_state *st,
		       struct gm_pattern_ctx *pc)
{
	char *path;

	if (st->dir != GM_GLOB_UNASKED)
		return st->dir == GM_GLOB_DIR;
	st->dir = GM_GLOB_NOT_DIR;
	if (!g->literal || !g->len || g->glob[g->len - 1] == '/' || !pc->isdir)
		return false;
	if (!(path = strndup(g->glob, g->len)))
		return false;
	if (pc->isdir(path, pc->payload))
		st->dir = GM_GLOB_DIR;
	free(path);
	pcre2_code_free(st->code);	/* compiled without the '/' */
	st->code = NULL;
	return st->dir == GM_GLOB_DIR;
}

bool gm_glob_matches(const struct gm_glob *g, struct gm_glob_state *st,
		     struct gm_pattern_ctx *pc, const char *path, size_t len,
		     size_t path_slashes)
{
	if (!glob_prefix_match(g, st, pc, path, len))
		return false;
	/* the directory slash counts as written: GM_GLOB_DIR once asked */
	if ((g->len && g->glob[g->len - 1] == '/') || st->dir == GM_GLOB_DIR)
		return true;
	if (glob_isdir(g, st, pc))
		return glob_prefix_match(g, st, pc, path, len);
	return g->anydepth || path_slashes == g->slashes;
}

const char *gm_glob_value(const struct gm_glob *g, struct gm_glob_state *st,
			  struct gm_pattern_ctx *pc, size_t *len)
{
	glob_isdir(g, st, pc);
	if (!st->value)
		st->value = glob_convert(g, st->dir == GM_GLOB_DIR, "");
	*len = st->value ? strlen(st->value) : 0;
	return st->value;
}

size_t gm_pattern_regroup(char *s, size_t len, const char *from,
			  const char *to)
{
	size_t n = 0;

	for (size_t i = 1; i < len; i++) {
		size_t close = i + 1;
		bool sep = false;

		if (s[i] != from[0] || s[i - 1] == '\\')
			continue;
		while (close < len && s[close] != from[0] &&
		       s[close] != from[2])
			sep |= s[close++] == from[1];
		if (close >= len || s[close] != from[2] || !sep)
			continue;
		s[i] = to[0];
		for (size_t k = i + 1; k < close; k++)
			if (s[k] == from[1])
				s[k] = to[1];
		s[close] = to[2];
		i = close;
		n++;
	}
	return n;
}

/* ==================== regexes (N:, K:) ==================== */

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

/*
 * Literals of which every match contains one: at most this many, found
 * through at most this many levels of groups.
 */
#define GM_REGEX_LITERALS_MAX 32
#define GM_REGEX_GROUP_LEVELS 4

/* The index of the ')' closing the group that opens at s[i], or len. */
static size_t regex_group_end(const char *s, size_t len, size_t i)
{
	size_t depth = 0;

	for (; i < len; i++) {
		if (s[i] == '\\') {
			i++;
		} else if (s[i] == '[') {
			i = regex_skip_class(s, len, i);
		} else if (s[i] == '#') {
			break;		/* /x: a comment to the end */
		} else if (s[i] == '(' && i + 2 < len && s[i + 1] == '?' &&
			   s[i + 2] == '#') {
			while (i < len && s[i] != ')')
				i++;
		} else if (s[i] == '(') {
			depth++;
		} else if (s[i] == ')' && !--depth) {
			return i;
		}
	}
	return len;
}

/*
 * Where the body of the group opening at s[i] starts, if the group is one
 * whose body is part of the match: capturing, (?:, (?|, (?>, (?flags:,
 * named. 0 for lookarounds, conditionals, calls, option settings, verbs.
 */
static size_t regex_group_body(const char *s, size_t len, size_t i)
{
	size_t j = i + 2;
	char close = '>';

	if (i + 1 >= len || s[i + 1] == '*')
		return 0;
	if (s[i + 1] != '?')
		return i + 1;
	if (j < len && (s[j] == ':' || s[j] == '|' || s[j] == '>'))
		return j + 1;
	if (j < len && (s[j] == '<' || s[j] == '\'' || s[j] == 'P')) {
		if (s[j] == 'P' && (++j >= len || s[j] != '<'))
			return 0;
		close = s[j] == '\'' ? '\'' : '>';
		if (++j >= len || isdigit((unsigned char)s[j]) ||
		    !(isalnum((unsigned char)s[j]) || s[j] == '_'))
			return 0;	/* (?<= (?<! and not a name */
		while (j < len && (isalnum((unsigned char)s[j]) || s[j] == '_'))
			j++;
		return j < len && s[j] == close ? j + 1 : 0;
	}
	while (j < len && (s[j] == '-' || s[j] == '^' ||
			   (s[j] >= 'a' && s[j] <= 'z') ||
			   (s[j] >= 'A' && s[j] <= 'Z')))
		j++;
	return j > i + 2 && j < len && s[j] == ':' ? j + 1 : 0;
}

/* Whether what follows s[i] (white space, comments skipped) may repeat
 * it zero times, or cannot be told. */
static bool regex_optional_after(const char *s, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		unsigned char u = (unsigned char)s[i];

		if (isspace((unsigned char)s[i]) || u >= 0x80)
			continue;
		if (s[i] == '(' && i + 2 < len && s[i + 1] == '?' &&
		    s[i + 2] == '#') {
			while (i < len && s[i] != ')')
				i++;
			continue;
		}
		return s[i] == '?' || s[i] == '*' || s[i] == '{' || s[i] == '#';
	}
	return false;
}

/* The shortest literal of a set, the measure of how well it filters. */
static size_t literals_worth(const struct gm_strvec *set)
{
	size_t min = (size_t)-1;

	for (size_t i = 0; i < set->nr; i++)
		if (strlen(set->v[i]) < min)
			min = strlen(set->v[i]);
	return set->nr ? min : 0;
}

static void regex_find_required(const char *s, size_t len, int levels,
				struct gm_strvec *set);

/*
 * For the group opening at s[i] at the top level of an alternative: keep
 * its literal set in `group` if the group must match and its set filters
 * better than the one kept.
 */
static void regex_try_group(const char *s, size_t len, size_t i, int levels,
			    struct gm_strvec *group)
{
	struct gm_strvec sub = GM_STRVEC_INIT;
	size_t body = regex_group_body(s, len, i);
	size_t end = regex_group_end(s, len, i);

	if (!levels || !body || end >= len || regex_optional_after(s, len, end))
		return;
	regex_find_required(s + body, end - body, levels - 1, &sub);
	if (literals_worth(&sub) > literals_worth(group)) {
		gm_strvec_release(group);
		*group = sub;
	} else {
		gm_strvec_release(&sub);
	}
}

/*
 * End an alternative: add its longest run, or its best group's set, to
 * `set`. False if it has neither.
 */
static bool regex_alternative_end(struct gm_buf *run, struct gm_buf *best,
				  struct gm_strvec *group,
				  struct gm_strvec *set)
{
	bool ok = true;

	run_end(run, best);
	if (best->len >= GM_REGEX_LITERAL_MIN &&
	    best->len >= literals_worth(group))
		ok = gm_strvec_push(set, best->ptr) == 0;
	else if (group->nr)
		for (size_t i = 0; i < group->nr && ok; i++)
			ok = gm_strvec_push(set, group->v[i]) == 0;
	else
		ok = false;
	gm_buf_reset(best);
	gm_strvec_release(group);
	return ok && set->nr <= GM_REGEX_LITERALS_MAX;
}

/*
 * Literals of which every match of the /x regex s[0..len) contains one,
 * into `set`, which is left empty when none is known: for each top-level
 * alternative, its longest run of literal characters outside groups and
 * classes and not made optional by a quantifier, or else the set of a
 * group in it that must match (through `levels` levels). A subject with
 * none of them cannot match, which a plain search finds out much faster
 * than the regex engine.
 */
static void regex_find_required(const char *s, size_t len, int levels,
				struct gm_strvec *set)
{
	struct gm_buf run = GM_BUF_INIT, best = GM_BUF_INIT;
	struct gm_strvec group = GM_STRVEC_INIT;
	size_t depth = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i], lit = 0;
		char next = i + 1 < len ? s[i + 1] : 0;
		unsigned char u = (unsigned char)c;

		if (isspace((unsigned char)c) || u >= 0x80) {
			/* /x: ignored, and a quantifier may follow it */
			run_cut(&run, &best);
			continue;
		}
		if (c == '(' && (next == '*' || (next == '?' && i + 2 < len &&
						 s[i + 2] == '#'))) {
			if (next == '*')	/* (*ACCEPT) and other verbs */
				goto none;
			while (i < len && s[i] != ')')
				i++;
			run_cut(&run, &best);
			continue;
		}
		if (c == '\\' && i + 1 < len && (unsigned char)next < 0x80 &&
		    !isalnum((unsigned char)next) &&
		    !isspace((unsigned char)next)) {
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
			if (!depth)
				regex_try_group(s, len, i, levels, &group);
			depth++;
		} else if (c == ')') {
			depth -= depth > 0;
		} else if (c == '|' && !depth) {
			if (!regex_alternative_end(&run, &best, &group, set))
				goto none;
			continue;
		} else if (!strchr("^$.?*+{}", c)) {
			lit = c;
		}
		if (!lit || depth || next == '?' || next == '*' || next == '{') {
			run_end(&run, &best);
			continue;
		}
		gm_buf_putc(&run, lit);
		if (next == '+')
			run_end(&run, &best);
	}
	if (regex_alternative_end(&run, &best, &group, set))
		goto out;
none:
	gm_strvec_release(set);
out:
	gm_strvec_release(&group);
	gm_buf_release(&best);
	gm_buf_release(&run);
}

/* Whether `needle` occurs in `s`, ignoring ASCII case if `caseless`. */
static bool regex_contains(const char *s, size_t len, const char *needle,
			   size_t nlen, bool caseless)
{
	if (!caseless)
		return memmem(s, len, needle, nlen) != NULL;
	for (size_t i = 0; i + nlen <= len; i++)
		if (!strncasecmp(s + i, needle, nlen))
			return true;
	return false;
}

/* Drop each literal of `set` that contains another: it adds nothing. */
static void literals_minimize(struct gm_strvec *set, bool caseless)
{
	size_t j = 0;

	for (size_t i = 0; i < set->nr; i++) {
		size_t li = strlen(set->v[i]);
		bool redundant = false;

		for (size_t k = 0; k < set->nr && !redundant; k++) {
			size_t lk = set->v[k] ? strlen(set->v[k]) : 0;

			if (k == i || !lk || lk > li || (lk == li && k > i))
				continue;
			redundant = regex_contains(set->v[i], li, set->v[k],
						   lk, caseless);
		}
		if (redundant) {
			free(set->v[i]);
			set->v[i] = NULL;
		}
	}
	for (size_t i = 0; i < set->nr; i++)
		if (set->v[i])
			set->v[j++] = set->v[i];
	set->nr = j;
	if (set->v)
		set->v[j] = NULL;
}

int gm_regex_init(struct gm_regex *re, const char *source, size_t len)
{
	memset(re, 0, sizeof(*re));
	if (!(re->source = strndup(source, len)))
		return gm_error_set(GM_ERROR, "out of memory");
	re->caseless = regex_has_caseless(source, len);
	regex_find_required(source, len, GM_REGEX_GROUP_LEVELS,
			    &re->required);
	literals_minimize(&re->required, re->caseless);
	return 0;
}

void gm_regex_release(struct gm_regex *re)
{
	free(re->source);
	gm_strvec_release(&re->required);
	memset(re, 0, sizeof(*re));
}

void gm_regex_state_release(struct gm_regex_state *st)
{
	pcre2_code_free(st->code);
	pcre2_code_free(st->prefixed);
	memset(st, 0, sizeof(*st));
}

static pcre2_code *regex_get(const struct gm_regex *re,
			     struct gm_regex_state *st, bool prefixed)
{
	pcre2_code **slot = prefixed ? &st->prefixed : &st->code;
	struct gm_buf src = GM_BUF_INIT;

	if (st->bad)
		return NULL;
	if (*slot)
		return *slot;
	if ((!prefixed || gm_buf_puts(&src, "^[+-].*") == 0) &&
	    gm_buf_puts(&src, re->source) == 0)
		*slot = pattern_compile(src.ptr, src.len, PCRE2_EXTENDED);
	gm_buf_release(&src);
	st->bad = !*slot;
	return *slot;
}

/* Subjects from this size on are worth JIT-compiling the regex for. */
#define GM_REGEX_JIT_MIN 4096

bool gm_regex_matches(const struct gm_regex *re, struct gm_regex_state *st,
		      struct gm_pattern_ctx *pc, const char *s, size_t len,
		      bool prefixed)
{
	bool may = !re->required.nr;

	for (size_t i = 0; !may && i < re->required.nr; i++)
		may = regex_contains(s, len, re->required.v[i],
				     strlen(re->required.v[i]), re->caseless);
	return may && gm_regex_run(re, st, pc, s, len, prefixed);
}

bool gm_regex_run(const struct gm_regex *re, struct gm_regex_state *st,
		  struct gm_pattern_ctx *pc, const char *s, size_t len,
		  bool prefixed)
{
	pcre2_code *code = regex_get(re, st, prefixed);
	bool *jit = prefixed ? &st->prefixed_jit : &st->jit;

	if (code && len >= GM_REGEX_JIT_MIN && !*jit) {
		*jit = true;
		pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
	}
	return pattern_run(code, pc, s, len, &st->bad);
}
