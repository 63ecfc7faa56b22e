#include "gm/blame.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gm/buf.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/follow.h"
#include "gm/graph.h"
#include "gm/signers.h"
#include "gm/strmap.h"

/* The file's bytes in the work tree, if it is a regular file there. */
static int read_worktree(struct gm_buf *out, const char *workdir,
			 const char *path)
{
	struct gm_buf full = GM_BUF_INIT;
	struct stat st;
	int error;

	if (!workdir)
		return GM_ENOTFOUND;
	if ((error = gm_buf_printf(&full, "%s%s", workdir, path)) < 0)
		return error;
	if (lstat(full.ptr, &st) || !S_ISREG(st.st_mode))
		error = GM_ENOTFOUND;
	else
		error = gm_buf_read_file(out, full.ptr);
	gm_buf_release(&full);
	return error;
}

static size_t count_lines(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += s[i] == '\n';
	return n + (len && s[len - 1] != '\n');
}

/* The blob of `path` in the tree of commit `newest`, or NULL. */
static git_blob *commit_blob(git_repository *repo, const git_oid *newest,
			     const char *path)
{
	git_commit *c = NULL;
	git_tree *t = NULL;
	git_tree_entry *e = NULL;
	git_blob *b = NULL;

	if (git_commit_lookup(&c, repo, newest) == 0 &&
	    git_commit_tree(&t, c) == 0 &&
	    git_tree_entry_bypath(&e, t, path) == 0 &&
	    git_tree_entry_type(e) == GIT_OBJECT_BLOB &&
	    git_blob_lookup(&b, repo, git_tree_entry_id(e)) < 0)
		b = NULL;
	git_tree_entry_free(e);
	git_tree_free(t);
	git_commit_free(c);
	return b;
}

/* ==================== blame ==================== */

/*
 * git blame's way (blame.c, without -M/-C): every line to blame starts
 * with the newest commit as its suspect; commits are taken newest first
 * and pass each line on to the first parent that has it unchanged (the
 * whole file to a parent with the same blob; the file found in a parent
 * at its path or, if the commit created it, as renamed from a deleted
 * file), by a diff with the indent heuristic as git's default; what no
 * parent takes is the commit's. Lines reaching a root commit are
 * boundary lines.
 */
struct bline {
	size_t final;		/* index in the lines blamed */
	size_t line;		/* its line number in the origin's blob */
};

/* A commit of the walk: where the commit-graph has it, if it does. */
struct bcommit {
	git_oid id;
	int64_t time;
	bool in_graph;
	struct gm_graph_commit gc;
};

struct origin {
	git_oid commit;
	int64_t time;
	bool in_graph;
	struct gm_graph_commit gc;
	char *path;
	git_oid blob;
	struct bline *v;
	size_t nr, alloc;
	uint64_t seq;
	bool queued;
};

struct blamer {
	git_repository *repo;
	const struct gm_graph *graph;	/* or NULL */
	struct gm_graph_path keys;	/* the filter keys of `keys_of` */
	char *keys_of;
	struct origin *o;
	size_t nr, alloc;
	struct gm_strmap by_key;	/* "hex:path" -> index + 1 */
	size_t *heap;
	size_t nr_heap, alloc_heap;
	uint64_t seq;
	git_oid *result;		/* per line blamed */
	bool *boundary;
	bool *done;
	bool show_root;
	struct gm_buf key, name;
	git_tree *trees[256];		/* direct-mapped by id */
};

#define TREES (sizeof(((struct blamer *)0)->trees) / sizeof(git_tree *))

static git_tree *blamer_tree(struct blamer *b, const git_oid *id)
{
	size_t slot;
	git_tree **t;

	memcpy(&slot, id->id, sizeof(slot));
	t = &b->trees[slot % TREES];
	if (*t && git_oid_equal(git_tree_id(*t), id))
		return *t;
	git_tree_free(*t);
	if (git_tree_lookup(t, b->repo, id) < 0)
		*t = NULL;
	return *t;
}

/* The entry `name` (`len` bytes) of tree `id`: false if none. */
static bool blamer_child(struct blamer *b, const git_oid *id,
			 const char *name, size_t len, git_oid *out,
			 git_filemode_t *mode)
{
	const git_tree_entry *e;
	git_tree *t = blamer_tree(b, id);

	gm_buf_reset(&b->name);
	if (!t || gm_buf_put(&b->name, name, len) < 0 ||
	    !(e = git_tree_entry_byname(t, b->name.ptr)))
		return false;
	git_oid_cpy(out, git_tree_entry_id(e));
	*mode = git_tree_entry_filemode(e);
	return true;
}

