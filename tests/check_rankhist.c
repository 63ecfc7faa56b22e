/*
 * --history's ranking (gm_rank_add_history()):
 * scores and cuts computed by hand from the rules in gm/rank.h.
 */
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/options.h"
#include "gm/query.h"
#include "gm/rank.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/* ==================== the score ==================== */

/* The history's strings are not const: arrays, not literals. */
static char k_rev[] = "Reviewed-by", k_ack[] = "Acked-by";
static char k_sob[] = "Signed-off-by", k_test[] = "Tested-by";
static char k_case[] = "acked-BY", n_p[] = "P", e_p[] = "p@example.com";

static struct gm_history_type t_rev1[] = { { k_rev, 1 } };
static struct gm_history_type t_many[] = {
	{ k_rev, 2 }, { k_ack, 2 }, { k_sob, 9 }
};
static struct gm_history_type t_sob5[] = { { k_sob, 5 } };
static struct gm_history_type t_sob1[] = { { k_sob, 1 } };
static struct gm_history_type t_case[] = { { k_case, 1 } };
static struct gm_history_type t_test[] = { { k_test, 4 } };
static struct gm_history_type t_mix[] = {
	{ k_rev, 1 }, { k_sob, 1 }
};

#define SIGNALS(types, history_authored, author_rev, long_rev) \
	{ n_p, e_p, 1, (history_authored), (types), ARRAY_SIZE(types), \
	  (author_rev), (long_rev), GM_STRVEC_INIT }
#define PERSON(types, history_authored) SIGNALS(types, history_authored, 0, 0)

static const struct score_case {
	enum gm_rank_scope scope;
	struct gm_history_person person;
	bool walked;		/* false: no activity (NULL) */
	double want;
} score_cases[] = {
	/* scope: 4 for M:, 4 for R:, 0 for a catch-all's */
	{ GM_SCOPE_NONE, PERSON(t_rev1, 0), false, 0 },
	{ GM_SCOPE_CATCHALL, PERSON(t_rev1, 0), false, 0 },
	{ GM_SCOPE_REVIEWER, PERSON(t_rev1, 0), false, 4 },
	{ GM_SCOPE_MAINTAINER, PERSON(t_rev1, 0), false, 4 },
	/* one review: 2 */
	{ GM_SCOPE_NONE, PERSON(t_rev1, 0), true, 2 },
	/* four review lines count as three: 6; the 9 sign-offs as 6 */
	{ GM_SCOPE_NONE, PERSON(t_many, 0), true, 6 + 6 },
	/* sign-offs and authorship together count up to 6 */
	{ GM_SCOPE_NONE, PERSON(t_sob5, 2), true, 6 },
	{ GM_SCOPE_NONE, PERSON(t_sob1, 1), true, 2 },
	{ GM_SCOPE_REVIEWER, PERSON(t_sob5, 4), true, 4 + 6 },
	/* trailer names in any case */
	{ GM_SCOPE_NONE, PERSON(t_case, 0), true, 2 },
	/* other trailers count nothing */
	{ GM_SCOPE_NONE, PERSON(t_test, 0), true, 0 },
	{ GM_SCOPE_MAINTAINER, PERSON(t_mix, 0), true, 4 + 2 + 1 },
	{ GM_SCOPE_CATCHALL, PERSON(t_mix, 1), true, 0 + 2 + 2 },
	/* reviews of the author's other commits: 1 each, 5 at most */
	{ GM_SCOPE_NONE, SIGNALS(t_test, 0, 4, 0), true, 4 },
	{ GM_SCOPE_NONE, SIGNALS(t_test, 0, 30, 0), true, 5 },
	/* reviews of the files over two years, decayed: 2 each, 3 at most */
	{ GM_SCOPE_NONE, SIGNALS(t_test, 0, 0, 1.5), true, 2 * 1.5 },
	{ GM_SCOPE_NONE, SIGNALS(t_test, 0, 0, 7.25), true, 2 * 3 },
	/* all of them */
	{ GM_SCOPE_REVIEWER, SIGNALS(t_mix, 1, 3, 0.25), true,
	  4 + 2 + 2 + 3 + 2 * 0.25 },
	/* without a walk the signals count nothing */
	{ GM_SCOPE_NONE, SIGNALS(t_test, 0, 4, 1), false, 0 },
};

