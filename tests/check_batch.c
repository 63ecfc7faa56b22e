/*
 * --batch's runner (gm_batch_run()) with answers of the test's own: the
 * order of the records, the warnings, the paths it cannot answer, and
 * the workers it makes, on one thread and several.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gm/batch.h"
#include "gm/buf.h"
#include "gm/error.h"
#include "gm/repo.h"

#include "gm_tests.h"
#include "gm_testutil.h"

static char *repo_dir;
static char *saved_cwd;

static const struct gm_test_file tree_files[] = {
	{ "README", "a tree to reopen\n", 0 },
};

static const struct gm_test_commit tree[] = {
	{ "The tree\n", 1000, tree_files, ARRAY_SIZE(tree_files) },
};

static void tree_setup(void)
{
	gm_test_hermetic_env();
	ck_assert_int_eq(gm_test_repo_create(&repo_dir, NULL, tree,
					     ARRAY_SIZE(tree)), 0);
}

static void tree_teardown(void)
{
	gm_test_rmtree(repo_dir);
	repo_dir = NULL;
}

static void cwd_enter(void)
{
	saved_cwd = getcwd(NULL, 0);
	ck_assert_int_eq(chdir(repo_dir), 0);
}

static void cwd_leave(void)
{
	ck_assert_int_eq(chdir(saved_cwd), 0);
	free(saved_cwd);
}

/* ==================== the test's answers ==================== */

#define MAX_WORKERS 16

/* What every worker shares: the workers made, and how to answer. */
struct fake {
	pthread_mutex_t lock;
	struct gm_repo *repos[MAX_WORKERS];	/* each worker's */
	int made, freed;
	const char *fail_new;	/* worker_new fails with this message */
	const char *text;	/* the answer of every path, else its own */
};

struct fake_worker {
	struct fake *f;
	int answered;
};

static int fake_worker_new(void **out, struct gm_repo *repo, void *payload)
{
	struct fake *f = payload;
	struct fake_worker *w;

	if (f->fail_new)
		return gm_error_set(GM_EINVALID, "%s", f->fail_new);
	if (!(w = calloc(1, sizeof(*w))))
		return gm_error_set(GM_ERROR, "out of memory");
	w->f = f;
	pthread_mutex_lock(&f->lock);
	if (f->made < MAX_WORKERS)
		f->repos[f->made] = repo;
	f->made++;
	pthread_mutex_unlock(&f->lock);
	*out = w;
	return 0;
}

static void fake_worker_free(void *worker)
{
	struct fake_worker *w = worker;

	pthread_mutex_lock(&w->f->lock);
	w->f->freed++;
	pthread_mutex_unlock(&w->f->lock);
	free(w);
}

/*
 * "none...": not in the tree; "bad...": an error; others answered with
 * two lines (or f->text), a warning shared by all and one after. Paths
 * "pN" take longer the smaller N is, so that on several threads later
 * paths are answered first.
 */
static int fake_answer(struct gm_batch_answer *out, const char *path,
		       void *worker)
{
	struct fake_worker *w = worker;
	struct gm_buf text = GM_BUF_INIT;

	w->answered++;
	if (!strncmp(path, "none", 4))
		return gm_strvec_pushf(&out->before, "'%s' is not in the tree",
				       path);
	if (!strncmp(path, "bad", 3))
		return gm_error_set(GM_ERROR, "broken");
	if (path[0] == 'p' && atoi(path + 1) > 0) {
		struct timespec t = { 0, 2000000L / atoi(path + 1) };

		nanosleep(&t, NULL);
	}
	if (gm_strvec_push(&out->shared, "shared warning") < 0 ||
	    gm_strvec_push(&out->after, "after warning") < 0)
		return GM_ERROR;
	if (w->f->text)
		gm_buf_puts(&text, w->f->text);
	else
		gm_buf_printf(&text, "one %s\ntwo\n", path);
	out->text = gm_buf_detach(&text, &out->len);
	return 0;
}

static const struct gm_batch_answerer fake_answerer = {
	fake_worker_new, fake_worker_free, fake_answer, NULL,
};

