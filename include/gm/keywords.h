#ifndef GM_KEYWORDS_H
#define GM_KEYWORDS_H

#include "gm/inputs.h"
#include "gm/maintainers.h"
#include "gm/match.h"
#include "gm/prefetch.h"
#include "gm/repo.h"

/**
 * The keyword pass: the K: lines hit by the contents of the
 * -f files of `in` (read through `r`, but those `prefetch` holds; one
 * that is no file is skipped) and by its patches' lines, matched with
 * `ctx` (NULL: a context of its own), in the script's order, into
 * `*out`, which the caller frees (gm_matches_free()).
 * @return 0 or an error.
 */
int gm_keywords_match(struct gm_matches **out, struct gm_repo *r,
		      const struct gm_inputs *in,
		      const struct gm_maintainers *m,
		      struct gm_match_ctx *ctx, struct gm_prefetch *prefetch);

#endif /* GM_KEYWORDS_H */
