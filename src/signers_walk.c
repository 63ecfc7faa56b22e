#include "gm/signers.h"

#include <stdlib.h>
#include <string.h>

#include <git2/sys/repository.h>

#include "gm/error.h"
#include "gm/follow.h"
#include "gm/graph.h"
#include "gm/objects.h"
#include "gm/pack.h"
#include "gm/strmap.h"

/*
 * gm_signers_walk(): the commits of the window, and for each non-merge
 * one the files it changed at their current paths, renames followed.
 */
/* ==================== trees ==================== */

#define TREE_SLOTS 1024

/* An entry of a tree at some path; `found` false for none. */
struct entry {
	bool found;
	git_oid id;
	git_filemode_t mode;
};

/* A change of one file in one commit, its numstat still to count. */
struct pending {
	size_t file, touch;
	struct entry a, b;	/* parent's, commit's */
};

struct walk {
	git_repository *repo;
	const struct gm_signers_options *opts;
	struct gm_signers *s;
	struct gm_objects objs;
	struct gm_objects_tree *trees[TREE_SLOTS];	/* direct-mapped by id */
	char **paths;		/* per file: its current path, no final '/' */
	struct gm_graph_path *keys;	/* per file: its path's filter keys */
	bool *dir;		/* per file: a directory */
	size_t *order;		/* files sorted by path, '/' first */
	struct gm_strmap seen;	/* hex ids of queued commits */
	struct pending *pending;
	size_t nr_pending, alloc_pending;
	size_t *changed;	/* files changed by the commit examined */
	struct entry *ca, *cb;	/* their entries */
	size_t nr_changed;
	bool resort;		/* a path changed: sort `order` again */
	struct gm_follow *follow;	/* the copy searches' cache */
	git_repository *attr_repo;	/* for attributes: repo or its own */
	struct gm_buf name;
};

/* The tree `id`, indexed, from a direct-mapped cache; NULL if unread. */
static struct gm_objects_tree *tree_get(struct walk *w, const git_oid *id)
{
	size_t slot;
	struct gm_objects_tree **t;

	memcpy(&slot, id->id, sizeof(slot));
	t = &w->trees[slot % TREE_SLOTS];
	if (*t && git_oid_equal(&(*t)->id, id))
		return *t;
	gm_objects_tree_free(*t);
	*t = gm_objects_tree_read(&w->objs, id);
	return *t;
}

/* The entry `name` (`len` bytes) of tree `id` (NULL: none). */
static int tree_entry(struct walk *w, const git_oid *id, const char *name,
		      size_t len, struct entry *out)
{
	const struct gm_objects_tree *t;
	const struct gm_objects_entry *e;

	out->found = false;
	if (!id || !(t = tree_get(w, id)) ||
	    !(e = gm_objects_tree_find(t, name, len, 0)))
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

/* Sort the files by their current paths (qsort has no payload). */
static void walk_sort(struct walk *w)
{
	sort_paths = (const char *const *)w->paths;
	qsort(w->order, w->s->nr_files, sizeof(*w->order), order_cmp);
	sort_paths = NULL;
	w->resort = false;
}

static int note_change(struct walk *w, size_t f, const struct entry *a,
		       const struct entry *b)
{
	w->changed[w->nr_changed] = f;
	w->ca[w->nr_changed] = *a;
	w->cb[w->nr_changed] = *b;
	w->nr_changed++;
	return 0;
}

/*
 * Compare the trees `ta` and `tb` (NULL: none) at the files order[lo..hi),
 * whose paths share their first `off` bytes, the directory the trees are.
 */
static int diff_level(struct walk *w, const git_oid *ta, const git_oid *tb,
		      size_t lo, size_t hi, size_t off)
{
	size_t i = lo;
	int error = 0;

	while (i < hi && !error) {
		const char *p = w->paths[w->order[i]] + off;
		size_t len = strcspn(p, "/"), j = i;
		struct entry a, b;
		git_oid ida, idb;

		while (j < hi && !strncmp(w->paths[w->order[j]] + off, p, len) &&
		       (w->paths[w->order[j]][off + len] == '/' ||
			!w->paths[w->order[j]][off + len]))
			j++;
		if ((error = tree_entry(w, ta, p, len, &a)) < 0 ||
		    (error = tree_entry(w, tb, p, len, &b)) < 0)
			break;
		if (same_entry(&a, &b)) {
			i = j;
			continue;
		}
		for (size_t k = i; k < j && !error; k++) {
			size_t f = w->order[k];
			const char *rest = w->paths[f] + off + len;

			if (*rest)
				continue;
			if (!w->dir[f] && (!is_tree(&a) || !is_tree(&b)))
				error = note_change(w, f, &a, &b);
			else if (w->dir[f] && (is_tree(&a) || is_tree(&b)))
				error = note_change(w, f, &a, &b);
		}
		if (error)
			break;
		git_oid_cpy(&ida, &a.id);
		git_oid_cpy(&idb, &b.id);
		while (i < j && !w->paths[w->order[i]][off + len])
			i++;
		if (i < j && (is_tree(&a) || is_tree(&b)))
			error = diff_level(w, is_tree(&a) ? &ida : NULL,
					   is_tree(&b) ? &idb : NULL, i, j,
					   off + len + 1);
		i = j;
	}
	return error;
}

/* ==================== the walk ==================== */

/*
 * A commit to walk; `in_graph` if the commit-graph has it, as `gc`; `c`
 * the commit if it was read (the queue's, until the item is walked).
 */
struct qitem {
	git_oid id;
	int64_t time;		/* the committer's */
	uint64_t seq;		/* insertion order: ties come out first in */
	bool in_graph;
	struct gm_graph_commit gc;
	git_commit *c;
};

struct queue {
	struct qitem *v;
	size_t nr, alloc;
	uint64_t seq;
};

static bool q_before(const struct qitem *a, const struct qitem *b)
{
	return a->time != b->time ? a->time > b->time : a->seq < b->seq;
}

static int q_push(struct queue *q, struct qitem it)
{
	size_t i;

	it.seq = q->seq++;
	if (GM_ARRAY_GROW(q->v, q->nr, q->alloc) < 0)
		return GM_ERROR;
	for (i = q->nr++; i && q_before(&it, &q->v[(i - 1) / 2]); i = (i - 1) / 2)
		q->v[i] = q->v[(i - 1) / 2];
	q->v[i] = it;
	return 0;
}

static bool q_pop(struct queue *q, struct qitem *out)
{
	struct qitem last;
	size_t i = 0;

	if (!q->nr)
		return false;
	*out = q->v[0];
	last = q->v[--q->nr];
	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= q->nr)
			break;
		if (k + 1 < q->nr && q_before(&q->v[k + 1], &q->v[k]))
			k++;
		if (!q_before(&q->v[k], &last))
			break;
		q->v[i] = q->v[k];
		i = k;
	}
	if (q->nr)
		q->v[i] = last;
	return true;
}

