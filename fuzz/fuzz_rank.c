/*
 * What the command does with a parsed MAINTAINERS (the input, two files if
 * it holds a NUL byte, as for fuzz_maintainers): every section printed as
 * --sections prints it, matching of a few fixed paths, the keyword pass,
 * and the people and lists the matched sections give, printed as the
 * command prints them.
 *
 * --sections prints one line per retained line and an empty line after
 * each section, with no control byte but TAB. After gm_rank_sanitize() no
 * person or list may hold a control byte or be more or less than one
 * address, and no printed line, role text included, may hold a control
 * byte other than TAB.
 */
#define _GNU_SOURCE	/* fopencookie() */
#include "fuzz_model.h"

#include <stdio.h>
#include <sys/types.h>

#include "gm/email.h"
#include "gm/match.h"
#include "gm/options.h"
#include "gm/output.h"
#include "gm/query.h"
#include "gm/rank.h"

static const char *const paths[] = {
	"drivers/net/foo/a.c",
	"drivers/net/",
	"fs/ext4/inode.c",
	"include/linux/foo.h",
	"MAINTAINERS",
	"Makefile",
	"a/b/c/d/e/f/g/h/i/j/k.c",
	"dir/sub/",
	"x\ny.c",
	"",
};

static const char keyword_text[] =
	"+\tstruct net_device *dev = beta_magic(foo);\n"
	"-\treturn -EINVAL;\n";

/*
 * The one-pass literal scan of gm_match_keywords_text() is a shortcut:
 * the K: lines it records are exactly those whose regex matches the text.
 */
static void check_keywords(const struct gm_maintainers *m,
			   const struct gm_matches *kw)
{
	struct gm_pattern_ctx pc;
	size_t k = 0;

	if (gm_pattern_ctx_init(&pc, NULL, NULL) < 0)
		abort();
	for (size_t i = 0; i < m->nr_lines; i++) {
		struct gm_regex_state st = GM_REGEX_STATE_INIT;
		bool hit;

		if (m->lines[i].tag != 'K')
			continue;
		hit = gm_regex_run(m->lines[i].regex, &st, &pc, keyword_text,
				   sizeof(keyword_text) - 1, false);
		if (st.bad)
			hit = k < kw->nr_keywords && kw->keywords[k] == i;
		gm_regex_state_release(&st);
		FUZZ_CHECK(hit == (k < kw->nr_keywords &&
				   kw->keywords[k] == i));
		k += hit;
	}
	gm_pattern_ctx_release(&pc);
	FUZZ_CHECK(k == kw->nr_keywords);
}

/* Says yes for a few directories of the fixture tree, and for "*dir". */
static bool fixed_isdir(const char *path, void *payload)
{
	size_t n = strlen(path);

	(*(unsigned *)payload)++;
	return !strcmp(path, "drivers") || !strcmp(path, "drivers/net") ||
	       !strcmp(path, "fs") || !strcmp(path, "fs/ext4") ||
	       !strcmp(path, "include/linux") ||
	       (n >= 3 && !strcmp(path + n - 3, "dir"));
}

/* What was printed: newlines, and whether a control byte came out. */
struct printed {
	size_t lines;
	bool control;
};

static ssize_t printed_write(void *cookie, const char *buf, size_t len)
{
	struct printed *p = cookie;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		p->lines += c == '\n';
		p->control |= (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
	}
	return (ssize_t)len;
}

/*
 * Every section once, as --sections prints it: one line per retained line
 * and an empty line after each section, no control byte but TAB.
 */
static void print_all_sections(const struct gm_maintainers *m,
			       struct gm_match_ctx *ctx)
{
	static const cookie_io_functions_t io = { .write = printed_write };
	struct gm_match_file all = { .path = "", .nr_sections = m->nr_sections };
	struct printed p = { 0, false };
	size_t want = 0;
	FILE *f;

	if (!m->nr_sections)
		return;
	all.sections = malloc(m->nr_sections * sizeof(*all.sections));
	if (!all.sections || !(f = fopencookie(&p, "w", io)))
		abort();
	for (size_t s = 0; s < m->nr_sections; s++) {
		all.sections[s] = s;
		want += m->sections[s].end - m->sections[s].start + 1;
	}
	FUZZ_CHECK(gm_output_sections(f, m, ctx, &all, NULL) == 0);
	fclose(f);
	FUZZ_CHECK(p.lines == want);
	FUZZ_CHECK(!p.control);
	free(all.sections);
}

/* What gm_rank_sanitize() promises of every entry left. */
static void check_entries(const struct gm_rank_list *l)
{
	struct gm_buf name = GM_BUF_INIT, addr = GM_BUF_INIT;

	for (size_t i = 0; i < l->nr; i++) {
		const char *s = l->v[i].addr;

		for (const char *p = s; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				fuzz_mismatch("control byte 0x%02x in '%s'\n",
					      (unsigned char)*p, s);
		if (gm_email_parse(&name, &addr, s) == 0 &&
		    !gm_email_address_valid(addr.ptr))
			fuzz_mismatch("entry '%s': address '%s' is not valid\n",
				      s, addr.ptr);
	}
	gm_buf_release(&name);
	gm_buf_release(&addr);
}

/* The printed lines must not carry bytes that drive a terminal. */
static void check_output(const char *out, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)out[i];

		if (c == '\n' || c == '\t')
			continue;
		if (c < 0x20 || c == 0x7f) {
			fuzz_mismatch("control byte 0x%02x in output:\n%.*s\n",
				      c, (int)len, out);
			return;
		}
	}
}

