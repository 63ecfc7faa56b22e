#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/mailmap.h"
#include "gm/options.h"
#include "gm/query.h"
#include "gm/rank.h"

#include "gm_tests.h"
#include "gm_testutil.h"

#define ALPHA \
	"ALPHA SUBSYSTEM WITH A VERY LONG NAME THAT EXCEEDS FIFTY CHARACTERS"
#define ALPHA_SHORT "ALPHA SUBSYSTEM WITH A VERY LONG NAME THAT EXCE..."
#define LINUS "Linus Torvalds <torvalds@linux-foundation.org>"

/* Everything one ranking needs; set up and torn down by each test. */
struct rank_env {
	struct gm_options opts;
	struct gm_rank_settings set;	/* from opts; tests change it */
	struct gm_test_dirs dirs;
	struct gm_maintainers *m;
	struct gm_mailmap *mailmap;
	struct gm_rank rk;
};

static void env_init(struct rank_env *e, const char *maintainers,
		     const char *mailmap)
{
	memset(e, 0, sizeof(*e));
	gm_options_init(&e->opts);
	e->opts.rolestats = 1;
	ck_assert_int_eq(gm_options_finish(&e->opts), 0);
	if (maintainers)
		e->m = gm_test_parse(maintainers);
	else
		e->m = gm_test_parse_fixture_a(&e->dirs);
	if (mailmap)
		ck_assert_int_eq(gm_mailmap_from_buffer(&e->mailmap, mailmap,
							strlen(mailmap)), 0);
	gm_query_rank_settings(&e->set, &e->opts);
	gm_rank_init(&e->rk, &e->set, e->mailmap);
}

static void env_release(struct rank_env *e)
{
	gm_rank_release(&e->rk);
	gm_mailmap_free(e->mailmap);
	gm_maintainers_free(e->m);
	gm_options_release(&e->opts);
}

/* Take the sections named in `names` (NULL-terminated), in that order. */
static void env_add(struct rank_env *e, const char *const *names)
{
	for (; *names; names++)
		ck_assert_int_eq(gm_rank_add_section(&e->rk, e->m,
				 gm_test_section(e->m, *names)), 0);
}

/* The roles of `e` joined by commas; valid until the next call. */
static const char *role_of(const struct gm_rank_entry *e)
{
	static struct gm_buf b = GM_BUF_INIT;

	ck_assert_int_eq(gm_rank_roles(&b, e), 0);
	return b.ptr;
}

/* The entries of `l` as "addr (role)" lines. */
static char *entries(const struct gm_rank_list *l)
{
	struct gm_buf b = GM_BUF_INIT;
	size_t i;

	for (i = 0; i < l->nr; i++)
		gm_buf_printf(&b, "%s (%s)\n", l->v[i].addr, role_of(&l->v[i]));
	return gm_buf_detach(&b, NULL);
}

static void assert_people(struct rank_env *e, const char *want)
{
	char *got = entries(&e->rk.people);

	ck_assert_str_eq(got, want);
	free(got);
}

static void assert_lists(struct rank_env *e, const char *want)
{
	char *got = entries(&e->rk.lists);

	ck_assert_str_eq(got, want);
	free(got);
}

static void add_lines(struct gm_strvec *sv, const char *line, int times)
{
	while (times-- > 0)
		gm_strvec_push(sv, line);
}

/* The sections of E1, deepest first. */
static const char *const e1_sections[] = {
	"BETA DRIVER", ALPHA, "GAMMA", "THE REST", NULL
};

/* ==================== sections (R-50..R-55, R-64) ==================== */

START_TEST(test_rank_e1_people_and_lists)
{
	struct rank_env e;

	env_init(&e, NULL, NULL);
	env_add(&e, e1_sections);
	/* E2 (6.1 roles); GAMMA's two M: lines are duplicates */
	assert_people(&e,
		"\"Bob O'Neil\" <bob@example.com> (odd fixer:BETA DRIVER)\n"
		"\"Carol, Jr.\" <carol@example.com> (odd fixer:BETA DRIVER)\n"
		"Alice Example <alice@example.com> (supporter:"
		ALPHA_SHORT ")\n"
		"Rob Reviewer <rob@example.com> (reviewer:" ALPHA_SHORT ")\n"
		LINUS " (chief penguin:THE REST)\n");
	assert_lists(&e,
		     "beta@lists.example.com (moderated list:BETA DRIVER)\n"
		     "alpha@lists.example.com (open list:" ALPHA_SHORT ")\n"
		     "gamma@lists.example.com (open list:GAMMA)\n"
		     "linux-kernel@vger.kernel.org (open list)\n");
	ck_assert_uint_eq(e.rk.warnings.nr, 0);
	env_release(&e);
}
END_TEST

START_TEST(test_rank_finish_drops_chief_penguin)
{
	struct rank_env e;

	env_init(&e, NULL, NULL);
	env_add(&e, e1_sections);
	ck_assert_int_eq(gm_rank_finish(&e.rk, NULL), 0);	/* */
	ck_assert_uint_eq(e.rk.people.nr, 4);
	ck_assert_str_eq(e.rk.people.v[3].addr,
			 "Rob Reviewer <rob@example.com>");
	env_release(&e);
}
END_TEST

START_TEST(test_rank_finish_keeps_chief_penguin)
{
	struct rank_env e;

	env_init(&e, NULL, NULL);
	e.set.git_chief_penguins = 1;
	env_add(&e, e1_sections);
	ck_assert_int_eq(gm_rank_finish(&e.rk, NULL), 0);
	ck_assert_uint_eq(e.rk.people.nr, 6);
	ck_assert_str_eq(e.rk.people.v[4].addr, LINUS);
	ck_assert_str_eq(e.rk.people.v[5].addr, LINUS);
	ck_assert_str_eq(role_of(&e.rk.people.v[5]), "chief penguin");
	env_release(&e);
}
END_TEST

START_TEST(test_rank_without_names)
{
	struct rank_env e;

	env_init(&e, NULL, NULL);
	e.set.usename = 0;
	env_add(&e, e1_sections);
	ck_assert_int_eq(gm_rank_finish(&e.rk, NULL), 0);
	/* E8; under --non the chief penguin is matched by address */
	assert_people(&e,
		      "bob@example.com (odd fixer:BETA DRIVER)\n"
		      "carol@example.com (odd fixer:BETA DRIVER)\n"
		      "alice@example.com (supporter:" ALPHA_SHORT ")\n"
		      "rob@example.com (reviewer:" ALPHA_SHORT ")\n");
	env_release(&e);
}
END_TEST

START_TEST(test_rank_gamma_alone_keeps_both)
{
	static const char *const gamma[] = { "GAMMA", NULL };
	struct rank_env e;

	env_init(&e, NULL, NULL);
	env_add(&e, gamma);
	/* E5 in 6.1 */
	assert_people(&e,
		"Alice Example <alice2@example.com> (orphan minder:GAMMA)\n"
		"alice@example.com (orphan minder:GAMMA)\n");
	env_release(&e);
}
END_TEST

