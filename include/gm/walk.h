#ifndef GM_WALK_H
#define GM_WALK_H

#include <stdint.h>

#include "gm/history.h"
#include "gm/inputs.h"
#include "gm/match.h"
#include "gm/options.h"
#include "gm/repo.h"
#include "gm/thread.h"

/* A run's dates, read by git once, before threads share them. */
struct gm_walk_dates {
	bool known;			/* else each question reads its own */
	int64_t since, until;		/* --history's window */
	int64_t git_since;		/* --git's */
};

/**
 * Into `d`, the dates `o` asks for: --history's window if it walks,
 * --git-since if --git, --git-fallback or --git-blame may walk.
 * @return 0, GM_EUSAGE for a bad date, or GM_ERROR.
 */
int gm_walk_dates(struct gm_walk_dates *d, const struct gm_options *o);

/*
 * The history walk of a run, as the command line asks for it (the
 * history stage itself, history.h, takes only its own settings): with
 * --history every path as given, in a thread of its own (on a repository
 * of its own) from gm_walk_start() on, since the paths are known before
 * MAINTAINERS is read; with only --git-fallback the files no maintained
 * section claims exactly, walked in gm_walk_finish(). All calls
 * are made by the thread that started.
 */
struct gm_walk {
	struct gm_history *history;	/* after gm_walk_finish() */
	bool serial;			/* set by the caller: no threads */
	int64_t since, until;		/* the window */

	/* private */
	struct gm_repo *repo;		/* the caller's */
	const struct gm_options *opts;
	const struct gm_inputs *in;
	const struct gm_matches *matches;
	git_mailmap *mailmap;
	struct gm_job job;
};

/**
 * Into the zeroed `w`: the window of `o` (from `dates` if known, else
 * read now), and the walk started if `o` asks for history. `r` and `in`
 * must outlive `w`.
 * @return 0, GM_EUSAGE for a bad date, or another error.
 */
int gm_walk_start(struct gm_walk *w, struct gm_repo *r,
		  const struct gm_options *o, const struct gm_inputs *in,
		  const struct gm_walk_dates *dates);

/**
 * The walk's outcome (waited for, or walked now with `matches` telling
 * the exactly claimed files); `history` is set unless no history was
 * asked for. @return 0 or the walk's error.
 */
int gm_walk_finish(struct gm_walk *w, const struct gm_matches *matches);

void gm_walk_release(struct gm_walk *w);

#endif /* GM_WALK_H */
