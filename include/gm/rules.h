#ifndef GM_RULES_H
#define GM_RULES_H

#include "gm/mailmap.h"
#include "gm/maintainers.h"
#include "gm/options.h"
#include "gm/prefetch.h"
#include "gm/repo.h"
#include "gm/thread.h"

/*
 * The rules of a run, read from the commit's tree: the MAINTAINERS files
 * the options select, parsed, and the .mailmap.
 *
 * MAINTAINERS, unless prefetched, is read and parsed in a thread of its
 * own, on a repository of its own, between gm_rules_start() and
 * gm_rules_finish(); until then `m` is that thread's. All calls are made
 * by the thread that started.
 */
struct gm_rules {
	struct gm_maintainers *m;	/* the parsed MAINTAINERS files */
	struct gm_mailmap *mailmap;	/* NULL with --nomailmap or none */

	/* private */
	struct gm_repo *repo;
	const struct gm_options *opts;
	struct gm_job parser;
};

/**
 * Start reading the rules through `r` (the caller's, which must outlive
 * `rl`), taking the prefetched MAINTAINERS if it is the one that would be
 * read.
 */
void gm_rules_start(struct gm_rules *rl, struct gm_repo *r,
		    const struct gm_options *o, struct gm_prefetch *prefetch);

/**
 * Read the .mailmap, wait for MAINTAINERS (or read it now).
 * @return 0 or the error of MAINTAINERS, else of the .mailmap.
 */
int gm_rules_finish(struct gm_rules *rl);

/** Free what was read; waits for the parser thread if it runs. */
void gm_rules_release(struct gm_rules *rl);

#endif /* GM_RULES_H */
