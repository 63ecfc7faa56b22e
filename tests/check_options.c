#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gm/error.h"
#include "gm/options.h"

#include "gm_tests.h"
#include "gm_testutil.h"

#define OPT(field) offsetof(struct gm_options, field)

static int *opt_int(struct gm_options *o, size_t off)
{
	return (int *)((char *)o + off);
}

static char **opt_str(struct gm_options *o, size_t off)
{
	return (char **)((char *)o + off);
}

static int argc_of(const char *const *argv)
{
	int n = 0;

	while (argv[n])
		n++;
	return n;
}

static int parse(struct gm_options *o, const char *const *argv)
{
	return gm_options_parse(o, argc_of(argv), (const char **)argv);
}

/* ==================== defaults ==================== */

START_TEST(test_options_defaults)
{
	struct gm_options o;

	gm_options_init(&o);
	/* R-04 defaults of the script, except the role text */
	ck_assert_int_eq(o.email, 1);
	ck_assert_int_eq(o.maintainers, 1);
	ck_assert_int_eq(o.reviewers, 1);
	ck_assert_int_eq(o.usename, 1);
	ck_assert_int_eq(o.lists, 1);
	ck_assert_int_eq(o.subscriber_lists, 0);
	ck_assert_int_eq(o.moderated, 1);
	ck_assert_int_eq(o.keywords, 1);
	ck_assert_int_eq(o.keywords_in_file, 1);	/* 6.1 (§13.3) */
	ck_assert_int_eq(o.file_emails, 0);
	ck_assert_int_eq(o.remove_duplicates, 1);
	ck_assert_int_eq(o.mailmap, 1);
	ck_assert_int_eq(o.fixes, 1);
	ck_assert_int_eq(o.git_min_signatures, 1);
	ck_assert_int_eq(o.git_max_maintainers, 5);
	ck_assert_int_eq(o.git_min_percent, 5);
	ck_assert_int_eq(o.multiline, 1);
	ck_assert_int_eq(o.pattern_depth, 0);
	ck_assert_int_eq(o.scm + o.status + o.subsystem + o.web + o.bug, 0);
	ck_assert_int_eq(o.substatus, 0);
	ck_assert_int_eq(o.sections, 0);
	ck_assert_int_eq(o.from_filename, 0);
	/* this tool prints plain addresses unless asked for roles */
	ck_assert_int_eq(o.roles, 0);
	ck_assert_int_eq(o.rolestats, 0);
	ck_assert_uint_eq(o.args.nr, 0);
	ck_assert_int_eq(gm_options_finish(&o), 0);
	ck_assert_str_eq(o.separator, ", ");
	ck_assert_int_eq(o.roles, 0);
	gm_options_release(&o);
}
END_TEST

/* ============ integer and boolean options (R-04) ============ */

struct int_case {
	const char *argv[5];
	size_t field;
	int value;
};

