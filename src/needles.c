#include "gm/needles.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"

/*
 * Every window of three bytes, case-folded, is hashed into a bit filter
 * that the first three bytes of each literal have set; a set bit leads
 * to a chain of the literals with that hash, compared in full. One pass
 * over the text, whatever the number of literals, eight bytes loaded and
 * folded at a time. A window's key is its bytes in little-endian order.
 */
#define NEEDLE_BITS 15
#define NEEDLE_BUCKETS ((uint32_t)1 << NEEDLE_BITS)

struct needle {
	char *s;
	size_t len;
	size_t owner;
	bool caseless;
	uint32_t next;		/* 1 + the next literal of the bucket, or 0 */
};

struct gm_needles {
	struct needle *v;
	size_t nr, alloc;
	size_t owners;
	uint64_t filter[NEEDLE_BUCKETS / 64];
	uint32_t head[NEEDLE_BUCKETS];	/* 1 + the bucket's first, or 0 */
};

static inline uint32_t needle_fold(unsigned char c)
{
	return (uint32_t)c - 'A' < 26u ? c + 32u : c;
}

static inline uint32_t needle_hash(uint32_t window)
{
	return (window * 2654435761u) >> (32 - NEEDLE_BITS);
}

static inline uint32_t needle_key(const unsigned char *s)
{
	return needle_fold(s[0]) | needle_fold(s[1]) << 8 |
	       needle_fold(s[2]) << 16;
}

/* Eight bytes from `s`, the first lowest, each folded as needle_fold(). */
static inline uint64_t needle_load8(const unsigned char *s)
{
	const uint64_t ones = 0x0101010101010101ull;
	uint64_t x, low, ge_a, gt_z;

	memcpy(&x, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	low = x & 0x7f * ones;
	ge_a = low + (0x80 - 'A') * ones;	/* bit 7: at least 'A' */
	gt_z = low + (0x7f - 'Z') * ones;	/* bit 7: past 'Z' */
	return x | (((ge_a ^ gt_z) & ~x & 0x80 * ones) >> 2);
}

int gm_needles_new(struct gm_needles **out)
{
	if (!(*out = calloc(1, sizeof(**out))))
		return gm_error_set(GM_ERROR, "out of memory");
	return 0;
}

void gm_needles_free(struct gm_needles *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nr; i++)
		free(n->v[i].s);
	free(n->v);
	free(n);
}

int gm_needles_add(struct gm_needles *n, const char *s, size_t len,
		   bool caseless, size_t owner)
{
	struct needle *nd;
	uint32_t h;

	if (len < GM_NEEDLE_MIN)
		return gm_error_set(GM_EINVALID, "a literal of %zu bytes", len);
	if (n->nr >= UINT32_MAX - 1 ||
	    GM_ARRAY_GROW(n->v, n->nr, n->alloc) < 0)
		return gm_error_set(GM_ERROR, "out of memory");
	nd = &n->v[n->nr];
	if (!(nd->s = malloc(len)))
		return gm_error_set(GM_ERROR, "out of memory");
	memcpy(nd->s, s, len);
	nd->len = len;
	nd->owner = owner;
	nd->caseless = caseless;
	h = needle_hash(needle_key((const unsigned char *)s));
	nd->next = n->head[h];
	n->head[h] = (uint32_t)++n->nr;
	n->filter[h >> 6] |= (uint64_t)1 << (h & 63);
	if (owner >= n->owners)
		n->owners = owner + 1;
	return 0;
}

size_t gm_needles_owners(const struct gm_needles *n)
{
	return n->owners;
}

static bool needle_at(const struct needle *nd, const char *t, size_t len,
		      size_t pos)
{
	if (nd->len > len - pos)
		return false;
	if (!nd->caseless)
		return !memcmp(t + pos, nd->s, nd->len);
	for (size_t i = 0; i < nd->len; i++)
		if (needle_fold((unsigned char)t[pos + i]) !=
		    needle_fold((unsigned char)nd->s[i]))
			return false;
	return true;
}

/* The literals of bucket `h` at text[pos..]. */
static void needles_check(const struct gm_needles *n, uint32_t h,
			  const char *text, size_t len, size_t pos,
			  unsigned char *found)
{
	for (uint32_t j = n->head[h]; j; j = n->v[j - 1].next) {
		const struct needle *nd = &n->v[j - 1];

		if (!found[nd->owner] && needle_at(nd, text, len, pos))
			found[nd->owner] = 1;
	}
}

static inline bool needles_maybe(const struct gm_needles *n, uint32_t h)
{
	return n->filter[h >> 6] >> (h & 63) & 1;
}

void gm_needles_scan(const struct gm_needles *n, const char *text, size_t len,
		     unsigned char *found)
{
	const unsigned char *t = (const unsigned char *)text;
	size_t i = 0;

	if (!n->nr)
		return;
	for (; i + 8 <= len; i += 6) {	/* the windows at i .. i + 5 */
		uint64_t x = needle_load8(t + i);

		for (unsigned k = 0; k < 6; k++) {
			uint32_t h = needle_hash((uint32_t)(x >> 8 * k) &
						 0xffffff);

			if (needles_maybe(n, h))
				needles_check(n, h, text, len, i + k, found);
		}
	}
	for (; i + GM_NEEDLE_MIN <= len; i++) {
		uint32_t h = needle_hash(needle_key(t + i));

		if (needles_maybe(n, h))
			needles_check(n, h, text, len, i, found);
	}
}