/*
 * The entry at `path` below tree `root`, descended beside tree `other`
 * while the two agree: `*same` if an identical subtree (or entry) is
 * met on the way, which then stands for the entry.
 */
static bool blamer_path(struct blamer *b, const git_oid *root,
			const git_oid *other, const char *path, git_oid *id,
			git_filemode_t *mode, bool *same)
{
	git_oid at, ot;
	bool have_other = other != NULL;

	*same = false;
	git_oid_cpy(&at, root);
	if (other)
		git_oid_cpy(&ot, other);
	*mode = GIT_FILEMODE_TREE;
	for (;;) {
		size_t n = strcspn(path, "/");
		git_filemode_t om;

		if (have_other && git_oid_equal(&at, &ot)) {
			*same = true;
			return true;
		}
		if (*mode != GIT_FILEMODE_TREE ||
		    !blamer_child(b, &at, path, n, &at, mode))
			return false;
		have_other = have_other && blamer_child(b, &ot, path, n, &ot, &om);
		if (!path[n]) {
			git_oid_cpy(id, &at);
			*same = have_other && git_oid_equal(&at, &ot) && om == *mode;
			return true;
		}
		path += n + 1;
	}
}

static bool heap_before(const struct blamer *b, size_t x, size_t y)
{
	const struct origin *p = &b->o[x], *q = &b->o[y];

	return p->time != q->time ? p->time > q->time : p->seq < q->seq;
}

static int heap_push(struct blamer *b, size_t k)
{
	size_t i;

	if (GM_ARRAY_GROW(b->heap, b->nr_heap, b->alloc_heap) < 0)
		return GM_ERROR;
	b->o[k].queued = true;
	b->o[k].seq = b->seq++;
	for (i = b->nr_heap++; i && heap_before(b, k, b->heap[(i - 1) / 2]);
	     i = (i - 1) / 2)
		b->heap[i] = b->heap[(i - 1) / 2];
	b->heap[i] = k;
	return 0;
}

static bool heap_pop(struct blamer *b, size_t *out)
{
	size_t i = 0, last;

	if (!b->nr_heap)
		return false;
	*out = b->heap[0];
	last = b->heap[--b->nr_heap];
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= b->nr_heap)
			break;
		if (c + 1 < b->nr_heap && heap_before(b, b->heap[c + 1], b->heap[c]))
			c++;
		if (!heap_before(b, b->heap[c], last))
			break;
		b->heap[i] = b->heap[c];
		i = c;
	}
	if (b->nr_heap)
		b->heap[i] = last;
	b->o[*out].queued = false;
	return true;
}

/* The origin (commit, path), made if new; its index in `*out`. */
static int origin_get(struct blamer *b, const struct bcommit *c,
		      const char *path, const git_oid *blob, size_t *out)
{
	char hex[GIT_OID_HEXSZ + 1];
	struct origin *o;
	void *v;

	git_oid_tostr(hex, sizeof(hex), &c->id);
	gm_buf_reset(&b->key);
	if (gm_buf_printf(&b->key, "%s:%s", hex, path) < 0)
		return GM_ERROR;
	if (gm_strmap_get(&b->by_key, b->key.ptr, b->key.len, &v)) {
		*out = (size_t)v - 1;
		return 0;
	}
	if (GM_ARRAY_GROW(b->o, b->nr, b->alloc) < 0)
		return GM_ERROR;
	o = &b->o[b->nr];
	memset(o, 0, sizeof(*o));
	git_oid_cpy(&o->commit, &c->id);
	git_oid_cpy(&o->blob, blob);
	o->time = c->time;
	o->in_graph = c->in_graph;
	o->gc = c->gc;
	if (!(o->path = strdup(path)))
		return gm_error_set(GM_ERROR, "out of memory");
	*out = b->nr++;
	return gm_strmap_put(&b->by_key, b->key.ptr, b->key.len,
			     (void *)(uintptr_t)b->nr);
}

static int origin_add(struct blamer *b, size_t k, size_t final, size_t line)
{
	struct origin *o = &b->o[k];

	if (GM_ARRAY_GROW(o->v, o->nr, o->alloc) < 0)
		return GM_ERROR;
	o->v[o->nr].final = final;
	o->v[o->nr++].line = line;
	return (!o->queued && o->nr == 1) ? heap_push(b, k) : 0;
}

