#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/repo.h"

#include "gm_tests.h"
#include "gm_testutil.h"

static const struct gm_test_file old_files[] = {
	{ "MAINTAINERS", "OLD\nM:\tOld <old@x.org>\nF:\t*\n", 0 },
	{ "README", "one\n", 0 },
	{ "a/b/c.txt", "c1\n", 0 },
};

static const struct gm_test_file new_files[] = {
	{ "MAINTAINERS", "NEW\nM:\tNew <new@x.org>\nF:\t*\n", 0 },
	{ "README", "two\n", 0 },
	{ "a/top.txt", "top\n", 0 },
	{ "a/b/c.txt", "c2\n", 0 },
	{ "a/b/d.txt", "d\n", 0 },
	{ "a/.hid", "hidden\n", 0 },
	{ ".hidden", "hidden\n", 0 },
	{ ".dot/MAINTAINERS", "DOT\n", 0 },
	{ "sub/MAINTAINERS", "SUB\n", 0 },
	{ "sub/deeper/MAINTAINERS", "DEEPER\n", 0 },
	{ "src/x.c", "int x;\n", 0 },
	{ "link", "README", GIT_FILEMODE_LINK },
};

static const struct gm_test_commit history[] = {
	{ "old\n", 1700000000, old_files, ARRAY_SIZE(old_files) },
	{ "new\n", 1700003600, new_files, ARRAY_SIZE(new_files) },
};

static char *repo_dir, *outside_dir;
static char head_id[GIT_OID_HEXSZ + 1];
static int saved_cwd = -1;

/* Unchecked: built once per TCase, in the parent; read-only in tests. */
static void repo_setup(void)
{
	ck_assert_int_eq(gm_test_repo_create(&repo_dir, head_id, history,
					     ARRAY_SIZE(history)), 0);
	outside_dir = gm_test_tmpdir();
	ck_assert_ptr_nonnull(outside_dir);
}

static void repo_teardown(void)
{
	gm_test_rmtree(repo_dir);
	gm_test_rmtree(outside_dir);
	repo_dir = outside_dir = NULL;
}

