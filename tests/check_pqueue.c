#include <check.h>
#include <stdint.h>
#include <string.h>

#include "gm/pqueue.h"

#include "gm_tests.h"

/* An item as the walks queue them: a key and the order it came in. */
struct titem {
	int64_t key;
	uint64_t seq;
	char pad[40];	/* items larger than a word, copied whole */
};

static bool titem_before(const void *x, const void *y)
{
	const struct titem *a = x, *b = y;

	return a->key != b->key ? a->key > b->key : a->seq < b->seq;
}

/*
 * Pushes and pops in random turns, keys from a small range (many equal):
 * each pop is the largest key left, of equal keys the first pushed, as a
 * scan of a copy says; the padding comes back intact.
 */
START_TEST(test_pqueue_order_with_ties)
{
	enum { N = 5000 };
	static struct titem ref[N];
	struct gm_pqueue q;
	struct titem it;
	size_t nref = 0, best;
	uint64_t seq = 0;
	unsigned seed = 7;

	gm_pqueue_init(&q, sizeof(struct titem), titem_before);
	for (int round = 0; round < 4 * N; round++) {
		seed = seed * 1103515245u + 12345u;
		if ((seed >> 16) % 3 && nref < N) {
			it = (struct titem){ (int64_t)((seed >> 8) % 50), seq++,
					     { 0 } };
			memset(it.pad, (int)(it.seq & 0x7f), sizeof(it.pad));
			ck_assert_int_eq(gm_pqueue_push(&q, &it), 0);
			ref[nref++] = it;
			continue;
		}
		if (!nref) {
			ck_assert(!gm_pqueue_pop(&q, &it));
			continue;
		}
		best = 0;
		for (size_t i = 1; i < nref; i++)
			if (titem_before(&ref[i], &ref[best]))
				best = i;
		ck_assert(gm_pqueue_pop(&q, &it));
		ck_assert_int_eq(it.key, ref[best].key);
		ck_assert_uint_eq(it.seq, ref[best].seq);
		for (size_t i = 0; i < sizeof(it.pad); i++)
			ck_assert_int_eq(it.pad[i], (int)(it.seq & 0x7f));
		ref[best] = ref[--nref];
		ck_assert_uint_eq(q.nr, nref);
	}
	for (size_t i = 0; i < q.nr; i++)	/* what is left is all there */
		ck_assert_ptr_nonnull(gm_pqueue_at(&q, i));
	gm_pqueue_release(&q);
	ck_assert_uint_eq(q.nr, 0);
	ck_assert(!gm_pqueue_pop(&q, &it));
}
END_TEST

Suite *pqueue_suite(void)
{
	Suite *s = suite_create("pqueue");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_pqueue_order_with_ties);
	suite_add_tcase(s, tc);
	return s;
}