static bool is_file_mode(git_filemode_t m)
{
	return m == GIT_FILEMODE_BLOB || m == GIT_FILEMODE_BLOB_EXECUTABLE ||
	       m == GIT_FILEMODE_LINK;
}

/*
 * The file of origin `o` in the parent `p`: at its path (find_origin),
 * else, where the commit created it, as renamed (gm_follow_rename()). `*path`
 * NULL: none; else owned.
 */
static int parent_file(struct blamer *b, const struct origin *o,
		       const git_oid *ct, const git_oid *pt, char **path,
		       git_oid *blob)
{
	git_oid id, cid;
	git_filemode_t mode = 0, cmode = 0;
	bool found, cfound, same;
	int error;

	*path = NULL;
	found = blamer_path(b, pt, ct,
			    o->path, &id, &mode, &same);
	if (found && same) {
		git_oid_cpy(blob, &o->blob);
		*path = strdup(o->path);
		return *path ? 0 : gm_error_set(GM_ERROR, "out of memory");
	}
	if (found) {
		if (!is_file_mode(mode))
			return 0;	/* a type change: not the same file */
		git_oid_cpy(blob, &id);
		*path = strdup(o->path);
		return *path ? 0 : gm_error_set(GM_ERROR, "out of memory");
	}
	cfound = blamer_path(b, ct, NULL, o->path, &cid,
			     &cmode, &same);
	if (!cfound)
		return 0;
	error = gm_follow_rename(path, b->repo, pt,
				       ct, o->path, &cid,
				       cmode);
	if (error || !*path)
		return error;
	found = blamer_path(b, pt, NULL, *path, &id, &mode,
			    &same);
	if (!found) {
		free(*path);
		*path = NULL;
		return 0;
	}
	git_oid_cpy(blob, &id);
	return 0;
}

static int bline_cmp(const void *a, const void *b)
{
	const struct bline *x = a, *y = b;

	return (x->line > y->line) - (x->line < y->line);
}

/*
 * Move the lines of `o` that the diff from blob `from` to `o`'s blob
 * leaves unchanged to origin `to` (pass_blame_to_parent()); the others
 * stay in `o`.
 */
static int pass_unchanged(struct blamer *b, size_t ok, git_blob *from,
			  const char *self, size_t self_len, size_t to)
{
	git_diff_options opts;
	git_patch *patch = NULL;
	struct origin *o = &b->o[ok];
	size_t keep = 0, i = 0, nh;
	size_t t = 1, p = 1;	/* the next unchanged line in each */
	int error = 0;

	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.flags = GIT_DIFF_FORCE_TEXT | GIT_DIFF_INDENT_HEURISTIC;
	opts.context_lines = 0;
	if (git_patch_from_blob_and_buffer(&patch, from, NULL, self, self_len,
					   NULL, &opts) < 0)
		return gm_error_from_git(GIT_ERROR, "cannot diff for blame");
	qsort(o->v, o->nr, sizeof(*o->v), bline_cmp);
	nh = git_patch_num_hunks(patch);
	for (size_t h = 0; h <= nh && !error; h++) {
		const git_diff_hunk *hk = NULL;
		size_t lines, first_new = SIZE_MAX, next_t = 0, next_p = 0;

		if (h < nh && git_patch_get_hunk(&hk, &lines, patch, h) == 0) {
			first_new = hk->new_lines ? (size_t)hk->new_start :
						    (size_t)hk->new_start + 1;
			next_t = (size_t)hk->new_start +
				 (hk->new_lines ? (size_t)hk->new_lines : 1);
			next_p = (size_t)hk->old_start +
				 (hk->old_lines ? (size_t)hk->old_lines : 1);
		}
		/* lines before the hunk map to the parent at an offset */
		while (i < o->nr && o->v[i].line < first_new && !error) {
			size_t ln = o->v[i].line;

			error = origin_add(b, to, o->v[i].final, p + (ln - t));
			o = &b->o[ok];
			i++;
		}
		/* lines in the hunk stay */
		while (i < o->nr && hk && o->v[i].line < next_t)
			o->v[keep++] = o->v[i++];
		if (hk) {
			t = next_t;
			p = next_p;
		}
	}
	o->nr = keep;
	git_patch_free(patch);
	return error;
}

