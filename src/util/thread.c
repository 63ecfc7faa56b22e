/* CPU affinity is a GNU extension, in every libc this is built with. */
#define _GNU_SOURCE
#include "gm/thread.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "gm/error.h"
#include "gm/heap.h"

#if defined(__linux__) && defined(CPU_SET)
struct thread_start {
	void *(*fn)(void *);
	void *arg;
	cpu_set_t allowed;	/* the caller's CPUs */
};

static void *thread_trampoline(void *payload)
{
	struct thread_start s = *(struct thread_start *)payload;

	free(payload);
	sched_setaffinity(0, sizeof(s.allowed), &s.allowed);
	gm_heap_thread_prepare();
	return s.fn(s.arg);
}

int gm_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	struct thread_start *s = malloc(sizeof(*s));
	int self = sched_getcpu(), error = -1;
	pthread_attr_t attr;
	cpu_set_t elsewhere;

	if (s && self >= 0 &&
	    !sched_getaffinity(0, sizeof(s->allowed), &s->allowed) &&
	    CPU_COUNT(&s->allowed) > 1 && !pthread_attr_init(&attr)) {
		s->fn = fn;
		s->arg = arg;
		elsewhere = s->allowed;
		CPU_CLR(self, &elsewhere);
		if (!pthread_attr_setaffinity_np(&attr, sizeof(elsewhere),
						 &elsewhere))
			error = pthread_create(t, &attr, thread_trampoline, s);
		pthread_attr_destroy(&attr);
	}
	if (!error)
		return 0;
	free(s);
	return pthread_create(t, NULL, fn, arg);
}
#else
int gm_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	return pthread_create(t, NULL, fn, arg);
}
#endif

static _Atomic int cpus_forced;
static _Atomic size_t jobs_done;

void gm_thread_cpus_force(int n)
{
	cpus_forced = n;
}

size_t gm_thread_jobs_done(void)
{
	return jobs_done;
}

int gm_thread_cpus(void)
{
	long n = cpus_forced;
#if defined(__linux__) && defined(CPU_COUNT)
	cpu_set_t allowed;

	if (!n && !sched_getaffinity(0, sizeof(allowed), &allowed))
		n = CPU_COUNT(&allowed);
#endif
	if (n < 1)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

bool gm_job_start(struct gm_job *j, void *(*fn)(void *), void *arg)
{
	j->running = j->done = j->waited = false;
	if (pthread_mutex_init(&j->lock, NULL))
		return false;
	if (pthread_cond_init(&j->cond, NULL)) {
		pthread_mutex_destroy(&j->lock);
		return false;
	}
	j->running = gm_thread_start(&j->thread, fn, arg) == 0;
	if (!j->running) {
		pthread_cond_destroy(&j->cond);
		pthread_mutex_destroy(&j->lock);
	}
	return j->running;
}

void gm_job_done(struct gm_job *j, int error)
{
	pthread_mutex_lock(&j->lock);
	j->error = error;
	if (error)
		snprintf(j->message, sizeof(j->message), "%s", gm_error_last());
	j->done = true;
	jobs_done++;
	pthread_cond_signal(&j->cond);
	pthread_mutex_unlock(&j->lock);
}

static int job_report(const struct gm_job *j)
{
	if (j->error)
		gm_error_set(j->error, "%s", j->message);
	return j->error;
}

int gm_job_wait(struct gm_job *j)
{
	if (!j->running)
		return 0;
	pthread_mutex_lock(&j->lock);
	while (!j->done)
		pthread_cond_wait(&j->cond, &j->lock);
	pthread_mutex_unlock(&j->lock);
	j->waited = true;
	return job_report(j);
}

int gm_job_join(struct gm_job *j)
{
	if (!j->running)
		return 0;
	pthread_join(j->thread, NULL);
	pthread_cond_destroy(&j->cond);
	pthread_mutex_destroy(&j->lock);
	j->running = false;
	return job_report(j);
}

void gm_split_init(struct gm_split *s, size_t n, size_t step)
{
	atomic_init(&s->ends, (uint64_t)n);
	s->step = step ? step : 1;
}

bool gm_split_take(struct gm_split *s, bool back, size_t *from, size_t *to)
{
	uint64_t ends = atomic_load_explicit(&s->ends, memory_order_relaxed);
	uint64_t next;

	do {
		size_t lo = (size_t)(ends >> 32);
		size_t hi = (size_t)(ends & UINT32_MAX);

		if (lo >= hi)
			return false;
		*from = back && hi - lo > s->step ? hi - s->step : lo;
		*to = !back && hi - lo > s->step ? lo + s->step : hi;
		next = back ? (uint64_t)lo << 32 | *from :
			      (uint64_t)*to << 32 | hi;
	} while (!atomic_compare_exchange_weak_explicit(&s->ends, &ends, next,
							 memory_order_relaxed,
							 memory_order_relaxed));
	return true;
}

void gm_split_stop(struct gm_split *s)
{
	atomic_store_explicit(&s->ends, 0, memory_order_relaxed);
}
