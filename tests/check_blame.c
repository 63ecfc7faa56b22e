#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <git2.h>

#include "gm/blame.h"
#include "gm/error.h"
#include "gm/strvec.h"

#include "gm_tests.h"
#include "gm_testutil.h"

#define A "1111111111111111111111111111111111111111"
#define B "2222222222222222222222222222222222222222"
#define R "abcdef0123456789abcdef0123456789abcdef01"
#define Z "0000000000000000000000000000000000000000"

/*
 * `text` as the whole-file output of a `git blame --porcelain` faked (a
 * `git` first in PATH that prints it for blame), read by gm_blame_run():
 * the ids of its lines joined by ','.
 */
static char *parsed(const char *text, int *error)
{
	static const struct gm_test_file one[] = { { "f.c", "a\n", 0 } };
	static const struct gm_test_commit c[] = {
		{ "root\n", 1600000000, one, 1 },
	};
	static const char fake[] = "#!/bin/sh\nfor a; do [ \"$a\" = blame ] "
		"&& exec cat \"${0%/*}/out\"; done\nPATH=\"${PATH#*:}\" "
		"exec git \"$@\"\n";
	struct gm_strvec ids = GM_STRVEC_INIT;
	git_repository *repo = NULL;
	char *dir = NULL, head[GIT_OID_HEXSZ + 1], *s, *path, *old, *work;
	git_oid id;

	ck_assert_int_eq(gm_test_repo_create(&dir, head, c, 1), 0);
	ck_assert_int_eq(git_repository_open(&repo, dir), 0);
	ck_assert_int_eq(git_oid_fromstr(&id, head), 0);
	ck_assert_int_eq(gm_test_write_file(dir, "bin/git", fake), 0);
	ck_assert_int_eq(gm_test_write_file(dir, "bin/out", text), 0);
	ck_assert_ptr_nonnull(path = malloc(strlen(dir) + 16));
	ck_assert_int_eq(chmod(strcat(strcpy(path, dir), "/bin/git"), 0755), 0);
	ck_assert_ptr_nonnull(old = strdup(getenv("PATH")));
	ck_assert_ptr_nonnull(s = malloc(strlen(dir) + strlen(old) + 8));
	sprintf(s, "%s/bin:%s", dir, old);
	setenv("PATH", s, 1);
	free(s);
	ck_assert_ptr_nonnull(work = malloc(strlen(dir) + 2));
	*error = gm_test_blame_lines(&ids, repo, &id, strcat(strcpy(work, dir),
							   "/"), "f.c", 0, 0);
	setenv("PATH", old, 1);
	s = gm_test_join(&ids, ",");
	gm_strvec_release(&ids);
	free(old);
	free(path);
	free(work);
	git_repository_free(repo);
	gm_test_rmtree(dir);
	return s;
}

static void assert_parsed(const char *text, const char *want)
{
	int error;
	char *got = parsed(text, &error);

	ck_assert_int_eq(error, 0);
	ck_assert_str_eq(got, want);
	free(got);
}

static void assert_refused(const char *text)
{
	int error;

	free(parsed(text, &error));
	ck_assert_int_eq(error, GM_EINVALID);
}

/*
 * A commit's headers come with its first group only; "boundary" among
 * them takes all its lines out, wherever they are. Line texts start with
 * a tab and are never headers.
 */
START_TEST(test_blame_parse_groups)
{
	assert_parsed("", "");
	assert_parsed(A " 1 1 2\nauthor Ann\nsummary one\nfilename f.c\n"
		      "\tint a;\n"
		      A " 2 2\n\tboundary\n"
		      R " 3 3 1\nauthor Root\nsummary root\nboundary\n"
		      "filename f.c\n\t" B " 1 1\n"
		      B " 4 4 1\nauthor Bob\nprevious " A " f.c\n"
		      "filename f.c\n\t\n"
		      A " 5 5 1\nfilename f.c\n\tlast\n"
		      R " 6 6 1\nfilename f.c\n\tx\n",
		      A "," A "," B "," A);
	/* lines not committed; a line with no newline at the end of the file */
	assert_parsed(Z " 1 1 1\nauthor Not Committed Yet\nfilename f.c\n"
		      "\tnew\r\n" A " 2 2 1\nboundary\nfilename f.c\n\tend", Z);
	/* a SHA-256 repository's ids */
	assert_parsed(A "333333333333333333333333 7 9 1\nfilename f\n\tx\n",
		      A "333333333333333333333333");
}
END_TEST

