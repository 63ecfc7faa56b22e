#include "gm/history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/date.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/graph.h"
#include "gm/pqueue.h"
#include "gm/strmap.h"
#include "gm/trailer.h"

/* ==================== the queue: newest commit first ==================== */

/*
 * A commit to walk; `in_graph` if the commit-graph has it, as `gc`; `c`
 * the commit if it was read (the queue's, until the item is walked).
 */
struct qitem {
	git_oid id;
	int64_t time;		/* the committer's */
	bool in_graph;
	struct gm_graph_commit gc;
	git_commit *c;
};

/* Newest first; of equal times, the smaller id. */
static bool queue_before(const void *x, const void *y)
{
	const struct qitem *a = x, *b = y;

	if (a->time != b->time)
		return a->time > b->time;
	return git_oid_cmp(&a->id, &b->id) < 0;
}

/* ==================== comparing trees at the paths ==================== */

/*
 * Entries looked up by (tree, name), in a direct-mapped memo: a commit's
 * trees are looked at again as its child's parent's, the same subtrees
 * recur from commit to commit, and paths share their first components.
 * The trees last read are kept too, for the other names looked up in
 * them.
 */
#define MEMO_SLOTS 4096
#define TREES_KEPT 8
#define RECENT_TREES 256	/* gm_history_each()'s */

struct memo {
	git_oid tree;
	const char *name;	/* a component in walk.paths; NULL: empty */
	size_t len;
	bool found;		/* the component is in the tree */
	git_oid id;
	git_filemode_t mode;
};

struct walk {
	git_repository *repo;
	const struct gm_history_options *opts;
	struct gm_strvec paths;		/* without trailing '/' */
	bool *dir_only;			/* per path: it had a trailing '/' */
	struct gm_graph_path *keys;	/* per path: its filter keys */
	struct gm_history *h;
	struct gm_strmap seen;		/* hex ids of queued commits */
	struct gm_strmap people;	/* lc(email) -> index + 1 */
	struct gm_strmap committers;	/* lc(email) of h->committers */
	size_t *last_commit;		/* per person: last commit counted */
	size_t alloc_people;
	size_t alloc_last;
	size_t *touched;		/* the people the commit names */
	size_t nr_touched, alloc_touched;
	struct gm_strvec changed;	/* the files the commit changes */
	git_tree **recent;		/* gm_history_each(): RECENT_TREES */
	size_t commit_no;		/* current commit, from 1 */
	struct memo *memo;		/* MEMO_SLOTS of them */
	git_tree *trees[TREES_KEPT];	/* the last read, round robin */
	size_t next_tree;
	struct gm_buf tmp, key, lc;
};

static size_t memo_slot(const git_oid *tree, const char *name, size_t len)
{
	size_t h;

	memcpy(&h, tree->id, sizeof(h));
	for (size_t i = 0; i < len; i++)
		h = h * 31 + (unsigned char)name[i];
	return h % MEMO_SLOTS;
}

/* The tree `id`, from those kept or read and kept; NULL if unreadable. */
static git_tree *walk_tree(struct walk *w, const git_oid *id)
{
	git_tree **slot = &w->trees[w->next_tree];

	for (size_t i = 0; i < TREES_KEPT; i++)
		if (w->trees[i] && git_oid_equal(git_tree_id(w->trees[i]), id))
			return w->trees[i];
	git_tree_free(*slot);
	*slot = NULL;
	if (git_tree_lookup(slot, w->repo, id) < 0) {
		w->h->unreadable++;
		return NULL;
	}
	w->next_tree = (w->next_tree + 1) % TREES_KEPT;
	return *slot;
}

/*
 * The entry `name` (`len` bytes, a component in walk.paths) of the tree
 * `tree`, into `*out`. An unreadable tree has no entries.
 */
