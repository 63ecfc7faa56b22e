#ifndef GM_BLAME_H
#define GM_BLAME_H

#include <stdbool.h>
#include <stddef.h>

#include <git2.h>

#include "gm/patch.h"
#include "gm/signers.h"
#include "gm/strvec.h"

/*
 * get_maintainer.pl's --git-blame: the commits that last changed
 * the lines of a file (the patch's hunks, or all of it), as
 *
 *     git blame -l [-L START,+LEN] FILE
 *
 * gives them, and the roles the script derives from them. git itself
 * does the blaming: `git blame --porcelain`, a run per file with its
 * ranges as several -L (each range's lines then taken in turn, as a run
 * per range gives them), as many at a time as there are CPUs; its output
 * is read here. A range git refuses (line 0, past the end of the file)
 * gives no line, and git's message reaches stderr as the script lets it.
 * The roles the script derives from the commits read are the rank's
 * (gm_rank_add_git()).
 */

/* What the blames of a run need. All borrowed. */
struct gm_blame_request {
	git_repository *repo;
	const git_oid *newest;		/* HEAD's commit, or --rev's */
	const char *workdir;		/* with a final '/', or NULL */
	const struct gm_patch_range *ranges;	/* the patches' hunks */
	size_t nr_ranges;
	bool all_signature_types;	/* of the commits read */
};

/* The blamed lines of each file of a run. */
struct gm_blame;

/* What vcs_file_blame() counts of one file of a run. */
struct gm_blame_file {
	struct gm_strvec lines;		/* each line's commit (hex), in order */
	struct gm_strvec ids;		/* the same once each, first seen first */
	struct gm_signers_commit *commits;	/* per id, as `git log -1`
						   gives it; zeroed if git
						   cannot read it */
};

/**
 * Blame each of `files` (paths from the top) as vcs_blame() does
 * a regular file of the work tree (of the commit's tree if there
 * is none), whole with no ranges at all, else each range of its own, in
 * order; "&STDIN" and other files give no line. All the blames run
 * before this returns, side by side; then the commits of every file's
 * lines are read, each once, as vcs_file_blame() reads each with
 * `git log -1` (gm_signers_commit_read()): the ids and commits of
 * gm_blame_file_at(). `*out` is the caller's (gm_blame_free()).
 * @return 0 or GM_ERROR.
 */
int gm_blame_run(struct gm_blame **out, const struct gm_blame_request *req,
		 const struct gm_strvec *files);

/** File `file` of gm_blame_run(), its commits once read. Owned by `b`. */
const struct gm_blame_file *gm_blame_file_at(const struct gm_blame *b,
					     size_t file);

void gm_blame_free(struct gm_blame *b);

#endif /* GM_BLAME_H */
