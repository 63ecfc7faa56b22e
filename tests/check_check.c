#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/check.h"
#include "gm/mailmap.h"
#include "gm/match.h"
#include "gm/options.h"
#include "gm/query.h"
#include "gm/rank.h"

#include "gm_tests.h"
#include "gm_testutil.h"

static const char rules[] =
	"ALPHA\n"
	"M:\tAlice <alice@example.com>\n"
	"R:\tRob <rob@example.com>\n"
	"L:\talpha@lists.example.org (moderated; alias of all@lists.example.org)\n"
	"S:\tMaintained\n"
	"F:\talpha/\n"
	"\n"
	"BETA\n"
	"M:\tBob <bob@example.com>\n"
	"L:\tbeta@lists.example.org\n"
	"S:\tSupported\n"
	"F:\tbeta/\n"
	"\n"
	"GAMMA\n"
	"L:\tgamma@lists.example.org\n"
	"F:\tgamma/\n"
	"\n"
	"THE REST\n"
	"M:\tChief <chief@example.com>\n"
	"L:\trest@lists.example.org\n"
	"F:\t*\n"
	"F:\t*/\n";

/* Alice's old address, and Bob's in capitals, joined by the .mailmap. */
static const char mailmap[] =
	"Alice <alice@example.com> <alice@old.example.net>\n";

/* ==================== mails ==================== */

static const char mbox[] =
	"From 1234 Mon Sep 17 00:00:00 2001\n"
	"From: A <a@x>\n"
	"To: One <one@x>,\n"
	"\tTwo <two@x>\n"
	"cc: \"Three, Esq.\" <three@x>\n"
	"Subject: [PATCH 1/2] first\n"
	"\n"
	"body\n"
	"From here on, no new message: no blank line before\n"
	"\n"
	"From 5678 Mon Sep 17 00:00:00 2001\r\n"
	"Subject: [PATCH 2/2] second\r\n"
	"CC: four@x (Four)\r\n"
	"Cc: five@x\r\n"
	"\r\n"
	"body two\r\n";

START_TEST(test_check_mails_of_an_mbox)
{
	struct gm_check_mail m[3];
	struct gm_buf v = GM_BUF_INIT;
	size_t pos = 0, n = 0;

	while (n < 3 && gm_check_next_mail(&m[n], mbox, strlen(mbox), &pos))
		n++;
	ck_assert_uint_eq(n, 2);
	ck_assert(!strncmp(m[0].text, "From: A", 7));
	ck_assert(!strncmp(m[0].text + m[0].body, "body\nFrom here", 14));
	ck_assert(!strncmp(m[1].text, "Subject: [PATCH 2/2]", 20));
	ck_assert_int_eq(gm_check_header(&v, &m[0], "To"), 1);
	ck_assert_str_eq(v.ptr, "One <one@x>,\tTwo <two@x>");
	ck_assert_int_eq(gm_check_header(&v, &m[0], "Cc"), 1);
	ck_assert_str_eq(v.ptr, "\"Three, Esq.\" <three@x>");
	ck_assert_int_eq(gm_check_header(&v, &m[1], "cc"), 1);
	ck_assert_str_eq(v.ptr, "four@x (Four), five@x");
	ck_assert_int_eq(gm_check_header(&v, &m[1], "To"), 0);
	/* the body's "From here on" is no header */
	ck_assert_int_eq(gm_check_header(&v, &m[0], "From"), 1);
	ck_assert_str_eq(v.ptr, "A <a@x>");
	gm_buf_release(&v);
}
END_TEST

/* ==================== recipients ==================== */

/* A ranking of `sections` (NULL-terminated) as the query makes it. */
struct env {
	struct gm_options opts;
	struct gm_rank_settings set;
	struct gm_maintainers *m;
	struct gm_mailmap *mm;
	struct gm_rank rk;
	struct gm_check c;
};

