#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "gm/buf.h"
#include "gm/rank.h"
#include "gm/trailer.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/* ======== the history one-liner: grep -i '^    [-a-z]*by:.*@' ======== */

struct parse_case {
	const char *line;
	const char *key;	/* NULL: not counted */
	const char *value;
};

static const struct parse_case parse_cases[] = {
	{ "Signed-off-by: Ann <a@x.org>", "Signed-off-by", "Ann <a@x.org>" },
	{ "Signed-off-by:Nick <n@x.org>", "Signed-off-by", "Nick <n@x.org>" },
	{ "SIGNED-OFF-BY: a@b", "SIGNED-OFF-BY", "a@b" },	/* grep -i */
	{ "Reported-and-tested-by: r@x", "Reported-and-tested-by", "r@x" },
	{ "by: Bea <b@x>", "by", "Bea <b@x>" },	/* "by:" at the start */
	{ "-by: d@x", "-by", "d@x" },
	{ "Acked-by:\t a@b \t", "Acked-by", "a@b" },	/* tabs trimmed */
	{ "Acked-by: a@b\r", "Acked-by", "a@b" },	/* CRLF message */
	{ "Acked-by: @", "Acked-by", "@" },
	{ "Acked-by: x <y> z@", "Acked-by", "x <y> z@" },
	{ "    Signed-off-by: i@x", NULL, NULL },	/* indented */
	{ "\tSigned-off-by: i@x", NULL, NULL },
	{ "Acked_by: u@x", NULL, NULL },
	{ "Acked-by : a@b", NULL, NULL },
	{ "Cc: c@x", NULL, NULL },
	{ "Suggested-by: Sue Noaddress", NULL, NULL },	/* no '@' */
	{ "a@by: x", NULL, NULL },			/* '@' only before */
	{ "Link: https://x.org/by:ann@x.org", NULL, NULL },
	{ "y: a@b", NULL, NULL },
	{ "by:", NULL, NULL },
	{ "", NULL, NULL },
};

START_TEST(test_trailer_parse_table)
{
	const struct parse_case *c = &parse_cases[_i];
	struct gm_trailer t = { "stale", 5, "stale", 5 };
	bool got = gm_trailer_parse(&t, c->line, strlen(c->line));

	ck_assert_msg(got == (c->key != NULL), "row %d '%s': %s", _i, c->line,
		      got ? "counted" : "not counted");
	if (!c->key)
		return;
	ck_assert_ptr_eq(t.key, c->line);
	ck_assert_msg(t.key_len == strlen(c->key) &&
		      !memcmp(t.key, c->key, t.key_len) &&
		      t.value_len == strlen(c->value) &&
		      !memcmp(t.value, c->value, t.value_len),
		      "row %d '%s': key '%.*s' value '%.*s'", _i, c->line,
		      (int)t.key_len, t.key, (int)t.value_len, t.value);
}
END_TEST

START_TEST(test_trailer_parse_stops_at_len)
{
	static const char text[] = "Acked-by: nobody\nCc: a@b";
	struct gm_trailer t;

	/* the '@' of the next line is not this line's */
	ck_assert(!gm_trailer_parse(&t, text, strcspn(text, "\n")));
	ck_assert(!gm_trailer_parse(&t, "Acked-by: a@b", 10));
	ck_assert(gm_trailer_parse(&t, "Acked-by: a@b", 13));
}
END_TEST

struct key_case {
	const char *in;
	const char *out;
};

static const struct key_case key_cases[] = {
	{ "signed-OFF-by", "Signed-off-by" },
	{ "SIGNED-OFF-BY", "Signed-off-by" },
	{ "Reviewed-by", "Reviewed-by" },
	{ "by", "By" },
	{ "-by", "-by" },
	{ "BY", "By" },
};

START_TEST(test_trailer_canonical_key_table)
{
	const struct key_case *c = &key_cases[_i];
	struct gm_buf out = GM_BUF_INIT;

	gm_buf_puts(&out, "stale");
	ck_assert_int_eq(gm_trailer_canonical_key(&out, c->in, strlen(c->in)),
			 0);
	ck_assert_str_eq(out.ptr, c->out);
	/* the length is used, not the NUL */
	ck_assert_int_eq(gm_trailer_canonical_key(&out, "ACKED-BY: x", 8), 0);
	ck_assert_str_eq(out.ptr, "Acked-by");
	gm_buf_release(&out);
}
END_TEST