/* Blame what is left of `o` on its commit. */
static void blame_here(struct blamer *b, size_t k, bool boundary)
{
	struct origin *o = &b->o[k];

	for (size_t i = 0; i < o->nr; i++) {
		git_oid_cpy(&b->result[o->v[i].final], &o->commit);
		b->boundary[o->v[i].final] = boundary && !b->show_root;
		b->done[o->v[i].final] = true;
	}
	o->nr = 0;
}

/* A commit's tree and its first parents (at most 16). */
struct bparents {
	git_oid tree;
	unsigned nr;
	struct bcommit v[16];
	git_oid trees[16];
	bool have[16];		/* false: a parent that cannot be read */
};

/* The commit `c`, read, as the walk knows it. */
static void bcommit_of(const struct blamer *b, git_commit *c,
		       struct bcommit *out)
{
	git_oid_cpy(&out->id, git_commit_id(c));
	out->time = git_commit_time(c);
	out->in_graph = gm_graph_find(b->graph, &out->id, git_commit_tree_id(c),
				      &out->gc);
}

/* The parents of origin `o`'s commit from the graph: false if it cannot say. */
static bool parents_from_graph(const struct blamer *b, const struct origin *o,
			       struct bparents *ps)
{
	struct gm_graph_commit gp[2];
	int n = o->in_graph ? gm_graph_commit_parents(b->graph, o->gc, gp) : -1;

	if (n < 0)
		return false;
	gm_graph_commit_tree(b->graph, o->gc, &ps->tree);
	ps->nr = (unsigned)n;
	for (int i = 0; i < n; i++) {
		struct bcommit *p = &ps->v[i];

		gm_graph_commit_id(b->graph, gp[i], &p->id);
		p->time = gm_graph_commit_time(b->graph, gp[i]);
		p->in_graph = true;
		p->gc = gp[i];
		gm_graph_commit_tree(b->graph, gp[i], &ps->trees[i]);
		ps->have[i] = true;
	}
	return true;
}

/* The same from the commit read: false if it cannot be read. */
static bool parents_from_commit(const struct blamer *b,
				const struct origin *o, struct bparents *ps)
{
	git_commit *c = NULL;

	if (git_commit_lookup(&c, b->repo, &o->commit) < 0)
		return false;
	git_oid_cpy(&ps->tree, git_commit_tree_id(c));
	ps->nr = git_commit_parentcount(c);
	ps->nr = ps->nr > 16 ? 16 : ps->nr;
	for (unsigned i = 0; i < ps->nr; i++) {
		git_commit *p = NULL;

		if (!(ps->have[i] = git_commit_parent(&p, c, i) == 0))
			continue;
		bcommit_of(b, p, &ps->v[i]);
		git_oid_cpy(&ps->trees[i], git_commit_tree_id(p));
		git_commit_free(p);
	}
	git_commit_free(c);
	return true;
}

/* Whether the commit-graph's filter of `o` rules out its file's change. */
static int graph_same(struct blamer *b, const struct origin *o, bool *same)
{
	*same = false;
	if (!o->in_graph)
		return 0;
	if (!b->keys_of || strcmp(b->keys_of, o->path)) {
		free(b->keys_of);
		if (!(b->keys_of = strdup(o->path)) ||
		    gm_graph_path_set(&b->keys, o->path, strlen(o->path)) < 0)
			return gm_error_set(GM_ERROR, "out of memory");
	}
	*same = !gm_graph_may_change(b->graph, o->gc, &b->keys);
	return 0;
}

/* All lines of origin `k` to origin `to`. */
static int pass_all(struct blamer *b, size_t k, size_t to)
{
	int error = 0;

	for (size_t l = 0; l < b->o[k].nr && !error; l++)
		error = origin_add(b, to, b->o[k].v[l].final,
				   b->o[k].v[l].line);
	b->o[k].nr = 0;
	return error;
}

