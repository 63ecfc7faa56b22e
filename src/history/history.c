#include "gm/history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/commits.h"
#include "gm/date.h"
#include "gm/email.h"
#include "gm/encoding.h"
#include "gm/error.h"
#include "gm/graph.h"
#include "gm/strmap.h"
#include "gm/trailer.h"

/* ==================== the walk's state ==================== */

struct walk {
	const struct gm_history_options *opts;
	struct gm_objects_rules *rules;	/* how git reads commits here */
	struct gm_commits src;		/* commits and trees, as git reads them */
	struct gm_strmap seen;		/* hex ids of queued commits */
	struct gm_commits_queue q;
	struct gm_commits_paths ps;	/* the paths, compared */
	enum gm_commits_kind *kind;	/* per path */
	struct gm_graph_path *keys;	/* per path: its filter keys */
	struct gm_commits_changes ch;	/* the paths the commit changes */
	struct gm_history *h;
	struct gm_strmap people;	/* lc(email) -> index + 1 */
	struct gm_strmap committers;	/* lc(email) of h->committers */
	size_t *last_commit;		/* per person: last commit counted */
	size_t alloc_people;
	size_t alloc_last;
	size_t *touched;		/* the people the commit names */
	size_t nr_touched, alloc_touched;
	struct gm_strvec changed;	/* the files the commit changes */
	size_t commit_no;		/* current commit, from 1 */
	struct gm_buf key, lc;
};

/*
 * Whether the commit-graph's filter of `it` says none of the paths
 * differs from its first parent's (git log asks the filters first).
 */
static bool graph_same(const struct walk *w, const struct gm_commits_item *it)
{
	return it->in_graph &&
	       !gm_graph_may_change_any(w->src.graph, it->gc, w->keys,
					w->ps.nr);
}

