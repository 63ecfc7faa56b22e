#include <stdlib.h>

#include <git2.h>

#include "gm_tests.h"
#include "gm_testutil.h"

static Suite *(*const suites[])(void) = {
	buf_suite, strvec_suite, strmap_suite, options_suite, email_suite,
	mailmap_suite, needles_suite, sha1_suite, index_suite, prefetch_suite,
	patch_suite, pattern_suite, maintainers_suite, match_suite,
	rank_suite, output_suite, repo_suite, cli_suite, selftest_suite,
	net_suite,
};

int main(void)
{
	SRunner *sr = srunner_create(NULL);
	size_t i;
	int ran, failed;

	/* Hermetic: no developer's ~/.gitconfig or GIT_DIR changes results. */
	gm_test_hermetic_env();
	git_libgit2_init();
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_GLOBAL, "");
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_XDG, "");
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_SYSTEM, "");

	for (i = 0; i < ARRAY_SIZE(suites); i++)
		srunner_add_suite(sr, suites[i]());
	srunner_run_all(sr, CK_ENV);	/* CK_VERBOSITY picks the mode */
	ran = srunner_ntests_run(sr);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	git_libgit2_shutdown();
	/* A mistyped CK_RUN_SUITE runs nothing; do not call that a pass. */
	return (ran == 0 || failed) ? EXIT_FAILURE : EXIT_SUCCESS;
}
