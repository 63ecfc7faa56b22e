#include "gm/email.h"

#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "gm/error.h"
#include "gm/pattern.h"

bool gm_email_isspace(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static void trim_space(const char **s, size_t *len)
{
	while (*len && gm_email_isspace((unsigned char)**s))
		(*s)++, (*len)--;
	while (*len && gm_email_isspace((unsigned char)(*s)[*len - 1]))
		(*len)--;
}

/* Trim whitespace, then one leading and one trailing double quote. */
static void trim_name(const char **s, size_t *len)
{
	trim_space(s, len);
	if (*len && **s == '"')
		(*s)++, (*len)--;
	if (*len && (*s)[*len - 1] == '"')
		(*len)--;
}

static bool name_needs_quotes(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == ' ' ||
		      c == '-'))
			return true;
	}
	return false;
}

/* A byte of RFC 5322 qtext, or of RFC 6532's 8-bit text (passed through). */
static bool is_qtext(unsigned char c)
{
	return (c >= 0x21 && c <= 0x7e && c != '"' && c != '\\') || c >= 0x80;
}

/* Whether s[0..len) is one RFC 5322 quoted-string, no folding, no CFWS. */
static bool qstring_valid(const char *s, size_t len)
{
	size_t i = 1;

	if (len < 2 || s[0] != '"')
		return false;
	while (i < len - 1) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\') {
			unsigned char n = (unsigned char)s[i + 1];

			/* quoted-pair: VCHAR or WSP; never the closing quote */
			if (i + 1 >= len - 1 || !(is_qtext(n) || n == '"' ||
						  n == '\\' || n == ' ' ||
						  n == '\t'))
				return false;
			i += 2;
		} else if (is_qtext(c) || c == ' ' || c == '\t') {
			i++;
		} else {
			return false;
		}
	}
	return i == len - 1 && s[i] == '"';
}

static bool has_control(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < ' ' || s[i] == 0x7f)
			return true;
	return false;
}

/*
 * Append the name quoted as R-61 does: '"' not after '\\' escaped, all in
 * quotes. Where that is no valid quoted string (a '\\' before the closing
 * quote or before a '"' it did not escape), every '\\' and '"' is escaped
 * instead, so the output is one. Names with control characters are left
 * as R-61 quotes them: no quoting makes them valid, and the last check
 * (gm_email_mailbox_valid()) drops them.
 */
static int put_name(struct gm_buf *out, const char *s, size_t len)
{
	size_t start = out->len;
	int error = 0;

	if (!name_needs_quotes(s, len))
		return gm_buf_put(out, s, len);
	for (int all = 0; all < 2; all++) {
		out->len = start;
		error = gm_buf_putc(out, '"');
		for (size_t i = 0; !error && i < len; i++) {
			if (s[i] == '"' ? all || i == 0 || s[i - 1] != '\\' :
					  all && s[i] == '\\')
				error = gm_buf_putc(out, '\\');
			if (!error)
				error = gm_buf_putc(out, s[i]);
		}
		if (!error)
			error = gm_buf_putc(out, '"');
		if (error || has_control(s, len) ||
		    qstring_valid(out->ptr + start, out->len - start))
			break;
	}
	return error;
}

/* Form 1 of R-60: "name <...@...>" with the address ending at the last '>'. */
static bool parse_angle_named(const char *s, const char **n, size_t *nlen,
			      const char **a, size_t *alen)
{
	const char *lt = strchr(s, '<');
	const char *gt = strrchr(s, '>');
	const char *at;

	if (!lt || lt == s || !gt || gt <= lt + 2)
		return false;
	for (at = lt + 2; at < gt && *at != '@'; at++)
		;
	if (at >= gt)
		return false;
	*n = s;
	*nlen = (size_t)(lt - s);
	*a = lt + 1;
	*alen = (size_t)(gt - lt - 1);
	return true;
}

