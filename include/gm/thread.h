#ifndef GM_THREAD_H
#define GM_THREAD_H

#include <pthread.h>

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

#endif /* GM_THREAD_H */
