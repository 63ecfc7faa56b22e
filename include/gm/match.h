#ifndef GM_MATCH_H
#define GM_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "gm/buf.h"
#include "gm/maintainers.h"
#include "gm/needles.h"
#include "gm/patch.h"
#include "gm/strvec.h"

/*
 * Which sections claim which files (R-40..R-46). Sections are referred to
 * by their index in the model, lines by their retained-line index.
 */
struct gm_match_file {
	const char *path;	/* borrowed from the caller's list */
	size_t *sections;	/* deepest match first; ties in file order */
	size_t *lines;		/* per section: the F:/N: line that decided */
	size_t nr_sections;
	bool exact;		/* claimed by a maintained section with an M: */
};

struct gm_matches {
	struct gm_match_file *files;
	size_t nr_files;
	size_t *keywords;	/* K: line indices hit, in the script's order */
	size_t nr_keywords;
	size_t alloc_keywords;
	struct gm_needles *needles;	/* the K: literals, on first use */
	size_t *klines;			/* the K: lines, owners of those */
	size_t nr_klines, alloc_klines;
	unsigned char *found;		/* per K: line: a literal is in the text */
	struct gm_buf padded;		/* the text, for the regex engine */
};

/**
 * Match every path of `files` (directories end in '/') against the model.
 * `pattern_depth` is --pattern-depth (0 for no limit). On success `*out`
 * belongs to the caller (gm_matches_free()); it borrows `files`.
 * @return 0 or GM_ERROR.
 */
int gm_match_files(struct gm_matches **out, struct gm_maintainers *m,
		   const struct gm_strvec *files, int pattern_depth);

/**
 * Record the K: lines whose regex matches somewhere in `text` (a whole
 * file, for -f), after which `pad` bytes are readable zeros. The first
 * call indexes the literals of `m`'s K: regexes in `mt`, for one pass over
 * each text: later calls must pass the same `m`. @return 0 or GM_ERROR.
 */
int gm_match_keywords_text(struct gm_matches *mt, struct gm_maintainers *m,
			   const char *text, size_t len, size_t pad);

/**
 * Record the K: lines that match the keyword lines of a parsed patch
 * `buf` is the buffer the patch was parsed from.
 * @return 0 or GM_ERROR.
 */
int gm_match_keywords_patch(struct gm_matches *mt, struct gm_maintainers *m,
			    const char *buf, const struct gm_patch *p);

/** Put the recorded K: lines in the script's order: as strings, unique. */
void gm_match_keywords_finish(struct gm_matches *mt);

void gm_matches_free(struct gm_matches *mt);

#endif /* GM_MATCH_H */
