/* CPU affinity is a GNU extension, in every libc this is built with. */
#define _GNU_SOURCE

#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "gm_tests.h"
#include "gm_testutil.h"

/* The exit status ctest reads as "skipped" (SKIP_RETURN_CODE). */
#define SKIP_STATUS 77

static Suite *(*const suites[])(void) = {
	buf_suite, strvec_suite, strmap_suite, options_suite, email_suite,
	mailmap_suite, needles_suite, index_suite, prefetch_suite,
	patch_suite, pattern_suite, maintainers_suite, match_suite,
	trailer_suite, rank_suite, output_suite, repo_suite, cli_suite,
	thread_suite,
	date_suite, history_suite,
	selftest_suite, net_suite,
	unowned_suite, activity_suite, signers_suite, blame_suite, pack_suite,
	graph_suite,
	treescript_suite, pqueue_suite, rankhist_suite, batch_suite,
	check_suite,
};

/*
 * Suites whose tests need two CPUs this process may run on (work handed
 * to a second thread only where there is a second CPU for it), by the
 * name given to suite_create(). On one CPU they are skipped, with a line
 * saying so: the whole run if CK_RUN_SUITE selects one of them (exit 77),
 * else just these suites.
 */
static const struct {
	const char *name;
	Suite *(*make)(void);
} two_cpu_suites[] = {
	{ "prefetch", prefetch_suite },
};

/* CPUs online, or fewer if the affinity mask (taskset) allows fewer. */
static long usable_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef CPU_COUNT
	cpu_set_t set;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) < n)
		n = CPU_COUNT(&set);
#endif
	return n;
}

/* Whether `make` builds a suite that cannot run here; says why if so. */
static int suite_skipped(Suite *(*make)(void), long cpus)
{
	for (size_t i = 0; i < ARRAY_SIZE(two_cpu_suites); i++)
		if (two_cpu_suites[i].make == make && cpus < 2) {
			printf("SKIP: unit.%s: needs 2 CPUs, this process "
			       "may use %ld\n", two_cpu_suites[i].name, cpus);
			return 1;
		}
	return 0;
}

int main(void)
{
	const char *only = getenv("CK_RUN_SUITE");
	long cpus = usable_cpus();
	char skips_path[] = "/tmp/gm-tests-skips.XXXXXX";
	SRunner *sr;
	size_t i;
	int ran, failed, skips;
	bool skipped;

	for (i = 0; only && i < ARRAY_SIZE(two_cpu_suites); i++)
		if (!strcmp(only, two_cpu_suites[i].name) &&
		    suite_skipped(two_cpu_suites[i].make, cpus))
			return SKIP_STATUS;

	/* Hermetic: no developer's ~/.gitconfig or GIT_DIR changes results. */
	gm_test_hermetic_env();
	gm_repo_init();	/* as the program sets libgit2 up */
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_GLOBAL, "");
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_XDG, "");
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_SYSTEM, "");

	/* the checks that could not run say so here (gm_test_skip()) */
	if ((skips = mkstemp(skips_path)) < 0 ||
	    setenv("GM_TEST_SKIPS", skips_path, 1))
		return EXIT_FAILURE;
	sr = srunner_create(NULL);
	for (i = 0; i < ARRAY_SIZE(suites); i++)
		if (only || !suite_skipped(suites[i], cpus))
			srunner_add_suite(sr, suites[i]());
	srunner_run_all(sr, CK_ENV);	/* CK_VERBOSITY picks the mode */
	ran = srunner_ntests_run(sr);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	git_libgit2_shutdown();
	skipped = lseek(skips, 0, SEEK_END) > 0;
	close(skips);
	unlink(skips_path);
	/* A mistyped CK_RUN_SUITE runs nothing; do not call that a pass. */
	if (ran == 0 || failed)
		return EXIT_FAILURE;
	return skipped ? SKIP_STATUS : EXIT_SUCCESS;
}
