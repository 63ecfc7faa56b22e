#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gm/strmap.h"

#include "gm_tests.h"
#include "gm_testutil.h"

START_TEST(test_strmap_put_get)
{
	struct gm_strmap m = GM_STRMAP_INIT;
	int one = 1, two = 2;
	void *v = NULL;

	ck_assert(!gm_strmap_get(&m, "a", 1, &v));
	ck_assert_int_eq(gm_strmap_put(&m, "alpha", 5, &one), 0);
	ck_assert_int_eq(gm_strmap_put(&m, "beta", 4, &two), 0);
	ck_assert_uint_eq(m.nr, 2);
	ck_assert(gm_strmap_get(&m, "alpha", 5, &v));
	ck_assert_ptr_eq(v, &one);
	ck_assert(gm_strmap_get(&m, "beta", 4, &v));
	ck_assert_ptr_eq(v, &two);
	ck_assert(gm_strmap_get(&m, "beta", 4, NULL));
	ck_assert(!gm_strmap_get(&m, "gamma", 5, NULL));
	ck_assert(!gm_strmap_get(&m, "Alpha", 5, NULL));
	gm_strmap_release(&m);
}
END_TEST

START_TEST(test_strmap_replace_keeps_one_key)
{
	struct gm_strmap m = GM_STRMAP_INIT;
	int one = 1, two = 2;
	void *v = NULL;

	gm_strmap_put(&m, "key", 3, &one);
	ck_assert_int_eq(gm_strmap_put(&m, "key", 3, &two), 0);
	ck_assert_uint_eq(m.nr, 1);
	ck_assert(gm_strmap_get(&m, "key", 3, &v));
	ck_assert_ptr_eq(v, &two);
	ck_assert_int_eq(gm_strmap_put(&m, "key", 3, NULL), 0);
	ck_assert(gm_strmap_get(&m, "key", 3, &v));
	ck_assert_ptr_null(v);
	gm_strmap_release(&m);
}
END_TEST

START_TEST(test_strmap_keys_are_length_bounded)
{
	struct gm_strmap m = GM_STRMAP_INIT;

	gm_strmap_put(&m, "abcdef", 3, NULL);
	ck_assert(gm_strmap_get(&m, "abc", 3, NULL));
	ck_assert(gm_strmap_get(&m, "abcXYZ", 3, NULL));
	ck_assert(!gm_strmap_get(&m, "abcd", 4, NULL));
	ck_assert(!gm_strmap_get(&m, "ab", 2, NULL));
	ck_assert_uint_eq(m.nr, 1);
	gm_strmap_release(&m);
}
END_TEST

START_TEST(test_strmap_prefix_keys_are_distinct)
{
	struct gm_strmap m = GM_STRMAP_INIT;
	int v1 = 1, v2 = 2, v3 = 3, v0 = 0;
	void *v = NULL;

	gm_strmap_put(&m, "a", 1, &v1);
	gm_strmap_put(&m, "aa", 2, &v2);
	gm_strmap_put(&m, "aaa", 3, &v3);
	gm_strmap_put(&m, "", 0, &v0);
	ck_assert_uint_eq(m.nr, 4);
	ck_assert(gm_strmap_get(&m, "aa", 2, &v));
	ck_assert_ptr_eq(v, &v2);
	ck_assert(gm_strmap_get(&m, "", 0, &v));
	ck_assert_ptr_eq(v, &v0);
	ck_assert(gm_strmap_get(&m, "aaa", 3, &v));
	ck_assert_ptr_eq(v, &v3);
	gm_strmap_release(&m);
}
END_TEST

START_TEST(test_strmap_many_keys)
{
	struct gm_strmap m = GM_STRMAP_INIT;
	char key[32];
	void *v = NULL;
	size_t i;

	ck_assert_int_eq(gm_strmap_put(&m, "", 0, &m), 0);	/* kept through growth */
	for (i = 0; i < 20000; i++) {
		/* lengths 4-24: the hash's tail bytes and whole words */
		snprintf(key, sizeof(key), "key%zu%.*s", i, (int)(i % 16),
			 "ABCDEFGHIJKLMNOP");
		ck_assert_int_eq(gm_strmap_put(&m, key, strlen(key),
					       (void *)(uintptr_t)(i + 1)), 0);
	}
	ck_assert_uint_eq(m.nr, 20001);
	ck_assert(gm_strmap_get(&m, "", 0, &v));
	ck_assert_ptr_eq(v, &m);
	ck_assert_uint_eq(m.alloc & (m.alloc - 1), 0);	/* a power of two */
	ck_assert_uint_gt(m.alloc, m.nr);
	for (i = 0; i < 20000; i++) {
		snprintf(key, sizeof(key), "key%zu%.*s", i, (int)(i % 16),
			 "ABCDEFGHIJKLMNOP");
		ck_assert(gm_strmap_get(&m, key, strlen(key), &v));
		ck_assert_ptr_eq(v, (void *)(uintptr_t)(i + 1));
	}
	ck_assert(!gm_strmap_get(&m, "key20000", 8, NULL));
	ck_assert(!gm_strmap_get(&m, "key1A", 4, NULL));	/* "key1" */
	gm_strmap_release(&m);
}
END_TEST

START_TEST(test_strmap_release_is_reusable)
{
	struct gm_strmap m = GM_STRMAP_INIT;

	gm_strmap_put(&m, "x", 1, NULL);
	gm_strmap_release(&m);
	ck_assert_uint_eq(m.nr, 0);
	ck_assert_uint_eq(m.alloc, 0);
	ck_assert(!gm_strmap_get(&m, "x", 1, NULL));
	gm_strmap_put(&m, "y", 1, NULL);
	ck_assert(gm_strmap_get(&m, "y", 1, NULL));
	gm_strmap_release(&m);
	gm_strmap_release(&m);
}
END_TEST

static size_t values_freed;

static void count_free(void *v)
{
	values_freed += (uintptr_t)v;
}

/* Each value present is given to the function once; the map is empty. */
START_TEST(test_strmap_release_values)
{
	struct gm_strmap m = GM_STRMAP_INIT;

	for (uintptr_t i = 1; i <= 40; i++) {
		char key[16];

		snprintf(key, sizeof(key), "k%u", (unsigned)i);
		ck_assert_int_eq(gm_strmap_put(&m, key, strlen(key),
					       (void *)i), 0);
	}
	ck_assert_int_eq(gm_strmap_put(&m, "k1", 2, (void *)(uintptr_t)100),
			 0);	/* replaces 1 */
	values_freed = 0;
	gm_strmap_release_values(&m, count_free);
	ck_assert_uint_eq(values_freed, 40 * 41 / 2 - 1 + 100);
	ck_assert_uint_eq(m.alloc, 0);
	ck_assert(!gm_strmap_get(&m, "k2", 2, NULL));
}
END_TEST

Suite *strmap_suite(void)
{
	Suite *s = suite_create("strmap");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_strmap_put_get);
	tcase_add_test(tc, test_strmap_replace_keeps_one_key);
	tcase_add_test(tc, test_strmap_keys_are_length_bounded);
	tcase_add_test(tc, test_strmap_prefix_keys_are_distinct);
	tcase_add_test(tc, test_strmap_many_keys);
	tcase_add_test(tc, test_strmap_release_is_reusable);
	tcase_add_test(tc, test_strmap_release_values);
	suite_add_tcase(s, tc);
	return s;
}
