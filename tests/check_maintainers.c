#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/maintainers.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/* The retained lines of fixture A: 6 of preamble, then sections. */
#define FIXTURE_A_LINES 45

START_TEST(test_maintainers_fixture_a_sections)
{
	static const char *const names[] = {
		("ALPHA SUBSYSTEM WITH A VERY LONG NAME THAT EXCEEDS FIFTY "
		 "CHARACTERS"),
		"BETA DRIVER", "GAMMA", "EXT4", "NOSTATUS", "THE REST",
	};
	static const size_t starts[] = { 6, 12, 20, 28, 35, 38 };
	static const size_t ends[] = { 12, 20, 28, 35, 38, 45 };
	struct gm_test_dirs d;
	struct gm_maintainers *m = gm_test_parse_fixture_a(&d);
	size_t i;

	ck_assert_uint_eq(m->nr_lines, FIXTURE_A_LINES);
	ck_assert_uint_eq(m->nr_sections, ARRAY_SIZE(names));
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		ck_assert_str_eq(m->sections[i].name, names[i]);
		ck_assert_uint_eq(m->sections[i].start, starts[i]);
		ck_assert_uint_eq(m->sections[i].end, ends[i]);
	}
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_maintainers_fixture_a_lines)
{
	struct gm_test_dirs d;
	struct gm_maintainers *m = gm_test_parse_fixture_a(&d);

	/* preamble examples start with a TAB: not tag lines */
	ck_assert_int_eq(m->lines[2].tag, 0);
	ck_assert_str_eq(m->lines[2].value,
			 "\tM: *Mail* patches to: FullName <address@domain>");
	ck_assert_str_eq(m->lines[5].value, "----------------");
	/* tag lines: the white space after the colon is dropped */
	ck_assert_int_eq(m->lines[7].tag, 'M');
	ck_assert_str_eq(m->lines[7].value,
			 "Alice Example <alice@example.com>");
	ck_assert_uint_eq(m->lines[7].len, strlen(m->lines[7].value));
	ck_assert_ptr_null(m->lines[7].glob);
	ck_assert_ptr_null(m->lines[7].regex);
	ck_assert_int_eq(m->lines[11].tag, 'F');
	ck_assert_ptr_nonnull(m->lines[11].glob);
	ck_assert_str_eq(m->lines[11].glob->glob, "drivers/net/foo/");
	ck_assert_int_eq(m->lines[26].tag, 'X');
	ck_assert_ptr_nonnull(m->lines[26].glob);
	ck_assert_int_eq(m->lines[27].tag, 'N');
	ck_assert_ptr_nonnull(m->lines[27].regex);
	ck_assert_str_eq(m->lines[27].regex->source, "gpio");
	/* the K: of BETA is retained line 19 (R-14 key) */
	ck_assert_int_eq(m->lines[19].tag, 'K');
	ck_assert_str_eq(m->lines[19].regex->source, "\\bbeta_magic\\b");
	ck_assert_uint_eq(m->section_of[19], 1);
	ck_assert_uint_eq(m->section_of[7], 0);
	ck_assert_uint_eq(m->section_of[44], 5);
	ck_assert_uint_eq(m->section_of[0], SIZE_MAX);
	ck_assert_uint_eq(m->section_of[5], SIZE_MAX);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_maintainers_fixture_a_status)
{
	struct gm_test_dirs d;
	struct gm_maintainers *m = gm_test_parse_fixture_a(&d);
	const struct gm_section *s = m->sections;

	ck_assert_str_eq(s[0].short_name,
			 "ALPHA SUBSYSTEM WITH A VERY LONG NAME THAT EXCE...");
	ck_assert_str_eq(s[1].short_name, "BETA DRIVER");
	ck_assert_pstr_eq(s[0].status, "Supported");
	ck_assert_pstr_eq(s[1].status, "Odd Fixes");
	ck_assert_pstr_eq(s[2].status, "Orphan");
	ck_assert_pstr_eq(s[3].status, "Maintained");
	ck_assert_ptr_null(s[4].status);
	ck_assert_pstr_eq(s[5].status, "Buried alive in reporters");
	ck_assert_int_eq(s[0].maintained, 1);
	ck_assert_int_eq(s[1].maintained, 0);
	ck_assert_int_eq(s[2].maintained, 0);
	ck_assert_int_eq(s[3].maintained, 1);
	ck_assert_int_eq(s[4].maintained, 0);
	ck_assert_int_eq(s[5].maintained, 0);
	ck_assert_int_eq(s[0].has_maintainer, 1);
	ck_assert_int_eq(s[4].has_maintainer, 1);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_maintainers_blank_and_comment_lines_dropped)
{
	struct gm_maintainers *m = gm_test_parse(
		"SEC\n"
		"M: a@x\n"
		"\n"
		"# a comment\n"
		"   \t\n"
		"   # an indented comment\n"
		"F: x/\n"
		"F: y/ # not a comment\n");

	ck_assert_uint_eq(m->nr_lines, 4);
	ck_assert_uint_eq(m->nr_sections, 1);
	ck_assert_uint_eq(m->sections[0].start, 0);
	ck_assert_uint_eq(m->sections[0].end, 4);
	ck_assert_str_eq(m->lines[3].value, "y/ # not a comment");
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_maintainers_malformed_tag_splits_section)
{
	/* " M:", "m:" and "M " are non-tag lines */
	struct gm_maintainers *m = gm_test_parse(
		"SEC\n"
		"M: a@x\n"
		" M: b@y\n"
		"F: f/\n"
		"m: c@z\n"
		"L: l@x\n"
		"M d@w\n"
		"S: Maintained\n");

	ck_assert_uint_eq(m->nr_lines, 8);
	ck_assert_uint_eq(m->nr_sections, 4);
	ck_assert_str_eq(m->sections[0].name, "SEC");
	ck_assert_uint_eq(m->sections[0].end, 2);
	ck_assert_str_eq(m->sections[1].name, " M: b@y");
	ck_assert_str_eq(m->sections[2].name, "m: c@z");
	ck_assert_str_eq(m->sections[3].name, "M d@w");
	ck_assert_int_eq(m->sections[3].maintained, 1);
	ck_assert_int_eq(m->sections[0].maintained, 0);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_maintainers_any_letter_is_a_tag)
{
	struct gm_maintainers *m = gm_test_parse(
		"SEC\n"
		"D: a description\n"
		"V: whatever\n"
		"M: a@x\n"
		"Mx: not a tag\n"
		"M:\n");

	ck_assert_uint_eq(m->nr_sections, 2);
	ck_assert_int_eq(m->lines[1].tag, 'D');
	ck_assert_int_eq(m->lines[2].tag, 'V');
	ck_assert_int_eq(m->lines[4].tag, 0);
	ck_assert_int_eq(m->lines[5].tag, 'M');
	ck_assert_str_eq(m->lines[5].value, "");
	ck_assert_str_eq(m->sections[1].name, "Mx: not a tag");
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_maintainers_value_white_space)
{
	struct gm_maintainers *m = gm_test_parse(
		"SEC\n"
		"F:   \tfoo\n"
		"F: bar  \n");

	ck_assert_str_eq(m->lines[1].value, "foo");
	ck_assert_str_eq(m->lines[2].value, "bar  ");	/* kept */
	ck_assert_uint_eq(m->lines[2].len, 5);
	gm_maintainers_free(m);
}
END_TEST

