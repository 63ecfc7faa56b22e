#ifndef GM_CHECK_RUN_H
#define GM_CHECK_RUN_H

#include <stdio.h>

#include "gm/query.h"

/**
 * --check on the command line's arguments (env->opts->args): mail
 * files, mboxes, format-patch directories, and, for --check=approvals,
 * revision ranges ("A..B": B's commits not in A; one revision: that
 * commit). Each patch is one question of `env` (whose rules must be
 * finished) on `repo`; the verdicts, text or JSON, go to `out`, the
 * inputs' warnings to `warnings`, and `*missing` counts what is missing.
 * @return 0, GM_ENOTFOUND (a file or revision not found), or an error.
 */
int gm_check_run(FILE *out, struct gm_strvec *warnings,
		 struct gm_query_env *env, struct gm_repo *repo,
		 size_t *missing);

#endif /* GM_CHECK_RUN_H */