/* A run's standard output and error, and what it returned. */
struct run {
	char *out, *err;
	size_t out_len, err_len, unanswered;
	int error;
};

static void run_batch(struct run *r, struct fake *f,
		      const struct gm_batch_settings *s, const char *in_text,
		      size_t in_len)
{
	struct gm_batch_answerer a = fake_answerer;
	struct gm_repo *repo = NULL;
	FILE *in, *out, *err;

	a.payload = f;
	ck_assert_int_eq(gm_test_repo_open(&repo, NULL), 0);
	memset(r, 0, sizeof(*r));
	ck_assert_ptr_nonnull(in = fmemopen((void *)in_text, in_len, "r"));
	ck_assert_ptr_nonnull(out = open_memstream(&r->out, &r->out_len));
	ck_assert_ptr_nonnull(err = open_memstream(&r->err, &r->err_len));
	r->error = gm_batch_run(s, &a, repo, in, out, err, &r->unanswered);
	fclose(in);
	fclose(out);
	fclose(err);
	for (int i = 0; i < f->made && i < MAX_WORKERS; i++) {
		if (s->jobs == 1)	/* the calling thread, on `repo` */
			ck_assert_ptr_eq(f->repos[i], repo);
		else			/* one repository per thread */
			ck_assert_ptr_ne(f->repos[i], repo);
		for (int k = 0; k < i; k++)
			ck_assert_ptr_ne(f->repos[i], f->repos[k]);
	}
	gm_repo_free(repo);
}

static void run_release(struct run *r)
{
	free(r->out);
	free(r->err);
}

/* ==================== order, warnings, the unanswered ==================== */

/* 20 paths, among them one not in the tree, one unanswerable, one quoted. */
static const char mixed_in[] =
	"p1\np2\nnone1\np3\n\nbad1\n\"p\\t4\"\np5\np6\np7\np8\np9\np10\n"
	"p11\np12\nbad2\np13\nnone2\np14\np15\np16\n";

/* What mixed_in prints: every path in input order. */
static void mixed_expected(struct gm_buf *out, struct gm_buf *err, bool nul)
{
	const char *paths[] = {
		"p1", "p2", "none1", "p3", "bad1", "p\t4", "p5", "p6", "p7",
		"p8", "p9", "p10", "p11", "p12", "bad2", "p13", "none2",
		"p14", "p15", "p16",
	};
	char end = nul ? '\0' : '\n';

	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		const char *p = paths[i];

		if (!strncmp(p, "none", 4)) {
			gm_buf_printf(err, "warning: '%s' is not in the tree\n",
				      p);
		} else if (!strncmp(p, "bad", 3)) {
			gm_buf_printf(err, "warning: cannot answer '%s': "
				      "broken\n", p);
		} else {
			/* a record's path is C-quoted, but with -z */
			const char *q = nul || !strchr(p, '\t') ? p :
					"\"p\\t4\"";

			gm_buf_printf(out, "%s\tone %s%c%s\ttwo%c", q, p, end,
				      q, end);
			if (i == 0)
				gm_buf_puts(err, "warning: shared warning\n"
					    "warning: after warning\n");
		}
	}
}

static void check_mixed(int jobs)
{
	struct gm_batch_settings s = { jobs, false, false, false };
	struct fake f = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct gm_buf out = GM_BUF_INIT, err = GM_BUF_INIT;
	struct run r;

	run_batch(&r, &f, &s, mixed_in, sizeof(mixed_in) - 1);
	mixed_expected(&out, &err, false);
	ck_assert_int_eq(r.error, 0);
	ck_assert_str_eq(r.out, out.ptr);
	ck_assert_str_eq(r.err, err.ptr);
	ck_assert_uint_eq(r.unanswered, 2);
	ck_assert_int_eq(f.made, jobs);
	ck_assert_int_eq(f.freed, jobs);
	run_release(&r);
	gm_buf_release(&out);
	gm_buf_release(&err);
}

START_TEST(test_batch_order_one_thread)
{
	check_mixed(1);
}
END_TEST

