#include "gm/signers.h"

#include <stdlib.h>
#include <time.h>
#include <string.h>

#include <git2/sys/repository.h>

#include "gm/blame.h"
#include "gm/buf.h"
#include "gm/date.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/follow.h"
#include "gm/objects.h"
#include "gm/graph.h"
#include "gm/pack.h"
#include "gm/mailmap.h"
#include "gm/strmap.h"
#include "gm/trailer.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/* ==================== the script's reading of a log entry ==================== */

/* R-73's signature test: trailer.c's. */
bool gm_signers_is_signature(const char *line, bool all_types)
{
	return gm_trailer_is_signature(line, strlen(line), all_types);
}

const char *gm_signers_value(const char *line)
{
	const char *p = line + strlen(line);

	/* s/\s*.*:\s*(.+)\s*\/$1/: the last ':' with a character after it */
	while (p > line) {
		p--;
		if (*p == ':' && p[1])
			break;
	}
	if (*p != ':' || !p[1])
		return line;
	for (p++; gm_email_isspace((unsigned char)*p) && p[1]; p++)
		;
	return p;
}

/* The script's /(Linus Torvalds)/i on a line: rank.c's. */
bool gm_signers_names_chief(const char *s)
{
	return gm_rank_is_chief_penguin_line(s, strlen(s));
}