struct role_case {
	const char *status;	/* the S: line, or NULL for none */
	const char *role;
};

static const struct role_case role_cases[] = {
	{ "S:\tSupported\n", "supporter:SEC" },
	{ "S:\tMaintained\n", "maintainer:SEC" },
	{ "S:\tOdd Fixes\n", "odd fixer:SEC" },
	{ "S:\tOrphan\n", "orphan minder:SEC" },
	{ "S:\tObsolete\n", "obsolete minder:SEC" },
	{ "S:\tBuried alive in reporters\n", "chief penguin:SEC" },
	{ "S:\tSUPPORTED\n", "supporter:SEC" },
	{ "S:\tOrphan / Obsolete\n", "orphan / obsolete:SEC" },
	{ "S:\tSupported \n", "supported :SEC" },	/* white space kept */
	{ "S:\tMaintained\nS:\tOdd Fixes\n", "odd fixer:SEC" },	/* last S: */
	{ NULL, "unknown:SEC" },				/* E7 */
};

START_TEST(test_rank_maintainer_role_table)
{
	const struct role_case *c = &role_cases[_i];
	static const char *const sec[] = { "SEC", NULL };
	struct gm_buf text = GM_BUF_INIT;
	struct rank_env e;

	gm_buf_printf(&text, "SEC\nM:\tA <a@x>\n%sF:\tx/\n",
		      c->status ? c->status : "");
	env_init(&e, text.ptr, NULL);
	env_add(&e, sec);
	ck_assert_uint_eq(e.rk.people.nr, 1);
	ck_assert_str_eq(role_of(&e.rk.people.v[0]), c->role);
	env_release(&e);
	gm_buf_release(&text);
}
END_TEST

/* --maintainer-roles: later Linux scripts' role for the same sections. */
static const struct role_case uniform_role_cases[] = {
	{ "S:\tSupported\n", "maintainer:SEC" },
	{ "S:\tMaintained\n", "maintainer:SEC" },
	{ "S:\tOdd Fixes\n", "maintainer:SEC" },
	{ "S:\tOrphan\n", "maintainer:SEC" },
	{ "S:\tObsolete\n", "maintainer:SEC" },
	{ "S:\tBuried alive in reporters\n", "chief penguin:SEC" },
	{ "S:\tBURIED ALIVE IN REPORTERS\n", "chief penguin:SEC" },
	{ "S:\tBuried alive in reporters \n", "maintainer:SEC" },
	{ "S:\tOrphan / Obsolete\n", "maintainer:SEC" },
	{ "S:\tBuried alive in reporters\nS:\tOdd Fixes\n", "maintainer:SEC" },
	{ NULL, "maintainer:SEC" },
};

START_TEST(test_rank_maintainer_role_uniform)
{
	const struct role_case *c = &uniform_role_cases[_i];
	static const char *const sec[] = { "SEC", NULL };
	struct gm_buf text = GM_BUF_INIT;
	struct rank_env e;

	gm_buf_printf(&text, "SEC\nM:\tA <a@x>\nR:\tB <b@x>\n%sF:\tx/\n",
		      c->status ? c->status : "");
	env_init(&e, text.ptr, NULL);
	e.set.maintainer_roles = 1;
	env_add(&e, sec);
	ck_assert_uint_eq(e.rk.people.nr, 2);
	ck_assert_str_eq(role_of(&e.rk.people.v[0]), c->role);
	ck_assert_str_eq(role_of(&e.rk.people.v[1]), "reviewer:SEC");
	env_release(&e);
	gm_buf_release(&text);
}
END_TEST

#define KW_MAINTAINERS \
	"KW DRIVER\n" \
	"M:\tKay Word <kay@example.com>\n" \
	"R:\tRee View <ree@example.com>\n" \
	"L:\tkw@lists.example.com\n" \
	"L:\tmod@lists.example.com (moderated for non-subscribers)\n" \
	"S:\tOdd Fixes\n" \
	"W:\thttps://kw.example.com\n" \
	"B:\thttps://kw.example.com/bugs\n" \
	"T:\tgit git://kw.example.com/kw.git\n" \
	"F:\tdrivers/kw/\n" \
	"K:\t\\bkw_(?:magic|thing)\\b\n" \
	"\n" \
	"THE REST\n" \
	"M:\tLinus Torvalds <torvalds@linux-foundation.org>\n" \
	"L:\tlinux-kernel@vger.kernel.org\n" \
	"S:\tBuried alive in reporters\n" \
	"F:\t*\n" \
	"K:\tanything\n"

/* The K: line of `section`: its index in the retained lines. */
static size_t kw_line(const struct gm_maintainers *m, const char *section)
{
	const struct gm_section *sec = &m->sections[gm_test_section(m, section)];

	for (size_t i = sec->start + 1; i < sec->end; i++)
		if (m->lines[i].tag == 'K')
			return i;
	ck_abort_msg("no K: in %s", section);
	return 0;
}

/* Every group of a K: section with --keyword-roles, then without. */
START_TEST(test_rank_keyword_roles)
{
	struct rank_env e;
	char *s;

	env_init(&e, KW_MAINTAINERS, NULL);
	e.set.keyword_roles = e.set.maintainer_roles = e.set.substatus = 1;
	ck_assert_int_eq(gm_rank_add_keyword_section(&e.rk, e.m,
			 kw_line(e.m, "KW DRIVER")), 0);
	ck_assert_int_eq(gm_rank_add_keyword_section(&e.rk, e.m,
			 kw_line(e.m, "THE REST")), 0);
	assert_people(&e,
		"Kay Word <kay@example.com> (maintainer:KW DRIVER"
		":Keyword:\\bkw_(?:magic|thing)\\b)\n"
		"Ree View <ree@example.com> (reviewer:KW DRIVER"
		":Keyword:\\bkw_(?:magic|thing)\\b)\n"
		LINUS " (chief penguin:THE REST:Keyword:anything)\n");
	assert_lists(&e,
		"kw@lists.example.com (open list:KW DRIVER"
		":Keyword:\\bkw_(?:magic|thing)\\b)\n"
		"mod@lists.example.com (moderated list:KW DRIVER"
		":Keyword:\\bkw_(?:magic|thing)\\b)\n"
		"linux-kernel@vger.kernel.org (open list:Keyword:anything)\n");
	s = gm_test_join(&e.rk.scm, "|");
	ck_assert_str_eq(s, "git git://kw.example.com/kw.git:Keyword:"
			 "\\bkw_(?:magic|thing)\\b");
	free(s);
	s = gm_test_join(&e.rk.status, "|");
	ck_assert_str_eq(s, "Odd Fixes:Keyword:\\bkw_(?:magic|thing)\\b|"
			 "Buried alive in reporters:Keyword:anything");
	free(s);
	s = gm_test_join(&e.rk.web, "|");
	ck_assert_str_eq(s, "https://kw.example.com:Keyword:"
			 "\\bkw_(?:magic|thing)\\b");
	free(s);
	s = gm_test_join(&e.rk.bug, "|");
	ck_assert_str_eq(s, "https://kw.example.com/bugs:Keyword:"
			 "\\bkw_(?:magic|thing)\\b");
	free(s);
	s = gm_test_join(&e.rk.substatus, "|");
	ck_assert_str_eq(s, "KW DRIVER status: Odd Fixes:Keyword:"
			 "\\bkw_(?:magic|thing)\\b");
	free(s);
	s = gm_test_join(&e.rk.subsystem, "|");
	ck_assert_str_eq(s, "KW DRIVER|THE REST");	/* never suffixed */
	free(s);
	env_release(&e);

	/* 6.1: the same section, no suffix, the S:-derived role */
	env_init(&e, KW_MAINTAINERS, NULL);
	ck_assert_int_eq(gm_rank_add_keyword_section(&e.rk, e.m,
			 kw_line(e.m, "KW DRIVER")), 0);
	assert_people(&e,
		"Kay Word <kay@example.com> (odd fixer:KW DRIVER)\n"
		"Ree View <ree@example.com> (reviewer:KW DRIVER)\n");
	s = gm_test_join(&e.rk.status, "|");
	ck_assert_str_eq(s, "Odd Fixes");
	free(s);
	env_release(&e);
}
END_TEST