/* ================ R-72: the lines of git log output ================ */

struct lines_case {
	const char *text;
	const char *lines;	/* joined by '|' */
};

static const struct lines_case lines_cases[] = {
	{ "a\nb\n", "a|b" },
	{ "  a\n\n\t b\r\n   \n c", "a|b\r|c" },	/* no final newline */
	{ "\n\n\nx", "x" },
	{ "trailing  \t\n", "trailing  \t" },
	{ "\r\n\r\nx\r\n", "x\r" },	/* a CR alone is white space */
	{ "\v\fx", "x" },			/* Perl's \s */
	{ "", "" },
	{ " \n\t\n", "" },
};

START_TEST(test_trailer_next_line_table)
{
	const struct lines_case *c = &lines_cases[_i];
	const char *pos = c->text, *end = c->text + strlen(c->text), *line;
	struct gm_buf got = GM_BUF_INIT;
	size_t len;

	while (gm_trailer_next_line(&pos, end, &line, &len)) {
		ck_assert_uint_gt(len, 0);
		ck_assert_ptr_null(memchr(line, '\n', len));
		gm_buf_printf(&got, "%s%.*s", got.len ? "|" : "", (int)len,
			      line);
	}
	ck_assert_ptr_eq(pos, end);
	ck_assert_msg(!strcmp(got.ptr, c->lines), "row %d: got '%s'", _i,
		      got.ptr);
	gm_buf_release(&got);
}
END_TEST

/* ==================== R-73: signature lines ==================== */

struct sig_case {
	const char *line;
	bool tags;	/* Signed-off-by/Reviewed-by/Acked-by */
	bool all;	/* --git-all-signature-types */
};

static const struct sig_case sig_cases[] = {
	{ "Signed-off-by: A <a@b>", true, true },
	{ "Reviewed-by: a@b", true, true },
	{ "Acked-by: a@b", true, true },
	{ " \tAcked-by: a@b", true, true },		/* ^[ \t]* */
	{ "Signed-off-by:a@b", true, true },
	{ "Signed-off-by: A <a@b>\r", true, true },	/* CRLF */
	{ "Acked-by: A <a@b> # v2: x", true, true },
	{ "signed-off-by: a@b", false, true },	/* case-sensitive */
	{ "SIGNED-OFF-BY: a@b", false, true },
	{ "Tested-by: a@b", false, true },
	{ "Co-developed-by: a@b", false, true },
	{ "Reported-BY: a@b", false, true },
	{ "Link: https://x.org/stand-by:me@x.org", false, true },
	{ "XSigned-off-by: a@b", false, true },
	{ " by: a@b", false, true },	/* (.+?) takes the blank */
	{ "by: a@b", false, false },	/* "by:" at the start */
	{ "By: a@b", false, false },
	{ "\fAcked-by: a@b", false, true },	/* \f is no [ \t] */
	{ "Acked-by: nobody", false, false },	/* no '@' */
	{ "Acked-by:", false, false },
	{ "a@b Acked-by: x", false, false },	/* '@' only before */
	{ "Signed-off-by a@b", false, false },
	{ "Acked-by@: a@b", false, false },
	{ "", false, false },
};

START_TEST(test_trailer_is_signature_table)
{
	const struct sig_case *c = &sig_cases[_i];
	size_t len = strlen(c->line);

	ck_assert_msg(gm_trailer_is_signature(c->line, len, false) == c->tags,
		      "row %d '%s' with the three tags", _i, c->line);
	ck_assert_msg(gm_trailer_is_signature(c->line, len, true) == c->all,
		      "row %d '%s' with all types", _i, c->line);
}
END_TEST

START_TEST(test_trailer_is_signature_stops_at_len)
{
	static const char line[] = "Acked-by: x@y";

	ck_assert(gm_trailer_is_signature(line, sizeof(line) - 1, false));
	ck_assert(!gm_trailer_is_signature(line, 11, false));	/* "x" */
	ck_assert(!gm_trailer_is_signature(line, 11, true));
	ck_assert(!gm_trailer_is_signature(line, 5, false));
}
END_TEST

struct value_case {
	const char *line;
	const char *value;
};

