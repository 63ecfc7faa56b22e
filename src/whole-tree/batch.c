#include "gm/batch.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/output.h"
#include "gm/patch.h"
#include "gm/progress.h"
#include "gm/strmap.h"
#include "gm/thread.h"

/* Answers waiting to be written, at most, per thread. */
#define BATCH_AHEAD 16
#define BATCH_MAX_JOBS 64

/* One path and, once answered, what it prints. */
struct batch_job {
	char *path;		/* NULL: nothing to answer */
	struct gm_batch_answer a;	/* its warnings; no text once written */
	char *records;
	size_t len;
	bool done;
};

/*
 * The paths in flight: jobs numbered from 0 in input order live in
 * ring[seq % size] from being read (next_in) through being taken by a
 * thread (next_take) to being written (next_out). Under `lock`.
 */
struct batch {
	const struct gm_batch_settings *s;
	const struct gm_batch_answerer *a;
	FILE *out, *err;
	pthread_mutex_t lock;
	pthread_cond_t queued;	/* a job read, the end, or an error */
	pthread_cond_t room;	/* half the ring free, or an error */
	struct batch_job *ring;
	size_t size;
	size_t next_in, next_take, next_out;
	bool reader_waits;	/* for room: woken when half the ring is free */
	bool eof;
	size_t unanswered;	/* paths that could not be read */
	int error;		/* the first, with its message */
	char message[1024];
	struct gm_strmap said;	/* warnings written: each once a run */
	struct gm_progress *progress;	/* or NULL */
	bool quote_high;	/* core.quotePath: quote bytes >= 0x80 too */
};

/* One answering thread. */
struct batch_thread {
	struct batch *b;
	struct gm_repo *repo;	/* its own */
	pthread_t thread;
	bool started;
};

static void job_release(struct batch_job *j)
{
	free(j->path);
	gm_strvec_release(&j->a.before);
	gm_strvec_release(&j->a.shared);
	gm_strvec_release(&j->a.after);
	free(j->a.text);
	free(j->records);
	memset(j, 0, sizeof(*j));
}

/*
 * The records of j's answer, as the settings want them; its text freed.
 * A text record's path is quoted as git quotes it, but with -z.
 */
static int job_records(struct batch_job *j, const struct batch *b)
{
	struct gm_buf records = GM_BUF_INIT, path = GM_BUF_INIT;
	int error;

	if (b->s->json)
		error = gm_output_batch_json(&records, j->path, j->a.text,
					     j->a.len);
	else if (b->s->nul)
		error = gm_output_batch_text(&records, j->path, j->a.text,
					     j->a.len, true);
	else if (!(error = gm_buf_put_path(&path, j->path, b->quote_high)))
		error = gm_output_batch_text(&records, path.ptr, j->a.text,
					     j->a.len, false);
	j->records = gm_buf_detach(&records, &j->len);
	gm_buf_release(&path);
	free(j->a.text);
	j->a.text = NULL;
	return error;
}

/*
 * The warnings, but with `once` those written before: a MAINTAINERS line
 * that every path meets is reported once, not once a path; a warning
 * about the path itself (not found) is the answer to that input line,
 * given each time. Under b->lock.
 */
static int say_all(struct batch *b, const struct gm_strvec *lines, bool once)
{
	if (lines->nr)
		gm_progress_hold(b->progress);
	for (size_t i = 0; i < lines->nr; i++) {
		const char *w = lines->v[i];

		if (once && gm_strmap_get(&b->said, w, strlen(w), NULL))
			continue;
		if (once && gm_strmap_put(&b->said, w, strlen(w), NULL) < 0)
			return GM_ERROR;
		gm_output_message(b->err, "warning: ", w);
	}
	if (lines->nr)
		gm_progress_resume(b->progress);
	return 0;
}

/* Write the answered jobs that are next in input order. Under b->lock. */
static int batch_drain(struct batch *b)
{
	while (b->next_out < b->next_take &&
	       b->ring[b->next_out % b->size].done) {
		struct batch_job *j = &b->ring[b->next_out % b->size];

		if (say_all(b, &j->a.before, false) < 0 ||
		    say_all(b, &j->a.shared, true) < 0)
			return GM_ERROR;
		if (gm_error_write_records(b->out, j->records, j->len) < 0 ||
		    say_all(b, &j->a.after, true) < 0)
			return GM_ERROR;
		job_release(j);
		b->next_out++;
		gm_progress_set(b->progress, b->next_out);
		if (b->reader_waits && b->next_in - b->next_out <= b->size / 2) {
			b->reader_waits = false;
			pthread_cond_signal(&b->room);
		}
	}
	return 0;
}