/*
 * MAINTAINERS that give P each scope: no section, M: of the catch-all
 * while OWN has its own M:, R: of OWN, M: of OWN.
 */
static const char *const scope_fixtures[] = {
	"OWN\nM:\tMae <mae@example.com>\nF:\town/\n",
	"OWN\nM:\tMae <mae@example.com>\nF:\town/\n\n"
	"THE REST\nM:\tP <p@example.com>\nF:\t*\nF:\t*/\n",
	"OWN\nM:\tMae <mae@example.com>\nR:\tP <p@example.com>\nF:\town/\n",
	"OWN\nM:\tP <p@example.com>\nF:\town/\n",
};

/* P's score and scope as gm_rank_add_history() gives them, no cut. */
START_TEST(test_rankhist_score_table)
{
	const struct score_case *c = &score_cases[_i];
	struct gm_history_person walked_p = c->person;
	const struct gm_history h = { .commits = 1, .people = &walked_p,
				      .nr_people = c->walked };
	struct gm_options opts;
	struct gm_rank_settings set;
	struct gm_maintainers *m = gm_test_parse(scope_fixtures[c->scope]);
	struct gm_rank rk;
	const struct gm_rank_entry *p = NULL;

	gm_options_init(&opts);
	opts.history = 1;
	opts.max_recipients = 0;
	ck_assert_int_eq(gm_options_finish(&opts), 0);
	gm_query_rank_settings(&set, &opts);
	gm_rank_init(&rk, &set, NULL);
	for (size_t s = 0; s < m->nr_sections; s++)
		ck_assert_int_eq(gm_rank_add_section(&rk, m, s), 0);
	ck_assert_int_eq(gm_rank_normalize(&rk), 0);
	ck_assert_int_eq(gm_rank_add_history(&rk, &h), 0);
	ck_assert_uint_eq(rk.cut.nr, 0);
	for (size_t i = 0; i < rk.people.nr; i++)
		if (strstr(rk.people.v[i].addr, e_p))
			p = &rk.people.v[i];
	/* in no section and not walked, P is not ranked at all */
	ck_assert(p || (c->scope == GM_SCOPE_NONE && !c->walked));
	ck_assert_double_eq_tol(p ? p->score : 0, c->want, 1e-9);
	ck_assert_int_eq(p ? p->scope : GM_SCOPE_NONE, c->scope);
	gm_rank_release(&rk);
	gm_maintainers_free(m);
	gm_options_release(&opts);
}
END_TEST

/* ==================== the ranking and the cut ==================== */

static const char fixture[] =
	"FOO DRIVER\n"
	"M:\tMae Maint <mae@example.com>\n"
	"R:\tRex Idle <rex@example.com>\n"
	"R:\tRia Active <ria@example.com>\n"
	"L:\tfoo@lists.example.com\n"
	"S:\tMaintained\n"
	"F:\tfoo/\n"
	"\n"
	"THE REST\n"
	"M:\tTom Rest <tom@example.com>\n"
	"L:\tall@lists.example.com\n"
	"S:\tMaintained\n"
	"F:\t*\n"
	"F:\t*/\n";

#define MAE "Mae Maint <mae@example.com>"
#define REX "Rex Idle <rex@example.com>"
#define RIA "Ria Active <ria@example.com>"
#define TOM "Tom Rest <tom@example.com>"
#define SAM "Sam Signer <sam@example.com>"
#define VAL "Val Acker <val@example.com>"
#define TESS "Tess Tester <tess@example.com>"

