#include "gm/window.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gm/error.h"
#include "gm/repo.h"
#include "gm/thread.h"

/*
 * Commits the walk ahead may have found that the caller has not taken:
 * enough for it to go on through a copy search of the caller's (tens of
 * milliseconds, a thousand commits of u-boot's), 1.5 MiB.
 */
#define AHEAD_RING 16384
/* Commits it finds before it hands them over (and the caller wakes). */
#define AHEAD_BATCH 32
/*
 * Commits it leaves uncompared for the caller while fewer than this many
 * of those wait: a caller that would wait compares them itself, and the
 * two share the comparing in runs of consecutive commits, whose trees
 * each one's reader keeps.
 */
#define AHEAD_OPEN 64

/* The walk over the window, and what it compares. */
struct finder {
	struct gm_commits_walk walk;
	const struct gm_commits_paths *paths;
};

/*
 * The walk ahead: its thread's own reader, repository and copy of the
 * paths; the commits it found in a ring, handed over under `lock`.
 */
struct ahead {
	struct gm_repo *repo;
	struct gm_commits src;
	struct gm_commits_paths paths;
	struct finder fd;
	struct gm_job job;

	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t made, taken;		/* ever, under `lock` */
	size_t opens_taken;		/* uncompared ones taken, under `lock` */
	bool done, stop, caller_waits, ahead_waits;
	struct gm_window_commit ring[AHEAD_RING];
};

struct gm_window {
	struct gm_commits *src;		/* the caller's */
	const struct gm_commits_paths *paths;
	struct finder fd;		/* alone */
	struct gm_window_commit one;	/* alone: the commit found */
	struct ahead *ahead;		/* NULL: alone */
	size_t from, to;		/* ahead: the ring's taken, not yet given */
	size_t opens_taken;		/* ahead: uncompared ones taken */
};

/* ==================== the walk ==================== */

/* Compare `c` (not a merge) at `paths`, through `src`. */
static int window_compare(struct gm_commits *src,
			  const struct gm_commits_paths *paths,
			  struct gm_window_commit *c)
{
	c->ch.nr = 0;
	return gm_commits_diff(src, paths, c->has_parent ? &c->ta : NULL,
			       &c->tb, &c->ch);
}

static int finder_start(struct finder *fd, struct gm_commits *src,
			const struct gm_commits_paths *paths,
			const git_oid *start, int64_t since)
{
	fd->paths = paths;
	return gm_commits_walk_start(&fd->walk, src, GM_COMMITS_FULL, start,
				     since, !paths->nr);
}

/*
 * The next commit of the window into `out` (whose changes are emptied
 * first), its parents queued; a non-merge one compared if `compare`,
 * else left open.
 * @return 1, 0 once none is left, or an error.
 */
static int finder_next(struct finder *fd, struct gm_window_commit *out,
		       bool compare)
{
	struct gm_commits_item it;
	struct gm_commits_parents p = { .nr = 0 };
	int error = gm_commits_walk_next(&fd->walk, &it, &p);

	if (!error)
		return 0;
	out->id = it.id;
	out->merge = p.nr > 1;
	out->has_parent = p.nr_loaded > 0;
	out->ch.nr = 0;
	out->open = !out->merge && !compare;
	if (error > 0 && !out->merge) {
		out->tb = p.tree;
		if (out->has_parent)
			out->ta = p.trees[0];
		if (compare)
			error = window_compare(fd->walk.src, fd->paths, out);
	}
	gm_commits_parents_release(&p);
	gm_commits_item_release(&it);
	return error < 0 ? error : 1;
}

/* ==================== the walk ahead ==================== */

/*
 * The commits found since the last call, `made` in all, handed over
 * (with the end, if `end`); then, unless at the end, room for more
 * awaited. @return false if the caller stopped the walk.
 */
static bool ahead_hand_over(struct ahead *a, size_t made, bool end,
			    size_t *room, size_t *opens_taken)
{
	bool go;

	pthread_mutex_lock(&a->lock);
	a->made = made;
	a->done = end;
	if (a->caller_waits)
		pthread_cond_signal(&a->cond);
	while (!end && !a->stop && made - a->taken >= AHEAD_RING) {
		a->ahead_waits = true;
		pthread_cond_wait(&a->cond, &a->lock);
	}
	a->ahead_waits = false;
	*room = AHEAD_RING - (made - a->taken);
	*opens_taken = a->opens_taken;
	go = !a->stop;
	pthread_mutex_unlock(&a->lock);
	return go;
}