/* pass_blame(): one origin's lines to its parents, or to itself. */
static int pass_blame(struct blamer *b, size_t k)
{
	struct bparents ps;
	char *paths[16] = { NULL };
	git_oid blobs[16], self_id = b->o[k].blob;
	git_blob *self = NULL;
	size_t to[16];
	bool same;
	int error;

	if (!parents_from_graph(b, &b->o[k], &ps) &&
	    !parents_from_commit(b, &b->o[k], &ps)) {
		blame_here(b, k, true);
		return 0;
	}
	if ((error = graph_same(b, &b->o[k], &same)) < 0)
		return error;
	if (same && ps.nr) {	/* the first parent has the same file */
		if ((error = origin_get(b, &ps.v[0], b->o[k].path, &self_id,
					&to[0])) == 0)
			error = pass_all(b, k, to[0]);
		return error;
	}
	for (unsigned i = 0; i < ps.nr && !error; i++) {
		if (!ps.have[i])
			continue;
		error = parent_file(b, &b->o[k], &ps.tree, &ps.trees[i],
				    &paths[i], &blobs[i]);
		if (error || !paths[i])
			continue;
		error = origin_get(b, &ps.v[i], paths[i], &blobs[i], &to[i]);
		if (!error && git_oid_equal(&blobs[i], &self_id)) {
			error = pass_all(b, k, to[i]);
			goto out;
		}
	}
	if (error)
		goto out;
	if (!ps.nr) {
		blame_here(b, k, true);
		goto out;
	}
	if (git_blob_lookup(&self, b->repo, &self_id) < 0)
		goto here;
	for (unsigned i = 0; i < ps.nr && !error && b->o[k].nr; i++) {
		git_blob *pb = NULL;

		if (!paths[i] || git_blob_lookup(&pb, b->repo, &blobs[i]) < 0)
			continue;
		error = pass_unchanged(b, k, pb, git_blob_rawcontent(self),
				       (size_t)git_blob_rawsize(self), to[i]);
		git_blob_free(pb);
	}
here:
	if (!error)
		blame_here(b, k, false);
out:
	for (unsigned i = 0; i < ps.nr; i++)
		free(paths[i]);
	git_blob_free(self);
	return error;
}

static void blamer_release(struct blamer *b)
{
	for (size_t i = 0; i < b->nr; i++) {
		free(b->o[i].path);
		free(b->o[i].v);
	}
	free(b->o);
	free(b->heap);
	free(b->result);
	free(b->boundary);
	free(b->done);
	gm_strmap_release(&b->by_key);
	gm_graph_path_release(&b->keys);
	free(b->keys_of);
	gm_buf_release(&b->key);
	gm_buf_release(&b->name);
	for (size_t i = 0; i < TREES; i++)
		git_tree_free(b->trees[i]);
}

static bool show_root(git_repository *repo)
{
	git_config *cfg = NULL;
	int v = 0;

	if (git_repository_config_snapshot(&cfg, repo) == 0 &&
	    git_config_get_bool(&v, cfg, "blame.showroot") < 0)
		v = 0;
	git_config_free(cfg);
	return v != 0;
}

/*
 * Blame lines [start, start + len) of the commit's file (blob `blob`),
 * or of the work tree's `text` when it differs: lines the work tree
 * changed are the zero id's.
 */
static int blame_run(struct gm_strvec *out, git_repository *repo,
		     const struct gm_graph *graph, git_commit *head,
		     const char *path, git_blob *blob, const char *text,
		     size_t size, long start, long len)
{
	struct blamer b;
	struct bcommit hc;
	size_t k;
	int error = 0;

	memset(&b, 0, sizeof(b));
	b.repo = repo;
	b.graph = graph;
	bcommit_of(&b, head, &hc);
	b.show_root = show_root(repo);
	b.result = calloc((size_t)len, sizeof(*b.result));
	b.boundary = calloc((size_t)len, sizeof(*b.boundary));
	b.done = calloc((size_t)len, sizeof(*b.done));
	if (!b.result || !b.boundary || !b.done) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	if ((error = origin_get(&b, &hc, path, git_blob_id(blob), &k)) < 0)
		goto out;
	if (text) {
		/* the work tree as a commit of its own above HEAD */
		struct origin work;

		memset(&work, 0, sizeof(work));
		if (GM_ARRAY_GROW(b.o, b.nr, b.alloc) < 0) {
			error = GM_ERROR;
			goto out;
		}
		b.o[b.nr] = work;
		for (long i = 0; i < len && !error; i++)
			error = origin_add(&b, b.nr, (size_t)i, (size_t)(start + i));
		b.nr++;
		if (!error) {
			heap_pop(&b, &k);	/* not walked as a commit */
			error = pass_unchanged(&b, b.nr - 1, blob, text, size, 0);
		}
		if (!error)
			blame_here(&b, b.nr - 1, false);
	} else {
		for (long i = 0; i < len && !error; i++)
			error = origin_add(&b, k, (size_t)i, (size_t)(start + i));
	}
	while (!error && heap_pop(&b, &k))
		if (b.o[k].nr) {
			error = pass_blame(&b, k);
			free(b.o[k].v);
			b.o[k].v = NULL;
			b.o[k].alloc = b.o[k].nr = 0;
		}
	for (long i = 0; i < len && !error; i++) {
		char hex[GIT_OID_HEXSZ + 1];

		if (!b.done[i] || b.boundary[i])
			continue;
		git_oid_tostr(hex, sizeof(hex), &b.result[i]);
		error = gm_strvec_push(out, hex);
	}
out:
	blamer_release(&b);
	return error;
}