struct short_case {
	const char *name;
	const char *short_name;
};

static const struct short_case short_cases[] = {
	/* 50 characters: kept */
	{ "12345678901234567890123456789012345678901234567890",
	  "12345678901234567890123456789012345678901234567890" },
	/* 51: the first 47 and "..." */
	{ "123456789012345678901234567890123456789012345678901",
	  "12345678901234567890123456789012345678901234567..." },
	/* trailing white space of the 47 is stripped */
	{ "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA  BBBBBBBBBB",
	  "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA..." },
	{ "SHORT", "SHORT" },
};

START_TEST(test_maintainers_short_name_table)
{
	const struct short_case *c = &short_cases[_i];
	char text[256];
	struct gm_maintainers *m;

	snprintf(text, sizeof(text), "%s\nM: a@x\n", c->name);
	m = gm_test_parse(text);
	ck_assert_uint_eq(m->nr_sections, 1);
	ck_assert_str_eq(m->sections[0].name, c->name);
	ck_assert_str_eq(m->sections[0].short_name, c->short_name);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_maintainers_status_is_last_s)
{
	struct gm_maintainers *m = gm_test_parse(
		"TWO\n"
		"S: Maintained\n"
		"R: r@x\n"
		"S: Odd Fixes\n"
		"\n"
		"CASE\n"
		"M: a@x\n"
		"S: SUPPORTED\n"
		"\n"
		"OBS\n"
		"M: a@x\n"
		"S: Obsolete\n");

	ck_assert_pstr_eq(m->sections[0].status, "Odd Fixes");
	/* any S: with maintain or support counts */
	ck_assert_int_eq(m->sections[0].maintained, 1);
	ck_assert_int_eq(m->sections[0].has_maintainer, 0);
	ck_assert_int_eq(m->sections[1].maintained, 1);
	ck_assert_int_eq(m->sections[2].maintained, 0);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_maintainers_buffers_concatenate)
{
	static const char one[] = "A\nM: a@x\n";
	static const char two[] = "F: a/\nB\nM: b@y\n";
	const char *bufs[2] = { one, two };
	size_t lens[2] = { sizeof(one) - 1, sizeof(two) - 1 };
	struct gm_maintainers *m = NULL;

	ck_assert_int_eq(gm_maintainers_parse(&m, bufs, lens, 2), 0);
	/* sections do not stop at file boundaries */
	ck_assert_uint_eq(m->nr_lines, 5);
	ck_assert_uint_eq(m->nr_sections, 2);
	ck_assert_str_eq(m->sections[0].name, "A");
	ck_assert_uint_eq(m->sections[0].end, 3);
	ck_assert_int_eq(m->lines[2].tag, 'F');
	ck_assert_str_eq(m->sections[1].name, "B");
	gm_maintainers_free(m);
}
END_TEST