/* Checked: every test may chdir; put the process back afterwards. */
static void cwd_save(void)
{
	saved_cwd = open(".", O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(saved_cwd, 0);
}

static void cwd_restore(void)
{
	if (saved_cwd >= 0) {
		if (fchdir(saved_cwd) < 0)
			perror("fchdir");
		close(saved_cwd);
	}
	saved_cwd = -1;
	gm_test_hermetic_env();
}

static void enter(const char *sub)
{
	struct gm_buf path = GM_BUF_INIT;

	gm_buf_printf(&path, "%s%s%s", repo_dir, *sub ? "/" : "", sub);
	ck_assert_int_eq(chdir(path.ptr), 0);
	gm_buf_release(&path);
}

static struct gm_repo *open_at(const char *sub, const char *rev)
{
	struct gm_repo *r = NULL;

	enter(sub);
	ck_assert_msg(gm_test_repo_open(&r, rev) == 0, "open: %s", gm_error_last());
	ck_assert_ptr_nonnull(r);
	return r;
}

/* The current directory below the top, as "." given on the command line reads. */
static void assert_prefix(struct gm_repo *r, const char *want)
{
	struct gm_buf b = GM_BUF_INIT;

	ck_assert_int_eq(gm_repo_relative(r, ".", &b), 0);
	ck_assert_str_eq(b.ptr ? b.ptr : "", want);
	gm_buf_release(&b);
}

static void assert_read(struct gm_repo *r, const char *path, const char *want)
{
	struct gm_buf b = GM_BUF_INIT;

	ck_assert_int_eq(gm_repo_read(r, path, &b), 0);
	ck_assert_str_eq(b.ptr, want);
	gm_buf_release(&b);
}

/* ==================== opening ==================== */

START_TEST(test_repo_open_head)
{
	struct gm_repo *r = open_at("", NULL);
	struct gm_buf top = GM_BUF_INIT;
	char id[GIT_OID_HEXSZ + 1];

	gm_buf_printf(&top, "%s/", repo_dir);
	ck_assert_pstr_eq(gm_repo_workdir(r), top.ptr);
	assert_prefix(r, "");
	git_oid_tostr(id, sizeof(id), gm_repo_commit_id(r));
	ck_assert_str_eq(id, head_id);
	assert_read(r, "MAINTAINERS", "NEW\nM:\tNew <new@x.org>\nF:\t*\n");
	gm_buf_release(&top);
	gm_repo_free(r);
	gm_repo_free(NULL);
}
END_TEST

START_TEST(test_repo_open_rev)
{
	struct gm_repo *r = open_at("", "HEAD~1");

	assert_read(r, "MAINTAINERS", "OLD\nM:\tOld <old@x.org>\nF:\t*\n");
	assert_read(r, "README", "one\n");
	ck_assert_int_eq(gm_repo_kind(r, "src"), GM_REPO_NONE);
	gm_repo_free(r);

	r = open_at("", head_id);
	assert_read(r, "README", "two\n");
	gm_repo_free(r);

	r = open_at("", "master");
	assert_read(r, "README", "two\n");
	gm_repo_free(r);
}
END_TEST

START_TEST(test_repo_open_bad_rev)
{
	struct gm_repo *r = NULL;

	enter("");
	ck_assert_int_eq(gm_test_repo_open(&r, "no-such-rev"), GM_ENOTFOUND);
	ck_assert_ptr_null(r);
	ck_assert_str_ne(gm_error_last(), "");
	ck_assert_int_eq(gm_test_repo_open(&r, "HEAD~5"), GM_ENOTFOUND);
	ck_assert_ptr_null(r);
	/* a tree is not a commit */
	ck_assert_int_eq(gm_test_repo_open(&r, "HEAD^{tree}"), GM_ENOTFOUND);
	ck_assert_ptr_null(r);
}
END_TEST

START_TEST(test_repo_open_not_a_repo)
{
	struct gm_repo *r = NULL;

	setenv("GIT_CEILING_DIRECTORIES", "/tmp", 1);
	ck_assert_int_eq(chdir(outside_dir), 0);
	ck_assert_int_eq(gm_test_repo_open(&r, NULL), GM_ENOTFOUND);
	ck_assert_ptr_null(r);
	ck_assert_ptr_nonnull(strstr(gm_error_last(), "not a git repository"));
}
END_TEST

START_TEST(test_repo_open_unborn_head)
{
	struct gm_repo *r = NULL;
	char *dir = NULL;

	ck_assert_int_eq(gm_test_repo_create(&dir, NULL, NULL, 0), 0);
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(gm_test_repo_open(&r, NULL), GM_ENOTFOUND);
	ck_assert_ptr_null(r);
	ck_assert_int_eq(gm_test_repo_open(&r, "HEAD"), GM_ENOTFOUND);
	ck_assert_ptr_null(r);
	gm_test_rmtree(dir);
}
END_TEST

START_TEST(test_repo_open_from_subdirectory)
{
	struct gm_repo *r = open_at("a/b", NULL);
	struct gm_buf top = GM_BUF_INIT;

	gm_buf_printf(&top, "%s/", repo_dir);
	ck_assert_pstr_eq(gm_repo_workdir(r), top.ptr);
	assert_prefix(r, "a/b");
	/* paths stay relative to the top */
	assert_read(r, "MAINTAINERS", "NEW\nM:\tNew <new@x.org>\nF:\t*\n");
	gm_buf_release(&top);
	gm_repo_free(r);

	r = open_at("a", NULL);
	assert_prefix(r, "a");
	gm_repo_free(r);
}
END_TEST

START_TEST(test_repo_open_git_dir_env)
{
	struct gm_buf gitdir = GM_BUF_INIT;
	struct gm_repo *r = NULL;
	int error;

	/* as git does: GIT_DIR names the repository, wherever we are */
	gm_buf_printf(&gitdir, "%s/.git", repo_dir);
	setenv("GIT_DIR", gitdir.ptr, 1);
	gm_buf_release(&gitdir);
	setenv("GIT_CEILING_DIRECTORIES", "/tmp", 1);
	ck_assert_int_eq(chdir(outside_dir), 0);
	error = gm_test_repo_open(&r, NULL);
	ck_assert_msg(error == 0, "%s", gm_error_last());
	assert_read(r, "README", "two\n");
	gm_repo_free(r);
	unsetenv("GIT_DIR");
}
END_TEST

START_TEST(test_repo_reads_commit_not_work_tree)
{
	static const struct gm_test_file files[] = {
		{ "MAINTAINERS", "COMMITTED\n", 0 },
	};
	static const struct gm_test_commit one[] = {
		{ "one\n", 1700000000, files, 1 },
	};
	struct gm_repo *r = NULL;
	char *dir = NULL;

	ck_assert_int_eq(gm_test_repo_create(&dir, NULL, one, 1), 0);
	ck_assert_int_eq(gm_test_write_file(dir, "MAINTAINERS", "DIRTY\n"), 0);
	ck_assert_int_eq(gm_test_write_file(dir, "untracked", "x\n"), 0);
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(gm_test_repo_open(&r, NULL), 0);
	assert_read(r, "MAINTAINERS", "COMMITTED\n");
	ck_assert_int_eq(gm_repo_kind(r, "untracked"), GM_REPO_NONE);
	gm_repo_free(r);
	gm_test_rmtree(dir);
}
END_TEST

/*
 * A file's text is its blob's, whatever the work tree holds: the same
 * bytes, a changed file of the same size, no file, a symlink to the
 * right bytes.
 */
START_TEST(test_repo_text_is_the_blob)
{
	static const struct gm_test_file files[] = {
		{ "MAINTAINERS", "M\n", 0 },
		{ "same.txt", "same bytes\n", 0 },
		{ "dirty.txt", "committed\n", 0 },
		{ "gone.txt", "gone\n", 0 },
		{ "linked.txt", "target\n", 0 },
	};
	static const struct gm_test_commit one[] = {
		{ "one\n", 1700000000, files, ARRAY_SIZE(files) },
	};
	static const struct {
		const char *path, *want;
	} cases[] = {
		{ "same.txt", "same bytes\n" },
		{ "dirty.txt", "committed\n" },
		{ "gone.txt", "gone\n" },
		{ "linked.txt", "target\n" },
	};
	struct gm_buf path = GM_BUF_INIT;
	struct gm_repo *r = NULL;
	char *dir = NULL;

	ck_assert_int_eq(gm_test_repo_create(&dir, NULL, one, 1), 0);
	ck_assert_int_eq(gm_test_write_file(dir, "dirty.txt", "commitXed\n"), 0);
	ck_assert_int_eq(gm_test_write_file(dir, "t", "target\n"), 0);
	gm_buf_printf(&path, "%s/gone.txt", dir);
	ck_assert_int_eq(unlink(path.ptr), 0);
	gm_buf_reset(&path);
	gm_buf_printf(&path, "%s/linked.txt", dir);
	ck_assert_int_eq(unlink(path.ptr), 0);
	ck_assert_int_eq(symlink("t", path.ptr), 0);
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(gm_test_repo_open(&r, NULL), 0);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct gm_repo_text t = GM_REPO_TEXT_INIT;

		ck_assert_int_eq(gm_repo_text(r, cases[i].path, NULL, &t), 0);
		ck_assert_uint_eq(t.len, strlen(cases[i].want));
		ck_assert_str_eq(t.ptr, cases[i].want);
		ck_assert_msg(t.blob != NULL, "%s not read from its blob",
			      cases[i].path);
		gm_repo_text_release(&t);
	}
	gm_buf_release(&path);
	gm_repo_free(r);
	gm_test_rmtree(dir);
}
END_TEST

