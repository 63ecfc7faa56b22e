#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/email.h"
#include "gm/strvec.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/* ==================== parse_email (R-60, R-61) ==================== */

struct parse_case {
	const char *in;
	const char *name;
	const char *addr;
};

static const struct parse_case parse_cases[] = {
	/* form 1: name <addr>, the address up to the last '>' */
	{ "Alice Example <alice@example.com>", "Alice Example",
	  "alice@example.com" },
	{ "A <a@x> <b@y>", "A", "a@x> <b@y" },
	{ "A<a@b>", "A", "a@b" },
	{ "  Spaced   <  a@b.c  >", "Spaced", "a@b.c" },
	{ "Name <a@b.c> trailing text", "Name", "a@b.c" },
	/* form 2: <addr> alone */
	{ "<alice@example.com>", "", "alice@example.com" },
	{ "  <a@b.c> trailing", "", "a@b.c" },
	{ "<a@b> <c@d>", "", "a@b> <c@d" },
	/* form 3: everything to the last '@' and the non-space after it */
	{ "foo@bar.org (x)", "", "foo@bar.org" },
	{ "John foo@x.org", "", "John foo@x.org" },
	{ "a@b.c", "", "a@b.c" },
	{ "<@x>", "", "<@x>" },
	/* no address */
	{ "no address here", "", "" },
	{ "Name <no-at-sign>", "", "" },
	{ "@x", "", "" },
	{ "", "", "" },
	/* quoting (R-61) */
	{ "Bob O'Neil <bob@example.com>", "\"Bob O'Neil\"", "bob@example.com" },
	{ "\"Carol, Jr.\" <carol@example.com>", "\"Carol, Jr.\"",
	  "carol@example.com" },
	{ "David S. Miller <davem@davemloft.net>", "\"David S. Miller\"",
	  "davem@davemloft.net" },
	{ "Nuno S\xc3\xa1 <nuno@x.org>", "\"Nuno S\xc3\xa1\"", "nuno@x.org" },
	{ "\"Quoted\" <q@x.org>", "Quoted", "q@x.org" },
	{ "Jean-Luc Under_Score 3 <j@x>", "Jean-Luc Under_Score 3", "j@x" },
	{ "Bob \"The\" Builder <b@x>", "\"Bob \\\"The\\\" Builder\"", "b@x" },
	{ "\"Bob \\\"The\\\" Builder\" <b@x>", "\"Bob \\\"The\\\" Builder\"",
	  "b@x" },
	/*
	 * R-61's quoting where it gives no valid quoted string: every '\\'
	 * and '"' escaped instead (issue: 'Acked-by: "Q\\" <q@example.org>')
	 */
	{ "\"Q\\\" <q@example.org>", "\"Q\\\\\"", "q@example.org" },
	{ "\\ <lone@x>", "\"\\\\\"", "lone@x" },
	{ "a\\\\\"b <x@y>", "\"a\\\\\\\\\\\"b\"", "x@y" },
	/* where it gives one, R-61's is kept: "\\s" and "\\\\" are pairs */
	{ "Tail\\\\ <t@x>", "\"Tail\\\\\"", "t@x" },
	{ "Back\\slash <bs@x>", "\"Back\\slash\"", "bs@x" },
	{ "Un\"balanced <u@x>", "\"Un\\\"balanced\"", "u@x" },
	{ "\"Unbalanced <u@x>", "Unbalanced", "u@x" },
	{ "A>B <g@x>", "\"A>B\"", "g@x" },
	/* control characters: no quoting helps, R-61's form is kept */
	{ "Esc\\\x1b <e@x>", "\"Esc\\\x1b\"", "e@x" },
};

START_TEST(test_email_parse_table)
{
	const struct parse_case *c = &parse_cases[_i];
	struct gm_buf name = GM_BUF_INIT, addr = GM_BUF_INIT;

	gm_buf_puts(&name, "stale");
	gm_buf_puts(&addr, "stale");
	ck_assert_int_eq(gm_email_parse(&name, &addr, c->in), 0);
	ck_assert_msg(!strcmp(name.ptr, c->name) && !strcmp(addr.ptr, c->addr),
		      "row %d '%s': got name '%s' addr '%s'", _i, c->in,
		      name.ptr, addr.ptr);
	gm_buf_release(&name);
	gm_buf_release(&addr);
}
END_TEST

/* ==================== format_email (R-62) ==================== */

struct format_case {
	const char *name;
	const char *addr;
	int usename;
	const char *out;
};