/* Form 2 of R-60: "<addr@non-space>" after optional whitespace. */
static bool parse_angle_bare(const char *s, const char **a, size_t *alen)
{
	const char *lt = s, *at;

	while (gm_email_isspace((unsigned char)*lt))
		lt++;
	if (*lt != '<')
		return false;
	for (at = lt + strlen(lt) - 1; at >= lt + 2; at--) {
		const char *end = at + 1, *gt = NULL;

		if (*at != '@')
			continue;
		for (; *end && !gm_email_isspace((unsigned char)*end); end++)
			if (*end == '>')
				gt = end;
		if (gt) {
			*a = lt + 1;
			*alen = (size_t)(gt - lt - 1);
			return true;
		}
	}
	return false;
}

/* Form 3 of R-60: everything up to the last '@' and the non-space after. */
static bool parse_bare(const char *s, const char **a, size_t *alen)
{
	const char *at = strrchr(s, '@');
	const char *end;

	if (!at || at == s)
		return false;
	for (end = at + 1; *end && !gm_email_isspace((unsigned char)*end); end++)
		;
	*a = s;
	*alen = (size_t)(end - s);
	return true;
}

int gm_email_parse(struct gm_buf *name, struct gm_buf *addr, const char *s)
{
	const char *n = "", *a = "";
	size_t nlen = 0, alen = 0;

	gm_buf_reset(name);
	gm_buf_reset(addr);
	if (!parse_angle_named(s, &n, &nlen, &a, &alen) &&
	    !parse_angle_bare(s, &a, &alen))
		parse_bare(s, &a, &alen);
	trim_name(&n, &nlen);
	trim_space(&a, &alen);
	if (put_name(name, n, nlen) < 0 || gm_buf_put(addr, a, alen) < 0)
		return GM_ERROR;
	return 0;
}

void gm_email_unquote(struct gm_buf *name)
{
	size_t n = 0;

	if (name->len < 2 || name->ptr[0] != '"' ||
	    name->ptr[name->len - 1] != '"')
		return;
	for (size_t i = 1; i + 1 < name->len; i++) {
		if (name->ptr[i] == '\\' && i + 2 < name->len)
			i++;
		name->ptr[n++] = name->ptr[i];
	}
	name->len = n;
	name->ptr[n] = '\0';
}

int gm_email_format(struct gm_buf *out, const char *name, const char *addr,
		    int usename)
{
	size_t nlen = strlen(name), alen = strlen(addr);
	int error;

	trim_name(&name, &nlen);
	trim_space(&addr, &alen);
	if (!usename || !nlen)
		return gm_buf_put(out, addr, alen);
	if ((error = put_name(out, name, nlen)) < 0 ||
	    (error = gm_buf_puts(out, " <")) < 0 ||
	    (error = gm_buf_put(out, addr, alen)) < 0)
		return error;
	return gm_buf_putc(out, '>');
}

int gm_email_normalize(struct gm_buf *out, const char *s, int usename)
{
	struct gm_buf name = GM_BUF_INIT, addr = GM_BUF_INIT;
	int error;

	if ((error = gm_email_parse(&name, &addr, s)) < 0)
		goto out;
	gm_buf_reset(out);
	error = gm_email_format(out, name.ptr, addr.ptr, usename);
out:
	gm_buf_release(&name);
	gm_buf_release(&addr);
	return error;
}

/* ==================== RFC 822 ==================== */

/*
 * The RFC 822 "address" production (mailbox or group) as a regex over a
 * string whose comments were already replaced by spaces. Atoms end at
 * white space, the end, or a special; white space may follow every token.
 * The regex is assembled from its productions at first use: each entry
 * below is "name=definition", where a definition may name earlier ones.
 */
