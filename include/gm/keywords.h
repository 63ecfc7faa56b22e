#ifndef GM_KEYWORDS_H
#define GM_KEYWORDS_H

#include <stdbool.h>

#include "gm/inputs.h"
#include "gm/maintainers.h"
#include "gm/match.h"
#include "gm/prefetch.h"
#include "gm/repo.h"
#include "gm/thread.h"

/* A -f file's content for the keyword pass, if it has one. */
struct gm_keywords_text {
	struct gm_repo_entry entry;	/* where it is in the tree */
	bool in_tree;			/* else in the work tree, if anywhere */
	struct gm_repo_text text;	/* its content */
	bool read;
};

/*
 * The keyword pass of a run, as the command line asks for
 * it: the K: lines hit by the contents of the -f files and by the
 * patches' lines, matched by the match stage (gm_match_keywords_*()). The -f files are read in a thread
 * of its own, on a repository of its own, while MAINTAINERS is read; the
 * pass runs in another while the main thread matches the file rules.
 * All calls are made by the thread that started; between a start and
 * gm_keywords_finish(), the inputs, the model and `hits` are read or
 * written by the pass's threads, and the caller only reads the first two.
 */
struct gm_keywords {
	struct gm_matches *hits;	/* K: hits only, after finish */
	bool serial;			/* set by the caller: no threads */
	struct gm_match_ctx *shared_ctx;	/* or the caller's, for serial */

	/* private */
	const struct gm_inputs *in;
	struct gm_repo *repo;		/* the caller's */
	struct gm_repo *reader_repo;	/* the reader's own */
	struct gm_keywords_text *texts;	/* one per in->keyword_files */
	const struct gm_maintainers *m;
	struct gm_match_ctx *ctx;	/* the pass's own */
	struct gm_job reader;
	struct gm_job matcher;
};

/**
 * Into the zeroed `kw`: start reading the -f files of `in` that K: sees
 * (through `r`, which must outlive `kw`), but those `prefetch` holds.
 * @return 0 or GM_ERROR.
 */
int gm_keywords_start_reader(struct gm_keywords *kw, struct gm_repo *r,
			     const struct gm_inputs *in, bool keywords,
			     struct gm_prefetch *prefetch);

/**
 * Once MAINTAINERS is read: start the pass over the texts and patches.
 * @return 0 or an error.
 */
int gm_keywords_start(struct gm_keywords *kw, const struct gm_maintainers *m);

/**
 * Wait for the pass (or run it now) and put the hits in the script's
 * order. @return 0 or the pass's error.
 */
int gm_keywords_finish(struct gm_keywords *kw);

/** Free what the pass holds; waits for its threads. */
void gm_keywords_release(struct gm_keywords *kw);

#endif /* GM_KEYWORDS_H */