/* A section matched by its files has no suffix even with the option. */
START_TEST(test_rank_keyword_roles_file_match)
{
	static const char *const sec[] = { "KW DRIVER", NULL };
	struct rank_env e;

	env_init(&e, KW_MAINTAINERS, NULL);
	e.set.keyword_roles = 1;
	env_add(&e, sec);
	assert_people(&e, "Kay Word <kay@example.com> (odd fixer:KW DRIVER)\n"
		      "Ree View <ree@example.com> (reviewer:KW DRIVER)\n");
	env_release(&e);
}
END_TEST

START_TEST(test_rank_other_groups)
{
	static const char *const secs[] = {
		"EXT4", "NOSTATUS", "THE REST", NULL
	};
	struct rank_env e;
	char *s;

	env_init(&e, NULL, NULL);
	e.set.substatus = 1;
	env_add(&e, secs);
	s = gm_test_join(&e.rk.scm, "|");
	ck_assert_str_eq(s, "git git://example.com/ext4.git|"
		"git git://git.kernel.org/pub/scm/linux/kernel/git/torvalds/"
		"linux.git");
	free(s);
	s = gm_test_join(&e.rk.web, "|");
	ck_assert_str_eq(s, "https://ext4.example.com");
	free(s);
	s = gm_test_join(&e.rk.bug, "|");
	ck_assert_str_eq(s, "https://bugs.example.com");
	free(s);
	s = gm_test_join(&e.rk.status, "|");
	ck_assert_str_eq(s, "Maintained|Buried alive in reporters");
	free(s);
	s = gm_test_join(&e.rk.subsystem, "|");
	ck_assert_str_eq(s, "EXT4|NOSTATUS|THE REST");
	free(s);
	/* N's substatus: not for Maintained, not for THE REST */
	s = gm_test_join(&e.rk.substatus, "|");
	ck_assert_str_eq(s, "NOSTATUS status: Unknown");
	free(s);
	env_release(&e);
}
END_TEST

START_TEST(test_rank_lists_by_class)
{
	static const char *const beta[] = { "BETA DRIVER", NULL };
	struct rank_env e;

	/* E12: --nomoderated -s */
	env_init(&e, NULL, NULL);
	e.set.moderated = 0;
	e.set.subscriber_lists = 1;
	env_add(&e, beta);
	assert_lists(&e, "beta-sub@lists.example.com "
		     "(subscriber list:BETA DRIVER)\n");
	env_release(&e);

	/* --nol drops open and moderated lists, not subscriber lists */
	env_init(&e, NULL, NULL);
	e.set.lists = 0;
	e.set.subscriber_lists = 1;
	env_add(&e, beta);
	assert_lists(&e, "beta-sub@lists.example.com "
		     "(subscriber list:BETA DRIVER)\n");
	env_release(&e);
}
END_TEST

START_TEST(test_rank_lists_dedup)
{
	static const char text[] =
		"ONE\n"
		"L:\tShared@Lists.example.com\n"
		"L:\tmod@lists.example.com (moderated for non-subscribers)\n"
		"\n"
		"TWO\n"
		"L:\tshared@lists.example.com\n"
		"L:\tmod@lists.example.com\n"
		"L:\tsub@lists.example.com (subscribers-only)\n";
	static const char *const secs[] = { "ONE", "TWO", NULL };
	struct rank_env e;

	env_init(&e, text, NULL);
	e.set.moderated = 0;
	env_add(&e, secs);
	/*
	 * the first section fixes a list's role, by lc(address); a
	 * list skipped as moderated does not block a later mention.
	 */
	assert_lists(&e,
		     "Shared@Lists.example.com (open list:ONE)\n"
		     "mod@lists.example.com (open list:TWO)\n");
	env_release(&e);
}
END_TEST

START_TEST(test_rank_people_dedup_by_name_or_address)
{
	static const char text[] =
		"ONE\n"
		"M:\tAlice <alice@x.org>\n"
		"R:\tBob <bob@x.org>\n"
		"\n"
		"TWO\n"
		"M:\tALICE <other@x.org>\n"
		"M:\tRobert <BOB@X.ORG>\n"
		"R:\tCarol <carol@x.org>\n";
	static const char *const secs[] = { "ONE", "TWO", NULL };
	struct rank_env e;

	env_init(&e, text, NULL);
	env_add(&e, secs);
	/* the later occurrence is dropped, role included */
	assert_people(&e,
		      "Alice <alice@x.org> (unknown:ONE)\n"
		      "Bob <bob@x.org> (reviewer:ONE)\n"
		      "Carol <carol@x.org> (reviewer:TWO)\n");
	env_release(&e);
}
END_TEST

START_TEST(test_rank_people_without_dedup)
{
	struct rank_env e;

	env_init(&e, NULL, NULL);
	e.set.remove_duplicates = 0;
	env_add(&e, e1_sections);
	ck_assert_uint_eq(e.rk.people.nr, 7);
	ck_assert_str_eq(e.rk.people.v[4].addr,
			 "Alice Example <alice2@example.com>");
	ck_assert_str_eq(e.rk.people.v[5].addr, "alice@example.com");
	env_release(&e);
}
END_TEST

