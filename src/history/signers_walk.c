#include "gm/signers.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <git2/sys/repository.h>

#include "gm/error.h"
#include "gm/follow.h"
#include "gm/graph.h"
#include "gm/objects.h"
#include "gm/pack.h"
#include "gm/pqueue.h"
#include "gm/strmap.h"
#include "gm/thread.h"

/*
 * gm_signers_walk(): the commits of the window, and for each non-merge
 * one the files it changed at their current paths, renames followed.
 * Where there are packs and a second CPU, a scout walks ahead on a
 * thread of its own (see "the scout" below).
 */

/* ==================== trees ==================== */

#define TREE_SLOTS 1024

/* An entry of a tree at some path; `found` false for none. */
struct entry {
	bool found;
	git_oid id;
	git_filemode_t mode;
};

/*
 * Trees read through `objs` and kept in a direct-mapped cache, for one
 * thread. `strict`: a tree that cannot be read is GM_ENOTFOUND instead
 * of no tree (a reader of the packs alone, which may not have it).
 */
struct trees {
	struct gm_objects objs;
	struct gm_objects_tree *slot[TREE_SLOTS];
	bool strict;
};

static void trees_release(struct trees *t)
{
	for (size_t i = 0; i < TREE_SLOTS; i++)
		gm_objects_tree_free(t->slot[i]);
	git_odb_free(t->objs.odb);
	gm_pack_reader_free(t->objs.pack);
}

/* The tree `id`, indexed; NULL if unread. */
static struct gm_objects_tree *tree_get(struct trees *tr, const git_oid *id)
{
	size_t slot;
	struct gm_objects_tree **t;

	memcpy(&slot, id->id, sizeof(slot));
	t = &tr->slot[slot % TREE_SLOTS];
	if (*t && git_oid_equal(&(*t)->id, id))
		return *t;
	gm_objects_tree_free(*t);
	*t = gm_objects_tree_read(&tr->objs, id);
	return *t;
}

/*
 * The entry `name` (`len` bytes) of tree `id` (NULL: none).
 * @return 0, or GM_ENOTFOUND if `tr` is strict and the tree unread.
 */
static int tree_entry(struct trees *tr, const git_oid *id, const char *name,
		      size_t len, struct entry *out)
{
	const struct gm_objects_tree *t;
	const struct gm_objects_entry *e;

	out->found = false;
	if (!id)
		return 0;
	if (!(t = tree_get(tr, id)))
		return tr->strict ? GM_ENOTFOUND : 0;
	if (!(e = gm_objects_tree_find(t, name, len, 0)))
		return 0;
	out->found = true;
	git_oid_fromraw(&out->id, e->id);
	out->mode = (git_filemode_t)e->mode;
	return 0;
}

static bool is_tree(const struct entry *e)
{
	return e->found && e->mode == GIT_FILEMODE_TREE;
}

static bool same_entry(const struct entry *a, const struct entry *b)
{
	if (a->found != b->found)
		return false;
	return !a->found || (a->mode == b->mode && git_oid_equal(&a->id, &b->id));
}

/* ==================== comparing trees at paths ==================== */

/*
 * Files compared at their paths: `order` the `nr` compared, sorted by
 * path; `paths` and `dir` per file of the walk.
 */
struct pathset {
	char **paths;		/* per file: its path, no final '/' */
	const bool *dir;	/* per file: a directory */
	size_t *order;
	size_t nr;
};

/* A file a commit changed: its parent's entry and its own. */
struct change {
	size_t file;
	struct entry a, b;
};

struct changes {
	struct change *v;
	size_t nr, alloc;
};

/* Compare paths component by component: '/' sorts before any byte. */
static int path_cmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		unsigned x = *a == '/' ? 1 : (unsigned char)*a + 1;
		unsigned y = *b == '/' ? 1 : (unsigned char)*b + 1;

		if (!*a)
			x = 0;
		if (!*b)
			y = 0;
		if (x != y || !x)
			return (int)x - (int)y;
	}
}

static _Thread_local const char *const *sort_paths;

static int order_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = path_cmp(sort_paths[x], sort_paths[y]);

	return c ? c : (x > y) - (x < y);
}

/* Sort the set by its paths (qsort has no payload). */
static void pathset_sort(struct pathset *ps)
{
	sort_paths = (const char *const *)ps->paths;
	qsort(ps->order, ps->nr, sizeof(*ps->order), order_cmp);
	sort_paths = NULL;
}

static int note_change(struct changes *c, size_t f, const struct entry *a,
		       const struct entry *b)
{
	if (GM_ARRAY_GROW(c->v, c->nr, c->alloc) < 0)
		return GM_ERROR;
	c->v[c->nr++] = (struct change){ f, *a, *b };
	return 0;
}

/*
 * Compare the trees `ta` and `tb` (NULL: none) at the files order[lo..hi)
 * of `ps`, whose paths share their first `off` bytes, the directory the
 * trees are; the files changed appended to `out`.
 * @return 0, GM_ERROR, or GM_ENOTFOUND (a strict reader's unread tree).
 */