static bool is_commit_line(const char *s)
{
	if (strncmp(s, "GitCommit: ", 11))
		return false;
	for (int i = 0; i < GIT_OID_HEXSZ; i++) {
		char c = s[11 + i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return false;
	}
	return true;
}

/* Whether `s` starts with "<digits>\t<digits>\t", as numstat lines do. */
static bool is_stat_like(const char *s)
{
	for (int k = 0; k < 2; k++) {
		const char *d = s;

		while (*s >= '0' && *s <= '9')
			s++;
		if (s == d || *s++ != '\t')
			return false;
	}
	return true;
}

/* One line of the script's output, white space at its start removed. */
static int classify_line(struct gm_signers_commit *out, const char *s,
			 size_t len, bool all_types, bool body)
{
	struct gm_buf line = GM_BUF_INIT;
	int error = 0;

	while (len && gm_email_isspace((unsigned char)*s))
		s++, len--;
	if (!len)
		return 0;
	if ((error = gm_buf_put(&line, s, len)) < 0)
		return error;
	if (is_commit_line(line.ptr))
		out->commit_lines++;
	if (!strncmp(line.ptr, "GitAuthor: ", 11))
		error = gm_strvec_push(&out->authors, line.ptr);
	if (!error && gm_signers_is_signature(line.ptr, all_types))
		error = gm_strvec_push(&out->signatures, line.ptr);
	if (!error && body && is_stat_like(line.ptr))
		error = gm_strvec_push(&out->stat_like, line.ptr);
	gm_buf_release(&line);
	return error;
}

/*
 * The entry of `--format="GitCommit: %H%nGitAuthor: %an <%ae>%nGitDate:
 * %aD%nGitSubject: %s%n%b%n"`: %s is the first paragraph, its lines
 * joined by spaces, %b the rest. The date line can match nothing.
 */
int gm_signers_commit_read(struct gm_signers_commit *out, git_commit *c,
			   bool all_types)
{
	const git_signature *a = git_commit_author(c);
	const char *msg = git_commit_message(c);
	struct gm_buf line = GM_BUF_INIT, subject = GM_BUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	bool in_subject = true;
	int error;

	memset(out, 0, sizeof(*out));
	git_oid_cpy(&out->id, git_commit_id(c));
	git_oid_tostr(hex, sizeof(hex), &out->id);
	if ((error = gm_buf_printf(&line, "%s <%s>", a && a->name ? a->name : "",
				   a && a->email ? a->email : "")) < 0)
		goto out;
	if (!(out->author = strdup(line.ptr))) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	gm_buf_reset(&line);
	if ((error = gm_buf_printf(&line, "GitCommit: %s", hex)) < 0 ||
	    (error = classify_line(out, line.ptr, line.len, all_types, false)) < 0)
		goto out;
	gm_buf_reset(&line);
	if ((error = gm_buf_printf(&line, "GitAuthor: %s", out->author)) < 0 ||
	    (error = classify_line(out, line.ptr, line.len, all_types, false)) < 0)
		goto out;
	if ((error = gm_buf_puts(&subject, "GitSubject: ")) < 0)
		goto out;
	while (msg && *msg && !error) {
		size_t len = strcspn(msg, "\n"), n = len;
		bool blank = true;

		for (size_t i = 0; i < len && blank; i++)
			blank = gm_email_isspace((unsigned char)msg[i]);
		if (in_subject && blank && subject.len > 12) {
			in_subject = false;
		} else if (in_subject && !blank) {
			while (n && gm_email_isspace((unsigned char)msg[n - 1]))
				n--;
			if (subject.len > 12)
				error = gm_buf_putc(&subject, ' ');
			if (!error)
				error = gm_buf_put(&subject, msg, n);
		} else if (!in_subject) {
			error = classify_line(out, msg, len, all_types, true);
		}
		msg += len + (msg[len] == '\n');
	}
	if (!error)
		error = classify_line(out, subject.ptr, subject.len, all_types,
				      false);
	out->author_chief = gm_signers_names_chief(out->author);
out:
	gm_buf_release(&line);
	gm_buf_release(&subject);
	if (error)
		gm_signers_commit_release(out);
	return error;
}

void gm_signers_commit_release(struct gm_signers_commit *c)
{
	gm_strvec_release(&c->authors);
	gm_strvec_release(&c->signatures);
	gm_strvec_release(&c->stat_like);
	free(c->author);
	c->author = NULL;
}

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

/* ==================== what the script makes of it ==================== */

/* The script's ^(\d+)\t(\d+)\tFILE$, FILE a regex. */
struct stat_re {
	pcre2_code *re;
	pcre2_match_data *md;
	const char *file;	/* literal fallback */
};

static void stat_re_init(struct stat_re *r, const char *file)
{
	struct gm_buf pat = GM_BUF_INIT;
	int err;
	PCRE2_SIZE off;

	memset(r, 0, sizeof(*r));
	r->file = file;
	if (gm_buf_printf(&pat, "^(\\d+)\\t(\\d+)\\t%s$", file) == 0)
		r->re = pcre2_compile((PCRE2_SPTR)pat.ptr, pat.len, 0, &err,
				      &off, NULL);
	if (r->re)
		r->md = pcre2_match_data_create_from_pattern(r->re, NULL);
	gm_buf_release(&pat);
}

static void stat_re_release(struct stat_re *r)
{
	pcre2_match_data_free(r->md);
	pcre2_code_free(r->re);
}

/* Whether `line` matches; its two numbers into `a`, `d`. */
static bool stat_re_match(struct stat_re *r, const char *line, long *a,
			  long *d)
{
	const char *p = line;

	if (r->re && r->md) {
		if (pcre2_match(r->re, (PCRE2_SPTR)line, PCRE2_ZERO_TERMINATED,
				0, 0, r->md, NULL) < 0)
			return false;
	} else {
		const char *tab = strchr(line, '\t');

		tab = tab ? strchr(tab + 1, '\t') : NULL;
		if (!tab || strcmp(tab + 1, r->file))
			return false;
	}
	*a = strtol(p, (char **)&p, 10);
	*d = strtol(p + 1, NULL, 10);
	return true;
}

/* deduplicate_email() of each line, in order, into `out`. */
static int dedup_all(struct gm_rank *rk, struct gm_strvec *out,
		     const struct gm_strvec *in, bool extract)
{
	struct gm_buf tmp = GM_BUF_INIT;
	int error = 0;

	for (size_t i = 0; i < in->nr && !error; i++) {
		const char *s = extract ? gm_signers_value(in->v[i]) : in->v[i];

		if (!(error = gm_rank_dedup(rk, &tmp, s)))
			error = gm_strvec_push(out, tmp.ptr);
	}
	gm_buf_release(&tmp);
	return error;
}

static int count_cmp(const void *a, const void *b)
{
	const struct gm_signers_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->who, y->who);
}