static int tree_child(struct walk *w, const git_oid *tree, const char *name,
		      size_t len, const struct memo **out)
{
	struct memo *m = &w->memo[memo_slot(tree, name, len)];
	const git_tree_entry *e;
	git_tree *t;
	int error;

	*out = m;
	if (m->name && m->len == len && git_oid_equal(&m->tree, tree) &&
	    !memcmp(m->name, name, len))
		return 0;
	git_oid_cpy(&m->tree, tree);
	m->name = name;
	m->len = len;
	m->found = false;
	if (!(t = walk_tree(w, tree)))
		return 0;
	gm_buf_reset(&w->tmp);
	if ((error = gm_buf_put(&w->tmp, name, len)) == 0 &&
	    (e = git_tree_entry_byname(t, w->tmp.ptr))) {
		m->found = true;
		git_oid_cpy(&m->id, git_tree_entry_id(e));
		m->mode = git_tree_entry_filemode(e);
	}
	if (error)
		m->name = NULL;
	return error;
}

/* One side of path_differs(): from the tree `*id` to its entry `name`. */
static int side_descend(struct walk *w, bool *found, git_oid *id,
			git_filemode_t *mode, const char *name, size_t len)
{
	const struct memo *e;
	int error;

	if (!*found)
		return 0;
	if ((error = tree_child(w, id, name, len, &e)) < 0)
		return error;
	if ((*found = e->found)) {
		git_oid_cpy(id, &e->id);
		*mode = e->mode;
	}
	return 0;
}

/*
 * Whether trees `a` and `b` (NULL: the empty tree) differ at path `k`.
 * Both are descended at once, down to the first identical subtree; a
 * non-tree in the middle of the path means the path is absent.
 */
static int path_differs(struct walk *w, const git_oid *a, const git_oid *b,
			size_t k, bool *differs)
{
	const char *path = w->paths.v[k];
	git_oid ida, idb;
	bool fa = a != NULL, fb = b != NULL;
	git_filemode_t ma = GIT_FILEMODE_TREE, mb = GIT_FILEMODE_TREE;
	int error = 0;

	if (a)
		git_oid_cpy(&ida, a);
	if (b)
		git_oid_cpy(&idb, b);
	while (*path && (fa || fb)) {
		size_t n = strcspn(path, "/");

		fa &= ma == GIT_FILEMODE_TREE;	/* a file names no directory */
		fb &= mb == GIT_FILEMODE_TREE;
		if (fa && fb && git_oid_equal(&ida, &idb))
			break;		/* the same subtree: the same below */
		if ((error = side_descend(w, &fa, &ida, &ma, path, n)) < 0 ||
		    (error = side_descend(w, &fb, &idb, &mb, path, n)) < 0)
			break;
		path += n + (path[n] == '/');
	}
	if (w->dir_only[k]) {	/* "dir/" names no file, as in git */
		fa &= ma == GIT_FILEMODE_TREE;
		fb &= mb == GIT_FILEMODE_TREE;
	}
	*differs = !error && (fa != fb ||
			      (fa && (ma != mb || !git_oid_equal(&ida, &idb))));
	return error;
}

/*
 * Whether the commit-graph's filter of `it` says none of the paths
 * differs from its first parent's.
 */
static bool graph_same(const struct walk *w, const struct qitem *it)
{
	return it->in_graph &&
	       !gm_graph_may_change_any(w->opts->graph, it->gc, w->keys,
					w->paths.nr);
}

/* Whether `tree` differs from the tree `parent` (NULL: empty) at any path. */
static int tree_differs(struct walk *w, const git_oid *tree,
			const git_oid *parent, bool *differs)
{
	int error = 0;

	*differs = false;
	for (size_t i = 0; i < w->paths.nr && !*differs && !error; i++)
		error = path_differs(w, tree, parent, i, differs);
	return error;
}

/* ==================== counting people ==================== */

static int person_find(struct walk *w, const char *name, const char *email,
		       struct gm_history_person **out)
{
	struct gm_history *h = w->h;
	struct gm_history_person *p;
	void *idx = NULL;

