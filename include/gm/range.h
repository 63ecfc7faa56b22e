#ifndef GM_RANGE_H
#define GM_RANGE_H

#include "gm/repo.h"
#include "gm/strvec.h"

/*
 * Commits named on the command line (--check=approvals): the ids of a
 * range, and what a commit says of itself, read here so that no stage
 * above calls libgit2.
 */

/**
 * The ids (in hex) of the commits `spec` names, appended to `out`,
 * oldest first: for "A..B" the commits of B not in A, merges included;
 * else the one commit `spec` names, as git rev-parse reads it.
 * @return 0, GM_ENOTFOUND (no such revision), or GM_ERROR.
 */
int gm_range_ids(struct gm_repo *r, const char *spec, struct gm_strvec *out);

/* What a commit says of itself; every string is the caller's. */
struct gm_range_commit {
	char *author;		/* "Name <email>" */
	char *committer;	/* "Name <email>" */
	char *summary;		/* its subject line */
	char *body;		/* the message after it, or "" */
	unsigned parents;
};

/**
 * The commit `rev` names, into `out` (gm_range_commit_release(), also
 * after a failure). @return 0, GM_ENOTFOUND, or GM_ERROR.
 */
int gm_range_commit(struct gm_repo *r, const char *rev,
		    struct gm_range_commit *out);
void gm_range_commit_release(struct gm_range_commit *c);

#endif /* GM_RANGE_H */
