#include <pthread.h>
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

Suite *thread_suite(void)
{
	Suite *s = suite_create("thread");
	TCase *tc = tcase_create("job");

	tcase_add_test(tc, test_job_runs_in_another_thread);
	tcase_add_test(tc, test_job_error_reaches_the_caller);
	tcase_add_test(tc, test_job_not_started_is_a_no_op);
	suite_add_tcase(s, tc);
	return s;
}
