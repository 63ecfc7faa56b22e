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
 * over the text, whatever the number of literals.
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
	h = needle_hash(needle_fold((unsigned char)s[0]) << 16 |
			needle_fold((unsigned char)s[1]) << 8 |
			needle_fold((unsigned char)s[2]));
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

void gm_needles_scan(const struct gm_needles *n, const char *text, size_t len,
		     unsigned char *found)
{
	const unsigned char *t = (const unsigned char *)text;
	uint32_t window;

	if (!n->nr || len < GM_NEEDLE_MIN)
		return;
	window = needle_fold(t[0]) << 8 | needle_fold(t[1]);
	for (size_t i = 2; i < len; i++) {
		uint32_t h;

		window = (window << 8 | needle_fold(t[i])) & 0xffffff;
		h = needle_hash(window);
		if (!(n->filter[h >> 6] >> (h & 63) & 1))
			continue;
		for (uint32_t j = n->head[h]; j; j = n->v[j - 1].next) {
			const struct needle *nd = &n->v[j - 1];

			if (!found[nd->owner] && needle_at(nd, text, len, i - 2))
				found[nd->owner] = 1;
		}
	}
}