static struct gm_history_type h_sam[] = { { k_sob, 3 } };
static struct gm_history_type h_ria[] = { { k_rev, 2 } };
static struct gm_history_type h_val[] = { { k_ack, 1 } };
static struct gm_history_type h_tess[] = { { k_test, 1 } };

/*
 * Four commits; most commits first. Scores (with FOO's roles): Ria
 * 4 + 2 * 2 = 8 (R:, two reviews), Sam 6 (three sign-offs, three
 * commits written: 6 at most), Val 2, Tess 0.
 */
static char n_sam[] = "Sam Signer", e_sam[] = "sam@example.com";
static char n_ria[] = "Ria Active", e_ria[] = "ria@example.com";
static char n_val[] = "Val Acker", e_val[] = "val@example.com";
static char n_tess[] = "Tess Tester", e_tess[] = "tess@example.com";

static struct gm_history_person walked_people[] = {
	{ n_sam, e_sam, 3, 3, h_sam, 1, 0, 0, GM_STRVEC_INIT },
	{ n_ria, e_ria, 2, 0, h_ria, 1, 0, 0, GM_STRVEC_INIT },
	{ n_val, e_val, 1, 0, h_val, 1, 0, 0, GM_STRVEC_INIT },
	{ n_tess, e_tess, 1, 0, h_tess, 1, 0, 0, GM_STRVEC_INIT },
};

static const struct gm_history walked = {
	.commits = 4,
	.people = walked_people,
	.nr_people = ARRAY_SIZE(walked_people),
};

struct env {
	struct gm_options opts;
	struct gm_rank_settings set;
	struct gm_maintainers *m;
	struct gm_rank rk;
};

/* Start e->rk with the settings of e->opts, finished. */
static void env_rank_init(struct env *e)
{
	gm_query_rank_settings(&e->set, &e->opts);
	gm_rank_init(&e->rk, &e->set, NULL);
}

/* The ranking of `sections` (NULL-terminated) and `walked`. */
static void env_run(struct env *e, const char *const *sections,
		    int max_recipients, int max_maintainers)
{
	memset(e, 0, sizeof(*e));
	gm_options_init(&e->opts);
	e->opts.rolestats = 1;
	e->opts.history = 1;
	e->opts.max_recipients = max_recipients;
	e->opts.git_max_maintainers = max_maintainers;
	ck_assert_int_eq(gm_options_finish(&e->opts), 0);
	e->m = gm_test_parse(fixture);
	env_rank_init(e);
	for (; *sections; sections++)
		ck_assert_int_eq(gm_rank_add_section(&e->rk, e->m,
				 gm_test_section(e->m, *sections)), 0);
	ck_assert_int_eq(gm_rank_normalize(&e->rk), 0);
	ck_assert_int_eq(gm_rank_add_history(&e->rk, &walked), 0);
}

static void env_release(struct env *e)
{
	gm_rank_release(&e->rk);
	gm_maintainers_free(e->m);
	gm_options_release(&e->opts);
}

static void assert_list(const struct gm_rank_list *l, const char *want)
{
	struct gm_buf b = GM_BUF_INIT, roles = GM_BUF_INIT;

	for (size_t i = 0; i < l->nr; i++) {
		ck_assert_int_eq(gm_rank_roles(&roles, &l->v[i]), 0);
		gm_buf_printf(&b, "%s (%s)\n", l->v[i].addr, roles.ptr);
	}
	ck_assert_str_eq(b.len ? b.ptr : "", want);
	gm_buf_release(&b);
	gm_buf_release(&roles);
}

/* The people of `l`, one a line, without their roles. */
static void assert_people(const struct gm_rank_list *l, const char *want)
{
	struct gm_buf b = GM_BUF_INIT;

	for (size_t i = 0; i < l->nr; i++)
		gm_buf_printf(&b, "%s\n", l->v[i].addr);
	ck_assert_str_eq(b.len ? b.ptr : "", want);
	gm_buf_release(&b);
}

static const char *const both[] = { "FOO DRIVER", "THE REST", NULL };
static const char *const rest_only[] = { "THE REST", NULL };
static const char *const none[] = { NULL };