static int diff_level(struct trees *tr, const struct pathset *ps,
		      struct changes *out, const git_oid *ta,
		      const git_oid *tb, size_t lo, size_t hi, size_t off)
{
	char *const *paths = ps->paths;
	const size_t *order = ps->order;
	size_t i = lo;
	int error = 0;

	while (i < hi && !error) {
		const char *p = paths[order[i]] + off;
		size_t len = strcspn(p, "/"), j = i;
		struct entry a, b;
		git_oid ida, idb;

		while (j < hi && !strncmp(paths[order[j]] + off, p, len) &&
		       (paths[order[j]][off + len] == '/' ||
			!paths[order[j]][off + len]))
			j++;
		if ((error = tree_entry(tr, ta, p, len, &a)) < 0 ||
		    (error = tree_entry(tr, tb, p, len, &b)) < 0)
			break;
		if (same_entry(&a, &b)) {
			i = j;
			continue;
		}
		for (size_t k = i; k < j && !error; k++) {
			size_t f = order[k];

			if (paths[f][off + len])
				continue;
			if (!ps->dir[f] && (!is_tree(&a) || !is_tree(&b)))
				error = note_change(out, f, &a, &b);
			else if (ps->dir[f] && (is_tree(&a) || is_tree(&b)))
				error = note_change(out, f, &a, &b);
		}
		if (error)
			break;
		git_oid_cpy(&ida, &a.id);
		git_oid_cpy(&idb, &b.id);
		while (i < j && !paths[order[i]][off + len])
			i++;
		if (i < j && (is_tree(&a) || is_tree(&b)))
			error = diff_level(tr, ps, out, is_tree(&a) ? &ida : NULL,
					   is_tree(&b) ? &idb : NULL, i, j,
					   off + len + 1);
		i = j;
	}
	return error;
}

/* ==================== the queue of commits ==================== */

/*
 * A commit to walk; `in_graph` if the commit-graph has it, as `gc`; `c`
 * the commit if libgit2 read it, `raw` if it was parsed (each the
 * queue's, until the item is walked).
 */
struct qitem {
	git_oid id;
	int64_t time;		/* the committer's */
	uint64_t seq;		/* insertion order: ties come out first in */
	bool in_graph;
	struct gm_graph_commit gc;
	git_commit *c;
	struct gm_objects_commit *raw;
};

/* Commits by time, newest first; `seen` (if any) the ids ever queued. */
struct queue {
	struct gm_pqueue heap;
	uint64_t seq;
	struct gm_strmap *seen;
};

static void raw_free(struct gm_objects_commit *r)
{
	if (r)
		gm_objects_commit_release(r);
	free(r);
}

static void item_release(struct qitem *it)
{
	git_commit_free(it->c);
	raw_free(it->raw);
	it->c = NULL;
	it->raw = NULL;
}

/* Newest first; of equal times, the first queued. */
static bool q_before(const void *x, const void *y)
{
	const struct qitem *a = x, *b = y;

	return a->time != b->time ? a->time > b->time : a->seq < b->seq;
}

static void q_init(struct queue *q, struct gm_strmap *seen)
{
	gm_pqueue_init(&q->heap, sizeof(struct qitem), q_before);
	q->seq = 0;
	q->seen = seen;
}

static int q_push(struct queue *q, struct qitem it)
{
	it.seq = q->seq++;
	return gm_pqueue_push(&q->heap, &it);
}

static bool q_pop(struct queue *q, struct qitem *out)
{
	return gm_pqueue_pop(&q->heap, out);
}

static struct qitem *q_at(struct queue *q, size_t i)
{
	return gm_pqueue_at(&q->heap, i);
}

/* The items released, the queue emptied. */
static void q_release(struct queue *q)
{
	for (size_t i = 0; i < q->heap.nr; i++)
		item_release(q_at(q, i));
	gm_pqueue_release(&q->heap);
}

/*
 * Queue `it` (what was read with it going with it) unless `q` saw it
 * before; what is not queued is released.
 */
static int enqueue(struct queue *q, struct qitem *it)
{
	char hex[GIT_OID_HEXSZ + 1];
	int error = 0;

	git_oid_tostr(hex, sizeof(hex), &it->id);
	if (!q->seen || !gm_strmap_get(q->seen, hex, GIT_OID_HEXSZ, NULL)) {
		if (q->seen)
			error = gm_strmap_put(q->seen, hex, GIT_OID_HEXSZ, NULL);
		if (!error && !(error = q_push(q, *it)))
			it->c = NULL, it->raw = NULL;	/* the queue's now */
	}
	item_release(it);
	return error;
}

/*
 * The items of `from` queued in `q`, emptying it: taken in its order, so
 * that those of equal times keep the order they were queued in, as if
 * queued in `q` in the first place.
 */
static int q_move(struct queue *q, struct queue *from)
{
	struct qitem it;
	int error = 0;

	while (!error && q_pop(from, &it))
		error = enqueue(q, &it);
	return error;
}

/* Queue commit `gc` of the graph, unread. */
static int enqueue_graph(const struct gm_graph *g, struct queue *q,
			 struct gm_graph_commit gc)
{
	struct qitem it = { .in_graph = true, .gc = gc };

	gm_graph_commit_id(g, gc, &it.id);
	it.time = gm_graph_commit_time(g, gc);
	return enqueue(q, &it);
}

/*
 * The parents of `it` queued from the graph, their number in `*n` (-1:
 * the graph cannot say); its tree in `tb`, its only parent's in `ta`.
 * @return 0 or GM_ERROR.
 */
