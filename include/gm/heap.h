#ifndef GM_HEAP_H
#define GM_HEAP_H

/*
 * malloc tuned for a process that fills up to a few hundred MiB and keeps
 * most of it (trees, delta bases, fingerprints), on a machine where memory
 * touched the first time is dear: a fault per 4 KiB page, and on a
 * virtual machine the host's work behind it. Where glibc and transparent
 * huge pages on advice are there, the heaps are advised to use them, so
 * a first touch faults once per 2 MiB; elsewhere these do nothing.
 */

/**
 * For the process, before any thread: blocks up to 32 MiB from the heap
 * (not each from an mmap() of its own, whose munmap() stalls the other
 * threads), the heap never trimmed, grown by 256 MiB of address space at
 * once, and that range advised.
 */
void gm_heap_prepare(void);

/** For a thread, first thing: the heap of its malloc arena advised. */
void gm_heap_thread_prepare(void);

#endif /* GM_HEAP_H */