/*
 * Budget 4 (Mae, Rex, Ria, Tom). Scores: Ria 8, Sam 6, Mae 4 (M:), Rex 4
 * (R:), Val 2, Tom 0 (M: of the catch-all while FOO has its own M:),
 * Tess 0; ties in list order (the sections' people, then the walk's).
 * Nobody is kept whatever their role: the best four.
 */
START_TEST(test_rankhist_default_budget)
{
	struct env e;

	env_run(&e, both, -1, 5);
	assert_list(&e.rk.people,
		    RIA " (reviewer:FOO DRIVER,history_commits:2/4=50%,history_reviewed:2/4=50%)\n"
		    SAM " (history_commits:3/4=75%,history_authored:3/4=75%)\n"
		    MAE " (maintainer:FOO DRIVER,inactive)\n"
		    REX " (reviewer:FOO DRIVER,inactive)\n");
	assert_list(&e.rk.lists,
		    "foo@lists.example.com (open list:FOO DRIVER)\n"
		    "all@lists.example.com (open list)\n");
	env_release(&e);
}
END_TEST

/* --max-recipients=0: everyone, Tom and Tess (0) too, by score. */
START_TEST(test_rankhist_no_cut)
{
	struct env e;

	env_run(&e, both, 0, 5);
	assert_list(&e.rk.people,
		    RIA " (reviewer:FOO DRIVER,history_commits:2/4=50%,history_reviewed:2/4=50%)\n"
		    SAM " (history_commits:3/4=75%,history_authored:3/4=75%)\n"
		    MAE " (maintainer:FOO DRIVER,inactive)\n"
		    REX " (reviewer:FOO DRIVER,inactive)\n"
		    VAL " (history_commits:1/4=25%,history_reviewed:1/4=25%)\n"
		    TOM " (maintainer:THE REST,inactive)\n"
		    TESS " (history_commits:1/4=25%)\n");
	env_release(&e);
}
END_TEST

/* --max-recipients=2: the two best, M: people or not. */
START_TEST(test_rankhist_budget_of_two)
{
	struct env e;

	env_run(&e, both, 2, 5);
	assert_people(&e.rk.people, RIA "\n" SAM "\n");
	env_release(&e);
}
END_TEST

/* --max-recipients=3: Mae (4) third, over Rex (4, listed after her) and Val (2). */
START_TEST(test_rankhist_budget_three)
{
	struct env e;

	env_run(&e, both, 3, 5);
	assert_people(&e.rk.people, RIA "\n" SAM "\n" MAE "\n");
	env_release(&e);
}
END_TEST

/*
 * THE REST alone: no section has an M: of its own, so Tom is scored as
 * a maintainer (4), listed before Ria (4: no R: here, two reviews),
 * then Val (2), all below Sam (6).
 */
START_TEST(test_rankhist_catchall_alone)
{
	struct env e;

	env_run(&e, rest_only, 0, 5);
	assert_list(&e.rk.people,
		    SAM " (history_commits:3/4=75%,history_authored:3/4=75%)\n"
		    TOM " (maintainer:THE REST,inactive)\n"
		    RIA " (history_commits:2/4=50%,history_reviewed:2/4=50%)\n"
		    VAL " (history_commits:1/4=25%,history_reviewed:1/4=25%)\n"
		    TESS " (history_commits:1/4=25%)\n");
	env_release(&e);
}
END_TEST

/*
 * No section: nobody was listed, so nobody is (--git-max-maintainers, 2,
 * is not a budget); the walk's people are all cut, by score: Sam (6),
 * Ria (4), Val (2), Tess (0).
 */
START_TEST(test_rankhist_no_sections)
{
	struct env e;

	env_run(&e, none, -1, 2);
	assert_list(&e.rk.people, "");
	assert_people(&e.rk.cut, SAM "\n" RIA "\n" VAL "\n" TESS "\n");
	env_release(&e);
}
END_TEST

