#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/index.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/* ==================== index files made byte by byte ==================== */

struct ix_entry {
	const char *path;
	uint32_t mode;		/* 0: 0100644 */
	unsigned stage;
	int intent_to_add;
};

static void put_be(struct gm_buf *b, uint32_t v, int bytes)
{
	while (bytes--)
		gm_buf_putc(b, (char)(v >> 8 * bytes));
}

/* git's offset varint, as index version 4 writes a path's cut. */
static void put_varint(struct gm_buf *b, size_t v)
{
	unsigned char out[16];
	size_t pos = sizeof(out) - 1;

	out[pos] = v & 127;
	while (v >>= 7)
		out[--pos] = (unsigned char)(128 | (--v & 127));
	gm_buf_put(b, (const char *)out + pos, sizeof(out) - pos);
}

static void put_id(struct gm_buf *b, unsigned char byte)
{
	for (int i = 0; i < 20; i++)
		gm_buf_putc(b, (char)byte);
}

static void put_entry(struct gm_buf *b, unsigned version,
		      const struct ix_entry *e, unsigned char id,
		      const char *prev)
{
	size_t start = b->len, len = strlen(e->path);
	int extended = e->intent_to_add != 0;

	for (int i = 0; i < 6; i++)
		put_be(b, 0, 4);	/* ctime, mtime, dev, ino */
	put_be(b, e->mode ? e->mode : 0100644, 4);
	for (int i = 0; i < 3; i++)
		put_be(b, 0, 4);	/* uid, gid, size */
	put_id(b, id);
	put_be(b, (extended ? 0x4000u : 0) | e->stage << 12 |
	       (len < 0xfff ? (uint32_t)len : 0xfff), 2);
	if (extended)
		put_be(b, 0x2000, 2);
	if (version == 4) {
		size_t same = 0;

		while (prev[same] && prev[same] == e->path[same])
			same++;
		put_varint(b, strlen(prev) - same);
		gm_buf_puts(b, e->path + same);
		gm_buf_putc(b, '\0');
		return;
	}
	gm_buf_puts(b, e->path);
	do
		gm_buf_putc(b, '\0');
	while ((b->len - start) % 8);
}

static const unsigned char tree_byte = 0x77;

/*
 * An index of `n` entries (entry i has id bytes i + 1), its cache-tree
 * claiming `count` entries for the tree of id bytes tree_byte (no id
 * when count is -1), no cache-tree for count -2; then `ext`, a 4-byte
 * signature, with an empty body, if not NULL.
 */
static void build(struct gm_buf *b, unsigned version,
		  const struct ix_entry *e, size_t n, long count,
		  const char *ext)
{
	gm_buf_reset(b);
	gm_buf_puts(b, "DIRC");
	put_be(b, version, 4);
	put_be(b, (uint32_t)n, 4);
	for (size_t i = 0; i < n; i++)
		put_entry(b, version, &e[i], (unsigned char)(i + 1),
			  i ? e[i - 1].path : "");
	if (ext) {
		gm_buf_put(b, ext, 4);
		put_be(b, 0, 4);
	}
	if (count > -2) {
		char rec[64];
		int len = snprintf(rec + 1, sizeof(rec) - 1, "%ld 2\n", count);

		rec[0] = '\0';
		gm_buf_puts(b, "TREE");
		put_be(b, (uint32_t)(len + 1 + (count >= 0 ? 20 : 0)), 4);
		gm_buf_put(b, rec, (size_t)len + 1);
		if (count >= 0)
			put_id(b, tree_byte);
	}
	put_id(b, 0);		/* the trailing checksum, not read */
}

static git_oid the_tree(void)
{
	git_oid id;

	memset(id.id, tree_byte, sizeof(id.id));
	return id;
}

static int find(const struct gm_buf *b, const char *name,
		struct gm_index_file **out, size_t *nr)
{
	git_oid tree = the_tree();

