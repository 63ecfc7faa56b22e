#ifndef GM_IDENT_H
#define GM_IDENT_H

#include <git2.h>

#include "gm/buf.h"

/*
 * Who is who, as git reads it: the mailmap git would use and the user's
 * own identity.
 */

/**
 * The mailmap git would use at `tree` (NULL: none): its .mailmap, then
 * the blob named by mailmap.blob, then the file named by mailmap.file.
 * On success `*out` belongs to the caller (gm_ident_mailmap_free()).
 * @return 0 or GM_ERROR.
 */
int gm_ident_mailmap(git_mailmap **out, git_repository *repo,
		     git_tree *tree);

/**
 * `*name` and `*email` through `mm` (NULL: unchanged); the results point
 * into `mm` or are the ones given. @return 0 or GM_ERROR.
 */
int gm_ident_resolve(const git_mailmap *mm, const char **name,
		     const char **email);

/** Free a mailmap (gm_ident_mailmap()'s). NULL is a no-op. */
void gm_ident_mailmap_free(git_mailmap *mm);

/**
 * The user's identity as git resolves an author's: GIT_AUTHOR_NAME and
 * GIT_AUTHOR_EMAIL, else author.name/author.email, else user.name/
 * user.email, else $EMAIL, into `name` and `email` (overwritten).
 * @return 0, GM_ENOTFOUND if no address is set, or GM_ERROR.
 */
int gm_ident_user(struct gm_buf *name, struct gm_buf *email,
		  git_repository *repo);

#endif /* GM_IDENT_H */