/* Whether `tree` differs from the tree `parent` (NULL: empty) at any path. */
static int tree_differs(struct walk *w, const git_oid *tree,
			const git_oid *parent, bool *differs)
{
	int error;

	w->ch.nr = 0;
	error = gm_commits_diff(&w->src, &w->ps, parent, tree, &w->ch);
	*differs = w->ch.nr > 0;
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
	struct gm_commit_utf8 u = GM_COMMIT_UTF8_INIT;
	const git_signature *committer = git_commit_committer(c);
	struct gm_history_person *p;
	const char *msg;
	int error;

	w->h->commits++;
	w->commit_no++;
	w->nr_touched = 0;
	if (committer && committer->email &&
	    (error = note_committer(w, committer)) < 0)
		return error;
	if ((error = gm_commit_utf8(&u, c, git_commit_message_raw(c))) < 0)
		return error;
	msg = u.message;
	if (*u.email && gm_email_address_valid(u.email)) {
		if ((error = identify(w, u.name, u.email, &p)) < 0)
			goto out;
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
out:
	gm_commit_utf8_release(&u);
	return error;
}

/* ==================== the walk ==================== */

/*
 * One commit of the walk: git's default simplification keeps only the
 * first parent the commit is TREESAME to, if any; a non-merge that is not
 * TREESAME is counted.
 */
static int walk_commit(struct walk *w, struct gm_commits_item *it)
{
	struct gm_commits_parents p;
	bool differs = true;
	size_t same;
	int error = gm_commits_parents(&w->src, it, &p);

	same = p.nr;
	for (size_t i = 0; i < p.nr && !error && same == p.nr; i++) {
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
	for (size_t i = 0; i < p.nr && !error; i++)
		if (p.loaded[i] && (same == p.nr || same == i))
			error = gm_commits_queue_push(&w->q, &p.v[i]);
	if (!error && p.nr <= 1 && same == p.nr && differs &&
	    it->time <= w->opts->until &&
	    !(error = gm_commits_item_commit(&w->src, it)))
		error = count_commit(w, it->c);
	gm_commits_parents_release(&p);
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

/* The paths as compared: "dir/" a directory's, else a pathspec's. */
static int walk_prepare(struct walk *w, const struct gm_strvec *paths)
{
	size_t n = paths->nr;

	w->ps.paths = calloc(n + 1, sizeof(*w->ps.paths));
	w->kind = calloc(n + 1, sizeof(*w->kind));
	w->ps.order = calloc(n + 1, sizeof(*w->ps.order));
	w->keys = calloc(n + 1, sizeof(*w->keys));
	if (!w->ps.paths || !w->kind || !w->ps.order || !w->keys)
		return gm_error_set(GM_ERROR, "out of memory");
	w->ps.kind = w->kind;
	for (size_t i = 0; i < n; i++) {
		const char *p = paths->v[i];
		size_t len = strlen(p);

		while (len && p[len - 1] == '/')
			len--;
		w->kind[i] = len && p[len] == '/' ? GM_COMMITS_DIR :
			     GM_COMMITS_ANY;
		if (!(w->ps.paths[i] = strndup(p, len)))
			return gm_error_set(GM_ERROR, "out of memory");
		w->ps.order[w->ps.nr++] = i;
		if (gm_graph_path_set(&w->keys[i], p, len) < 0)
			return GM_ERROR;
	}
	gm_commits_paths_sort(&w->ps);
	return 0;
}

static void walk_release(struct walk *w)
{
	gm_commits_queue_release(&w->q);
	gm_commits_close(&w->src);
	gm_objects_rules_free(w->rules);
	for (size_t i = 0; w->ps.paths && i < w->ps.nr; i++) {
		free(w->ps.paths[i]);
		gm_graph_path_release(&w->keys[i]);
	}
	free(w->ps.paths);
	free(w->ps.order);
	free(w->kind);
	free(w->keys);
	free(w->ch.v);
	gm_strmap_release(&w->seen);
	gm_strmap_release(&w->people);
	gm_strmap_release(&w->committers);
	free(w->last_commit);
	free(w->touched);
	gm_strvec_release(&w->changed);
	gm_buf_release(&w->key);
	gm_buf_release(&w->lc);
}

/*
 * The walk's state, reading under the rules git reads commits by (the
 * commit-graph only if they allow it), the start commit read and, if
 * `queue`, queued.
 */
static int walk_open(struct walk *w, git_repository *repo,
		     const struct gm_history_options *opts,
		     const git_oid *start, bool queue)
{
	struct gm_commits_item it;
	int error;

	w->opts = opts;
	gm_commits_queue_init(&w->q, &w->seen);
	if (!(w->h = calloc(1, sizeof(*w->h))))
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = gm_objects_rules_load(&w->rules, repo)) < 0 ||
	    (error = gm_commits_open(&w->src, repo, opts->packs, w->rules,
				     opts->graph)) < 0)
		return error;
	if ((error = gm_commits_item(&w->src, start, &it)) < 0)
		return error == GM_ERROR ? error :
			gm_error_set(GM_ERROR, "cannot read the start commit");
	if (!queue) {
		gm_commits_item_release(&it);
		return 0;
	}
	return gm_commits_queue_push(&w->q, &it);
}

/* The walk's outcome into `*out`, or NULL on `error`, which it returns. */
static int walk_close(struct walk *w, int error, struct gm_history **out)
{
	if (!error) {
		w->h->shallow = w->src.shallow;
		w->h->unreadable += w->src.unreadable;
	}
	if (error) {
		gm_history_free(w->h);
		w->h = NULL;
	}
	walk_release(w);
	*out = w->h;
	return error;
}

int gm_history_walk(struct gm_history **out, git_repository *repo,
		    const git_oid *start, const struct gm_strvec *paths,
		    const struct gm_history_options *opts)
{
	struct gm_commits_item it;
	struct walk w;
	int error;

	memset(&w, 0, sizeof(w));
	error = walk_open(&w, repo, opts, start, paths->nr > 0);
	if (!error)
		error = walk_prepare(&w, paths);
	while (!error && gm_commits_queue_pop(&w.q, &it)) {
		if (it.time >= opts->since)
			error = walk_commit(&w, &it);
		gm_commits_item_release(&it);
	}
	if (!error && w.h->nr_people)
		qsort(w.h->people, w.h->nr_people, sizeof(*w.h->people),
		      person_cmp);
	return walk_close(&w, error, out);
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

/*
 * One commit of the --full-history walk: every parent is followed; a
 * non-merge in the window that changes a file against its one parent
 * (or the empty tree) is counted and handed to `fn`.
 */
static int walk_commit_full(struct walk *w, struct gm_commits_item *it,
			    gm_history_commit_fn fn, void *payload)
{
	struct gm_history_commit hc;
	struct gm_commits_parents p;
	int error = gm_commits_parents(&w->src, it, &p);

	for (size_t i = 0; i < p.nr && !error; i++)
		if (p.loaded[i])
			error = gm_commits_queue_push(&w->q, &p.v[i]);
	if (error || p.nr > 1 || it->time > w->opts->until)
		goto out;
	gm_strvec_release(&w->changed);
	error = gm_commits_diff_all(&w->src, p.nr_loaded ? &p.trees[0] : NULL,
				    &p.tree, &w->changed);
	if (error || !w->changed.nr)
		goto out;
	if ((error = gm_commits_item_commit(&w->src, it)) < 0 ||
	    (error = count_commit(w, it->c)) < 0)
		goto out;
	hc.commit = it->c;
	hc.files = (const char *const *)w->changed.v;
	hc.nr_files = w->changed.nr;
	hc.people = w->touched;
	hc.nr_people = w->nr_touched;
	error = fn(w->h, &hc, payload);
out:
	gm_commits_parents_release(&p);
	return error;
}

int gm_history_each(struct gm_history **out, git_repository *repo,
		    const git_oid *start,
		    const struct gm_history_options *opts,
		    gm_history_commit_fn fn, void *payload)
{
	struct gm_commits_item it;
	struct walk w;
	int error;

	memset(&w, 0, sizeof(w));
	error = walk_open(&w, repo, opts, start, true);
	while (!error && gm_commits_queue_pop(&w.q, &it)) {
		if (it.time >= opts->since)
			error = walk_commit_full(&w, &it, fn, payload);
		gm_commits_item_release(&it);
	}
	return walk_close(&w, error, out);
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
