#ifndef GM_BLAME_H
#define GM_BLAME_H

#include <stdbool.h>
#include <stddef.h>

#include <git2.h>

#include "gm/patch.h"
#include "gm/rank.h"
#include "gm/strvec.h"

/*
 * get_maintainer.pl's --git-blame: the commits that last changed
 * the lines of a file (the patch's hunks, or all of it), through
 * libgit2's blame, and the roles the script derives from them.
 */

/**
 * Append to `out` the id (hex) of the commit of every line of
 * `path`'s lines [start, start + len) (all lines when `len` is 0 and
 * `start` is 0) as `git blame -l [-L start,+len] path` prints them at
 * `newest`, boundary lines (the root commit's) left out. The lines are
 * the work tree's file when `workdir` has it and it differs from the
 * commit's (lines not committed have the zero id). A range git refuses
 * (start 0, len 0, start past the end) gives nothing; one running past
 * the end stops there. @return 0 or GM_ERROR.
 */
int gm_blame_lines(struct gm_strvec *out, git_repository *repo,
		   const struct gm_graph *graph, const git_oid *newest,
		   const char *workdir, const char *path, long start, long len);

struct gm_graph;

/* What vcs_file_blame() needs besides the rank. */
struct gm_blame_request {
	git_repository *repo;
	const struct gm_graph *graph;	/* the commit-graph, or NULL */
	const git_oid *newest;		/* HEAD's commit */
	const char *workdir;		/* with a final '/', or NULL */
	const struct gm_patch_range *ranges;	/* the patches' hunks */
	size_t nr_ranges;
	bool from_filename;		/* -f */
	bool all_signature_types;
};

/**
 * vcs_file_blame() of the script for `path`: with
 * --git-blame-signatures the signers of each blamed commit, then
 * "authored lines" (with -f and --rolestats) and "commits", or in patch
 * mode "modified commits", given to `rk`. `path` must be a regular file
 * of the work tree (of the commit's tree if there is none) to be blamed.
 * @return 0 or GM_ERROR.
 */
int gm_blame_assign(struct gm_rank *rk, const struct gm_blame_request *req,
		    const char *path);

#endif /* GM_BLAME_H */