START_TEST(test_blame_parse_refused)
{
	assert_refused("not blame output\n");
	assert_refused(A " 1\n\tx\n");			/* one number */
	assert_refused(A " 1 1 1 1\n\tx\n");		/* four */
	assert_refused(A " 1 x 1\n\tx\n");
	assert_refused("1111 1 1 1\n\tx\n");		/* short id */
	assert_refused(A " 1 1 1\nauthor Ann\n");	/* no line text */
	assert_refused(A " 1 1 1\n\tx\n\ty\n");		/* text, no group */
}
END_TEST

/*
 * gm_blame_run() of one file in a work tree: a line changed there is the
 * zero id's, the root's lines are left out, a range is -L's and one past
 * the end gives nothing (git refuses it).
 */
START_TEST(test_blame_lines_work_tree)
{
	static const struct gm_test_file one[] = { { "f.c", "a\nb\nc\n", 0 } };
	static const struct gm_test_file two[] = {
		{ "f.c", "a\nB\nc\nd\n", 0 },
	};
	static const struct gm_test_commit c[] = {
		{ "root\n", 1600000000, one, 1 },
		{ "two\n", 1600086400, two, 1 },
	};
	struct gm_strvec ids = GM_STRVEC_INIT;
	git_repository *repo = NULL;
	char *dir = NULL, head[GIT_OID_HEXSZ + 1], *got, *want, *workdir;
	git_oid id;

	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
	ck_assert_int_eq(gm_test_repo_create(&dir, head, c, 2), 0);
	ck_assert_int_eq(git_repository_open(&repo, dir), 0);
	ck_assert_int_eq(git_oid_fromstr(&id, head), 0);
	workdir = malloc(strlen(dir) + 2);
	ck_assert_ptr_nonnull(workdir);
	strcpy(workdir, dir);
	strcat(workdir, "/");

	/* at HEAD: "B" and "d" are the second commit's */
	ck_assert_int_eq(gm_test_blame_lines(&ids, repo, &id, workdir,
					     "f.c", 0, 0), 0);
	ck_assert_uint_eq(ids.nr, 2);
	ck_assert_str_eq(ids.v[0], head);
	ck_assert_str_eq(ids.v[1], head);
	gm_strvec_release(&ids);

	ck_assert_int_eq(gm_test_write_file(dir, "f.c", "a\nB\nX\nd\n"), 0);
	ck_assert_int_eq(gm_test_blame_lines(&ids, repo, &id, workdir,
					     "f.c", 0, 0), 0);
	got = gm_test_join(&ids, ",");
	want = malloc(3 * sizeof(head) + 3);
	ck_assert_ptr_nonnull(want);
	strcat(strcat(strcat(strcat(strcpy(want, head), ","), Z), ","), head);
	ck_assert_str_eq(got, want);
	free(got);
	gm_strvec_release(&ids);

	/* -L 3,+1; -L 4,+9 runs past the end and stops there; -L 5,+1 */
	ck_assert_int_eq(gm_test_blame_lines(&ids, repo, &id, workdir,
					     "f.c", 3, 1), 0);
	ck_assert_int_eq(gm_test_blame_lines(&ids, repo, &id, workdir,
					     "f.c", 4, 9), 0);
	ck_assert_int_eq(gm_test_blame_lines(&ids, repo, &id, workdir,
					     "f.c", 5, 1), 0);
	ck_assert_uint_eq(ids.nr, 2);
	ck_assert_str_eq(ids.v[0], Z);
	ck_assert_str_eq(ids.v[1], head);
	gm_strvec_release(&ids);

	/* without the work tree: the commit's file */
	ck_assert_int_eq(gm_test_blame_lines(&ids, repo, &id, NULL,
					     "f.c", 0, 0), 0);
	ck_assert_uint_eq(ids.nr, 2);
	gm_strvec_release(&ids);
	/* no such file: nothing */
	ck_assert_int_eq(gm_test_blame_lines(&ids, repo, &id, workdir,
					     "g.c", 0, 0), 0);
	ck_assert_uint_eq(ids.nr, 0);

	free(want);
	free(workdir);
	git_repository_free(repo);
	gm_test_rmtree(dir);
}
END_TEST

/*
 * gm_blame_run() on a patch's ranges: each file's in order, a line of two
 * ranges twice, a range git refuses (line 0, as a new file's hunk) giving
 * nothing while the others of its file still count; a file with no range
 * of its own, and "&STDIN", give nothing.
 */