int gm_blame_lines(struct gm_strvec *out, git_repository *repo,
		   const struct gm_graph *graph, const git_oid *newest,
		   const char *workdir, const char *path, long start, long len)
{
	struct gm_buf work = GM_BUF_INIT;
	git_blob *blob = commit_blob(repo, newest, path);
	git_commit *head = NULL;
	const char *text;
	size_t size, lines;
	bool in_work, same;
	int error = 0;

	in_work = read_worktree(&work, workdir, path) == 0;
	if (!blob && !in_work)
		goto out;	/* git blame fails: nothing */
	text = in_work ? work.ptr : git_blob_rawcontent(blob);
	size = in_work ? work.len : (size_t)git_blob_rawsize(blob);
	lines = count_lines(text, size);
	if (len || start) {
		if (start < 1 || len < 1 || (size_t)start > lines)
			goto out;
		if ((size_t)(start - 1) + (size_t)len > lines)
			len = (long)(lines - (size_t)(start - 1));
	} else {
		start = 1;
		len = (long)lines;
	}
	if (!len)
		goto out;
	if (!blob) {	/* only in the work tree: nothing committed */
		for (long i = 0; i < len && !error; i++)
			error = gm_strvec_push(out, "0000000000000000000000000000000000000000");
		goto out;
	}
	same = !in_work || (size == (size_t)git_blob_rawsize(blob) &&
			    !memcmp(text, git_blob_rawcontent(blob), size));
	if (git_commit_lookup(&head, repo, newest) < 0)
		goto out;
	error = blame_run(out, repo, graph, head, path, blob,
			  same ? NULL : text, size, start, len);
out:
	git_commit_free(head);
	git_blob_free(blob);
	gm_buf_release(&work);
	return error;
}

/* Whether the file is a regular one in the work tree (the tree's, if none). */
static bool is_regular(const struct gm_blame_request *req, const char *path)
{
	struct gm_buf full = GM_BUF_INIT;
	struct stat st;
	bool reg = false;
	git_blob *b;

	if (req->workdir) {
		if (gm_buf_printf(&full, "%s%s", req->workdir, path) == 0)
			reg = !stat(full.ptr, &st) && S_ISREG(st.st_mode);
		gm_buf_release(&full);
		return reg;
	}
	b = commit_blob(req->repo, req->newest, path);
	reg = b != NULL;
	git_blob_free(b);
	return reg;
}

/* vcs_blame(): the commits of the lines, in order, duplicates kept. */
static int blame_commits(struct gm_strvec *all,
			 const struct gm_blame_request *req, const char *path)
{
	int error = 0;

	if (!is_regular(req, path))
		return 0;
	if (!req->nr_ranges)
		return gm_blame_lines(all, req->repo, req->graph, req->newest,
				      req->workdir, path, 0, 0);
	for (size_t i = 0; i < req->nr_ranges && !error; i++)
		if (!strcmp(req->ranges[i].file, path))
			error = gm_blame_lines(all, req->repo, req->graph,
					       req->newest, req->workdir, path,
					       req->ranges[i].start,
					       req->ranges[i].len);
	return error;
}

/* deduplicate_email() of `s` pushed on `out`. */
static int push_dedup(struct gm_rank *rk, struct gm_strvec *out,
		      const char *s)
{
	struct gm_buf tmp = GM_BUF_INIT;
	int error = gm_rank_dedup(rk, &tmp, s);

	if (!error)
		error = gm_strvec_push(out, tmp.ptr);
	gm_buf_release(&tmp);
	return error;
}