/* Queue `it` (its commit with it) unless it was queued before. */
static int enqueue(struct walk *w, struct queue *q, struct qitem *it)
{
	char hex[GIT_OID_HEXSZ + 1];
	int error = 0;

	git_oid_tostr(hex, sizeof(hex), &it->id);
	if (!gm_strmap_get(&w->seen, hex, GIT_OID_HEXSZ, NULL)) {
		error = gm_strmap_put(&w->seen, hex, GIT_OID_HEXSZ, NULL);
		if (!error && !(error = q_push(q, *it)))
			it->c = NULL;	/* the queue's now */
	}
	git_commit_free(it->c);
	it->c = NULL;
	return error;
}

/*
 * Queue commit `c` (which is the queue's from now on), found in the
 * graph with its own tree if there.
 */
static int enqueue_commit(struct walk *w, struct queue *q, git_commit *c)
{
	struct qitem it = { .time = git_commit_time(c), .c = c };

	git_oid_cpy(&it.id, git_commit_id(c));
	it.in_graph = gm_graph_find(w->opts->graph, &it.id,
				    git_commit_tree_id(c), &it.gc);
	return enqueue(w, q, &it);
}

/* The commit of `it`: the one read with it, else read now. */
static int item_commit(struct walk *w, struct qitem *it)
{
	if (!it->c && git_commit_lookup(&it->c, w->repo, &it->id) < 0)
		return gm_error_from_git(GIT_ERROR, "cannot read a commit");
	return 0;
}

/* Queue commit `gc` of the graph, unread. */
static int enqueue_graph(struct walk *w, struct queue *q,
			 struct gm_graph_commit gc)
{
	struct qitem it = { .in_graph = true, .gc = gc };

	gm_graph_commit_id(w->opts->graph, gc, &it.id);
	it.time = gm_graph_commit_time(w->opts->graph, gc);
	return enqueue(w, q, &it);
}