/*
 * Mae is M: of FOO and of THE REST: one entry with both roles (scored as
 * FOO's M:, 4), under --max-recipients=0 after Sam (6), before Ria (4,
 * the walk's) and Val (2).
 */
static const char twice[] =
	"FOO DRIVER\n"
	"M:\tMae Maint <mae@example.com>\n"
	"S:\tMaintained\n"
	"F:\tfoo/\n"
	"\n"
	"THE REST\n"
	"M:\tTom Rest <tom@example.com>\n"
	"M:\tMae Maint <MAE@example.com>\n"
	"S:\tMaintained\n"
	"F:\t*\n";

START_TEST(test_rankhist_one_entry_per_address)
{
	struct env e;

	memset(&e, 0, sizeof(e));
	gm_options_init(&e.opts);
	e.opts.rolestats = 1;
	e.opts.history = 1;
	e.opts.remove_duplicates = 0;
	e.opts.max_recipients = 0;
	ck_assert_int_eq(gm_options_finish(&e.opts), 0);
	e.m = gm_test_parse(twice);
	env_rank_init(&e);
	ck_assert_int_eq(gm_rank_add_section(&e.rk, e.m,
			 gm_test_section(e.m, "FOO DRIVER")), 0);
	ck_assert_int_eq(gm_rank_add_section(&e.rk, e.m,
			 gm_test_section(e.m, "THE REST")), 0);
	ck_assert_uint_eq(e.rk.people.nr, 3);
	ck_assert_int_eq(gm_rank_add_history(&e.rk, &walked), 0);
	assert_list(&e.rk.people,
		    SAM " (history_commits:3/4=75%,history_authored:3/4=75%)\n"
		    MAE " (maintainer:FOO DRIVER,maintainer:THE REST,inactive)\n"
		    RIA " (history_commits:2/4=50%,history_reviewed:2/4=50%)\n"
		    VAL " (history_commits:1/4=25%,history_reviewed:1/4=25%)\n"
		    TOM " (maintainer:THE REST,inactive)\n"
		    TESS " (history_commits:1/4=25%)\n");
	env_release(&e);
}
END_TEST

/*
 * A walk without a review: Sam (three sign-offs, three commits written:
 * 3) and Tess (a Tested-by: 0, not taken), four commits.
 */
static struct gm_history_person unreviewed_people[] = {
	{ n_sam, e_sam, 3, 3, h_sam, 1, 0, 0, GM_STRVEC_INIT },
	{ n_tess, e_tess, 1, 0, h_tess, 1, 0, 0, GM_STRVEC_INIT },
};

static const struct gm_history unreviewed = {
	.commits = 4,
	.people = unreviewed_people,
	.nr_people = ARRAY_SIZE(unreviewed_people),
};

/* Sam as above (6), and Val (one Acked-by:, 2). */
static struct gm_history_person some_reviewed_people[] = {
	{ n_sam, e_sam, 3, 3, h_sam, 1, 0, 0, GM_STRVEC_INIT },
	{ n_val, e_val, 1, 0, h_val, 1, 0, 0, GM_STRVEC_INIT },
};

static const struct gm_history some_reviewed = {
	.commits = 4,
	.people = some_reviewed_people,
	.nr_people = ARRAY_SIZE(some_reviewed_people),
};

#define FAY "Fay File <fay@example.com>"
#define GUS "Gus File <gus@example.com>"

/*
 * THE REST and addresses found in the file (`in_file`, NULL-terminated)
 * listed, then the walk `h`.
 */
