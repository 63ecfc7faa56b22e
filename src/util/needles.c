#include "gm/needles.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define NEEDLES_SSSE3 1
#endif

#include "gm/buf.h"
#include "gm/error.h"

/*
 * Every window of three bytes, case-folded, is hashed into a bit filter
 * that the first three bytes of each literal have set; a set bit leads
 * to a chain of the literals with that hash, compared in full. One pass
 * over the text, whatever the number of literals. A window's key is its
 * bytes in little-endian order.
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

/*
 * Before the hash, where the CPU has SSSE3: the literals spread over 16
 * groups, two sets of 8; for byte k of a window, nibble[set][k][0][lo]
 * has bit g set if a literal of group 8 * set + g may have low nibble `lo`
 * there, and nibble[set][k][1][hi] likewise for the high nibble. Sixteen
 * windows are tested at once; one that some group allows goes to the hash.
 */
#define NEEDLE_GROUPS 16

struct gm_needles {
	struct needle *v;
	size_t nr, alloc;
	bool portable;			/* the hash alone, even with SSSE3 */
	uint64_t filter[NEEDLE_BUCKETS / 64];
	uint32_t head[NEEDLE_BUCKETS];	/* 1 + the bucket's first, or 0 */
	unsigned char nibble[NEEDLE_GROUPS / 8][GM_NEEDLE_MIN][2][16];
	unsigned char group_of[256];	/* 1 + a first byte's group, or 0 */
	unsigned firsts;		/* first bytes given a group */
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

/*
 * Let a group allow the first bytes of `s`, in both cases if caseless.
 * Literals that start alike share a group: the fewer nibbles a group
 * allows, the fewer windows pass it.
 */
static void needles_group(struct gm_needles *n, const unsigned char *s,
			  bool caseless)
{
	unsigned char *slot = &n->group_of[needle_fold(s[0])];
	unsigned g;

	if (!*slot)
		*slot = (unsigned char)(1 + n->firsts++ % NEEDLE_GROUPS);
	g = *slot - 1u;
	for (int k = 0; k < GM_NEEDLE_MIN; k++) {
		unsigned char (*nib)[16] = n->nibble[g / 8][k];
		unsigned char c = s[k], other = c, bit = (unsigned char)(1u << g % 8);

		if (caseless && needle_fold(c) != c)
			other = (unsigned char)needle_fold(c);
		else if (caseless && (unsigned)c - 'a' < 26u)
			other = (unsigned char)(c - 32);
		nib[0][c & 15] |= bit;
		nib[1][c >> 4] |= bit;
		nib[0][other & 15] |= bit;
		nib[1][other >> 4] |= bit;
	}
}

void gm_needles_portable(struct gm_needles *n)
{
	n->portable = true;
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
	needles_group(n, (const unsigned char *)s, caseless);
	h = needle_hash(needle_key((const unsigned char *)s));
	nd->next = n->head[h];
	n->head[h] = (uint32_t)++n->nr;
	n->filter[h >> 6] |= (uint64_t)1 << (h & 63);
	return 0;
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

/* The window at text[pos..]: through the filter to its bucket. */
static inline void needles_window(const struct gm_needles *n, const char *text,
				  size_t len, size_t pos, unsigned char *found)
{
	uint32_t h = needle_hash(needle_key((const unsigned char *)text + pos));

	if (needles_maybe(n, h))
		needles_check(n, h, text, len, pos, found);
}

#ifdef NEEDLES_SSSE3
/*
 * The groups of both sets that allow the bytes `x` as byte k of their
 * windows, ANDed into a and b.
 */
#define NEEDLES_ALLOW(k, x) do {					\
	__m128i l_ = _mm_and_si128(x, nib);				\
	__m128i h_ = _mm_and_si128(_mm_srli_epi16(x, 4), nib);		\
	a = _mm_and_si128(a, _mm_and_si128(_mm_shuffle_epi8(lo[0][k], l_), \
					   _mm_shuffle_epi8(hi[0][k], h_))); \
	b = _mm_and_si128(b, _mm_and_si128(_mm_shuffle_epi8(lo[1][k], l_), \
					   _mm_shuffle_epi8(hi[1][k], h_))); \
} while (0)

_Static_assert(GM_NEEDLE_MIN == 3, "the SSSE3 scan allows three bytes");

/* The windows of text[0..len), 16 at a time; @return where it stopped. */
__attribute__((target("ssse3")))
static size_t needles_scan_ssse3(const struct gm_needles *n, const char *text,
				 size_t len, unsigned char *found)
{
	const __m128i nib = _mm_set1_epi8(0x0f), zero = _mm_setzero_si128();
	__m128i lo[2][GM_NEEDLE_MIN], hi[2][GM_NEEDLE_MIN];
	size_t i = 0;

	for (int s = 0; s < 2; s++)
		for (int k = 0; k < GM_NEEDLE_MIN; k++) {
			lo[s][k] = _mm_loadu_si128(
				(const __m128i *)n->nibble[s][k][0]);
			hi[s][k] = _mm_loadu_si128(
				(const __m128i *)n->nibble[s][k][1]);
		}
	for (; i + 16 + GM_NEEDLE_MIN - 1 <= len; i += 16) {
		const char *p = text + i;
		__m128i a = _mm_set1_epi8(-1), b = a;
		unsigned hits;

		NEEDLES_ALLOW(0, _mm_loadu_si128((const __m128i *)p));
		NEEDLES_ALLOW(1, _mm_loadu_si128((const __m128i *)(p + 1)));
		NEEDLES_ALLOW(2, _mm_loadu_si128((const __m128i *)(p + 2)));
		hits = ~(unsigned)_mm_movemask_epi8(
			       _mm_cmpeq_epi8(_mm_or_si128(a, b), zero)) &
		       0xffffu;
		for (; hits; hits &= hits - 1)
			needles_window(n, text, len,
				       i + (size_t)__builtin_ctz(hits), found);
	}
	return i;
}

static bool needles_have_ssse3(void)
{
	return __builtin_cpu_supports("ssse3");
}
#else
static size_t needles_scan_ssse3(const struct gm_needles *n, const char *text,
				 size_t len, unsigned char *found)
{
	(void)n, (void)text, (void)len, (void)found;
	return 0;
}

static bool needles_have_ssse3(void)
{
	return false;
}
#endif

void gm_needles_scan(const struct gm_needles *n, const char *text, size_t len,
		     unsigned char *found)
{
	size_t i = 0;

	if (!n->nr)
		return;
	if (!n->portable && needles_have_ssse3())
		i = needles_scan_ssse3(n, text, len, found);
	for (; i + GM_NEEDLE_MIN <= len; i++)
		needles_window(n, text, len, i, found);
}
