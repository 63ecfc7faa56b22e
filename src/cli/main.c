#include "gm/cli.h"
#include "gm/heap.h"
#include "gm/repo.h"
#include "gm/rules.h"

int main(int argc, char **argv)
{
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
	gm_repo_init();
	status = gm_cli_run(argc, (const char **)argv, loc, prefetch);
	gm_prefetch_free(prefetch);
	gm_repo_location_free(loc);
	gm_repo_shutdown();
	return status;
}
