#ifndef GM_BATCH_H
#define GM_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "gm/repo.h"
#include "gm/strvec.h"

/*
 * --batch: paths read from `in`, one per line (C-quoted as git quotes
 * them) or NUL-terminated, each answered by the caller's callbacks, one
 * record per line of its answer, written to `out` in input order, and
 * its warnings to `err` at the same point.
 *
 * Threads: the paths are answered on several threads, each with a worker
 * of its own; the callbacks of different workers run at once, those of
 * one worker one at a time, on the thread that made it.
 */

/* What the caller's answer to one path gives. */
struct gm_batch_answer {
	struct gm_strvec before;	/* about the path itself: given each time */
	struct gm_strvec shared;	/* others, before its records: once a run */
	struct gm_strvec after;		/* after its records: once a run */
	char *text;	/* the answer (malloc'd), or NULL: no records */
	size_t len;
};

/**
 * Make in `*out` what one thread keeps from path to path, answering in
 * `repo` (which outlives it). `payload` is the same for every thread,
 * which may call this at once. @return 0, or an error (the run stops
 * with it).
 */
typedef int (*gm_batch_worker_new_fn)(void **out, struct gm_repo *repo,
				      void *payload);

/** Free what gm_batch_worker_new_fn made, when it returned 0. */
typedef void (*gm_batch_worker_free_fn)(void *worker);

/**
 * Answer `path` into the zeroed `out`, with `worker`: its warnings, and
 * the answer's text (text, or JSON with settings.json) in out->text; a
 * path not in the tree gets a warning in out->before and no text.
 * @return 0, or an error: the path "cannot be answered", with the
 * message set (out->text and out->after are dropped, out->before and
 * out->shared still given), and the run goes on.
 */
typedef int (*gm_batch_answer_fn)(struct gm_batch_answer *out,
				  const char *path, void *worker);

/* How the caller answers one path. */
struct gm_batch_answerer {
	gm_batch_worker_new_fn worker_new;
	gm_batch_worker_free_fn worker_free;
	gm_batch_answer_fn answer;
	void *payload;			/* for worker_new */
};

/* What --batch takes from the command line. */
struct gm_batch_settings {
	int jobs;	/* --jobs: threads, 0: one per CPU the process may use */
	bool nul;	/* -z: NUL ends each path read and each record */
	bool json;	/* --format=json: gm_output_batch_json() records */
	bool progress;	/* a progress line on `err` */
};

/**
 * Answer every path of `in` with `a`, and write the answers to `out`:
 * each line of an answer as a record of gm_output_batch_text(), or the
 * answer as one record of gm_output_batch_json() with `s->json`; then
 * its `after` warnings to `err`, before them its `before` ones and its
 * `shared` ones (each `shared` and `after` warning once a run). A path
 * not in the tree gets a warning; reading and answering go on. So does
 * a path that cannot be answered (an unreadable file, a path outside the
 * tree): a warning names it, and it is counted in `*unanswered`.
 *
 * The paths are answered on `s->jobs` threads, each with a worker of its
 * own on a repository of its own reopened from `repo` (one thread: the
 * calling one, on `repo`), while this thread reads `in`. `out` is
 * flushed after each answer (gm_error_write_records()), so a reader may
 * ask for one path at a time, and a fatal error leaves whole records.
 * @return 0, or the first error (a write error, out of memory, an error
 * of a->worker_new); the records before it are written.
 */
int gm_batch_run(const struct gm_batch_settings *s,
		 const struct gm_batch_answerer *a, struct gm_repo *repo,
		 FILE *in, FILE *out, FILE *err, size_t *unanswered);

#endif /* GM_BATCH_H */