static const struct format_case format_cases[] = {
	{ "Alice", "a@x", 1, "Alice <a@x>" },
	{ "Alice", "a@x", 0, "a@x" },
	{ "", "a@x", 1, "a@x" },
	{ "\"\"", "a@x", 1, "a@x" },
	{ "  \"Bob O'Neil\"  ", " bob@x ", 1, "\"Bob O'Neil\" <bob@x>" },
	{ "Bob O'Neil", "b@x", 1, "\"Bob O'Neil\" <b@x>" },
	{ "Bob O'Neil", "b@x", 0, "b@x" },
	{ "David S. Miller", "d@x", 1, "\"David S. Miller\" <d@x>" },
	{ "Carol, Jr.", "c@x", 1, "\"Carol, Jr.\" <c@x>" },
	{ "\"Bob \\\"The\\\" Builder\"", "b@x", 1,
	  "\"Bob \\\"The\\\" Builder\" <b@x>" },
	{ "Plain Name-2", "p@x", 1, "Plain Name-2 <p@x>" },
	{ "Q\\", "q@x", 1, "\"Q\\\\\" <q@x>" },
	{ "\"Q\\\"", "q@x", 1, "\"Q\\\\\" <q@x>" },
	{ "Q\\", "q@x", 0, "q@x" },
};

START_TEST(test_email_format_table)
{
	const struct format_case *c = &format_cases[_i];
	struct gm_buf out = GM_BUF_INIT;

	gm_buf_puts(&out, ">");
	ck_assert_int_eq(gm_email_format(&out, c->name, c->addr, c->usename),
			 0);
	ck_assert_str_eq(out.ptr + 1, c->out);	/* appended */
	gm_buf_release(&out);
}
END_TEST

/* The name parsed, then bare: what --format=json names a person. */
START_TEST(test_email_unquote_table)
{
	static const struct {
		const char *in, *bare;
	} cases[] = {
		{ "Roger Pau Monn\xc3\xa9 <r@x>", "Roger Pau Monn\xc3\xa9" },
		{ "\"Already Quoted\" <aq@x>", "Already Quoted" },
		{ "David S. Miller <d@x>", "David S. Miller" },
		{ "\"Quote \\\"Inner\\\" Name\" <q@x>", "Quote \"Inner\" Name" },
		{ "Plain Name <p@x>", "Plain Name" },
		{ "bare@x", "" },
	};
	struct gm_buf name = GM_BUF_INIT, addr = GM_BUF_INIT;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		ck_assert_int_eq(gm_email_parse(&name, &addr, cases[i].in), 0);
		gm_email_unquote(&name);
		ck_assert_str_eq(name.ptr, cases[i].bare);
		ck_assert_uint_eq(name.len, strlen(cases[i].bare));
	}
	gm_buf_release(&name);
	gm_buf_release(&addr);
}
END_TEST

START_TEST(test_email_normalize_is_idempotent)
{
	static const char *const in[] = {
		"Bob O'Neil <bob@example.com>",
		"\"Carol, Jr.\" <carol@example.com>",
		"alice@example.com",
		"Bob \"The\" Builder <b@x>",
		"\"Q\\\" <q@example.org>",
		"a\\\\\"b <x@y>",
		"Back\\slash <bs@x>",
	};
	static const char *const want[] = {
		"\"Bob O'Neil\" <bob@example.com>",
		"\"Carol, Jr.\" <carol@example.com>",
		"alice@example.com",
		"\"Bob \\\"The\\\" Builder\" <b@x>",
		"\"Q\\\\\" <q@example.org>",
		"\"a\\\\\\\\\\\"b\" <x@y>",
		"\"Back\\slash\" <bs@x>",
	};
	struct gm_buf once = GM_BUF_INIT, twice = GM_BUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(in); i++) {
		gm_buf_puts(&once, "stale");
		ck_assert_int_eq(gm_email_normalize(&once, in[i], 1), 0);
		ck_assert_str_eq(once.ptr, want[i]);
		ck_assert_int_eq(gm_email_normalize(&twice, once.ptr, 1), 0);
		ck_assert_str_eq(twice.ptr, want[i]);
	}
	ck_assert_int_eq(gm_email_normalize(&once, in[0], 0), 0);
	ck_assert_str_eq(once.ptr, "bob@example.com");
	gm_buf_release(&once);
	gm_buf_release(&twice);
}
END_TEST

/* ==================== RFC 822 (R-63) ==================== */

