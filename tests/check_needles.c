/* memmem() is a GNU and BSD extension, in every libc we build with. */
#define _GNU_SOURCE

#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/needles.h"

#include "gm_tests.h"
#include "gm_testutil.h"

static struct gm_needles *needles_of(const char *const *lits, size_t n,
				     bool caseless)
{
	struct gm_needles *nd;

	ck_assert_int_eq(gm_needles_new(&nd), 0);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(gm_needles_add(nd, lits[i], strlen(lits[i]),
						caseless, i), 0);
	return nd;
}

START_TEST(test_needles_finds_each_literal)
{
	static const char *const lits[] = { "zstd", "riscv", "bpf", "_MT_" };
	struct gm_needles *nd = needles_of(lits, 4, false);
	unsigned char found[4] = { 0 };
	const char *text = "if (ABS_MT_X) bpf_prog(); /* not RISCV */";

	ck_assert_uint_eq(gm_needles_owners(nd), 4);
	gm_needles_scan(nd, text, strlen(text), found);
	ck_assert_int_eq(found[0], 0);
	ck_assert_int_eq(found[1], 0);	/* case matters */
	ck_assert_int_eq(found[2], 1);
	ck_assert_int_eq(found[3], 1);
	gm_needles_free(nd);
}
END_TEST

START_TEST(test_needles_caseless)
{
	static const char *const lits[] = { "clang", "LLVM" };
	struct gm_needles *nd = needles_of(lits, 2, true);
	unsigned char found[2] = { 0 };

	gm_needles_scan(nd, "Clang and llvm", 14, found);
	ck_assert_int_eq(found[0], 1);
	ck_assert_int_eq(found[1], 1);
	gm_needles_free(nd);
}
END_TEST

START_TEST(test_needles_edges_of_the_text)
{
	static const char *const lits[] = { "abc", "xyz1" };
	struct gm_needles *nd = needles_of(lits, 2, false);
	unsigned char found[2] = { 0 };

	gm_needles_scan(nd, "abc--xyz1", 9, found);
	ck_assert_int_eq(found[0], 1);
	ck_assert_int_eq(found[1], 1);
	memset(found, 0, sizeof(found));
	gm_needles_scan(nd, "ab", 2, found);		/* shorter than any */
	gm_needles_scan(nd, "--xyz", 5, found);	/* a literal cut short */
	ck_assert_int_eq(found[0], 0);
	ck_assert_int_eq(found[1], 0);
	gm_needles_free(nd);
}
END_TEST

START_TEST(test_needles_owners_share)
{
	struct gm_needles *nd;
	unsigned char found[3] = { 0, 0, 7 };

	ck_assert_int_eq(gm_needles_new(&nd), 0);
	ck_assert_int_eq(gm_needles_add(nd, "pstore", 6, false, 1), 0);
	ck_assert_int_eq(gm_needles_add(nd, "ramoops", 7, false, 1), 0);
	ck_assert_int_eq(gm_needles_add(nd, "ab", 2, false, 0), GM_EINVALID);
	ck_assert_uint_eq(gm_needles_owners(nd), 2);
	gm_needles_scan(nd, "a ramoops area", 14, found);
	ck_assert_int_eq(found[0], 0);
	ck_assert_int_eq(found[1], 1);
	ck_assert_int_eq(found[2], 7);	/* other bytes left alone */
	gm_needles_free(nd);
}
END_TEST

/* Against memmem() on a pseudo-random text over a small alphabet, where
 * literals and their hash buckets collide often. */
START_TEST(test_needles_agree_with_memmem)
{
	enum { NLIT = 200, TEXT = 20000 };
	struct gm_buf lit[NLIT];
	char *text = malloc(TEXT);
	unsigned char found[NLIT] = { 0 };
	struct gm_needles *nd;
	unsigned seed = 12345;

	ck_assert_ptr_nonnull(text);
	for (size_t i = 0; i < TEXT; i++) {
		seed = seed * 1103515245u + 12345u;
		text[i] = "abcdE_"[(seed >> 16) % 6];
	}
	ck_assert_int_eq(gm_needles_new(&nd), 0);
	for (size_t i = 0; i < NLIT; i++) {
		gm_buf_init(&lit[i]);
		for (size_t k = 0; k < 3 + i % 6; k++) {
			seed = seed * 1103515245u + 12345u;
			gm_buf_putc(&lit[i], "abcdE_"[(seed >> 16) % 6]);
		}
		ck_assert_int_eq(gm_needles_add(nd, lit[i].ptr, lit[i].len,
						false, i), 0);
	}
	gm_needles_scan(nd, text, TEXT, found);
	for (size_t i = 0; i < NLIT; i++) {
		bool want = memmem(text, TEXT, lit[i].ptr, lit[i].len) != NULL;

		ck_assert_msg(found[i] == want, "literal %zu \"%s\"", i,
			      lit[i].ptr);
		gm_buf_release(&lit[i]);
	}
	gm_needles_free(nd);
	free(text);
}
END_TEST

Suite *needles_suite(void)
{
	Suite *s = suite_create("needles");
	TCase *tc = tcase_create("scan");

	tcase_add_test(tc, test_needles_finds_each_literal);
	tcase_add_test(tc, test_needles_caseless);
	tcase_add_test(tc, test_needles_edges_of_the_text);
	tcase_add_test(tc, test_needles_owners_share);
	tcase_add_test(tc, test_needles_agree_with_memmem);
	suite_add_tcase(s, tc);
	return s;
}