static const char *const rfc822_grammar[] = {
	"lwsp=(?:(?:\\r\\n)?[ \\t])",
	"specials=()<>@,;:\\\\\".\\[\\]",
	"atom=[^{specials} \\x00-\\x1f\\x7f]+(?:{lwsp}+|\\Z|(?=[\\[\"{specials}]))",
	/*
	 * A quoted character, a quoted pair, or a folded line: the script's
	 * [^"\r\\] | \\. | lwsp, which matches the same strings, less the
	 * ambiguity (a space or tab was both a character and lwsp) that made
	 * an unclosed quote backtrack exponentially.
	 */
	"qstring=\"(?:[^\"\\r\\\\]|\\\\.|\\r\\n[ \\t])*\"{lwsp}*",
	"dliteral=\\[(?:[^\\[\\]\\r\\\\]|\\\\.)*\\]{lwsp}*",
	"word=(?:{atom}|{qstring})",
	"localpart={word}(?:\\.{lwsp}*{word})*",
	"subdomain=(?:{atom}|{dliteral})",
	"domain={subdomain}(?:\\.{lwsp}*{subdomain})*",
	"addrspec={localpart}@{lwsp}*{domain}",
	"phrase={word}*",
	"route=(?:@{domain}(?:,@{lwsp}*{domain})*:{lwsp}*)",
	"routeaddr=<{lwsp}*{route}?{addrspec}>{lwsp}*",
	"mailbox=(?:{addrspec}|{phrase}{routeaddr})",
	"group={phrase}:{lwsp}*(?:{mailbox}(?:,\\s*{mailbox})*)?;\\s*",
	"address={lwsp}*(?:{mailbox}|{group})",
	"valid=^{address}$",
	"list=^(?:{address})?(?:,(?:{address})?)*$",
	"item=(?:^|,{lwsp}*)({address})",
};

#define RFC822_NRULES (sizeof(rfc822_grammar) / sizeof(*rfc822_grammar))

/*
 * The rule named s[0..n) into `out`, each "{name}" of its definition
 * expanded in turn; a "{...}" naming no rule is kept as written.
 * @return 0, GM_ENOTFOUND (no such rule) or GM_ERROR.
 */
static int rfc822_build(const char *s, size_t n, struct gm_buf *out)
{
	const char *body = NULL, *close;

	for (size_t i = 0; !body && i < RFC822_NRULES; i++)
		if (!strncmp(rfc822_grammar[i], s, n) &&
		    rfc822_grammar[i][n] == '=')
			body = rfc822_grammar[i] + n + 1;
	if (!body)
		return GM_ENOTFOUND;
	while (*body) {
		int error = GM_ENOTFOUND;

		if (*body == '{' && (close = strchr(body, '}')))
			error = rfc822_build(body + 1, (size_t)(close - body - 1),
					     out);
		if (error == GM_ENOTFOUND)
			error = gm_buf_putc(out, *body++);
		else
			body = close + 1;
		if (error < 0)
			return error;
	}
	return 0;
}

/* ==================== the regexes, compiled once ==================== */

/* Bytes 0x80-0xC3 stand for the script's "À-ÿ", read as UTF-8 bytes. */
#define SCAN_CANDIDATE "[A-Za-z\\x80-\\xc3\"' ,.+-]*\\s*[,]*\\s*[(<{]?" \
	"[A-Za-z0-9_.+-]+@[A-Za-z0-9.-]+\\.[A-Za-z0-9]+[)>}]?"
#define SCAN_ADDRESS "[(<{]?([A-Za-z0-9_.+-]+@[A-Za-z0-9.-]+)[)>}]?"
/*
 * Later scripts read files as UTF-8: a name is made of Unicode letters
 * (\p{L}), and the cleaning strips surrounding quotes and drops stray
 * punctuation. The text is matched as UTF-8; invalid sequences are
 * passed over as matching nothing.
 */
#define SCAN8_CANDIDATE "[\\p{L}\"' ,.+-]*\\s*[,]*\\s*[(<{]?" \
	"[A-Za-z0-9_.+-]+@[A-Za-z0-9.-]+\\.[A-Za-z0-9]+[)>}]?"
#define UTF8 (PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF)

enum {
	RE_VALID, RE_LIST, RE_ITEM,		/* RFC 822, built by name */
	RE_CAND, RE_ADDR, RE_SEP,		/* file text, 6.1 */
	RE_CAND8, RE_SEP8, RE_LETTER8,		/* file text, UTF-8 */
	RE_NR
};