static void env_in_file(struct env *e, const char *const *in_file,
			const struct gm_history *h, int max_recipients)
{
	struct gm_strvec v = GM_STRVEC_INIT;

	memset(e, 0, sizeof(*e));
	gm_options_init(&e->opts);
	e->opts.rolestats = 1;
	e->opts.history = 1;
	e->opts.max_recipients = max_recipients;
	ck_assert_int_eq(gm_options_finish(&e->opts), 0);
	e->m = gm_test_parse(fixture);
	env_rank_init(e);
	ck_assert_int_eq(gm_rank_add_section(&e->rk, e->m,
			 gm_test_section(e->m, "THE REST")), 0);
	ck_assert_int_eq(gm_rank_normalize(&e->rk), 0);
	for (; *in_file; in_file++)
		ck_assert_int_eq(gm_strvec_push(&v, *in_file), 0);
	ck_assert_int_eq(gm_rank_finish(&e->rk, &v), 0);
	gm_strvec_release(&v);
	ck_assert_int_eq(gm_rank_add_history(&e->rk, h), 0);
}

static const char *const fay[] = { FAY, NULL };
static const char *const fay_gus[] = { FAY, GUS, NULL };

/*
 * Tom and Fay listed, a budget of 2. Sam (three sign-offs, three commits
 * written: 6) and Tom (M: of THE REST, the only M:, 4) over Fay (0) and
 * Tess (a Tested-by: 0).
 */
START_TEST(test_rankhist_no_review_in_window)
{
	struct env e;

	env_in_file(&e, fay, &unreviewed, -1);
	assert_people(&e.rk.people,
		    SAM "\n"
		    TOM "\n");
	env_release(&e);
}
END_TEST

/*
 * Tom, Fay and Gus listed, a budget of 3: Sam (6), Tom (4), Val (2);
 * Fay and Gus score 0.
 */
START_TEST(test_rankhist_best_three)
{
	struct env e;

	env_in_file(&e, fay_gus, &some_reviewed, -1);
	assert_people(&e.rk.people,
		    SAM "\n"
		    TOM "\n"
		    VAL "\n");
	env_release(&e);
}
END_TEST

/*
 * --max-recipients=4 leaves one place after Sam, Tom and Val: Fay and
 * Gus both score 0, and Fay comes first in the list: Gus is cut.
 */
START_TEST(test_rankhist_zero_fills_places)
{
	struct env e;

	env_in_file(&e, fay_gus, &some_reviewed, 4);
	assert_people(&e.rk.people,
		    SAM "\n"
		    TOM "\n"
		    VAL "\n"
		    FAY "\n");
	assert_people(&e.rk.cut, GUS "\n");
	env_release(&e);
}
END_TEST

/*
 * Roles as Xen's script shows them: section names cut to 8 bytes and R:
 * lines as a bare "reviewer". The scopes are those of the full names:
 * the ranking of test_rankhist_default_budget: Ria (R: of FOO) 8, Sam 6,
 * Mae (M: of FOO, cut to "FOO D...") 4, Rex (a bare "reviewer") 4.
 */
START_TEST(test_rankhist_short_roles)
{
	struct env e;

	memset(&e, 0, sizeof(e));
	gm_options_init(&e.opts);
	e.opts.rolestats = 1;
	e.opts.history = 1;
	e.opts.section_name_max = 8;
	e.opts.reviewer_section = 0;
	ck_assert_int_eq(gm_options_finish(&e.opts), 0);
	e.m = gm_test_parse(fixture);
	env_rank_init(&e);
	for (const char *const *s = both; *s; s++)
		ck_assert_int_eq(gm_rank_add_section(&e.rk, e.m,
				 gm_test_section(e.m, *s)), 0);
	ck_assert_int_eq(gm_rank_normalize(&e.rk), 0);
	ck_assert_int_eq(gm_rank_add_history(&e.rk, &walked), 0);
	assert_people(&e.rk.people,
		    RIA "\n"
		    SAM "\n"
		    MAE "\n"
		    REX "\n");
	env_release(&e);
}
END_TEST

/* Without stats the roles are names only. */
START_TEST(test_rankhist_roles_without_stats)
{
	struct env e;

	memset(&e, 0, sizeof(e));
	gm_options_init(&e.opts);
	e.opts.roles = 1;
	e.opts.max_recipients = 1;
	ck_assert_int_eq(gm_options_finish(&e.opts), 0);
	e.m = gm_test_parse(fixture);
	env_rank_init(&e);
	ck_assert_int_eq(gm_rank_add_history(&e.rk, &walked), 0);
	assert_list(&e.rk.people, SAM " (history_commits,history_authored)\n");
	env_release(&e);
}
END_TEST