/*
 * Named texts, then Xen's brace groups (texts of their own): the names
 * stay those of the files, and everything is freed once (ASan).
 */
START_TEST(test_maintainers_names_then_braces)
{
	static const char one[] = "A\nM: a@x\nF: a/{b,c}.c\n";
	static const char two[] = "B\nF: d/{e,f}/\n";
	const char *bufs[2] = { one, two }, *names[2] = { "MAINTAINERS", "d/M" };
	size_t lens[2] = { sizeof(one) - 1, sizeof(two) - 1 };
	struct gm_maintainers *m = NULL;

	ck_assert_int_eq(gm_maintainers_parse(&m, bufs, lens, 2), 0);
	ck_assert_int_eq(gm_maintainers_set_names(m, names, 2), 0);
	ck_assert_int_eq(gm_maintainers_braces(m), 0);
	ck_assert_uint_eq(m->nr_texts, 4);
	ck_assert_str_eq(m->names[1], "d/M");
	ck_assert_ptr_null(m->names[2]);
	ck_assert_int_eq(gm_maintainers_set_names(m, names, 1), 0);
	ck_assert_str_eq(m->names[0], "MAINTAINERS");
	ck_assert_ptr_null(m->names[1]);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_maintainers_no_final_newline)
{
	struct gm_maintainers *m = gm_test_parse("A\nM: a@x");

	ck_assert_uint_eq(m->nr_lines, 2);
	ck_assert_str_eq(m->lines[1].value, "a@x");
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_maintainers_crlf_drops_cr)
{
	/*
	 * Q-16, deliberately not reproduced: a CRLF line ends before its CR,
	 * so values keep no '\r' and "F: dir/" still matches.
	 */
	struct gm_maintainers *m = gm_test_parse(
		"A\r\nM:\ta@x\r\nF:\tdir/\r\nB\rC\n");

	ck_assert_uint_eq(m->nr_sections, 1);
	ck_assert_str_eq(m->sections[0].name, "A");
	ck_assert_str_eq(m->lines[1].value, "a@x");
	ck_assert_str_eq(m->lines[2].value, "dir/");
	ck_assert_uint_eq(m->lines[2].len, 4);
	ck_assert_str_eq(m->lines[3].value, "B\rC");	/* only at the end */
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_maintainers_adjacent_names)
{
	struct gm_maintainers *m = gm_test_parse(
		"PREAMBLE\n"
		"X\n"
		"Y\n"
		"M: a@x\n");

	ck_assert_uint_eq(m->nr_sections, 1);
	ck_assert_str_eq(m->sections[0].name, "Y");
	ck_assert_uint_eq(m->sections[0].start, 2);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_maintainers_leading_tag_line_names_section)
{
	/*
	 * with a tag line at index 0 the name is that line itself,
	 * as stored by R-11: "<L>:<value>", the white space dropped.
	 */
	struct gm_maintainers *m = gm_test_parse(
		"M:\tFirst <first@x>\n"
		"F:\tf/\n");
	char name[64] = "";
	size_t nr = m->nr_sections;

	if (nr)
		snprintf(name, sizeof(name), "%s", m->sections[0].name);
	gm_maintainers_free(m);
	ck_assert_uint_eq(nr, 1);
	ck_assert_str_eq(name, "M:First <first@x>");
}
END_TEST