START_TEST(test_repo_ids_are_stable)
{
	char other[GIT_OID_HEXSZ + 1];
	char *dir = NULL;

	/* fixed identities and times: the same commits, the same ids */
	ck_assert_int_eq(gm_test_repo_create(&dir, other, history,
					     ARRAY_SIZE(history)), 0);
	ck_assert_str_eq(other, head_id);
	ck_assert_uint_eq(strlen(head_id), GIT_OID_HEXSZ);
	gm_test_rmtree(dir);
}
END_TEST

/* ==================== the tree ==================== */

struct kind_case {
	const char *path;
	enum gm_repo_kind kind;
};

static const struct kind_case kind_cases[] = {
	{ "README", GM_REPO_BLOB },
	{ "a", GM_REPO_TREE },
	{ "a/b", GM_REPO_TREE },
	{ "a/b/c.txt", GM_REPO_BLOB },
	{ "a/b/c.txt/x", GM_REPO_NONE },
	{ "link", GM_REPO_BLOB },
	{ ".hidden", GM_REPO_BLOB },
	{ "nope", GM_REPO_NONE },
	{ "a/nope", GM_REPO_NONE },
	{ "", GM_REPO_NONE },
};

START_TEST(test_repo_kind_table)
{
	const struct kind_case *c = &kind_cases[_i];
	struct gm_repo *r = open_at("", NULL);

	ck_assert_msg(gm_repo_kind(r, c->path) == c->kind, "row %d '%s'", _i,
		      c->path);
	gm_repo_free(r);
}
END_TEST

START_TEST(test_repo_read_kinds)
{
	struct gm_repo *r = open_at("", NULL);
	struct gm_buf b = GM_BUF_INIT;

	gm_buf_puts(&b, ">");
	ck_assert_int_eq(gm_repo_read(r, "a/b/c.txt", &b), 0);
	ck_assert_str_eq(b.ptr, ">c2\n");		/* appended */
	gm_buf_reset(&b);
	ck_assert_int_eq(gm_repo_read(r, "missing", &b), GM_ENOTFOUND);
	ck_assert_int_eq(gm_repo_read(r, "a/missing", &b), GM_ENOTFOUND);
	ck_assert_int_eq(gm_repo_read(r, "a", &b), GM_EINVALID);
	ck_assert_int_eq(gm_repo_read(r, "link", &b), GM_EINVALID);
	ck_assert_str_eq(b.ptr, "");
	gm_buf_release(&b);
	gm_repo_free(r);
}
END_TEST