START_TEST(test_batch_order_threads)
{
	check_mixed(2);
	check_mixed(5);
}
END_TEST

/* -z: NUL ends each path read (no quoting) and each record written. */
START_TEST(test_batch_nul)
{
	static const char in[] = "p1\0p2\0none1\0p3\0bad1\0p\t4\0p5\0p6\0p7"
		"\0p8\0p9\0p10\0p11\0p12\0bad2\0p13\0none2\0p14\0p15\0p16";
	struct gm_batch_settings s = { 3, true, false, false };
	struct fake f = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct gm_buf out = GM_BUF_INIT, err = GM_BUF_INIT;
	struct run r;

	run_batch(&r, &f, &s, in, sizeof(in));	/* "p16\0" too */
	mixed_expected(&out, &err, true);
	ck_assert_int_eq(r.error, 0);
	ck_assert_uint_eq(r.out_len, out.len);
	ck_assert_mem_eq(r.out, out.ptr, out.len);
	ck_assert_str_eq(r.err, err.ptr);
	ck_assert_uint_eq(r.unanswered, 2);
	run_release(&r);
	gm_buf_release(&out);
	gm_buf_release(&err);
}
END_TEST

/* JSON: the answer's document on one line, with its input first. */
START_TEST(test_batch_json)
{
	struct gm_batch_settings s = { 2, false, true, false };
	struct fake f = { .lock = PTHREAD_MUTEX_INITIALIZER,
			  .text = "{\n  \"a\": [1,\n    2]\n}\n" };
	struct run r;

	run_batch(&r, &f, &s, "x\nnone\ny\n", 9);
	ck_assert_int_eq(r.error, 0);
	ck_assert_str_eq(r.out, "{\"input\": \"x\", \"a\": [1,2]}\n"
			 "{\"input\": \"y\", \"a\": [1,2]}\n");
	ck_assert_str_eq(r.err, "warning: shared warning\n"
			 "warning: after warning\n"
			 "warning: 'none' is not in the tree\n");
	ck_assert_uint_eq(r.unanswered, 0);
	run_release(&r);
}
END_TEST

/* A worker that cannot be made stops the run with its error. */
static void check_no_worker(int jobs)
{
	struct gm_batch_settings s = { jobs, false, false, false };
	struct fake f = { .lock = PTHREAD_MUTEX_INITIALIZER,
			  .fail_new = "no worker here" };
	struct run r;

	run_batch(&r, &f, &s, mixed_in, sizeof(mixed_in) - 1);
	ck_assert_int_eq(r.error, GM_EINVALID);
	ck_assert_str_eq(gm_error_last(), "no worker here");
	ck_assert_str_eq(r.out, "");
	ck_assert_int_eq(f.made, 0);
	ck_assert_int_eq(f.freed, 0);
	run_release(&r);
}

START_TEST(test_batch_no_worker)
{
	check_no_worker(1);
	check_no_worker(3);
}
END_TEST

/* No input: nothing written, but each worker made is freed. */
START_TEST(test_batch_empty)
{
	struct gm_batch_settings s = { 4, false, false, false };
	struct fake f = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct run r;

	run_batch(&r, &f, &s, "\n\n", 2);
	ck_assert_int_eq(r.error, 0);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "");
	ck_assert_int_eq(f.made, 4);
	ck_assert_int_eq(f.freed, 4);
	run_release(&r);
}
END_TEST

Suite *batch_suite(void)
{
	Suite *s = suite_create("batch");
	TCase *tc = tcase_create("run");

	tcase_add_unchecked_fixture(tc, tree_setup, tree_teardown);
	tcase_add_checked_fixture(tc, cwd_enter, cwd_leave);
	tcase_add_test(tc, test_batch_order_one_thread);
	tcase_add_test(tc, test_batch_order_threads);
	tcase_add_test(tc, test_batch_nul);
	tcase_add_test(tc, test_batch_json);
	tcase_add_test(tc, test_batch_no_worker);
	tcase_add_test(tc, test_batch_empty);
	suite_add_tcase(s, tc);
	return s;
}
