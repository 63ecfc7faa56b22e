/*
 * The address functions on the input: the input as one address string
 * (parse, format, normalize, the RFC 822 tests, the header-safety tests
 * of addresses and names), the input as a .mailmap
 * applied to each of its own lines and to a few fixed addresses, and the
 * input as a file's text scanned for addresses.
 */
#include "fuzz_common.h"

#include "gm/email.h"
#include "gm/mailmap.h"

static const char *const fixed_lines[] = {
	"Some One <some@one.com>",
	"some@one.com",
	"<other@example.org>",
	"\"Quoted, Name\" <q@example.com>",
	"",
};

static void check_formatted(const char *s, size_t len)
{
	FUZZ_CHECK(strlen(s) == len);
	/* a formatted name never starts or ends with white space */
	FUZZ_CHECK(!len || !gm_email_isspace((unsigned char)s[0]));
	FUZZ_CHECK(!len || !gm_email_isspace((unsigned char)s[len - 1]));
}

static void one_address(const char *s)
{
	struct gm_buf name = GM_BUF_INIT, addr = GM_BUF_INIT;
	struct gm_buf out = GM_BUF_INIT, again = GM_BUF_INIT;
	struct gm_strvec list = GM_STRVEC_INIT;
	int ret;

	if (gm_email_parse(&name, &addr, s) == 0) {
		FUZZ_CHECK(strlen(addr.ptr) == addr.len);
		FUZZ_CHECK(strlen(addr.ptr) <= strlen(s));
		for (int use = 0; use <= 1; use++) {
			gm_buf_reset(&out);
			if (gm_email_format(&out, name.ptr, addr.ptr, use) == 0)
				check_formatted(out.ptr, out.len);
		}
	}
	if (gm_email_normalize(&out, s, 1) == 0) {
		check_formatted(out.ptr, out.len);
		gm_email_normalize(&again, out.ptr, 1);
	}
	gm_email_normalize(&out, s, 0);
	gm_email_rfc822_valid(s);
	if (gm_email_address_valid(s)) {
		const char *at = strchr(s, '@');

		FUZZ_CHECK(at && at != s && at[1] && !strchr(at + 1, '@'));
		for (const char *p = s; *p; p++)
			FUZZ_CHECK((unsigned char)*p > ' ' && *p != 0x7f);
	}
	if (gm_email_name_valid(s))
		for (const char *p = s; *p; p++)
			FUZZ_CHECK((unsigned char)*p >= ' ' && *p != 0x7f);
	ret = gm_email_rfc822_list(&list, s);
	FUZZ_CHECK(ret == 1 || ret == 0 || ret == GM_ERROR);
	FUZZ_CHECK(ret == 1 || list.nr == 0);
	for (size_t i = 0; i < list.nr; i++)
		FUZZ_CHECK(list.v[i] != NULL);
	gm_strvec_release(&list);
	gm_buf_release(&name);
	gm_buf_release(&addr);
	gm_buf_release(&out);
	gm_buf_release(&again);
}

static void mailmap(const char *data, size_t size)
{
	struct gm_mailmap *mm = NULL;
	struct gm_buf out = GM_BUF_INIT;
	const char *p = data, *end = data + size;

	if (gm_mailmap_from_buffer(&mm, data, size) < 0)
		return;
	for (size_t i = 0; i < sizeof(fixed_lines) / sizeof(*fixed_lines); i++)
		if (gm_mailmap_apply(&out, mm, fixed_lines[i]) == 0)
			check_formatted(out.ptr, out.len);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = fuzz_strndup(p, n);

		if (gm_mailmap_apply(&out, mm, line) == 0)
			check_formatted(out.ptr, out.len);
		gm_mailmap_apply(&out, NULL, line);
		free(line);
		p += n + 1;
	}
	gm_buf_release(&out);
	gm_mailmap_free(mm);
}

static void scan(const char *data, size_t size)
{
	struct gm_strvec found = GM_STRVEC_INIT;

	for (int usename = 0; usename <= 1; usename++) {
		if (gm_email_scan_text(&found, data, size, usename,
				       false) == 0)
			for (size_t i = 0; i < found.nr; i++)
				FUZZ_CHECK(strchr(found.v[i], '@'));
		gm_strvec_release(&found);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size);

	one_address(s);
	mailmap((const char *)data, size);
	scan((const char *)data, size);
	free(s);
	return 0;
}