static void run_rank(const struct gm_maintainers *m,
		     const struct gm_matches *mt, FILE *f)
{
	static const char *const argv[] = { "--rolestats", "--scm",
					    "--status", "--subsystem", "--web",
					    "--bug" };
	struct gm_options o;
	struct gm_output_settings os;
	struct gm_rank_settings rs;
	struct gm_rank rk;
	struct gm_matches *kw = calloc(1, sizeof(*kw));
	struct gm_match_ctx *ctx = NULL;
	char *out = NULL;
	size_t len = 0;
	FILE *people = open_memstream(&out, &len);

	gm_options_init(&o);
	if (!kw || !people || gm_match_ctx_new(&ctx, m, NULL, NULL) < 0 ||
	    gm_options_parse(&o, (int)(sizeof(argv) / sizeof(*argv)),
			     (const char **)argv) < 0 ||
	    gm_options_finish(&o) < 0)
		abort();
	gm_query_rank_settings(&rs, &o);
	gm_rank_init(&rk, &rs, NULL);
	for (size_t i = 0; i < mt->nr_files; i++) {
		const struct gm_match_file *mf = &mt->files[i];

		for (size_t k = 0; k < mf->nr_sections; k++)
			if (gm_rank_add_section(&rk, m, mf->sections[k]) < 0)
				goto out;
	}
	if (gm_match_keywords_text(kw, m, ctx, keyword_text,
				   sizeof(keyword_text) - 1, 0) < 0)
		goto out;
	check_keywords(m, kw);
	gm_match_keywords_finish(kw);
	for (size_t i = 0; i < kw->nr_keywords; i++) {
		size_t s = m->section_of[kw->keywords[i]];

		FUZZ_CHECK(s < m->nr_sections);
		if (gm_rank_add_section(&rk, m, s) < 0)
			goto out;
	}
	if (gm_rank_normalize(&rk) < 0 || gm_rank_finish(&rk, NULL) < 0 ||
	    gm_rank_sanitize(&rk) < 0)
		goto out;
	check_entries(&rk.people);
	check_entries(&rk.lists);
	/* people and lists with their roles, for check_output() */
	os = (struct gm_output_settings){
		.email = o.email, .lists = o.lists, .roles = o.roles,
		.multiline = o.multiline, .separator = o.separator,
		.substatus = o.substatus,
	};
	if (gm_output_write(people, &rk, &os) == 0) {
		fflush(people);
		check_output(out, len);
	}
	os.scm = os.status = os.subsystem = os.web = os.bug = true;
	gm_output_write(f, &rk, &os);
out:
	fclose(people);
	free(out);
	gm_rank_release(&rk);
	gm_options_release(&o);
	gm_matches_free(kw);
	gm_match_ctx_free(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gm_strvec files = GM_STRVEC_INIT;
	struct gm_maintainers *m = NULL;
	struct gm_matches *mt = NULL;
	struct gm_match_ctx *ctx = NULL;
	unsigned asked = 0;
	char *out = NULL;
	size_t outlen = 0;
	FILE *f = NULL;

	if (fuzz_parse_maintainers(&m, data, size) < 0)
		return 0;
	fuzz_check_model(m);
	if (gm_match_ctx_new(&ctx, m, fixed_isdir, &asked) < 0)
		goto out;
	print_all_sections(m, ctx);
	for (size_t i = 0; i < sizeof(paths) / sizeof(*paths); i++)
		if (gm_strvec_push(&files, paths[i]) < 0)
			goto out;
	f = open_memstream(&out, &outlen);
	if (!f)
		goto out;
	/* --sections for each path: all tags, then only M:, L:, F:, X: */
	for (int depth = 0; depth <= 2; depth += 2) {
		gm_matches_free(mt);
		mt = NULL;
		if (gm_match_files(&mt, m, ctx, &files, depth) < 0)
			goto out;
		FUZZ_CHECK(mt->nr_files == files.nr);
		for (size_t i = 0; i < mt->nr_files; i++) {
			const struct gm_match_file *mf = &mt->files[i];

			for (size_t k = 0; k < mf->nr_sections; k++) {
				FUZZ_CHECK(mf->sections[k] < m->nr_sections);
				FUZZ_CHECK(!k || mf->sections[k] !=
						   mf->sections[k - 1]);
			}
			gm_output_sections(f, m, ctx, mf,
					   depth ? "mLfX" : NULL);
		}
	}
	run_rank(m, mt, f);
	fflush(f);
	FUZZ_CHECK(strlen(out) <= outlen);
out:
	if (f)
		fclose(f);
	free(out);
	gm_matches_free(mt);
	gm_match_ctx_free(ctx);
	gm_maintainers_free(m);
	gm_strvec_release(&files);
	return 0;
}