static void *ahead_thread(void *arg)
{
	struct ahead *a = arg;
	size_t made = 0, batch = 0, room = AHEAD_RING, opens = 0, taken = 0;
	int error = 0, found;

	for (;;) {
		struct gm_window_commit *c = &a->ring[made % AHEAD_RING];

		if ((!room || batch == AHEAD_BATCH) &&
		    !ahead_hand_over(a, made, false, &room, &taken))
			break;
		if (batch == AHEAD_BATCH)
			batch = 0;
		found = finder_next(&a->fd, c, opens - taken >= AHEAD_OPEN);
		if (found <= 0) {
			error = found;
			break;
		}
		opens += c->open;
		made++;
		batch++;
		room--;
	}
	ahead_hand_over(a, made, true, &room, &taken);
	gm_job_done(&a->job, error);
	return NULL;
}

static void ahead_free(struct ahead *a)
{
	if (!a)
		return;
	gm_commits_walk_release(&a->fd.walk);
	gm_commits_close(&a->src);
	gm_repo_free(a->repo);
	gm_commits_paths_release(&a->paths);
	for (size_t i = 0; i < AHEAD_RING; i++)
		free(a->ring[i].ch.v);
	pthread_cond_destroy(&a->cond);
	pthread_mutex_destroy(&a->lock);
	free(a);
}

/*
 * The walk ahead of `o`, started; NULL where it cannot be (one CPU, no
 * second repository, no thread), and the caller walks alone.
 */
static struct ahead *ahead_start(const struct gm_window_options *o)
{
	struct ahead *a;

	if (!o->reopen || !o->paths->nr || gm_thread_cpus() < 2 ||
	    !(a = calloc(1, sizeof(*a))))
		return NULL;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->cond, NULL);
	if (gm_commits_paths_init(&a->paths, o->files, GM_COMMITS_FILE) < 0 ||
	    gm_repo_reopen(&a->repo, o->reopen) < 0 ||
	    gm_commits_open(&a->src, gm_repo_git(a->repo), o->packs, o->rules,
			    o->graph) < 0 ||
	    finder_start(&a->fd, &a->src, &a->paths, o->start, o->since) < 0 ||
	    !gm_job_start(&a->job, ahead_thread, a)) {
		gm_error_clear();
		ahead_free(a);
		return NULL;
	}
	return a;
}

/* Stop the walk ahead and wait for its end. @return its error, or 0. */
static int ahead_stop(struct ahead *a)
{
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_signal(&a->cond);
	pthread_mutex_unlock(&a->lock);
	return gm_job_join(&a->job);
}

/*
 * The commits handed over and not taken, into w->from..w->to, those
 * before given back; awaited if none.
 * @return 1, 0 at the end, or the walk's error.
 */
static int ahead_take(struct gm_window *w)
{
	struct ahead *a = w->ahead;
	bool end;

	pthread_mutex_lock(&a->lock);
	a->taken = w->to;
	a->opens_taken = w->opens_taken;
	if (a->ahead_waits)
		pthread_cond_signal(&a->cond);
	while (a->made == a->taken && !a->done) {
		a->caller_waits = true;
		pthread_cond_wait(&a->cond, &a->lock);
	}
	a->caller_waits = false;
	w->from = a->taken;
	w->to = a->made;
	end = a->done && w->from == w->to;
	pthread_mutex_unlock(&a->lock);
	return end ? 0 : 1;
}

/* ==================== the window ==================== */

int gm_window_start(struct gm_window **out, const struct gm_window_options *o)
{
	struct gm_window *w = calloc(1, sizeof(*w));
	int error;

	*out = NULL;
	if (!w)
		return gm_error_set(GM_ERROR, "out of memory");
	w->src = o->src;
	w->paths = o->paths;
	if (!(w->ahead = ahead_start(o)) &&
	    (error = finder_start(&w->fd, o->src, o->paths, o->start,
				  o->since)) < 0) {
		gm_window_free(w);
		return error;
	}
	*out = w;
	return 0;
}

int gm_window_next(struct gm_window *w, const struct gm_window_commit **out)
{
	struct gm_window_commit *c;
	int error;

	*out = NULL;
	if (!w->ahead) {
		error = finder_next(&w->fd, &w->one, true);
		w->one.current = true;
		*out = error > 0 ? &w->one : NULL;
		return error;
	}
	if (w->from == w->to && (error = ahead_take(w)) <= 0) {
		if (!error)
			error = ahead_stop(w->ahead);
		return error;
	}
	c = &w->ahead->ring[w->from++ % AHEAD_RING];
	c->current = c->open;
	if (c->open) {
		w->opens_taken++;
		if ((error = window_compare(w->src, w->paths, c)) < 0)
			return error;
		c->open = false;
	}
	*out = c;
	return 1;
}

bool gm_window_shallow(const struct gm_window *w)
{
	return w->ahead ? w->ahead->src.shallow : w->fd.walk.src->shallow;
}

void gm_window_free(struct gm_window *w)
{
	if (!w)
		return;
	if (w->ahead) {
		ahead_stop(w->ahead);
		ahead_free(w->ahead);
	}
	gm_commits_walk_release(&w->fd.walk);
	free(w->one.ch.v);
	free(w);
}