static const struct {
	int group;		/* compiled together */
	uint32_t flags;
	const char *src;	/* group 0: the rule rfc822_build() expands */
} re_def[RE_NR] = {
	{ 0, PCRE2_DOTALL, "valid" }, { 0, PCRE2_DOTALL, "list" },
	{ 0, PCRE2_DOTALL, "item" },
	{ 1, 0, SCAN_CANDIDATE }, { 1, 0, SCAN_ADDRESS },
	{ 1, 0, "[^A-Za-z\\x80-\\xc3',.+-]" },
	{ 2, UTF8, SCAN8_CANDIDATE }, { 2, UTF8, "[^\\p{L}',.+-]" },
	{ 2, UTF8, "^\\p{L}$" },
};

static pcre2_code *re_code[RE_NR];
static atomic_bool re_ready[3];
static pthread_mutex_t re_lock = PTHREAD_MUTEX_INITIALIZER;

static void re_free(void)
{
	for (int i = 0; i < RE_NR; i++)
		pcre2_code_free(re_code[i]);
}

static pcre2_code *re_compile(int i)
{
	struct gm_buf src = GM_BUF_INIT;
	pcre2_code *re = NULL;
	int errcode;
	PCRE2_SIZE erroff;

	if (re_def[i].group ? gm_buf_puts(&src, re_def[i].src) == 0 :
			      rfc822_build(re_def[i].src, strlen(re_def[i].src),
					   &src) == 0)
		re = pcre2_compile((PCRE2_SPTR)src.ptr, src.len,
				   re_def[i].flags, &errcode, &erroff, NULL);
	if (re && re_def[i].group)
		pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	gm_buf_release(&src);
	return re;
}

/*
 * Regex `which`, its group compiled on first use, then only read (pcre2
 * code is shareable); one that fails stays NULL and never matches.
 */
static pcre2_code *re_get(int which)
{
	static bool registered;
	int g = re_def[which].group;

	if (!atomic_load(&re_ready[g])) {
		pthread_mutex_lock(&re_lock);
		if (!atomic_load(&re_ready[g])) {
			for (int i = 0; i < RE_NR; i++)
				if (re_def[i].group == g)
					re_code[i] = re_compile(i);
			if (!registered)
				registered = !atexit(re_free);
			atomic_store(&re_ready[g], true);
		}
		pthread_mutex_unlock(&re_lock);
	}
	return re_code[which];
}

/*
 * Replace each parenthesised comment outside a quoted string by a space,
 * innermost first, until none is left.
 */
static int strip_comments(struct gm_buf *out, const char *s)
{
	gm_buf_reset(out);
	if (gm_buf_puts(out, s) < 0)
		return GM_ERROR;
	for (;;) {
		char *p = out->ptr, *open = NULL, *close = NULL;
		bool quoted = false;

		for (; *p; p++) {
			if (*p == '\\') {
				if (!p[1])
					break;
				p++;
			} else if (*p == '"') {
				quoted = !quoted;
			} else if (!quoted && *p == '(') {
				open = p;
			} else if (!quoted && *p == ')' && open) {
				close = p;
				break;
			}
		}
		if (!close || quoted)
			return 0;
		*open = ' ';
		memmove(open + 1, close + 1, strlen(close + 1) + 1);
		out->len = strlen(out->ptr);
	}
}

static bool rfc822_match(int which, const char *s, size_t len, size_t start,
			 pcre2_match_data *md)
{
	pcre2_code *re = re_get(which);

	return re && pcre2_match(re, (PCRE2_SPTR)s, len, start, 0, md,
				 gm_pattern_match_context()) >= 0;
}

bool gm_email_rfc822_valid(const char *s)
{
	struct gm_buf clean = GM_BUF_INIT;
	pcre2_match_data *md = NULL;
	bool ok = false;

	if (strip_comments(&clean, s) < 0)
		goto out;
	md = pcre2_match_data_create(4, NULL);
	ok = md && rfc822_match(RE_VALID, clean.ptr, clean.len, 0, md);
out:
	pcre2_match_data_free(md);
	gm_buf_release(&clean);
	return ok;
}