static int parents_from_graph(const struct gm_graph *g, struct queue *q,
			      struct qitem *it, int *n, git_oid *ta,
			      git_oid *tb)
{
	struct gm_graph_commit p[2];

	*n = it->in_graph ? gm_graph_commit_parents(g, it->gc, p) : -1;
	for (int i = 0; i < *n; i++)
		if (enqueue_graph(g, q, p[i]) < 0)
			return GM_ERROR;
	if (*n == 1)
		gm_graph_commit_tree(g, p[0], ta);
	if (*n >= 0)
		gm_graph_commit_tree(g, it->gc, tb);
	return 0;
}

/* ==================== commits read ==================== */

/*
 * Commit `id` as git reads it (gm_objects_commit_read()), into `*out`
 * (the caller's).
 * @return 0, GM_ENOTFOUND (unreadable through `objs`), or GM_ERROR.
 */
static int raw_read(struct gm_objects_commit **out,
		    const struct gm_objects *objs, const git_oid *id)
{
	struct gm_objects_commit *r = calloc(1, sizeof(*r));
	int error;

	*out = NULL;
	if (!r)
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = gm_objects_commit_read(r, objs, id)) < 0) {
		raw_free(r);
		return error;
	}
	*out = r;
	return 0;
}

/* ==================== the walk ==================== */

/* A change of one file in one commit, its numstat still to count. */
struct pending {
	size_t file, touch;
	struct entry a, b;	/* parent's, commit's */
};

struct scout;

struct walk {
	git_repository *repo;
	const struct gm_signers_options *opts;
	struct gm_objects_rules *rules;	/* how git reads commits here */
	const struct gm_graph *graph;	/* opts->graph, if git reads it */
	struct gm_signers *s;
	struct trees trees;
	char **paths;		/* per file: its current path, no final '/' */
	bool *dir;		/* per file: a directory */
	bool *moved;		/* per file: followed to another path */
	struct pathset all;	/* every file */
	struct pathset away;	/* the files moved (the scout's are stale) */
	struct gm_strmap seen;	/* hex ids of queued commits */
	struct queue q;
	struct changes ch;	/* the files the commit examined changed */
	struct pending *pending;
	size_t nr_pending, alloc_pending;
	struct gm_follow *follow;	/* the copy searches' cache */
	struct scout *scout;	/* NULL: the walk walks alone */
};

/*
 * The author and message of `it`: libgit2's reading of the object that
 * stands for it (its replacement, if any).
 */
static int item_commit(struct walk *w, struct qitem *it)
{
	const git_oid *id = gm_objects_replaced(w->rules, &it->id);

	if (!it->c && git_commit_lookup(&it->c, w->repo, id) < 0)
		return gm_error_from_git(GIT_ERROR, "cannot read a commit");
	return 0;
}

/*
 * Queue commit `id`, read as `r` (which is the queue's from now on),
 * found in the graph with its own tree if there.
 */
static int enqueue_read(const struct gm_graph *g, struct queue *q,
			const git_oid *id, struct gm_objects_commit *r)
{
	struct qitem it = { .time = r->time, .raw = r };

	git_oid_cpy(&it.id, id);
	it.in_graph = gm_graph_find(g, id, &r->tree, &it.gc);
	return enqueue(q, &it);
}

/* File `f` now at `path` (the walk's): a path of the set `away`. */
static int walk_move(struct walk *w, size_t f, char *path)
{
	free(w->paths[f]);
	w->paths[f] = path;
	if (!w->moved[f]) {
		w->moved[f] = true;
		w->away.order[w->away.nr++] = f;
	}
	pathset_sort(&w->all);
	pathset_sort(&w->away);
	return 0;
}

/* The touch of file `f` by commit `k`, and its numstat to count. */
static int note_touch(struct walk *w, size_t k, const struct change *c,
		      bool renamed)
{
	struct gm_signers_file *file = &w->s->files[c->file];
	struct gm_signers_touch *t;
	struct pending *p;

	if (GM_ARRAY_GROW(file->touches, file->nr_touches,
			  file->alloc_touches) < 0 ||
	    GM_ARRAY_GROW(w->pending, w->nr_pending, w->alloc_pending) < 0)
		return GM_ERROR;
	t = &file->touches[file->nr_touches];
	memset(t, 0, sizeof(*t));
	t->commit = k;
	t->added = t->deleted = -1;
	if (!w->dir[c->file] && !renamed &&
	    !(t->path = strdup(w->paths[c->file])))
		return gm_error_set(GM_ERROR, "out of memory");
	p = &w->pending[w->nr_pending++];
	*p = (struct pending){ c->file, file->nr_touches++, c->a, c->b };
	return 0;
}