static char *list(struct gm_repo *r, const char *dir, const char *name,
		  int *error)
{
	struct gm_strvec sv = GM_STRVEC_INIT;
	char *joined;

	if (name) {
		struct gm_repo_file *files = NULL;
		size_t nr = 0;

		*error = gm_repo_find(r, dir, name, &files, &nr);
		for (size_t i = 0; i < nr; i++)
			gm_strvec_push(&sv, files[i].path);
		gm_repo_files_free(files, nr);
	} else {
		*error = gm_repo_list(r, dir, &sv);
	}
	joined = gm_test_join(&sv, ",");
	gm_strvec_release(&sv);
	return joined;
}

START_TEST(test_repo_list_top)
{
	struct gm_repo *r = open_at("", NULL);
	char *got;
	int error;

	/* sorted, dot-entries skipped, directories with their '/' */
	got = list(r, "", NULL, &error);
	ck_assert_int_eq(error, 0);
	ck_assert_str_eq(got, "MAINTAINERS,README,a/,link,src/,sub/");
	free(got);
	got = list(r, "a", NULL, &error);
	ck_assert_int_eq(error, 0);
	ck_assert_str_eq(got, "a/b/,a/top.txt");
	free(got);
	got = list(r, "a/b", NULL, &error);
	ck_assert_str_eq(got, "a/b/c.txt,a/b/d.txt");
	free(got);
	gm_repo_free(r);
}
END_TEST

START_TEST(test_repo_list_recursive)
{
	struct gm_repo *r = open_at("", NULL);
	char *got;
	int error;

	/* --find-maintainer-files: every file of that name, any depth */
	got = list(r, "", "MAINTAINERS", &error);
	ck_assert_int_eq(error, 0);
	ck_assert_str_eq(got, ".dot/MAINTAINERS,MAINTAINERS,sub/MAINTAINERS,"
			 "sub/deeper/MAINTAINERS");
	free(got);
	got = list(r, "sub", "MAINTAINERS", &error);
	ck_assert_int_eq(error, 0);
	ck_assert_str_eq(got, "sub/MAINTAINERS,sub/deeper/MAINTAINERS");
	free(got);
	got = list(r, "a", "MAINTAINERS", &error);
	ck_assert_int_eq(error, 0);
	ck_assert_str_eq(got, "");
	free(got);
	gm_repo_free(r);
}
END_TEST

/* Every file of the tree, dot-files and symlinks too, in byte order. */
START_TEST(test_repo_files_all)
{
	struct gm_repo *r = open_at("a", NULL);
	struct gm_strvec sv = GM_STRVEC_INIT;
	char *got;

	ck_assert_int_eq(gm_repo_files(r, &sv), 0);
	got = gm_test_join(&sv, ",");
	ck_assert_str_eq(got, ".dot/MAINTAINERS,.hidden,MAINTAINERS,README,"
			 "a/.hid,a/b/c.txt,a/b/d.txt,a/top.txt,link,src/x.c,"
			 "sub/MAINTAINERS,sub/deeper/MAINTAINERS");
	free(got);
	gm_strvec_release(&sv);
	gm_repo_free(r);
}
END_TEST

/* gm_repo_find() gives each file's content, and says no to a non-file. */
START_TEST(test_repo_find_texts)
{
	struct gm_repo *r = open_at("", NULL);
	struct gm_repo_file *files = NULL;
	size_t nr = 0;

	ck_assert_int_eq(gm_repo_find(r, "sub", "MAINTAINERS", &files, &nr), 0);
	ck_assert_uint_eq(nr, 2);
	ck_assert_str_eq(files[0].path, "sub/MAINTAINERS");
	ck_assert_str_eq(files[0].text.ptr, "SUB\n");
	ck_assert_str_eq(files[1].path, "sub/deeper/MAINTAINERS");
	ck_assert_str_eq(files[1].text.ptr, "DEEPER\n");
	gm_repo_files_free(files, nr);
	/* the symlink "link" is no regular file */
	ck_assert_int_eq(gm_repo_find(r, "", "link", &files, &nr), GM_EINVALID);
	ck_assert_uint_eq(nr, 0);
	ck_assert_int_eq(gm_repo_find(r, "README", "x", &files, &nr),
			 GM_ENOTFOUND);
	gm_repo_free(r);
}
END_TEST

/* Enough directories that both workers take some; all found, in order. */
/* "path=text;" for each file found, or "(error)". */
static char *found_files(const char *dir, const char *name)
{
	struct gm_buf out = GM_BUF_INIT;
	struct gm_repo_file *files = NULL;
	struct gm_repo *r = NULL;
	size_t nr = 0;
	int error;

	ck_assert_int_eq(gm_test_repo_open(&r, NULL), 0);
	if ((error = gm_repo_find(r, dir, name, &files, &nr)) < 0)
		gm_buf_printf(&out, "(%d)", error);
	for (size_t i = 0; i < nr; i++)
		gm_buf_printf(&out, "%s=%s;", files[i].path, files[i].text.ptr);
	gm_repo_files_free(files, nr);
	gm_repo_free(r);
	return gm_buf_detach(&out, NULL);
}