/* The counts vcs_assign() sees for a role, kept for the JSON facts. */
static int facts_role(struct gm_rank *rk, struct gm_signers_facts *facts,
		      const char *name, int divisor,
		      const struct gm_strvec *lines)
{
	struct gm_signers_role *r;
	struct gm_strmap idx = GM_STRMAP_INIT;
	struct gm_buf tmp = GM_BUF_INIT;
	int error = 0;

	if (!facts || !lines->nr ||
	    facts->nr_roles >= sizeof(facts->roles) / sizeof(*facts->roles))
		return 0;
	r = &facts->roles[facts->nr_roles++];
	r->name = name;
	r->divisor = divisor;
	if (!(r->v = calloc(lines->nr, sizeof(*r->v))))
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < lines->nr && !error; i++) {
		void *at;

		if ((error = gm_mailmap_apply(&tmp, rk->mailmap, lines->v[i])) < 0)
			break;
		if (gm_strmap_get(&idx, tmp.ptr, tmp.len, &at)) {
			r->v[(size_t)at - 1].count++;
			continue;
		}
		if (!(r->v[r->nr].who = strdup(tmp.ptr))) {
			error = gm_error_set(GM_ERROR, "out of memory");
			break;
		}
		r->v[r->nr++].count = 1;
		error = gm_strmap_put(&idx, tmp.ptr, tmp.len,
				      (void *)(uintptr_t)r->nr);
	}
	if (r->nr)
		qsort(r->v, r->nr, sizeof(*r->v), count_cmp);
	gm_strmap_release(&idx);
	gm_buf_release(&tmp);
	return error;
}

static int assign(struct gm_rank *rk, struct gm_signers_facts *facts,
		  const char *role, int divisor, const struct gm_strvec *lines)
{
	int error = facts_role(rk, facts, role, divisor, lines);

	return error ? error : gm_rank_assign(rk, role, divisor, lines,
					      GM_KIND_HISTORY);
}

/* The per-file lines of vcs_find_signers(): all of the file's commits. */
struct file_lines {
	int commits;
	struct gm_strvec authors, signatures;
	long *added, *deleted;		/* the matching stat lines */
	size_t nr_stats, alloc_added, alloc_deleted;
};

static int push_stat(struct file_lines *l, long a, long d)
{
	if (GM_ARRAY_GROW(l->added, l->nr_stats, l->alloc_added) < 0 ||
	    GM_ARRAY_GROW(l->deleted, l->nr_stats, l->alloc_deleted) < 0)
		return GM_ERROR;
	l->added[l->nr_stats] = a;
	l->deleted[l->nr_stats++] = d;
	return 0;
}

static int gather(struct file_lines *l, const struct gm_signers *s,
		  const struct gm_signers_file *file, struct stat_re *re,
		  struct gm_strvec *ids)
{
	struct gm_buf line = GM_BUF_INIT;
	int error = 0;

	for (size_t i = 0; i < file->nr_touches && !error; i++) {
		const struct gm_signers_touch *t = &file->touches[i];
		const struct gm_signers_commit *c = &s->commits[t->commit];
		char hex[GIT_OID_HEXSZ + 1];
		long a, d;

		l->commits += (int)c->commit_lines;
		for (size_t k = 0; k < c->authors.nr && !error; k++)
			error = gm_strvec_push(&l->authors, c->authors.v[k]);
		for (size_t k = 0; k < c->signatures.nr && !error; k++)
			error = gm_strvec_push(&l->signatures, c->signatures.v[k]);
		for (size_t k = 0; k < c->stat_like.nr && !error; k++)
			if (stat_re_match(re, c->stat_like.v[k], &a, &d))
				error = push_stat(l, a, d);
		if (!error && t->path && t->added >= 0) {
			gm_buf_reset(&line);
			error = gm_buf_printf(&line, "%ld\t%ld\t%s", t->added,
					      t->deleted, t->path);
			if (!error && stat_re_match(re, line.ptr, &a, &d))
				error = push_stat(l, a, d);
		}
		git_oid_tostr(hex, sizeof(hex), &c->id);
		if (!error && ids)
			error = gm_strvec_push(ids, hex);
	}
	gm_buf_release(&line);
	return error;
}

/* A memo of deduplicate_email() within one loop that repeats its calls. */
static int dedup_memo(struct gm_rank *rk, struct gm_strmap *memo,
		      struct gm_strvec *keep, const char *s, const char **out)
{
	struct gm_buf tmp = GM_BUF_INIT;
	void *v;
	int error;

