#ifndef GM_REPO_INTERNAL_H
#define GM_REPO_INTERNAL_H

/* The insides of the repository door: src/git's alone. */

#include "gm/repo.h"

/*
 * Add the settings of "git -c" (GIT_CONFIG_COUNT and its pairs,
 * GIT_CONFIG_PARAMETERS), as `git config --list` reads them, to the
 * configuration of `repo` as its highest level (run.c): git is
 * run once for each such environment, and only when either is set. @return 0, or
 * GM_EINVALID (git's message) for a list git refuses.
 */
int gm_repo_config_env_add(git_repository *repo);

/*
 * In a partial clone (extensions.partialClone, remote.<name>.promisor or
 * .partialclonefilter), give the object database of `repo` a last backend
 * that fetches what it lacks as git does (promisor.c), or stops the
 * process if it cannot; `object_dir` is the repository's object directory
 * (NULL: its common directory's). @return 0 or GM_ERROR.
 */
int gm_repo_promisor_attach(git_repository *repo, const char *object_dir);

/*
 * The top of the work tree `loc` names, canonical, no final '/', where it
 * is known before the repository is opened (a ".git" in it, or
 * GIT_WORK_TREE); else NULL.
 */
const char *gm_repo_location_worktree(const struct gm_repo_location *loc);

/* gm_repo_worktree_read() below the top `top`, before any opening. */
int gm_repo_worktree_read_at(const char *top, const char *path,
			     struct gm_buf *out);

#endif /* GM_REPO_INTERNAL_H */
