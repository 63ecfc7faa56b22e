#ifndef GM_SIGNERS_COMMIT_H
#define GM_SIGNERS_COMMIT_H

#include <stdbool.h>
#include <stddef.h>

#include <git2.h>

#include "gm/strvec.h"

/*
 * One commit's entry of the script's `git log`, as
 *
 *     git log --format="GitCommit: %H%nGitAuthor: %an <%ae>%nGitDate: %aD%n\
 *         GitSubject: %s%n%b%n"
 *
 * prints it and the script reads it, line by line: what the history walk
 * (signers.h) keeps of every commit, and blame (blame.h) of every blamed
 * commit. Below both. Threads: any function here may run beside any other
 * on objects of its own.
 */

/* A commit's log entry, classified line by line as the script reads it. */
struct gm_signers_commit {
	git_oid id;
	size_t commit_lines;	/* lines matching ^GitCommit: [0-9a-f]{40} */
	struct gm_strvec authors;	/* lines matching ^GitAuthor: */
	struct gm_strvec signatures;	/* signature lines */
	struct gm_strvec stat_like;	/* body lines starting "<n>\t<n>\t" */
	char *author;		/* "%an <%ae>", raw */
};

/** The id of `c` in hex, into `out`, which it returns. */
char *gm_signers_commit_hex(const struct gm_signers_commit *c,
			    char out[GIT_OID_HEXSZ + 1]);

/**
 * Classify the log entry of commit `c` into `out` (released by
 * gm_signers_commit_release()): the signature lines of R-73, or with
 * `all_signature_types` those of --git-all-signature-types.
 * @return 0 or GM_ERROR.
 */
int gm_signers_commit_read(struct gm_signers_commit *out, git_commit *c,
			   bool all_signature_types);
void gm_signers_commit_release(struct gm_signers_commit *c);

#endif /* GM_SIGNERS_COMMIT_H */