	gm_buf_reset(&w->lc);
	for (const char *s = email; *s; s++)
		if (gm_buf_putc(&w->lc, (*s >= 'A' && *s <= 'Z') ? *s + 32 : *s) < 0)
			return GM_ERROR;
	if (gm_strmap_get(&w->people, w->lc.ptr, w->lc.len, &idx)) {
		*out = &h->people[(size_t)idx - 1];
		return 0;
	}
	if (GM_ARRAY_GROW(h->people, h->nr_people, w->alloc_people) < 0 ||
	    GM_ARRAY_GROW(w->last_commit, h->nr_people, w->alloc_last) < 0 ||
	    GM_ARRAY_GROW(w->touched, h->nr_people, w->alloc_touched) < 0)
		return GM_ERROR;
	p = &h->people[h->nr_people];
	memset(p, 0, sizeof(*p));
	p->name = strdup(name);
	p->email = strdup(email);
	if (!p->name || !p->email) {
		free(p->name);
		free(p->email);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	w->last_commit[h->nr_people++] = 0;
	if (gm_strmap_put(&w->people, w->lc.ptr, w->lc.len,
			  (void *)(uintptr_t)h->nr_people) < 0)
		return GM_ERROR;
	*out = p;
	return 0;
}

/* Count the person once for this commit. */
static void person_touch(struct walk *w, struct gm_history_person *p)
{
	size_t i = (size_t)(p - w->h->people);

	if (w->last_commit[i] != w->commit_no) {
		w->last_commit[i] = w->commit_no;
		p->commits++;
		w->touched[w->nr_touched++] = i;	/* one per person */
	}
}

static int person_add_type(struct gm_history_person *p, const char *key)
{
	struct gm_history_type *v;

	for (size_t i = 0; i < p->nr_types; i++) {
		if (!strcmp(p->types[i].key, key)) {
			p->types[i].lines++;
			return 0;
		}
	}
	v = realloc(p->types, (p->nr_types + 1) * sizeof(*v));
	if (!v)
		return gm_error_set(GM_ERROR, "out of memory");
	p->types = v;
	v[p->nr_types].key = strdup(key);
	if (!v[p->nr_types].key)
		return gm_error_set(GM_ERROR, "out of memory");
	v[p->nr_types++].lines = 1;
	return 0;
}

/* The person named by `name`/`email`, after the mailmap. */
static int identify(struct walk *w, const char *name, const char *email,
		    struct gm_history_person **out)
{
	const char *rname = name, *remail = email;