int gm_email_rfc822_list(struct gm_strvec *out, const char *s)
{
	struct gm_buf clean = GM_BUF_INIT;
	pcre2_match_data *md = NULL;
	size_t pos = 0;
	int ret = 0;

	if (strip_comments(&clean, s) < 0 ||
	    !(md = pcre2_match_data_create(4, NULL))) {
		ret = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	if (!rfc822_match(RE_LIST, clean.ptr, clean.len, 0, md))
		goto out;
	ret = 1;
	while (pos <= clean.len &&
	       rfc822_match(RE_ITEM, clean.ptr, clean.len, pos, md)) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);

		if (gm_strvec_pushn(out, clean.ptr + ov[2], ov[3] - ov[2]) < 0) {
			ret = GM_ERROR;
			goto out;
		}
		pos = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
	}
out:
	pcre2_match_data_free(md);
	gm_buf_release(&clean);
	return ret;
}

/* ==================== addresses in file text ==================== */

static bool is_comma_or_dot(char c)
{
	return c == ',' || c == '.';
}

/* Characters of a string: bytes, or with `utf8` UTF-8 sequences. */
static size_t scan_chars(const char *s, bool utf8)
{
	size_t n = 0;

	for (; *s; s++)
		n += !utf8 || ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/*
 * Perl's split of `s` on every separator character (6.1's, or with
 * `utf8` Linux 6.7's), leading empty fields kept and trailing ones
 * dropped; with `utf8`, without the fields that are one punctuation mark.
 */
static int scan_split(struct gm_strvec *fields, const char *s, bool utf8)
{
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	size_t len = strlen(s), pos = 0, nonempty = 0;
	int error = md ? 0 : gm_error_set(GM_ERROR, "out of memory");

	while (!error) {
		size_t end = len, next = len + 1;

		if (pcre2_match(re_get(utf8 ? RE_SEP8 : RE_SEP),
				(PCRE2_SPTR)s, len, pos, 0, md, NULL) > 0) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);

			end = ov[0];
			next = ov[1];
		}
		/* a dropped particle still keeps the empty fields before it */
		if (!utf8 || end - pos != 1 || !strchr("',.+-", s[pos]))
			error = gm_strvec_pushn(fields, s + pos, end - pos);
		if (!error && end > pos)
			nonempty = fields->nr;
		if (next > len)
			break;
		pos = next;
	}
	while (fields->nr > nonempty) {
		free(fields->v[--fields->nr]);
		fields->v[fields->nr] = NULL;
	}
	pcre2_match_data_free(md);
	return error;
}

/* Whether the field `f` is one letter (6.1: ASCII; `utf8`: \p{L}). */
static bool scan_is_letter(const char *f, bool utf8)
{
	pcre2_match_data *md;
	bool hit;

	if (!utf8)
		return isalpha((unsigned char)f[0]) && !f[1];
	if (scan_chars(f, true) != 1 || !(md = pcre2_match_data_create(1, NULL)))
		return false;
	hit = pcre2_match(re_get(RE_LETTER8), (PCRE2_SPTR)f, strlen(f), 0, 0,
			  md, NULL) > 0;
	pcre2_match_data_free(md);
	return hit;
}

/*
 * The name rules of clean_file_emails(): 6.1's, or with `utf8` those of
 * Linux 6.7 and later (surrounding quotes stripped first, stray
 * punctuation dropped, the fields always joined again).
 */