	if (gm_strmap_get(memo, s, strlen(s), &v)) {
		*out = keep->v[(size_t)v - 1];
		return 0;
	}
	if ((error = gm_rank_dedup(rk, &tmp, s)) == 0 &&
	    (error = gm_strvec_push(keep, tmp.ptr)) == 0 &&
	    (error = gm_strmap_put(memo, s, strlen(s),
				   (void *)(uintptr_t)keep->nr)) == 0)
		*out = keep->v[keep->nr - 1];
	gm_buf_release(&tmp);
	return error;
}

/* The added_lines and removed_lines roles of R-75. */
static int assign_lines(struct gm_rank *rk, struct gm_signers_facts *facts,
			const struct file_lines *l,
			const struct gm_strvec *authors)
{
	struct gm_strvec uniq = GM_STRVEC_INIT, tmp = GM_STRVEC_INIT;
	struct gm_strvec added = GM_STRVEC_INIT, deleted = GM_STRVEC_INIT;
	struct gm_strvec keep = GM_STRVEC_INIT;
	struct gm_strmap memo = GM_STRMAP_INIT;
	long total_a = 0, total_d = 0;
	int error = 0;

	for (size_t i = 0; i < l->nr_stats; i++) {
		total_a += l->added[i];
		total_d += l->deleted[i];
	}
	for (size_t i = 0; i < authors->nr && !error; i++)
		if (!gm_strvec_contains(&uniq, authors->v[i]))
			error = gm_strvec_push(&uniq, authors->v[i]);
	if (!error)
		error = dedup_all(rk, &tmp, &uniq, false);
	gm_strvec_release(&uniq);
	for (size_t i = 0; i < tmp.nr && !error; i++)
		if (!gm_strvec_contains(&uniq, tmp.v[i]))
			error = gm_strvec_push(&uniq, tmp.v[i]);
	for (size_t u = 0; u < uniq.nr && !error; u++) {
		long a = 0, d = 0;

		for (size_t i = 0; i < l->nr_stats && !error; i++) {
			const char *who = NULL;

			error = dedup_memo(rk, &memo, &keep, authors->v[i], &who);
			if (!error && !strcmp(uniq.v[u], who)) {
				a += l->added[i];
				d += l->deleted[i];
			}
		}
		for (long k = 0; k < a && !error; k++)
			error = gm_strvec_push(&added, uniq.v[u]);
		for (long k = 0; k < d && !error; k++)
			error = gm_strvec_push(&deleted, uniq.v[u]);
	}
	if (!error)
		error = assign(rk, facts, "added_lines", (int)total_a, &added);
	if (!error)
		error = assign(rk, facts, "removed_lines", (int)total_d, &deleted);
	gm_strvec_release(&uniq);
	gm_strvec_release(&tmp);
	gm_strvec_release(&added);
	gm_strvec_release(&deleted);
	gm_strvec_release(&keep);
	gm_strmap_release(&memo);
	return error;
}

int gm_signers_assign(struct gm_rank *rk, const struct gm_signers *s,
		      size_t f, struct gm_signers_facts *facts)
{
	const struct gm_signers_file *file = &s->files[f];
	struct file_lines l;
	struct gm_strvec authors = GM_STRVEC_INIT, signers = GM_STRVEC_INIT;
	struct gm_strvec once = GM_STRVEC_INIT, kept = GM_STRVEC_INIT;
	struct stat_re re;
	int error;

	memset(&l, 0, sizeof(l));
	if (facts) {
		memset(facts, 0, sizeof(*facts));
		facts->path = file->path;
	}
	stat_re_init(&re, file->path);
	error = gather(&l, s, file, &re, facts ? &facts->commits : NULL);
	if (error)
		goto out;
	if (!l.signatures.nr) {		/* raw author lines, no commits */
		l.commits = 0;
		for (size_t i = 0; i < l.authors.nr && !error; i++)
			error = gm_strvec_push(&authors, l.authors.v[i]);
	} else {
		for (size_t i = 0; i < l.signatures.nr && !error; i++)
			if (rk->opts->git_chief_penguins ||
			    !gm_signers_names_chief(l.signatures.v[i]))
				error = gm_strvec_push(&kept, l.signatures.v[i]);
		if (!error)
			error = dedup_all(rk, &authors, &l.authors, true);
		if (!error)
			error = dedup_all(rk, &once, &kept, true);
	}
	if (!error)
		error = dedup_all(rk, &signers, &once, false);
	if (!error)
		error = assign(rk, facts, "commit_signer", l.commits, &signers);
	if (!error)
		error = assign(rk, facts, "authored", l.commits, &authors);
	if (!error && authors.nr == l.nr_stats)
		error = assign_lines(rk, facts, &l, &authors);
out:
	stat_re_release(&re);
	gm_strvec_release(&l.authors);
	gm_strvec_release(&l.signatures);
	free(l.added);
	free(l.deleted);
	gm_strvec_release(&authors);
	gm_strvec_release(&signers);
	gm_strvec_release(&once);
	gm_strvec_release(&kept);
	return error;
}