	if (w->opts->mailmap &&
	    git_mailmap_resolve(&rname, &remail, w->opts->mailmap, name,
				email) < 0)
		return gm_error_set(GM_ERROR, "out of memory");
	return person_find(w, rname, remail, out);
}

static int count_trailer(struct walk *w, const struct gm_trailer *t)
{
	struct gm_buf value = GM_BUF_INIT, name = GM_BUF_INIT, addr = GM_BUF_INIT;
	struct gm_history_person *p;
	int error;

	if ((error = gm_buf_put(&value, t->value, t->value_len)) < 0 ||
	    (error = gm_email_parse(&name, &addr, value.ptr)) < 0)
		goto out;
	if (!gm_email_address_valid(addr.ptr) || !gm_email_name_valid(name.ptr)) {
		w->h->rejected++;
		goto out;
	}
	if ((error = gm_trailer_canonical_key(&w->key, t->key, t->key_len)) < 0 ||
	    (error = identify(w, name.ptr, addr.ptr, &p)) < 0 ||
	    (error = person_add_type(p, w->key.ptr)) < 0)
		goto out;
	person_touch(w, p);
out:
	gm_buf_release(&value);
	gm_buf_release(&name);
	gm_buf_release(&addr);
	return error;
}

/* The committer's address, once, in h->committers (not a person counted). */
static int note_committer(struct walk *w, const git_signature *sig)
{
	const char *name = sig->name ? sig->name : "", *email = sig->email;

	if (w->opts->mailmap &&
	    git_mailmap_resolve(&name, &email, w->opts->mailmap, name,
				email) < 0)
		return gm_error_set(GM_ERROR, "out of memory");
	gm_buf_reset(&w->lc);
	for (const char *s = email; *s; s++)
		if (gm_buf_putc(&w->lc, (*s >= 'A' && *s <= 'Z') ? *s + 32 : *s) < 0)
			return GM_ERROR;
	if (gm_strmap_get(&w->committers, w->lc.ptr, w->lc.len, NULL))
		return 0;
	if (gm_strmap_put(&w->committers, w->lc.ptr, w->lc.len, NULL) < 0 ||
	    gm_strvec_push(&w->h->committers, w->lc.ptr) < 0)
		return GM_ERROR;
	return 0;
}

static int count_commit(struct walk *w, git_commit *c)
{
	const git_signature *author = git_commit_author(c);
	const git_signature *committer = git_commit_committer(c);
	const char *msg = git_commit_message_raw(c);
	struct gm_history_person *p;
	int error = 0;

	w->h->commits++;
	w->commit_no++;
	w->nr_touched = 0;
	if (committer && committer->email &&
	    (error = note_committer(w, committer)) < 0)
		return error;
	if (author && author->email && gm_email_address_valid(author->email)) {
		if ((error = identify(w, author->name ? author->name : "",
				      author->email, &p)) < 0)
			return error;
		p->authored++;
		person_touch(w, p);
	}
	while (msg && *msg && !error) {
		size_t len = strcspn(msg, "\n");
		struct gm_trailer t;

		if (gm_trailer_parse(&t, msg, len))
			error = count_trailer(w, &t);
		msg += len + (msg[len] == '\n');
	}
	return error;
}

/* ==================== the walk ==================== */

/* Queue `it` (its commit with it) unless it was queued before. */
static int walk_enqueue(struct walk *w, struct gm_pqueue *q, struct qitem *it)
{
	char hex[GIT_OID_HEXSZ + 1];

	int error = 0;

	git_oid_tostr(hex, sizeof(hex), &it->id);
	if (!gm_strmap_get(&w->seen, hex, GIT_OID_HEXSZ, NULL)) {
		error = gm_strmap_put(&w->seen, hex, GIT_OID_HEXSZ, NULL);
		if (!error && !(error = gm_pqueue_push(q, it)))
			it->c = NULL;	/* the queue's now */
	}
	git_commit_free(it->c);
	it->c = NULL;
	return error;
}

/*
 * The entry of commit `c` (which becomes the entry's), found in the
 * graph with its own tree if there.
 */
static void item_of_commit(const struct walk *w, git_commit *c,
			   struct qitem *out)
{
	git_oid_cpy(&out->id, git_commit_id(c));
	out->time = git_commit_time(c);
	out->in_graph = gm_graph_find(w->opts->graph, &out->id,
				      git_commit_tree_id(c), &out->gc);
	out->c = c;
}

/* The commit of `it`: the one read with it, else read now. */
static int item_commit(struct walk *w, struct qitem *it)
{
	if (!it->c && git_commit_lookup(&it->c, w->repo, &it->id) < 0)
		return gm_error_from_git(GIT_ERROR, "cannot read a commit");
	return 0;
}

/* A commit's tree, and its parents: their entries and trees. */
struct parents {
	git_oid tree;
	struct qitem *v;
	git_oid *trees;
	bool *loaded;		/* false: a parent that cannot be read */
	unsigned nr, nr_loaded;
};

static void parents_release(struct parents *p)
{
	for (unsigned i = 0; p->v && i < p->nr; i++)
		git_commit_free(p->v[i].c);
	free(p->v);
	free(p->trees);
	free(p->loaded);
}

static int parents_alloc(struct parents *p, unsigned n)
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
static bool parents_from_graph(const struct walk *w, const struct qitem *it,
			       struct parents *p, int *error)
{
	const struct gm_graph *g = w->opts->graph;
	struct gm_graph_commit gp[2];
	int n = it->in_graph ? gm_graph_commit_parents(g, it->gc, gp) : -1;