static int scan_clean_name(struct gm_buf *name, bool utf8)
{
	struct gm_strvec f = GM_STRVEC_INIT;
	int error;

	if (utf8 && name->len >= 2 && name->ptr[0] == '"' &&
	    name->ptr[name->len - 1] == '"' &&
	    !memchr(name->ptr, '\n', name->len)) {
		memmove(name->ptr, name->ptr + 1, name->len - 2);
		name->len -= 2;
		name->ptr[name->len] = '\0';
	}
	if ((error = scan_split(&f, name->ptr, utf8)) < 0)
		goto out;
	if (f.nr > 2) {
		const char *first = f.v[f.nr - 3], *mid = f.v[f.nr - 2];
		const char *last = f.v[f.nr - 1];
		size_t fl = scan_chars(first, utf8), ml = scan_chars(mid, utf8);
		bool keep = scan_is_letter(first, utf8) ||
			    (fl == 2 && first[strlen(first) - 1] == '.') ||
			    ml == 1 || (ml == 2 && mid[strlen(mid) - 1] == '.');

		gm_buf_reset(name);
		error = keep ? gm_buf_printf(name, "%s %s %s", first, mid, last) :
			       gm_buf_printf(name, "%s %s", mid, last);
	} else if (utf8) {
		gm_buf_reset(name);
		for (size_t i = 0; i < f.nr && !error; i++)
			error = gm_buf_printf(name, "%s%s", i ? " " : "", f.v[i]);
	}
	if (error)
		goto out;
	if (name->len && is_comma_or_dot(name->ptr[name->len - 1])) {
		name->ptr[--name->len] = '\0';
	} else if (!utf8 && name->len >= 2 && name->ptr[name->len - 1] == '"' &&
		   is_comma_or_dot(name->ptr[name->len - 2])) {
		name->ptr[name->len - 2] = '"';
		name->ptr[--name->len] = '\0';
	}
	if (name->len && is_comma_or_dot(name->ptr[0])) {
		memmove(name->ptr, name->ptr + 1, name->len--);
	} else if (!utf8 && name->len >= 2 && name->ptr[0] == '"' &&
		   is_comma_or_dot(name->ptr[1])) {
		memmove(name->ptr + 1, name->ptr + 2, name->len - 1);
		name->len--;
	}
out:
	gm_strvec_release(&f);
	return error;
}

/*
 * One candidate: every address-like part becomes "<addr>", then parsed,
 * its name cleaned as scan_clean_name() does.
 */
static int scan_candidate(struct gm_strvec *out, pcre2_code *addr_re,
			  const char *s, size_t len, int usename, bool utf8)
{
	struct gm_buf sub = GM_BUF_INIT, name = GM_BUF_INIT, addr = GM_BUF_INIT;
	struct gm_buf fmt = GM_BUF_INIT;
	PCRE2_SIZE outlen = len * 2 + 64;
	int rc, error = GM_ERROR;

	if (gm_buf_grow(&sub, outlen) < 0)
		goto out;
	rc = pcre2_substitute(addr_re, (PCRE2_SPTR)s, len, 0,
			      PCRE2_SUBSTITUTE_GLOBAL, NULL, NULL,
			      (PCRE2_SPTR) "<$1>", 4, (PCRE2_UCHAR *)sub.ptr,
			      &outlen);
	if (rc < 0)
		goto out;
	sub.len = outlen;
	sub.ptr[outlen] = '\0';
	if (gm_email_parse(&name, &addr, sub.ptr) < 0 ||
	    scan_clean_name(&name, utf8) < 0 ||
	    gm_email_format(&fmt, name.ptr, addr.ptr, usename) < 0)
		goto out;
	error = gm_strvec_push(out, fmt.ptr);
out:
	gm_buf_release(&sub);
	gm_buf_release(&name);
	gm_buf_release(&addr);
	gm_buf_release(&fmt);
	return error;
}

/*
 * A byte a candidate may hold before its '@': one of the name class, a
 * blank (\s), ',', an opening bracket, or one of the local part. No '@'.
 */
static bool scan_before_at(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || (c >= 0x80 && c <= 0xc3) ||
	       (c && strchr("',.+-\" \t\n\v\f\r(<{_", c));
}

static bool scan_domain_char(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '-';
}

/*
 * Every candidate the script's //g loop finds in the text. A candidate
 * holds exactly one '@' (none of its parts before the '@' or after it
 * can hold one), so each is found in the window around an '@': from the
 * first byte before it that no candidate may hold (with `utf8`, any
 * non-ASCII byte may), to the end of the domain after it. Searching
 * those windows only gives the same matches as searching the whole
 * text, without trying every position of it.
 */
