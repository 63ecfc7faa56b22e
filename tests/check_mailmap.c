#include <string.h>

#include "gm/buf.h"
#include "gm/mailmap.h"

#include "gm_tests.h"
#include "gm_testutil.h"

struct apply_case {
	const char *in;
	const char *out;
};

/* on the .mailmap of E21. */
static const struct apply_case e21_cases[] = {
	/* form 1: Name <addr> gives the name to that address */
	{ "Ted <ted@example.com>", "Theodore Tso <ted@example.com>" },
	{ "ted@example.com", "Theodore Tso <ted@example.com>" }, /* */
	/* form 2: <real> <wrong> */
	{ "\"Bob O'Neil\" <bob@example.com>",
	  "\"Bob O'Neil\" <newbob@example.com>" },
	{ "Bob O'Neil <bob@example.com>",
	  "\"Bob O'Neil\" <newbob@example.com>" },
	{ "bob@example.com", "newbob@example.com" },
	/* form 3: Name <real> <wrong> */
	{ "Alice Example <alice@example.com>", "Alice Real <alice@real.com>" },
	{ "alice@example.com", "Alice Real <alice@real.com>" },
	{ "Old Name <alice@example.com>", "Alice Real <alice@real.com>" },
	/* form 4: only "Wrong Name <wrong>" as a whole */
	{ "Rob Reviewer <rob@example.com>", "Rob Renamed <rob@new.com>" },
	{ "rob@example.com", "rob@example.com" },
	{ "Robert <rob@example.com>", "Robert <rob@example.com>" },
	/* keys are case-sensitive */
	{ "Ted <TED@example.com>", "Ted <TED@example.com>" },
	{ "ROB REVIEWER <rob@example.com>", "ROB REVIEWER <rob@example.com>" },
	/* unknown people pass through, formatted with their name */
	{ "Nobody <nobody@example.com>", "Nobody <nobody@example.com>" },
	{ "David S. Miller <d@x>", "\"David S. Miller\" <d@x>" },
};

START_TEST(test_mailmap_e21_table)
{
	const struct apply_case *c = &e21_cases[_i];
	const char *text = gm_test_mailmap_e21;
	struct gm_mailmap *mm = NULL;
	struct gm_buf out = GM_BUF_INIT;

	ck_assert_int_eq(gm_mailmap_from_buffer(&mm, text, strlen(text)), 0);
	gm_buf_puts(&out, "stale");
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, c->in), 0);
	ck_assert_msg(!strcmp(out.ptr, c->out), "row %d '%s': got '%s'", _i,
		      c->in, out.ptr);
	gm_buf_release(&out);
	gm_mailmap_free(mm);
}
END_TEST

START_TEST(test_mailmap_null_maps_nothing)
{
	struct gm_buf out = GM_BUF_INIT;

	ck_assert_int_eq(gm_mailmap_apply(&out, NULL, "Bob O'Neil <b@x>"), 0);
	ck_assert_str_eq(out.ptr, "\"Bob O'Neil\" <b@x>");
	ck_assert_int_eq(gm_mailmap_apply(&out, NULL, "b@x"), 0);
	ck_assert_str_eq(out.ptr, "b@x");
	gm_buf_release(&out);
	gm_mailmap_free(NULL);
}
END_TEST

START_TEST(test_mailmap_comments_and_blanks)
{
	static const char text[] =
		"# a comment line\n"
		"\n"
		"   \t  \n"
		"  Ted T <ted@x>   # trailing comment\n"
		"Real <real@x> # <wrong@x>\n"
		"Cut <cut#here@x>\n";
	struct gm_mailmap *mm = NULL;
	struct gm_buf out = GM_BUF_INIT;

	ck_assert_int_eq(gm_mailmap_from_buffer(&mm, text, strlen(text)), 0);
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, "ted@x"), 0);
	ck_assert_str_eq(out.ptr, "Ted T <ted@x>");
	/* the comment removed the second address: a form 1 line */
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, "wrong@x"), 0);
	ck_assert_str_eq(out.ptr, "wrong@x");
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, "real@x"), 0);
	ck_assert_str_eq(out.ptr, "Real <real@x>");
	/* '#' cuts even inside <...>: "Cut <cut" is no form at all */
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, "cut#here@x"), 0);
	ck_assert_str_eq(out.ptr, "cut#here@x");
	gm_buf_release(&out);
	gm_mailmap_free(mm);
}
END_TEST