static const struct int_case int_cases[] = {
	/* -x and --x alike, case-insensitive names */
	{ { "--scm", NULL }, OPT(scm), 1 },
	{ { "-scm", NULL }, OPT(scm), 1 },
	{ { "--SCM", NULL }, OPT(scm), 1 },
	{ { "--Status", NULL }, OPT(status), 1 },
	{ { "--subsystem", NULL }, OPT(subsystem), 1 },
	{ { "--substatus", NULL }, OPT(substatus), 1 },
	{ { "--web", NULL }, OPT(web), 1 },
	{ { "--bug", NULL }, OPT(bug), 1 },
	{ { "--sections", NULL }, OPT(sections), 1 },
	/* negations: --noX and --no-X, short aliases as long names */
	{ { "--nol", NULL }, OPT(lists), 0 },
	{ { "--NOL", NULL }, OPT(lists), 0 },
	{ { "-nol", NULL }, OPT(lists), 0 },
	{ { "--no-l", NULL }, OPT(lists), 0 },
	{ { "--nom", NULL }, OPT(maintainers), 0 },
	{ { "--no-m", NULL }, OPT(maintainers), 0 },
	{ { "--nor", NULL }, OPT(reviewers), 0 },
	{ { "--non", NULL }, OPT(usename), 0 },
	{ { "-n", "--non", "-n", NULL }, OPT(usename), 1 },
	{ { "-s", NULL }, OPT(subscriber_lists), 1 },
	{ { "--noemail", NULL }, OPT(email), 0 },
	{ { "--no-email", NULL }, OPT(email), 0 },
	{ { "--nomoderated", NULL }, OPT(moderated), 0 },
	{ { "--nok", NULL }, OPT(keywords), 0 },
	{ { "--nokeywords", NULL }, OPT(keywords), 0 },
	{ { "--nokf", NULL }, OPT(keywords_in_file), 0 },
	{ { "--no-keywords-in-file", NULL }, OPT(keywords_in_file), 0 },
	{ { "--fe", NULL }, OPT(file_emails), 1 },
	{ { "--file-emails", NULL }, OPT(file_emails), 1 },
	{ { "--noremove-duplicates", NULL }, OPT(remove_duplicates), 0 },
	{ { "--nomailmap", NULL }, OPT(mailmap), 0 },
	{ { "--nofixes", NULL }, OPT(fixes), 0 },
	{ { "--nomultiline", NULL }, OPT(multiline), 0 },
	{ { "--roles", NULL }, OPT(roles), 1 },
	{ { "--rolestats", NULL }, OPT(rolestats), 1 },
	{ { "--rolestats", "--norolestats", NULL }, OPT(rolestats), 0 },
	{ { "--git-chief-penguins", NULL }, OPT(git_chief_penguins), 1 },
	{ { "--git-all-signature-types", NULL },
	  OPT(git_all_signature_types), 1 },
	{ { "-f", NULL }, OPT(from_filename), 1 },
	{ { "--file", NULL }, OPT(from_filename), 1 },
	{ { "--find-maintainer-files", NULL }, OPT(find_maintainer_files), 1 },
	{ { "--tree", NULL }, OPT(tree), 1 },
	{ { "--tree", "--no-tree", NULL }, OPT(tree), 0 },
	{ { "-v", NULL }, OPT(version), 1 },
	{ { "--version", NULL }, OPT(version), 1 },
	{ { "--help", NULL }, OPT(help), 1 },
	{ { "--usage", NULL }, OPT(help), 1 },
	{ { "-h", NULL }, OPT(help), 2 },
	/* integers: --opt=v and --opt v, negative values included */
	{ { "--pattern-depth=2", NULL }, OPT(pattern_depth), 2 },
	{ { "--pattern-depth", "3", NULL }, OPT(pattern_depth), 3 },
	{ { "-pattern-depth", "-1", NULL }, OPT(pattern_depth), -1 },
	{ { "--pattern-depth=-7", NULL }, OPT(pattern_depth), -7 },
	{ { "--git-min-percent=30", NULL }, OPT(git_min_percent), 30 },
	{ { "--git-max-maintainers", "1", NULL }, OPT(git_max_maintainers), 1 },
	{ { "--git-min-signatures=2", NULL }, OPT(git_min_signatures), 2 },
	/* later values win */
	{ { "--pattern-depth=1", "--pattern-depth=4", NULL },
	  OPT(pattern_depth), 4 },
};

START_TEST(test_options_int_table)
{
	const struct int_case *c = &int_cases[_i];
	struct gm_options o;

	gm_options_init(&o);
	ck_assert_msg(parse(&o, c->argv) == 0, "row %d (%s): %s", _i,
		      c->argv[0], gm_error_last());
	ck_assert_int_eq(*opt_int(&o, c->field), c->value);
	ck_assert_uint_eq(o.args.nr, 0);
	gm_options_release(&o);
}
END_TEST

/* ==================== string options ==================== */

struct str_case {
	const char *argv[4];
	size_t field;
	const char *value;
};

static const struct str_case str_cases[] = {
	{ { "--separator=;", NULL }, OPT(separator), ";" },
	{ { "--separator", " | ", NULL }, OPT(separator), " | " },
	{ { "--separator=", NULL }, OPT(separator), "" },
	{ { "--mpath=M2", NULL }, OPT(maintainer_path), "M2" },
	{ { "--maintainer-path", "dir/", NULL }, OPT(maintainer_path), "dir/" },
	{ { "--rev=v1.0", NULL }, OPT(rev), "v1.0" },
	{ { "--rev", "HEAD~2", NULL }, OPT(rev), "HEAD~2" },
	{ { "--letters", "SF", NULL }, OPT(letters), "SF" },
	{ { "--git-since=2.years.ago", NULL }, OPT(git_since), "2.years.ago" },
	{ { "--hg-since=-30", NULL }, OPT(hg_since), "-30" },
	/* a value may itself start with '-' or contain '=' */
	{ { "--separator", "-", NULL }, OPT(separator), "-" },
	{ { "--separator=a=b", NULL }, OPT(separator), "a=b" },
	{ { "--rev=a", "--rev=b", NULL }, OPT(rev), "b" },
	/* an optional value, given with '=' only */
	{ { "--self-test", NULL }, OPT(self_test), "" },
	{ { "--self-test=", NULL }, OPT(self_test), "" },
	{ { "--self-test=sections,patterns", NULL }, OPT(self_test),
	  "sections,patterns" },
	{ { "-SELF-TEST=order", NULL }, OPT(self_test), "order" },
};