/*
 * In the index file `path`, give the entry of `from` the blob id of `to`
 * (HEAD's), leaving its cache-tree as it was: what the index says is
 * then seen only if it is read.
 */
static void index_swap_blob(const char *path, const char *from, const char *to)
{
	struct gm_buf data = GM_BUF_INIT;
	struct gm_repo_entry a, b;
	struct gm_repo *r = NULL;
	char *at;
	FILE *f;

	ck_assert_int_eq(gm_test_repo_open(&r, NULL), 0);
	ck_assert_int_eq(gm_repo_lookup(r, from, &a), 0);
	ck_assert_int_eq(gm_repo_lookup(r, to, &b), 0);
	ck_assert_int_eq(gm_buf_read_file(&data, path), 0);
	for (at = data.ptr; at + sizeof(a.id.id) <= data.ptr + data.len &&
	     memcmp(at, a.id.id, sizeof(a.id.id)); at++)
		;
	ck_assert(at + sizeof(a.id.id) <= data.ptr + data.len);
	memcpy(at, b.id.id, sizeof(b.id.id));
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	ck_assert_uint_eq(fwrite(data.ptr, 1, data.len, f), data.len);
	ck_assert_int_eq(fclose(f), 0);
	gm_buf_release(&data);
	gm_repo_free(r);
}

/*
 * With an index that stands for HEAD's tree the files are found in it;
 * without one, by reading the trees: the same files either way.
 */
START_TEST(test_repo_find_index_or_trees)
{
	static const char *const cases[][2] = {
		{ "", "MAINTAINERS" }, { "sub", "MAINTAINERS" },
		{ "", "link" }, { "a", "c.txt" },
	};
	struct gm_buf index = GM_BUF_INIT, cmd = GM_BUF_INIT;
	char *dir = NULL, *got, *with[ARRAY_SIZE(cases)];

	ck_assert_int_eq(gm_test_repo_create(&dir, NULL, history,
					     ARRAY_SIZE(history)), 0);
	gm_buf_printf(&cmd, "cd '%s' && git read-tree HEAD", dir);
	ck_assert_int_eq(system(cmd.ptr), 0);	/* an index with a cache-tree */
	ck_assert_int_eq(chdir(dir), 0);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		with[i] = found_files(cases[i][0], cases[i][1]);
	ck_assert_str_eq(with[0], ".dot/MAINTAINERS=DOT\n;"
			 "MAINTAINERS=NEW\nM:\tNew <new@x.org>\nF:\t*\n;"
			 "sub/MAINTAINERS=SUB\n;sub/deeper/MAINTAINERS=DEEPER\n;");
	gm_buf_printf(&index, "%s/.git/index", dir);
	index_swap_blob(index.ptr, "MAINTAINERS", "README");
	got = found_files("", "MAINTAINERS");	/* the index was read */
	ck_assert_str_eq(got, ".dot/MAINTAINERS=DOT\n;MAINTAINERS=two\n;"
			 "sub/MAINTAINERS=SUB\n;sub/deeper/MAINTAINERS=DEEPER\n;");
	free(got);
	ck_assert_int_eq(unlink(index.ptr), 0);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *without = found_files(cases[i][0], cases[i][1]);

		ck_assert_str_eq(with[i], without);
		free(without);
	}
	/* the same read from the packs (pack.c) */
	ck_assert_int_eq(system("git repack -adq >/dev/null 2>&1"), 0);
	ck_assert_int_eq(system("test -n \"$(ls .git/objects/pack/*.idx)\" && "
				"test -z \"$(ls .git/objects | grep '^..$')\""),
			 0);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *packed = found_files(cases[i][0], cases[i][1]);

		ck_assert_str_eq(with[i], packed);
		free(packed);
		free(with[i]);
	}
	gm_buf_release(&index);
	gm_buf_release(&cmd);
	gm_test_rmtree(dir);
}
END_TEST

