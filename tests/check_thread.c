#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gm/error.h"
#include "gm/thread.h"

#include "gm_tests.h"
#include "gm_testutil.h"

struct probe {
	struct gm_job job;
	int error;		/* what the job reports */
	int ran;
	pthread_t self;
};

static void *probe_fn(void *payload)
{
	struct probe *p = payload;

	p->ran++;
	p->self = pthread_self();
	if (p->error)
		gm_error_set(p->error, "job failed: code %d", p->error);
	gm_job_done(&p->job, p->error);
	return NULL;
}

START_TEST(test_job_runs_in_another_thread)
{
	struct probe p;

	memset(&p, 0, sizeof(p));
	ck_assert(gm_job_start(&p.job, probe_fn, &p));
	ck_assert(p.job.running);
	ck_assert_int_eq(gm_job_join(&p.job), 0);
	ck_assert(!p.job.running);
	ck_assert_int_eq(p.ran, 1);
	ck_assert(!pthread_equal(p.self, pthread_self()));
}
END_TEST

/* The job's message is its thread's; wait and join make it the caller's. */
START_TEST(test_job_error_reaches_the_caller)
{
	struct probe p;

	memset(&p, 0, sizeof(p));
	p.error = GM_EINVALID;
	gm_error_set(GM_ERROR, "before");
	ck_assert(gm_job_start(&p.job, probe_fn, &p));
	ck_assert_int_eq(gm_job_wait(&p.job), GM_EINVALID);
	ck_assert(p.job.waited);
	ck_assert_str_eq(gm_error_last(), "job failed: code -4");
	gm_error_set(GM_ERROR, "between");
	ck_assert_int_eq(gm_job_join(&p.job), GM_EINVALID);
	ck_assert_str_eq(gm_error_last(), "job failed: code -4");
	/* joined once: a second join is a no-op */
	gm_error_set(GM_ERROR, "after");
	ck_assert_int_eq(gm_job_join(&p.job), 0);
	ck_assert_str_eq(gm_error_last(), "after");
}
END_TEST

START_TEST(test_job_not_started_is_a_no_op)
{
	struct gm_job j;

	memset(&j, 0, sizeof(j));
	ck_assert_int_eq(gm_job_wait(&j), 0);
	ck_assert_int_eq(gm_job_join(&j), 0);
}
END_TEST

/* A side of a split: the items it took, in order, and how many at once. */
struct taker {
	struct gm_split *split;
	bool back;
	unsigned char *taken;	/* per item: how often taken */
	size_t *order, nr;	/* the items as taken */
	struct gm_job job;
};

static void take_all(struct taker *t)
{
	size_t from, to;

	while (gm_split_take(t->split, t->back, &from, &to)) {
		ck_assert_uint_lt(from, to);
		ck_assert_uint_le(to - from, t->split->step);
		for (size_t i = from; i < to; i++) {
			t->taken[i]++;
			t->order[t->nr++] = i;
		}
	}
}

static void *taker_fn(void *arg)
{
	struct taker *t = arg;

	take_all(t);
	gm_job_done(&t->job, 0);
	return NULL;
}

/*
 * Two threads sharing items from both ends: each item taken once, the
 * front's in ascending order from 0, the back's the rest, from n - 1 down
 * to where the front stopped.
 */
START_TEST(test_split_shares_every_item_once)
{
	static const size_t sizes[] = { 0, 1, 2, 7, 64, 5003 };
	static const size_t steps[] = { 1, 3, 16 };

	for (size_t a = 0; a < sizeof(sizes) / sizeof(*sizes); a++) {
		for (size_t b = 0; b < sizeof(steps) / sizeof(*steps); b++) {
			size_t n = sizes[a];
			struct gm_split split;
			unsigned char *taken = calloc(n + 1, 1);
			struct taker front = {
				.split = &split, .taken = taken,
				.order = malloc((n + 1) * sizeof(size_t))
			};
			struct taker back = {
				.split = &split, .back = true,
				.taken = calloc(n + 1, 1),
				.order = malloc((n + 1) * sizeof(size_t))
			};
			bool two, ok = true;

			ck_assert(taken && front.order && back.taken && back.order);
			gm_split_init(&split, n, steps[b]);
			two = gm_job_start(&back.job, taker_fn, &back);
			take_all(&front);
			if (two)
				ck_assert_int_eq(gm_job_join(&back.job), 0);
			else
				take_all(&back);
			ck_assert_uint_eq(front.nr + back.nr, n);
			for (size_t i = 0; i < n; i++)
				ok &= taken[i] + back.taken[i] == 1 &&
				      (i < front.nr ? front.order[i] == i :
						      back.taken[i] == 1);
			ck_assert_msg(ok, "%zu items, %zu at once", n, steps[b]);
			free(taken);
			free(front.order);
			free(back.taken);
			free(back.order);
		}
	}
}
END_TEST

/* A split stopped gives nothing more, from either end. */
START_TEST(test_split_stop)
{
	struct gm_split split;
	size_t from = 0, to = 0;

	gm_split_init(&split, 10, 2);
	ck_assert(gm_split_take(&split, false, &from, &to));
	ck_assert_uint_eq(from, 0);
	ck_assert_uint_eq(to, 2);
	ck_assert(gm_split_take(&split, true, &from, &to));
	ck_assert_uint_eq(from, 8);
	ck_assert_uint_eq(to, 10);
	gm_split_stop(&split);
	ck_assert(!gm_split_take(&split, false, &from, &to));
	ck_assert(!gm_split_take(&split, true, &from, &to));
}
END_TEST

Suite *thread_suite(void)
{
	Suite *s = suite_create("thread");
	TCase *tc = tcase_create("job");

	tcase_add_test(tc, test_job_runs_in_another_thread);
	tcase_add_test(tc, test_job_error_reaches_the_caller);
	tcase_add_test(tc, test_job_not_started_is_a_no_op);
	suite_add_tcase(s, tc);
	tc = tcase_create("split");
	tcase_add_test(tc, test_split_shares_every_item_once);
	tcase_add_test(tc, test_split_stop);
	suite_add_tcase(s, tc);
	return s;
}