/* Record the changes `w->ch` of the commit examined, following renames. */
static int record(struct walk *w, struct qitem *it, const git_oid *ta,
		  const git_oid *tb)
{
	struct gm_signers *s = w->s;
	size_t k = s->nr_commits;
	int error;

	if (GM_ARRAY_GROW(s->commits, s->nr_commits, s->alloc_commits) < 0)
		return GM_ERROR;
	if ((error = item_commit(w, it)) < 0 ||
	    (error = gm_signers_commit_read(&s->commits[k], it->c,
					    w->opts->all_signature_types)) < 0)
		return error;
	git_oid_cpy(&s->commits[k].id, &it->id);	/* not its replacement's */
	s->nr_commits++;
	for (size_t i = 0; i < w->ch.nr && !error; i++) {
		const struct change *c = &w->ch.v[i];
		char *source = NULL;

		if (!w->dir[c->file] && !c->a.found && c->b.found &&
		    (error = gm_follow_source(&source, w->follow, ta, tb,
					      w->paths[c->file], &c->b.id,
					      c->b.mode)) < 0)
			break;
		if ((error = note_touch(w, k, c, source != NULL)) < 0 ||
		    (source && (error = gm_strvec_push(
				&s->files[c->file].renamed_from, source)) < 0)) {
			free(source);
			break;
		}
		if (source)
			error = walk_move(w, c->file, source);
	}
	return error;
}

/*
 * The parents of `it` from the commit read, queued. One that cannot be
 * read makes it a root, as a shallow clone's boundary is to git (its
 * parents grafted away: git log shows it adding its files), none queued.
 */
static int parents_from_commit(struct walk *w, struct queue *q,
			       struct qitem *it, int *n, git_oid *ta,
			       git_oid *tb)
{
	struct gm_objects_commit **ps = NULL;
	size_t nr, i;
	int error = 0;

	if (!it->raw && (error = raw_read(&it->raw, &w->trees.objs,
					  &it->id)) < 0)
		return error == GM_ERROR ? error :
			gm_error_set(GM_ERROR, "cannot read commit %s",
				     git_oid_tostr_s(&it->id));
	nr = it->raw->nr_parents;
	w->s->shallow |= it->raw->shallow;
	git_oid_cpy(tb, &it->raw->tree);
	if (nr && !(ps = calloc(nr, sizeof(*ps))))
		return gm_error_set(GM_ERROR, "out of memory");
	for (i = 0; i < nr && !error; i++)
		if ((error = raw_read(&ps[i], &w->trees.objs,
				      &it->raw->parents[i])) < 0)
			break;
	if (error == GM_ENOTFOUND)
		error = 0;
	w->s->shallow |= i < nr;
	*n = i < nr ? 0 : (int)nr;
	if (*n)
		git_oid_cpy(ta, &ps[0]->tree);
	for (i = 0; i < nr; i++) {
		if (*n && !error)	/* the queue's */
			error = enqueue_read(w->graph, q,
					     &it->raw->parents[i], ps[i]);
		else
			raw_free(ps[i]);
	}
	free(ps);
	return error;
}

/*
 * Commit `it` compared with its parent's tree `ta` at the files of `ps`,
 * the changes added to those in `w->ch`, and recorded if there are any.
 * No changed-path filter is asked: git log --follow asks none.
 */
static int walk_compare(struct walk *w, struct qitem *it, const git_oid *ta,
			const git_oid *tb, const struct pathset *ps)
{
	int error = 0;

	if (ps->nr)
		error = diff_level(&w->trees, ps, &w->ch, ta, tb, 0, ps->nr, 0);
	if (!error && w->ch.nr)
		error = record(w, it, ta, tb);
	return error;
}

/*
 * One commit of the window, every file compared: its parents queued in
 * `q`; a non-merge examined.
 */
static int walk_commit(struct walk *w, struct queue *q, struct qitem *it)
{
	git_oid ta, tb;
	int n, error;

	if ((error = parents_from_graph(w->graph, q, it, &n, &ta,
					&tb)) < 0 ||
	    (n < 0 && (error = parents_from_commit(w, q, it, &n, &ta, &tb)) < 0))
		return error;
	if (n > 1)
		return 0;
	w->ch.nr = 0;
	return walk_compare(w, it, n ? &ta : NULL, &tb, &w->all);
}

/* The walk alone, from the commits queued in `w->q`. */
static int walk_alone(struct walk *w)
{
	struct qitem it;
	int error = 0;

	while (!error && q_pop(&w->q, &it)) {
		if (it.time >= w->opts->since) {
			w->s->walked++;
			error = walk_commit(w, &w->q, &it);
		}
		item_release(&it);
	}
	return error;
}

/* ==================== the scout ==================== */

/*
 * The scout walks ahead of the walk, on a thread of its own: it pops the
 * commits in the walk's order, takes their parents and trees from the
 * commit-graph or reads them from the packs (a reader of its own; no
 * libgit2, whose objects are one thread's), and compares each non-merge
 * one with its parent at the files' first paths. The walk takes its
 * findings in that order and compares itself only the files it has
 * followed to other paths (`away`). While fewer than SCOUT_OPEN of its
 * findings wait for the walk uncompared, the scout leaves the next one
 * uncompared too: a walk that would wait compares those itself, at
 * every file, and the two share the comparing. A commit the scout
 * cannot read from the packs (a loose object, a parent missing) it
 * hands over: the walk walks that one as it walks alone and gives back
 * its parents.
 */
struct finding {
	struct qitem it;	/* nothing read with it */
	bool handover;		/* the walk's to walk */
	bool open;		/* not compared: the walk's to compare */
	int parents;		/* 0 or 1 */
	git_oid ta, tb;		/* the parent's tree, the commit's */
	struct changes ch;	/* at the first paths */
};