/*
 * Ria's lines under two addresses (FOO's R: line has the first): the
 * output names her once, so the walk does, counts summed: 2 + 1 review
 * lines, 2 + 1 commits; score 4 + 2 * 3 = 10, and not inactive.
 */
static char e_ria_old[] = "ria@old.example.com";
static struct gm_history_type h_ria_old[] = { { k_ack, 1 } };
static struct gm_history_person two_address_people[] = {
	{ n_ria, e_ria, 2, 0, h_ria, 1, 0, 0, GM_STRVEC_INIT },
	{ n_ria, e_ria_old, 1, 0, h_ria_old, 1, 0, 0, GM_STRVEC_INIT },
};

static const struct gm_history two_addresses = {
	.commits = 4,
	.people = two_address_people,
	.nr_people = ARRAY_SIZE(two_address_people),
};

START_TEST(test_rankhist_two_addresses_one_person)
{
	struct env e;

	memset(&e, 0, sizeof(e));
	gm_options_init(&e.opts);
	e.opts.rolestats = 1;
	e.opts.history = 1;
	e.opts.max_recipients = 0;
	ck_assert_int_eq(gm_options_finish(&e.opts), 0);
	e.m = gm_test_parse(fixture);
	env_rank_init(&e);
	ck_assert_int_eq(gm_rank_add_section(&e.rk, e.m,
			 gm_test_section(e.m, "FOO DRIVER")), 0);
	ck_assert_int_eq(gm_rank_normalize(&e.rk), 0);
	ck_assert_int_eq(gm_rank_add_history(&e.rk, &two_addresses), 0);
	assert_list(&e.rk.people,
		    RIA " (reviewer:FOO DRIVER,history_commits:3/4=75%,history_reviewed:3/4=75%)\n"
		    MAE " (maintainer:FOO DRIVER,inactive)\n"
		    REX " (reviewer:FOO DRIVER,inactive)\n");
	ck_assert_double_eq(e.rk.people.v[0].score, 10);
	ck_assert_uint_eq(e.rk.cut.nr, 0);
	env_release(&e);
}
END_TEST

/*
 * The default budget's cut (test_rankhist_default_budget) keeps those
 * cut in rk->cut, best first, with their scores: Val 2, Tom 0, Tess 0.
 */
START_TEST(test_rankhist_cut_kept_aside)
{
	struct env e;

	env_run(&e, both, -1, 5);
	assert_people(&e.rk.cut, VAL "\n" TOM "\n" TESS "\n");
	ck_assert_double_eq(e.rk.cut.v[0].score, 2);
	ck_assert_int_eq(e.rk.cut.v[0].scope, GM_SCOPE_NONE);
	ck_assert_double_eq(e.rk.cut.v[1].score, 0);
	ck_assert_int_eq(e.rk.cut.v[1].scope, GM_SCOPE_CATCHALL);
	ck_assert_double_eq(e.rk.cut.v[2].score, 0);
	ck_assert_double_eq(e.rk.people.v[0].score, 8);
	ck_assert_int_eq(e.rk.people.v[0].scope, GM_SCOPE_REVIEWER);
	env_release(&e);
}
END_TEST

/*
 * --max-recipients=0 lists everyone the walk counted, whatever
 * --git-max-maintainers says (1 here: the budget without sections).
 */
START_TEST(test_rankhist_zero_ignores_limits)
{
	struct env e;

	env_run(&e, none, 0, 1);
	assert_people(&e.rk.people, SAM "\n" RIA "\n" VAL "\n" TESS "\n");
	ck_assert_uint_eq(e.rk.cut.nr, 0);
	env_release(&e);
}
END_TEST

