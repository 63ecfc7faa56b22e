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

/** Answers whether `path` is a directory of the tree being read. */
typedef bool (*gm_pattern_isdir_fn)(const char *path, void *payload);

struct gm_glob {
	const char *glob;	/* the value as written, borrowed */
	size_t len;		/* its length */
	size_t slashes;		/* '/' in it */
	bool plain;		/* only literals, '*', '?': no regex engine */
	bool literal;		/* no '*', '?' or '.' either */
	bool anydepth;		/* has '**': no slash-count rule */
	signed char isdir;	/* -1 not yet asked, else 0 or 1 */
	char *regex;		/* the script's converted value, on demand */
	pcre2_code *code;	/* "^" + regex, on first use when !plain */
	bool bad;		/* failed to compile: never matches */
};

/* The shortest literal a regex's `required` set holds. */
#define GM_REGEX_LITERAL_MIN 3

struct gm_regex {
	char *source;		/* the pattern */
	pcre2_code *code;	/* compiled on first use */
	pcre2_code *prefixed;	/* "^[+-].*" + source, on first use */
	bool jit;		/* code was JIT-compiled (for long subjects) */
	struct gm_strvec required; /* every match contains one of these */
	bool caseless;		/* and may do so in any case */
	bool bad;		/* failed to compile: never matches */
};

/**
 * Prepare the F:/X: value `glob`, which must outlive `g`.
 * @return 0 (this cannot fail).
 */
int gm_glob_init(struct gm_glob *g, const char *glob, size_t len);
void gm_glob_release(struct gm_glob *g);

/**
 * Whether `path` (with `path_slashes` slashes) matches. `isdir` is asked
 * at most once per glob, and only when the answer matters.
 */
bool gm_glob_matches(struct gm_glob *g, const char *path, size_t len,
		     size_t path_slashes, gm_pattern_isdir_fn isdir,
		     void *payload);

/** The glob's depth for ordering: slashes, +1 without a final '/'. */
int gm_glob_depth(const struct gm_glob *g);

/**
 * The value as get_maintainer.pl stores it: converted to a regex, with the
 * directory slash if any (for --sections). Valid until the glob is
 * released; NULL if out of memory.
 */
const char *gm_glob_value(struct gm_glob *g, gm_pattern_isdir_fn isdir,
			  void *payload, size_t *len);

/** Store the N:/K: regex `source` (copied). @return 0 or GM_ERROR. */
int gm_regex_init(struct gm_regex *re, const char *source, size_t len);
void gm_regex_release(struct gm_regex *re);

/**
 * Whether the regex matches somewhere in `s`; with `prefixed`, whether
 * "^[+-].*<regex>" does, as get_maintainer.pl tests patch lines.
 * A regex that does not compile, or that exceeds the match limits, does
 * not match.
 */
bool gm_regex_matches(struct gm_regex *re, const char *s, size_t len,
		      bool prefixed);

/**
 * The two halves of gm_regex_matches(), for a caller that searches
 * `required` its own way: whether `s` has one of the literals every match
 * contains (true if none is known), and the regex engine's answer.
 */
bool gm_regex_may_match(const struct gm_regex *re, const char *s, size_t len);
bool gm_regex_run(struct gm_regex *re, const char *s, size_t len,
		  bool prefixed);

/**
 * The match context with the limits that every regex run on input uses
 * (MAINTAINERS regexes and addresses are input). NULL if out of memory.
 */
pcre2_match_context *gm_pattern_match_context(void);

/**
 * Free this thread's match state (the match context included). A thread
 * other than the main one that matches calls it before it ends; the main
 * thread's is freed at exit.
 */
void gm_pattern_release_thread(void);

/** Count the '/' in `s[0..len)`. */
size_t gm_pattern_slashes(const char *s, size_t len);

#endif /* GM_PATTERN_H */