START_TEST(test_options_string_table)
{
	const struct str_case *c = &str_cases[_i];
	struct gm_options o;

	gm_options_init(&o);
	ck_assert_msg(parse(&o, c->argv) == 0, "row %d: %s", _i,
		      gm_error_last());
	ck_assert_pstr_eq(*opt_str(&o, c->field), c->value);
	ck_assert_uint_eq(o.args.nr, 0);
	gm_options_release(&o);
}
END_TEST

/* --self-test takes no separate value: the next word is an argument. */
START_TEST(test_options_self_test_value_needs_equals)
{
	static const char *const argv[] = { "--self-test", "patterns", NULL };
	struct gm_options o;

	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, argv), 0);
	ck_assert_str_eq(o.self_test, "");
	ck_assert_uint_eq(o.args.nr, 1);
	ck_assert_str_eq(o.args.v[0], "patterns");
	gm_options_release(&o);
}
END_TEST

/* With --self-test nothing is printed but warnings: no output to choose. */
START_TEST(test_options_self_test_needs_no_output)
{
	static const char *const argv[] = { "--noemail", "--self-test", NULL };
	struct gm_options o;

	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, argv), 0);
	ck_assert_int_eq(gm_options_finish(&o), 0);
	gm_options_release(&o);
	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, argv), 0);
	free(o.self_test);
	o.self_test = NULL;
	ck_assert_int_eq(gm_options_finish(&o), GM_EUSAGE);
	gm_options_release(&o);
}
END_TEST

/* ==================== errors ==================== */

struct err_case {
	const char *argv[4];
};

static const struct err_case err_cases[] = {
	{ { "--foo", NULL } },			/* unknown */
	{ { "--sep", ",", NULL } },		/* no abbreviations */
	{ { "--separ=x", NULL } },
	{ { "--rolestat", NULL } },
	{ { "-fm", NULL } },			/* no bundling */
	{ { "--pattern-depth=x", NULL } },	/* integers only */
	{ { "--pattern-depth=1x", NULL } },
	{ { "--pattern-depth=", NULL } },
	{ { "--pattern-depth=1.5", NULL } },
	{ { "--pattern-depth", "two", NULL } },
	{ { "--pattern-depth=99999999999", NULL } },
	{ { "--pattern-depth", NULL } },		/* missing value */
	{ { "--separator", NULL } },
	{ { "--nof", NULL } },			/* -f is not negatable */
	{ { "--nofile", NULL } },
	{ { "--noversion", NULL } },
	{ { "--nopattern-depth", NULL } },
	{ { "--scm=1", NULL } },		/* no value for a flag */
	{ { "--nol=0", NULL } },
	{ { "--interactive", NULL } },		/* not implemented */
	{ { "-i", NULL } },
	{ { "--noself-test", NULL } },		/* not negatable */
};

START_TEST(test_options_error_table)
{
	const struct err_case *c = &err_cases[_i];
	struct gm_options o;

	gm_options_init(&o);
	gm_error_clear();
	ck_assert_msg(parse(&o, c->argv) == GM_EUSAGE, "row %d (%s)", _i,
		      c->argv[0]);
	ck_assert_str_ne(gm_error_last(), "");
	gm_options_release(&o);
}
END_TEST

/* ==================== arguments ==================== */

START_TEST(test_options_permute_arguments)
{
	static const char *const argv[] = {
		"a.patch", "--scm", "b.patch", "-f", "-", NULL
	};
	struct gm_options o;

	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, argv), 0);
	ck_assert_int_eq(o.scm, 1);
	ck_assert_int_eq(o.from_filename, 1);
	ck_assert_uint_eq(o.args.nr, 3);
	ck_assert_str_eq(o.args.v[0], "a.patch");
	ck_assert_str_eq(o.args.v[1], "b.patch");
	ck_assert_str_eq(o.args.v[2], "-");	/* "-" is an argument */
	gm_options_release(&o);
}
END_TEST

START_TEST(test_options_double_dash_ends_options)
{
	static const char *const argv[] = {
		"--status", "--", "--scm", "-f", "x", NULL
	};
	struct gm_options o;

	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, argv), 0);
	ck_assert_int_eq(o.status, 1);
	ck_assert_int_eq(o.scm, 0);
	ck_assert_int_eq(o.from_filename, 0);
	ck_assert_uint_eq(o.args.nr, 3);
	ck_assert_str_eq(o.args.v[0], "--scm");
	ck_assert_str_eq(o.args.v[1], "-f");
	ck_assert_str_eq(o.args.v[2], "x");
	gm_options_release(&o);
}
END_TEST

