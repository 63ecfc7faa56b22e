#ifndef GM_MAILMAP_H
#define GM_MAILMAP_H

#include <stddef.h>

#include "gm/buf.h"

struct gm_mailmap;	/* opaque */

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
