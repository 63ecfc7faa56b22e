#ifndef GM_TRAILER_H
#define GM_TRAILER_H

#include <stdbool.h>
#include <stddef.h>

#include "gm/buf.h"

/*
 * The commit message lines that the classic one-liner counts:
 *
 *     git log -- PATHS | grep -i '^    [-a-z]*by:.*@'
 *
 * that is, any message line (the subject included) starting with letters
 * and dashes that end in "by", a colon, and an '@' somewhere after it.
 */
struct gm_trailer {
	const char *key;	/* "Signed-off-by", as written */
	size_t key_len;
	const char *value;	/* after the colon, blanks trimmed */
	size_t value_len;
};

/**
 * Whether the message line `line` (`len` bytes, no newline) is one the
 * one-liner counts; if so, fill `t`, which points into `line`.
 */
bool gm_trailer_parse(struct gm_trailer *t, const char *line, size_t len);

/**
 * The canonical spelling of a key: first letter upper case, the rest lower
 * case ("signed-OFF-by" -> "Signed-off-by"). `out` is overwritten.
 * @return 0 or GM_ERROR.
 */
int gm_trailer_canonical_key(struct gm_buf *out, const char *key, size_t len);

#endif /* GM_TRAILER_H */