/*
 * People the walk reached only through its signals: Ada (no commit of
 * the paths, 8 reviews of the author's other commits: 5 at most) and
 * Lou (reviews of the files before the window, 2.5 decayed: 2 * 2.5),
 * with Sam (6). FOO's people: Mae 4, Rex 4, Ria 4 (R:, no walk here).
 * --max-recipients=3: Sam, Ada, Lou (in the walk's order); their counts
 * in rk->hist.
 */
static char n_ada[] = "Ada Author", e_ada[] = "ada@example.com";
static char n_lou[] = "Lou Long", e_lou[] = "lou@example.com";
static struct gm_history_person signal_people[] = {
	{ n_sam, e_sam, 3, 3, h_sam, 1, 0, 0, GM_STRVEC_INIT },
	{ n_ada, e_ada, 0, 0, NULL, 0, 8, 0, GM_STRVEC_INIT },
	{ n_lou, e_lou, 0, 0, NULL, 0, 0, 2.5, GM_STRVEC_INIT },
};

static const struct gm_history signals_walked = {
	.commits = 3,
	.people = signal_people,
	.nr_people = ARRAY_SIZE(signal_people),
};

START_TEST(test_rankhist_signals_only)
{
	struct env e;

	memset(&e, 0, sizeof(e));
	gm_options_init(&e.opts);
	e.opts.history = 1;
	e.opts.max_recipients = 3;
	ck_assert_int_eq(gm_options_finish(&e.opts), 0);
	e.m = gm_test_parse(fixture);
	env_rank_init(&e);
	ck_assert_int_eq(gm_rank_add_section(&e.rk, e.m,
			 gm_test_section(e.m, "FOO DRIVER")), 0);
	ck_assert_int_eq(gm_rank_normalize(&e.rk), 0);
	ck_assert_int_eq(gm_rank_add_history(&e.rk, &signals_walked), 0);
	assert_people(&e.rk.people,
		      SAM "\nAda Author <ada@example.com>\n"
		      "Lou Long <lou@example.com>\n");
	ck_assert_double_eq(e.rk.people.v[1].score, 5);
	ck_assert_uint_eq(e.rk.people.v[1].history->author_rev, 8);
	ck_assert_double_eq(e.rk.people.v[2].score, 5);
	ck_assert_double_eq(e.rk.people.v[2].history->long_rev, 2.5);
	assert_people(&e.rk.cut, MAE "\n" REX "\n" RIA "\n");
	env_release(&e);
}
END_TEST

Suite *rankhist_suite(void)
{
	Suite *s = suite_create("rankhist");
	TCase *score = tcase_create("score");
	TCase *cut = tcase_create("cut");

	tcase_add_loop_test(score, test_rankhist_score_table, 0,
			    (int)ARRAY_SIZE(score_cases));
	suite_add_tcase(s, score);
	tcase_add_test(cut, test_rankhist_default_budget);
	tcase_add_test(cut, test_rankhist_no_cut);
	tcase_add_test(cut, test_rankhist_budget_of_two);
	tcase_add_test(cut, test_rankhist_budget_three);
	tcase_add_test(cut, test_rankhist_catchall_alone);
	tcase_add_test(cut, test_rankhist_no_sections);
	tcase_add_test(cut, test_rankhist_roles_without_stats);
	tcase_add_test(cut, test_rankhist_one_entry_per_address);
	tcase_add_test(cut, test_rankhist_best_three);
	tcase_add_test(cut, test_rankhist_zero_fills_places);
	tcase_add_test(cut, test_rankhist_no_review_in_window);
	tcase_add_test(cut, test_rankhist_short_roles);
	tcase_add_test(cut, test_rankhist_two_addresses_one_person);
	tcase_add_test(cut, test_rankhist_cut_kept_aside);
	tcase_add_test(cut, test_rankhist_zero_ignores_limits);
	tcase_add_test(cut, test_rankhist_signals_only);
	suite_add_tcase(s, cut);
	return s;
}
