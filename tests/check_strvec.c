#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/strvec.h"

#include "gm_tests.h"
#include "gm_testutil.h"

START_TEST(test_strvec_push_copies_and_terminates)
{
	struct gm_strvec sv = GM_STRVEC_INIT;
	char s[] = "first";

	ck_assert_int_eq(gm_strvec_push(&sv, s), 0);
	s[0] = 'X';	/* the vector holds its own copy */
	ck_assert_int_eq(gm_strvec_pushn(&sv, "second-and-more", 6), 0);
	ck_assert_uint_eq(sv.nr, 2);
	ck_assert_str_eq(sv.v[0], "first");
	ck_assert_str_eq(sv.v[1], "second");
	ck_assert_ptr_null(sv.v[2]);
	gm_strvec_release(&sv);
}
END_TEST

/* gm_strvec_pushf() keeps the whole output, however long. */
START_TEST(test_strvec_pushf_whole)
{
	struct gm_strvec sv = GM_STRVEC_INIT;
	char *big = malloc(3001);

	ck_assert_ptr_nonnull(big);
	memset(big, 'v', 3000);
	big[3000] = '\0';
	ck_assert_int_eq(gm_strvec_pushf(&sv, "%s: %s!", "key", big), 0);
	ck_assert_uint_eq(sv.nr, 1);
	ck_assert_uint_eq(strlen(sv.v[0]), 3006);
	ck_assert_int_eq(memcmp(sv.v[0], "key: vvv", 8), 0);
	ck_assert_str_eq(sv.v[0] + 3005, "!");
	ck_assert_ptr_null(sv.v[1]);
	gm_strvec_release(&sv);
	free(big);
}
END_TEST

START_TEST(test_strvec_grows_to_many)
{
	struct gm_strvec sv = GM_STRVEC_INIT;
	char s[32];
	size_t i;

	for (i = 0; i < 1000; i++) {
		snprintf(s, sizeof(s), "item-%zu", i);
		ck_assert_int_eq(gm_strvec_push(&sv, s), 0);
	}
	ck_assert_uint_eq(sv.nr, 1000);
	ck_assert_uint_gt(sv.alloc, 1000);
	ck_assert_ptr_null(sv.v[1000]);
	for (i = 0; i < 1000; i++) {
		snprintf(s, sizeof(s), "item-%zu", i);
		ck_assert_str_eq(sv.v[i], s);
	}
	gm_strvec_release(&sv);
}
END_TEST

START_TEST(test_strvec_sort_uniq_byte_order)
{
	static const char *const in[] = {
		"b", "a/b", "a", "A", "a.c", "b", "a", "", "a/b",
	};
	static const char *const want[] = { "", "A", "a", "a.c", "a/b", "b" };
	struct gm_strvec sv = GM_STRVEC_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(in); i++)
		gm_strvec_push(&sv, in[i]);
	gm_strvec_sort_uniq(&sv);
	ck_assert_uint_eq(sv.nr, ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++)
		ck_assert_str_eq(sv.v[i], want[i]);
	ck_assert_ptr_null(sv.v[sv.nr]);
	gm_strvec_release(&sv);
}
END_TEST

START_TEST(test_strvec_sort_uniq_small)
{
	struct gm_strvec sv = GM_STRVEC_INIT;

	gm_strvec_sort_uniq(&sv);
	ck_assert_uint_eq(sv.nr, 0);
	gm_strvec_push(&sv, "only");
	gm_strvec_sort_uniq(&sv);
	ck_assert_uint_eq(sv.nr, 1);
	ck_assert_str_eq(sv.v[0], "only");
	gm_strvec_push(&sv, "only");
	gm_strvec_sort_uniq(&sv);
	ck_assert_uint_eq(sv.nr, 1);
	ck_assert_ptr_null(sv.v[1]);
	gm_strvec_release(&sv);
}
END_TEST

START_TEST(test_strvec_contains_exact)
{
	struct gm_strvec sv = GM_STRVEC_INIT;

	ck_assert(!gm_strvec_contains(&sv, "x"));
	gm_strvec_push(&sv, "Alice <a@x>");
	gm_strvec_push(&sv, "b@y");
	ck_assert(gm_strvec_contains(&sv, "b@y"));
	ck_assert(gm_strvec_contains(&sv, "Alice <a@x>"));
	ck_assert(!gm_strvec_contains(&sv, "alice <a@x>"));
	ck_assert(!gm_strvec_contains(&sv, "b@"));
	gm_strvec_release(&sv);
}
END_TEST

START_TEST(test_strvec_release_is_reusable)
{
	struct gm_strvec sv = GM_STRVEC_INIT;

	gm_strvec_push(&sv, "a");
	gm_strvec_release(&sv);
	ck_assert_uint_eq(sv.nr, 0);
	ck_assert_ptr_null(sv.v);
	gm_strvec_push(&sv, "b");
	ck_assert_str_eq(sv.v[0], "b");
	gm_strvec_release(&sv);
	gm_strvec_release(&sv);
}
END_TEST

Suite *strvec_suite(void)
{
	Suite *s = suite_create("strvec");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_strvec_push_copies_and_terminates);
	tcase_add_test(tc, test_strvec_pushf_whole);
	tcase_add_test(tc, test_strvec_grows_to_many);
	tcase_add_test(tc, test_strvec_sort_uniq_byte_order);
	tcase_add_test(tc, test_strvec_sort_uniq_small);
	tcase_add_test(tc, test_strvec_contains_exact);
	tcase_add_test(tc, test_strvec_release_is_reusable);
	suite_add_tcase(s, tc);
	return s;
}