START_TEST(test_repo_find_many)
{
	enum { DIRS = 300 };
	struct gm_test_file *files = calloc(2 * DIRS, sizeof(*files));
	struct gm_test_commit one = { "many\n", 1700000000, files, 2 * DIRS };
	struct gm_repo_file *found = NULL;
	char *dir = NULL, id[GIT_OID_HEXSZ + 1], want[64];
	struct gm_repo *r = NULL;
	size_t nr = 0;

	ck_assert_ptr_nonnull(files);
	for (size_t i = 0; i < DIRS; i++) {
		char *path = malloc(64), *other = malloc(64);

		ck_assert_ptr_nonnull(path);
		ck_assert_ptr_nonnull(other);
		snprintf(path, 64, "d%03zu/e%zu/MAINTAINERS", i, i % 7);
		snprintf(other, 64, "d%03zu/other.c", i);
		files[2 * i] = (struct gm_test_file){ path, path, 0 };
		files[2 * i + 1] = (struct gm_test_file){ other, "x\n", 0 };
	}
	ck_assert_int_eq(gm_test_repo_create(&dir, id, &one, 1), 0);
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(gm_test_repo_open(&r, NULL), 0);
	ck_assert_int_eq(gm_repo_find(r, "", "MAINTAINERS", &found, &nr), 0);
	ck_assert_uint_eq(nr, DIRS);
	for (size_t i = 0; i < DIRS; i++) {
		snprintf(want, sizeof(want), "d%03zu/e%zu/MAINTAINERS", i, i % 7);
		ck_assert_str_eq(found[i].path, want);
		ck_assert_str_eq(found[i].text.ptr, want);	/* its own path */
	}
	gm_repo_files_free(found, nr);
	gm_repo_free(r);
	for (size_t i = 0; i < 2 * DIRS; i++)
		free((char *)files[i].path);
	free(files);
	gm_test_rmtree(dir);
}
END_TEST

START_TEST(test_repo_list_not_a_directory)
{
	struct gm_repo *r = open_at("", NULL);
	char *got;
	int error;

	got = list(r, "README", NULL, &error);
	ck_assert_int_eq(error, GM_ENOTFOUND);
	ck_assert_str_eq(got, "");
	free(got);
	got = list(r, "nope", "MAINTAINERS", &error);
	ck_assert_int_eq(error, GM_ENOTFOUND);
	free(got);
	gm_repo_free(r);
}
END_TEST

/* ==================== command-line paths ==================== */

struct relative_case {
	const char *cwd;	/* below the top */
	const char *arg;
	int error;
	const char *out;
};

static const struct relative_case relative_cases[] = {
	{ "", "README", 0, "README" },
	{ "", "./a/./b", 0, "a/b" },
	{ "", "a//b/", 0, "a/b" },
	{ "", "a/b/../top.txt", 0, "a/top.txt" },
	{ "", ".", 0, "" },
	{ "", "", 0, "" },
	{ "", "..", GM_EINVALID, NULL },
	{ "", "a/../..", GM_EINVALID, NULL },
	{ "a/b", "c.txt", 0, "a/b/c.txt" },
	{ "a/b", "./c.txt", 0, "a/b/c.txt" },
	{ "a/b", "../x", 0, "a/x" },
	{ "a/b", "../../README", 0, "README" },
	{ "a/b", ".", 0, "a/b" },
	{ "a/b", "sub/", 0, "a/b/sub" },
	{ "a/b", "../../..", GM_EINVALID, NULL },
	{ "a/b", "../../../x", GM_EINVALID, NULL },
	{ "", "/etc/passwd", GM_EINVALID, NULL },
	{ "", "/", GM_EINVALID, NULL },
};

START_TEST(test_repo_relative_table)
{
	const struct relative_case *c = &relative_cases[_i];
	struct gm_repo *r = open_at(c->cwd, NULL);
	struct gm_buf out = GM_BUF_INIT;
	int error;

	gm_buf_puts(&out, "stale");
	error = gm_repo_relative(r, c->arg, &out);
	ck_assert_msg(error == c->error, "row %d '%s' from '%s': %d", _i,
		      c->arg, c->cwd, error);
	if (c->out)
		ck_assert_str_eq(out.ptr, c->out);
	gm_buf_release(&out);
	gm_repo_free(r);
}
END_TEST

START_TEST(test_repo_relative_absolute)
{
	struct gm_repo *r = open_at("a", NULL);
	struct gm_buf arg = GM_BUF_INIT, out = GM_BUF_INIT;

	gm_buf_printf(&arg, "%s/src/x.c", repo_dir);
	ck_assert_int_eq(gm_repo_relative(r, arg.ptr, &out), 0);
	ck_assert_str_eq(out.ptr, "src/x.c");
	gm_buf_reset(&arg);
	gm_buf_printf(&arg, "%s", repo_dir);
	ck_assert_int_eq(gm_repo_relative(r, arg.ptr, &out), 0);
	ck_assert_str_eq(out.ptr, "");
	gm_buf_reset(&arg);
	gm_buf_printf(&arg, "%s/", repo_dir);
	ck_assert_int_eq(gm_repo_relative(r, arg.ptr, &out), 0);
	ck_assert_str_eq(out.ptr, "");
	/* a sibling directory whose name starts like the top's */
	gm_buf_reset(&arg);
	gm_buf_printf(&arg, "%sX/file", repo_dir);
	ck_assert_int_eq(gm_repo_relative(r, arg.ptr, &out), GM_EINVALID);
	gm_buf_release(&arg);
	gm_buf_release(&out);
	gm_repo_free(r);
}
END_TEST