	return gm_index_find((const unsigned char *)b->ptr, b->len, &tree,
			     name, out, nr);
}

static const struct ix_entry sample[] = {
	{ "MAINTAINERS", 0, 0, 0 },
	{ "a/MAINTAINERS", 0100755, 0, 0 },
	{ "a/XMAINTAINERS", 0, 0, 0 },
	{ "b/MAINTAINERS/x", 0, 0, 0 },
	{ "b/c/MAINTAINERS", 0120000, 0, 0 },
	{ "d/MAINTAINERS", 0160000, 0, 0 },
};

/* Every version finds the same files, with their ids and modes. */
START_TEST(test_index_versions)
{
	static const char *const want[] = {
		"MAINTAINERS", "a/MAINTAINERS", "b/c/MAINTAINERS", "d/MAINTAINERS",
	};
	static const unsigned char want_id[] = { 1, 2, 5, 6 };
	static const uint32_t want_mode[] = { 0100644, 0100755, 0120000,
					      0160000 };
	unsigned version = 2 + (unsigned)_i;
	struct gm_buf b = GM_BUF_INIT;
	struct gm_index_file *f = NULL;
	size_t nr = 0;

	build(&b, version, sample, ARRAY_SIZE(sample), ARRAY_SIZE(sample),
	      NULL);
	ck_assert_int_eq(find(&b, "MAINTAINERS", &f, &nr), 0);
	ck_assert_uint_eq(nr, ARRAY_SIZE(want));
	for (size_t i = 0; i < nr; i++) {
		ck_assert_str_eq(f[i].path, want[i]);
		ck_assert_uint_eq(f[i].id.id[0], want_id[i]);
		ck_assert_uint_eq(f[i].id.id[19], want_id[i]);
		ck_assert_uint_eq(f[i].mode, want_mode[i]);
	}
	gm_index_files_free(f, nr);
	gm_buf_release(&b);
}
END_TEST

/*
 * A path longer than the flags' 12 bits can say; after it, version 4
 * cuts more than a varint byte holds.
 */
START_TEST(test_index_long_path)
{
	struct gm_buf path = GM_BUF_INIT, b = GM_BUF_INIT;
	struct gm_index_file *f = NULL;
	struct ix_entry e[3] = { { "a", 0, 0, 0 }, { NULL, 0, 0, 0 },
				 { "e/MAINTAINERS", 0, 0, 0 } };
	size_t nr = 0;

	for (int i = 0; i < 700; i++)
		gm_buf_puts(&path, "dir/");
	gm_buf_puts(&path, "MAINTAINERS");
	e[1].path = path.ptr;
	for (unsigned version = 2; version <= 4; version++) {
		build(&b, version, e, 3, 3, NULL);
		ck_assert_int_eq(find(&b, "MAINTAINERS", &f, &nr), 0);
		ck_assert_uint_eq(nr, 2);
		ck_assert_str_eq(f[0].path, path.ptr);
		ck_assert_str_eq(f[1].path, "e/MAINTAINERS");
		gm_index_files_free(f, nr);
	}
	gm_buf_release(&path);
	gm_buf_release(&b);
}
END_TEST

/* An entry added with intent-to-add is no file of the tree. */
START_TEST(test_index_intent_to_add_left_out)
{
	static const struct ix_entry e[] = {
		{ "MAINTAINERS", 0, 0, 1 }, { "x/MAINTAINERS", 0, 0, 0 },
	};
	struct gm_buf b = GM_BUF_INIT;
	struct gm_index_file *f = NULL;
	size_t nr = 0;

	build(&b, 3, e, 2, 2, NULL);
	ck_assert_int_eq(find(&b, "MAINTAINERS", &f, &nr), 0);
	ck_assert_uint_eq(nr, 1);
	ck_assert_str_eq(f[0].path, "x/MAINTAINERS");
	gm_index_files_free(f, nr);
	build(&b, 2, e, 2, 2, NULL);	/* no extended flags before v3 */
	ck_assert_int_eq(find(&b, "MAINTAINERS", &f, &nr), GM_ENOTFOUND);
	gm_buf_release(&b);
}
END_TEST

