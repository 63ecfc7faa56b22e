#ifndef GM_IDENT_H
#define GM_IDENT_H

#include <stdint.h>

#include <git2.h>

/*
 * Who made a commit and when, as a walk's commits and a mailmap tell it,
 * read here so that the stages above call no libgit2. Each may run in
 * several threads at once on different commits; a mailmap is only read.
 */

/** The committer time of `c`, in seconds since the epoch. */
int64_t gm_ident_commit_time(const git_commit *c);

/**
 * The name and address `mm` maps `name` <`email`> to, into `*rname` and
 * `*remail`, borrowed from `mm` or the inputs. @return 0 or GM_ERROR.
 */
int gm_ident_resolve(const char **rname, const char **remail,
		     const git_mailmap *mm, const char *name,
		     const char *email);

/** Free a mailmap (gm_history_mailmap()'s). NULL is a no-op. */
void gm_ident_mailmap_free(git_mailmap *mm);

#endif /* GM_IDENT_H */