struct scout {
	/* the scout's thread's alone while it runs */
	const struct gm_signers_options *opts;
	const struct gm_graph *graph;
	struct trees trees;
	struct pathset first;
	size_t nr_files;
	struct gm_strmap seen;
	struct queue q;
	size_t walked;
	bool shallow;		/* a commit at the shallow boundary was read */
	/* shared, under `lock` */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct finding *v;
	size_t nr, alloc, taken;
	size_t open;		/* findings from `taken` on that are open */
	struct queue reply;	/* the parents of a commit handed over */
	bool replied, done, stop;
	struct gm_job job;
};

static void finding_release(struct finding *f)
{
	item_release(&f->it);
	free(f->ch.v);
}

/* Findings the scout may have ahead of the walk before it waits. */
#define SCOUT_AHEAD 1024
/* Open findings the scout leaves the walk before it compares again. */
#define SCOUT_OPEN 16

/* Hand `f` to the walk. @return 0 or GM_ERROR. */
static int scout_publish(struct scout *sc, struct finding *f)
{
	int error = 0;

	pthread_mutex_lock(&sc->lock);
	while (sc->nr - sc->taken >= SCOUT_AHEAD && !sc->stop)
		pthread_cond_wait(&sc->cond, &sc->lock);
	if (GM_ARRAY_GROW(sc->v, sc->nr, sc->alloc) < 0) {
		error = GM_ERROR;
	} else {
		sc->v[sc->nr++] = *f;
		sc->open += f->open;
	}
	pthread_cond_broadcast(&sc->cond);
	pthread_mutex_unlock(&sc->lock);
	if (error)
		finding_release(f);
	return error;
}

/* Hand commit `it` over and queue the parents the walk gives back. */
static int scout_hand_over(struct scout *sc, struct qitem *it)
{
	struct finding f = { .it = *it, .handover = true };
	struct queue reply;
	int error;

	it->c = NULL, it->raw = NULL;
	item_release(&f.it);
	if ((error = scout_publish(sc, &f)) < 0)
		return error;
	pthread_mutex_lock(&sc->lock);
	while (!sc->replied && !sc->stop)
		pthread_cond_wait(&sc->cond, &sc->lock);
	reply = sc->reply;
	q_init(&sc->reply, NULL);
	sc->replied = false;
	pthread_mutex_unlock(&sc->lock);
	error = q_move(&sc->q, &reply);
	q_release(&reply);
	return error;
}

/*
 * The parents of `it` read from the packs, into `parents` (not yet
 * queued); the trees as parents_from_graph().
 * @return 0, GM_ENOTFOUND (something not in the packs), GM_ERROR.
 */
static int scout_parents(struct scout *sc, struct qitem *it,
			 struct queue *parents, int *n, git_oid *ta,
			 git_oid *tb)
{
	const struct gm_graph *g = sc->graph;
	int error;

	if ((error = parents_from_graph(g, parents, it, n, ta, tb)) < 0 ||
	    *n >= 0)
		return error;
	if (!it->raw &&
	    (error = raw_read(&it->raw, &sc->trees.objs, &it->id)) < 0)
		return error;
	git_oid_cpy(tb, &it->raw->tree);
	sc->shallow |= it->raw->shallow;
	*n = (int)it->raw->nr_parents;
	for (size_t i = 0; i < it->raw->nr_parents; i++) {
		struct qitem p = { .id = it->raw->parents[i] };

		if ((error = raw_read(&p.raw, &sc->trees.objs, &p.id)) < 0)
			return error;
		p.time = p.raw->time;
		p.in_graph = gm_graph_find(g, &p.id, &p.raw->tree, &p.gc);
		if (i == 0)
			git_oid_cpy(ta, &p.raw->tree);
		if ((error = q_push(parents, p)) < 0) {
			item_release(&p);
			return error;
		}
	}
	return 0;
}


/* Whether the walk has fewer than SCOUT_OPEN open findings waiting. */
static bool scout_leaves_open(struct scout *sc)
{
	bool few;

	pthread_mutex_lock(&sc->lock);
	few = sc->open < SCOUT_OPEN;
	pthread_mutex_unlock(&sc->lock);
	return few;
}

/* One commit of the window: its finding published, its parents queued. */
static int scout_commit(struct scout *sc, struct qitem *it)
{
	struct finding f = { .it = *it };
	struct queue parents;
	int n, error;

	q_init(&parents, NULL);
	error = scout_parents(sc, it, &parents, &n, &f.ta, &f.tb);
	f.parents = n;
	if (!error && n <= 1) {
		if (scout_leaves_open(sc))
			f.open = true;
		else
			error = diff_level(&sc->trees, &sc->first, &f.ch,
					   n ? &f.ta : NULL, &f.tb, 0,
					   sc->first.nr, 0);
	}
	if (error == GM_ENOTFOUND) {
		q_release(&parents);
		free(f.ch.v);
		return scout_hand_over(sc, it);
	}
	if (!error)
		error = q_move(&sc->q, &parents);
	q_release(&parents);
	if (error || n > 1) {
		free(f.ch.v);
		return error;
	}
	f.it.c = NULL, f.it.raw = NULL;		/* `it`'s, released by the caller */
	return scout_publish(sc, &f);
}

static bool scout_stopped(struct scout *sc)
{
	bool stop;

	pthread_mutex_lock(&sc->lock);
	stop = sc->stop;
	pthread_mutex_unlock(&sc->lock);
	return stop;
}

