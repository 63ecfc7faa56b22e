#ifndef GM_STRVEC_H
#define GM_STRVEC_H

#include <stdbool.h>
#include <stddef.h>

#include "gm/error.h"

/*
 * An array of owned, NUL-terminated strings. `v` is NULL-terminated once
 * anything has been pushed.
 */
struct gm_strvec {
	char **v;	/* the strings */
	size_t nr;	/* how many */
	size_t alloc;	/* slots allocated */
};

#define GM_STRVEC_INIT { NULL, 0, 0 }

/** Append a copy of `s`. @return 0 or GM_ERROR (out of memory). */
int gm_strvec_push(struct gm_strvec *sv, const char *s);
/** Append a copy of `len` bytes of `s`. @return 0 or GM_ERROR. */
int gm_strvec_pushn(struct gm_strvec *sv, const char *s, size_t len);
/** Append the printf() of `fmt`, whole. @return 0 or GM_ERROR. */
int gm_strvec_pushf(struct gm_strvec *sv, const char *fmt, ...)
	GM_PRINTF(2, 3);
/** Sort by byte order and drop duplicates. */
void gm_strvec_sort_uniq(struct gm_strvec *sv);
/** Whether an element equals `s`. */
bool gm_strvec_contains(const struct gm_strvec *sv, const char *s);
/** Free all strings; the vector is empty and reusable afterwards. */
void gm_strvec_release(struct gm_strvec *sv);

#endif /* GM_STRVEC_H */