START_TEST(test_blame_run_ranges)
{
	static const struct gm_test_file one[] = {
		{ "f.c", "a\nb\nc\n", 0 }, { "g.c", "x\n", 0 },
	};
	static const struct gm_test_file two[] = {
		{ "f.c", "a\nB\nc\nd\n", 0 }, { "g.c", "X\n", 0 },
	};
	static const struct gm_test_commit c[] = {
		{ "root\n", 1600000000, one, 2 },
		{ "two\n", 1600086400, two, 2 },
	};
	char f[] = "f.c", g[] = "g.c";
	struct gm_patch_range ranges[] = {
		{ f, 3, 2 }, { g, 1, 1 }, { f, 2, 2 }, { f, 0, 0 },
	};
	const char *names[] = { "f.c", "g.c", "h.c", "&STDIN" };
	struct gm_strvec files = GM_STRVEC_INIT;
	struct gm_blame_request req;
	struct gm_blame *b = NULL;
	const struct gm_blame_file *bf;
	git_repository *repo = NULL;
	char *dir = NULL, head[GIT_OID_HEXSZ + 1], *got, *want, *workdir;
	git_oid id;

	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
	ck_assert_int_eq(gm_test_repo_create(&dir, head, c, 2), 0);
	ck_assert_int_eq(gm_test_write_file(dir, "f.c", "a\nB\nX\nd\n"), 0);
	ck_assert_int_eq(gm_test_write_file(dir, "h.c", "new\n"), 0);
	ck_assert_int_eq(git_repository_open(&repo, dir), 0);
	ck_assert_int_eq(git_oid_fromstr(&id, head), 0);
	ck_assert_ptr_nonnull(workdir = malloc(strlen(dir) + 2));
	strcat(strcpy(workdir, dir), "/");
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		ck_assert_int_eq(gm_strvec_push(&files, names[i]), 0);
	memset(&req, 0, sizeof(req));
	req.repo = repo;
	req.newest = &id;
	req.workdir = workdir;
	req.ranges = ranges;

	/* lines 3-4, then 2-3 (3 again): X d, B X; then 0,0 refused */
	for (size_t nr = 3; nr <= 4; nr++) {
		req.nr_ranges = nr;
		ck_assert_int_eq(gm_blame_run(&b, &req, &files), 0);
		got = gm_test_join(&gm_blame_file_at(b, 0)->lines, ",");
		ck_assert_ptr_nonnull(want = malloc(4 * sizeof(head) + 4));
		sprintf(want, "%s,%s,%s,%s", Z, head, head, Z);
		ck_assert_str_eq(got, want);
		free(got);
		free(want);
		ck_assert_uint_eq(gm_blame_file_at(b, 1)->lines.nr, 1);
		ck_assert_str_eq(gm_blame_file_at(b, 1)->lines.v[0], head);
		ck_assert_uint_eq(gm_blame_file_at(b, 2)->lines.nr, 0);
		ck_assert_uint_eq(gm_blame_file_at(b, 3)->lines.nr, 0);
		gm_blame_free(b);
	}
	/* no ranges: whole files; h.c is in no commit: git refuses it */
	req.nr_ranges = 0;
	ck_assert_int_eq(gm_blame_run(&b, &req, &files), 0);
	ck_assert_uint_eq(gm_blame_file_at(b, 0)->lines.nr, 3);
	ck_assert_uint_eq(gm_blame_file_at(b, 1)->lines.nr, 1);
	ck_assert_uint_eq(gm_blame_file_at(b, 2)->lines.nr, 0);

	/* B d of HEAD, X not committed: each commit once, the zero id unread */
	bf = gm_blame_file_at(b, 0);
	ck_assert_uint_eq(bf->ids.nr, 2);
	ck_assert_str_eq(bf->ids.v[0], head);
	ck_assert_str_eq(bf->ids.v[1], Z);
	ck_assert(git_oid_equal(&bf->commits[0].id, &id));
	ck_assert_ptr_nonnull(bf->commits[0].author);
	ck_assert_uint_eq(bf->commits[0].commit_lines, 1);
	ck_assert_ptr_null(bf->commits[1].author);
	ck_assert_uint_eq(bf->commits[1].commit_lines, 0);
	ck_assert_uint_eq(gm_blame_file_at(b, 2)->ids.nr, 0);
	ck_assert_ptr_null(gm_blame_file_at(b, 2)->commits);
	gm_blame_free(b);

	gm_strvec_release(&files);
	free(workdir);
	git_repository_free(repo);
	gm_test_rmtree(dir);
}
END_TEST

Suite *blame_suite(void)
{
	Suite *s = suite_create("blame");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_blame_parse_groups);
	tcase_add_test(tc, test_blame_parse_refused);
	tcase_add_test(tc, test_blame_lines_work_tree);
	tcase_add_test(tc, test_blame_run_ranges);
	suite_add_tcase(s, tc);
	return s;
}
