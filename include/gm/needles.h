#ifndef GM_NEEDLES_H
#define GM_NEEDLES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Many literals looked for in one pass over a text. Each literal has an
 * owner, an index of the caller's; a scan tells which owners have one of
 * their literals in the text. A literal is at least GM_NEEDLE_MIN bytes
 * long and may ignore ASCII case.
 *
 * Threads: gm_needles_scan() may run in several threads on one set at
 * once; gm_needles_add() and gm_needles_portable() run beside no other
 * call on that set.
 */

#define GM_NEEDLE_MIN 3

struct gm_needles;

/** A set with no literals. The caller owns `*out`. @return 0 or GM_ERROR. */
int gm_needles_new(struct gm_needles **out);
void gm_needles_free(struct gm_needles *n);

/**
 * Add s[0..len) for `owner`; the set keeps a copy.
 * @return 0, GM_EINVALID (shorter than GM_NEEDLE_MIN) or GM_ERROR.
 */
int gm_needles_add(struct gm_needles *n, const char *s, size_t len,
		   bool caseless, size_t owner);

/** Scan with the portable code even where the CPU has faster (tests). */
void gm_needles_portable(struct gm_needles *n);

/**
 * Set found[owner] to 1 for each owner with a literal in text[0..len);
 * other bytes of `found` are left as they are.
 */
void gm_needles_scan(const struct gm_needles *n, const char *text, size_t len,
		     unsigned char *found);

#endif /* GM_NEEDLES_H */
