#ifndef GM_QUERY_H
#define GM_QUERY_H

#include <stdbool.h>
#include <stdio.h>

#include "gm/batch.h"
#include "gm/inputs.h"
#include "gm/match.h"
#include "gm/options.h"
#include "gm/output.h"
#include "gm/prefetch.h"
#include "gm/rank.h"
#include "gm/repo.h"
#include "gm/rules.h"
#include "gm/signers.h"
#include "gm/strmap.h"
#include "gm/strvec.h"
#include "gm/walk.h"

/*
 * One question put to the pipeline (the inputs of the command line, or
 * one --batch path): the sections its files match, the keywords, the
 * history, the ranking, and the answer, text or JSON, in memory.
 *
 * Threads: a struct gm_query_env is read-only once a query runs, and may
 * be shared; a struct gm_query_worker and its queries belong to one
 * thread at a time. Queries of different workers may run at once.
 */

/* What every question of a run shares. */
struct gm_query_env {
	const struct gm_options *opts;
	struct gm_inputs_settings inputs;	/* opts' for the inputs */
	struct gm_output_settings output;	/* opts' for the text output */
	struct gm_rank_settings rank;	/* opts' for the rank */
	struct gm_rules *rules;		/* finished before gm_query_run() */
	struct gm_prefetch *prefetch;	/* may be NULL */
	struct gm_strvec ignore;	/* .get_maintainer.ignore */
	struct gm_walk_dates dates;	/* read before threads share them */
};

/*
 * What one thread keeps from question to question: made as { env, repo }
 * (`repo` must outlive it), the rest zero; the rules are not looked at
 * before its first gm_query_run(), and may still be being read.
 */
struct gm_query_worker {
	const struct gm_query_env *env;
	struct gm_repo *repo;
	struct gm_match_ctx *match_ctx;	/* for all its queries, made by */
	struct gm_match_ctx *keyword_ctx;	/* the first that needs it */
	struct gm_rank_memo memo;	/* its rankings' */
};

/* One question. */
struct gm_query {
	struct gm_query_worker *w;
	struct gm_inputs inputs;	/* read by the caller, see below */
	struct gm_matches *keywords;	/* K: hits */
	struct gm_walk walk;
	struct gm_matches *matches;
	struct gm_rank rank;
	struct gm_strvec warnings;	/* for stderr, before rank.warnings */
	struct gm_strvec file_emails;
	struct gm_signers_report *git;	/* --git, --git-fallback, --git-blame */
	FILE *out;			/* the answer, held back until success */
	char *out_buf;			/* after gm_query_run(): the answer */
	size_t out_len;
};

/**
 * Read the ignore list of `r`'s tree into the zeroed env.
 * @return 0 or an error.
 */
int gm_query_env_load(struct gm_query_env *env, struct gm_repo *r);

/**
 * The rank's settings from the command line's `o` (gm_options_finish()
 * done), for env->rank; s->penguins points into `o`.
 */
void gm_query_rank_settings(struct gm_rank_settings *s,
			    const struct gm_options *o);

void gm_query_worker_release(struct gm_query_worker *w);

/**
 * A question of `w`, before its inputs are read; `serial`: no thread of
 * its own for the walk. The caller then reads
 * q->inputs (gm_inputs_read() or gm_inputs_read_path() with w->repo).
 * @return 0 or GM_ERROR.
 */
int gm_query_init(struct gm_query *q, struct gm_query_worker *w,
		  bool serial);

/**
 * Once its inputs are read: start the jobs that need no MAINTAINERS
 * (the history walk). @return 0 or an error.
 */
int gm_query_start(struct gm_query *q);

/**
 * Once the rules are finished: the sections, the history, the ranking,
 * and the answer in q->out_buf, q->out_len. @return 0 or an error.
 */
int gm_query_run(struct gm_query *q);

/** Free everything but the worker; `q` may be initialised again. */
void gm_query_release(struct gm_query *q);

/**
 * The callbacks with which gm_batch_run() answers each path as `-f PATH`
 * is answered, into `*out`: a worker of `env` per thread, and a question
 * per path. The rules of `env` must be finished, and `env` must outlive
 * the run.
 */
void gm_query_batch_answerer(struct gm_batch_answerer *out,
			     struct gm_query_env *env);

#endif /* GM_QUERY_H */
