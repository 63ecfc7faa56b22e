/* CPU affinity is a GNU extension, in every libc this is built with. */
#define _GNU_SOURCE
#include "gm/thread.h"

#include <sched.h>
#include <stdlib.h>

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
