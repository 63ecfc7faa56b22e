#include "gm/commits.h"

#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/pack.h"

/* ==================== items ==================== */

void gm_commits_item_release(struct gm_commits_item *it)
{
	if (it->raw)
		gm_objects_commit_release(it->raw);
	free(it->raw);
	it->raw = NULL;
}

/* Newest first; of equal times, the first queued. */
static bool queue_before(const void *x, const void *y)
{
	const struct gm_commits_item *a = x, *b = y;

	return a->time != b->time ? a->time > b->time : a->seq < b->seq;
}

/* ==================== reading commits ==================== */

int gm_commits_open(struct gm_commits *c, git_repository *repo,
		    const struct gm_packs *packs,
		    const struct gm_objects_rules *rules,
		    const struct gm_graph *graph)
{
	c->graph = gm_objects_rules_graph_ok(rules) ? graph : NULL;
	return gm_objects_open(&c->objs, repo, packs, rules);
}

void gm_commits_close(struct gm_commits *c)
{
	for (size_t i = 0; i < GM_COMMITS_TREE_SLOTS; i++)
		gm_objects_tree_free(c->trees[i]);
	gm_objects_close(&c->objs);
	memset(c, 0, sizeof(*c));
}

int gm_commits_item(struct gm_commits *c, const git_oid *id,
		    struct gm_commits_item *out)
{
	int error;

	memset(out, 0, sizeof(*out));
	out->id = *id;
	if (!(out->raw = calloc(1, sizeof(*out->raw))))
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = gm_objects_commit_read(out->raw, &c->objs, id)) < 0) {
		gm_commits_item_release(out);
		return error;
	}
	out->time = out->raw->time;
	out->in_graph = gm_graph_find(c->graph, id, &out->raw->tree, &out->gc);
	return 0;
}

void gm_commits_parents_release(struct gm_commits_parents *p)
{
	for (size_t i = 0; p->v && i < p->nr; i++)
		gm_commits_item_release(&p->v[i]);
	free(p->v);
	free(p->trees);
	free(p->loaded);
	memset(p, 0, sizeof(*p));
}

static int parents_alloc(struct gm_commits_parents *p, size_t n)
{
	p->nr = n;
	if (!n)
		return 0;
	p->v = calloc(n, sizeof(*p->v));
	p->trees = calloc(n, sizeof(*p->trees));
	p->loaded = calloc(n, sizeof(*p->loaded));
	return p->v && p->trees && p->loaded ? 0 :
	       gm_error_set(GM_ERROR, "out of memory");
}

/* The parents of `it` from the commit-graph; false if it cannot say. */
static bool parents_from_graph(const struct gm_commits *c,
			       const struct gm_commits_item *it,
			       struct gm_commits_parents *p, int *error)
{
	const struct gm_graph *g = c->graph;
	struct gm_graph_commit gp[2];
	int n = it->in_graph ? gm_graph_commit_parents(g, it->gc, gp) : -1;

	if (n < 0 || (*error = parents_alloc(p, (size_t)n)) < 0)
		return n >= 0;
	gm_graph_commit_tree(g, it->gc, &p->tree);
	for (int i = 0; i < n; i++) {
		struct gm_commits_item *v = &p->v[i];

		gm_graph_commit_id(g, gp[i], &v->id);
		v->time = gm_graph_commit_time(g, gp[i]);
		v->in_graph = true;
		v->gc = gp[i];
		gm_graph_commit_tree(g, gp[i], &p->trees[i]);
		p->loaded[i] = true;
	}
	p->nr_loaded = p->nr;
	return true;
}

/* `it` read if it was not; its error as gm_commits_parents() gives it. */
static int item_read(struct gm_commits *c, struct gm_commits_item *it)
{
	struct gm_commits_item r;
	char hex[GIT_OID_HEXSZ + 1];
	int error;

	if (it->raw)
		return 0;
	if ((error = gm_commits_item(c, &it->id, &r)) < 0)
		return error == GM_ENOTFOUND ?
			gm_error_set(GM_ERROR, "cannot read commit %s",
				     gm_oid_hex(hex, &it->id)) : error;
	it->raw = r.raw;
	return 0;
}

int gm_commits_item_text(struct gm_commits *c, struct gm_commits_item *it,
			 const char **text)
{
	int error = item_read(c, it);

	*text = error ? NULL : it->raw->data;
	return error;
}

int gm_commits_parents(struct gm_commits *c, struct gm_commits_item *it,
		       struct gm_commits_parents *out)
{
	int error = 0;

