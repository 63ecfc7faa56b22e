#define _DEFAULT_SOURCE		/* sbrk(), madvise() */
#include "gm/heap.h"

#include <stdint.h>
#include <stdlib.h>

#if defined(__GLIBC__) && defined(__linux__) && UINTPTR_MAX > 0xffffffffu
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_PAGE ((uintptr_t)2 << 20)
/* glibc's arenas other than the first: heaps of this much address
   space, aligned on it (HEAP_MAX_SIZE, twice the largest mmap threshold) */
#define ARENA_HEAP ((uintptr_t)64 << 20)

/* [lo, hi) advised to use huge pages, if it is no larger than `most`. */
static void advise(uintptr_t lo, uintptr_t hi, uintptr_t most)
{
	if (hi > lo && hi - lo <= most)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}

void gm_heap_prepare(void)
{
	void *p;

	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	mallopt(M_TOP_PAD, 256 << 20);
	/* more than any top there may be: the heap grows, by the pad */
	if (!(p = malloc(1 << 20)))
		return;
	/* a block of another allocator (sanitizers, valgrind) is not below
	   the break, and [p, break) is then nothing of ours */
	advise(((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1),
	       (uintptr_t)sbrk(0), (uintptr_t)512 << 20);
	free(p);
}

void gm_heap_thread_prepare(void)
{
	void *p = malloc(1);
	uintptr_t at = (uintptr_t)p;

	/* a block past the break is in an arena's heap, aligned on its size
	   (the first arena's, from the brk heap, is gm_heap_prepare()'s) */
	if (p && at > (uintptr_t)sbrk(0))
		advise(at & ~(ARENA_HEAP - 1), (at & ~(ARENA_HEAP - 1)) +
		       ARENA_HEAP, ARENA_HEAP);
	free(p);
}
#else
void gm_heap_prepare(void)
{
}

void gm_heap_thread_prepare(void)
{
}
#endif