static void *scout_run(void *arg)
{
	struct scout *sc = arg;
	struct qitem it;
	int error = 0;

	while (!error && !scout_stopped(sc) && q_pop(&sc->q, &it)) {
		if (it.time >= sc->opts->since) {
			sc->walked++;
			error = scout_commit(sc, &it);
		}
		item_release(&it);
	}
	pthread_mutex_lock(&sc->lock);
	sc->done = true;
	pthread_cond_broadcast(&sc->cond);
	pthread_mutex_unlock(&sc->lock);
	gm_job_done(&sc->job, error);
	return NULL;
}

static void scout_free(struct scout *sc)
{
	if (!sc)
		return;
	for (size_t i = sc->taken; i < sc->nr; i++)
		finding_release(&sc->v[i]);
	free(sc->v);
	q_release(&sc->q);
	q_release(&sc->reply);
	gm_strmap_release(&sc->seen);
	trees_release(&sc->trees);
	for (size_t i = 0; sc->first.paths && i < sc->nr_files; i++)
		free(sc->first.paths[i]);
	free(sc->first.paths);
	free(sc->first.order);
	pthread_cond_destroy(&sc->cond);
	pthread_mutex_destroy(&sc->lock);
	free(sc);
}

/* A scout for walk `w` (its files as they are now), not yet started. */
static int scout_new(struct scout **out, const struct walk *w)
{
	struct scout *sc = calloc(1, sizeof(*sc));
	size_t n = w->s->nr_files;

	*out = NULL;
	if (!sc)
		return gm_error_set(GM_ERROR, "out of memory");
	pthread_mutex_init(&sc->lock, NULL);
	pthread_cond_init(&sc->cond, NULL);
	sc->opts = w->opts;
	sc->graph = w->graph;
	sc->trees.objs.rules = w->rules;
	sc->nr_files = n;
	q_init(&sc->q, &sc->seen);
	q_init(&sc->reply, NULL);
	sc->trees.strict = true;
	sc->first.dir = w->dir;	/* never written again */
	sc->first.nr = n;
	if (!(sc->first.paths = calloc(n + 1, sizeof(*sc->first.paths))) ||
	    !(sc->first.order = calloc(n + 1, sizeof(*sc->first.order))) ||
	    gm_pack_reader_new(&sc->trees.objs.pack, w->opts->packs, 0) < 0)
		goto oom;
	for (size_t i = 0; i < n; i++) {
		sc->first.order[i] = w->all.order[i];
		if (!(sc->first.paths[i] = strdup(w->paths[i])))
			goto oom;
	}
	*out = sc;
	return 0;
oom:
	scout_free(sc);
	return gm_error_set(GM_ERROR, "out of memory");
}

/* The next finding, waited for; false once the scout is done. */
static bool scout_next(struct scout *sc, struct finding *out)
{
	bool got;

	pthread_mutex_lock(&sc->lock);
	while (sc->taken == sc->nr && !sc->done)
		pthread_cond_wait(&sc->cond, &sc->lock);
	got = sc->taken < sc->nr;
	if (got) {
		*out = sc->v[sc->taken++];
		sc->open -= out->open;
	}
	if (sc->nr - sc->taken == SCOUT_AHEAD / 2)	/* it may be waiting */
		pthread_cond_broadcast(&sc->cond);
	if (sc->taken == sc->nr)	/* all taken: the array again from 0 */
		sc->taken = sc->nr = 0;
	pthread_mutex_unlock(&sc->lock);
	return got;
}

/* Give the scout `parents` (theirs from now on), nothing read with them. */
static void scout_reply(struct scout *sc, struct queue *parents)
{
	for (size_t i = 0; i < parents->heap.nr; i++)
		item_release(q_at(parents, i));
	pthread_mutex_lock(&sc->lock);
	sc->reply = *parents;
	sc->replied = true;
	pthread_cond_broadcast(&sc->cond);
	pthread_mutex_unlock(&sc->lock);
	q_init(parents, NULL);
}

/* Stop the scout and wait for it. @return its error, or 0. */
static int scout_join(struct scout *sc)
{
	pthread_mutex_lock(&sc->lock);
	sc->stop = true;
	pthread_cond_broadcast(&sc->cond);
	pthread_mutex_unlock(&sc->lock);
	return gm_job_join(&sc->job);
}

/*
 * A commit the scout read: compared here at every file if it is open,
 * else the scout's comparison taken and the moved files compared here.
 */
static int walk_finding(struct walk *w, struct finding *f)
{
	const git_oid *ta = f->parents ? &f->ta : NULL;
	int error = 0;

	w->ch.nr = 0;
	if (f->open)
		return walk_compare(w, &f->it, ta, &f->tb, &w->all);
	for (size_t i = 0; i < f->ch.nr && !error; i++)
		if (!w->moved[f->ch.v[i].file])
			error = note_change(&w->ch, f->ch.v[i].file,
					    &f->ch.v[i].a, &f->ch.v[i].b);
	return error ? error : walk_compare(w, &f->it, ta, &f->tb, &w->away);
}

/* A commit handed over: walked here, its parents given back. */
static int walk_handed(struct walk *w, struct qitem *it)
{
	struct queue parents;
	int error;

	q_init(&parents, NULL);
	error = walk_commit(w, &parents, it);
	scout_reply(w->scout, &parents);
	return error;
}