	memset(out, 0, sizeof(*out));
	if (parents_from_graph(c, it, out, &error) ||
	    (error = item_read(c, it)) < 0)
		return error;
	c->shallow |= it->raw->shallow;
	out->tree = it->raw->tree;
	error = parents_alloc(out, it->raw->nr_parents);
	for (size_t i = 0; i < out->nr && !error; i++) {
		error = gm_commits_item(c, &it->raw->parents[i], &out->v[i]);
		if (error == GM_ENOTFOUND) {
			c->shallow = true;	/* cut off, as git's boundary */
			error = 0;
			continue;
		}
		if (error)
			break;
		out->trees[i] = out->v[i].raw->tree;
		out->loaded[i] = true;
		out->nr_loaded++;
	}
	return error;
}

/* ==================== the walk ==================== */

int gm_commits_walk_push(struct gm_commits_walk *w, struct gm_commits_item *it)
{
	char hex[GIT_OID_HEXSZ + 1];
	int error = 0;

	gm_oid_hex(hex, &it->id);
	if (!gm_strmap_get(&w->seen, hex, GIT_OID_HEXSZ, NULL)) {
		error = gm_strmap_put(&w->seen, hex, GIT_OID_HEXSZ, NULL);
		it->seq = w->seq++;
		if (!error && !(error = gm_pqueue_push(&w->heap, it)))
			it->raw = NULL;	/* the queue's now */
	}
	gm_commits_item_release(it);
	return error;
}

int gm_commits_walk_start(struct gm_commits_walk *w, struct gm_commits *src,
			  enum gm_commits_mode mode, const git_oid *start,
			  int64_t since, bool empty)
{
	struct gm_commits_item it;
	int error;

	w->src = src;
	w->mode = mode;
	w->since = since;
	gm_pqueue_init(&w->heap, sizeof(struct gm_commits_item), queue_before);
	if ((error = gm_commits_item(src, start, &it)) < 0)
		return error == GM_ERROR ? error :
			gm_error_set(GM_ERROR, "cannot read the start commit");
	if (empty) {
		gm_commits_item_release(&it);
		return 0;
	}
	return gm_commits_walk_push(w, &it);
}

int gm_commits_walk_next(struct gm_commits_walk *w, struct gm_commits_item *it,
			 struct gm_commits_parents *p)
{
	bool got;
	int error;

	while ((got = gm_pqueue_pop(&w->heap, it)) && it->time < w->since)
		gm_commits_item_release(it);
	if (!got)
		return 0;
	if (w->mode != GM_COMMITS_FULL)
		return 1;
	error = gm_commits_parents(w->src, it, p);
	for (size_t i = 0; i < p->nr && !error; i++)
		if (p->loaded[i])
			error = gm_commits_walk_push(w, &p->v[i]);
	return error < 0 ? error : 1;
}

void gm_commits_walk_release(struct gm_commits_walk *w)
{
	for (size_t i = 0; i < w->heap.nr; i++)
		gm_commits_item_release(gm_pqueue_at(&w->heap, i));
	gm_pqueue_release(&w->heap);
	gm_strmap_release(&w->seen);
}

/* ==================== trees ==================== */

static size_t tree_slot(const git_oid *id)
{
	size_t slot;

	memcpy(&slot, id->id, sizeof(slot));
	return slot % GM_COMMITS_TREE_SLOTS;
}

/* The tree `id`, the caller's until given back by tree_put(). */
static struct gm_objects_tree *tree_take(struct gm_commits *c,
					 const git_oid *id)
{
	struct gm_objects_tree **t = &c->trees[tree_slot(id)], *mine;

	if (*t && gm_oid_equal(&(*t)->id, id)) {
		mine = *t;
		*t = NULL;
		return mine;
	}
	return gm_objects_tree_read(&c->objs, id);
}

static void tree_put(struct gm_commits *c, struct gm_objects_tree *t)
{
	struct gm_objects_tree **slot;

	if (!t)
		return;
	slot = &c->trees[tree_slot(&t->id)];
	gm_objects_tree_free(*slot);
	*slot = t;
}

/* The entry `name` (`len` bytes) of tree `id` (NULL, or unread: none). */
static void tree_entry(struct gm_commits *c, const git_oid *id,
		       const char *name, size_t len,
		       struct gm_commits_entry *out)
{
	struct gm_objects_tree *t = id ? tree_take(c, id) : NULL;
	const struct gm_objects_entry *e;