	if (n < 0 || (*error = parents_alloc(p, (unsigned)n)) < 0)
		return n >= 0;
	gm_graph_commit_tree(g, it->gc, &p->tree);
	for (int i = 0; i < n; i++) {
		struct qitem *v = &p->v[i];

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

/* The same from the commit and its parents read. */
static int parents_from_commit(struct walk *w, struct qitem *it,
			       struct parents *p)
{
	git_commit *c;
	int error;

	if ((error = item_commit(w, it)) < 0)
		return error;
	c = it->c;
	git_oid_cpy(&p->tree, git_commit_tree_id(c));
	error = parents_alloc(p, git_commit_parentcount(c));
	for (unsigned i = 0; i < p->nr && !error; i++) {
		git_commit *parent = NULL;

		if (git_commit_parent(&parent, c, i) < 0) {
			w->h->shallow = true;
			continue;
		}
		item_of_commit(w, parent, &p->v[i]);
		git_oid_cpy(&p->trees[i], git_commit_tree_id(parent));
		p->loaded[i] = true;
		p->nr_loaded++;
	}
	return error;
}

static int parents_read(struct walk *w, struct qitem *it, struct parents *p)
{
	int error = 0;

	memset(p, 0, sizeof(*p));
	if (parents_from_graph(w, it, p, &error))
		return error;
	return parents_from_commit(w, it, p);
}

/*
 * One commit of the walk: git's default simplification keeps only the
 * first parent the commit is TREESAME to, if any; a non-merge that is not
 * TREESAME is counted.
 */
static int walk_commit(struct walk *w, struct gm_pqueue *q, struct qitem *it)
{
	struct parents p;
	bool differs = true;
	unsigned same;
	int error = parents_read(w, it, &p);

	same = p.nr;
	for (unsigned i = 0; i < p.nr && !error && same == p.nr; i++) {
		if (!p.loaded[i])
			continue;
		if (i == 0 && graph_same(w, it))
			differs = false;
		else
			error = tree_differs(w, &p.tree, &p.trees[i], &differs);
		if (!error && !differs)
			same = i;
	}
	if (!error && !p.nr_loaded)
		error = tree_differs(w, &p.tree, NULL, &differs);
	for (unsigned i = 0; i < p.nr && !error; i++)
		if (p.loaded[i] && (same == p.nr || same == i))
			error = walk_enqueue(w, q, &p.v[i]);
	if (!error && p.nr <= 1 && same == p.nr && differs &&
	    it->time <= w->opts->until && !(error = item_commit(w, it)))
		error = count_commit(w, it->c);
	parents_release(&p);
	return error;
}

static int person_cmp(const void *a, const void *b)
{
	const struct gm_history_person *x = a, *y = b;

	if (x->commits != y->commits)
		return x->commits > y->commits ? -1 : 1;
	if (x->authored != y->authored)
		return x->authored > y->authored ? -1 : 1;
	return strcmp(x->email, y->email);
}

static int walk_prepare(struct walk *w, const struct gm_strvec *paths)
{
	w->dir_only = calloc(paths->nr + 1, sizeof(*w->dir_only));
	w->keys = calloc(paths->nr + 1, sizeof(*w->keys));
	w->memo = calloc(MEMO_SLOTS, sizeof(*w->memo));
	if (!w->dir_only || !w->keys || !w->memo)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < paths->nr; i++) {
		const char *p = paths->v[i];
		size_t len = strlen(p);

		while (len && p[len - 1] == '/')
			len--;
		w->dir_only[i] = len && p[len] == '/';
		if (gm_strvec_pushn(&w->paths, p, len) < 0 ||
		    gm_graph_path_set(&w->keys[i], p, len) < 0)
			return GM_ERROR;
	}
	return 0;
}

static void walk_release(struct walk *w, struct gm_pqueue *q)
{
	for (size_t i = 0; i < q->nr; i++)
		git_commit_free(((struct qitem *)gm_pqueue_at(q, i))->c);
	gm_pqueue_release(q);
	for (size_t i = 0; w->keys && i < w->paths.nr; i++)
		gm_graph_path_release(&w->keys[i]);
	free(w->keys);
	gm_strvec_release(&w->paths);
	free(w->dir_only);
	free(w->memo);
	for (size_t i = 0; i < TREES_KEPT; i++)
		git_tree_free(w->trees[i]);
	gm_strmap_release(&w->seen);
	gm_strmap_release(&w->people);
	gm_strmap_release(&w->committers);
	free(w->last_commit);
	free(w->touched);
	gm_strvec_release(&w->changed);
	for (size_t i = 0; w->recent && i < RECENT_TREES; i++)
		git_tree_free(w->recent[i]);
	free(w->recent);
	gm_buf_release(&w->tmp);
	gm_buf_release(&w->key);
	gm_buf_release(&w->lc);
}

/* The start commit read, and queued into `q` (NULL: not). */
static int walk_start(struct walk *w, struct gm_pqueue *q, const git_oid *start)
{
	git_commit *c = NULL;
	struct qitem it;

	if (git_commit_lookup(&c, w->repo, start) < 0)
		return gm_error_from_git(GIT_ERROR,
					 "cannot read the start commit");
	item_of_commit(w, c, &it);
	if (q)
		return walk_enqueue(w, q, &it);
	git_commit_free(c);
	return 0;
}

int gm_history_walk(struct gm_history **out, git_repository *repo,
		    const git_oid *start, const struct gm_strvec *paths,
		    const struct gm_history_options *opts)
{
	struct walk w;
	struct gm_pqueue q;
	struct qitem it;
	int error;

	gm_pqueue_init(&q, sizeof(struct qitem), queue_before);
	memset(&w, 0, sizeof(w));
	w.repo = repo;
	w.opts = opts;
	if (!(w.h = calloc(1, sizeof(*w.h))))
		return gm_error_set(GM_ERROR, "out of memory");
	error = walk_prepare(&w, paths);
	if (!error)
		error = walk_start(&w, paths->nr ? &q : NULL, start);
	while (!error && gm_pqueue_pop(&q, &it)) {
		if (it.time >= opts->since)
			error = walk_commit(&w, &q, &it);
		git_commit_free(it.c);
	}
	if (!error && w.h->nr_people)
		qsort(w.h->people, w.h->nr_people, sizeof(*w.h->people),
		      person_cmp);
	if (error) {
		gm_history_free(w.h);
		w.h = NULL;
	}
	walk_release(&w, &q);
	*out = w.h;
	return error;
}

void gm_history_free(struct gm_history *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nr_people; i++) {
		for (size_t k = 0; k < h->people[i].nr_types; k++)
			free(h->people[i].types[k].key);
		free(h->people[i].types);
		free(h->people[i].name);
		free(h->people[i].email);
	}
	free(h->people);
	gm_strvec_release(&h->committers);
	free(h);
}

/* ==================== every change: gm_history_each() ==================== */

/* git's order of tree entries: a directory's name as if it ended in '/'. */
static int entry_cmp(const git_tree_entry *x, const git_tree_entry *y)
{
	const char *a = git_tree_entry_name(x), *b = git_tree_entry_name(y);
	size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;
	int c = memcmp(a, b, n);
	unsigned char ca, cb;

	if (c)
		return c;
	ca = n < la ? (unsigned char)a[n] :
	     git_tree_entry_type(x) == GIT_OBJECT_TREE ? '/' : 0;
	cb = n < lb ? (unsigned char)b[n] :
	     git_tree_entry_type(y) == GIT_OBJECT_TREE ? '/' : 0;
	return ca < cb ? -1 : ca > cb;
}

static int changes_between(struct walk *w, const git_oid *a,
			   const git_oid *b, struct gm_buf *path);

/*
 * The tree `id` into `*out` (the caller frees it), from the trees read
 * lately if it is one: each version of a tree is compared twice, as a
 * commit's and as its child's parent's, and libgit2 keeps no large tree.
 */
static int recent_tree(struct walk *w, const git_oid *id, git_tree **out)
{
	size_t k;
	git_tree **slot;

	memcpy(&k, id->id, sizeof(k));
	slot = &w->recent[k % RECENT_TREES];
	if (*slot && git_oid_equal(git_tree_id(*slot), id))
		return git_object_dup((git_object **)out, (git_object *)*slot);
	if (git_tree_lookup(out, w->repo, id) < 0)
		return -1;
	git_tree_free(*slot);
	*slot = NULL;
	git_object_dup((git_object **)slot, (git_object *)*out);
	return 0;
}

/*
 * One side of changes_between() has the entry `e`, the other `other`
 * (NULL: nothing of that name): the files that differ below path + name.
 */
static int changes_entry(struct walk *w, const git_tree_entry *e,
			 const git_tree_entry *other, struct gm_buf *path)
{
	size_t len = path->len;
	bool tree = git_tree_entry_type(e) == GIT_OBJECT_TREE;
	int error;

	if (other && git_oid_equal(git_tree_entry_id(e),
				   git_tree_entry_id(other)) &&
	    git_tree_entry_filemode(e) == git_tree_entry_filemode(other))
		return 0;
	if ((error = gm_buf_puts(path, git_tree_entry_name(e))) < 0)
		return error;
	if (!tree)
		error = gm_strvec_push(&w->changed, path->ptr);
	else if (!(error = gm_buf_putc(path, '/')))
		error = changes_between(w, git_tree_entry_id(e),
					other ? git_tree_entry_id(other) : NULL,
					path);
	path->len = len;
	path->ptr[len] = '\0';
	return error;
}

/*
 * Append to w->changed the files (path + name) that differ between the
 * trees `a` and `b` (NULL: the empty tree), in path order: those added,
 * removed, or changed in content or mode. Identical subtrees are not
 * read; an unreadable tree is counted and taken as empty.
 */
static int changes_between(struct walk *w, const git_oid *a,
			   const git_oid *b, struct gm_buf *path)
{
	git_tree *ta = NULL, *tb = NULL;
	size_t i = 0, j = 0, na, nb;
	int error = 0;

	if (a && b && git_oid_equal(a, b))
		return 0;
	if ((a && recent_tree(w, a, &ta) < 0) ||
	    (b && recent_tree(w, b, &tb) < 0))
		w->h->unreadable++;
	na = ta ? git_tree_entrycount(ta) : 0;
	nb = tb ? git_tree_entrycount(tb) : 0;
	while ((i < na || j < nb) && !error) {
		const git_tree_entry *x = i < na ?
			git_tree_entry_byindex(ta, i) : NULL;
		const git_tree_entry *y = j < nb ?
			git_tree_entry_byindex(tb, j) : NULL;
		int c = !x ? 1 : !y ? -1 : entry_cmp(x, y);

		if (c < 0)
			error = changes_entry(w, x, NULL, path);
		else if (c > 0)
			error = changes_entry(w, y, NULL, path);
		else
			error = changes_entry(w, x, y, path);
		i += c <= 0;
		j += c >= 0;
	}
	git_tree_free(ta);
	git_tree_free(tb);
	return error;
}

/*
 * One commit of the --full-history walk: every parent is followed; a
 * non-merge in the window that changes a file against its one parent
 * (or the empty tree) is counted and handed to `fn`.
 */
static int walk_commit_full(struct walk *w, struct gm_pqueue *q,
			    struct qitem *it, gm_history_commit_fn fn,
			    void *payload)
{
	struct gm_history_commit hc;
	struct gm_buf path = GM_BUF_INIT;
	struct parents p;
	int error = parents_read(w, it, &p);

	for (unsigned i = 0; i < p.nr && !error; i++)
		if (p.loaded[i])
			error = walk_enqueue(w, q, &p.v[i]);
	if (error || p.nr > 1 || it->time > w->opts->until)
		goto out;
	gm_strvec_release(&w->changed);
	if ((error = gm_buf_grow(&path, 256)) == 0)
		error = changes_between(w, p.nr_loaded ? &p.trees[0] : NULL,
					&p.tree, &path);
	if (error || !w->changed.nr)
		goto out;
	if ((error = item_commit(w, it)) < 0 ||
	    (error = count_commit(w, it->c)) < 0)
		goto out;
	hc.commit = it->c;
	hc.files = (const char *const *)w->changed.v;
	hc.nr_files = w->changed.nr;
	hc.people = w->touched;
	hc.nr_people = w->nr_touched;
	error = fn(w->h, &hc, payload);
out:
	gm_buf_release(&path);
	parents_release(&p);
	return error;
}

int gm_history_each(struct gm_history **out, git_repository *repo,
		    const git_oid *start,
		    const struct gm_history_options *opts,
		    gm_history_commit_fn fn, void *payload)
{
	struct gm_strvec none = GM_STRVEC_INIT;
	struct walk w;
	struct gm_pqueue q;
	struct qitem it;
	int error;

	gm_pqueue_init(&q, sizeof(struct qitem), queue_before);
	memset(&w, 0, sizeof(w));
	w.repo = repo;
	w.opts = opts;
	if (!(w.h = calloc(1, sizeof(*w.h))) ||
	    !(w.recent = calloc(RECENT_TREES, sizeof(*w.recent)))) {
		free(w.h);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	error = walk_prepare(&w, &none);
	if (!error)
		error = walk_start(&w, &q, start);
	while (!error && gm_pqueue_pop(&q, &it)) {
		if (it.time >= opts->since)
			error = walk_commit_full(&w, &q, &it, fn, payload);
		git_commit_free(it.c);
	}
	if (error) {
		gm_history_free(w.h);
		w.h = NULL;
	}
	walk_release(&w, &q);
	*out = w.h;
	return error;
}

/* ==================== the mailmap ==================== */

static int mailmap_add_blob(struct gm_buf *all, git_repository *repo,
			    git_tree *tree, const char *spec)
{
	git_object *obj = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	int error = 0;

	if (tree) {
		if (git_tree_entry_bypath(&e, tree, spec) < 0 ||
		    git_tree_entry_type(e) != GIT_OBJECT_BLOB)
			goto out;
		if (git_blob_lookup(&blob, repo, git_tree_entry_id(e)) < 0)
			goto out;
	} else {
		if (git_revparse_single(&obj, repo, spec) < 0 ||
		    git_object_type(obj) != GIT_OBJECT_BLOB)
			goto out;
		blob = (git_blob *)obj;
		obj = NULL;
	}
	if (!(error = gm_buf_put(all, git_blob_rawcontent(blob),
				 (size_t)git_blob_rawsize(blob))))
		error = gm_buf_putc(all, '\n');
out:
	git_blob_free(blob);
	git_object_free(obj);
	git_tree_entry_free(e);
	return error;
}

int gm_history_mailmap(git_mailmap **out, git_repository *repo,
		       git_tree *tree)
{
	struct gm_buf all = GM_BUF_INIT;
	git_config *cfg = NULL;
	git_buf value = { NULL, 0, 0 };
	int error;

	error = mailmap_add_blob(&all, repo, tree, ".mailmap");
	if (!error && git_repository_config_snapshot(&cfg, repo) == 0) {
		if (git_config_get_string_buf(&value, cfg, "mailmap.blob") == 0)
			error = mailmap_add_blob(&all, repo, NULL, value.ptr);
		git_buf_dispose(&value);
		if (!error &&
		    git_config_get_path(&value, cfg, "mailmap.file") == 0) {
			error = gm_buf_read_file(&all, value.ptr);
			if (error == GM_ENOTFOUND)
				error = 0;
		}
		git_buf_dispose(&value);
	}
	git_config_free(cfg);
	if (!error && git_mailmap_from_buffer(out, all.ptr, all.len) < 0)
		error = gm_error_from_git(GIT_ERROR, "cannot parse the mailmap");
	gm_buf_release(&all);
	return error;
}

/* ==================== the window ==================== */

/* `arg` read as a date into `*out`; a refusal names the option. */
static int window_end(int64_t *out, const char *option, const char *arg,
		      time_t now)
{
	char why[512];

	if (gm_date_parse(out, arg, now) == 0)
		return 0;
	/* the message is copied: it cannot be formatted into itself */
	snprintf(why, sizeof(why), "%s", gm_error_last());
	return gm_error_set(GM_EUSAGE, "%s: %s", option, why);
}

int gm_history_window(int64_t *since, int64_t *until, const char *since_arg,
		      const char *until_arg, const char *default_since,
		      time_t now)
{
	int error;

	*since = INT64_MIN;
	*until = INT64_MAX;
	if (!since_arg)
		since_arg = default_since;
	if (since_arg &&
	    (error = window_end(since, "--since", since_arg, now)) < 0)
		return error;
	if (until_arg &&
	    (error = window_end(until, "--until", until_arg, now)) < 0)
		return error;
	return 0;
}