START_TEST(test_rank_address_forms)
{
	static const char text[] =
		"SEC\n"
		"S:\tMaintained\n"
		"M:\tA <a@x>, B <b@y>\n"
		"M:\tJames E.J. Bottomley <jejb@x>\n"
		"M:\tnot an address\n"
		"R:\t\"Quoted, Name\" <q@x>\n";
	static const char *const sec[] = { "SEC", NULL };
	struct rank_env e;

	env_init(&e, text, NULL);
	env_add(&e, sec);
	/* a list is split, an invalid address pushed raw */
	assert_people(&e,
		      "A <a@x> (maintainer:SEC)\n"
		      "B <b@y> (maintainer:SEC)\n"
		      "\"James E.J. Bottomley\" <jejb@x> (maintainer:SEC)\n"
		      "\"Quoted, Name\" <q@x> (reviewer:SEC)\n");
	ck_assert_uint_eq(e.rk.warnings.nr, 1);
	ck_assert_str_eq(e.rk.warnings.v[0],
			 "MAINTAINERS:5: Invalid MAINTAINERS address: 'not an address'");
	env_release(&e);
}
END_TEST

START_TEST(test_rank_selection_options)
{
	struct rank_env e;

	env_init(&e, NULL, NULL);
	e.set.maintainers = 0;
	env_add(&e, e1_sections);
	assert_people(&e, "Rob Reviewer <rob@example.com> (reviewer:"
		      ALPHA_SHORT ")\n");
	env_release(&e);

	env_init(&e, NULL, NULL);
	e.set.reviewers = 0;
	env_add(&e, e1_sections);
	ck_assert_uint_eq(e.rk.people.nr, 4);
	ck_assert_str_eq(e.rk.people.v[3].addr, LINUS);
	env_release(&e);
}
END_TEST

/* ==================== normalisation (R-65) ==================== */

START_TEST(test_rank_normalize_mailmap_e21)
{
	struct rank_env e;

	env_init(&e, NULL, gm_test_mailmap_e21);
	env_add(&e, e1_sections);
	ck_assert_int_eq(gm_rank_normalize(&e.rk), 0);
	ck_assert_int_eq(gm_rank_finish(&e.rk, NULL), 0);
	assert_people(&e,
		"\"Bob O'Neil\" <newbob@example.com> (odd fixer:BETA DRIVER)\n"
		"\"Carol, Jr.\" <carol@example.com> (odd fixer:BETA DRIVER)\n"
		"Alice Real <alice@real.com> (supporter:" ALPHA_SHORT ")\n"
		"Rob Renamed <rob@new.com> (reviewer:" ALPHA_SHORT ")\n");
	ck_assert_str_eq(e.rk.lists.v[0].addr, "beta@lists.example.com");
	env_release(&e);
}
END_TEST

START_TEST(test_rank_normalize_names_come_back)
{
	static const char *const ext4[] = { "EXT4", NULL };
	struct rank_env e;

	/* Q-12 and E21: --non, yet the mailmap name comes back */
	env_init(&e, NULL, gm_test_mailmap_e21);
	e.set.usename = 0;
	env_add(&e, ext4);
	ck_assert_str_eq(e.rk.people.v[0].addr, "ted@example.com");
	ck_assert_int_eq(gm_rank_normalize(&e.rk), 0);
	ck_assert_str_eq(e.rk.people.v[0].addr,
			 "Theodore Tso <ted@example.com>");
	env_release(&e);

	env_init(&e, NULL, gm_test_mailmap_e21);
	e.set.usename = 0;
	env_add(&e, e1_sections);
	ck_assert_int_eq(gm_rank_normalize(&e.rk), 0);
	ck_assert_int_eq(gm_rank_finish(&e.rk, NULL), 0);
	assert_people(&e,
		"newbob@example.com (odd fixer:BETA DRIVER)\n"
		"carol@example.com (odd fixer:BETA DRIVER)\n"
		"Alice Real <alice@real.com> (supporter:" ALPHA_SHORT ")\n"
		"rob@example.com (reviewer:" ALPHA_SHORT ")\n");
	env_release(&e);
}
END_TEST

START_TEST(test_rank_dedup_rewrites_to_first_seen)
{
	static const char *const ext4[] = { "EXT4", NULL };
	struct gm_buf out = GM_BUF_INIT;
	struct rank_env e;

	env_init(&e, NULL, NULL);
	env_add(&e, ext4);
	ck_assert_int_eq(gm_rank_normalize(&e.rk), 0);
	/* §8.6: a signer matching by lc(name) or lc(addr) takes its string */
	ck_assert_int_eq(gm_rank_dedup(&e.rk, &out, "TED <ted3@other>"), 0);
	ck_assert_str_eq(out.ptr, "Ted <ted@example.com>");
	ck_assert_int_eq(gm_rank_dedup(&e.rk, &out, "Edward <TED@example.com>"),
			 0);
	ck_assert_str_eq(out.ptr, "Ted <ted@example.com>");
	ck_assert_int_eq(gm_rank_dedup(&e.rk, &out, "New One <new@x>"), 0);
	ck_assert_str_eq(out.ptr, "New One <new@x>");
	ck_assert_int_eq(gm_rank_dedup(&e.rk, &out, "new one <other@x>"), 0);
	ck_assert_str_eq(out.ptr, "New One <new@x>");
	env_release(&e);

	env_init(&e, NULL, NULL);
	e.set.remove_duplicates = 0;
	env_add(&e, ext4);
	ck_assert_int_eq(gm_rank_normalize(&e.rk), 0);
	ck_assert_int_eq(gm_rank_dedup(&e.rk, &out, "TED <ted3@other>"), 0);
	ck_assert_str_eq(out.ptr, "TED <ted3@other>");
	env_release(&e);
	gm_buf_release(&out);
}
END_TEST

/* ==================== signers (R-74, R-66) ==================== */

/* Fixture B (§16) and its history of lib/core.c, as signer lines. */
static const char fixture_b[] =
	"CORE LIBRARY\n"
	"R:\tRita Reviewer <rita@example.com>\n"
	"L:\tcore@lists.example.com\n"
	"S:\tOdd Fixes\n"
	"F:\tlib/\n"
	"\n"
	"THE REST\n"
	"M:\tLinus Torvalds <torvalds@linux-foundation.org>\n"
	"L:\tlinux-kernel@vger.kernel.org\n"
	"S:\tBuried alive in reporters\n"
	"F:\t*\n"
	"F:\t*/\n";

#define RITA "Rita Reviewer <rita@example.com>"
#define MARK "Mark Maint <mark@example.com>"
#define ANN "Ann Author <ann@example.com>"
#define BOB "Bob Builder <bob@example.com>"

/* E24's three roles for lib/core.c. */
static void add_e24(struct rank_env *e)
{
	struct gm_strvec signers = GM_STRVEC_INIT, authors = GM_STRVEC_INIT;
	struct gm_strvec added = GM_STRVEC_INIT;

	add_lines(&signers, ANN, 4);
	add_lines(&signers, RITA, 2);
	add_lines(&signers, MARK, 5);
	add_lines(&signers, BOB, 1);
	add_lines(&authors, ANN, 4);
	add_lines(&authors, BOB, 1);
	add_lines(&added, ANN, 4);
	add_lines(&added, BOB, 3);
	ck_assert_int_eq(gm_rank_assign(&e->rk, "commit_signer", 5,
					     &signers, GM_KIND_FIXES, NULL), 0);
	ck_assert_int_eq(gm_rank_assign(&e->rk, "authored", 5, &authors,
					GM_KIND_FIXES, NULL), 0);
	ck_assert_int_eq(gm_rank_assign(&e->rk, "added_lines", 7, &added,
					GM_KIND_FIXES, NULL), 0);
	gm_strvec_release(&signers);
	gm_strvec_release(&authors);
	gm_strvec_release(&added);
}