	c->unreadable += id && !t;
	tree_put(c, t);	/* kept: valid until its slot is reused */
	out->found = t && (e = gm_objects_tree_find(t, name, len, 0));
	if (!out->found)
		return;
	gm_oid_fromraw(&out->id, e->id);
	out->mode = (git_filemode_t)e->mode;
}

static bool is_tree(const struct gm_commits_entry *e)
{
	return e->found && e->mode == GIT_FILEMODE_TREE;
}

static bool same_entry(const struct gm_commits_entry *a,
		       const struct gm_commits_entry *b)
{
	return a->found == b->found && (!a->found ||
	       (a->mode == b->mode && gm_oid_equal(&a->id, &b->id)));
}

/* ==================== comparing trees at paths ==================== */

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

void gm_commits_paths_sort(struct gm_commits_paths *ps)
{
	sort_paths = (const char *const *)ps->paths;
	qsort(ps->order, ps->nr, sizeof(*ps->order), order_cmp);
	sort_paths = NULL;
}

int gm_commits_paths_init(struct gm_commits_paths *ps,
			  const struct gm_strvec *files,
			  enum gm_commits_kind plain)
{
	size_t n = files->nr;

	ps->paths = calloc(n + 1, sizeof(*ps->paths));
	ps->kind = calloc(n + 1, sizeof(*ps->kind));
	ps->order = calloc(n + 1, sizeof(*ps->order));
	if (!ps->paths || !ps->kind || !ps->order)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const char *p = files->v[i];
		size_t len = strlen(p);

		while (len && p[len - 1] == '/')
			len--;
		ps->kind[i] = (len && p[len] == '/') ||
			      (!len && plain == GM_COMMITS_FILE) ?
			      GM_COMMITS_DIR : plain;
		if (!(ps->paths[i] = strndup(p, len)))
			return gm_error_set(GM_ERROR, "out of memory");
		ps->order[ps->nr++] = i;
	}
	gm_commits_paths_sort(ps);
	return 0;
}

void gm_commits_paths_release(struct gm_commits_paths *ps)
{
	for (size_t i = 0; ps->paths && i < ps->nr; i++)
		free(ps->paths[i]);
	free(ps->paths);
	free(ps->kind);
	free(ps->order);
}

static int note_change(struct gm_commits_changes *c, size_t f,
		       const struct gm_commits_entry *a,
		       const struct gm_commits_entry *b)
{
	if (GM_ARRAY_GROW(c->v, c->nr, c->alloc) < 0)
		return GM_ERROR;
	c->v[c->nr++] = (struct gm_commits_change){ f, *a, *b };
	return 0;
}

/* Whether path `f`, ending at entries `a` and `b` that differ, changed. */
static bool kind_changed(enum gm_commits_kind kind,
			 const struct gm_commits_entry *a,
			 const struct gm_commits_entry *b)
{
	if (kind == GM_COMMITS_FILE)
		return !is_tree(a) || !is_tree(b);
	return kind == GM_COMMITS_ANY || is_tree(a) || is_tree(b);
}

/*
 * Compare the trees `ta` and `tb` (NULL: none) at the paths
 * order[lo..hi) of `ps`, which share their first `off` bytes, the
 * directory the trees are; the paths changed appended to `out`.
 */
static int diff_level(struct gm_commits *c, const struct gm_commits_paths *ps,
		      struct gm_commits_changes *out, const git_oid *ta,
		      const git_oid *tb, size_t lo, size_t hi, size_t off)
{
	char *const *paths = ps->paths;
	const size_t *order = ps->order;
	size_t i = lo;
	int error = 0;

	while (i < hi && !error) {
		const char *p = paths[order[i]] + off;
		size_t len = strcspn(p, "/"), j = i;
		struct gm_commits_entry a, b;
		git_oid ida, idb;

		while (j < hi && !strncmp(paths[order[j]] + off, p, len) &&
		       (paths[order[j]][off + len] == '/' ||
			!paths[order[j]][off + len]))
			j++;
		tree_entry(c, ta, p, len, &a);
		tree_entry(c, tb, p, len, &b);
		if (same_entry(&a, &b)) {
			i = j;
			continue;
		}
		for (size_t k = i; k < j && !error; k++) {
			size_t f = order[k];

			if (!paths[f][off + len] &&
			    kind_changed(ps->kind[f], &a, &b))
				error = note_change(out, f, &a, &b);
		}
		if (error)
			break;
		ida = a.id;
		idb = b.id;
		while (i < j && !paths[order[i]][off + len])
			i++;
		if (i < j && (is_tree(&a) || is_tree(&b)))
			error = diff_level(c, ps, out, is_tree(&a) ? &ida : NULL,
					   is_tree(&b) ? &idb : NULL, i, j,
					   off + len + 1);
		i = j;
	}
	return error;
}