struct valid_case {
	const char *in;
	bool valid;
};

static const struct valid_case valid_cases[] = {
	{ "Name <a@b.c>", true },
	{ "a@b.c", true },
	{ "<a@b>", true },
	{ "\"Quoted, Name\" <a@b>", true },
	{ "\"James E.J. Bottomley\" <x@y>", true },
	{ "James E.J. Bottomley <x@y>", false },
	{ "David S. Miller <d@x>", false },
	{ "Bob O'Neil <bob@example.com>", true },
	{ "Nuno S\xc3\xa1 <nuno@x.org>", true },
	{ "A <a@x>, B <b@y>", false },
	{ "Name (comment) <a@b>", true },
	{ "Name (a (nested) comment) <a@b>", true },
	{ "a@b (Some Name)", true },
	{ "  Name <a@b>  ", true },
	{ "first.last@sub.example.com", true },
	{ "group: a@b, c@d;", true },
	{ "no-at-sign", false },
	{ "Name <a@b", false },
	{ "Name <a@b>>", false },
	{ "", false },
	{ "Jim [x] <a@b>", false },
};

START_TEST(test_email_rfc822_valid_table)
{
	const struct valid_case *c = &valid_cases[_i];

	ck_assert_msg(gm_email_rfc822_valid(c->in) == c->valid,
		      "row %d '%s' should be %s", _i, c->in,
		      c->valid ? "valid" : "invalid");
}
END_TEST

START_TEST(test_email_rfc822_list_splits)
{
	struct gm_strvec sv = GM_STRVEC_INIT;

	ck_assert_int_eq(gm_email_rfc822_list(&sv, "A <a@x>, B <b@y>"), 1);
	ck_assert_uint_eq(sv.nr, 2);
	ck_assert_str_eq(sv.v[0], "A <a@x>");
	ck_assert_str_eq(sv.v[1], "B <b@y>");
	gm_strvec_release(&sv);

	ck_assert_int_eq(gm_email_rfc822_list(&sv, "a@x,b@y, \"C, D\" <c@z>"),
			 1);
	ck_assert_uint_eq(sv.nr, 3);
	ck_assert_str_eq(sv.v[0], "a@x");
	ck_assert_str_eq(sv.v[1], "b@y");
	ck_assert_str_eq(sv.v[2], "\"C, D\" <c@z>");
	gm_strvec_release(&sv);
}
END_TEST

START_TEST(test_email_rfc822_list_strips_comments)
{
	struct gm_strvec sv = GM_STRVEC_INIT;

	ck_assert_int_eq(gm_email_rfc822_list(&sv, "a@x (first), b@y (second)"),
			 1);
	ck_assert_uint_eq(sv.nr, 2);
	/* each comment becomes one space, kept as trailing white space */
	ck_assert_str_eq(sv.v[0], "a@x  ");
	ck_assert_str_eq(sv.v[1], "b@y  ");
	gm_strvec_release(&sv);
}
END_TEST

START_TEST(test_email_rfc822_list_rejects)
{
	struct gm_strvec sv = GM_STRVEC_INIT;

	ck_assert_int_eq(gm_email_rfc822_list(&sv,
					      "James E.J. Bottomley <x@y>"), 0);
	ck_assert_int_eq(gm_email_rfc822_list(&sv, "A <a@x>; B <b@y>"), 0);
	ck_assert_int_eq(gm_email_rfc822_list(&sv, "not an address"), 0);
	ck_assert_uint_eq(sv.nr, 0);
	gm_strvec_release(&sv);
}
END_TEST

START_TEST(test_email_isspace_is_perl_s)
{
	ck_assert(gm_email_isspace(' '));
	ck_assert(gm_email_isspace('\t'));
	ck_assert(gm_email_isspace('\n'));
	ck_assert(gm_email_isspace('\r'));
	ck_assert(gm_email_isspace('\f'));
	ck_assert(gm_email_isspace('\v'));
	ck_assert(!gm_email_isspace('a'));
	ck_assert(!gm_email_isspace('\0'));
	ck_assert(!gm_email_isspace(0xa0));
}
END_TEST

/* ============ what may be printed: one RFC 5322 mailbox ============ */