void gm_signers_facts_release(struct gm_signers_facts *facts)
{
	if (!facts)
		return;
	gm_strvec_release(&facts->commits);
	for (size_t i = 0; i < facts->nr_roles; i++) {
		for (size_t k = 0; k < facts->roles[i].nr; k++)
			free(facts->roles[i].v[k].who);
		free(facts->roles[i].v);
	}
	facts->nr_roles = 0;
}

/* ==================== a run's history ==================== */

/* whether the file gets the signoff step. */
static bool wants_signoffs(const struct gm_options *o,
			   const struct gm_signers_request *req, size_t i)
{
	const char *path = req->files->v[i];
	size_t len = strlen(path);

	if (!strcmp(path, "&STDIN"))
		return false;
	if (o->git)
		return true;
	return o->git_fallback &&
	       !(len >= 11 && !strcmp(path + len - 11, "MAINTAINERS")) &&
	       !(req->matches && i < req->matches->nr_files &&
		 req->matches->files[i].exact);
}

static int report_walk(struct gm_signers_report *r, struct gm_rank *rk,
		       const struct gm_signers_request *req,
		       struct gm_strvec *paths, size_t *index)
{
	const struct gm_options *o = rk->opts;
	struct gm_signers_options so = { 0, false, NULL, NULL };
	const char *since = o->git_since ? o->git_since : "1-year-ago";
	int error = 0;

	for (size_t i = 0; i < req->files->nr && !error; i++) {
		index[i] = SIZE_MAX;
		if (!wants_signoffs(o, req, i))
			continue;
		index[i] = paths->nr;
		error = gm_strvec_push(paths, req->files->v[i]);
	}
	if (error || !paths->nr)
		return error;
	if (gm_date_parse(&r->since, since, time(NULL)) < 0)
		return gm_error_set(GM_EUSAGE, "--git-since: %s", gm_error_last());
	so.since = r->since;
	so.all_signature_types = o->git_all_signature_types;
	so.packs = req->packs;
	so.graph = req->graph;
	return gm_signers_walk(&r->walk, req->repo, req->start, paths, &so);
}

int gm_signers_collect(struct gm_signers_report **out, struct gm_rank *rk,
		       const struct gm_signers_request *req)
{
	const struct gm_options *o = rk->opts;
	struct gm_blame_request br = {
		req->repo, req->graph, req->start, req->workdir, req->ranges,
		req->nr_ranges, o->from_filename, o->git_all_signature_types,
	};
	struct gm_strvec paths = GM_STRVEC_INIT;
	struct gm_signers_report *r = calloc(1, sizeof(*r));
	size_t *index = calloc(req->files->nr + 1, sizeof(*index));
	int error = 0;

	*out = NULL;
	if (!r || !index) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	if ((error = report_walk(r, rk, req, &paths, index)) < 0)
		goto out;
	if (r->walk && !(r->facts = calloc(paths.nr, sizeof(*r->facts)))) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < req->files->nr && !error; i++) {
		if (index[i] != SIZE_MAX) {
			error = gm_signers_assign(rk, r->walk, index[i],
						  &r->facts[index[i]]);
			r->nr_facts = index[i] + 1;
		}
		if (!error && o->git_blame && strcmp(req->files->v[i], "&STDIN"))
			error = gm_blame_assign(rk, &br, req->files->v[i]);
	}
out:
	free(index);
	gm_strvec_release(&paths);
	if (error) {
		gm_signers_report_free(r);
		r = NULL;
	}
	*out = r;
	return error;
}

void gm_signers_report_free(struct gm_signers_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_facts; i++)
		gm_signers_facts_release(&r->facts[i]);
	free(r->facts);
	gm_signers_free(r->walk);
	free(r);
}
