#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/match.h"
#include "gm/options.h"
#include "gm/output.h"
#include "gm/query.h"
#include "gm/rank.h"

#include "gm_tests.h"
#include "gm_testutil.h"

#define ALPHA \
	"ALPHA SUBSYSTEM WITH A VERY LONG NAME THAT EXCEEDS FIFTY CHARACTERS"
#define ALPHA_SHORT "ALPHA SUBSYSTEM WITH A VERY LONG NAME THAT EXCE..."
#define LINUS_GIT \
	"git git://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git"

/*
 * One run of the pipeline over fixture A (or `maintainers`) for `path`:
 * match, rank the sections in order, normalise, finish. The options are
 * set by the test between out_init() and out_run().
 */
struct out_env {
	struct gm_options opts;
	struct gm_rank_settings rank_set;	/* opts' for the rank */
	struct gm_test_dirs dirs;
	struct gm_maintainers *m;
	struct gm_strvec files;
	struct gm_matches *mt;
	struct gm_match_ctx *ctx;
	struct gm_rank rk;
	char *text;
	size_t len;
};

static void out_init(struct out_env *e, const char *maintainers)
{
	memset(e, 0, sizeof(*e));
	gm_options_init(&e->opts);
	if (maintainers)
		e->m = gm_test_parse(maintainers);
	else
		e->m = gm_test_parse_fixture_a(&e->dirs);
	e->ctx = gm_test_match_ctx(e->m, maintainers ? NULL : &e->dirs);
}

static void out_collect(struct out_env *e, const char *path)
{
	size_t k;

	ck_assert_int_eq(gm_options_finish(&e->opts), 0);
	gm_strvec_push(&e->files, path);
	ck_assert_int_eq(gm_match_files(&e->mt, e->m, e->ctx, &e->files,
					e->opts.pattern_depth), 0);
	gm_query_rank_settings(&e->rank_set, &e->opts);
	gm_rank_init(&e->rk, &e->rank_set, NULL);
	for (k = 0; k < e->mt->files[0].nr_sections; k++)
		ck_assert_int_eq(gm_rank_add_section(&e->rk, e->m,
				 e->mt->files[0].sections[k]), 0);
	ck_assert_int_eq(gm_rank_normalize(&e->rk), 0);
	ck_assert_int_eq(gm_rank_finish(&e->rk, NULL), 0);
}

/* The output's settings from the finished e->opts, as src/cli makes them. */
static void out_settings(struct gm_output_settings *s,
			 const struct gm_options *o)
{
	*s = (struct gm_output_settings){
		.email = o->email, .lists = o->lists, .roles = o->roles,
		.to = o->to, .cc = o->cc, .headers = o->headers,
		.multiline = o->multiline, .separator = o->separator,
		.scm = o->scm, .substatus = o->substatus, .status = o->status,
		.subsystem = o->subsystem, .web = o->web, .bug = o->bug,
	};
}