static const struct value_case value_cases[] = {
	{ "Signed-off-by: A <a@b>", "A <a@b>" },
	{ "Signed-off-by:A <a@b>", "A <a@b>" },
	{ "Signed-off-by: A <a@b> # v5: x", "x" },		/* Q-21 */
	{ "Acked-by: \"Q: the name\" <q@x>", "the name\" <q@x>" },
	{ "Acked-by:\t\ta@b", "a@b" },
	{ "Acked-by: a@b \r", "a@b \r" },		/* the end is kept */
	{ "Acked-by: a@b:", "a@b:" },	/* nothing after the last ':' */
	{ "Acked-by: a@b:   ", " " },	/* only blanks: the last of them */
	{ "Acked-by:", "Acked-by:" },	/* no ':' with something after */
	{ "no colon", "no colon" },
	{ "::", ":" },
	{ "", "" },
};

START_TEST(test_trailer_signature_value_table)
{
	const struct value_case *c = &value_cases[_i];
	const char *v = NULL;
	size_t len = 99;

	gm_trailer_signature_value(c->line, strlen(c->line), &v, &len);
	ck_assert_ptr_nonnull(v);
	ck_assert(v >= c->line && v + len == c->line + strlen(c->line));
	ck_assert_msg(len == strlen(c->value) && !memcmp(v, c->value, len),
		      "row %d '%s': got '%.*s'", _i, c->line, (int)len, v);
}
END_TEST

/*
 * The same rules against PCRE2 running the script's own regexes, on lines
 * made of the pieces that matter to them.
 */
struct re_oracle {
	pcre2_code *tags, *all, *cut, *chief, *strip;
	pcre2_match_data *md;
};

static pcre2_code *re_compile(const char *src)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)src, PCRE2_ZERO_TERMINATED,
				       0, &err, &off, NULL);

	ck_assert_ptr_nonnull(re);
	return re;
}

static void re_init(struct re_oracle *o)
{
	o->tags = re_compile(
		"^[ \\t]*(Signed-off-by:|Reviewed-by:|Acked-by:).*\\@.*$");
	o->all = re_compile("^[ \\t]*(.+?)[Bb][Yy]:.*\\@.*$");
	o->cut = re_compile("\\s*.*:\\s*(.+)\\s*");
	o->chief = re_compile("(?i)(Linus Torvalds)");
	o->strip = re_compile("(?m)^\\s*");
	o->md = pcre2_match_data_create(4, NULL);
}

static void re_release(struct re_oracle *o)
{
	pcre2_code_free(o->tags);
	pcre2_code_free(o->all);
	pcre2_code_free(o->cut);
	pcre2_code_free(o->chief);
	pcre2_code_free(o->strip);
	pcre2_match_data_free(o->md);
}

static bool re_match(struct re_oracle *o, pcre2_code *re, const char *s,
		     size_t len)
{
	return pcre2_match(re, (PCRE2_SPTR)s, len, 0, 0, o->md, NULL) > 0;
}

/* s/\s*.*:\s*(.+)\s*\/$1/ on one line, into `out`. */
static void re_cut(struct re_oracle *o, const char *s, size_t len,
		   struct gm_buf *out)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(o->md);

	gm_buf_reset(out);
	if (!re_match(o, o->cut, s, len)) {
		gm_buf_put(out, s, len);
		return;
	}
	gm_buf_put(out, s, ov[0]);
	gm_buf_put(out, s + ov[2], ov[3] - ov[2]);
	gm_buf_put(out, s + ov[1], len - ov[1]);
}

static const char *const pieces[] = {
	"Signed-off-by:", "Acked-by:", "Reviewed-by:", "Tested-By:", "by:",
	"bY:", ":", "@", " ", "\t", "\r", "\v", "a", "<", ">",
	"Linus Torvalds", "LINUS torvalds", "Linus  Torvalds",
};

static size_t random_line(char *s, size_t max)
{
	size_t len = 0;
	int n = rand() % 9;

	while (n-- > 0) {
		const char *p = pieces[rand() % (int)ARRAY_SIZE(pieces)];
		size_t plen = strlen(p);

		if (len + plen >= max)
			break;
		memcpy(s + len, p, plen);
		len += plen;
	}
	s[len] = '\0';
	return len;
}