/* A tree `id` (NULL: none) as the entry of the top. */
static void top_entry(const git_oid *id, struct gm_commits_entry *out)
{
	out->found = id != NULL;
	out->mode = GIT_FILEMODE_TREE;
	if (id)
		out->id = *id;
}

int gm_commits_diff(struct gm_commits *c, const struct gm_commits_paths *ps,
		    const git_oid *ta, const git_oid *tb,
		    struct gm_commits_changes *out)
{
	struct gm_commits_entry a, b;
	size_t lo = 0;
	int error = 0;

	top_entry(ta, &a);
	top_entry(tb, &b);
	/* "" sorts first: the pathspec of everything */
	for (; lo < ps->nr && !ps->paths[ps->order[lo]][0]; lo++)
		if (ps->kind[ps->order[lo]] == GM_COMMITS_ANY &&
		    !same_entry(&a, &b) &&
		    (error = note_change(out, ps->order[lo], &a, &b)) < 0)
			return error;
	return diff_level(c, ps, out, ta, tb, lo, ps->nr, 0);
}

/* ==================== every file that differs ==================== */

static int diff_all(struct gm_commits *c, const git_oid *a, const git_oid *b,
		    struct gm_buf *path, struct gm_strvec *out);

/*
 * One side of diff_all() has the entry `e`, the other `other` (NULL:
 * nothing of that name): the files that differ below path + name.
 */
static int diff_all_entry(struct gm_commits *c,
			  const struct gm_objects_entry *e,
			  const struct gm_objects_entry *other,
			  struct gm_buf *path, struct gm_strvec *out)
{
	size_t len = path->len;
	git_oid ide, ido;
	int error;

	if (other && e->mode == other->mode &&
	    !memcmp(e->id, other->id, GIT_OID_RAWSZ))
		return 0;
	if ((error = gm_buf_put(path, e->name, e->len)) < 0)
		return error;
	if (!gm_objects_is_tree(e->mode)) {
		error = gm_strvec_push(out, path->ptr);
	} else if (!(error = gm_buf_putc(path, '/'))) {
		gm_oid_fromraw(&ide, e->id);
		if (other)
			gm_oid_fromraw(&ido, other->id);
		error = diff_all(c, &ide, other ? &ido : NULL, path, out);
	}
	path->len = len;
	path->ptr[len] = '\0';
	return error;
}

/*
 * The files (path + name) that differ between trees `a` and `b` (NULL:
 * empty), in git's order of entries. The trees are taken from the kept
 * ones while compared, and kept again after: each version of a tree is
 * compared twice, as a commit's and as its child's parent's.
 */
static int diff_all(struct gm_commits *c, const git_oid *a, const git_oid *b,
		    struct gm_buf *path, struct gm_strvec *out)
{
	struct gm_objects_tree *ta = NULL, *tb = NULL;
	size_t i = 0, j = 0, na, nb;
	int error = 0;

	if (a && b && gm_oid_equal(a, b))
		return 0;
	if (a && !(ta = tree_take(c, a)))
		c->unreadable++;
	if (b && !(tb = tree_take(c, b)))
		c->unreadable++;
	na = ta ? ta->nr : 0;
	nb = tb ? tb->nr : 0;
	while ((i < na || j < nb) && !error) {
		const struct gm_objects_entry *x = i < na ? &ta->v[i] : NULL;
		const struct gm_objects_entry *y = j < nb ? &tb->v[j] : NULL;
		int k = !x ? 1 : !y ? -1 : gm_objects_entry_cmp(x, y);

		if (k < 0)
			error = diff_all_entry(c, x, NULL, path, out);
		else if (k > 0)
			error = diff_all_entry(c, y, NULL, path, out);
		else
			error = diff_all_entry(c, x, y, path, out);
		i += k <= 0;
		j += k >= 0;
	}
	tree_put(c, ta);
	tree_put(c, tb);
	return error;
}

int gm_commits_diff_all(struct gm_commits *c, const git_oid *ta,
			const git_oid *tb, struct gm_strvec *out)
{
	struct gm_buf path = GM_BUF_INIT;
	int error = gm_buf_grow(&path, 256);

	if (!error)
		error = diff_all(c, ta, tb, &path, out);
	gm_buf_release(&path);
	return error;
}
