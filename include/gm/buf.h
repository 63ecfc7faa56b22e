#ifndef GM_BUF_H
#define GM_BUF_H

#include <stdbool.h>
#include <stddef.h>

#include "gm/error.h"

/*
 * A growable byte buffer. `ptr` is always NUL-terminated once anything has
 * been added (and points to a static empty string before), so it can be
 * used as a C string when the content has no NUL bytes. A failed append
 * leaves the buffer as it was.
 */
struct gm_buf {
	char *ptr;	/* content, NUL-terminated */
	size_t len;	/* bytes used, without the NUL */
	size_t alloc;	/* bytes allocated, 0 while ptr is the static "" */
};

extern char gm_buf__empty[];
#define GM_BUF_INIT { gm_buf__empty, 0, 0 }

/** Largest input file or patch that gm_buf_read_* accept (1 GiB). */
#define GM_BUF_MAX_READ ((size_t)1 << 30)

void gm_buf_init(struct gm_buf *b);
/** Free the content; the buffer is empty and reusable afterwards. */
void gm_buf_release(struct gm_buf *b);
/** Make room for `extra` more bytes. @return 0 or GM_ERROR (out of memory). */
int gm_buf_grow(struct gm_buf *b, size_t extra);
int gm_buf_put(struct gm_buf *b, const char *data, size_t len);
int gm_buf_puts(struct gm_buf *b, const char *s);
int gm_buf_putc(struct gm_buf *b, char c);
int gm_buf_printf(struct gm_buf *b, const char *fmt, ...) GM_PRINTF(2, 3);
/**
 * Append `path` as git prints a path (core.quotePath): as it is, unless
 * it holds a control character, DEL, '"' or '\\' (with `high`, also a
 * byte of 0x80 or more); then in double quotes, with \a \b \t \n \v \f
 * \r \" \\ for those, the other such bytes as three octal digits. So a
 * quoted path is one line and one field. @return 0 or GM_ERROR.
 */
int gm_buf_put_path(struct gm_buf *b, const char *path, bool high);
/** Empty the buffer without freeing its storage. */
void gm_buf_reset(struct gm_buf *b);
/**
 * Replace the content by `s` in ASCII lower case (as Perl's lc and /i see
 * bytes); `s` may be b->ptr itself. @return 0 or GM_ERROR.
 */
int gm_buf_set_lower(struct gm_buf *b, const char *s);
/** Hand the content to the caller (free() it); the buffer is left empty. */
char *gm_buf_detach(struct gm_buf *b, size_t *len);

/**
 * Make room for element `nr` of the array `*array` (elements of `size`
 * bytes, `*alloc` of them allocated), doubling as needed. On failure the
 * array is left as it was. Use through GM_ARRAY_GROW().
 * @return 0 or GM_ERROR (out of memory).
 */
int gm_array_grow(void *array, size_t *alloc, size_t nr, size_t size);
#define GM_ARRAY_GROW(v, nr, alloc) \
	gm_array_grow(&(v), &(alloc), (nr), sizeof(*(v)))

/**
 * Append everything readable from `fd` (up to GM_BUF_MAX_READ).
 * @return 0, or GM_ERROR with a message naming `what`.
 */
int gm_buf_read_fd(struct gm_buf *b, int fd, const char *what);

/*
 * Zero bytes after the NUL of what gm_buf_read_regular() reads: the PCRE2
 * JIT's SIMD loads may read up to 15 bytes past the end of a subject.
 */
#define GM_BUF_PAD 16

/**
 * Read the regular file at `path` (not through a symlink at its end), of
 * at most `max` bytes, into the empty `b`, followed by a NUL and
 * GM_BUF_PAD zero bytes.
 * @return 0, GM_ENOTFOUND (no such file, another kind, larger, or cut
 * short while read) or GM_ERROR (out of memory); `b` is left empty but
 * on success.
 */
int gm_buf_read_regular(struct gm_buf *b, const char *path, size_t max);

/**
 * Append the content of the regular file or FIFO at `path`.
 * @return 0, GM_ENOTFOUND if it does not exist, GM_EINVALID if it is a
 * directory, or GM_ERROR.
 */
int gm_buf_read_file(struct gm_buf *b, const char *path);

#endif /* GM_BUF_H */
