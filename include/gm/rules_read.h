#ifndef GM_RULES_READ_H
#define GM_RULES_READ_H

#include "gm/options.h"
#include "gm/prefetch.h"
#include "gm/repo.h"
#include "gm/rules.h"
#include "gm/thread.h"

/*
 * The texts of the rules read from the commit's tree and handed to the
 * rules layer: the MAINTAINERS files the options select and the
 * .mailmap.
 *
 * MAINTAINERS, unless prefetched, is read and parsed in a thread of its
 * own, on a repository of its own, between gm_rules_read_start() and
 * gm_rules_read_finish(); until then the rules' `m` is that thread's.
 * All calls are made by the thread that started.
 */
struct gm_rules_read {
	struct gm_rules *rules;
	struct gm_rules_settings set;
	struct gm_repo *repo;
	struct gm_job parser;
};

/**
 * Start reading the rules `rl` (empty) through `r` (the caller's; `r`,
 * `rl` and `o` must outlive `rr`), taking the prefetched MAINTAINERS if
 * it is the one that would be read.
 */
void gm_rules_read_start(struct gm_rules_read *rr, struct gm_rules *rl,
			 struct gm_repo *r, const struct gm_options *o,
			 struct gm_prefetch *prefetch);

/**
 * Read the .mailmap, wait for MAINTAINERS (or read it now).
 * @return 0 or the error of MAINTAINERS, else of the .mailmap.
 */
int gm_rules_read_finish(struct gm_rules_read *rr);

/** Wait for the parser thread if it runs; the rules stay the caller's. */
void gm_rules_read_release(struct gm_rules_read *rr);

#endif /* GM_RULES_READ_H */