/* Record the changes of the commit examined, following renames. */
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
	s->nr_commits++;
	for (size_t i = 0; i < w->nr_changed && !error; i++) {
		size_t f = w->changed[i];
		struct gm_signers_file *file = &s->files[f];
		struct gm_signers_touch *t;
		char *source = NULL;

		if (!w->dir[f] && !w->ca[i].found && w->cb[i].found &&
		    (error = gm_follow_source(&source, w->follow, ta, tb,
						w->paths[f], &w->cb[i].id,
						w->cb[i].mode)) < 0)
			break;
		if (GM_ARRAY_GROW(file->touches, file->nr_touches,
				  file->alloc_touches) < 0 ||
		    GM_ARRAY_GROW(w->pending, w->nr_pending,
				  w->alloc_pending) < 0) {
			free(source);
			return GM_ERROR;
		}
		t = &file->touches[file->nr_touches];
		memset(t, 0, sizeof(*t));
		t->commit = k;
		t->added = t->deleted = -1;
		if (!w->dir[f] && !source && !(t->path = strdup(w->paths[f]))) {
			free(source);
			return gm_error_set(GM_ERROR, "out of memory");
		}
		w->pending[w->nr_pending].file = f;
		w->pending[w->nr_pending].touch = file->nr_touches++;
		w->pending[w->nr_pending].a = w->ca[i];
		w->pending[w->nr_pending++].b = w->cb[i];
		if (source) {
			if (gm_strvec_push(&file->renamed_from, source) < 0) {
				free(source);
				return GM_ERROR;
			}
			free(w->paths[f]);
			w->paths[f] = source;
			w->resort = true;
			if (gm_graph_path_set(&w->keys[f], source,
					      strlen(source)) < 0)
				return GM_ERROR;
		}
	}
	if (w->resort)
		walk_sort(w);
	return error;
}

/* Whether the commit-graph's filter of `gc` says none of the files changed. */
static bool graph_unchanged(const struct walk *w, struct gm_graph_commit gc)
{
	return !gm_graph_may_change_any(w->opts->graph, gc, w->keys,
					w->s->nr_files);
}

/*
 * The parents of `it` queued from the graph, their number in `*n` (-1:
 * the graph cannot say); its tree in `tb`, its only parent's in `ta`.
 * @return 0 or GM_ERROR.
 */
static int parents_from_graph(struct walk *w, struct queue *q,
			      struct qitem *it, int *n, git_oid *ta,
			      git_oid *tb)
{
	const struct gm_graph *g = w->opts->graph;
	struct gm_graph_commit p[2];

	*n = it->in_graph ? gm_graph_commit_parents(g, it->gc, p) : -1;
	for (int i = 0; i < *n; i++)
		if (enqueue_graph(w, q, p[i]) < 0)
			return GM_ERROR;
	if (*n == 1)
		gm_graph_commit_tree(g, p[0], ta);
	if (*n >= 0)
		gm_graph_commit_tree(g, it->gc, tb);
	return 0;
}

/*
 * The same from the commit read; `*n` -1 if its only parent cannot be
 * read (a shallow clone's boundary: not examined).
 */
static int parents_from_commit(struct walk *w, struct queue *q,
			       struct qitem *it, int *n, git_oid *ta,
			       git_oid *tb)
{
	git_commit *c;
	int error;

	if ((error = item_commit(w, it)) < 0)
		return error;
	c = it->c;
	*n = (int)git_commit_parentcount(c);
	git_oid_cpy(tb, git_commit_tree_id(c));
	for (int i = 0, nr = *n; i < nr && !error; i++) {
		git_commit *p = NULL;

		if (git_commit_parent(&p, c, (unsigned)i) < 0) {
			w->s->shallow = true;
			if (nr == 1)
				*n = -1;
			continue;
		}
		if (i == 0)
			git_oid_cpy(ta, git_commit_tree_id(p));
		error = enqueue_commit(w, q, p);
	}
	return error;
}