/* The walk with its scout ahead, which is joined. */
static int walk_scouted(struct walk *w)
{
	struct scout *sc = w->scout;
	struct finding f;
	int error = 0, scout_error;

	while (!error && scout_next(sc, &f)) {
		error = f.handover ? walk_handed(w, &f.it) : walk_finding(w, &f);
		finding_release(&f);
	}
	scout_error = scout_join(sc);
	w->s->walked += sc->walked;
	w->s->shallow |= sc->shallow;
	return error ? error : scout_error;
}

/* ==================== numstat ==================== */

/* Whether git would show `path` as binary: a NUL, or the -diff attribute. */
static bool attr_binary(git_repository *repo, const char *path)
{
	const char *v = NULL;

	if (!path || git_attr_get(&v, repo, GIT_ATTR_CHECK_FILE_THEN_INDEX,
				  path, "diff") < 0)
		return false;
	return GIT_ATTR_IS_FALSE(v);
}

/*
 * The repository attributes are read from: `repo` opened again with an
 * empty index. git log reads attributes from the work tree (and
 * info/attributes, core.attributesFile) and never from the index, which
 * it does not load; libgit2 falls back to the index, so its index is
 * made empty (which also spares reading it); the blobs whose lines are
 * counted are read from it too, as their diff looks up their attributes
 * in the repository they come from. `repo` itself if it cannot
 * be opened so, or not at the same work tree.
 */
static git_repository *attr_repo_open(git_repository *repo)
{
	const char *wd = git_repository_workdir(repo), *wd2;
	git_repository *r = NULL;
	git_index *index = NULL;

	if (!wd || git_repository_open(&r, git_repository_path(repo)) < 0)
		return repo;
	if (!(wd2 = git_repository_workdir(r)) || strcmp(wd, wd2) ||
	    git_index_new(&index) < 0 || git_repository_set_index(r, index) < 0) {
		git_index_free(index);
		git_repository_free(r);
		return repo;
	}
	git_index_free(index);
	return r;
}

/* The blob of `e` (or its replacement), if a file's. */
static int blob_of(git_blob **out, git_repository *repo,
		   const struct gm_objects_rules *rules, const struct entry *e)
{
	*out = NULL;
	if (!e->found || e->mode == GIT_FILEMODE_COMMIT ||
	    e->mode == GIT_FILEMODE_TREE)
		return 0;
	return git_blob_lookup(out, repo, gm_objects_replaced(rules, &e->id)) <
	       0 ? -1 : 0;
}

/* The numstat of `p`, through this thread's `repo` (attr_repo_open()). */
static void count_lines(struct walk *w, git_repository *repo,
			const struct pending *p)
{
	struct gm_signers_touch *t =
		&w->s->files[p->file].touches[p->touch];
	git_diff_options o;
	git_blob *a = NULL, *b = NULL;
	git_patch *patch = NULL;
	size_t adds = 0, dels = 0;

	if (!t->path)
		return;		/* never matched: not counted */
	/* from `repo`: the diff of blobs asks it for their attributes */
	if (blob_of(&a, repo, w->rules, &p->a) < 0 ||
	    blob_of(&b, repo, w->rules, &p->b) < 0)
		goto out;
	if ((a && gm_objects_binary(git_blob_rawcontent(a), git_blob_rawsize(a))) ||
	    (b && gm_objects_binary(git_blob_rawcontent(b), git_blob_rawsize(b))) ||
	    attr_binary(repo, t->path))
		goto out;	/* "-\t-" */
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.flags = GIT_DIFF_FORCE_TEXT;
	o.context_lines = 0;
	if (git_patch_from_blobs(&patch, a, NULL, b, NULL, &o) < 0 ||
	    git_patch_line_stats(NULL, &adds, &dels, patch) < 0)
		goto out;
	t->added = (long)adds;
	t->deleted = (long)dels;
out:
	git_patch_free(patch);
	git_blob_free(a);
	git_blob_free(b);
}

/*
 * The line counts of the walk's touches, on two threads where there is
 * a second CPU: the other counts from the back through a repository of
 * its own while this one counts from the front.
 */
struct counting {
	struct walk *w;
	git_repository *repo;	/* the other thread's */
	struct gm_split split;
	struct gm_job job;
};

static void count_share(struct walk *w, git_repository *repo,
			struct gm_split *split, bool back)
{
	size_t from, to;

	while (gm_split_take(split, back, &from, &to))
		for (size_t i = from; i < to; i++)
			count_lines(w, repo, &w->pending[i]);
}

static void *counting_thread(void *arg)
{
	struct counting *c = arg;

	count_share(c->w, c->repo, &c->split, true);
	gm_job_done(&c->job, 0);
	return NULL;
}

static void count_repo_free(git_repository *r, git_repository *repo)
{
	if (r != repo)
		git_repository_free(r);
}

static int count_all(struct walk *w)
{
	struct counting c = { .w = w };
	git_repository *mine;
	bool two = false;

	if (!w->nr_pending)
		return 0;
	if (w->nr_pending > UINT32_MAX)
		return gm_error_set(GM_ERROR, "too many changes to count");
	gm_split_init(&c.split, w->nr_pending, 1);
	mine = attr_repo_open(w->repo);
	if (gm_thread_cpus() >= 2 && mine != w->repo && w->nr_pending > 1 &&
	    (c.repo = attr_repo_open(w->repo)) != w->repo)
		two = gm_job_start(&c.job, counting_thread, &c);
	count_share(w, mine, &c.split, false);
	if (two)
		gm_job_join(&c.job);
	count_repo_free(c.repo, w->repo);
	count_repo_free(mine, w->repo);
	return 0;
}