/* Record the first error, and wake everyone to stop. */
static void batch_fail(struct batch *b, int error)
{
	pthread_mutex_lock(&b->lock);
	if (!b->error) {
		b->error = error;
		snprintf(b->message, sizeof(b->message), "%s", gm_error_last());
	}
	pthread_cond_broadcast(&b->queued);
	pthread_cond_broadcast(&b->room);
	pthread_mutex_unlock(&b->lock);
}

/*
 * Take the next job read, waiting for one when `wait`.
 * @return it, or NULL at the end, after an error or, without `wait`, when
 * none is queued.
 */
static struct batch_job *batch_take(struct batch *b, bool wait)
{
	struct batch_job *j = NULL;

	pthread_mutex_lock(&b->lock);
	while (wait && b->next_take == b->next_in && !b->eof && !b->error)
		pthread_cond_wait(&b->queued, &b->lock);
	if (!b->error && b->next_take < b->next_in)
		j = &b->ring[b->next_take++ % b->size];
	pthread_mutex_unlock(&b->lock);
	return j;
}

/*
 * Answer one job taken, and write what is next in order. A path that
 * cannot be read or answered is a warning naming it, and counted; the
 * others are answered.
 */
static int batch_work(struct batch *b, struct batch_job *j, void *w)
{
	int error = j->path ? b->a->answer(&j->a, j->path, w) : 0;
	bool failed;

	if (!error && j->a.text)
		error = job_records(j, b);
	failed = error < 0;
	if (failed) {
		free(j->a.text);
		j->a.text = NULL;
		free(j->records);
		j->records = NULL;
		j->len = 0;
		gm_strvec_release(&j->a.after);
		if (gm_strvec_pushf(&j->a.before, "cannot answer '%s': %s",
				    j->path, gm_error_last()) < 0)
			return GM_ERROR;
	}
	pthread_mutex_lock(&b->lock);
	b->unanswered += failed;
	j->done = true;
	error = batch_drain(b);
	pthread_mutex_unlock(&b->lock);
	return error;
}

static void *batch_thread(void *payload)
{
	struct batch_thread *t = payload;
	const struct gm_batch_answerer *a = t->b->a;
	struct batch_job *j;
	void *w = NULL;
	int error = a->worker_new(&w, t->repo, a->payload);
	bool made = !error;

	while (!error && (j = batch_take(t->b, true)))
		error = batch_work(t->b, j, w);
	if (error < 0)
		batch_fail(t->b, error);
	if (made)
		a->worker_free(w);
	return NULL;
}

/*
 * Queue one job read, waiting for room; `*j` is the ring's after, or
 * released. @return 0, or the error seen.
 */
static int batch_queue(struct batch *b, struct batch_job *j)
{
	int error;

	pthread_mutex_lock(&b->lock);
	while (b->next_in - b->next_out >= b->size && !b->error) {
		b->reader_waits = true;
		pthread_cond_wait(&b->room, &b->lock);
	}
	if (!(error = b->error)) {
		b->ring[b->next_in++ % b->size] = *j;
		memset(j, 0, sizeof(*j));	/* the ring's now */
		pthread_cond_signal(&b->queued);
	}
	pthread_mutex_unlock(&b->lock);
	if (error)
		job_release(j);
	return error;
}

/* The next path of `in` as a job; 1 at the end of input. */
static int batch_read(struct batch_job *j, FILE *in, bool nul,
		      struct gm_buf *path, char **line, size_t *alloc)
{
	ssize_t n;

	memset(j, 0, sizeof(*j));
	while ((n = getdelim(line, alloc, nul ? '\0' : '\n', in)) > 0) {
		size_t len = (size_t)n;
		int quoted = 0;

		if ((*line)[len - 1] == (nul ? '\0' : '\n'))
			(*line)[--len] = '\0';
		if (!nul && (quoted = gm_patch_unquote(path, *line, len)) < 0)
			return quoted;
		if (!quoted) {
			gm_buf_reset(path);
			if (gm_buf_put(path, *line, len) < 0)
				return GM_ERROR;
		}
		if (memchr(path->ptr, '\0', path->len))
			return gm_strvec_push(&j->a.before,
					      "a path with a NUL byte is skipped");
		if (path->len)
			return (j->path = strdup(path->ptr)) ? 0 :
			       gm_error_set(GM_ERROR, "out of memory");
	}
	if (ferror(in))
		return gm_error_set(GM_ERROR, "cannot read standard input");
	return 1;	/* the caller knows the total now */
}