static void env_init(struct env *e, const char *const *sections)
{
	memset(e, 0, sizeof(*e));
	gm_options_init(&e->opts);
	ck_assert_int_eq(gm_options_finish(&e->opts), 0);
	e->m = gm_test_parse(rules);
	ck_assert_int_eq(gm_mailmap_from_buffer(&e->mm, mailmap,
						strlen(mailmap)), 0);
	gm_query_rank_settings(&e->set, &e->opts);
	gm_rank_init(&e->rk, &e->set, e->mm);
	for (; sections && *sections; sections++)
		ck_assert_int_eq(gm_rank_add_section(&e->rk, e->m,
				 gm_test_section(e->m, *sections)), 0);
	ck_assert_int_eq(gm_rank_normalize(&e->rk), 0);
	gm_check_init(&e->c, e->mm);
}

static void env_release(struct env *e)
{
	gm_check_release(&e->c);
	gm_rank_release(&e->rk);
	gm_mailmap_free(e->mm);
	gm_maintainers_free(e->m);
	gm_options_release(&e->opts);
}

static struct gm_check_mail mail_of(const char *text)
{
	struct gm_check_mail m;
	size_t pos = 0;

	ck_assert(gm_check_next_mail(&m, text, strlen(text), &pos));
	return m;
}

/* The items of the last verdict as "verdict who (why) [via]" lines. */
static char *verdicts(const struct gm_check *c)
{
	static const char *const names[] = { "missing", "advice", "ok",
					     "apart" };
	const struct gm_check_patch *p = &c->v[c->nr - 1];
	struct gm_buf b = GM_BUF_INIT;

	for (size_t i = 0; i < p->nr; i++) {
		gm_buf_printf(&b, "%s %s (%s)", names[p->v[i].verdict],
			      p->v[i].who, p->v[i].why);
		if (p->v[i].via)
			gm_buf_printf(&b, " via %s", p->v[i].via);
		gm_buf_puts(&b, "\n");
	}
	return gm_buf_detach(&b, NULL);
}