/*
 * vcs_find_signers() on `git log -1 <commit>`: the signers of the
 * commit, penguin-filtered, each normalised (its authors too, for the
 * side effects on the tables the script has).
 */
static int commit_signers(struct gm_rank *rk, const struct gm_signers_commit *c,
			  struct gm_strvec *out)
{
	struct gm_strvec unused = GM_STRVEC_INIT;
	int error = 0;

	if (!c->signatures.nr)
		return 0;
	for (size_t i = 0; i < c->authors.nr && !error; i++)
		error = push_dedup(rk, &unused,
				   gm_signers_value(c->authors.v[i]));
	for (size_t i = 0; i < c->signatures.nr && !error; i++) {
		const char *s = c->signatures.v[i];
		bool chief = gm_signers_names_chief(s);

		if (!chief || rk->opts->git_chief_penguins)
			error = push_dedup(rk, out, gm_signers_value(s));
	}
	gm_strvec_release(&unused);
	return error;
}

/* The "authored lines" of -f: each commit's author once per line. */
static int authored_lines(struct gm_rank *rk, const struct gm_strvec *all,
			  const struct gm_strvec *ids,
			  const struct gm_signers_commit *commits,
			  struct gm_strvec *out)
{
	struct gm_buf fmt = GM_BUF_INIT, who = GM_BUF_INIT;
	int error = 0;

	for (size_t k = 0; k < ids->nr && !error; k++) {
		const struct gm_signers_commit *c = &commits[k];
		size_t count = 0;

		if (!c->author || (c->author_chief &&
				   !rk->opts->git_chief_penguins))
			continue;
		gm_buf_reset(&fmt);
		if ((error = gm_email_normalize(&fmt, c->author, 1)) < 0 ||
		    (error = gm_rank_dedup(rk, &who, fmt.ptr)) < 0)
			break;
		for (size_t i = 0; i < all->nr; i++)
			count += !strcmp(all->v[i], ids->v[k]);
		for (size_t i = 0; i < count && !error; i++)
			error = gm_strvec_push(out, who.ptr);
	}
	gm_buf_release(&fmt);
	gm_buf_release(&who);
	return error;
}

int gm_blame_assign(struct gm_rank *rk, const struct gm_blame_request *req,
		    const char *path)
{
	struct gm_strvec all = GM_STRVEC_INIT, ids = GM_STRVEC_INIT;
	struct gm_strvec signers = GM_STRVEC_INIT, norm = GM_STRVEC_INIT;
	struct gm_strvec lines = GM_STRVEC_INIT;
	struct gm_signers_commit *commits = NULL;
	int error = blame_commits(&all, req, path);

	for (size_t i = 0; i < all.nr && !error; i++)
		if (!gm_strvec_contains(&ids, all.v[i]))
			error = gm_strvec_push(&ids, all.v[i]);
	if (!error && ids.nr && !(commits = calloc(ids.nr, sizeof(*commits))))
		error = gm_error_set(GM_ERROR, "out of memory");
	for (size_t k = 0; k < ids.nr && !error; k++) {
		git_commit *c = NULL;
		git_oid id;

		if (git_oid_fromstr(&id, ids.v[k]) < 0 ||
		    git_commit_lookup(&c, req->repo, &id) < 0)
			continue;	/* git log fails: nothing */
		error = gm_signers_commit_read(&commits[k], c,
					       req->all_signature_types);
		git_commit_free(c);
		if (!error && rk->opts->git_blame_signatures)
			error = commit_signers(rk, &commits[k], &signers);
	}
	if (!error && req->from_filename && rk->opts->rolestats)
		error = authored_lines(rk, &all, &ids, commits, &lines);
	if (!error && lines.nr)
		error = gm_rank_assign(rk, "authored lines", (int)all.nr, &lines,
				       GM_KIND_HISTORY);
	for (size_t i = 0; i < signers.nr && !error; i++)
		error = push_dedup(rk, &norm, signers.v[i]);
	if (!error)
		error = gm_rank_assign(rk, req->from_filename ? "commits" :
				       "modified commits", (int)ids.nr, &norm,
				       GM_KIND_HISTORY);
	for (size_t k = 0; commits && k < ids.nr; k++)
		gm_signers_commit_release(&commits[k]);
	free(commits);
	gm_strvec_release(&all);
	gm_strvec_release(&ids);
	gm_strvec_release(&signers);
	gm_strvec_release(&norm);
	gm_strvec_release(&lines);
	return error;
}