START_TEST(test_maintainers_stars)
{
	/* a lone star, a star and a slash: exact values, in the range given */
	struct gm_maintainers *m = gm_test_parse(
		"THE REST\n"
		"M:\tA <a@x>\n"
		"F:\t*\n"
		"F:\t*/\n"
		"\n"
		"HALF\n"
		"F:\t*/\n"
		"X:\t*\n"
		"\n"
		"NONE\n"
		"F:\t**\n"
		"F:\t*.c\n"
		"N:\t*\n");
	const struct gm_section *s = m->sections;
	unsigned all, rest_tail, half, none;

	ck_assert_uint_eq(m->nr_sections, 3);
	all = gm_maintainers_stars(m, s[0].start, s[0].end);
	rest_tail = gm_maintainers_stars(m, s[0].start + 3, s[0].end);
	half = gm_maintainers_stars(m, s[1].start, s[1].end);
	none = gm_maintainers_stars(m, s[2].start, s[2].end);
	gm_maintainers_free(m);
	ck_assert_uint_eq(all, GM_STARS_FILES | GM_STARS_DIRS);
	ck_assert_uint_eq(rest_tail, GM_STARS_DIRS);
	ck_assert_uint_eq(half, GM_STARS_DIRS);
	ck_assert_uint_eq(none, 0);
}
END_TEST

START_TEST(test_maintainers_nothing)
{
	struct gm_maintainers *m = gm_test_parse("");

	ck_assert_uint_eq(m->nr_lines, 0);
	ck_assert_uint_eq(m->nr_sections, 0);
	gm_maintainers_free(m);
	m = gm_test_parse("just text\nmore text\n");
	ck_assert_uint_eq(m->nr_lines, 2);
	ck_assert_uint_eq(m->nr_sections, 0);
	gm_maintainers_free(m);
	gm_maintainers_free(NULL);
}
END_TEST

