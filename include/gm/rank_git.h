#ifndef GM_RANK_GIT_H
#define GM_RANK_GIT_H

#include <stddef.h>

#include "gm/blame.h"
#include "gm/rank.h"
#include "gm/signers.h"

/*
 * What get_maintainer.pl makes of the history of a file (R-73..R-76):
 * the people of its log (vcs_file_signoffs()) and of its blame
 * (vcs_file_blame()), counted, normalised through the rank's mailmap and
 * dedup tables in the script's order, and given to the rank with their
 * roles. The history stage reads them (gm_signers_collect()).
 *
 * Threads: as struct gm_rank's.
 */

/**
 * The script's history steps for every file of `r`, in file order
 * each file's signoffs, then its blame, as `r` has them;
 * each walked file's facts into r->facts. Call after gm_rank_normalize()
 * and before gm_rank_finish(). @return 0 or GM_ERROR.
 */
int gm_rank_add_git(struct gm_rank *rk, struct gm_signers_report *r);

#endif /* GM_RANK_GIT_H */
