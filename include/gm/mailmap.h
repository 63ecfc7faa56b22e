#ifndef GM_MAILMAP_H
#define GM_MAILMAP_H

#include <stddef.h>

#include "gm/buf.h"

struct gm_mailmap;	/* opaque */

/* The form of one .mailmap line and its groups, as offsets. */
struct gm_mailmap_line {
	int form;		/* 1-4, or 0 for none */
	struct {
		size_t off, len;
	} group[4];		/* the regex's groups 1..4 */
};

/**
 * Which of the four forms of R-20 the line s[0..len) (no newline in it)
 * has, the first that matches, with its groups exactly as the form's
 * regex captures them. @return l->form.
 */
int gm_mailmap_line_form(const char *s, size_t len,
			 struct gm_mailmap_line *l);

/**
 * Parse .mailmap text the way get_maintainer.pl reads it: four line
 * forms, '#' comments, case-sensitive keys. Lines of no known form are
 * skipped. On success `*out` belongs to the caller (gm_mailmap_free()).
 * @return 0 or GM_ERROR.
 */
int gm_mailmap_from_buffer(struct gm_mailmap **out, const char *buf,
			   size_t len);

/**
 * Map one address line through the mailmap and write the result,
 * always formatted with its name, to `out` (overwritten). A NULL mailmap
 * maps nothing. @return 0 or GM_ERROR.
 */
int gm_mailmap_apply(struct gm_buf *out, const struct gm_mailmap *mm,
		     const char *line);

void gm_mailmap_free(struct gm_mailmap *mm);

#endif /* GM_MAILMAP_H */