/* ==================== the walk, all of it ==================== */

static int walk_prepare(struct walk *w, const struct gm_strvec *files)
{
	struct gm_signers *s = w->s;
	size_t n = files->nr;

	s->files = calloc(n + 1, sizeof(*s->files));
	w->paths = calloc(n + 1, sizeof(*w->paths));
	w->dir = calloc(n + 1, sizeof(*w->dir));
	w->moved = calloc(n + 1, sizeof(*w->moved));
	w->all.order = calloc(n + 1, sizeof(*w->all.order));
	w->away.order = calloc(n + 1, sizeof(*w->away.order));
	if (!s->files || !w->paths || !w->dir || !w->moved ||
	    !w->all.order || !w->away.order)
		return gm_error_set(GM_ERROR, "out of memory");
	w->all.paths = w->away.paths = w->paths;
	w->all.dir = w->away.dir = w->dir;
	q_init(&w->q, &w->seen);
	for (size_t i = 0; i < n; i++) {
		const char *p = files->v[i];
		size_t len = strlen(p);

		s->nr_files++;
		if (!(s->files[i].path = strdup(p)))
			return gm_error_set(GM_ERROR, "out of memory");
		while (len && p[len - 1] == '/')
			len--;
		w->dir[i] = len < strlen(p) || !len;
		if (!(w->paths[i] = strndup(p, len)))
			return gm_error_set(GM_ERROR, "out of memory");
		w->all.order[w->all.nr++] = i;
	}
	pathset_sort(&w->all);
	return 0;
}

/*
 * Queue the start commit `start`: for the scout, started here, where
 * there are packs and a second CPU, else for the walk alone.
 */
static int walk_start(struct walk *w, const git_oid *start)
{
	struct gm_objects_commit *c;
	struct scout *sc;
	int error = raw_read(&c, &w->trees.objs, start);

	if (error < 0)
		return error == GM_ERROR ? error :
			gm_error_set(GM_ERROR, "cannot read the start commit");
	if (!w->opts->packs || gm_thread_cpus() < 2 ||
	    scout_new(&sc, w) < 0)
		return enqueue_read(w->graph, &w->q, start, c);
	if ((error = enqueue_read(w->graph, &sc->q, start, c)) < 0) {
		scout_free(sc);
		return error;
	}
	if (gm_job_start(&sc->job, scout_run, sc)) {
		w->scout = sc;
		return 0;
	}
	error = q_move(&w->q, &sc->q);
	scout_free(sc);
	return error;
}

static void walk_release(struct walk *w)
{
	scout_free(w->scout);
	q_release(&w->q);
	trees_release(&w->trees);
	for (size_t i = 0; w->paths && i < w->s->nr_files; i++)
		free(w->paths[i]);
	free(w->paths);
	free(w->dir);
	free(w->moved);
	free(w->all.order);
	free(w->away.order);
	free(w->ch.v);
	free(w->pending);
	gm_strmap_release(&w->seen);
	gm_follow_free(w->follow);
	gm_objects_rules_free(w->rules);
}

int gm_signers_walk(struct gm_signers **out, git_repository *repo,
		    const git_oid *start, const struct gm_strvec *files,
		    const struct gm_signers_options *opts)
{
	struct walk w;
	int error;

	*out = NULL;
	memset(&w, 0, sizeof(w));
	w.repo = repo;
	w.opts = opts;
	if (!(w.s = calloc(1, sizeof(*w.s))))
		return gm_error_set(GM_ERROR, "out of memory");
	if (git_repository_odb(&w.trees.objs.odb, repo) < 0)
		w.trees.objs.odb = NULL;
	w.trees.objs.repo = repo;
	if ((error = gm_objects_rules_load(&w.rules, repo)) < 0 ||
	    (opts->packs && (error = gm_pack_reader_new(&w.trees.objs.pack,
							 opts->packs, 0)) < 0))
		goto out;
	w.trees.objs.rules = w.rules;
	w.graph = gm_objects_rules_graph_ok(w.rules) ? opts->graph : NULL;
	if ((error = gm_follow_new(&w.follow, &w.trees.objs, opts->packs)) < 0)
		goto out;
	error = walk_prepare(&w, files);
	if (!error && files->nr)
		error = walk_start(&w, start);
	if (!error)
		error = w.scout ? walk_scouted(&w) : walk_alone(&w);
	if (!error)
		error = count_all(&w);
out:
	walk_release(&w);
	if (error)
		gm_signers_free(w.s);
	else
		*out = w.s;
	return error;
}

void gm_signers_free(struct gm_signers *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_commits; i++)
		gm_signers_commit_release(&s->commits[i]);
	free(s->commits);
	for (size_t i = 0; i < s->nr_files; i++) {
		struct gm_signers_file *f = &s->files[i];

		for (size_t k = 0; k < f->nr_touches; k++)
			free(f->touches[k].path);
		free(f->touches);
		free(f->path);
		gm_strvec_release(&f->renamed_from);
	}
	free(s->files);
	free(s);
}
