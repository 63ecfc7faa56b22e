#ifndef GM_BATCH_H
#define GM_BATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "gm/query.h"
#include "gm/repo.h"

/*
 * --batch: paths read from `in`, one per line (C-quoted as git quotes
 * them) or NUL-terminated (opts->nul), each answered as `-f PATH` is,
 * one record per line of its answer (gm_output_batch_text(), or _json()
 * with --format=json), written to `out` in input order, and its warnings
 * to `err` at the same point. A path not in the tree gets a warning;
 * reading and answering go on. So does a path that cannot be read or
 * answered (an unreadable file, a path outside the tree): a warning
 * names it, and it is counted in `*unanswered`.
 *
 * The paths are answered on `jobs` threads (0: one per CPU the process
 * may use), each with a repository of its own reopened from `repo`,
 * while this thread reads `in`; the rules of `env` must be finished.
 * With `stream`, `out` is flushed after each record, so a reader may
 * ask for one path at a time.
 * @return 0, or the first error (a write error, out of memory); the
 * records before it are written.
 */
int gm_batch_run(const struct gm_query_env *env, struct gm_repo *repo,
		 FILE *in, FILE *out, FILE *err, int jobs, bool stream,
		 size_t *unanswered);

#endif /* GM_BATCH_H */