/* ==================== git -c settings ==================== */

/* The environment of "git -c", and a key read under it. */
static const struct config_env_case {
	const char *params;	/* GIT_CONFIG_PARAMETERS, or NULL */
	const char *pairs[4];	/* GIT_CONFIG_KEY_0, _VALUE_0, _KEY_1, ... */
	const char *key;
} config_env_cases[] = {
	{ "'maintainer.format'='json'", { NULL }, "maintainer.format" },
	{ "'maintainer.format=json'", { NULL }, "maintainer.format" },
	{ "' maintainer.format =json'", { NULL }, "maintainer.format" },
	{ "'maintainer.format'='it'\\''s'", { NULL }, "maintainer.format" },
	{ "'maintainer.format'='a'\\!'b'", { NULL }, "maintainer.format" },
	{ "'Maintainer.FORMAT'='x'", { NULL }, "maintainer.format" },
	{ "'remote.Origin.url'='u'", { NULL }, "remote.Origin.url" },
	{ "'remote.Origin.url'='u'", { NULL }, "remote.origin.url" },
	{ "'a.b'='1'  'a.b'='2'", { NULL }, "a.b" },
	{ "'a.b'", { NULL }, "a.b" },
	{ "'a.b'= 'c.d'='x'", { NULL }, "a.b" },
	{ "'a.b'=''", { NULL }, "a.b" },
	{ "'maintainer.format=a=b'", { NULL }, "maintainer.format" },
	{ NULL, { "maintainer.format", "count" }, "maintainer.format" },
	{ NULL, { "a.b", "1", "A.B", "2" }, "a.b" },
	{ "'a.b'='params'", { "a.b", "count" }, "a.b" },
	{ NULL, { "a.b", "q\"u\\o;t#e  " }, "a.b" },
	{ NULL, { "a.x.Y.b", " lead\ttab\nnl\\n" }, "a.x.Y.b" },
	{ NULL, { "a.S\"u\\b.b", "1" }, "a.S\"u\\b.b" },
	{ NULL, { NULL }, "maintainer.format" },	/* the file's */
};

static void config_env_set(const struct config_env_case *c)
{
	size_t n = 0;

	unsetenv("GIT_CONFIG_PARAMETERS");
	unsetenv("GIT_CONFIG_COUNT");
	if (c->params)
		setenv("GIT_CONFIG_PARAMETERS", c->params, 1);
	for (size_t i = 0; i < 4 && c->pairs[i]; i += 2, n++) {
		char name[32], count[8];

		snprintf(name, sizeof(name), "GIT_CONFIG_KEY_%zu", n);
		setenv(name, c->pairs[i], 1);
		snprintf(name, sizeof(name), "GIT_CONFIG_VALUE_%zu", n);
		setenv(name, c->pairs[i + 1], 1);
		snprintf(count, sizeof(count), "%zu", n + 1);
		setenv("GIT_CONFIG_COUNT", count, 1);
	}
}

/* What `git config --get key` says here: its value, or NULL (none). */
static char *git_config_get(const char *key)
{
	struct gm_buf cmd = GM_BUF_INIT, out = GM_BUF_INIT;
	char line[256];
	FILE *p;

	gm_buf_printf(&cmd, "git config --get '%s' 2>/dev/null", key);
	p = popen(cmd.ptr, "r");
	ck_assert_ptr_nonnull(p);
	while (fgets(line, sizeof(line), p))
		gm_buf_puts(&out, line);
	gm_buf_release(&cmd);
	if (pclose(p) != 0) {
		gm_buf_release(&out);
		return NULL;
	}
	if (out.len && out.ptr[out.len - 1] == '\n')
		out.ptr[--out.len] = '\0';
	return gm_buf_detach(&out, NULL);
}

/* Each setting read as `git config --get` reads it, above .git/config. */
START_TEST(test_repo_config_env)
{
	const struct config_env_case *c = &config_env_cases[_i];
	struct gm_repo *r;
	char *ours = NULL, *want;
	int error;

	enter("");
	ck_assert_int_eq(system("git config maintainer.format text"), 0);
	config_env_set(c);
	want = git_config_get(c->key);
	r = open_at("", NULL);
	error = gm_repo_config_string(r, c->key, &ours);
	ck_assert_msg(want ? error == 0 : error == GM_ENOTFOUND,
		      "%s: git %s, ours %d", c->key, want ? want : "(none)",
		      error);
	if (want)
		ck_assert_str_eq(ours, want);
	free(ours);
	free(want);
	gm_repo_free(r);
	unsetenv("GIT_CONFIG_PARAMETERS");
	unsetenv("GIT_CONFIG_COUNT");
	ck_assert_int_eq(system("git config --unset maintainer.format"), 0);
}
END_TEST