static const struct valid_case address_cases[] = {
	{ "a@b", true },
	{ "first.last@sub.example.com", true },
	{ "a+tag@x.org", true },
	{ "a/b=c?d^e{f}|~!#$%&'*@x", true },		/* all of atext */
	{ "j\xc3\xbcrgen@example.de", true },		/* RFC 6532 */
	{ "a..b@example.org", false },
	{ ".a@b", false },
	{ "a.@b", false },
	{ "a@b.", false },
	{ "a@.b", false },
	{ "@b", false },
	{ "a@", false },
	{ "a@b@c", false },
	{ "no-at-sign", false },
	{ "\"in\"@example.org", false },		/* quoted local part */
	{ "a@[192.0.2.1]", false },			/* domain literal */
	{ "a b@c", false },
	{ "a\tb@c", false },
	{ "a@b\r", false },
	{ "a<b@c", false },
	{ "a@b>", false },
	{ "a@b,c@d", false },
	{ "a;b@c", false },
	{ "a\\b@c", false },
	{ "", false },
};

START_TEST(test_email_address_valid_table)
{
	const struct valid_case *c = &address_cases[_i];

	ck_assert_msg(gm_email_address_valid(c->in) == c->valid,
		      "row %d '%s' should be %s", _i, c->in,
		      c->valid ? "valid" : "invalid");
}
END_TEST

static const struct valid_case mailbox_cases[] = {
	{ "Alice <a@x>", true },
	{ "a@x", true },
	{ "\"Bob O'Neil\" <b@x>", true },
	{ "\"David S. Miller\" <d@x>", true },
	{ "\"Carol, Jr.\" <c@x>", true },
	{ "\"Semi; Colon\" <s@x>", true },
	{ "\"Bob \\\"The\\\" Builder\" <b@x>", true },
	{ "\"Q\\\\\" <q@example.org>", true },
	{ "\"Back\\slash\" <bs@x>", true },
	{ "\"A>B\" <g@x>", true },
	{ "\"Nuno S\xc3\xa1\" <n@x>", true },
	{ "\"Jos\xe9\" <j@x>", true },		/* Latin-1 passes (Q-17) */
	{ "Jean-Luc Under_Score 3 <j@x>", true },
	{ "\"Q\\\" <q@example.org>", false },		/* the issue's line */
	{ "\"\\\" <lone@x>", false },
	{ "\"a\\\\\"b\" <x@y>", false },
	{ "David S. Miller <d@x>", false },		/* '.' unquoted */
	{ "Comma, Name <c@x>", false },
	{ "A <a@x> <b@y>", false },
	{ "A <B <l@x>", false },
	{ "A <a@x>, B <b@y>", false },
	{ "Dots <a..b@x>", false },
	{ "Quote <\"in\"@x>", false },
	{ "Name <>", false },
	{ "<a@x>", true },
	{ "Alice  <a@x>", true },
	{ "  <a@x>", true },
	{ "\"A<B\" <l@x>", false },	/* '<' in the name */
	{ "Alice <a@x> ", false },
	{ "Alice <a@x> (role)", false },
	{ "\"Open <a@x>", false },
	{ " a@x", false },
	{ "Name", false },
	{ "\"Ev\x1b[31mil\" <c@x>", false },
	{ "\"Tab\there\" <t@x>", false },
	{ "Foo <a@b.c\rBcc: x@y>", false },
	{ "Foo <a@b.c>\n", false },
	{ "", false },
};

START_TEST(test_email_mailbox_valid_table)
{
	const struct valid_case *c = &mailbox_cases[_i];

	ck_assert_msg(gm_email_mailbox_valid(c->in) == c->valid,
		      "row %d '%s' should be %s", _i, c->in,
		      c->valid ? "valid" : "invalid");
}
END_TEST

/*
 * Whatever the name, gm_email_format() writes a valid mailbox, unless the
 * name has a control character or a '<' (R-60 cannot read it back); the
 * last check drops those. No placement of '\\' and '"' leaves a quoted
 * string open. Read back (R-65), it stays valid and reads back as itself.
 */
