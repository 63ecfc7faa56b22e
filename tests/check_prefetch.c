#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gm/buf.h"
#include "gm/prefetch.h"
#include "gm/repo.h"
#include "gm/rules.h"

#include "gm_tests.h"
#include "gm_testutil.h"

static const struct gm_test_file files[] = {
	{ "MAINTAINERS", "ALPHA\nM:\tA <a@x.org>\nF:\tsrc/\n", 0 },
	{ "src/deep/x.c", "int x;\n", 0 },
};

static const struct gm_test_commit one[] = {
	{ "one\n", 1700000000, files, ARRAY_SIZE(files) },
};

static const char *argv0[] = { "git-maintainer", NULL };

/* A digest that keeps a copy of the bytes and counts what it frees. */
static int copies_freed;

static void *copy_make(const char *text, size_t len)
{
	char *copy = malloc(len + 1);

	if (copy) {
		memcpy(copy, text, len);
		copy[len] = '\0';
	}
	return copy;
}

static void copy_free(void *made)
{
	copies_freed++;
	free(made);
}

static const struct gm_prefetch_digest copy_digest = { copy_make, copy_free };
static const struct gm_prefetch_digest rules_digest = {
	gm_rules_digest, gm_rules_digest_free
};
static char *dir;
static int saved_cwd = -1;