/* Globs of every class: literal, plain, any depth, regex syntax. */
static const char thread_fixture[] =
	"S\n"
	"F:\tdrivers/net/\n"
	"F:\tarch/[ab]/\n"
	"F:\tfs/**/x.c\n"
	"X:\tlib/x+y\n"
	"F:\tfs/ext4\n"
	"F:\t*.c\n";

/* One thread's parse: what it says of the globs. */
struct parse_thread {
	char *got;
};

static void *parse_thread_main(void *payload)
{
	struct parse_thread *t = payload;
	const char *bufs[1] = { thread_fixture };
	size_t lens[1] = { sizeof(thread_fixture) - 1 };
	struct gm_maintainers *m = NULL;
	size_t n = 0;

	if (gm_maintainers_parse(&m, bufs, lens, 1) < 0)
		return NULL;
	t->got = malloc(m->nr_globs * 4 + 1);
	for (size_t i = 0; t->got && i < m->nr_globs; i++) {
		const struct gm_glob *g = &m->globs[i];

		t->got[n++] = g->plain ? 'p' : '-';
		t->got[n++] = g->literal ? 'l' : '-';
		t->got[n++] = g->anydepth ? 'a' : '-';
		t->got[n++] = (char)('0' + g->slashes);
	}
	if (t->got)
		t->got[n] = '\0';
	gm_maintainers_free(m);
	return NULL;
}

/*
 * MAINTAINERS may be parsed in several threads at once (the prefetch and
 * --mpath): each classes the globs alike, sharing nothing it writes.
 */
START_TEST(test_maintainers_parse_in_threads)
{
	struct parse_thread t[4];
	pthread_t tid[4];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		t[i].got = NULL;
		ck_assert_int_eq(pthread_create(&tid[i], NULL,
						parse_thread_main, &t[i]), 0);
	}
	for (i = 0; i < ARRAY_SIZE(t); i++)
		ck_assert_int_eq(pthread_join(tid[i], NULL), 0);
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		/* plain, literal, any depth, slashes */
		ck_assert_pstr_eq(t[i].got, "pl-2---2p-a2---1pl-1p--0");
		free(t[i].got);
	}
}
END_TEST

Suite *maintainers_suite(void)
{
	Suite *s = suite_create("maintainers");
	TCase *fixture = tcase_create("fixture-a");
	TCase *lines = tcase_create("lines");
	TCase *sections = tcase_create("sections");

	tcase_add_test(fixture, test_maintainers_fixture_a_sections);
	tcase_add_test(fixture, test_maintainers_fixture_a_lines);
	tcase_add_test(fixture, test_maintainers_fixture_a_status);
	suite_add_tcase(s, fixture);

	tcase_add_test(lines, test_maintainers_blank_and_comment_lines_dropped);
	tcase_add_test(lines, test_maintainers_any_letter_is_a_tag);
	tcase_add_test(lines, test_maintainers_value_white_space);
	tcase_add_test(lines, test_maintainers_no_final_newline);
	tcase_add_test(lines, test_maintainers_crlf_drops_cr);
	tcase_add_test(lines, test_maintainers_buffers_concatenate);
	tcase_add_test(lines, test_maintainers_names_then_braces);
	tcase_add_test(lines, test_maintainers_nothing);
	tcase_add_test(lines, test_maintainers_parse_in_threads);
	suite_add_tcase(s, lines);

	tcase_add_test(sections, test_maintainers_malformed_tag_splits_section);
	tcase_add_loop_test(sections, test_maintainers_short_name_table, 0,
			    (int)ARRAY_SIZE(short_cases));
	tcase_add_test(sections, test_maintainers_status_is_last_s);
	tcase_add_test(sections, test_maintainers_adjacent_names);
	tcase_add_test(sections, test_maintainers_stars);
	tcase_add_test(sections,
		       test_maintainers_leading_tag_line_names_section);
	suite_add_tcase(s, sections);
	return s;
}
