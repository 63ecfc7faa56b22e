#ifndef GM_TESTS_H
#define GM_TESTS_H

#include <check.h>

/* One suite per module; check_main.c runs them all (or CK_RUN_SUITE). */
Suite *buf_suite(void);
Suite *strvec_suite(void);
Suite *pqueue_suite(void);
Suite *strmap_suite(void);
Suite *options_suite(void);
Suite *email_suite(void);
Suite *mailmap_suite(void);
Suite *needles_suite(void);
Suite *index_suite(void);
Suite *prefetch_suite(void);
Suite *patch_suite(void);
Suite *pattern_suite(void);
Suite *maintainers_suite(void);
Suite *match_suite(void);
Suite *trailer_suite(void);
Suite *rank_suite(void);
Suite *rankhist_suite(void);
Suite *output_suite(void);
Suite *repo_suite(void);
Suite *cli_suite(void);
Suite *thread_suite(void);
Suite *date_suite(void);
Suite *history_suite(void);
Suite *selftest_suite(void);
Suite *net_suite(void);
Suite *unowned_suite(void);
Suite *activity_suite(void);
Suite *signers_suite(void);
Suite *blame_suite(void);
Suite *pack_suite(void);
Suite *graph_suite(void);
Suite *treescript_suite(void);
Suite *batch_suite(void);
Suite *check_suite(void);

#endif /* GM_TESTS_H */