static void setup(void)
{
	ck_assert_int_eq(gm_test_repo_create(&dir, NULL, one, 1), 0);
	saved_cwd = open(".", O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(saved_cwd, 0);
}

static void teardown(void)
{
	if (fchdir(saved_cwd) < 0)
		perror("fchdir");
	close(saved_cwd);
	gm_test_rmtree(dir);
	gm_test_hermetic_env();
}

/* HEAD:MAINTAINERS's id and the work tree top, as the tool finds them. */
static void head_maintainers(git_oid *id, char **workdir)
{
	struct gm_repo_entry e;
	struct gm_repo *r = NULL;

	ck_assert_int_eq(gm_test_repo_open(&r, NULL), 0);
	ck_assert_int_eq(gm_repo_lookup(r, "MAINTAINERS", &e), 0);
	*id = e.id;
	*workdir = strdup(gm_repo_workdir(r));
	gm_repo_free(r);
}

/* From a subdirectory: the work tree's bytes, taken for their own blob only. */
START_TEST(test_prefetch_taken_for_its_blob)
{
	struct gm_prefetch *p;
	char *workdir, *made;
	git_oid id, other;
	struct gm_buf sub = GM_BUF_INIT;

	gm_buf_printf(&sub, "%s/src/deep", dir);
	ck_assert_int_eq(chdir(sub.ptr), 0);
	head_maintainers(&id, &workdir);
	other = id;
	other.id[0] ^= 1;
	ck_assert_ptr_nonnull(p = gm_test_prefetch_start(1, argv0,
							 &copy_digest));
	/* another blob, another work tree */
	ck_assert_ptr_null(gm_prefetch_take(p, workdir, &other));
	ck_assert_ptr_null(gm_prefetch_take(p, "/", &id));
	ck_assert_ptr_nonnull(made = gm_prefetch_take(p, workdir, &id));
	ck_assert_str_eq(made, files[0].content);
	free(made);
	/* handed over once */
	ck_assert_ptr_null(gm_prefetch_take(p, workdir, &id));
	gm_prefetch_free(p);
	free(workdir);
	gm_buf_release(&sub);
}
END_TEST

/* The rules' digest: the model of MAINTAINERS, parsed in the thread. */
START_TEST(test_prefetch_rules_digest)
{
	struct gm_maintainers *m;
	struct gm_prefetch *p;
	char *workdir;
	git_oid id;

	ck_assert_int_eq(chdir(dir), 0);
	head_maintainers(&id, &workdir);
	ck_assert_ptr_nonnull(p = gm_test_prefetch_start(1, argv0,
							 &rules_digest));
	ck_assert_ptr_nonnull(m = gm_prefetch_take(p, workdir, &id));
	ck_assert_uint_eq(m->nr_sections, 1);
	ck_assert_str_eq(m->sections[0].name, "ALPHA");
	gm_maintainers_free(m);
	gm_prefetch_free(p);
	free(workdir);
}
END_TEST

/* A digest not taken is freed with the prefetch; none: nothing made. */
START_TEST(test_prefetch_digest_freed)
{
	struct gm_prefetch *p;
	char *workdir;
	git_oid id;

	ck_assert_int_eq(chdir(dir), 0);
	head_maintainers(&id, &workdir);
	copies_freed = 0;
	ck_assert_ptr_nonnull(p = gm_test_prefetch_start(1, argv0,
							 &copy_digest));
	gm_prefetch_free(p);
	ck_assert_int_eq(copies_freed, 1);
	ck_assert_ptr_nonnull(p = gm_test_prefetch_start(1, argv0, NULL));
	ck_assert_ptr_null(gm_prefetch_take(p, workdir, &id));
	gm_prefetch_free(p);
	free(workdir);
}
END_TEST

/* An edited MAINTAINERS is not the commit's blob. */
START_TEST(test_prefetch_dirty_not_taken)
{
	struct gm_prefetch *p;
	char *workdir;
	git_oid id;

	ck_assert_int_eq(chdir(dir), 0);
	head_maintainers(&id, &workdir);
	ck_assert_int_eq(gm_test_write_file(dir, "MAINTAINERS",
					    "BETA\nM:\tB <b@x.org>\n"), 0);
	ck_assert_ptr_nonnull(p = gm_test_prefetch_start(1, argv0,
							 &copy_digest));
	ck_assert_ptr_null(gm_prefetch_take(p, workdir, &id));
	gm_prefetch_free(p);
	free(workdir);
}
END_TEST

/*
 * The files the command line names, read before it is parsed: handed
 * over for their own blob, with zeros after them, once.
 */
START_TEST(test_prefetch_texts)
{
	const char *argv[] = { "git-maintainer", "-f", "src/deep/x.c",
			       "MAINTAINERS", "missing.c", NULL };
	struct gm_buf text = GM_BUF_INIT;
	struct gm_prefetch *p;
	struct gm_repo_entry e;
	struct gm_repo *r = NULL;
	git_oid other;

	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_ptr_nonnull(p = gm_test_prefetch_start(5, argv,
							 &copy_digest));
	ck_assert_int_eq(gm_test_repo_open(&r, NULL), 0);
	ck_assert_int_eq(gm_repo_lookup(r, "src/deep/x.c", &e), 0);
	other = e.id;
	other.id[19] ^= 1;
	ck_assert(!gm_prefetch_take_text(p, gm_repo_workdir(r), "src/deep/x.c", &other,
					 &text));
	ck_assert(!gm_prefetch_take_text(p, gm_repo_workdir(r), "deep/x.c", &e.id,
					 &text));
	ck_assert(gm_prefetch_take_text(p, gm_repo_workdir(r), "src/deep/x.c", &e.id,
					&text));
	ck_assert_str_eq(text.ptr, "int x;\n");
	for (size_t i = 0; i <= GM_BUF_PAD; i++)
		ck_assert_int_eq(text.ptr[text.len + i], 0);
	gm_buf_release(&text);
	ck_assert(!gm_prefetch_take_text(p, gm_repo_workdir(r), "src/deep/x.c", &e.id,
					 &text));
	ck_assert(!gm_prefetch_take_text(p, gm_repo_workdir(r), "missing.c", &e.id,
					 &text));
	ck_assert(!gm_prefetch_take_text(NULL, gm_repo_workdir(r), "missing.c", &e.id,
					 &text));
	gm_prefetch_free(p);
	gm_repo_free(r);
}
END_TEST

/* A FIFO named MAINTAINERS in the work tree is not opened: no wait. */
START_TEST(test_prefetch_fifo_not_opened)
{
	struct gm_buf path = GM_BUF_INIT;
	struct gm_prefetch *p;
	char *workdir;
	git_oid id;

	ck_assert_int_eq(chdir(dir), 0);
	head_maintainers(&id, &workdir);
	gm_buf_printf(&path, "%s/MAINTAINERS", dir);
	ck_assert_int_eq(unlink(path.ptr), 0);
	ck_assert_int_eq(mkfifo(path.ptr, 0600), 0);
	ck_assert_ptr_nonnull(p = gm_test_prefetch_start(1, argv0,
							 &copy_digest));
	ck_assert_ptr_null(gm_prefetch_take(p, workdir, &id));
	gm_prefetch_free(p);
	free(workdir);
	gm_buf_release(&path);
}
END_TEST

/* Where libgit2 is told where the repository is, nothing is guessed. */
START_TEST(test_prefetch_not_with_git_dir)
{
	git_oid id = { { 0 } };

	ck_assert_int_eq(chdir(dir), 0);
	setenv("GIT_DIR", ".git", 1);
	ck_assert_ptr_null(gm_test_prefetch_start(1, argv0, &copy_digest));
	unsetenv("GIT_DIR");
	/* none started: nothing */
	ck_assert_ptr_null(gm_prefetch_take(NULL, dir, &id));
}
END_TEST

/*
 * The prefetch starts only where there is a second CPU for its thread:
 * check_main.c skips this suite on one CPU.
 */
Suite *prefetch_suite(void)
{
	Suite *s = suite_create("prefetch");
	TCase *tc = tcase_create("prefetch");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_prefetch_taken_for_its_blob);
	tcase_add_test(tc, test_prefetch_rules_digest);
	tcase_add_test(tc, test_prefetch_digest_freed);
	tcase_add_test(tc, test_prefetch_dirty_not_taken);
	tcase_add_test(tc, test_prefetch_texts);
	tcase_add_test(tc, test_prefetch_fifo_not_opened);
	tcase_add_test(tc, test_prefetch_not_with_git_dir);
	suite_add_tcase(s, tc);
	return s;
}