START_TEST(test_mailmap_quoted_names)
{
	static const char text[] =
		"David S. Miller <davem@x>\n"
		"Real Name <r@x> Bob O'Neil <b@x>\n";
	struct gm_mailmap *mm = NULL;
	struct gm_buf out = GM_BUF_INIT;

	ck_assert_int_eq(gm_mailmap_from_buffer(&mm, text, strlen(text)), 0);
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, "davem@x"), 0);
	ck_assert_str_eq(out.ptr, "\"David S. Miller\" <davem@x>");
	/* the form-4 key is the quoted "Wrong Name <wrong>" */
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, "Bob O'Neil <b@x>"), 0);
	ck_assert_str_eq(out.ptr, "Real Name <r@x>");
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, "\"Bob O'Neil\" <b@x>"), 0);
	ck_assert_str_eq(out.ptr, "Real Name <r@x>");
	gm_buf_release(&out);
	gm_mailmap_free(mm);
}
END_TEST

START_TEST(test_mailmap_unknown_forms_skipped)
{
	static const char text[] =
		"garbage line\n"
		"<only@one>\n"
		"Name without address\n"
		"Good <good@x>\n"
		"Bad <bad@x\n";
	struct gm_mailmap *mm = NULL;
	struct gm_buf out = GM_BUF_INIT;

	ck_assert_int_eq(gm_mailmap_from_buffer(&mm, text, strlen(text)), 0);
	ck_assert_ptr_nonnull(mm);
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, "only@one"), 0);
	ck_assert_str_eq(out.ptr, "only@one");
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, "good@x"), 0);
	ck_assert_str_eq(out.ptr, "Good <good@x>");
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, "bad@x"), 0);
	ck_assert_str_eq(out.ptr, "bad@x");
	gm_buf_release(&out);
	gm_mailmap_free(mm);
}
END_TEST

START_TEST(test_mailmap_crlf_and_no_final_newline)
{
	static const char text[] =
		"One <one@x>\r\n"
		"<real@x> <old@x>";
	struct gm_mailmap *mm = NULL;
	struct gm_buf out = GM_BUF_INIT;

	ck_assert_int_eq(gm_mailmap_from_buffer(&mm, text, strlen(text)), 0);
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, "one@x"), 0);
	ck_assert_str_eq(out.ptr, "One <one@x>");
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, "Old <old@x>"), 0);
	ck_assert_str_eq(out.ptr, "Old <real@x>");
	gm_buf_release(&out);
	gm_mailmap_free(mm);
}
END_TEST

START_TEST(test_mailmap_later_lines_win)
{
	static const char text[] =
		"First <a@x>\n"
		"Second <a@x>\n";
	struct gm_mailmap *mm = NULL;
	struct gm_buf out = GM_BUF_INIT;

	ck_assert_int_eq(gm_mailmap_from_buffer(&mm, text, strlen(text)), 0);
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, "a@x"), 0);
	ck_assert_str_eq(out.ptr, "Second <a@x>");
	gm_buf_release(&out);
	gm_mailmap_free(mm);
}
END_TEST

START_TEST(test_mailmap_empty_text)
{
	struct gm_mailmap *mm = NULL;
	struct gm_buf out = GM_BUF_INIT;

	ck_assert_int_eq(gm_mailmap_from_buffer(&mm, "", 0), 0);
	ck_assert_ptr_nonnull(mm);
	ck_assert_int_eq(gm_mailmap_apply(&out, mm, "X <x@y>"), 0);
	ck_assert_str_eq(out.ptr, "X <x@y>");
	gm_buf_release(&out);
	gm_mailmap_free(mm);
}
END_TEST

Suite *mailmap_suite(void)
{
	Suite *s = suite_create("mailmap");
	TCase *tc = tcase_create("forms");

	tcase_add_loop_test(tc, test_mailmap_e21_table, 0,
			    (int)ARRAY_SIZE(e21_cases));
	tcase_add_test(tc, test_mailmap_null_maps_nothing);
	tcase_add_test(tc, test_mailmap_comments_and_blanks);
	tcase_add_test(tc, test_mailmap_quoted_names);
	tcase_add_test(tc, test_mailmap_unknown_forms_skipped);
	tcase_add_test(tc, test_mailmap_crlf_and_no_final_newline);
	tcase_add_test(tc, test_mailmap_later_lines_win);
	tcase_add_test(tc, test_mailmap_empty_text);
	suite_add_tcase(s, tc);
	return s;
}