/* The threads to answer on: `jobs`, or one per CPU this may use. */
static int batch_jobs(int jobs)
{
	if (!jobs)
		jobs = gm_thread_cpus();
	return jobs < 1 ? 1 : jobs > BATCH_MAX_JOBS ? BATCH_MAX_JOBS : jobs;
}

/* Read every path; with `here`, answer each on `w`, as soon as it is read. */
static int batch_feed(struct batch *b, FILE *in, bool here, void *w)
{
	struct gm_buf path = GM_BUF_INIT;
	struct batch_job j, *taken;
	char *line = NULL;
	size_t alloc = 0;
	int error;

	while (!(error = batch_read(&j, in, b->s->nul, &path, &line,
				   &alloc)) &&
	       !(error = batch_queue(b, &j)))
		if (here && (taken = batch_take(b, false)) &&
		    (error = batch_work(b, taken, w)) < 0)
			break;
	if (error == 1)		/* every path read: the total is known */
		gm_progress_total(b->progress, b->next_in);
	if (error < 0)
		job_release(&j);
	free(line);
	gm_buf_release(&path);
	return error < 0 ? error : 0;
}

static int batch_start(struct batch *b, struct batch_thread *t, int n,
		       struct gm_repo *repo)
{
	int error = 0;

	for (int i = 0; i < n && !error; i++) {
		t[i].b = b;
		if ((error = gm_repo_reopen(&t[i].repo, repo)) < 0)
			break;
		t[i].started = !gm_thread_start(&t[i].thread, batch_thread,
						&t[i]);
		if (!t[i].started)
			error = gm_error_set(GM_ERROR, "cannot start a thread");
	}
	return error;
}

/* The end of input, or an error: let the threads finish and join them. */
static void batch_stop(struct batch *b, struct batch_thread *t, int n)
{
	pthread_mutex_lock(&b->lock);
	b->eof = true;
	pthread_cond_broadcast(&b->queued);
	pthread_mutex_unlock(&b->lock);
	for (int i = 0; i < n; i++) {
		if (t[i].started)
			pthread_join(t[i].thread, NULL);
		gm_repo_free(t[i].repo);
	}
}

int gm_batch_run(const struct gm_batch_settings *s,
		 const struct gm_batch_answerer *a, struct gm_repo *repo,
		 FILE *in, FILE *out, FILE *err, size_t *unanswered)
{
	struct batch b = { .s = s, .a = a, .out = out, .err = err,
			   .quote_high = true };
	struct batch_thread *t = NULL;
	void *w = NULL;
	int n = batch_jobs(s->jobs), error;

	*unanswered = 0;
	gm_repo_config_bool(repo, "core.quotePath", &b.quote_high);
	pthread_mutex_init(&b.lock, NULL);
	pthread_cond_init(&b.queued, NULL);
	pthread_cond_init(&b.room, NULL);
	b.size = (size_t)n * BATCH_AHEAD;
	gm_progress_start(&b.progress, s->progress, err, "Answering", "paths",
			  0);
	if (!(b.ring = calloc(b.size, sizeof(*b.ring))) ||
	    (n > 1 && !(t = calloc((size_t)n, sizeof(*t))))) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	if (n == 1) {
		if (!(error = a->worker_new(&w, repo, a->payload))) {
			error = batch_feed(&b, in, true, w);
			a->worker_free(w);
		}
	} else if (!(error = batch_start(&b, t, n, repo))) {
		error = batch_feed(&b, in, false, NULL);
	}
	if (error < 0)
		batch_fail(&b, error);
	batch_stop(&b, t, n > 1 ? n : 0);
	*unanswered = b.unanswered;
	if (b.error)
		error = gm_error_set(b.error, "%s", b.message);
	else if (fflush(out))
		error = gm_error_set(GM_ERROR, "write error on standard output");
out:
	gm_progress_stop(b.progress);
	gm_strmap_release(&b.said);
	for (size_t i = 0; b.ring && i < b.size; i++)
		job_release(&b.ring[i]);
	free(b.ring);
	free(t);
	pthread_cond_destroy(&b.room);
	pthread_cond_destroy(&b.queued);
	pthread_mutex_destroy(&b.lock);
	return error;
}