/* The cases where the index cannot stand for the tree. */
static const struct {
	const char *what;
	const struct ix_entry *e;
	size_t n;
	long count;
	const char *ext;
} refused[] = {
	{ "no cache-tree", sample, 6, -2, NULL },
	{ "cache-tree not known", sample, 6, -1, NULL },
	{ "cache-tree of fewer entries", sample, 6, 5, NULL },
	{ "split index", sample, 6, 6, "link" },
	{ "sparse index", sample, 6, 6, "sdir" },
	{ "unmerged entry", (const struct ix_entry[]){ { "MAINTAINERS", 0, 2, 0 } },
	  1, 1, NULL },
	{ "sparse directory", (const struct ix_entry[]){ { "d/", 040000, 0, 0 } },
	  1, 1, NULL },
};

START_TEST(test_index_refused)
{
	struct gm_buf b = GM_BUF_INIT;
	struct gm_index_file *f = NULL;
	size_t nr = 7;

	build(&b, 2, refused[_i].e, refused[_i].n, refused[_i].count,
	      refused[_i].ext);
	ck_assert_msg(find(&b, "MAINTAINERS", &f, &nr) == GM_ENOTFOUND,
		      "%s", refused[_i].what);
	ck_assert_ptr_null(f);
	ck_assert_uint_eq(nr, 0);
	gm_buf_release(&b);
}
END_TEST

/* An optional extension is passed over; another tree is not this one. */
START_TEST(test_index_optional_extension_and_other_tree)
{
	struct gm_buf b = GM_BUF_INIT;
	struct gm_index_file *f = NULL;
	git_oid other = the_tree();
	size_t nr = 0;

	build(&b, 2, sample, 6, 6, "ZZZZ");
	ck_assert_int_eq(find(&b, "MAINTAINERS", &f, &nr), 0);
	ck_assert_uint_eq(nr, 4);
	gm_index_files_free(f, nr);
	other.id[7] ^= 1;
	ck_assert_int_eq(gm_index_find((const unsigned char *)b.ptr, b.len,
				       &other, "MAINTAINERS", &f, &nr),
			 GM_ENOTFOUND);
	gm_buf_release(&b);
}
END_TEST

/* Cut short anywhere, or with a byte changed anywhere: no crash, no lie. */
START_TEST(test_index_damaged)
{
	struct gm_buf b = GM_BUF_INIT;
	unsigned version = 2 + (unsigned)_i;

	build(&b, version, sample, 6, 6, NULL);
	for (size_t len = 0; len < b.len; len++) {
		struct gm_index_file *f = NULL;
		size_t nr = 0;
		char *cut = malloc(len ? len : 1);
		int error;

		memcpy(cut, b.ptr, len);	/* exact size: ASan sees overreads */
		error = gm_index_find((const unsigned char *)cut, len,
				      &(git_oid){ { 0 } }, "MAINTAINERS",
				      &f, &nr);
		ck_assert_int_eq(error, GM_ENOTFOUND);
		free(cut);
	}
	for (size_t at = 0; at + 20 < b.len; at++) {
		struct gm_index_file *f = NULL;
		git_oid tree = the_tree();
		size_t nr = 0;
		char saved = b.ptr[at];

		b.ptr[at] = (char)(saved ^ 0x5a);
		if (gm_index_find((const unsigned char *)b.ptr, b.len, &tree,
				  "MAINTAINERS", &f, &nr) == 0)
			ck_assert_uint_le(nr, 6);
		gm_index_files_free(f, nr);
		b.ptr[at] = saved;
	}
	gm_buf_release(&b);
}
END_TEST

/* ==================== indexes written by git ==================== */

