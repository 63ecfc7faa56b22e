#ifndef GM_REPO_INTERNAL_H
#define GM_REPO_INTERNAL_H

/* The insides of the repository modules (repo_open.c, repo.c); no one else's. */

#include <stdatomic.h>
#include <stdbool.h>

#include <git2.h>

#include "gm/repo.h"
#include "gm/strmap.h"
#include "gm/strvec.h"

/*
 * Where the repository is, as git finds it. Every path is absolute and
 * canonical, so that an opening does not depend on the current directory
 * any more. Written once by gm_repo_locate(), then only read, but for
 * `refs`: the repositories sharing it (gm_repo_location_free() frees it
 * with the last).
 */
struct gm_repo_location {
	atomic_int refs;	/* owners but one */
	char *open_path;	/* what libgit2 opens (a top or a git dir), or NULL */
	bool explicit_dir;	/* open_path is GIT_DIR */
	bool bare_guess;	/* found as a git dir with no work tree */
	char *worktree;		/* GIT_WORK_TREE, else the top found, or NULL */
	bool worktree_env;	/* worktree is GIT_WORK_TREE */
	char *cwd;		/* the current directory */
	char *object_dir;	/* GIT_OBJECT_DIRECTORY, or NULL */
	struct gm_strvec alternates;	/* GIT_ALTERNATE_OBJECT_DIRECTORIES */
	char *index_file;	/* GIT_INDEX_FILE, or NULL */
};

struct gm_repo {
	struct gm_repo_location *loc;	/* shared, counted */
	git_repository *repo;
	git_commit *commit;	/* HEAD's commit, or --rev's */
	git_tree *tree;		/* its tree */
	char *workdir;		/* work tree top with a final '/', NULL if bare */
	char *prefix;		/* cwd below the work tree top: "" or "a/b/" */
	struct gm_strmap dirs;	/* "a/b" -> its git_tree *, or NULL: none */
	struct gm_packs *packs;	/* opened on first use */
	struct gm_graph *graph;	/* read on first use, if graph_read */
	bool graph_read;
};

/*
 * Add the settings of "git -c" (GIT_CONFIG_COUNT and its pairs,
 * GIT_CONFIG_PARAMETERS), as `git config --list` reads them, to the
 * configuration of `repo` as its highest level (config_env.c): git is
 * run once a process, and only when either is set. @return 0, or
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