static const char *const core_sections[] = { "CORE LIBRARY", "THE REST", NULL };

/* E24, then with --git-min-percent (E26) and --git-max-maintainers (E27). */
struct signers_case {
	int min_percent;	/* 0: the default */
	int max_maintainers;	/* 0: the default */
	const char *people;
};

static const struct signers_case signers_cases[] = {
	{ 0, 0,
	  RITA " (reviewer:CORE LIBRARY,commit_signer:2/5=40%)\n"
	  MARK " (commit_signer:5/5=100%)\n"
	  ANN " (commit_signer:4/5=80%,authored:4/5=80%,added_lines:4/7=57%)\n"
	  BOB " (commit_signer:1/5=20%,authored:1/5=20%,added_lines:3/7=43%)\n" },
	{ 30, 0,
	  RITA " (reviewer:CORE LIBRARY,commit_signer:2/5=40%)\n"
	  MARK " (commit_signer:5/5=100%)\n"
	  ANN " (commit_signer:4/5=80%,authored:4/5=80%,added_lines:4/7=57%)\n"
	  BOB " (added_lines:3/7=43%)\n" },
	{ 0, 1,
	  RITA " (reviewer:CORE LIBRARY)\n"
	  MARK " (commit_signer:5/5=100%)\n"
	  ANN " (authored:4/5=80%,added_lines:4/7=57%)\n" },
};

START_TEST(test_rank_signers_table)
{
	const struct signers_case *c = &signers_cases[_i];
	struct rank_env e;

	env_init(&e, fixture_b, NULL);
	if (c->min_percent)
		e.set.git_min_percent = c->min_percent;
	if (c->max_maintainers)
		e.set.git_max_maintainers = c->max_maintainers;
	env_add(&e, core_sections);
	ck_assert_int_eq(gm_rank_normalize(&e.rk), 0);
	ck_assert_int_eq(gm_rank_finish(&e.rk, NULL), 0);
	add_e24(&e);
	assert_people(&e, c->people);
	env_release(&e);
}
END_TEST

START_TEST(test_rank_signers_min_signatures)
{
	struct gm_strvec lines = GM_STRVEC_INIT;
	struct rank_env e;

	env_init(&e, fixture_b, NULL);
	e.set.git_min_signatures = 3;
	add_lines(&lines, MARK, 5);
	add_lines(&lines, RITA, 2);
	ck_assert_int_eq(gm_rank_assign(&e.rk, "commit_signer", 5, &lines,
					GM_KIND_FIXES, NULL), 0);
	assert_people(&e, MARK " (commit_signer:5/5=100%)\n");
	gm_strvec_release(&lines);
	env_release(&e);
}
END_TEST

START_TEST(test_rank_signers_ties_and_rounding)
{
	struct gm_strvec lines = GM_STRVEC_INIT;
	struct rank_env e;

	env_init(&e, fixture_b, NULL);
	/* equal counts in byte order; %.0f rounds half to even */
	add_lines(&lines, "Zed <z@x>", 1);
	add_lines(&lines, "Amy <a@x>", 3);
	add_lines(&lines, "Bea <b@x>", 1);
	ck_assert_int_eq(gm_rank_assign(&e.rk, "commit_signer", 8, &lines,
					GM_KIND_FIXES, NULL), 0);
	assert_people(&e,
		      "Amy <a@x> (commit_signer:3/8=38%)\n"
		      "Bea <b@x> (commit_signer:1/8=12%)\n"
		      "Zed <z@x> (commit_signer:1/8=12%)\n");
	gm_strvec_release(&lines);
	env_release(&e);
}
END_TEST

START_TEST(test_rank_signers_percent_capped)
{
	struct gm_strvec lines = GM_STRVEC_INIT;
	struct rank_env e;

	env_init(&e, fixture_b, NULL);
	add_lines(&lines, MARK, 7);	/* 7 trailers in 5 commits */
	ck_assert_int_eq(gm_rank_assign(&e.rk, "commit_signer", 5, &lines,
					GM_KIND_FIXES, NULL), 0);
	assert_people(&e, MARK " (commit_signer:7/5=100%)\n");
	gm_strvec_release(&lines);
	env_release(&e);
}
END_TEST

START_TEST(test_rank_signers_blamed_fixes)
{
	struct gm_strvec lines = GM_STRVEC_INIT;
	struct rank_env e;

	env_init(&e, fixture_b, NULL);
	gm_strvec_push(&lines, MARK);
	gm_strvec_push(&lines, BOB);
	ck_assert_int_eq(gm_rank_assign(&e.rk, "blamed_fixes", 1, &lines,
					GM_KIND_FIXES, NULL), 0);
	/* E31: a tie, broken by byte order */
	assert_people(&e,
		      BOB " (blamed_fixes:1/1=100%)\n"
		      MARK " (blamed_fixes:1/1=100%)\n");
	gm_strvec_release(&lines);
	env_release(&e);
}
END_TEST

START_TEST(test_rank_signers_role_names_without_stats)
{
	struct gm_strvec lines = GM_STRVEC_INIT;
	struct rank_env e;

	env_init(&e, fixture_b, NULL);
	e.set.rolestats = 0;
	add_lines(&lines, MARK, 2);
	ck_assert_int_eq(gm_rank_assign(&e.rk, "commit_signer", 5, &lines,
					GM_KIND_FIXES, NULL), 0);
	/* the same role again is not appended twice */
	ck_assert_int_eq(gm_rank_assign(&e.rk, "commit_signer", 5, &lines,
					GM_KIND_FIXES, NULL), 0);
	assert_people(&e, MARK " (commit_signer)\n");
	gm_strvec_release(&lines);
	env_release(&e);
}
END_TEST

START_TEST(test_rank_signers_bad_divisor)
{
	struct gm_strvec lines = GM_STRVEC_INIT;
	struct rank_env e;

	env_init(&e, fixture_b, NULL);
	ck_assert_int_eq(gm_rank_assign(&e.rk, "authored", 0, &lines,
					GM_KIND_FIXES, NULL), 0);
	ck_assert_uint_eq(e.rk.warnings.nr, 0);	/* empty: nothing at all */
	gm_strvec_push(&lines, "\"GitAuthor: No Sob\" <nosob@example.com>");
	ck_assert_int_eq(gm_rank_assign(&e.rk, "authored", 0, &lines,
					GM_KIND_FIXES, NULL), 0);
	ck_assert_uint_eq(e.rk.warnings.nr, 1);
	ck_assert_str_eq(e.rk.warnings.v[0],
			 "Bad divisor in main::vcs_assign: 0");
	assert_people(&e, "\"GitAuthor: No Sob\" <nosob@example.com> "
		      "(authored:1/1=100%)\n");
	gm_strvec_release(&lines);
	env_release(&e);
}
END_TEST

