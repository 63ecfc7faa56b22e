/*
 * The F:/X: glob and N:/K: regex matchers. The input is a flags byte, a
 * pattern up to the first newline, and a path (the rest, up to a NUL).
 *
 * Flags: bit 0, the directory test says yes; bit 1, the prefixed regex is
 * tried before the plain one; bit 2, the path is repeated until it is at
 * least 4 KiB long (so that the JIT is used).
 *
 * The results are checked against the plain PCRE2 engine on the same
 * pattern: the glob's own matcher for simple globs and the regex's
 * required-literal filter are shortcuts that must not change an answer.
 */
#include "fuzz_common.h"

#include "gm/buf.h"
#include "gm/pattern.h"

static pcre2_match_data *oracle_md;

struct isdir_state {
	bool answer;
	unsigned asked;
};

static bool fuzz_isdir(const char *path, void *payload)
{
	struct isdir_state *st = payload;

	(void)path;
	st->asked++;
	return st->answer;
}

/*
 * 1 match, 0 no match, -1 no answer (does not compile, or hit a limit),
 * with the library's own limits.
 */
static int oracle(const char *re, size_t relen, uint32_t flags,
		  const char *s, size_t len)
{
	pcre2_match_context *ctx = gm_pattern_match_context();
	pcre2_code *code;
	int errcode, rc;
	PCRE2_SIZE erroff;

	if (!oracle_md)
		oracle_md = pcre2_match_data_create(1, NULL);
	if (!ctx || !oracle_md)
		abort();
	code = pcre2_compile((PCRE2_SPTR)re, relen, flags, &errcode, &erroff,
			     NULL);
	if (!code)
		return -1;
	rc = pcre2_match(code, (PCRE2_SPTR)s, len, 0, 0, oracle_md, ctx);
	pcre2_code_free(code);
	if (rc >= 0)
		return 1;
	return rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}

/* R-12's conversion, written out again for the oracle. */
static void convert(struct gm_buf *re, const char *g, size_t len, bool dir)
{
	gm_buf_puts(re, "^");
	for (size_t i = 0; i < len; i++) {
		if (g[i] == '.')
			gm_buf_puts(re, "\\.");
		else if (g[i] == '*' && i + 1 < len && g[i + 1] == '*')
			gm_buf_puts(re, "(?:.*)"), i++;
		else if (g[i] == '*')
			gm_buf_puts(re, ".*");
		else
			gm_buf_putc(re, g[i] == '?' ? '.' : g[i]);
	}
	if (dir)
		gm_buf_putc(re, '/');
}

static void check_glob(const char *pat, size_t plen, const char *path,
		       size_t len, bool dir)
{
	struct isdir_state st = { dir, 0 };
	struct gm_pattern_ctx pc;
	struct gm_glob g;
	struct gm_glob_state gs = GM_GLOB_STATE_INIT;
	struct gm_buf re = GM_BUF_INIT;
	size_t slashes = gm_pattern_slashes(path, len), vlen = 0;
	bool got, again, literal, ends_slash, isdir;
	const char *v;
	int want;

	if (gm_pattern_ctx_init(&pc, fuzz_isdir, &st) < 0)
		abort();
	gm_glob_init(&g, pat, plen);
	got = gm_glob_matches(&g, &gs, &pc, path, len, slashes);
	FUZZ_CHECK(st.asked <= 1);
	gm_glob_depth(&g);
	/* a glob over the engine's limits is disabled: no more answers */
	if (gs.bad)
		goto out;

	/* the oracle: over the PCRE2 engine */
	literal = plen && !strpbrk(pat, "*?.[](){}+^$|\\");
	ends_slash = plen && pat[plen - 1] == '/';
	isdir = literal && !ends_slash && dir;
	convert(&re, pat, plen, false);
	want = oracle(re.ptr, re.len, 0, path, len);
	if (want == 1 && isdir) {
		gm_buf_reset(&re);
		convert(&re, pat, plen, true);
		want = oracle(re.ptr, re.len, 0, path, len);
	} else if (want == 1 && !ends_slash && !strstr(pat, "**")) {
		want = slashes == gm_pattern_slashes(pat, plen);
	}
	if (want >= 0 && got != (want == 1)) {
		fuzz_mismatch("glob '%.*s' path '%.*s' dir %d: got %d, "
			      "PCRE2 says %d\n", (int)plen, pat, (int)len,
			      path, dir, got, want);
	}

	v = gm_glob_value(&g, &gs, &pc, &vlen);
	FUZZ_CHECK(st.asked <= 1);
	FUZZ_CHECK(!v || strlen(v) == vlen);
	again = gm_glob_matches(&g, &gs, &pc, path, len, slashes);
	FUZZ_CHECK(again == got || gs.bad);
out:
	gm_glob_state_release(&gs);
	gm_pattern_ctx_release(&pc);
	gm_buf_release(&re);
}