START_TEST(test_email_format_is_a_mailbox_for_any_name)
{
	static const char alphabet[] = "\\\\\"\" a.<>,;:()\x01\x80";
	struct gm_buf out = GM_BUF_INIT, again = GM_BUF_INIT;
	char name[12];

	srand(5322);
	for (int n = 0; n < 40000; n++) {
		size_t len = (size_t)rand() % sizeof(name);
		bool bad = false;

		for (size_t i = 0; i < len; i++) {
			name[i] = alphabet[rand() % (sizeof(alphabet) - 1)];
			bad |= name[i] == 1 || name[i] == '<';
		}
		name[len] = '\0';
		gm_buf_reset(&out);
		ck_assert_int_eq(gm_email_format(&out, name, "a@x", 1), 0);
		ck_assert_msg(gm_email_mailbox_valid(out.ptr) != bad,
			      "name '%s' gives '%s'", name, out.ptr);
		if (bad)
			continue;
		ck_assert_int_eq(gm_email_normalize(&again, out.ptr, 1), 0);
		ck_assert_msg(gm_email_mailbox_valid(again.ptr),
			      "'%s' read as '%s'",
			      out.ptr, again.ptr);
		ck_assert_int_eq(gm_email_normalize(&out, again.ptr, 1), 0);
		ck_assert_msg(!strcmp(again.ptr, out.ptr), "'%s' read as '%s'",
			      again.ptr, out.ptr);
	}
	gm_buf_release(&out);
	gm_buf_release(&again);
}
END_TEST

/* ============ addresses in files (R-47, 6.1 rules) ============ */

/* The .yaml text of E22. */
static const char yaml_e22[] =
	"maintainers:\n"
	"  - Jane Doe <jane@doe.org>\n"
	"  - devicetree@vger.kernel.org\n"
	"  - \"Zo\xc3\xab \xc3\x85ngstr\xc3\xb6m\" <zoe@example.org>\n";

START_TEST(test_email_scan_text_e22)
{
	struct gm_strvec sv = GM_STRVEC_INIT;

	ck_assert_int_eq(gm_email_scan_text(&sv, yaml_e22, strlen(yaml_e22), 1, false),
			 0);
	ck_assert_uint_eq(sv.nr, 3);
	ck_assert_str_eq(sv.v[0], "Jane Doe <jane@doe.org>");
	/* 6.1 keeps the list dash as the name */
	ck_assert_str_eq(sv.v[1], "- <devicetree@vger.kernel.org>");
	ck_assert_str_eq(sv.v[2],
		"\"Zo\xc3\xab \xc3\x85ngstr\xc3\xb6m\" "
		"<zoe@example.org>");
	gm_strvec_release(&sv);
}
END_TEST

START_TEST(test_email_scan_text_without_names)
{
	struct gm_strvec sv = GM_STRVEC_INIT;

	ck_assert_int_eq(gm_email_scan_text(&sv, yaml_e22, strlen(yaml_e22), 0, false),
			 0);
	ck_assert_uint_eq(sv.nr, 3);
	ck_assert_str_eq(sv.v[0], "jane@doe.org");
	ck_assert_str_eq(sv.v[1], "devicetree@vger.kernel.org");
	ck_assert_str_eq(sv.v[2], "zoe@example.org");
	gm_strvec_release(&sv);
}
END_TEST

START_TEST(test_email_scan_text_name_rules)
{
	static const char text[] =
		"/* Copyright (C) 2020 John Q. Public <jq@pub.org> */\n"
		"Signed-off-by: Some Long Name Person <slnp@x.org>\n"
		"no address on this line\n"
		"mail: plain@example.net\n";
	struct gm_strvec sv = GM_STRVEC_INIT;

	ck_assert_int_eq(gm_email_scan_text(&sv, text, strlen(text), 1, false), 0);
	ck_assert_uint_eq(sv.nr, 3);
	/* more than 2 words: the last three when the middle is an initial */
	ck_assert_str_eq(sv.v[0], "\"John Q. Public\" <jq@pub.org>");
	/* otherwise the last two */
	ck_assert_str_eq(sv.v[1], "Name Person <slnp@x.org>");
	ck_assert_str_eq(sv.v[2], "plain@example.net");
	gm_strvec_release(&sv);
}
END_TEST

/*
 * Linux 6.7's rules (--unicode-file-emails); the answers are the script's
 * own (a later Linux get_maintainer.pl --fe on this text).
 */