START_TEST(test_rank_signers_match_existing_by_name)
{
	static const char *const ext4[] = { "EXT4", NULL };
	struct gm_strvec lines = GM_STRVEC_INIT;
	struct rank_env e;

	env_init(&e, NULL, NULL);
	env_add(&e, ext4);
	gm_strvec_push(&lines, "Ted <ted-other@example.com>");
	ck_assert_int_eq(gm_rank_assign(&e.rk, "blamed_fixes", 1, &lines,
					GM_KIND_FIXES, NULL), 0);
	/* no new entry; the person with the same name gets the role */
	assert_people(&e, "Ted <ted@example.com> (maintainer:EXT4,"
		      "blamed_fixes:1/1=100%)\n");
	gm_strvec_release(&lines);
	env_release(&e);
}
END_TEST

/*
 * --git on a commit written by "Roger Pau Monne" and signed off by
 * "Roger Pau Monné", both at roger.pau@citrix.com, the maintainer being
 * "Roger Pau Monné" at another address: with --remove-duplicates the
 * signature takes the maintainer's entry by its name and the
 * author, of another name and a new address, gets one of its own; without
 * (Xen's default), each string is its own entry. As both scripts print.
 */
START_TEST(test_rank_signers_identity_merge)
{
	static const char text[] =
		"X86\nM:\tRoger Pau Monn\xc3\xa9 <roger@xenproject.org>\n"
		"S:\tSupported\nF:\tx86/\n";
	static const char *const x86[] = { "X86", NULL };
	static const char body[] =
		"Signed-off-by: Roger Pau Monn\xc3\xa9 <roger.pau@citrix.com>\n";
	struct gm_strvec signers = GM_STRVEC_INIT, authors = GM_STRVEC_INIT;
	struct gm_buf who = GM_BUF_INIT;
	struct rank_env e;

	for (int dedup = 1; dedup >= 0; dedup--) {
		env_init(&e, text, NULL);
		e.set.remove_duplicates = dedup;
		env_add(&e, x86);
		ck_assert_int_eq(gm_rank_normalize(&e.rk), 0);
		ck_assert_int_eq(gm_rank_signers(&e.rk, &signers, body,
						 sizeof(body) - 1), 0);
		ck_assert_int_eq(gm_rank_dedup(&e.rk, &who, "Roger Pau Monne "
					       "<roger.pau@citrix.com>"), 0);
		ck_assert_int_eq(gm_strvec_push(&authors, who.ptr), 0);
		ck_assert_int_eq(gm_rank_assign(&e.rk, "commit_signer", 1,
						&signers, GM_KIND_HISTORY, NULL), 0);
		ck_assert_int_eq(gm_rank_assign(&e.rk, "authored", 1, &authors,
						GM_KIND_HISTORY, NULL), 0);
		if (dedup)
			assert_people(&e, "\"Roger Pau Monn\xc3\xa9\" "
				      "<roger@xenproject.org> (supporter:X86,"
				      "commit_signer:1/1=100%)\n"
				      "Roger Pau Monne <roger.pau@citrix.com> "
				      "(authored:1/1=100%)\n");
		else
			assert_people(&e, "\"Roger Pau Monn\xc3\xa9\" "
				      "<roger@xenproject.org> (supporter:X86)\n"
				      "\"Roger Pau Monn\xc3\xa9\" "
				      "<roger.pau@citrix.com> "
				      "(commit_signer:1/1=100%)\n"
				      "Roger Pau Monne <roger.pau@citrix.com> "
				      "(authored:1/1=100%)\n");
		gm_strvec_release(&signers);
		gm_strvec_release(&authors);
		env_release(&e);
	}
	gm_buf_release(&who);
}
END_TEST

START_TEST(test_rank_signers_through_mailmap)
{
	struct gm_strvec lines = GM_STRVEC_INIT;
	struct rank_env e;

	env_init(&e, fixture_b, gm_test_mailmap_e21);
	gm_strvec_push(&lines, "ted@example.com");
	gm_strvec_push(&lines, "Ted T <ted@example.com>");
	ck_assert_int_eq(gm_rank_assign(&e.rk, "commit_signer", 2, &lines,
					GM_KIND_FIXES, NULL), 0);
	/* both map to one string, counted together */
	assert_people(&e, "Theodore Tso <ted@example.com> "
		      "(commit_signer:2/2=100%)\n");
	gm_strvec_release(&lines);
	env_release(&e);
}
END_TEST

START_TEST(test_rank_ignore_list)
{
	static const char ignore[] =
		"# people who asked not to be copied\n"
		"  Mark Maint <mark@example.com>\n"
		"Rita Reviewer <rita@example.com>   # comment\n"
		"not an address\n"
		"bare@example.com\n"
		"\n";
	struct gm_strvec lines = GM_STRVEC_INIT, ignored = GM_STRVEC_INIT;
	struct rank_env e;

	env_init(&e, fixture_b, NULL);
	ck_assert_int_eq(gm_rank_parse_ignore(&ignored, ignore, strlen(ignore)),
			 0);
	/* trimmed first, the comment cut after: its spaces stay */
	ck_assert_uint_eq(ignored.nr, 3);
	ck_assert_str_eq(ignored.v[0], MARK);
	ck_assert_str_eq(ignored.v[1], RITA "   ");
	ck_assert_str_eq(ignored.v[2], "bare@example.com");
	e.rk.ignore = &ignored;
	e.set.git_max_maintainers = 1;
	add_lines(&lines, MARK, 5);
	add_lines(&lines, ANN, 4);
	add_lines(&lines, RITA, 2);
	ck_assert_int_eq(gm_rank_assign(&e.rk, "commit_signer", 5, &lines,
					GM_KIND_FIXES, NULL), 0);
	/* an ignored signer uses no slot */
	assert_people(&e, ANN " (commit_signer:4/5=80%)\n");
	gm_strvec_release(&lines);
	env_release(&e);
	gm_strvec_release(&ignored);
}
END_TEST

/* ==================== in-file addresses (R-79) ==================== */

START_TEST(test_rank_finish_adds_file_emails)
{
	static const char *const ext4[] = { "EXT4", NULL };
	struct gm_strvec file_emails = GM_STRVEC_INIT;
	struct rank_env e;

	env_init(&e, NULL, NULL);
	env_add(&e, ext4);
	gm_strvec_push(&file_emails, "Jane Doe <jane@doe.org>");
	gm_strvec_push(&file_emails, "Ted <ted@example.com>");
	gm_strvec_push(&file_emails, LINUS);
	ck_assert_int_eq(gm_rank_finish(&e.rk, &file_emails), 0);
	/* the chief penguin goes first, so he can come back "in file" */
	assert_people(&e,
		      "Ted <ted@example.com> (maintainer:EXT4,in file)\n"
		      "Jane Doe <jane@doe.org> (in file)\n"
		      LINUS " (in file)\n");
	gm_strvec_release(&file_emails);
	env_release(&e);
}
END_TEST