START_TEST(test_options_posixly_correct_stops_at_argument)
{
	static const char *const argv[] = { "--web", "a", "--scm", NULL };
	struct gm_options o;

	gm_options_init(&o);
	setenv("POSIXLY_CORRECT", "1", 1);
	ck_assert_int_eq(parse(&o, argv), 0);
	unsetenv("POSIXLY_CORRECT");
	ck_assert_int_eq(o.web, 1);
	ck_assert_int_eq(o.scm, 0);
	ck_assert_uint_eq(o.args.nr, 2);
	ck_assert_str_eq(o.args.v[1], "--scm");
	gm_options_release(&o);
}
END_TEST

START_TEST(test_options_parse_twice_accumulates)
{
	/* conf words first, then the command line */
	static const char *const conf[] = {
		"--nol", "--pattern-depth=1", "conf.patch", NULL
	};
	static const char *const argv[] = {
		"--l", "--pattern-depth", "2", "cmd.patch", NULL
	};
	struct gm_options o;

	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, conf), 0);
	ck_assert_int_eq(o.lists, 0);
	ck_assert_int_eq(parse(&o, argv), 0);
	ck_assert_int_eq(o.lists, 1);
	ck_assert_int_eq(o.pattern_depth, 2);
	ck_assert_uint_eq(o.args.nr, 2);
	ck_assert_str_eq(o.args.v[0], "conf.patch");
	ck_assert_str_eq(o.args.v[1], "cmd.patch");
	gm_options_release(&o);
}
END_TEST

/* ==================== derived settings (R-06) ==================== */

START_TEST(test_options_separator_turns_multiline_off)
{
	static const char *const argv[] = { "--separator", " | ", NULL };
	struct gm_options o;

	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, argv), 0);
	ck_assert_int_eq(gm_options_finish(&o), 0);
	ck_assert_int_eq(o.multiline, 0);
	ck_assert_str_eq(o.separator, " | ");
	gm_options_release(&o);
}
END_TEST

START_TEST(test_options_default_separator_keeps_multiline)
{
	static const char *const argv[] = { "--separator=, ", NULL };
	struct gm_options o;

	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, argv), 0);
	ck_assert_int_eq(gm_options_finish(&o), 0);
	ck_assert_int_eq(o.multiline, 1);
	gm_options_release(&o);
}
END_TEST

START_TEST(test_options_nomultiline_gives_comma_separator)
{
	static const char *const argv[] = { "--nomultiline", NULL };
	struct gm_options o;

	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, argv), 0);
	ck_assert_int_eq(gm_options_finish(&o), 0);
	ck_assert_int_eq(o.multiline, 0);
	ck_assert_str_eq(o.separator, ", ");	/* */
	gm_options_release(&o);
}
END_TEST

START_TEST(test_options_rolestats_implies_roles)
{
	static const char *const argv[] = { "--rolestats", NULL };
	static const char *const roles_only[] = { "--roles", NULL };
	struct gm_options o;

	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, argv), 0);
	ck_assert_int_eq(gm_options_finish(&o), 0);
	ck_assert_int_eq(o.roles, 1);
	gm_options_release(&o);

	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, roles_only), 0);
	ck_assert_int_eq(gm_options_finish(&o), 0);
	ck_assert_int_eq(o.roles, 1);
	ck_assert_int_eq(o.rolestats, 0);
	gm_options_release(&o);
}
END_TEST

START_TEST(test_options_sections_turn_outputs_off)
{
	static const char *const argv[] = {
		"--sections", "--scm", "--status", "--subsystem", "--web",
		NULL
	};
	struct gm_options o;

	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, argv), 0);
	o.bug = 1;
	ck_assert_int_eq(gm_options_finish(&o), 0);
	ck_assert_int_eq(o.sections, 1);
	ck_assert_int_eq(o.email, 0);
	ck_assert_int_eq(o.lists, 0);
	ck_assert_int_eq(o.scm, 0);
	ck_assert_int_eq(o.status, 0);
	ck_assert_int_eq(o.subsystem, 0);
	ck_assert_int_eq(o.web, 0);
	ck_assert_int_eq(o.bug, 0);
	ck_assert_int_eq(o.keywords, 0);
	ck_assert_int_eq(o.keywords_in_file, 0);
	gm_options_release(&o);
}
END_TEST

