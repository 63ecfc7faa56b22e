#ifndef GM_PREFETCH_H
#define GM_PREFETCH_H

#include <stdbool.h>

#include <git2.h>

#include "gm/buf.h"
#include "gm/repo.h"

/*
 * MAINTAINERS read and hashed in a second thread while libgit2
 * initialises (which takes a core for milliseconds), and its bytes handed
 * to the caller's digest there: the file as it is in the work tree the
 * repository's location names, before the repository is open; then the
 * files the command line names, read and hashed. Each is used only where
 * it proves to be the blob that would be read: the same file of the same
 * work tree, the same blob id.
 *
 * The calls below are made by one thread, the one that started it.
 */
struct gm_prefetch;

/*
 * What the caller makes of the bytes of MAINTAINERS, in the prefetch's
 * thread (this layer knows nothing of what they mean): make() returns it,
 * or NULL for nothing; free() frees what was made and never taken.
 */
struct gm_prefetch_digest {
	void *(*make)(const char *text, size_t len);
	void (*free)(void *made);
};

/**
 * Start the prefetch of MAINTAINERS, digested by `digest` (which must
 * outlive the prefetch; NULL: MAINTAINERS is not read), and of the
 * regular files among the `argc` arguments `argv` that are no options,
 * in the work tree `loc` names; it needs nothing of libgit2. NULL when
 * there is nothing to start (no work tree known yet, no second CPU or
 * thread to be had).
 */
struct gm_prefetch *gm_prefetch_start(const struct gm_repo_location *loc,
				      int argc, const char **argv,
				      const struct gm_prefetch_digest *digest);

/**
 * Wait for the thread (the digest, then the -f files: joined before
 * anything read from the repository can end the process) and hand the
 * digest over if it was made of the file
 * MAINTAINERS at the top of `workdir` (as libgit2 gives it) holding the
 * blob `id`. @return it (the caller's, to free as the digest frees), or
 * NULL. `p` may be NULL.
 */
void *gm_prefetch_take(struct gm_prefetch *p, const char *workdir,
		       const git_oid *id);

/**
 * Hand over the bytes read from the file `path` (relative to the top)
 * of the work tree `workdir` if that is the one found and they are the
 * blob `id`, as gm_buf_read_regular() reads them (zeros after), into the
 * empty `out`. @return whether they were. `p` may be NULL.
 */
bool gm_prefetch_take_text(struct gm_prefetch *p, const char *workdir,
			   const char *path, const git_oid *id,
			   struct gm_buf *out);

/** Wait for the prefetch if need be, and free what was not taken. */
void gm_prefetch_free(struct gm_prefetch *p);

#endif /* GM_PREFETCH_H */
