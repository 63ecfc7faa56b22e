#ifndef GM_SHA1_H
#define GM_SHA1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * SHA-1, to tell whether some bytes are a given blob: with the CPU's SHA
 * instructions where it has them (x86-64), else in portable C.
 */

#define GM_SHA1_SIZE 20

struct gm_sha1 {
	uint32_t h[5];
	uint64_t len;			/* bytes hashed so far */
	unsigned char block[64];	/* the partial block, len % 64 bytes */
	bool portable;			/* the C rounds even where there are others */
};

/** Start a hash; `portable` forces the C rounds (for tests). */
void gm_sha1_init(struct gm_sha1 *s, bool portable);
void gm_sha1_update(struct gm_sha1 *s, const void *data, size_t len);
void gm_sha1_final(struct gm_sha1 *s, unsigned char out[GM_SHA1_SIZE]);

/** The id git gives a blob of these bytes: SHA-1 of "blob <len>\0" data. */
void gm_sha1_blob(const void *data, size_t len,
		  unsigned char out[GM_SHA1_SIZE]);

#endif /* GM_SHA1_H */