START_TEST(test_email_scan_text_utf8)
{
	static const char text[] =
		"Copyright (C) 2020 Zo\xc3\xab \xc3\x85ngstr\xc3\xb6m <zoe@example.org>\n"
		"Author: Remigiusz Ko\xc5\x82\xc5\x82\xc4\x85taj <remi@example.com>\n"
		"- devicetree@vger.kernel.org\n"
		" * \"Doe, Jane\" <jane@doe.org>\n"
		"By: J. R. \xc5\x81ukasz <jrl@x.org>\n"
		"Signed-off-by: Some Long Name Person <slnp@x.org>\n"
		"x, . Name <dots@x.org>\n"
		"MODULE_AUTHOR(\"J\xc3\xa9r\xc3\xb4me Pouiller <jerome@silabs.com>\");\n"
		"\xc2\xab\xc3\x9cn\xc3\xaf" "code N\xc3\xa2me\xc2\xbb <u@x.org>\n";
	static const char *const want[] = {
		"\"Zo\xc3\xab \xc3\x85ngstr\xc3\xb6m\" <zoe@example.org>",
		"\"Remigiusz Ko\xc5\x82\xc5\x82\xc4\x85taj\" <remi@example.com>",
		"devicetree@vger.kernel.org",
		"\"Doe, Jane\" <jane@doe.org>",
		"\"J. R. \xc5\x81ukasz\" <jrl@x.org>",
		"Name Person <slnp@x.org>",
		"\"x, Name\" <dots@x.org>",
		"\"J\xc3\xa9r\xc3\xb4me Pouiller\" <jerome@silabs.com>",
		"u@x.org",
	};
	struct gm_strvec sv = GM_STRVEC_INIT;

	ck_assert_int_eq(gm_email_scan_text(&sv, text, strlen(text), 1, true), 0);
	ck_assert_uint_eq(sv.nr, ARRAY_SIZE(want));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		ck_assert_str_eq(sv.v[i], want[i]);
	gm_strvec_release(&sv);
	/* 6.1 cuts the Polish name mid-letter (0xC4, 0xC5 are no letters) */
	ck_assert_int_eq(gm_email_scan_text(&sv, text, strlen(text), 1, false), 0);
	ck_assert_str_eq(sv.v[1], "\"\x85" "taj\" <remi@example.com>");
	gm_strvec_release(&sv);
	/* invalid UTF-8 matches nothing around it, and fails nothing */
	ck_assert_int_eq(gm_email_scan_text(&sv, "\xff\xfe <a@b.org>\n",
						 11, 1, true), 0);
	ck_assert_uint_eq(sv.nr, 1);
	ck_assert_str_eq(sv.v[0], "a@b.org");
	gm_strvec_release(&sv);
}
END_TEST

START_TEST(test_email_scan_text_nothing)
{
	static const char text[] = "int main(void) { return a@b; }\n";
	struct gm_strvec sv = GM_STRVEC_INIT;

	ck_assert_int_eq(gm_email_scan_text(&sv, text, strlen(text), 1, false), 0);
	ck_assert_uint_eq(sv.nr, 0);
	ck_assert_int_eq(gm_email_scan_text(&sv, "", 0, 1, false), 0);
	ck_assert_uint_eq(sv.nr, 0);
	gm_strvec_release(&sv);
}
END_TEST

Suite *email_suite(void)
{
	Suite *s = suite_create("email");
	TCase *parse = tcase_create("parse");
	TCase *rfc = tcase_create("rfc822");
	TCase *scan = tcase_create("scan");

	tcase_add_loop_test(parse, test_email_parse_table, 0,
			    (int)ARRAY_SIZE(parse_cases));
	tcase_add_loop_test(parse, test_email_format_table, 0,
			    (int)ARRAY_SIZE(format_cases));
	tcase_add_test(parse, test_email_normalize_is_idempotent);
	tcase_add_test(parse, test_email_unquote_table);
	tcase_add_test(parse, test_email_isspace_is_perl_s);
	suite_add_tcase(s, parse);

	tcase_add_loop_test(rfc, test_email_rfc822_valid_table, 0,
			    (int)ARRAY_SIZE(valid_cases));
	tcase_add_test(rfc, test_email_rfc822_list_splits);
	tcase_add_test(rfc, test_email_rfc822_list_strips_comments);
	tcase_add_test(rfc, test_email_rfc822_list_rejects);
	tcase_add_loop_test(rfc, test_email_address_valid_table, 0,
			    (int)ARRAY_SIZE(address_cases));
	tcase_add_loop_test(rfc, test_email_mailbox_valid_table, 0,
			    (int)ARRAY_SIZE(mailbox_cases));
	tcase_add_test(rfc, test_email_format_is_a_mailbox_for_any_name);
	suite_add_tcase(s, rfc);

	tcase_add_test(scan, test_email_scan_text_e22);
	tcase_add_test(scan, test_email_scan_text_utf8);
	tcase_add_test(scan, test_email_scan_text_without_names);
	tcase_add_test(scan, test_email_scan_text_name_rules);
	tcase_add_test(scan, test_email_scan_text_nothing);
	suite_add_tcase(s, scan);
	return s;
}
