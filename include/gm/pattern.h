#ifndef GM_PATTERN_H
#define GM_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

#include <pcre2.h>

#include "gm/strvec.h"

/*
 * The two kinds of MAINTAINERS patterns.
 *
 * A glob (F:, X:) is converted to get_maintainer.pl's regex: '.' is
 * literal, '*' and '?' match any run of characters or any one, '**' is the
 * newest script's any-depth wildcard, other regex syntax keeps its meaning
 * . A glob naming a directory of the tree gets a trailing '/'. It
 * matches a path it is a prefix of; unless it ends in '/' (or has '**'),
 * only at the same number of slashes.
 *
 * A regex (N:, K:) is a Perl regex with the /x flag, matched unanchored
 * (R-14).
 */

/*
 * Threads: a glob or regex is read-only once initialised, and any number
 * of threads may match it at once, each through its own gm_pattern_ctx
 * and its own state for the pattern (struct gm_glob_state,
 * struct gm_regex_state); gm_pattern_match_context() may be called from
 * any thread.
 */

/** Answers whether `path` is a directory of the tree being read. */
typedef bool (*gm_pattern_isdir_fn)(const char *path, void *payload);

/*
 * One caller's means of matching, used by one thread at a time: PCRE2
 * match data of its own, and the directory test of the tree whose
 * paths it matches (NULL: no path is a directory).
 */
struct gm_pattern_ctx {
	pcre2_match_data *md;
	pcre2_match_context *limits;	/* gm_pattern_match_context() */
	gm_pattern_isdir_fn isdir;
	void *payload;
};

/**
 * Set up `pc`; release it with gm_pattern_ctx_release().
 * @return 0 or GM_ERROR.
 */
int gm_pattern_ctx_init(struct gm_pattern_ctx *pc, gm_pattern_isdir_fn isdir,
			void *payload);
void gm_pattern_ctx_release(struct gm_pattern_ctx *pc);

/* An F:/X: value, read-only once gm_glob_init() returns. */
struct gm_glob {
	const char *glob;	/* the value as written, borrowed */
	size_t len;		/* its length */
	size_t slashes;		/* '/' in it */
	bool plain;		/* only literals, '*', '?': no regex engine */
	bool literal;		/* no '*', '?' or '.' either */
	bool anydepth;		/* has '**': no slash-count rule */
};

/* The directory test's answer for a glob. */
enum gm_glob_dir {
	GM_GLOB_UNASKED = 0,	/* not asked yet */
	GM_GLOB_NOT_DIR,
	GM_GLOB_DIR
};

/*
 * What matching one glob against one tree learns, kept by the caller
 * apart from the glob: all zero (GM_GLOB_STATE_INIT) before its first
 * use, then passed with the glob to every call (with contexts of that
 * tree), freed with gm_glob_state_release().
 */
struct gm_glob_state {
	unsigned char dir;	/* enum gm_glob_dir */
	bool bad;		/* failed to compile or hit a limit */
	pcre2_code *code;	/* "^" + the converted value, if needed */
	char *value;		/* gm_glob_value()'s */
};

#define GM_GLOB_STATE_INIT { 0, false, NULL, NULL }

/* The shortest literal a regex's `required` set holds. */
#define GM_REGEX_LITERAL_MIN 3

/* An N:/K: regex, read-only once gm_regex_init() returns. */
struct gm_regex {
	char *source;		/* the pattern */
	struct gm_strvec required; /* every match contains one of these */
	bool caseless;		/* and may do so in any case */
};

/*
 * What matching one regex learns, kept by the caller as a glob's state
 * is (GM_REGEX_STATE_INIT, gm_regex_state_release()).
 */
struct gm_regex_state {
	pcre2_code *code;	/* the regex, compiled on first use */
	pcre2_code *prefixed;	/* "^[+-].*" + it, on first use */
	bool jit;		/* code was JIT-compiled (for long subjects) */
	bool prefixed_jit;	/* and prefixed */
	bool bad;		/* failed to compile or hit a limit */
};

#define GM_REGEX_STATE_INIT { NULL, NULL, false, false, false }

/**
 * Prepare the F:/X: value `glob`, which must outlive `g`; `g` owns
 * nothing (there is no release). This cannot fail.
 */
void gm_glob_init(struct gm_glob *g, const char *glob, size_t len);
void gm_glob_state_release(struct gm_glob_state *st);

/**
 * Whether `path` (with `path_slashes` slashes) matches. The directory
 * test of `pc` is asked at most once per state, and only when the answer
 * matters; the answer is kept in `st`.
 */
bool gm_glob_matches(const struct gm_glob *g, struct gm_glob_state *st,
		     struct gm_pattern_ctx *pc, const char *path, size_t len,
		     size_t path_slashes);

/** The glob's depth for ordering: slashes, +1 without a final '/'. */
int gm_glob_depth(const struct gm_glob *g);

/**
 * The value as get_maintainer.pl stores it: converted to a regex, with the
 * directory slash if any (for --sections). Valid until `st` is released;
 * NULL if out of memory.
 */
const char *gm_glob_value(const struct gm_glob *g, struct gm_glob_state *st,
			  struct gm_pattern_ctx *pc, size_t *len);

/** Store the N:/K: regex `source` (copied). @return 0 or GM_ERROR. */
int gm_regex_init(struct gm_regex *re, const char *source, size_t len);
void gm_regex_release(struct gm_regex *re);
void gm_regex_state_release(struct gm_regex_state *st);

/**
 * Whether the regex matches somewhere in `s`; with `prefixed`, whether
 * "^[+-].*<regex>" does, as get_maintainer.pl tests patch lines.
 * A regex that does not compile, or that exceeds the match limits, does
 * not match (and, through `st`, never will).
 */
bool gm_regex_matches(const struct gm_regex *re, struct gm_regex_state *st,
		      struct gm_pattern_ctx *pc, const char *s, size_t len,
		      bool prefixed);

/**
 * gm_regex_matches() but the search for `required`, for a caller that
 * searches them its own way: the regex engine's answer.
 */
bool gm_regex_run(const struct gm_regex *re, struct gm_regex_state *st,
		  struct gm_pattern_ctx *pc, const char *s, size_t len,
		  bool prefixed);

/**
 * The match context with the limits that every regex run on input uses
 * (MAINTAINERS regexes and addresses are input). Made once, shared by all
 * threads, never changed: pass it, do not modify it. NULL if out of
 * memory.
 */
pcre2_match_context *gm_pattern_match_context(void);

/** Count the '/' in `s[0..len)`. */
size_t gm_pattern_slashes(const char *s, size_t len);

/**
 * Whether the plain glob p[0..plen) ('*' any run of characters, '?' any
 * one, every other byte itself) matches a prefix of s[0..slen). Any
 * thread may call it.
 */
bool gm_pattern_prefix_match(const char *p, size_t plen, const char *s,
			     size_t slen);

/**
 * Rewrite in place each group of s[0..len) that opens with from[0] (not
 * first, not after a '\\'), holds at least one from[1] and no from[0], and
 * closes with from[2]: to[0], each from[1] as to[1], to[2]. Xen's brace
 * patterns: "{,}" to "(|)" when read, back for --sections.
 * @return how many groups were rewritten.
 */
size_t gm_pattern_regroup(char *s, size_t len, const char *from,
			  const char *to);

#endif /* GM_PATTERN_H */