START_TEST(test_options_letters_imply_sections)
{
	static const char *const argv[] = { "--letters=SF", NULL };
	static const char *const empty[] = { "--letters=", NULL };
	struct gm_options o;

	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, argv), 0);
	ck_assert_int_eq(gm_options_finish(&o), 0);
	ck_assert_int_eq(o.sections, 1);
	ck_assert_int_eq(o.email, 0);
	ck_assert_int_eq(o.keywords, 0);
	gm_options_release(&o);

	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, empty), 0);
	ck_assert_int_eq(gm_options_finish(&o), 0);
	ck_assert_int_eq(o.sections, 0);
	ck_assert_int_eq(o.email, 1);
	gm_options_release(&o);
}
END_TEST

struct finish_case {
	const char *argv[6];
	int error;
};

static const struct finish_case finish_cases[] = {
	/* R-06 step 6: something must be printed */
	{ { "--noemail", NULL }, GM_EUSAGE },
	{ { "--noemail", "--scm", NULL }, 0 },
	{ { "--noemail", "--status", NULL }, 0 },
	{ { "--noemail", "--subsystem", NULL }, 0 },
	{ { "--noemail", "--web", NULL }, 0 },
	{ { "--noemail", "--bug", NULL }, 0 },
	{ { "--noemail", "--sections", NULL }, 0 },
	/* R-06 step 7: at least one email option */
	{ { "--nom", "--nor", "--nol", NULL }, GM_EUSAGE },
	{ { "--nom", "--nor", "--nol", "-s", NULL }, 0 },
	{ { "--nom", "--nor", "--nol", "--git-chief-penguins", NULL }, 0 },
	{ { "--nom", "--nor", NULL }, 0 },
	{ { "--noemail", "--nom", "--nor", "--nol", "--scm", NULL }, 0 },
	/* R-06 step 7: --git and --git-blame are email options too */
	{ { "--nom", "--nor", "--nol", "--git", NULL }, 0 },
	{ { "--nom", "--nor", "--nol", "--git-blame", NULL }, 0 },
	{ { "--git-blame", NULL }, 0 },
};

START_TEST(test_options_finish_table)
{
	const struct finish_case *c = &finish_cases[_i];
	struct gm_options o;

	gm_options_init(&o);
	ck_assert_int_eq(parse(&o, c->argv), 0);
	ck_assert_msg(gm_options_finish(&o) == c->error, "row %d (%s %s)", _i,
		      c->argv[0], c->argv[1] ? c->argv[1] : "");
	gm_options_release(&o);
}
END_TEST

START_TEST(test_options_usage_text)
{
	char *u = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&u, &len);

	ck_assert_ptr_nonnull(f);
	gm_options_usage_write(f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_ptr_nonnull(u);
	ck_assert_int_eq(strncmp(u, "usage: git maintainer", 21), 0);
	ck_assert_ptr_nonnull(strstr(u, "--rolestats"));
	free(u);
}
END_TEST

Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *parse_tc = tcase_create("parse");
	TCase *errors = tcase_create("errors");
	TCase *finish = tcase_create("finish");

	tcase_add_test(parse_tc, test_options_defaults);
	tcase_add_loop_test(parse_tc, test_options_int_table, 0,
			    (int)ARRAY_SIZE(int_cases));
	tcase_add_loop_test(parse_tc, test_options_string_table, 0,
			    (int)ARRAY_SIZE(str_cases));
	tcase_add_test(parse_tc, test_options_permute_arguments);
	tcase_add_test(parse_tc, test_options_double_dash_ends_options);
	tcase_add_test(parse_tc,
		       test_options_posixly_correct_stops_at_argument);
	tcase_add_test(parse_tc, test_options_parse_twice_accumulates);
	tcase_add_test(parse_tc, test_options_usage_text);
	tcase_add_test(parse_tc, test_options_self_test_value_needs_equals);
	suite_add_tcase(s, parse_tc);

	tcase_add_loop_test(errors, test_options_error_table, 0,
			    (int)ARRAY_SIZE(err_cases));
	suite_add_tcase(s, errors);

	tcase_add_test(finish, test_options_separator_turns_multiline_off);
	tcase_add_test(finish, test_options_default_separator_keeps_multiline);
	tcase_add_test(finish, test_options_nomultiline_gives_comma_separator);
	tcase_add_test(finish, test_options_rolestats_implies_roles);
	tcase_add_test(finish, test_options_sections_turn_outputs_off);
	tcase_add_test(finish, test_options_letters_imply_sections);
	tcase_add_test(finish, test_options_self_test_needs_no_output);
	tcase_add_loop_test(finish, test_options_finish_table, 0,
			    (int)ARRAY_SIZE(finish_cases));
	suite_add_tcase(s, finish);
	return s;
}
