/*
 * gm_patch_parse() on the input as a patch, then what the command does
 * with the result: match the file names and the keyword lines against a
 * small fixed MAINTAINERS.
 */
#include "fuzz_common.h"

#include "gm/maintainers.h"
#include "gm/match.h"
#include "gm/patch.h"

static const char fixed_maintainers[] =
	"THE REST\n"
	"M:\tChief <chief@example.com>\n"
	"L:\tlinux-kernel@vger.kernel.org\n"
	"S:\tBuried alive in reporters\n"
	"F:\t*\n"
	"F:\t*/\n"
	"\n"
	"EXT4\n"
	"M:\tTed <ted@example.com>\n"
	"S:\tMaintained\n"
	"F:\tfs/ext4/\n"
	"X:\tfs/ext4/sub/\n"
	"K:\tbeta_magic\n"
	"\n"
	"NET\n"
	"M:\tNet <net@example.com>\n"
	"S:\tOdd Fixes\n"
	"F:\tdrivers/net/*.c\n"
	"F:\tdrivers/net/**/*.h\n"
	"N:\t[^a-z]eth\n"
	"K:\t(?:struct\\s+)?net_device\\b\n"
	"K:\t\\bfoo(bar|baz)+\n";

static struct gm_maintainers *model;
static struct gm_match_ctx *model_ctx;	/* what matching it learnt */

static bool fixed_isdir(const char *path, void *payload)
{
	(void)payload;
	return !strcmp(path, "fs") || !strcmp(path, "fs/ext4") ||
	       !strcmp(path, "drivers") || !strcmp(path, "drivers/net");
}

static void model_init(void)
{
	const char *bufs[1] = { fixed_maintainers };
	size_t lens[1] = { sizeof(fixed_maintainers) - 1 };

	if (!model && (gm_maintainers_parse(&model, bufs, lens, 1) < 0 ||
		       gm_match_ctx_new(&model_ctx, model, fixed_isdir,
					NULL) < 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct gm_patch p = GM_PATCH_INIT;
	struct gm_matches *mt = NULL;
	size_t prev_end = 0;

	model_init();
	if (gm_patch_parse(&p, buf, size) < 0)
		goto out;
	/* keyword lines are in order, inside the buffer, newline included */
	for (size_t i = 0; i < p.nr_lines; i++) {
		const struct gm_patch_line *l = &p.lines[i];

		FUZZ_CHECK(l->len > 0);
		FUZZ_CHECK(l->off >= prev_end);
		FUZZ_CHECK(l->off <= size && l->len <= size - l->off);
		FUZZ_CHECK(l->off + l->len == size ||
			   buf[l->off + l->len - 1] == '\n');
		FUZZ_CHECK(!i || !p.lines[i - 1].prefixed || l->prefixed);
		prev_end = l->off + l->len;
	}
	for (size_t i = 0; i < p.files.nr; i++)
		FUZZ_CHECK(p.files.v[i] != NULL);
	FUZZ_CHECK(!p.files.nr || p.files.v[p.files.nr] == NULL);
	for (size_t i = 0; i < p.fixes.nr; i++) {
		size_t n = strlen(p.fixes.v[i]);

		FUZZ_CHECK(n >= 6 && n <= 40);
		FUZZ_CHECK(strspn(p.fixes.v[i], "0123456789abcdefABCDEF") == n);
	}
	if (gm_match_files(&mt, model, model_ctx, &p.files, 0) < 0)
		goto out;
	FUZZ_CHECK(mt->nr_files == p.files.nr);
	for (size_t i = 0; i < mt->nr_files; i++) {
		const struct gm_match_file *mf = &mt->files[i];

		for (size_t k = 0; k < mf->nr_sections; k++)
			FUZZ_CHECK(mf->sections[k] < model->nr_sections);
	}
	if (gm_match_keywords_patch(mt, model, model_ctx, buf, &p) < 0)
		goto out;
	gm_match_keywords_finish(mt);
	for (size_t i = 0; i < mt->nr_keywords; i++) {
		FUZZ_CHECK(mt->keywords[i] < model->nr_lines);
		FUZZ_CHECK(model->lines[mt->keywords[i]].tag == 'K');
	}
out:
	gm_matches_free(mt);
	gm_patch_release(&p);
	return 0;
}
