#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#endif

#include "gm/sha1.h"

#include "gm_tests.h"
#include "gm_testutil.h"

static void hex(const unsigned char *md, char out[2 * GM_SHA1_SIZE + 1])
{
	for (int i = 0; i < GM_SHA1_SIZE; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
}

static void digest(const void *data, size_t len, bool portable,
		   char out[2 * GM_SHA1_SIZE + 1])
{
	unsigned char md[GM_SHA1_SIZE];
	struct gm_sha1 s;

	gm_sha1_init(&s, portable);
	gm_sha1_update(&s, data, len);
	gm_sha1_final(&s, md);
	hex(md, out);
}

/* FIPS 180-2 appendix A, and the empty message. */
static const struct {
	const char *text;
	const char *want;
} vectors[] = {
	{ "", "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
	{ "abc", "a9993e364706816aba3e25717850c26c9cd0d89d" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
};

START_TEST(test_sha1_vectors)
{
	char got[2 * GM_SHA1_SIZE + 1];

	for (int portable = 0; portable < 2; portable++) {
		digest(vectors[_i].text, strlen(vectors[_i].text),
		       portable, got);
		ck_assert_str_eq(got, vectors[_i].want);
	}
}
END_TEST

/* FIPS 180-2 A.3: a million 'a', fed in pieces that cross blocks. */
START_TEST(test_sha1_million_a)
{
	static const size_t pieces[] = { 1, 63, 64, 65, 1000, 4093 };
	char a[4093], got[2 * GM_SHA1_SIZE + 1];
	unsigned char md[GM_SHA1_SIZE];

	memset(a, 'a', sizeof(a));
	for (int portable = 0; portable < 2; portable++) {
		struct gm_sha1 s;
		size_t done = 0;

		gm_sha1_init(&s, portable);
		for (size_t i = 0; done < 1000000; i++) {
			size_t n = pieces[i % ARRAY_SIZE(pieces)];

			if (n > 1000000 - done)
				n = 1000000 - done;
			gm_sha1_update(&s, a, n);
			done += n;
		}
		gm_sha1_final(&s, md);
		hex(md, got);
		ck_assert_str_eq(got, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
	}
}
END_TEST

/* Whether sha1.c has rounds of the CPU's here (as it asks the CPU). */
static bool cpu_has_sha_ni(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	unsigned int a, b, c, d;

	return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) &&
	       (c & bit_SSE4_1) && __get_cpuid_count(7, 0, &a, &b, &c, &d) &&
	       (b & bit_SHA);
#else
	return false;
#endif
}

/* The CPU's rounds and the C rounds agree, at every length near blocks. */
START_TEST(test_sha1_both_rounds_agree)
{
	unsigned char data[1100];
	char fast[2 * GM_SHA1_SIZE + 1], slow[2 * GM_SHA1_SIZE + 1];

	if (!cpu_has_sha_ni()) {
		/* the "fast" rounds would be the C ones: compared with themselves */
		gm_test_skip("sha1: no SHA-NI rounds on this CPU to compare");
		return;
	}
	srand(7);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)rand();
	for (size_t len = 0; len <= sizeof(data); len++) {
		digest(data, len, false, fast);
		digest(data, len, true, slow);
		ck_assert_msg(!strcmp(fast, slow), "length %zu: %s vs %s",
			      len, fast, slow);
	}
}
END_TEST

/* Ids as `git hash-object` gives them. */
START_TEST(test_sha1_blob_ids)
{
	unsigned char md[GM_SHA1_SIZE];
	char got[2 * GM_SHA1_SIZE + 1];

	gm_sha1_blob("", 0, md);
	hex(md, got);
	ck_assert_str_eq(got, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
	gm_sha1_blob("hello\n", 6, md);
	hex(md, got);
	ck_assert_str_eq(got, "ce013625030ba8dba906f756967f9e9ca394464a");
}
END_TEST

Suite *sha1_suite(void)
{
	Suite *s = suite_create("sha1");
	TCase *tc = tcase_create("sha1");

	tcase_add_loop_test(tc, test_sha1_vectors, 0, (int)ARRAY_SIZE(vectors));
	tcase_add_test(tc, test_sha1_million_a);
	tcase_add_test(tc, test_sha1_both_rounds_agree);
	tcase_add_test(tc, test_sha1_blob_ids);
	suite_add_tcase(s, tc);
	return s;
}