static void check_regex(const char *pat, size_t plen, const char *path,
			size_t len, bool prefixed_first)
{
	struct gm_regex re;
	struct gm_regex_state rs = GM_REGEX_STATE_INIT;
	struct gm_pattern_ctx pc;
	struct gm_buf pre = GM_BUF_INIT;
	bool got[2], bad;
	int want[2];

	if (gm_pattern_ctx_init(&pc, NULL, NULL) < 0)
		abort();
	if (gm_regex_init(&re, pat, plen) < 0) {
		gm_pattern_ctx_release(&pc);
		return;
	}
	for (int k = 0; k < 2; k++) {
		bool prefixed = prefixed_first ? !k : k;

		got[prefixed] = gm_regex_matches(&re, &rs, &pc, path, len,
						 prefixed);
	}
	/*
	 * A regex over the engine's limits is disabled from then on (as is
	 * one that does not compile): its answers are not compared.
	 */
	bad = rs.bad;
	if (!bad) {
		/* cached code gives the same answers */
		FUZZ_CHECK(gm_regex_matches(&re, &rs, &pc, path, len, false) ==
			   got[0]);
		FUZZ_CHECK(gm_regex_matches(&re, &rs, &pc, path, len, true) ==
			   got[1]);
	}
	gm_regex_state_release(&rs);
	gm_regex_release(&re);
	gm_pattern_ctx_release(&pc);
	if (bad)
		return;

	gm_buf_puts(&pre, "^[+-].*");
	gm_buf_put(&pre, pat, plen);
	want[0] = oracle(pat, plen, PCRE2_EXTENDED, path, len);
	want[1] = oracle(pre.ptr, pre.len, PCRE2_EXTENDED, path, len);
	gm_buf_release(&pre);
	/* a pattern that compiles only one way is not compared (fuzz/README) */
	if (want[0] < 0 || want[1] < 0)
		return;
	for (int k = 0; k < 2; k++) {
		if (got[k] == (want[k] == 1))
			continue;
		fuzz_mismatch("regex '%.*s'%s on '%.*s': got %d, "
			      "PCRE2 says %d\n", (int)plen, pat,
			      k ? " prefixed" : "", (int)len, path, got[k],
			      want[k]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data + 1;
	const char *nl, *nul;
	char *pat, *path;
	size_t plen, len, rest;
	unsigned flags;

	if (!size)
		return 0;
	flags = data[0];
	rest = size - 1;
	nul = memchr(in, '\0', rest);
	if (nul)
		rest = (size_t)(nul - in);
	nl = memchr(in, '\n', rest);
	plen = nl ? (size_t)(nl - in) : rest;
	pat = fuzz_strndup(in, plen);
	len = nl ? rest - plen - 1 : 0;
	if ((flags & 4) && len) {
		size_t n = (4096 / len + 1) * len;

		path = malloc(n + 1);
		if (!path)
			abort();
		for (size_t i = 0; i < n; i += len)
			memcpy(path + i, nl + 1, len);
		path[n] = '\0';
		len = n;
	} else {
		path = fuzz_strndup(nl ? nl + 1 : "", len);
	}
	check_glob(pat, plen, path, len, flags & 1);
	check_regex(pat, plen, path, len, flags & 2);
	free(pat);
	free(path);
	return 0;
}