START_TEST(test_rank_finish_without_email)
{
	struct gm_strvec file_emails = GM_STRVEC_INIT;
	struct rank_env e;

	env_init(&e, NULL, NULL);
	e.set.email = 0;
	env_add(&e, e1_sections);
	gm_strvec_push(&file_emails, "Jane Doe <jane@doe.org>");
	ck_assert_int_eq(gm_rank_finish(&e.rk, &file_emails), 0);
	/* untouched: the chief penguin kept, no one "in file" */
	assert_people(&e,
		"\"Bob O'Neil\" <bob@example.com> (odd fixer:BETA DRIVER)\n"
		"\"Carol, Jr.\" <carol@example.com> (odd fixer:BETA DRIVER)\n"
		"Alice Example <alice@example.com> (supporter:"
		ALPHA_SHORT ")\n"
		"Rob Reviewer <rob@example.com> (reviewer:" ALPHA_SHORT ")\n"
		LINUS " (chief penguin:THE REST)\n");
	gm_strvec_release(&file_emails);
	env_release(&e);
}
END_TEST

START_TEST(test_rank_sanitize_drops_malformed)
{
	static const char text[] =
		"SEC\n"
		"M:\tGood <good@x.org>\n"
		"L:\thttps://lists.example.com/foo\n"
		"L:\tok@lists.example.com\n";
	static const char *const sec[] = { "SEC", NULL };
	struct rank_env e;

	env_init(&e, text, NULL);
	env_add(&e, sec);
	ck_assert_uint_eq(e.rk.lists.nr, 2);
	ck_assert_int_eq(gm_rank_sanitize(&e.rk), 0);
	assert_people(&e, "Good <good@x.org> (unknown:SEC)\n");
	assert_lists(&e, "ok@lists.example.com (open list:SEC)\n");
	ck_assert_uint_eq(e.rk.warnings.nr, 1);
	ck_assert_ptr_nonnull(strstr(e.rk.warnings.v[0],
				     "https://lists.example.com/foo"));
	env_release(&e);
}
END_TEST

/* ============ R-73, R-77, R-79: signers and the chief penguin ============ */

struct chief_entry_case {
	const char *entry;
	int usename;
	bool chief;
};

static const struct chief_entry_case chief_entry_cases[] = {
	{ LINUS, 1, true },
	{ "x " LINUS " y", 1, true },		/* unanchored */
	/* each '.' any byte */
	{ "Linus Torvalds <torvalds@linux-foundationXorg>", 1, true },
	{ "linus torvalds <torvalds@linux-foundation.org>", 1, false },
	{ "\"Linus Torvalds\" <torvalds@linux-foundation.org>", 1, false },
	{ "torvalds@linux-foundation.org", 1, false },
	{ "torvalds@linux-foundation.org", 0, true },
	{ "Someone <torvalds@linux-foundation.org>", 0, true },
	{ "Torvalds@linux-foundation.org", 0, false },		/* case */
	{ "", 0, false },
};

START_TEST(test_rank_chief_penguin_entry_table)
{
	const struct chief_entry_case *c = &chief_entry_cases[_i];

	ck_assert_msg(gm_test_dropped_as_penguin(NULL, c->entry, c->usename) ==
		      c->chief, "row %d '%s' usename %d", _i, c->entry,
		      c->usename);
}
END_TEST

START_TEST(test_rank_chief_penguin_added_as_formatted)
{
	struct rank_env e;

	/* R-79 with --git-chief-penguins and --non: the bare address */
	env_init(&e, fixture_b, NULL);
	e.set.git_chief_penguins = 1;
	e.set.usename = 0;
	ck_assert_int_eq(gm_rank_finish(&e.rk, NULL), 0);
	assert_people(&e, "torvalds@linux-foundation.org (chief penguin)\n");
	env_release(&e);
}
END_TEST

struct chief_line_case {
	const char *line;
	bool chief;
};

static const struct chief_line_case chief_line_cases[] = {
	{ "Signed-off-by: " LINUS, true },
	{ "Acked-by: LINUS TORVALDS <l@x>", true },		/* /i */
	{ "xlinus torvaldsx", true },
	{ "Acked-by: Linus  Torvalds <l@x>", false },
	{ "Acked-by: Linus Torvald <l@x>", false },
	{ "Acked-by: Linus_Torvalds <l@x>", false },
	{ "Acked-by: torvalds@linux-foundation.org", false }, /* name only */
	{ "", false },
};

START_TEST(test_rank_chief_penguin_line_table)
{
	const struct chief_line_case *c = &chief_line_cases[_i];

	ck_assert_msg(gm_rank_is_penguin_line(NULL, c->line,
					      strlen(c->line)) == c->chief,
		      "row %d '%s'", _i, c->line);
}
END_TEST

START_TEST(test_rank_chief_penguin_line_stops_at_len)
{
	static const char line[] = "Linus Torvalds";

	ck_assert(gm_rank_is_penguin_line(NULL, line, sizeof(line) - 1));
	ck_assert(!gm_rank_is_penguin_line(NULL, line, sizeof(line) - 2));
}
END_TEST

/* A commit body with every kind of line R-73 looks at. */
static const char signers_body[] =
	"foo: fix the frobnicator\n"
	"\n"
	"Tested-by: Tim Tester <tim@example.com>\n"
	"    Signed-off-by: Ann Author <ann@example.com>\n"
	"Reviewed-by: TED <ted3@other.org>\n"
	"Acked-by: " LINUS "\n"
	"Signed-off-by: A <a@b> # v5: Bob Builder <bob@example.com>\n"
	"acked-by: low@example.com\n"
	"Acked-by: nobody\n"
	"Cc: cara@example.com\n"
	"\n"
	"\tSigned-off-by: Ann Author <ann@example.com>\r\n";

struct rank_signers_case {
	int all_types;
	int chief;
	const char *signers;	/* one per line */
};

static const struct rank_signers_case rank_signers_cases[] = {
	{ 0, 0,
	  /* TED matches EXT4's Ted by lc(name); Q-21 cuts at "v5:" */
	  "Ann Author <ann@example.com>\n"
	  "Ted <ted@example.com>\n"
	  "Bob Builder <bob@example.com>\n"
	  "Ann Author <ann@example.com>\n" },
	{ 1, 0,
	  "Tim Tester <tim@example.com>\n"
	  "Ann Author <ann@example.com>\n"
	  "Ted <ted@example.com>\n"
	  "Bob Builder <bob@example.com>\n"
	  "low@example.com\n"
	  "Ann Author <ann@example.com>\n" },
	{ 0, 1,
	  "Ann Author <ann@example.com>\n"
	  "Ted <ted@example.com>\n"
	  LINUS "\n"
	  "Bob Builder <bob@example.com>\n"
	  "Ann Author <ann@example.com>\n" },
};