START_TEST(test_trailer_signatures_as_the_regexes)
{
	struct gm_buf want = GM_BUF_INIT;
	struct re_oracle o;
	char s[128];

	re_init(&o);
	srand(73);
	for (int n = 0; n < 20000; n++) {
		size_t len = random_line(s, sizeof(s));
		const char *v;
		size_t vlen;

		ck_assert_msg(gm_trailer_is_signature(s, len, false) ==
			      re_match(&o, o.tags, s, len), "tags: '%s'", s);
		ck_assert_msg(gm_trailer_is_signature(s, len, true) ==
			      re_match(&o, o.all, s, len), "all: '%s'", s);
		ck_assert_msg(gm_rank_is_penguin_line(NULL, s, len) ==
			      re_match(&o, o.chief, s, len), "chief: '%s'", s);
		gm_trailer_signature_value(s, len, &v, &vlen);
		re_cut(&o, s, len, &want);
		ck_assert_msg(vlen == want.len && !memcmp(v, want.ptr, vlen),
			      "cut '%s': '%.*s', the regex '%s'", s, (int)vlen,
			      v, want.ptr);
	}
	re_release(&o);
	gm_buf_release(&want);
}
END_TEST

/* s/^\s*\/\/gm, then Perl's split("\n") (no trailing empty fields). */
static void re_lines(struct re_oracle *o, const char *s, size_t len,
		     struct gm_buf *out)
{
	char sub[512];
	PCRE2_SIZE n = sizeof(sub);
	size_t i = 0, start;

	ck_assert_int_ge(pcre2_substitute(o->strip, (PCRE2_SPTR)s, len, 0,
					  PCRE2_SUBSTITUTE_GLOBAL, NULL, NULL,
					  (PCRE2_SPTR) "", 0,
					  (PCRE2_UCHAR *)sub, &n), 0);
	while (n && sub[n - 1] == '\n')
		n--;
	gm_buf_reset(out);
	for (start = 0; i <= n; i++) {
		if (i < n && sub[i] != '\n')
			continue;
		gm_buf_printf(out, "%s%.*s", start ? "|" : "",
			      (int)(i - start), sub + start);
		start = i + 1;
	}
}

START_TEST(test_trailer_next_line_as_the_regex)
{
	static const char alphabet[] = "\n\n  \t\r\vab";
	struct gm_buf want = GM_BUF_INIT, got = GM_BUF_INIT;
	struct re_oracle o;
	char s[24];

	re_init(&o);
	srand(72);
	for (int n = 0; n < 20000; n++) {
		size_t len = (size_t)rand() % sizeof(s);
		const char *pos = s, *line;
		size_t llen;
		bool first = true;

		for (size_t i = 0; i < len; i++)
			s[i] = alphabet[rand() % (sizeof(alphabet) - 1)];
		re_lines(&o, s, len, &want);
		gm_buf_reset(&got);
		while (gm_trailer_next_line(&pos, s + len, &line, &llen)) {
			gm_buf_printf(&got, "%s%.*s", first ? "" : "|",
				      (int)llen, line);
			first = false;
		}
		ck_assert_msg(!strcmp(got.ptr, want.ptr),
			      "'%.*s': '%s', the regex '%s'", (int)len, s,
			      got.ptr, want.ptr);
	}
	re_release(&o);
	gm_buf_release(&want);
	gm_buf_release(&got);
}
END_TEST

Suite *trailer_suite(void)
{
	Suite *s = suite_create("trailer");
	TCase *oneliner = tcase_create("oneliner");
	TCase *sig = tcase_create("signatures");

	tcase_add_loop_test(oneliner, test_trailer_parse_table, 0,
			    (int)ARRAY_SIZE(parse_cases));
	tcase_add_test(oneliner, test_trailer_parse_stops_at_len);
	tcase_add_loop_test(oneliner, test_trailer_canonical_key_table, 0,
			    (int)ARRAY_SIZE(key_cases));
	suite_add_tcase(s, oneliner);

	tcase_add_loop_test(sig, test_trailer_next_line_table, 0,
			    (int)ARRAY_SIZE(lines_cases));
	tcase_add_loop_test(sig, test_trailer_is_signature_table, 0,
			    (int)ARRAY_SIZE(sig_cases));
	tcase_add_test(sig, test_trailer_is_signature_stops_at_len);
	tcase_add_loop_test(sig, test_trailer_signature_value_table, 0,
			    (int)ARRAY_SIZE(value_cases));
	tcase_add_test(sig, test_trailer_signatures_as_the_regexes);
	tcase_add_test(sig, test_trailer_next_line_as_the_regex);
	suite_add_tcase(s, sig);
	return s;
}