static void assert_verdicts(const struct gm_check *c, const char *want)
{
	char *got = verdicts(c);

	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(test_check_recipients_verdicts)
{
	static const char *const secs[] = { "ALPHA", "THE REST", NULL };
	struct gm_strvec fixes = GM_STRVEC_INIT;
	struct gm_check_mail m;
	struct env e;

	env_init(&e, secs);
	gm_strvec_push(&fixes, "Dave <dave@example.com>");
	gm_strvec_push(&fixes, "author of Fixes: 1234");
	/* Alice under her old address, the list through its alias */
	m = mail_of("To: alice@OLD.example.net, All <all@lists.example.org>\n"
		    "Subject: [PATCH] alpha\n\nx\n");
	ck_assert_int_eq(gm_check_recipients(&e.c, "p1", &m, NULL, &e.rk,
					     &fixes), 0);
	assert_verdicts(&e.c,
		"missing Dave <dave@example.com> (author of Fixes: 1234)\n"
		"ok Alice <alice@example.com> (maintainer:ALPHA) via alice@OLD.example.net\n"
		"advice Rob <rob@example.com> (reviewer:ALPHA)\n"
		"missing Chief <chief@example.com> (unknown:THE REST)\n"
		"ok alpha@lists.example.org (moderated list:ALPHA) via all@lists.example.org\n"
		"missing rest@lists.example.org (open list)\n");
	ck_assert_uint_eq(e.c.v[0].missing, 3);
	ck_assert_str_eq(e.c.v[0].subject, "[PATCH] alpha");
	env_release(&e);
	gm_strvec_release(&fixes);
}
END_TEST

START_TEST(test_check_recipients_cover_and_options)
{
	static const char *const secs[] = { "ALPHA", "THE REST", NULL };
	struct gm_strvec none = GM_STRVEC_INIT;
	struct gm_check_mail m, cover;
	struct env e;

	env_init(&e, secs);
	e.c.reviewers = true;
	cover = mail_of("Cc: rest@lists.example.org, CHIEF@example.com\n"
			"Subject: [PATCH 0/1] all\n\n");
	m = mail_of("To: Alice <alice@example.com>\n"
		    "Cc: alpha@lists.example.org,\n"
		    " \"Rob, R.\" <ROB@example.com> (a, comment)\n\n");
	ck_assert_int_eq(gm_check_recipients(&e.c, "p", &m, &cover, &e.rk,
					     &none), 0);
	assert_verdicts(&e.c,
		"ok Alice <alice@example.com> (maintainer:ALPHA)\n"
		"ok Rob <rob@example.com> (reviewer:ALPHA)\n"
		"ok Chief <chief@example.com> (unknown:THE REST)\n"
		"ok alpha@lists.example.org (moderated list:ALPHA)\n"
		"ok rest@lists.example.org (open list)\n");
	ck_assert_uint_eq(gm_check_missing(&e.c), 0);
	/* without the cover letter, THE REST is missed; R: is required */
	m = mail_of("To: Alice <alice@example.com>\n"
		    "Cc: alpha@lists.example.org\n\n");
	ck_assert_int_eq(gm_check_recipients(&e.c, "p", &m, NULL, &e.rk,
					     &none), 0);
	assert_verdicts(&e.c,
		"ok Alice <alice@example.com> (maintainer:ALPHA)\n"
		"missing Rob <rob@example.com> (reviewer:ALPHA)\n"
		"missing Chief <chief@example.com> (unknown:THE REST)\n"
		"ok alpha@lists.example.org (moderated list:ALPHA)\n"
		"missing rest@lists.example.org (open list)\n");
	ck_assert_uint_eq(gm_check_missing(&e.c), 3);
	env_release(&e);
}
END_TEST

/* ==================== approvals ==================== */

/* The verdict of `c` on a patch to `files` (NULL-terminated). */
static void approve(struct env *e, const char *text, const char *committer,
		    const char *const *files)
{
	struct gm_strvec paths = GM_STRVEC_INIT;
	struct gm_match_ctx *ctx = gm_test_match_ctx(e->m, NULL);
	struct gm_matches *mt;
	struct gm_check_mail m = mail_of(text);

	for (; *files; files++)
		gm_strvec_push(&paths, *files);
	ck_assert_int_eq(gm_match_files(&mt, e->m, ctx, &paths, 0), 0);
	ck_assert_int_eq(gm_check_approvals(&e->c, "c", &m, committer, e->m,
					    mt), 0);
	gm_matches_free(mt);
	gm_match_ctx_free(ctx);
	gm_strvec_release(&paths);
}

START_TEST(test_check_approvals_right_and_wrong_people)
{
	static const char *const ab[] = { "alpha/a.c", "beta/b.c", NULL };
	static const char *const g[] = { "gamma/g.c", NULL };
	struct env e;

	env_init(&e, NULL);
	/* Bob acks ALPHA's part (the wrong person); Rob is only R: */
	approve(&e, "From: Ann <ann@x>\nSubject: s\n\nmsg\n\n"
		"Acked-by: Bob <bob@example.com>\n"
		"Reviewed-by: Rob <rob@example.com>\n"
		"Signed-off-by: Ann <ann@x>\n---\n"
		"Acked-by: Alice <alice@example.com>\n", NULL, ab);
	assert_verdicts(&e.c,
		"missing ALPHA (not approved)\n"
		"apart THE REST (catch-all)\n"
		"ok BETA (Acked-by: Bob <bob@example.com>)\n");
	ck_assert_str_eq(e.c.v[0].v[0].could.v[0], "Alice <alice@example.com>");
	ck_assert_uint_eq(e.c.v[0].v[0].could.nr, 1);
	/* with --check-reviewers, Rob's review covers ALPHA */
	e.c.reviewers = true;
	approve(&e, "From: Ann <ann@x>\n\n"
		"Reviewed-by: Rob <rob@example.com>\n", NULL, ab);
	ck_assert_uint_eq(e.c.v[1].missing, 1);	/* BETA */
	e.c.reviewers = false;
	/* Alice's own sign-off as the author is no approval; Bob's after
	 * it is; the old address of the in-body From: is Alice's too */
	approve(&e, "From: Sender <s@x>\n\n"
		"From: Alice <alice@old.example.net>\n\nmsg\n\n"
		"Signed-off-by: Alice <alice@example.com>\n"
		"Signed-off-by: Bob <bob@example.com>\n", NULL, ab);
	assert_verdicts(&e.c,
		"missing ALPHA (not approved)\n"
		"apart THE REST (catch-all)\n"
		"ok BETA (Signed-off-by: Bob <bob@example.com>)\n");
	/* a sign-off before the author's is no approval; the committer is */
	approve(&e, "From: Ann <ann@x>\n\n"
		"Signed-off-by: Bob <bob@example.com>\n"
		"Signed-off-by: Ann <ann@x>\n",
		"Alice <ALICE@example.com>", ab);
	assert_verdicts(&e.c,
		"ok ALPHA (committed by Alice <ALICE@example.com>)\n"
		"apart THE REST (catch-all)\n"
		"missing BETA (not approved)\n");
	/* a section of nobody is apart, never missing */
	approve(&e, "From: Ann <ann@x>\n\n", NULL, g);
	assert_verdicts(&e.c, "apart GAMMA (nobody to approve)\n"
			      "apart THE REST (catch-all)\n");
	ck_assert_uint_eq(e.c.v[4].missing, 0);
	env_release(&e);
}
END_TEST

/* ==================== output ==================== */

START_TEST(test_check_write_text_and_json)
{
	static const char *const a[] = { "alpha/a.c", NULL };
	struct env e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	env_init(&e, NULL);
	e.c.approvals = true;
	approve(&e, "From: Ann <ann@x>\nSubject: evil\n =?x?= \"q\"\n\n", NULL,
		a);
	ck_assert_ptr_nonnull(f = open_memstream(&buf, &len));
	ck_assert_int_eq(gm_check_write(f, &e.c, false), 0);
	fclose(f);
	ck_assert_str_eq(buf,
		"c: evil =?x?= \"q\"\n"
		"  missing: ALPHA (not approved); could: Alice <alice@example.com>\n"
		"  apart: THE REST (catch-all); could: Chief <chief@example.com>\n");
	free(buf);
	ck_assert_ptr_nonnull(f = open_memstream(&buf, &len));
	ck_assert_int_eq(gm_check_write(f, &e.c, true), 0);
	fclose(f);
	ck_assert_str_eq(buf,
		"{\"check\": \"approvals\", \"missing\": 1, \"patches\": [\n"
		" {\"missing\": 1, \"name\": \"c\", \"subject\": \"evil =?x?= \\\"q\\\"\", \"items\": [\n"
		"  {\"verdict\": \"missing\", \"who\": \"ALPHA\", \"why\": \"not approved\", \"via\": null, \"could\": [\"Alice <alice@example.com>\"]},\n"
		"  {\"verdict\": \"apart\", \"who\": \"THE REST\", \"why\": \"catch-all\", \"via\": null, \"could\": [\"Chief <chief@example.com>\"]}]}]}\n");
	free(buf);
	env_release(&e);
}
END_TEST

START_TEST(test_check_text_escapes_control_characters)
{
	static const char *const a[] = { "alpha/a.c", NULL };
	struct env e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	env_init(&e, NULL);
	approve(&e, "From: Ann <ann@x>\nSubject: one\r\x1b[2Jtwo\n\n", NULL, a);
	ck_assert_ptr_nonnull(f = open_memstream(&buf, &len));
	ck_assert_int_eq(gm_check_write(f, &e.c, false), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "c: one\\x0d\\x1b[2Jtwo\n") ?
			      buf : NULL);
	free(buf);
	env_release(&e);
}
END_TEST

Suite *check_suite(void)
{
	Suite *s = suite_create("check");
	TCase *mails = tcase_create("mails");
	TCase *verdicts_tc = tcase_create("verdicts");

	tcase_add_test(mails, test_check_mails_of_an_mbox);
	suite_add_tcase(s, mails);
	tcase_add_test(verdicts_tc, test_check_recipients_verdicts);
	tcase_add_test(verdicts_tc, test_check_recipients_cover_and_options);
	tcase_add_test(verdicts_tc, test_check_approvals_right_and_wrong_people);
	tcase_add_test(verdicts_tc, test_check_write_text_and_json);
	tcase_add_test(verdicts_tc, test_check_text_escapes_control_characters);
	suite_add_tcase(s, verdicts_tc);
	return s;
}
