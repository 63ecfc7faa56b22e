#include <git2.h>

#include "gm/cli.h"

int main(int argc, char **argv)
{
	int status;

	git_libgit2_init();
	/* git does not re-hash objects on read; neither do we */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/* the history walk revisits big trees: keep them in the cache */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE,
			 (size_t)1 << 20);
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_COMMIT,
			 (size_t)1 << 16);
	status = gm_cli_run(argc, (const char **)argv);
	git_libgit2_shutdown();
	return status;
}
