#ifndef GM_THREAD_H
#define GM_THREAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * pthread_create(t, NULL, fn, arg), but the thread starts on a CPU other
 * than the caller's, where there is one; once running it may go
 * anywhere the caller may. Left to itself, the scheduler often queues a
 * new thread behind its creator, to run at the next tick (up to 4 ms
 * later, measured on a two-CPU virtual machine), while the other CPU
 * idles.
 * @return 0, or pthread_create()'s error number.
 */
int gm_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

/** The CPUs this process may run on (its affinity mask), at least 1. */
int gm_thread_cpus(void);

/**
 * For tests: from now on gm_thread_cpus() answers `n` (0: the affinity
 * mask again), so that the threads a second CPU starts start on one.
 */
void gm_thread_cpus_force(int n);

/** For tests: the jobs that have given their outcome (gm_job_done()). */
size_t gm_thread_jobs_done(void);

/*
 * A job: a function run in a thread beside the one that starts it, with
 * an outcome (0 or an error code and its message) that the starter waits
 * for. Each call below is made by the starting thread only, but
 * gm_job_done(), which the job's own thread makes once.
 */
struct gm_job {
	pthread_t thread;
	bool running;		/* a thread was started and not joined */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;		/* the outcome is in, under `lock` */
	bool waited;		/* gm_job_wait() has seen it */
	int error;
	char message[1024];	/* as long as gm_error_last() can be */
};

/**
 * Start fn(arg) in a thread (gm_thread_start()). If none can be had, the
 * job is not running, and the caller does the work itself.
 * @return whether it runs.
 */
bool gm_job_start(struct gm_job *j, void *(*fn)(void *), void *arg);

/** In the job's thread: its outcome, with the message of an error. */
void gm_job_done(struct gm_job *j, int error);

/**
 * Wait for the job's outcome (its thread may still be freeing what it
 * used); its error and message become this thread's. 0 if not running.
 */
int gm_job_wait(struct gm_job *j);

/** Wait for the job's end: the same, and its thread is gone. */
int gm_job_join(struct gm_job *j);

/*
 * Items [0, n) that two threads share as they go: one takes them from
 * the front, the other from the back, `step` at a time, until the two
 * meet; each item is taken once. Taking is lock-free. What an item's
 * work writes is published by the join that ends the other thread.
 */
struct gm_split {
	_Atomic uint64_t ends;	/* the front's next item << 32 | the back's end */
	size_t step;		/* at least 1 */
};

/** Share items [0, n), n at most UINT32_MAX. */
void gm_split_init(struct gm_split *s, size_t n, size_t step);

/**
 * The next items [*from, *to) from the back or the front.
 * @return false once none is left.
 */
bool gm_split_take(struct gm_split *s, bool back, size_t *from, size_t *to);

/** Leave what is left to no one (after a failure). */
void gm_split_stop(struct gm_split *s);

#endif /* GM_THREAD_H */
