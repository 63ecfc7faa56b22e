#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <git2.h>

#include "gm/buf.h"
#include "gm/graph.h"
#include "gm/history.h"
#include "gm/objects.h"
#include "gm/strvec.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/*
 * The walk on repositories built here, each commit its whole tree, with
 * what it must count worked out by hand and, where git can say it, asked
 * of `git log --no-merges` on the same repository too.
 */

#define T0 1700000000

struct repo {
	char *dir;
	git_repository *git;
};

static void repo_init(struct repo *r)
{
	r->dir = gm_test_tmpdir();
	ck_assert_ptr_nonnull(r->dir);
	ck_assert_int_eq(git_repository_init(&r->git, r->dir, 0), 0);
}

static void repo_release(struct repo *r)
{
	git_repository_free(r->git);
	gm_test_rmtree(r->dir);
}

/* A commit of `files` (the whole tree) on `parents`, by `name` <`email`>. */
static git_oid commit(struct repo *r, const char *name, const char *email,
		      git_time_t when, const char *message,
		      const struct gm_test_file *files, size_t nr_files,
		      const git_oid *parents, size_t nr_parents)
{
	git_index *index = NULL;
	git_tree *tree = NULL;
	git_signature *author = NULL, *committer = NULL;
	const git_commit **ps = calloc(nr_parents + 1, sizeof(*ps));
	git_oid tree_id, id;

	ck_assert_ptr_nonnull(ps);
	ck_assert_int_eq(git_repository_index(&index, r->git), 0);
	ck_assert_int_eq(git_index_clear(index), 0);
	for (size_t i = 0; i < nr_files; i++) {
		git_index_entry e;

		memset(&e, 0, sizeof(e));
		e.path = files[i].path;
		e.mode = GIT_FILEMODE_BLOB;
		ck_assert_int_eq(git_index_add_from_buffer(index, &e,
				 files[i].content, strlen(files[i].content)),
				 0);
	}
	ck_assert_int_eq(git_index_write_tree(&tree_id, index), 0);
	ck_assert_int_eq(git_tree_lookup(&tree, r->git, &tree_id), 0);
	ck_assert_int_eq(git_signature_new(&author, name, email, when, 0),
			 0);
	ck_assert_int_eq(git_signature_new(&committer, "Committer",
					   "committer@example.com", when, 0),
			 0);
	for (size_t i = 0; i < nr_parents; i++)
		ck_assert_int_eq(git_commit_lookup((git_commit **)&ps[i],
						   r->git, &parents[i]), 0);
	ck_assert_int_eq(git_commit_create(&id, r->git, NULL, author,
					   committer, NULL, message, tree,
					   nr_parents, ps), 0);
	for (size_t i = 0; i < nr_parents; i++)
		git_commit_free((git_commit *)ps[i]);
	free(ps);
	git_signature_free(author);
	git_signature_free(committer);
	git_tree_free(tree);
	git_index_free(index);
	return id;
}

/* One file, one parent (or none): the common case. */
static git_oid commit1(struct repo *r, const char *name, git_time_t when,
		       const char *path, const char *content,
		       const git_oid *parent)
{
	struct gm_test_file f = { path, content, 0 };
	char email[64];

	snprintf(email, sizeof(email), "%s@example.com", name);
	return commit(r, name, email, when, "change\n", &f, 1, parent,
		      parent ? 1 : 0);
}

static void assert_same_history(const struct gm_history *a,
				const struct gm_history *b)
{
	ck_assert_uint_eq(a->commits, b->commits);
	ck_assert_uint_eq(a->nr_people, b->nr_people);
	ck_assert_int_eq(a->shallow, b->shallow);
	for (size_t i = 0; i < a->nr_people; i++) {
		const struct gm_history_person *x = &a->people[i];
		const struct gm_history_person *y = &b->people[i];

		ck_assert_str_eq(x->email, y->email);
		ck_assert_str_eq(x->name, y->name);
		ck_assert_uint_eq(x->commits, y->commits);
		ck_assert_uint_eq(x->authored, y->authored);
		ck_assert_uint_eq(x->nr_types, y->nr_types);
		for (size_t k = 0; k < x->nr_types; k++) {
			ck_assert_str_eq(x->types[k].key, y->types[k].key);
			ck_assert_uint_eq(x->types[k].lines, y->types[k].lines);
		}
	}
}

