#ifndef GM_PROGRESS_H
#define GM_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A progress line on standard error for long runs: what is being done,
 * how many of how many items, the rate and the time so far, redrawn in
 * place by a thread of its own a few times a second. Nothing is ever
 * written to standard output. Every function accepts NULL (progress off)
 * and does nothing then, so a caller need not test.
 *
 * Threads: gm_progress_set(), gm_progress_add() and gm_progress_total()
 * may be called from any thread; the others by the thread that started it.
 */
struct gm_progress;

/**
 * Whether to show progress, from the --progress setting: 1 on, 0 off,
 * negative (no option given) when standard error is a terminal.
 */
bool gm_progress_wanted(int setting);

/**
 * Start a progress line titled `title` (copied) counting `unit`
 * (a plural noun, static storage: "paths"; NULL: no count, the time
 * alone) out of `total` (0: unknown yet), drawn on `f`. Nothing is drawn
 * during the first quarter second, nor at the end of a run that short.
 * With `on` false, *out is NULL and nothing is shown.
 * @return 0, or GM_ERROR when out of memory or no thread can be had (then
 * *out is NULL and the run goes on without progress).
 */
int gm_progress_start(struct gm_progress **out, bool on, FILE *f,
		      const char *title, const char *unit, uint64_t total);

/** The items done so far. */
void gm_progress_set(struct gm_progress *p, uint64_t done);
/** One more item done, `n` more: the links of --self-test, say. */
void gm_progress_add(struct gm_progress *p, uint64_t n);

/** The number of items, once known. */
void gm_progress_total(struct gm_progress *p, uint64_t total);

/**
 * Erase the line and draw nothing until gm_progress_resume(), so that a
 * message can be written to the same terminal.
 */
void gm_progress_hold(struct gm_progress *p);
void gm_progress_resume(struct gm_progress *p);

/** Draw the final line, "done", end it, and free `p`. */
void gm_progress_stop(struct gm_progress *p);

#endif /* GM_PROGRESS_H */
