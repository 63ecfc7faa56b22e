#define _DEFAULT_SOURCE	/* sbrk(), madvise() */
#include <git2.h>
#include <stdint.h>
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "gm/cli.h"

#if defined(M_MMAP_THRESHOLD)
/*
 * malloc tuned for a process that fills up to a few hundred MiB it
 * mostly keeps (trees, delta bases, fingerprints), beside a second thread:
 *
 * - blocks of hundreds of KiB from the heap, not each from its own mmap(),
 *   whose munmap() stalls the other thread (MAINTAINERS read and parsed in
 *   5.4 ms instead of 8.4 ms while the -f files are read);
 * - the heap grown by 256 MiB of address space at once, never trimmed,
 *   and that range advised to use transparent huge pages, so a first touch
 *   costs one fault per 2 MiB instead of one per 4 KiB (U-Boot, --git of
 *   10 files: 13,500 faults -> 3,800, 0.42 -> 0.33 s). Only what is
 *   touched becomes resident; what grows past it gets small pages.
 *
 * Under another allocator (sanitizers, valgrind) the block is not in the
 * brk heap and nothing is advised.
 */
static void heap_prepare(void)
{
	const uintptr_t huge = (uintptr_t)2 << 20, most = (uintptr_t)512 << 20;
	uintptr_t lo, hi;
	void *p;

	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	mallopt(M_TOP_PAD, 256 << 20);
	if (!(p = malloc(1 << 20)))	/* more than any top: the heap grows */
		return;
	lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	hi = (uintptr_t)sbrk(0);
	if (hi > lo && hi - lo <= most)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	free(p);
}
#endif

int main(int argc, char **argv)
{
	struct gm_repo_location *loc = NULL;
	struct gm_prefetch *prefetch = NULL;
	int status;

#if defined(M_MMAP_THRESHOLD)
	heap_prepare();
#endif
	/* found without libgit2, so the prefetch runs while it initialises */
	if (gm_repo_locate(&loc) == 0)
		prefetch = gm_prefetch_start(loc, argc, (const char **)argv);
	git_libgit2_init();
	/* git does not re-hash objects on read; neither do we */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/*
	 * What is read again is kept where it is used (the trees of looked-up
	 * directories in gm_repo, the history walk's memo). libgit2's cache
	 * would hold every commit and tree read until its repository is
	 * freed, which took 5-10 ms at the end of a U-Boot walk.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
	status = gm_cli_run(argc, (const char **)argv, loc, prefetch);
	gm_prefetch_free(prefetch);
	gm_repo_location_free(loc);
	git_libgit2_shutdown();
	return status;
}