/*
 * The walk of `paths`; and again with a commit-graph of the history's
 * changed-path filters (graph.c) asked first, which must agree.
 */
static struct gm_history *walk(const struct repo *r, const git_oid *tip,
			       const char *const *paths, int64_t since,
			       int64_t until, git_mailmap *mailmap)
{
	struct gm_history_options o = GM_HISTORY_OPTIONS_INIT;
	struct gm_strvec sv = GM_STRVEC_INIT;
	struct gm_history *h = NULL, *again = NULL;
	struct gm_graph *graph = NULL;
	char cmd[2048], objects[1024], hex[GIT_OID_HEXSZ + 1];
	const char *dirs[] = { objects };

	o.since = since;
	o.until = until;
	o.mailmap = mailmap;
	for (; *paths; paths++)
		ck_assert_int_eq(gm_strvec_push(&sv, *paths), 0);
	ck_assert_int_eq(gm_history_walk(&h, r->git, tip, &sv, &o), 0);
	ck_assert_ptr_nonnull(h);
	snprintf(objects, sizeof(objects), "%s/.git/objects", r->dir);
	snprintf(cmd, sizeof(cmd), "echo %s | GIT_CONFIG_NOSYSTEM=1 git -C "
		 "'%s' commit-graph write --stdin-commits --changed-paths "
		 ">/dev/null 2>&1", git_oid_tostr(hex, sizeof(hex), tip),
		 r->dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(gm_graph_open(&graph, dirs, 1, -1), 0);
	ck_assert_ptr_nonnull(graph);
	o.graph = graph;
	ck_assert_int_eq(gm_history_walk(&again, r->git, tip, &sv, &o), 0);
	assert_same_history(h, again);
	gm_history_free(again);
	gm_graph_free(graph);
	snprintf(cmd, sizeof(cmd), "rm -f '%s/info/commit-graph'", objects);
	ck_assert_int_eq(system(cmd), 0);
	gm_strvec_release(&sv);
	return h;
}

static const struct gm_history_person *person(const struct gm_history *h,
					      const char *email)
{
	for (size_t i = 0; i < h->nr_people; i++)
		if (!strcmp(h->people[i].email, email))
			return &h->people[i];
	return NULL;
}

static size_t lines_of(const struct gm_history_person *p, const char *key)
{
	for (size_t i = 0; p && i < p->nr_types; i++)
		if (!strcmp(p->types[i].key, key))
			return p->types[i].lines;
	return 0;
}

/* ==================== git log, the oracle ==================== */

static void git_log_child(int out, const char *dir, const char *const *argv)
{
	char *args[80];
	size_t n = 0;

	args[n++] = (char *)"git";
	args[n++] = (char *)"-C";
	args[n++] = (char *)dir;
	while (*argv && n + 1 < ARRAY_SIZE(args))
		args[n++] = (char *)*argv++;
	args[n] = NULL;
	if (dup2(out, 1) < 0)
		_exit(126);
	setenv("HOME", dir, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	execvp("git", args);
	_exit(127);
}

/*
 * The authors' addresses of `git log --no-merges --format=%ae ARGS`
 * (ARGS: options, the tip, "--", paths), one a line, malloc()ed.
 */
static char *git_log(const struct repo *r, const char *const *argv)
{
	const char *full[80] = { "log", "--no-merges", "--format=%ae" };
	struct gm_buf b = GM_BUF_INIT;
	size_t n = 3;
	int fds[2], status;
	pid_t pid;

	while (*argv && n + 1 < ARRAY_SIZE(full))
		full[n++] = *argv++;
	ck_assert_int_eq(pipe(fds), 0);
	pid = gm_test_fork();
	if (pid == 0) {
		close(fds[0]);
		git_log_child(fds[1], r->dir, full);
	}
	close(fds[1]);
	ck_assert_int_eq(gm_buf_read_fd(&b, fds[0], "git log"), 0);
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "git log failed");
	return gm_buf_detach(&b, NULL);
}

static size_t count_lines(const char *s, const char *line)
{
	size_t n = 0, len = line ? strlen(line) : 0;

	for (; *s; s = strchr(s, '\n') + 1) {
		if (!line || (!strncmp(s, line, len) && s[len] == '\n'))
			n++;
		if (!strchr(s, '\n'))
			break;
	}
	return n;
}

/*
 * The walk and `git log --no-merges [--since=@S] [--until=@U] TIP --
 * PATHS` count the same commits, and each author as often.
 */
static void check_against_git(const struct repo *r, const git_oid *tip,
			      const char *const *paths, int64_t since,
			      int64_t until)
{
	struct gm_history *h = walk(r, tip, paths, since, until, NULL);
	char hex[GIT_OID_HEXSZ + 1], s_arg[64], u_arg[64];
	const char *argv[64];
	size_t n = 0;
	char *log;

	git_oid_tostr(hex, sizeof(hex), tip);
	if (since != INT64_MIN) {
		snprintf(s_arg, sizeof(s_arg), "--since=@%lld",
			 (long long)since);
		argv[n++] = s_arg;
	}
	if (until != INT64_MAX) {
		snprintf(u_arg, sizeof(u_arg), "--until=@%lld",
			 (long long)until);
		argv[n++] = u_arg;
	}
	argv[n++] = hex;
	argv[n++] = "--";
	for (const char *const *p = paths; *p && n + 1 < ARRAY_SIZE(argv); p++)
		argv[n++] = **p ? *p : ".";
	argv[n] = NULL;
	log = git_log(r, argv);
	ck_assert_uint_eq(h->commits, count_lines(log, NULL));
	for (size_t i = 0; i < h->nr_people; i++)
		ck_assert_msg(h->people[i].authored ==
			      count_lines(log, h->people[i].email),
			      "%s: %zu authored, git log %zu",
			      h->people[i].email, h->people[i].authored,
			      count_lines(log, h->people[i].email));
	free(log);
	gm_history_free(h);
}

/* ==================== the window ==================== */

START_TEST(test_history_window_is_inclusive)
{
	static const char *const paths[] = { "lib/a.c", NULL };
	static const char *const names[] = {
		"ann", "bob", "cid", "dan", "eve",
	};
	struct repo r;
	struct gm_history *h;
	git_oid tip, *parent = NULL;
	char content[16];

	repo_init(&r);
	for (int i = 0; i < 5; i++) {
		snprintf(content, sizeof(content), "%d\n", i);
		tip = commit1(&r, names[i], T0 + 1000 * i, "lib/a.c", content,
			      parent);
		parent = &tip;
	}
	h = walk(&r, &tip, paths, T0 + 1000, T0 + 3000, NULL);
	ck_assert_uint_eq(h->commits, 3);
	ck_assert_ptr_null(person(h, "ann@example.com"));
	ck_assert_uint_eq(person(h, "bob@example.com")->commits, 1);
	ck_assert_uint_eq(person(h, "dan@example.com")->commits, 1);
	ck_assert_ptr_null(person(h, "eve@example.com"));
	gm_history_free(h);
	h = walk(&r, &tip, paths, T0 + 1001, T0 + 2999, NULL);
	ck_assert_uint_eq(h->commits, 1);
	ck_assert_uint_eq(person(h, "cid@example.com")->commits, 1);
	gm_history_free(h);
	h = walk(&r, &tip, paths, T0 + 5000, INT64_MAX, NULL);
	ck_assert_uint_eq(h->commits, 0);
	gm_history_free(h);
	check_against_git(&r, &tip, paths, T0 + 1000, T0 + 3000);
	check_against_git(&r, &tip, paths, T0 + 1001, T0 + 2999);
	check_against_git(&r, &tip, paths, INT64_MIN, INT64_MAX);
	repo_release(&r);
}
END_TEST

/*
 * An old commit ends its own line of the walk, not another line that
 * reaches the same ancestors: R - A - B(old) - M, A - D - M.
 */
START_TEST(test_history_old_commit_ends_only_its_line)
{
	static const char *const paths[] = { "a.c", NULL };
	struct repo r;
	struct gm_history *h;
	git_oid R, A, B, D, M, two[2];
	const struct gm_test_file m = { "a.c", "m\n", 0 };

	repo_init(&r);
	R = commit1(&r, "rob", T0 + 1000, "a.c", "r\n", NULL);
	A = commit1(&r, "ann", T0 + 5000, "a.c", "a\n", &R);
	B = commit1(&r, "bob", T0 + 2000, "a.c", "b\n", &A);
	D = commit1(&r, "dan", T0 + 6000, "a.c", "d\n", &A);
	two[0] = B;
	two[1] = D;
	M = commit(&r, "max", "max@example.com", T0 + 7000, "merge\n", &m, 1,
		   two, 2);
	h = walk(&r, &M, paths, T0 + 3000, INT64_MAX, NULL);
	ck_assert_uint_eq(h->commits, 2);
	ck_assert_ptr_nonnull(person(h, "ann@example.com"));
	ck_assert_ptr_nonnull(person(h, "dan@example.com"));
	ck_assert_ptr_null(person(h, "bob@example.com"));
	ck_assert_ptr_null(person(h, "max@example.com"));	/* a merge */
	gm_history_free(h);
	check_against_git(&r, &M, paths, T0 + 3000, INT64_MAX);
	check_against_git(&r, &M, paths, INT64_MIN, INT64_MAX);
	repo_release(&r);
}
END_TEST

/* ==================== merges ==================== */

/*
 * git's default simplification: a merge whose a.c is its first parent's
 * hides the other side's changes to a.c, here a change and its revert.
 */
START_TEST(test_history_treesame_merge_follows_one_parent)
{
	static const char *const a[] = { "a.c", NULL };
	static const char *const b[] = { "b.c", NULL };
	static const char *const all[] = { "", NULL };
	const struct gm_test_file base[] = { { "a.c", "0\n", 0 },
					     { "b.c", "0\n", 0 } };
	const struct gm_test_file x[] = { { "a.c", "1\n", 0 },
					  { "b.c", "0\n", 0 } };
	const struct gm_test_file y1[] = { { "a.c", "2\n", 0 },
					   { "b.c", "0\n", 0 } };
	const struct gm_test_file y2[] = { { "a.c", "0\n", 0 },
					   { "b.c", "0\n", 0 } };
	const struct gm_test_file y3[] = { { "a.c", "0\n", 0 },
					   { "b.c", "1\n", 0 } };
	const struct gm_test_file m[] = { { "a.c", "1\n", 0 },
					  { "b.c", "1\n", 0 } };
	struct repo r;
	struct gm_history *h;
	git_oid B, X, Y1, Y2, Y3, M, two[2];

	repo_init(&r);
	B = commit(&r, "Base", "base@example.com", T0, "base\n", base, 2,
		   NULL, 0);
	X = commit(&r, "Xen", "x@example.com", T0 + 10, "x\n", x, 2, &B, 1);
	Y1 = commit(&r, "Yan", "y@example.com", T0 + 20, "y1\n", y1, 2, &B, 1);
	Y2 = commit(&r, "Yan", "y@example.com", T0 + 30, "y2\n", y2, 2, &Y1,
		    1);
	Y3 = commit(&r, "Zoe", "z@example.com", T0 + 40, "y3\n", y3, 2, &Y2,
		    1);
	two[0] = X;
	two[1] = Y3;
	M = commit(&r, "Max", "max@example.com", T0 + 50, "merge\n", m, 2,
		   two, 2);
	h = walk(&r, &M, a, INT64_MIN, INT64_MAX, NULL);
	ck_assert_uint_eq(h->commits, 2);	/* X and B */
	ck_assert_ptr_null(person(h, "y@example.com"));
	gm_history_free(h);
	h = walk(&r, &M, b, INT64_MIN, INT64_MAX, NULL);
	ck_assert_uint_eq(h->commits, 2);	/* Y3 and B */
	ck_assert_ptr_nonnull(person(h, "z@example.com"));
	gm_history_free(h);
	h = walk(&r, &M, all, INT64_MIN, INT64_MAX, NULL);
	ck_assert_uint_eq(h->commits, 5);
	gm_history_free(h);
	check_against_git(&r, &M, a, INT64_MIN, INT64_MAX);
	check_against_git(&r, &M, b, INT64_MIN, INT64_MAX);
	check_against_git(&r, &M, all, INT64_MIN, INT64_MAX);
	repo_release(&r);
}
END_TEST

/*
 * An octopus of 66 parents, as the Linux kernel has (2cde51fbd0f3):
 * branch i adds f/i.c; the last two are the only ones by Zed.
 */
#define OCTOPUS 66

static git_oid build_octopus(struct repo *r)
{
	static struct gm_test_file tree[OCTOPUS + 1];
	static char paths[OCTOPUS][16];
	git_oid base, tips[OCTOPUS];
	const struct gm_test_file b = { "base.c", "base\n", 0 };

	base = commit(r, "Base", "base@example.com", T0, "base\n", &b, 1, NULL,
		      0);
	tree[0] = b;
	for (int i = 0; i < OCTOPUS; i++) {
		struct gm_test_file files[2] = { b, { paths[i], "x\n", 0 } };
		bool zed = i >= OCTOPUS - 2;
		char name[16], email[32];

		snprintf(paths[i], sizeof(paths[i]), "f/%d.c", i + 1);
		snprintf(name, sizeof(name), "P%d", i % 5);
		snprintf(email, sizeof(email), "p%d@example.com", i % 5);
		if (zed) {
			snprintf(name, sizeof(name), "Zed");
			snprintf(email, sizeof(email), "zed@example.com");
		}
		tips[i] = commit(r, name, email, T0 + 100 + i, "branch\n",
				 files, 2, &base, 1);
		tree[i + 1] = files[1];
	}
	return commit(r, "Max", "max@example.com", T0 + 1000, "octopus\n",
		      tree, OCTOPUS + 1, tips, OCTOPUS);
}

START_TEST(test_history_every_parent_of_an_octopus)
{
	static const char *const all[] = { "", NULL };
	static const char *const dir[] = { "f/", NULL };
	static const char *const last[] = { "f/66.c", NULL };
	static const char *const two[] = { "f/1.c", "f/65.c", NULL };
	struct repo r;
	struct gm_history *h;
	git_oid M;
	git_commit *c;

	repo_init(&r);
	M = build_octopus(&r);
	ck_assert_int_eq(git_commit_lookup(&c, r.git, &M), 0);
	ck_assert_uint_eq(git_commit_parentcount(c), OCTOPUS);
	git_commit_free(c);

	h = walk(&r, &M, all, INT64_MIN, INT64_MAX, NULL);
	ck_assert_uint_eq(h->commits, OCTOPUS + 1);
	ck_assert_uint_eq(person(h, "zed@example.com")->authored, 2);
	gm_history_free(h);
	h = walk(&r, &M, dir, INT64_MIN, INT64_MAX, NULL);
	ck_assert_uint_eq(h->commits, OCTOPUS);
	gm_history_free(h);
	/* TREESAME to parent 66 only: that line alone is walked */
	h = walk(&r, &M, last, INT64_MIN, INT64_MAX, NULL);
	ck_assert_uint_eq(h->commits, 1);
	ck_assert_uint_eq(h->nr_people, 1);
	ck_assert_uint_eq(person(h, "zed@example.com")->authored, 1);
	gm_history_free(h);
	h = walk(&r, &M, two, INT64_MIN, INT64_MAX, NULL);
	ck_assert_uint_eq(h->commits, 2);
	gm_history_free(h);
	check_against_git(&r, &M, all, INT64_MIN, INT64_MAX);
	check_against_git(&r, &M, dir, INT64_MIN, INT64_MAX);
	check_against_git(&r, &M, last, INT64_MIN, INT64_MAX);
	check_against_git(&r, &M, two, INT64_MIN, INT64_MAX);
	check_against_git(&r, &M, all, T0 + 150, INT64_MAX);
	repo_release(&r);
}
END_TEST

/* ==================== people ==================== */

START_TEST(test_history_mailmap_joins_identities)
{
	static const char *const paths[] = { "a.c", NULL };
	static const char mm[] =
		"Ann Real <ann@example.com>\n"
		"Ann Real <ann@example.com> <ann@old.example.com>\n"
		"Boss <Boss@example.com> <committer@example.com>\n";
	struct repo r;
	struct gm_history *h;
	git_mailmap *mailmap = NULL;
	const struct gm_history_person *p;
	const struct gm_test_file f1 = { "a.c", "1\n", 0 };
	const struct gm_test_file f2 = { "a.c", "2\n", 0 };
	git_oid one, two;

	repo_init(&r);
	one = commit(&r, "Ann Old", "ann@old.example.com", T0, "one\n", &f1, 1,
		     NULL, 0);
	two = commit(&r, "Ann", "ann@example.com", T0 + 1,
		     "two\n\nReviewed-by: Ann Old <ann@old.example.com>\n",
		     &f2, 1, &one, 1);
	h = walk(&r, &two, paths, INT64_MIN, INT64_MAX, NULL);
	ck_assert_uint_eq(h->nr_people, 2);
	gm_history_free(h);

	ck_assert_int_eq(git_mailmap_from_buffer(&mailmap, mm, strlen(mm)), 0);
	h = walk(&r, &two, paths, INT64_MIN, INT64_MAX, mailmap);
	ck_assert_uint_eq(h->nr_people, 1);
	p = person(h, "ann@example.com");
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(p->name, "Ann Real");
	ck_assert_uint_eq(p->commits, 2);
	ck_assert_uint_eq(p->authored, 2);
	ck_assert_uint_eq(lines_of(p, "Reviewed-by"), 1);
	/* the committers too, through the mailmap, in lower case */
	ck_assert_uint_eq(h->committers.nr, 1);
	ck_assert_str_eq(h->committers.v[0], "boss@example.com");
	gm_history_free(h);
	git_mailmap_free(mailmap);
	repo_release(&r);
}
END_TEST

/* A person named by several lines of one commit counts once for it. */
START_TEST(test_history_counts_a_person_once_per_commit)
{
	static const char *const paths[] = { "a.c", NULL };
	struct repo r;
	struct gm_history *h;
	const struct gm_history_person *ann, *bob;
	const struct gm_test_file f1 = { "a.c", "1\n", 0 };
	const struct gm_test_file f2 = { "a.c", "2\n", 0 };
	git_oid one, two;

	repo_init(&r);
	one = commit(&r, "Ann", "ann@example.com", T0,
		     "one\n\nSigned-off-by: Ann <ann@example.com>\n"
		     "Acked-by: Ann <ANN@example.com>\n"
		     "Signed-off-by: Ann <ann@example.com>\n"
		     "Reviewed-by: Bob <bob@example.com>\n"
		     "Tested-by: Bob\n", &f1, 1, NULL, 0);
	two = commit(&r, "Bob", "bob@example.com", T0 + 1,
		     "two\n\nSigned-off-by: Bob <bob@example.com>\n", &f2, 1,
		     &one, 1);
	h = walk(&r, &two, paths, INT64_MIN, INT64_MAX, NULL);
	ck_assert_uint_eq(h->commits, 2);
	ann = person(h, "ann@example.com");
	bob = person(h, "bob@example.com");
	ck_assert_ptr_nonnull(ann);
	ck_assert_ptr_nonnull(bob);
	ck_assert_uint_eq(ann->commits, 1);
	ck_assert_uint_eq(ann->authored, 1);
	ck_assert_uint_eq(lines_of(ann, "Signed-off-by"), 2);
	ck_assert_uint_eq(lines_of(ann, "Acked-by"), 1);
	ck_assert_uint_eq(bob->commits, 2);
	ck_assert_uint_eq(bob->authored, 1);
	ck_assert_uint_eq(lines_of(bob, "Reviewed-by"), 1);
	ck_assert_uint_eq(lines_of(bob, "Tested-by"), 0);	/* no address */
	/* most commits first */
	ck_assert_ptr_eq(&h->people[0], bob);
	/* the committer of both, once; not a person counted */
	ck_assert_uint_eq(h->committers.nr, 1);
	ck_assert_str_eq(h->committers.v[0], "committer@example.com");
	ck_assert_ptr_null(person(h, "committer@example.com"));
	gm_history_free(h);
	repo_release(&r);
}
END_TEST

START_TEST(test_history_no_paths_walks_nothing)
{
	static const char *const none[] = { NULL };
	struct repo r;
	struct gm_history *h;
	git_oid one;

	repo_init(&r);
	one = commit1(&r, "ann", T0, "a.c", "1\n", NULL);
	h = walk(&r, &one, none, INT64_MIN, INT64_MAX, NULL);
	ck_assert_uint_eq(h->commits, 0);
	ck_assert_uint_eq(h->nr_people, 0);
	gm_history_free(h);
	repo_release(&r);
}
END_TEST

/* ==================== commits as git reads them ==================== */

/* Commit `id` read under `rules`: its parents, and whether shallow. */
static void assert_parents(git_repository *repo,
			   const struct gm_objects_rules *rules,
			   const git_oid *id, const git_oid *want, size_t nr,
			   bool shallow)
{
	struct gm_objects o = { NULL, NULL, rules, repo };
	struct gm_objects_commit c;

	ck_assert_int_eq(git_repository_odb(&o.odb, repo), 0);
	ck_assert_int_eq(gm_objects_commit_read(&c, &o, id), 0);
	ck_assert_uint_eq(c.nr_parents, nr);
	for (size_t i = 0; i < nr; i++)
		ck_assert(git_oid_equal(&c.parents[i], &want[i]));
	ck_assert(c.shallow == shallow);
	gm_objects_commit_release(&c);
	git_odb_free(o.odb);
}

/*
 * info/grafts as git reads it: comments, blank and malformed lines
 * ignored, the first graft of a commit kept; $GIT_DIR/shallow over any
 * graft; refs/replace/<id> (and nothing else under it) a replacement,
 * unless GIT_NO_REPLACE_OBJECTS is set. Any of them keeps the
 * commit-graph unread.
 */
START_TEST(test_history_grafts_shallow_replace)
{
	struct gm_objects_rules *rules = NULL;
	struct repo r;
	git_oid c[4];
	char hex[4][GIT_OID_HEXSZ + 1], text[1024], name[128];

	repo_init(&r);
	for (int i = 0; i < 4; i++) {
		c[i] = commit1(&r, "ann", T0 + i, "a.c", i % 2 ? "1\n" : "2\n",
			       i ? &c[i - 1] : NULL);
		git_oid_tostr(hex[i], sizeof(hex[i]), &c[i]);
	}
	ck_assert_int_eq(gm_objects_rules_load(&rules, r.git), 0);
	ck_assert(gm_objects_rules_graph_ok(rules));
	assert_parents(r.git, rules, &c[3], &c[2], 1, false);
	gm_objects_rules_free(rules);

	snprintf(text, sizeof(text),
		 "# grafts\n\n%s %s \n%s\nnot a graft\n%s %.20s\n%s\n",
		 hex[3], hex[0], hex[3], hex[1], hex[0], hex[2]);
	ck_assert_int_eq(gm_test_write_file(r.dir, ".git/info/grafts", text),
			 0);
	snprintf(text, sizeof(text), "%s\n", hex[2]);
	ck_assert_int_eq(gm_test_write_file(r.dir, ".git/shallow", text), 0);
	snprintf(name, sizeof(name), "refs/replace/%s", hex[0]);
	ck_assert_int_eq(git_reference_create(NULL, r.git, name, &c[1], 0,
					      NULL), 0);
	ck_assert_int_eq(git_reference_create(NULL, r.git,
					      "refs/replace/nothex", &c[2], 0,
					      NULL), 0);
	ck_assert_int_eq(gm_objects_rules_load(&rules, r.git), 0);
	ck_assert(!gm_objects_rules_graph_ok(rules));
	assert_parents(r.git, rules, &c[3], &c[0], 1, false);
	assert_parents(r.git, rules, &c[2], NULL, 0, true);
	assert_parents(r.git, rules, &c[1], &c[0], 1, false);
	ck_assert(git_oid_equal(gm_objects_replaced(rules, &c[0]), &c[1]));
	ck_assert(git_oid_equal(gm_objects_replaced(rules, &c[2]), &c[2]));
	/* c[0] read as its replacement c[1], whose parent is c[0] */
	assert_parents(r.git, rules, &c[0], &c[0], 1, false);
	gm_objects_rules_free(rules);

	ck_assert_int_eq(setenv("GIT_NO_REPLACE_OBJECTS", "1", 1), 0);
	ck_assert_int_eq(gm_objects_rules_load(&rules, r.git), 0);
	unsetenv("GIT_NO_REPLACE_OBJECTS");
	ck_assert(git_oid_equal(gm_objects_replaced(rules, &c[0]), &c[0]));
	assert_parents(r.git, rules, &c[0], NULL, 0, false);
	gm_objects_rules_free(rules);
	repo_release(&r);
}
END_TEST

Suite *history_suite(void)
{
	Suite *s = suite_create("history");
	TCase *window = tcase_create("window");
	TCase *merges = tcase_create("merges");
	TCase *people = tcase_create("people");

	tcase_add_test(window, test_history_window_is_inclusive);
	tcase_add_test(window, test_history_old_commit_ends_only_its_line);
	tcase_add_test(window, test_history_no_paths_walks_nothing);
	suite_add_tcase(s, window);

	tcase_add_test(merges, test_history_treesame_merge_follows_one_parent);
	tcase_add_test(merges, test_history_every_parent_of_an_octopus);
	tcase_add_test(merges, test_history_grafts_shallow_replace);
	suite_add_tcase(s, merges);

	tcase_add_test(people, test_history_mailmap_joins_identities);
	tcase_add_test(people, test_history_counts_a_person_once_per_commit);
	suite_add_tcase(s, people);
	return s;
}
