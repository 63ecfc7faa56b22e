#ifndef GM_FOLLOW_H
#define GM_FOLLOW_H

#include <git2.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm/objects.h"

/*
 * Where a file created by a commit came from, as git finds it: `git log
 * --follow`'s copy search, among every file of the parent, with
 * git's similarity estimate (diffcore-delta.c's fingerprint of lines and
 * 64-byte chunks, diffcore-rename.c's score) and its 50% threshold.
 */

/*
 * What the copy searches of one walk keep: the parents' trees, and per
 * blob its size and (up to a bound) its fingerprint. Used by one thread;
 * with packs and a second CPU a search shares its reading and scoring
 * with a helper thread of its own.
 */
struct gm_follow;

/**
 * A cache reading through `objs` (borrowed, the caller's thread's), and,
 * on a helper thread, through a reader of its own of `packs` (NULL:
 * none). The caller owns `*out` (gm_follow_free()).
 * @return 0 or GM_ERROR.
 */
int gm_follow_new(struct gm_follow **out, const struct gm_objects *objs,
		  const struct gm_packs *packs);
void gm_follow_free(struct gm_follow *f);

/**
 * --follow's source of the file `dst` (blob `dst_id`, mode `dst_mode`)
 * created by a commit of tree `tb` whose parent has tree `ta` (NULL:
 * none): git log's rename detection with find_copies_harder, every file
 * of the parent a candidate. An identical file first (scored one for
 * being deleted by the commit, one for its base name; among equals the
 * first in path order, as git's hash map yields them); else the four
 * most similar at 50% or more, the best of them that was deleted, else
 * the best.
 * `*out` is NULL for none, else the source's path, the caller's.
 * @return 0 or GM_ERROR.
 */
int gm_follow_source(char **out, struct gm_follow *f, const git_oid *ta,
		     const git_oid *tb, const char *dst, const git_oid *dst_id,
		     git_filemode_t dst_mode);

/**
 * The chunk of the similarity fingerprint at `buf` (`len` bytes, not 0):
 * a line, or its next 64 bytes, a CR before the LF not counted if `text`.
 * Sets its hash (below 107927) and the bytes counted.
 * @return the bytes it spans.
 */
size_t gm_follow_chunk(const char *buf, size_t len, bool text,
		       uint32_t *hash, uint32_t *bytes);

#endif /* GM_FOLLOW_H */