/* A list git refuses is refused: no repository is opened. */
START_TEST(test_repo_config_env_bogus)
{
	static const char *const bogus[] = {
		"maintainer.format=json", "'maintainer.format", "'a.b'x",
		"'a.b'='x'y", "'nodot'='x'", "'a.b.'='x'", "'a.1b'='x'",
	};
	struct gm_repo *r = NULL;

	enter("");
	for (size_t i = 0; i < ARRAY_SIZE(bogus); i++) {
		setenv("GIT_CONFIG_PARAMETERS", bogus[i], 1);
		ck_assert_msg(system("git config --get a.b >/dev/null 2>&1") != 0,
			      "git takes %s", bogus[i]);
		ck_assert_msg(gm_test_repo_open(&r, NULL) < 0, "ours takes %s",
			      bogus[i]);
		ck_assert_ptr_null(r);
	}
	unsetenv("GIT_CONFIG_PARAMETERS");
	setenv("GIT_CONFIG_COUNT", "2", 1);
	setenv("GIT_CONFIG_KEY_0", "a.b", 1);
	setenv("GIT_CONFIG_VALUE_0", "1", 1);
	unsetenv("GIT_CONFIG_KEY_1");
	ck_assert_int_lt(gm_test_repo_open(&r, NULL), 0);
	ck_assert_str_eq(gm_error_last(), "missing config key GIT_CONFIG_KEY_1");
	unsetenv("GIT_CONFIG_COUNT");
}
END_TEST

/* A SHA-256 repository: one message naming its git directory. */
START_TEST(test_repo_open_sha256)
{
	struct gm_buf cmd = GM_BUF_INIT, want = GM_BUF_INIT;
	struct gm_repo *r = NULL;

	gm_buf_printf(&cmd, "cd '%s' && git init -q --object-format=sha256 s && "
		      "cd s && git commit -q --allow-empty -m x", outside_dir);
	if (system(cmd.ptr) != 0) {
		gm_buf_release(&cmd);
		gm_test_skip("repo: this git cannot make a SHA-256 repository");
		return;
	}
	gm_buf_reset(&cmd);
	gm_buf_printf(&cmd, "%s/s", outside_dir);
	ck_assert_int_eq(chdir(cmd.ptr), 0);
	ck_assert_int_eq(gm_test_repo_open(&r, NULL), GM_ERROR);
	gm_buf_printf(&want, "%s/s/.git: SHA-256 repositories "
		      "(extensions.objectformat=sha256) are not supported",
		      outside_dir);
	ck_assert_str_eq(gm_error_last(), want.ptr);
	gm_buf_release(&cmd);
	gm_buf_release(&want);
}
END_TEST

Suite *repo_suite(void)
{
	Suite *s = suite_create("repo");
	TCase *open = tcase_create("open");
	TCase *tree = tcase_create("tree");

	tcase_add_unchecked_fixture(open, repo_setup, repo_teardown);
	tcase_add_checked_fixture(open, cwd_save, cwd_restore);
	tcase_add_test(open, test_repo_open_head);
	tcase_add_test(open, test_repo_open_rev);
	tcase_add_test(open, test_repo_open_bad_rev);
	tcase_add_test(open, test_repo_open_not_a_repo);
	tcase_add_test(open, test_repo_open_unborn_head);
	tcase_add_test(open, test_repo_open_from_subdirectory);
	tcase_add_test(open, test_repo_open_git_dir_env);
	tcase_add_test(open, test_repo_reads_commit_not_work_tree);
	tcase_add_test(open, test_repo_text_is_the_blob);
	tcase_add_test(open, test_repo_ids_are_stable);
	tcase_add_loop_test(open, test_repo_config_env, 0,
			    (int)ARRAY_SIZE(config_env_cases));
	tcase_add_test(open, test_repo_config_env_bogus);
	tcase_add_test(open, test_repo_open_sha256);
	suite_add_tcase(s, open);

	tcase_add_unchecked_fixture(tree, repo_setup, repo_teardown);
	tcase_add_checked_fixture(tree, cwd_save, cwd_restore);
	tcase_add_loop_test(tree, test_repo_kind_table, 0,
			    (int)ARRAY_SIZE(kind_cases));
	tcase_add_test(tree, test_repo_read_kinds);
	tcase_add_test(tree, test_repo_list_top);
	tcase_add_test(tree, test_repo_list_recursive);
	tcase_add_test(tree, test_repo_find_texts);
	tcase_add_test(tree, test_repo_files_all);
	tcase_add_test(tree, test_repo_find_many);
	tcase_add_test(tree, test_repo_find_index_or_trees);
	tcase_add_test(tree, test_repo_list_not_a_directory);
	tcase_add_loop_test(tree, test_repo_relative_table, 0,
			    (int)ARRAY_SIZE(relative_cases));
	tcase_add_test(tree, test_repo_relative_absolute);
	suite_add_tcase(s, tree);
	return s;
}