/* Print with gm_output_write() into e->text, with settings `s`. */
static void out_write_with(struct out_env *e,
			   const struct gm_output_settings *s)
{
	FILE *f = open_memstream(&e->text, &e->len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(gm_output_write(f, &e->rk, s), 0);
	fclose(f);
}

/* Print with the settings of e->opts. */
static void out_write(struct out_env *e)
{
	struct gm_output_settings s;

	out_settings(&s, &e->opts);
	out_write_with(e, &s);
}

static void out_run(struct out_env *e, const char *path)
{
	out_collect(e, path);
	out_write(e);
}

static void out_release(struct out_env *e)
{
	free(e->text);
	gm_rank_release(&e->rk);
	gm_matches_free(e->mt);
	gm_match_ctx_free(e->ctx);
	gm_strvec_release(&e->files);
	gm_maintainers_free(e->m);
	gm_options_release(&e->opts);
}

/* E2: E1 with the roles of 6.1. */
static const char e2_text[] =
	"\"Bob O'Neil\" <bob@example.com> (odd fixer:BETA DRIVER)\n"
	"\"Carol, Jr.\" <carol@example.com> (odd fixer:BETA DRIVER)\n"
	"Alice Example <alice@example.com> (supporter:" ALPHA_SHORT ")\n"
	"Rob Reviewer <rob@example.com> (reviewer:" ALPHA_SHORT ")\n"
	"beta@lists.example.com (moderated list:BETA DRIVER)\n"
	"alpha@lists.example.com (open list:" ALPHA_SHORT ")\n"
	"gamma@lists.example.com (open list:GAMMA)\n"
	"linux-kernel@vger.kernel.org (open list)\n";

START_TEST(test_output_e1_with_roles)
{
	struct out_env e;

	out_init(&e, NULL);
	e.opts.rolestats = 1;
	out_run(&e, "drivers/net/foo/a.c");
	ck_assert_str_eq(e.text, e2_text);
	out_release(&e);
}
END_TEST

START_TEST(test_output_default_has_no_roles)
{
	struct out_env e;

	out_init(&e, NULL);
	out_run(&e, "drivers/net/foo/a.c");
	/* E9: this tool's default, --norolestats in the script */
	ck_assert_str_eq(e.text,
			 "\"Bob O'Neil\" <bob@example.com>\n"
			 "\"Carol, Jr.\" <carol@example.com>\n"
			 "Alice Example <alice@example.com>\n"
			 "Rob Reviewer <rob@example.com>\n"
			 "beta@lists.example.com\n"
			 "alpha@lists.example.com\n"
			 "gamma@lists.example.com\n"
			 "linux-kernel@vger.kernel.org\n");
	out_release(&e);
}
END_TEST

START_TEST(test_output_separator_mode)
{
	struct out_env e;

	out_init(&e, NULL);
	e.opts.separator = strdup(" | ");
	out_run(&e, "drivers/net/foo/a.c");
	/* E10 */
	ck_assert_str_eq(e.text,
			 "\"Bob O'Neil\" <bob@example.com> | "
			 "\"Carol, Jr.\" <carol@example.com> | "
			 "Alice Example <alice@example.com> | "
			 "Rob Reviewer <rob@example.com> | "
			 "beta@lists.example.com | alpha@lists.example.com | "
			 "gamma@lists.example.com | "
			 "linux-kernel@vger.kernel.org\n");
	out_release(&e);
}
END_TEST

START_TEST(test_output_empty_group_in_single_line_mode)
{
	struct out_env e;

	out_init(&e, NULL);
	e.opts.multiline = 0;
	e.opts.rolestats = 1;
	e.opts.scm = 1;
	e.opts.web = 1;
	out_run(&e, "include/linux/foo.h");
	/* E15 (6.1 roles): the empty web group is an empty line */
	ck_assert_str_eq(e.text,
			 "Nobody <nobody@example.com> (unknown:NOSTATUS), "
			 "linux-kernel@vger.kernel.org (open list)\n"
			 LINUS_GIT "\n"
			 "\n");
	out_release(&e);
}
END_TEST

START_TEST(test_output_empty_group_in_multiline_mode)
{
	struct out_env e;

	out_init(&e, NULL);
	e.opts.scm = 1;
	e.opts.web = 1;
	out_run(&e, "include/linux/foo.h");
	ck_assert_str_eq(e.text,
			 "Nobody <nobody@example.com>\n"
			 "linux-kernel@vger.kernel.org\n"
			 LINUS_GIT "\n");
	out_release(&e);
}
END_TEST

START_TEST(test_output_empty_people_print_nothing)
{
	struct out_env e;

	/* the person/list block is printed only when non-empty */
	out_init(&e, "SEC\nS:\tMaintained\nF:\t*\n");
	e.opts.multiline = 0;
	e.opts.status = 1;
	out_run(&e, "x.c");
	ck_assert_str_eq(e.text, "Maintained\n");
	out_release(&e);
}
END_TEST

START_TEST(test_output_status_and_subsystem)
{
	struct out_env e;

	out_init(&e, NULL);
	e.opts.rolestats = 1;
	e.opts.status = 1;
	e.opts.subsystem = 1;
	out_run(&e, "drivers/net/foo/a.c");
	/* E14 without substatus, 6.1 roles */
	ck_assert_int_eq(strncmp(e.text, e2_text, strlen(e2_text)), 0);
	ck_assert_str_eq(e.text + strlen(e2_text),
			 "Odd Fixes\n"
			 "Supported\n"
			 "Orphan\n"
			 "Buried alive in reporters\n"
			 "BETA DRIVER\n"
			 ALPHA "\n"
			 "GAMMA\n"
			 "THE REST\n");
	out_release(&e);
}
END_TEST

START_TEST(test_output_noemail_still_prints_lists)
{
	struct out_env e;

	out_init(&e, NULL);
	e.opts.email = 0;
	e.opts.scm = 1;
	e.opts.rolestats = 1;
	out_run(&e, "fs/ext4/inode.c");
	/* E13, Q-13 */
	ck_assert_str_eq(e.text,
			 "linux-kernel@vger.kernel.org (open list)\n"
			 "git git://example.com/ext4.git\n"
			 LINUS_GIT "\n");
	out_release(&e);
}
END_TEST

START_TEST(test_output_groups_are_unique)
{
	static const char text[] =
		"ONE\nS:\tMaintained\nW:\thttps://w\nF:\tlib/\n\n"
		"TWO\nS:\tMaintained\nW:\thttps://w\nF:\tlib/a/\n";
	struct out_env e;

	out_init(&e, text);
	e.opts.email = 0;
	e.opts.status = 1;
	e.opts.web = 1;
	out_run(&e, "lib/a/x.c");
	/* each group de-duplicated, first seen first */
	ck_assert_str_eq(e.text, "Maintained\nhttps://w\n");
	out_release(&e);
}
END_TEST

START_TEST(test_output_merges_identical_strings)
{
	static const char text[] =
		"ONE\nM:\tA <a@x>\nM:\tlist@x\nS:\tMaintained\nF:\tlib/a/\n\n"
		"TWO\nM:\tA <a@x>\nL:\tlist@x\nS:\tSupported\nF:\tlib/\n";
	struct out_env e;

	out_init(&e, text);
	e.opts.remove_duplicates = 0;
	e.opts.rolestats = 1;
	out_collect(&e, "lib/a/x.c");
	/* what there is to merge: one person twice, a list also a person */
	ck_assert_uint_eq(e.rk.people.nr, 3);
	ck_assert_str_eq(e.rk.people.v[0].addr, e.rk.people.v[2].addr);
	ck_assert_str_eq(e.rk.people.v[1].addr, e.rk.lists.v[0].addr);
	out_write(&e);
	/* one line per string, with the first entry's role */
	ck_assert_str_eq(e.text,
			 "A <a@x> (maintainer:ONE)\n"
			 "list@x (maintainer:ONE)\n");
	out_release(&e);
}
END_TEST

START_TEST(test_output_substatus_after_scm)
{
	struct out_env e;

	out_init(&e, NULL);
	e.opts.rolestats = 1;
	e.opts.substatus = 1;
	e.opts.scm = 1;
	e.opts.status = 1;
	out_run(&e, "drivers/net/foo/a.c");
	/* E14's substatus lines, between scm and status */
	ck_assert_int_eq(strncmp(e.text, e2_text, strlen(e2_text)), 0);
	ck_assert_str_eq(e.text + strlen(e2_text),
			 LINUS_GIT "\n"
			 "BETA DRIVER status: Odd Fixes\n"
			 ALPHA " status: Supported\n"
			 "GAMMA status: Orphan\n"
			 "Odd Fixes\n"
			 "Supported\n"
			 "Orphan\n"
			 "Buried alive in reporters\n");
	out_release(&e);
}
END_TEST

START_TEST(test_output_substatus_without_roles)
{
	struct out_env e;
	char got[256];

	/*
	 * R-06 step 4 only computes substatus when --substatus was not
	 * given; R-84: given, its lines are printed.
	 */
	out_init(&e, NULL);
	e.opts.substatus = 1;
	out_run(&e, "include/linux/foo.h");
	snprintf(got, sizeof(got), "%s", e.text);
	out_release(&e);
	ck_assert_str_eq(got,
			 "Nobody <nobody@example.com>\n"
			 "linux-kernel@vger.kernel.org\n"
			 "NOSTATUS status: Unknown\n");
}
END_TEST

/* The people and lists of E1 printed with settings `s` alone. */
static char *out_with_settings(const struct gm_output_settings *s)
{
	struct out_env e;
	char *text;

	out_init(&e, NULL);
	out_collect(&e, "drivers/net/foo/a.c");
	out_write_with(&e, s);
	text = strdup(e.text);
	out_release(&e);
	ck_assert_ptr_nonnull(text);
	return text;
}

START_TEST(test_output_settings_to_cc)
{
	struct gm_output_settings s = {
		.email = true, .lists = true, .multiline = true,
		.separator = ", ",
	};
	char *to, *cc, *both;

	/* the settings alone choose: e.opts has neither --to nor --cc */
	s.to = true;
	to = out_with_settings(&s);
	s.to = false;
	s.cc = true;
	cc = out_with_settings(&s);
	s.to = true;
	both = out_with_settings(&s);
	ck_assert_str_eq(to,
			 "\"Bob O'Neil\" <bob@example.com>\n"
			 "\"Carol, Jr.\" <carol@example.com>\n"
			 "Alice Example <alice@example.com>\n"
			 "beta@lists.example.com\n"
			 "alpha@lists.example.com\n"
			 "gamma@lists.example.com\n"
			 "linux-kernel@vger.kernel.org\n");
	ck_assert_str_eq(cc, "Rob Reviewer <rob@example.com>\n");
	ck_assert_int_eq(strlen(both), strlen(to) + strlen(cc));
	free(to);
	free(cc);
	free(both);
}
END_TEST

START_TEST(test_output_settings_headers)
{
	struct gm_output_settings s = {
		.email = true, .lists = true, .headers = true,
		.separator = " | ", .scm = true, .status = true,
	};
	char *text = out_with_settings(&s);

	/* headers: no groups, no separator; folded before 78 columns */
	ck_assert_str_eq(text,
			 "To: \"Bob O'Neil\" <bob@example.com>, "
			 "\"Carol, Jr.\" <carol@example.com>,\n"
			 " Alice Example <alice@example.com>, "
			 "beta@lists.example.com,\n"
			 " alpha@lists.example.com, gamma@lists.example.com,\n"
			 " linux-kernel@vger.kernel.org\n"
			 "Cc: Rob Reviewer <rob@example.com>\n");
	free(text);
}
END_TEST

/* ==================== --sections (R-85) ==================== */

/* Print the sections matched by the only file into e->text. */
static void out_sections(struct out_env *e, const char *letters)
{
	FILE *f = open_memstream(&e->text, &e->len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(gm_output_sections(f, e->m, e->ctx, &e->mt->files[0],
					    letters), 0);
	fclose(f);
}

START_TEST(test_output_sections_letters)
{
	struct out_env e;

	out_init(&e, NULL);
	out_collect(&e, "fs/ext4/inode.c");
	out_sections(&e, "SF");
	/* E16: note the directory slash of fs/ext4 */
	ck_assert_str_eq(e.text,
			 "EXT4\n"
			 "S:\tMaintained\n"
			 "F:\tfs/ext4/\n"
			 "\n"
			 "THE REST\n"
			 "S:\tBuried alive in reporters\n"
			 "F:\t*\n"
			 "F:\t*/\n"
			 "\n");
	out_release(&e);
}
END_TEST

START_TEST(test_output_sections_letters_ignore_case)
{
	struct out_env e;

	out_init(&e, NULL);
	out_collect(&e, "include/linux/foo.h");
	out_sections(&e, "m");
	ck_assert_str_eq(e.text,
			 "NOSTATUS\n"
			 "M:\tNobody <nobody@example.com>\n"
			 "\n"
			 "THE REST\n"
			 "M:\tLinus Torvalds <torvalds@linux-foundation.org>\n"
			 "\n");
	out_release(&e);
}
END_TEST

START_TEST(test_output_sections_all_tags)
{
	struct out_env e;

	out_init(&e, "SEC\nM:  A <a@x>\nX:\tlib/a/b.c\nF:lib/\nK:\t foo\n");
	out_collect(&e, "lib/x.c");
	out_sections(&e, NULL);
	/* one TAB after every colon, whatever was written */
	ck_assert_str_eq(e.text,
			 "SEC\n"
			 "M:\tA <a@x>\n"
			 "X:\tlib/a/b.c\n"
			 "F:\tlib/\n"
			 "K:\tfoo\n"
			 "\n");
	out_release(&e);
}
END_TEST

struct glob_case {
	const char *glob;
	const char *printed;
};

static const struct glob_case glob_cases[] = {
	{ "drivers/regulator/da9\?\?\?-regulator.[ch]",
	  "drivers/regulator/da9?..-regulator.[ch]" },		/* E36 */
	{ "Documentation/da72??.txt", "Documentation/da72?..txt" },
	{ "drivers/net/foo/a.c", "drivers/net/foo/a.c" },
	{ "drivers/net/*", "drivers/net/*" },
	{ "drivers/gpio/gpio-?.c", "drivers/gpio/gpio-?.c" },
	{ "fs/**/*foo*.c", "fs/**/*foo*.c" },
	{ "include/linux/*.h", "include/linux/*.h" },
	{ "lib/x?", "lib/x?" },
	{ "lib/a?b", "lib/a?b" },
	{ "lib/???", "lib/?.?" },
	{ "*", "*" },
	{ "*/", "*/" },
};

START_TEST(test_output_sections_glob_restoration)
{
	const struct glob_case *c = &glob_cases[_i];
	char text[256], want[256];
	struct out_env e;

	snprintf(text, sizeof(text), "SEC\nF:\t%s\nF:\t*\nF:\t*/\n", c->glob);
	snprintf(want, sizeof(want), "SEC\nF:\t%s\nF:\t*\nF:\t*/\n\n",
		 c->printed);
	out_init(&e, text);
	out_collect(&e, "x");
	out_sections(&e, "F");
	ck_assert_msg(!strcmp(e.text, want), "row %d %s: got '%s'", _i,
		      c->glob, e.text);
	out_release(&e);
}
END_TEST

Suite *output_suite(void)
{
	Suite *s = suite_create("output");
	TCase *write = tcase_create("write");
	TCase *sections = tcase_create("sections");

	tcase_add_test(write, test_output_e1_with_roles);
	tcase_add_test(write, test_output_default_has_no_roles);
	tcase_add_test(write, test_output_separator_mode);
	tcase_add_test(write, test_output_empty_group_in_single_line_mode);
	tcase_add_test(write, test_output_empty_group_in_multiline_mode);
	tcase_add_test(write, test_output_empty_people_print_nothing);
	tcase_add_test(write, test_output_status_and_subsystem);
	tcase_add_test(write, test_output_noemail_still_prints_lists);
	tcase_add_test(write, test_output_groups_are_unique);
	tcase_add_test(write, test_output_merges_identical_strings);
	tcase_add_test(write, test_output_substatus_after_scm);
	tcase_add_test(write, test_output_substatus_without_roles);
	tcase_add_test(write, test_output_settings_to_cc);
	tcase_add_test(write, test_output_settings_headers);
	suite_add_tcase(s, write);

	tcase_add_test(sections, test_output_sections_letters);
	tcase_add_test(sections, test_output_sections_letters_ignore_case);
	tcase_add_test(sections, test_output_sections_all_tags);
	tcase_add_loop_test(sections, test_output_sections_glob_restoration, 0,
			    (int)ARRAY_SIZE(glob_cases));
	suite_add_tcase(s, sections);
	return s;
}
