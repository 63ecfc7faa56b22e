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
 * vcs_file_signoffs() of the script (R-73..R-75) for file `f` of `s`:
 * the signer, author and line counts, normalised through rk's mailmap
 * and dedup tables in the script's order, given to rk as the roles
 * commit_signer, authored, added_lines and removed_lines. `facts`, if
 * not NULL, receives what was counted (gm_signers_report_free()).
 * @return 0 or GM_ERROR.
 */
int gm_rank_add_signoffs(struct gm_rank *rk, const struct gm_signers *s,
			 size_t f, struct gm_signers_facts *facts);

/**
 * The script's history steps for every file of `r`, in file order
 * each file's signoffs, then its blame, as `r` has them;
 * each walked file's facts into r->facts. Call after gm_rank_normalize()
 * and before gm_rank_finish(). @return 0 or GM_ERROR.
 */
int gm_rank_add_git(struct gm_rank *rk, struct gm_signers_report *r);

#endif /* GM_RANK_GIT_H */
