#include <git2.h>

#include "gm/cli.h"
#include "gm/heap.h"
#include "gm/rules.h"

int main(int argc, char **argv)
{
	static const char *extensions[] = { "partialclone" };
	static const struct gm_prefetch_digest digest = {
		gm_rules_digest, gm_rules_digest_free
	};
	struct gm_repo_location *loc = NULL;
	struct gm_prefetch *prefetch = NULL;
	int status;

	gm_heap_prepare();
	/* found without libgit2, so the prefetch runs while it initialises */
	if (gm_repo_locate(&loc) == 0)
		prefetch = gm_prefetch_start(loc, argc, (const char **)argv,
					     &digest);
	git_libgit2_init();
	/* git does not re-hash objects on read; neither do we */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/*
	 * What is read again is kept where it is used (the trees of looked-up
	 * directories in gm_repo, the history walk's memo). libgit2's cache
	 * would hold every commit and tree read until its repository is
	 * freed, which took 5-10 ms at the end of a U-Boot walk.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
	/* a partial clone's missing objects are fetched (src/git/promisor.c) */
	git_libgit2_opts(GIT_OPT_SET_EXTENSIONS, extensions, (size_t)1);
	status = gm_cli_run(argc, (const char **)argv, loc, prefetch);
	gm_prefetch_free(prefetch);
	gm_repo_location_free(loc);
	git_libgit2_shutdown();
	return status;
}
