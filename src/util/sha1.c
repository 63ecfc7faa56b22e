#include "gm/sha1.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static const uint32_t sha1_init_state[5] = {
	0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0
};

static inline uint32_t rol32(uint32_t x, int n)
{
	return x << n | x >> (32 - n);
}

static inline uint32_t load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* FIPS 180-4 section 6.1.2, on `n` blocks of 64 bytes. */
static void sha1_blocks_c(uint32_t h[5], const unsigned char *p, size_t n)
{
	for (; n; n--, p += 64) {
		uint32_t w[80], a = h[0], b = h[1], c = h[2], d = h[3];
		uint32_t e = h[4];

		for (int t = 0; t < 16; t++)
			w[t] = load_be32(p + 4 * t);
		for (int t = 16; t < 80; t++)
			w[t] = rol32(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16],
				     1);
		for (int t = 0; t < 80; t++) {
			uint32_t f, k, tmp;

			if (t < 20) {
				f = (b & c) | (~b & d);
				k = 0x5a827999;
			} else if (t < 40) {
				f = b ^ c ^ d;
				k = 0x6ed9eba1;
			} else if (t < 60) {
				f = (b & c) | (b & d) | (c & d);
				k = 0x8f1bbcdc;
			} else {
				f = b ^ c ^ d;
				k = 0xca62c1d6;
			}
			tmp = rol32(a, 5) + f + e + k + w[t];
			e = d;
			d = c;
			c = rol32(b, 30);
			b = a;
			a = tmp;
		}
		h[0] += a;
		h[1] += b;
		h[2] += c;
		h[3] += d;
		h[4] += e;
	}
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>

#define SHA1_NI_TARGET __attribute__((target("sha,ssse3,sse4.1")))

static bool sha1_cpu_has_ni(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) ||
	    !(c & bit_SSSE3) || !(c & bit_SSE4_1))
		return false;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
}

/*
 * The message words of four rounds as one vector, the first in the top
 * lane; group g >= 4 from the four before it (the recurrence w[t] =
 * rol1(w[t-3] ^ w[t-8] ^ w[t-14] ^ w[t-16]), four words at a time).
 */
#define SHA1_NI_SCHEDULE(w, g)						\
	((w)[(g) & 3] = _mm_sha1msg2_epu32(				\
		_mm_xor_si128(_mm_sha1msg1_epu32((w)[(g) & 3],		\
						 (w)[((g) + 1) & 3]),	\
			      (w)[((g) + 2) & 3]),			\
		(w)[((g) + 3) & 3]))

/*
 * Rounds 4g..4g+3 with the round function `f` (0-3, a constant): E is
 * made from A four rounds back, `prev`, plus the words.
 */
#define SHA1_NI_GROUP(f, g) do {					\
	if ((g) >= 4)							\
		SHA1_NI_SCHEDULE(w, g);					\
	e = _mm_sha1nexte_epu32(prev, w[(g) & 3]);			\
	prev = abcd;							\
	abcd = _mm_sha1rnds4_epu32(abcd, e, f);				\
} while (0)

SHA1_NI_TARGET
static void sha1_blocks_ni(uint32_t h[5], const unsigned char *p, size_t n)
{
	/* big-endian words, the first in the top lane */
	const __m128i order = _mm_set_epi64x(0x0001020304050607LL,
					     0x08090a0b0c0d0e0fLL);
	__m128i abcd = _mm_set_epi32((int)h[0], (int)h[1], (int)h[2],
				     (int)h[3]);
	__m128i e0 = _mm_set_epi32((int)h[4], 0, 0, 0);

	for (; n; n--, p += 64) {
		__m128i abcd_in = abcd, e0_in = e0, w[4], prev, e;
		int g;

		for (int i = 0; i < 4; i++)
			w[i] = _mm_shuffle_epi8(
				_mm_loadu_si128((const __m128i *)(p + 16 * i)),
				order);
		prev = abcd;
		abcd = _mm_sha1rnds4_epu32(abcd, _mm_add_epi32(e0, w[0]), 0);
		for (g = 1; g < 5; g++)
			SHA1_NI_GROUP(0, g);
		for (; g < 10; g++)
			SHA1_NI_GROUP(1, g);
		for (; g < 15; g++)
			SHA1_NI_GROUP(2, g);
		for (; g < 20; g++)
			SHA1_NI_GROUP(3, g);
		e0 = _mm_sha1nexte_epu32(prev, e0_in);
		abcd = _mm_add_epi32(abcd, abcd_in);
	}
	h[0] = (uint32_t)_mm_extract_epi32(abcd, 3);
	h[1] = (uint32_t)_mm_extract_epi32(abcd, 2);
	h[2] = (uint32_t)_mm_extract_epi32(abcd, 1);
	h[3] = (uint32_t)_mm_extract_epi32(abcd, 0);
	h[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}
#else
static bool sha1_cpu_has_ni(void)
{
	return false;
}

static void sha1_blocks_ni(uint32_t h[5], const unsigned char *p, size_t n)
{
	sha1_blocks_c(h, p, n);
}
#endif

/* Whether the CPU's SHA instructions are used, asked once. */
static bool sha1_fast(void)
{
	static atomic_int known;	/* 0 not yet asked, 1 no, 2 yes */
	int v = atomic_load_explicit(&known, memory_order_relaxed);

	if (!v) {
		v = sha1_cpu_has_ni() ? 2 : 1;
		atomic_store_explicit(&known, v, memory_order_relaxed);
	}
	return v == 2;
}

static void sha1_blocks(struct gm_sha1 *s, const unsigned char *p, size_t n)
{
	if (s->portable)
		sha1_blocks_c(s->h, p, n);
	else
		sha1_blocks_ni(s->h, p, n);
}

void gm_sha1_init(struct gm_sha1 *s, bool portable)
{
	memcpy(s->h, sha1_init_state, sizeof(s->h));
	s->len = 0;
	s->portable = portable || !sha1_fast();
}

void gm_sha1_update(struct gm_sha1 *s, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t used = (size_t)(s->len % 64);

	s->len += len;
	if (used) {
		size_t take = 64 - used < len ? 64 - used : len;

		memcpy(s->block + used, p, take);
		p += take;
		len -= take;
		if (used + take < 64)
			return;
		sha1_blocks(s, s->block, 1);
	}
	if (len >= 64)
		sha1_blocks(s, p, len / 64);
	memcpy(s->block, p + len / 64 * 64, len % 64);
}

void gm_sha1_final(struct gm_sha1 *s, unsigned char out[GM_SHA1_SIZE])
{
	unsigned char pad[72] = { 0x80 };
	uint64_t bits = s->len * 8;
	size_t used = (size_t)(s->len % 64);
	size_t n = (used < 56 ? 56 : 120) - used;

	for (int i = 0; i < 8; i++)
		pad[n + i] = (unsigned char)(bits >> (56 - 8 * i));
	gm_sha1_update(s, pad, n + 8);
	for (int i = 0; i < 5; i++) {
		out[4 * i] = (unsigned char)(s->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)s->h[i];
	}
}

void gm_sha1_blob(const void *data, size_t len,
		  unsigned char out[GM_SHA1_SIZE])
{
	struct gm_sha1 s;
	char header[32];
	int n = snprintf(header, sizeof(header), "blob %zu", len);

	gm_sha1_init(&s, false);
	gm_sha1_update(&s, header, (size_t)n + 1);
	gm_sha1_update(&s, data, len);
	gm_sha1_final(&s, out);
}