/* One commit of the window: its parents queued; a non-merge examined. */
static int walk_commit(struct walk *w, struct queue *q, struct qitem *it)
{
	git_oid ta, tb;
	int n, error;

	if ((error = parents_from_graph(w, q, it, &n, &ta, &tb)) < 0 ||
	    (n < 0 && (error = parents_from_commit(w, q, it, &n, &ta, &tb)) < 0))
		return error;
	if (n < 0 || n > 1 || (it->in_graph && graph_unchanged(w, it->gc)))
		return 0;
	w->nr_changed = 0;
	error = diff_level(w, n ? &ta : NULL, &tb, 0, w->s->nr_files, 0);
	if (!error && w->nr_changed)
		error = record(w, it, n ? &ta : NULL, &tb);
	return error;
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

static int blob_of(git_blob **out, git_repository *repo, const struct entry *e)
{
	*out = NULL;
	if (!e->found || e->mode == GIT_FILEMODE_COMMIT ||
	    e->mode == GIT_FILEMODE_TREE)
		return 0;
	return git_blob_lookup(out, repo, &e->id) < 0 ? -1 : 0;
}

static int count_lines(struct walk *w, const struct pending *p)
{
	struct gm_signers_touch *t =
		&w->s->files[p->file].touches[p->touch];
	git_diff_options o;
	git_blob *a = NULL, *b = NULL;
	git_patch *patch = NULL;
	size_t adds = 0, dels = 0;

	if (!t->path)
		return 0;	/* never matched: not counted */
	/* from attr_repo: the diff of blobs asks it for their attributes */
	if (blob_of(&a, w->attr_repo, &p->a) < 0 ||
	    blob_of(&b, w->attr_repo, &p->b) < 0)
		goto out;
	if ((a && gm_objects_binary(git_blob_rawcontent(a), git_blob_rawsize(a))) ||
	    (b && gm_objects_binary(git_blob_rawcontent(b), git_blob_rawsize(b))) ||
	    attr_binary(w->attr_repo, t->path))
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
	return 0;
}

/* ==================== the walk, all of it ==================== */

static int walk_prepare(struct walk *w, const struct gm_strvec *files)
{
	struct gm_signers *s = w->s;
	size_t n = files->nr;

	s->files = calloc(n + 1, sizeof(*s->files));
	w->paths = calloc(n + 1, sizeof(*w->paths));
	w->keys = calloc(n + 1, sizeof(*w->keys));
	w->dir = calloc(n + 1, sizeof(*w->dir));
	w->order = calloc(n + 1, sizeof(*w->order));
	w->changed = calloc(n + 1, sizeof(*w->changed));
	w->ca = calloc(n + 1, sizeof(*w->ca));
	w->cb = calloc(n + 1, sizeof(*w->cb));
	if (!s->files || !w->paths || !w->keys || !w->dir || !w->order ||
	    !w->changed || !w->ca || !w->cb)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const char *p = files->v[i];
		size_t len = strlen(p);

		s->nr_files++;
		if (!(s->files[i].path = strdup(p)))
			return gm_error_set(GM_ERROR, "out of memory");
		while (len && p[len - 1] == '/')
			len--;
		w->dir[i] = len < strlen(p) || !len;
		if (!(w->paths[i] = strndup(p, len)) ||
		    gm_graph_path_set(&w->keys[i], p, len) < 0)
			return gm_error_set(GM_ERROR, "out of memory");
		w->order[i] = i;
	}
	walk_sort(w);
	return 0;
}

static void walk_release(struct walk *w, struct queue *q)
{
	for (size_t i = 0; i < q->nr; i++)
		git_commit_free(q->v[i].c);
	free(q->v);
	for (size_t i = 0; i < TREE_SLOTS; i++)
		gm_objects_tree_free(w->trees[i]);
	git_odb_free(w->objs.odb);
	gm_pack_reader_free(w->objs.pack);
	for (size_t i = 0; w->paths && i < w->s->nr_files; i++)
		free(w->paths[i]);
	for (size_t i = 0; w->keys && i < w->s->nr_files; i++)
		gm_graph_path_release(&w->keys[i]);
	free(w->paths);
	free(w->keys);
	free(w->dir);
	free(w->order);
	free(w->changed);
	free(w->ca);
	free(w->cb);
	free(w->pending);
	gm_strmap_release(&w->seen);
	gm_buf_release(&w->name);
	gm_follow_free(w->follow);
}

int gm_signers_walk(struct gm_signers **out, git_repository *repo,
		    const git_oid *start, const struct gm_strvec *files,
		    const struct gm_signers_options *opts)
{
	struct walk w;
	struct queue q = { NULL, 0, 0, 0 };
	struct qitem it;
	git_commit *c = NULL;
	int error;

	*out = NULL;
	memset(&w, 0, sizeof(w));
	w.repo = repo;
	w.opts = opts;
	if (!(w.s = calloc(1, sizeof(*w.s))))
		return gm_error_set(GM_ERROR, "out of memory");
	if (git_repository_odb(&w.objs.odb, repo) < 0)
		w.objs.odb = NULL;
	if ((opts->packs &&
	     gm_pack_reader_new(&w.objs.pack, opts->packs, 0) < 0) ||
	    gm_follow_new(&w.follow, &w.objs, opts->packs) < 0) {
		free(w.s);
		git_odb_free(w.objs.odb);
		gm_pack_reader_free(w.objs.pack);
		return GM_ERROR;
	}
	error = walk_prepare(&w, files);
	if (!error && git_commit_lookup(&c, repo, start) < 0)
		error = gm_error_from_git(GIT_ERROR, "cannot read the start commit");
	if (!error && files->nr)
		error = enqueue_commit(&w, &q, c);
	else
		git_commit_free(c);
	while (!error && q_pop(&q, &it)) {
		if (it.time >= opts->since) {
			w.s->walked++;
			error = walk_commit(&w, &q, &it);
		}
		git_commit_free(it.c);
	}
	if (!error && w.nr_pending)
		w.attr_repo = attr_repo_open(repo);
	for (size_t i = 0; i < w.nr_pending && !error; i++)
		error = count_lines(&w, &w.pending[i]);
	if (w.attr_repo != repo)
		git_repository_free(w.attr_repo);
	walk_release(&w, &q);
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