static int sh(const char *dir, const char *cmd)
{
	struct gm_buf line = GM_BUF_INIT;
	int status;

	gm_buf_printf(&line, "cd '%s' && { %s ; } >/dev/null 2>&1", dir, cmd);
	status = system(line.ptr);
	gm_buf_release(&line);
	return status;
}

/* What gm_index_find() makes of the repository's index, joined by ' '. */
static char *found_in(const char *dir)
{
	struct gm_buf path = GM_BUF_INIT, data = GM_BUF_INIT, list = GM_BUF_INIT;
	struct gm_index_file *f = NULL;
	git_repository *repo = NULL;
	git_object *tree = NULL;
	size_t nr = 0;
	int error;

	gm_buf_printf(&path, "%s/.git/index", dir);
	ck_assert_int_eq(gm_buf_read_file(&data, path.ptr), 0);
	ck_assert_int_eq(git_repository_open(&repo, dir), 0);
	ck_assert_int_eq(git_revparse_single(&tree, repo, "HEAD^{tree}"), 0);
	error = gm_index_find((const unsigned char *)data.ptr, data.len,
			      git_object_id(tree), "MAINTAINERS", &f, &nr);
	if (error)
		gm_buf_printf(&list, "(%d)", error);
	for (size_t i = 0; i < nr; i++)
		gm_buf_printf(&list, "%s%s", i ? " " : "", f[i].path);
	gm_index_files_free(f, nr);
	git_object_free(tree);
	git_repository_free(repo);
	gm_buf_release(&path);
	gm_buf_release(&data);
	return gm_buf_detach(&list, NULL);
}

static void assert_found(const char *dir, const char *want)
{
	char *got = found_in(dir);

	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(test_index_written_by_git)
{
	char *dir = gm_test_tmpdir();
	const char *all = "MAINTAINERS a/b/MAINTAINERS z/MAINTAINERS";

	ck_assert_ptr_nonnull(dir);
	ck_assert_int_eq(sh(dir,
		"git init -q . && git config user.name T && "
		"git config user.email t@x && mkdir -p a/b z && "
		"echo M > MAINTAINERS && echo N > a/b/MAINTAINERS && "
		"echo O > z/MAINTAINERS && echo x > a/MAINTAINERS.txt && "
		"git add . && git commit -q -m one"), 0);
	assert_found(dir, all);
	ck_assert_int_eq(sh(dir, "git update-index --index-version 4"), 0);
	assert_found(dir, all);
	ck_assert_int_eq(sh(dir, "git update-index --index-version 3 && "
			    "echo y > new && git add -N new"), 0);
	assert_found(dir, "(-3)");	/* intent-to-add: not known */
	ck_assert_int_eq(sh(dir, "git rm -q --cached new && "
			    "git read-tree HEAD"), 0);
	assert_found(dir, all);
	ck_assert_int_eq(sh(dir, "echo M2 > MAINTAINERS && git add MAINTAINERS"),
			 0);
	assert_found(dir, "(-3)");	/* staged: another tree */
	ck_assert_int_eq(sh(dir, "git commit -q -m two"), 0);
	assert_found(dir, all);
	ck_assert_int_eq(sh(dir, "git update-index --split-index"), 0);
	assert_found(dir, "(-3)");
	gm_test_rmtree(dir);
}
END_TEST

Suite *index_suite(void)
{
	Suite *s = suite_create("index");
	TCase *tc = tcase_create("index");

	tcase_add_loop_test(tc, test_index_versions, 0, 3);
	tcase_add_test(tc, test_index_long_path);
	tcase_add_test(tc, test_index_intent_to_add_left_out);
	tcase_add_loop_test(tc, test_index_refused, 0, (int)ARRAY_SIZE(refused));
	tcase_add_test(tc, test_index_optional_extension_and_other_tree);
	tcase_add_loop_test(tc, test_index_damaged, 0, 3);
	tcase_add_test(tc, test_index_written_by_git);
	suite_add_tcase(s, tc);
	return s;
}
