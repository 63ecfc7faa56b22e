#ifndef GM_MATCH_H
#define GM_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "gm/maintainers.h"
#include "gm/patch.h"
#include "gm/strvec.h"

/*
 * Which sections claim which files (R-40..R-46). Sections are referred to
 * by their index in the model, lines by their retained-line index.
 *
 * Threads: gm_match_files() and the keyword calls may run in several
 * threads on one model at once, each with its own context and its own
 * struct gm_matches; the model is only read.
 */

/*
 * A caller's context for matching one model: the directory test of the
 * tree the paths are from, and what matching learns, kept here so
 * that the model stays read-only: each F:/X: glob's directory answer (the
 * test is asked at most once per glob and context), the regexes compiled
 * on first use, PCRE2 match data, the index of the K: literals. One thread
 * at a time; a run that asks the directory test once per glob uses one
 * context for all its F:/X: matching and its --sections output.
 */
struct gm_match_ctx;

/**
 * A context for matching `m`, which must outlive it; `isdir` (may be
 * NULL: no path is a directory) answers the directory test of R-12.
 * The caller owns `*out` (gm_match_ctx_free()). @return 0 or GM_ERROR.
 */
int gm_match_ctx_new(struct gm_match_ctx **out, const struct gm_maintainers *m,
		     gm_pattern_isdir_fn isdir, void *payload);

/** Free the context and what it compiled. NULL is a no-op. */
void gm_match_ctx_free(struct gm_match_ctx *ctx);

struct gm_match_file {
	const char *path;	/* borrowed from the caller's list */
	size_t *sections;	/* deepest match first; ties in file order */
	size_t *lines;		/* per section: the F:/N: line that decided */
	size_t nr_sections;
	bool exact;		/* claimed by a maintained section with an M: */
};

/*
 * What matching found. A struct of zeros (calloc()) is an empty one, to
 * which the keyword calls add.
 */
struct gm_matches {
	struct gm_match_file *files;
	size_t nr_files;
	size_t *keywords;	/* K: line indices hit, in the script's order */
	size_t nr_keywords;
	size_t alloc_keywords;
};

/**
 * Match every path of `files` (directories end in '/') against the model
 * `m`, through `ctx`, a context made for `m`. `pattern_depth` is
 * --pattern-depth (0 for no limit). On success `*out` belongs to the
 * caller (gm_matches_free()); it borrows `files`.
 * @return 0 or GM_ERROR.
 */
int gm_match_files(struct gm_matches **out, const struct gm_maintainers *m,
		   struct gm_match_ctx *ctx, const struct gm_strvec *files,
		   int pattern_depth);

/**
 * The value of the F:/X: line `line` as get_maintainer.pl stores it
 * (gm_glob_value(): converted, with the directory slash), the directory
 * test answered through `ctx`. Valid until `ctx` is freed; NULL if the
 * line is no F:/X: or out of memory.
 */
const char *gm_match_glob_value(const struct gm_maintainers *m,
				struct gm_match_ctx *ctx, size_t line,
				size_t *len);

/**
 * Record in `mt` the K: lines whose regex matches somewhere in `text` (a
 * whole file, for -f), after which `pad` bytes are readable zeros. The
 * first call indexes the literals of `m`'s K: regexes in `ctx`, for one
 * pass over each text. @return 0 or GM_ERROR.
 */
int gm_match_keywords_text(struct gm_matches *mt,
			   const struct gm_maintainers *m,
			   struct gm_match_ctx *ctx, const char *text,
			   size_t len, size_t pad);

/**
 * Record the K: lines that match the keyword lines of a parsed patch
 * `buf` is the buffer the patch was parsed from.
 * @return 0 or GM_ERROR.
 */
int gm_match_keywords_patch(struct gm_matches *mt,
			    const struct gm_maintainers *m,
			    struct gm_match_ctx *ctx, const char *buf,
			    const struct gm_patch *p);

/** Put the recorded K: lines in the script's order: as strings, unique. */
void gm_match_keywords_finish(struct gm_matches *mt);

void gm_matches_free(struct gm_matches *mt);

#endif /* GM_MATCH_H */