START_TEST(test_rank_signers_of_a_body)
{
	const struct rank_signers_case *c = &rank_signers_cases[_i];
	static const char *const ext4[] = { "EXT4", NULL };
	struct gm_strvec out = GM_STRVEC_INIT;
	struct rank_env e;
	char *got;

	env_init(&e, NULL, NULL);
	e.set.git_all_signature_types = c->all_types;
	e.set.git_chief_penguins = c->chief;
	env_add(&e, ext4);
	ck_assert_int_eq(gm_rank_normalize(&e.rk), 0);
	gm_strvec_push(&out, "kept");		/* appended to */
	gm_strvec_push(&out, "");
	ck_assert_int_eq(gm_rank_signers(&e.rk, &out, signers_body,
					 strlen(signers_body)), 0);
	gm_strvec_push(&out, "");
	got = gm_test_join(&out, "\n");
	ck_assert_msg(!strncmp(got, "kept\n\n", 6) &&
		      !strcmp(got + 6, c->signers), "row %d: got\n%s", _i, got);
	free(got);
	gm_strvec_release(&out);
	env_release(&e);
}
END_TEST

START_TEST(test_rank_signers_mailmap_and_dedup)
{
	static const char body[] =
		"Signed-off-by: Ted T <ted@example.com>\n"
		"Acked-by: New Person <new@example.com>\n"
		"Acked-by: NEW PERSON <other@example.com>\n";
	struct gm_strvec out = GM_STRVEC_INIT;
	struct rank_env e;
	char *got;

	env_init(&e, fixture_b, gm_test_mailmap_e21);
	ck_assert_int_eq(gm_rank_signers(&e.rk, &out, body, strlen(body)), 0);
	got = gm_test_join(&out, "|");
	/*
	 * .mailmap names Ted; a person first seen here enters the
	 * name table, so the later same name takes the first address.
	 */
	ck_assert_str_eq(got, "Theodore Tso <ted@example.com>|"
			 "New Person <new@example.com>|"
			 "New Person <new@example.com>");
	free(got);
	gm_strvec_release(&out);
	env_release(&e);
}
END_TEST

START_TEST(test_rank_signers_of_nothing)
{
	struct gm_strvec out = GM_STRVEC_INIT;
	struct rank_env e;

	env_init(&e, fixture_b, NULL);
	ck_assert_int_eq(gm_rank_signers(&e.rk, &out, "", 0), 0);
	ck_assert_int_eq(gm_rank_signers(&e.rk, &out, "\n \n", 3), 0);
	/* the length is used, not the NUL */
	ck_assert_int_eq(gm_rank_signers(&e.rk, &out, "Acked-by: a@b", 11), 0);
	ck_assert_uint_eq(out.nr, 0);
	ck_assert_int_eq(gm_rank_signers(&e.rk, &out, "Acked-by: a@b", 13), 0);
	ck_assert_uint_eq(out.nr, 1);
	ck_assert_str_eq(out.v[0], "a@b");
	gm_strvec_release(&out);
	env_release(&e);
}
END_TEST

Suite *rank_suite(void)
{
	Suite *s = suite_create("rank");
	TCase *sections = tcase_create("sections");
	TCase *normalize = tcase_create("normalize");
	TCase *signers = tcase_create("signers");

	tcase_add_test(sections, test_rank_e1_people_and_lists);
	tcase_add_test(sections, test_rank_finish_drops_chief_penguin);
	tcase_add_test(sections, test_rank_finish_keeps_chief_penguin);
	tcase_add_test(sections, test_rank_without_names);
	tcase_add_test(sections, test_rank_gamma_alone_keeps_both);
	tcase_add_loop_test(sections, test_rank_maintainer_role_table, 0,
			    (int)ARRAY_SIZE(role_cases));
	tcase_add_loop_test(sections, test_rank_maintainer_role_uniform, 0,
			    (int)ARRAY_SIZE(uniform_role_cases));
	tcase_add_test(sections, test_rank_keyword_roles);
	tcase_add_test(sections, test_rank_keyword_roles_file_match);
	tcase_add_test(sections, test_rank_other_groups);
	tcase_add_test(sections, test_rank_lists_by_class);
	tcase_add_test(sections, test_rank_lists_dedup);
	tcase_add_test(sections, test_rank_people_dedup_by_name_or_address);
	tcase_add_test(sections, test_rank_people_without_dedup);
	tcase_add_test(sections, test_rank_address_forms);
	tcase_add_test(sections, test_rank_selection_options);
	tcase_add_test(sections, test_rank_finish_adds_file_emails);
	tcase_add_test(sections, test_rank_finish_without_email);
	tcase_add_test(sections, test_rank_sanitize_drops_malformed);
	suite_add_tcase(s, sections);

	tcase_add_test(normalize, test_rank_normalize_mailmap_e21);
	tcase_add_test(normalize, test_rank_normalize_names_come_back);
	tcase_add_test(normalize, test_rank_dedup_rewrites_to_first_seen);
	suite_add_tcase(s, normalize);

	tcase_add_loop_test(signers, test_rank_signers_table, 0,
			    (int)ARRAY_SIZE(signers_cases));
	tcase_add_test(signers, test_rank_signers_min_signatures);
	tcase_add_test(signers, test_rank_signers_ties_and_rounding);
	tcase_add_test(signers, test_rank_signers_percent_capped);
	tcase_add_test(signers, test_rank_signers_blamed_fixes);
	tcase_add_test(signers, test_rank_signers_role_names_without_stats);
	tcase_add_test(signers, test_rank_signers_bad_divisor);
	tcase_add_test(signers, test_rank_signers_match_existing_by_name);
	tcase_add_test(signers, test_rank_signers_identity_merge);
	tcase_add_test(signers, test_rank_signers_through_mailmap);
	tcase_add_test(signers, test_rank_ignore_list);
	tcase_add_loop_test(signers, test_rank_chief_penguin_entry_table, 0,
			    (int)ARRAY_SIZE(chief_entry_cases));
	tcase_add_test(signers, test_rank_chief_penguin_added_as_formatted);
	tcase_add_loop_test(signers, test_rank_chief_penguin_line_table, 0,
			    (int)ARRAY_SIZE(chief_line_cases));
	tcase_add_test(signers, test_rank_chief_penguin_line_stops_at_len);
	tcase_add_loop_test(signers, test_rank_signers_of_a_body, 0,
			    (int)ARRAY_SIZE(rank_signers_cases));
	tcase_add_test(signers, test_rank_signers_mailmap_and_dedup);
	tcase_add_test(signers, test_rank_signers_of_nothing);
	suite_add_tcase(s, signers);
	return s;
}