int gm_email_scan_text(struct gm_strvec *out, const char *text, size_t len,
		       int usename, bool utf8)
{
	pcre2_match_data *md = pcre2_match_data_create(2, NULL);
	pcre2_code *cand = re_get(utf8 ? RE_CAND8 : RE_CAND);
	size_t pos = 0;
	int error = 0;

	if (!md || !cand || !re_get(RE_ADDR) ||
	    !re_get(utf8 ? RE_SEP8 : RE_SEP) ||
	    (utf8 && !re_get(RE_LETTER8))) {
		pcre2_match_data_free(md);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	while (pos < len && !error) {
		const char *at = memchr(text + pos, '@', len - pos);
		size_t a, w, e;
		PCRE2_SIZE *ov;

		if (!at)
			break;
		a = (size_t)(at - text);
		for (w = a; w > pos; w--) {
			unsigned char c = (unsigned char)text[w - 1];

			if (!scan_before_at(c) && !(utf8 && c >= 0x80))
				break;
		}
		for (e = a + 1; e < len && scan_domain_char((unsigned char)text[e]); e++)
			;
		e += e < len;	/* a closing bracket */
		if (pcre2_match(cand, (PCRE2_SPTR)text, e, w, 0, md,
				gm_pattern_match_context()) <= 0) {
			pos = a + 1;
			continue;
		}
		ov = pcre2_get_ovector_pointer(md);
		error = scan_candidate(out, re_get(RE_ADDR), text + ov[0],
				       ov[1] - ov[0], usename, utf8);
		pos = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
	}
	pcre2_match_data_free(md);
	return error;
}

/* A byte of RFC 5322 atext, or of RFC 6532's 8-bit text. */
static bool is_atext(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c >= 0x80 ||
	       (c && strchr("!#$%&'*+-/=?^_`{|}~", c));
}

/* Whether s[0..len) is an RFC 5322 dot-atom-text. */
static bool dot_atom_valid(const char *s, size_t len)
{
	bool after_dot = true;	/* no dot first */

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '.' && !after_dot)
			after_dot = true;
		else if (is_atext((unsigned char)s[i]))
			after_dot = false;
		else
			return false;
	}
	return !after_dot;
}

bool gm_email_address_valid(const char *addr)
{
	const char *at = strchr(addr, '@');

	return at && dot_atom_valid(addr, (size_t)(at - addr)) &&
	       dot_atom_valid(at + 1, strlen(at + 1));
}

bool gm_email_name_valid(const char *name)
{
	return !has_control(name, strlen(name));
}

/* Whether s[0..len) is an RFC 5322 phrase (atoms, quoted strings) or blank. */
static bool phrase_valid(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		if (s[i] == ' ' || s[i] == '\t') {
			i++;
		} else if (s[i] == '"') {	/* to its closing quote */
			size_t j = i + 1;

			while (j < len && s[j] != '"')
				j += s[j] == '\\' ? 2 : 1;
			if (j >= len || !qstring_valid(s + i, j + 1 - i))
				return false;
			i = j + 1;
		} else if (is_atext((unsigned char)s[i])) {
			while (i < len && is_atext((unsigned char)s[i]))
				i++;
		} else {
			return false;
		}
	}
	return true;
}

bool gm_email_mailbox_valid(const char *s)
{
	size_t len = strlen(s);
	const char *lt = memchr(s, '<', len);
	struct gm_buf addr = GM_BUF_INIT;
	bool ok;

	if (has_control(s, len))
		return false;
	if (!lt)
		return gm_email_address_valid(s);
	if (s[len - 1] != '>' || !phrase_valid(s, (size_t)(lt - s)) ||
	    gm_buf_put(&addr, lt + 1, len - 2 - (size_t)(lt - s)) < 0)
		return false;
	ok = gm_email_address_valid(addr.ptr);
	gm_buf_release(&addr);
	return ok;
}
