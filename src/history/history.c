#include "gm/history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gm/buf.h"
#include "gm/commits.h"
#include "gm/date.h"
#include "gm/email.h"
#include "gm/encoding.h"
#include "gm/error.h"
#include "gm/graph.h"
#include "gm/ident.h"
#include "gm/strmap.h"
#include "gm/trailer.h"

/* ==================== the walk's state ==================== */

/* Paths as compared: "dir/" a directory's, else a pathspec's. */
struct pathset {
	struct gm_commits_paths ps;
	struct gm_graph_path *keys;	/* per path: its filter keys */
};

/* What a trailer line adds to the person it names (count_trailers()). */
enum signal { COUNT, AUTHOR_REV, LONG_REV };

struct walk {
	const struct gm_history_options *opts;
	struct gm_objects_rules *rules;	/* how git reads commits here */
	struct gm_commits src;		/* commits and trees, as git reads them */
	struct gm_commits_walk cw;	/* the walk under way */
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
	struct gm_buf key, lc, name, email;
};

/* Whether `tree` differs from the tree `parent` (NULL: empty) at any path. */
static int tree_differs(struct walk *w, const struct pathset *set,
			const git_oid *tree, const git_oid *parent,
			bool *differs)
{
	int error;

	w->ch.nr = 0;
	error = gm_commits_diff(&w->src, &set->ps, parent, tree, &w->ch);
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

	if (gm_buf_set_lower(&w->lc, email) < 0)
		return GM_ERROR;
	if (gm_strmap_get(&w->people, w->lc.ptr, w->lc.len, &idx)) {
		p = *out = &h->people[(size_t)idx - 1];
		if (strcmp(p->name, name) && !gm_strvec_contains(&p->names, name))
			return gm_strvec_push(&p->names, name);
		return 0;
	}
	if (GM_ARRAY_GROW(h->people, h->nr_people, w->alloc_people) < 0 ||
	    GM_ARRAY_GROW(w->last_commit, h->nr_people, w->alloc_last) < 0 ||
	    GM_ARRAY_GROW(w->touched, h->nr_people, w->alloc_touched) < 0)
		return GM_ERROR;
	p = &h->people[h->nr_people];
	memset(p, 0, sizeof(*p));
	w->last_commit[h->nr_people++] = 0;	/* freed with h if half made */
	if (!(p->name = strdup(name)) || !(p->email = strdup(email)))
		return gm_error_set(GM_ERROR, "out of memory");
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

int gm_history_person_add_type(struct gm_history_person *p, const char *key,
			       size_t lines)
{
	struct gm_history_type *v;

	for (size_t i = 0; i < p->nr_types; i++) {
		if (!strcmp(p->types[i].key, key)) {
			p->types[i].lines += lines;
			return 0;
		}
	}
	if (!(v = realloc(p->types, (p->nr_types + 1) * sizeof(*v))))
		return gm_error_set(GM_ERROR, "out of memory");
	p->types = v;
	if (!(v[p->nr_types].key = strdup(key)))
		return gm_error_set(GM_ERROR, "out of memory");
	v[p->nr_types++].lines = lines;
	return 0;
}

/* The person named by `name`/`email`, after the mailmap. */
static int identify(struct walk *w, const char *name, const char *email,
		    struct gm_history_person **out)
{
	int error = gm_ident_resolve(w->opts->mailmap, &name, &email);

	return error < 0 ? error : person_find(w, name, email, out);
}

/*
 * The person of trailer `t` into `*out`, or NULL (counted in
 * h->rejected) if it names no valid address; its canonical key in w->key.
 */
static int trailer_person(struct walk *w, const struct gm_trailer *t,
			  struct gm_history_person **out)
{
	struct gm_buf value = GM_BUF_INIT, name = GM_BUF_INIT, addr = GM_BUF_INIT;
	int error;

	*out = NULL;
	if ((error = gm_buf_put(&value, t->value, t->value_len)) < 0 ||
	    (error = gm_email_parse(&name, &addr, value.ptr)) < 0)
		goto out;
	if (!gm_email_address_valid(addr.ptr) || !gm_email_name_valid(name.ptr)) {
		w->h->rejected++;
		goto out;
	}
	if ((error = gm_trailer_canonical_key(&w->key, t->key, t->key_len)) < 0)
		goto out;
	error = identify(w, name.ptr, addr.ptr, out);
out:
	gm_buf_release(&value);
	gm_buf_release(&name);
	gm_buf_release(&addr);
	return error;
}

static int count_trailer(struct walk *w, const struct gm_trailer *t)
{
	struct gm_history_person *p;
	int error = trailer_person(w, t, &p);

	if (!error && p && !(error = gm_history_person_add_type(p, w->key.ptr, 1)))
		person_touch(w, p);
	return error;
}

/* `s` (`len` bytes) without the white space at its ends, into `out`. */
static int put_trimmed(struct gm_buf *out, const char *s, size_t len)
{
	while (len && gm_email_isspace((unsigned char)*s))
		s++, len--;
	while (len && gm_email_isspace((unsigned char)s[len - 1]))
		len--;
	gm_buf_reset(out);
	return gm_buf_put(out, s, len);
}

/*
 * The committer of the commit object `text` into `name` and `email`:
 * its header line's text before the last '<', and up to the last '>'
 * after it, trimmed. @return 1, 0 for none, or GM_ERROR.
 */
static int committer_of(const char *text, struct gm_buf *name,
			struct gm_buf *email)
{
	const char *end = strstr(text, "\n\n"), *line = text, *lt, *gt;
	size_t len;

	if (!end)
		end = text + strlen(text);
	while (line < end && strncmp(line, "committer ", 10)) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));

		line = nl ? nl + 1 : end;
	}
	if (line >= end)
		return 0;
	line += 10;
	len = strcspn(line, "\n");
	for (lt = gt = NULL; len-- && !lt;)
		if (line[len] == '<')
			lt = line + len;
		else if (!gt && line[len] == '>')
			gt = line + len;
	if (!lt || !gt)
		return 0;
	return put_trimmed(name, line, (size_t)(lt - line)) < 0 ||
	       put_trimmed(email, lt + 1, (size_t)(gt - lt - 1)) < 0 ?
	       GM_ERROR : 1;
}

/* The committer's address, once, in h->committers (not a person counted). */
static int note_committer(struct walk *w, const char *text)
{
	struct gm_buf n = GM_BUF_INIT, e = GM_BUF_INIT;
	const char *name, *email;
	int error = committer_of(text, &n, &e);

	name = n.ptr;
	email = e.ptr;
	if (error > 0 && e.len &&
	    (error = gm_ident_resolve(w->opts->mailmap, &name, &email)) == 0 &&
	    (error = gm_buf_set_lower(&w->lc, email)) == 0 &&
	    !gm_strmap_get(&w->committers, w->lc.ptr, w->lc.len, NULL) &&
	    (gm_strmap_put(&w->committers, w->lc.ptr, w->lc.len, NULL) < 0 ||
	     gm_strvec_push(&w->h->committers, w->lc.ptr) < 0))
		error = GM_ERROR;
	gm_buf_release(&n);
	gm_buf_release(&e);
	return error < 0 ? error : 0;
}

/* ==================== trailers and review signals ==================== */

/* The review line `t` added to its person as `kind` (by `weight`). */
static int count_review(struct walk *w, const struct gm_trailer *t,
			enum signal kind, double weight)
{
	struct gm_history_person *p;
	int error;

	if (gm_trailer_canonical_key(&w->key, t->key, t->key_len) < 0)
		return GM_ERROR;
	if (strcmp(w->key.ptr, "Reviewed-by") && strcmp(w->key.ptr, "Acked-by"))
		return 0;
	if ((error = trailer_person(w, t, &p)) < 0 || !p)
		return error;
	if (kind == AUTHOR_REV)
		p->author_rev++;
	else
		p->long_rev += weight;
	return 0;
}

/*
 * Each trailer line of `msg` counted: with COUNT, as count_trailer()
 * does; else a review line, as count_review() does.
 */
static int count_trailers(struct walk *w, const char *msg, enum signal kind,
			  double weight)
{
	int error = 0;

	while (msg && *msg && !error) {
		size_t len = strcspn(msg, "\n");
		struct gm_trailer t;

		if (gm_trailer_parse(&t, msg, len))
			error = kind == COUNT ? count_trailer(w, &t) :
				count_review(w, &t, kind, weight);
		msg += len + (msg[len] == '\n');
	}
	return error;
}

/* The commit whose object's bytes are `text`, counted. */
static int count_commit(struct walk *w, const char *text)
{
	struct gm_commit_utf8 u = GM_COMMIT_UTF8_INIT;
	struct gm_history_person *p;
	int error;

	w->h->commits++;
	w->commit_no++;
	w->nr_touched = 0;
	if ((error = note_committer(w, text)) < 0 ||
	    (error = gm_commit_utf8_text(&u, text)) < 0)
		goto out;
	if (*u.email && gm_email_address_valid(u.email)) {
		if ((error = identify(w, u.name, u.email, &p)) < 0)
			goto out;
		p->authored++;
		person_touch(w, p);
	}
	error = count_trailers(w, u.message, COUNT, 0);
out:
	gm_commit_utf8_release(&u);
	return error;
}

/* The review lines of commit `text` added to the people they name as `kind`. */
static int count_reviews(struct walk *w, const char *text, enum signal kind,
			 double weight)
{
	struct gm_commit_utf8 u = GM_COMMIT_UTF8_INIT;
	size_t rejected = w->h->rejected;
	int error = gm_commit_utf8_text(&u, text);

	if (!error)
		error = count_trailers(w, u.message, kind, weight);
	w->h->rejected = rejected;	/* counted once, by count_commit() */
	gm_commit_utf8_release(&u);
	return error;
}

/*
 * Whether `name`/`email` (after the mailmap) is the person w->name/
 * w->email: the same address (any case) or the same name of two words.
 */
static int is_author(struct walk *w, const char *name, const char *email,
		     bool *same)
{
	int error = gm_ident_resolve(w->opts->mailmap, &name, &email);

	if (error < 0)
		return error;
	*same = (*email && !strcasecmp(email, w->email.ptr)) ||
		(strchr(name, ' ') && !strcmp(name, w->name.ptr));
	return 0;
}

/* ==================== the walk ==================== */

/*
 * One commit of a walk simplified by `set`: git's default simplification
 * keeps only the first parent the commit is TREESAME to, if any; the
 * kept parents are queued. `*counted`: a non-merge of the window that is
 * not TREESAME.
 */
static int walk_commit(struct walk *w, const struct pathset *set,
		       struct gm_commits_item *it, bool *counted)
{
	struct gm_commits_parents p;
	bool differs = true;
	size_t same;
	int error = gm_commits_parents(&w->src, it, &p);

	same = p.nr;
	for (size_t i = 0; i < p.nr && !error && same == p.nr; i++) {
		if (!p.loaded[i])
			continue;
		/* git log asks the commit-graph's filters first */
		if (i == 0 && it->in_graph &&
		    !gm_graph_may_change_any(w->src.graph, it->gc, set->keys,
					     set->ps.nr))
			differs = false;
		else
			error = tree_differs(w, set, &p.tree, &p.trees[i],
					     &differs);
		if (!error && !differs)
			same = i;
	}
	if (!error && !p.nr_loaded)
		error = tree_differs(w, set, &p.tree, NULL, &differs);
	for (size_t i = 0; i < p.nr && !error; i++)
		if (p.loaded[i] && (same == p.nr || same == i))
			error = gm_commits_walk_push(&w->cw, &p.v[i]);
	*counted = !error && p.nr <= 1 && same == p.nr && differs &&
		   it->time <= w->opts->until;
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

static int pathset_prepare(struct pathset *set, const struct gm_strvec *paths)
{
	int error = gm_commits_paths_init(&set->ps, paths, GM_COMMITS_ANY);

	if (!error && !(set->keys = calloc(paths->nr + 1, sizeof(*set->keys))))
		error = gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < set->ps.nr && !error; i++)
		error = gm_graph_path_set(&set->keys[i], set->ps.paths[i],
					  strlen(set->ps.paths[i]));
	return error;
}

static void pathset_release(struct pathset *set)
{
	for (size_t i = 0; set->keys && i < set->ps.nr; i++)
		gm_graph_path_release(&set->keys[i]);
	free(set->keys);
	gm_commits_paths_release(&set->ps);
}

/* The walk's state, reading under the rules git reads commits by. */
static int walk_open(struct walk *w, git_repository *repo,
		     const struct gm_history_options *opts)
{
	int error;

	w->opts = opts;
	if (!(w->h = calloc(1, sizeof(*w->h))))
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = gm_objects_rules_load(&w->rules, repo)) < 0)
		return error;
	return gm_commits_open(&w->src, repo, opts->packs, w->rules,
			       opts->graph);
}

/* A new walk of the window from `start` (none if `empty`). */
static int walk_restart(struct walk *w, enum gm_commits_mode mode,
			const git_oid *start, int64_t since, bool empty)
{
	gm_commits_walk_release(&w->cw);
	memset(&w->cw, 0, sizeof(w->cw));
	return gm_commits_walk_start(&w->cw, &w->src, mode, start, since,
				     empty);
}

/* The outcome into `*out` (NULL on `error`, returned); the walk freed. */
static int walk_close(struct walk *w, int error, struct gm_history **out)
{
	if (error) {
		gm_history_free(w->h);
		w->h = NULL;
	} else {
		w->h->shallow = w->src.shallow;
		w->h->unreadable += w->src.unreadable;
	}
	gm_commits_walk_release(&w->cw);
	gm_commits_close(&w->src);
	gm_objects_rules_free(w->rules);
	free(w->ch.v);
	gm_strmap_release(&w->people);
	gm_strmap_release(&w->committers);
	free(w->last_commit);
	free(w->touched);
	gm_strvec_release(&w->changed);
	gm_buf_release(&w->key);
	gm_buf_release(&w->lc);
	gm_buf_release(&w->name);
	gm_buf_release(&w->email);
	*out = w->h;
	return error;
}

/*
 * The walk of `files` over the window, counting; with signals over the
 * long window back from its end (opts->until, else the time of `start`),
 * the commits past the first older than the window (which git log
 * --since=WINDOW never reaches) weighed for long_rev only.
 */
static int walk_files(struct walk *w, const git_oid *start,
		      const struct pathset *files)
{
	const struct gm_history_options *o = w->opts;
	int64_t end = o->until;
	struct gm_commits_item it;
	bool aged = false, counted;
	const char *text;
	int error;

	if (end == INT64_MAX) {
		if ((error = gm_commits_item(&w->src, start, &it)) < 0)
			return error == GM_ERROR ? error : gm_error_set(
				GM_ERROR, "cannot read the start commit");
		end = it.time;
		gm_commits_item_release(&it);
	}
	error = walk_restart(w, GM_COMMITS_SIMPLIFY, start,
			     o->signals && end - GM_HISTORY_LONG < o->since ?
			     end - GM_HISTORY_LONG : o->since, !files->ps.nr);
	while (!error && (error = gm_commits_walk_next(&w->cw, &it, NULL)) > 0) {
		aged |= it.time < o->since;
		error = walk_commit(w, files, &it, &counted);
		if (!error && counted)
			error = gm_commits_item_text(&w->src, &it, &text);
		if (!error && counted && !aged)
			error = count_commit(w, text);
		if (!error && counted && o->signals)
			error = count_reviews(w, text, LONG_REV,
					      exp(-(double)(end - it.time) /
						  GM_HISTORY_DECAY));
		gm_commits_item_release(&it);
	}
	return error;
}

/* The author of opts->author, after the mailmap, into w->name and w->email. */
static int author_set(struct walk *w, bool *set)
{
	struct gm_buf name = GM_BUF_INIT, email = GM_BUF_INIT;
	const char *n, *e;
	int error = 0;

	*set = gm_email_parse(&name, &email, w->opts->author) == 0 &&
	       email.len;
	n = name.ptr;
	e = email.ptr;
	if (*set && !(error = gm_ident_resolve(w->opts->mailmap, &n, &e)) &&
	    (gm_buf_puts(&w->name, n) < 0 || gm_buf_puts(&w->email, e) < 0))
		error = GM_ERROR;
	gm_buf_release(&name);
	gm_buf_release(&email);
	return error;
}

/* author_rev: every commit of the window, its author read first. */
static int walk_author(struct walk *w, const git_oid *start)
{
	struct gm_commits_item it;
	struct gm_commits_parents p = { .nr = 0 };
	struct gm_commit_utf8 u = GM_COMMIT_UTF8_INIT;
	bool have, same = false;
	const char *text;
	int error = author_set(w, &have);

	if (error || !have)
		return error;
	error = walk_restart(w, GM_COMMITS_FULL, start, w->opts->since, false);
	while (!error && (error = gm_commits_walk_next(&w->cw, &it, &p)) != 0) {
		if (error > 0 && p.nr <= 1 && it.time <= w->opts->until &&
		    !(error = gm_commits_item_text(&w->src, &it, &text)) &&
		    !(error = gm_commit_utf8_text(&u, text)) &&
		    !(error = is_author(w, u.name, u.email, &same)) && same)
			error = count_reviews(w, text, AUTHOR_REV, 1);
		error = error > 0 ? 0 : error;
		gm_commit_utf8_release(&u);
		gm_commits_parents_release(&p);
		gm_commits_item_release(&it);
	}
	return error;
}

int gm_history_walk(struct gm_history **out, git_repository *repo,
		    const git_oid *start, const struct gm_strvec *paths,
		    const struct gm_history_options *opts)
{
	struct pathset files;
	struct walk w;
	int error;

	memset(&w, 0, sizeof(w));
	memset(&files, 0, sizeof(files));
	error = walk_open(&w, repo, opts);
	if (!error)
		error = pathset_prepare(&files, paths);
	if (!error)
		error = walk_files(&w, start, &files);
	if (!error && opts->signals && opts->author && paths->nr)
		error = walk_author(&w, start);
	if (!error && w.email.len &&
	    !(error = gm_buf_set_lower(&w.lc, w.email.ptr)) &&
	    !(w.h->author = strdup(w.lc.ptr)))
		error = gm_error_set(GM_ERROR, "out of memory");
	if (!error && w.h->nr_people)
		qsort(w.h->people, w.h->nr_people, sizeof(*w.h->people),
		      person_cmp);
	pathset_release(&files);
	return walk_close(&w, error, out);
}

void gm_history_people_free(struct gm_history_person *v, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		for (size_t k = 0; k < v[i].nr_types; k++)
			free(v[i].types[k].key);
		free(v[i].types);
		free(v[i].name);
		free(v[i].email);
		gm_strvec_release(&v[i].names);
	}
	free(v);
}

void gm_history_free(struct gm_history *h)
{
	if (!h)
		return;
	gm_history_people_free(h->people, h->nr_people);
	gm_strvec_release(&h->committers);
	free(h->author);
	free(h);
}

/* ==================== every change: gm_history_each() ==================== */

/*
 * One commit of the --full-history walk, its parents `p` queued: a
 * non-merge in the window that changes a file against its one parent
 * (or the empty tree) is counted and handed to `fn`.
 */
static int walk_commit_full(struct walk *w, struct gm_commits_item *it,
			    const struct gm_commits_parents *p,
			    gm_history_commit_fn fn, void *payload)
{
	struct gm_history_commit hc;
	const char *text;
	int error;

	if (p->nr > 1 || it->time > w->opts->until)
		return 0;
	gm_strvec_release(&w->changed);
	error = gm_commits_diff_all(&w->src, p->nr_loaded ? &p->trees[0] : NULL,
				    &p->tree, &w->changed);
	if (error || !w->changed.nr)
		return error;
	if ((error = gm_commits_item_text(&w->src, it, &text)) < 0 ||
	    (error = count_commit(w, text)) < 0)
		return error;
	hc.time = it->time;
	hc.files = (const char *const *)w->changed.v;
	hc.nr_files = w->changed.nr;
	hc.people = w->touched;
	hc.nr_people = w->nr_touched;
	return fn(w->h, &hc, payload);
}

int gm_history_each(struct gm_history **out, git_repository *repo,
		    const git_oid *start,
		    const struct gm_history_options *opts,
		    gm_history_commit_fn fn, void *payload)
{
	struct gm_commits_item it;
	struct gm_commits_parents p = { .nr = 0 };
	struct walk w;
	int error;

	memset(&w, 0, sizeof(w));
	error = walk_open(&w, repo, opts);
	if (!error)
		error = walk_restart(&w, GM_COMMITS_FULL, start, opts->since,
				     false);
	while (!error && (error = gm_commits_walk_next(&w.cw, &it, &p)) != 0) {
		if (error > 0)
			error = walk_commit_full(&w, &it, &p, fn, payload);
		gm_commits_parents_release(&p);
		gm_commits_item_release(&it);
	}
	return walk_close(&w, error, out);
}

/* ==================== the window ==================== */

int gm_history_window(int64_t *since, int64_t *until, const char *since_arg,
		      const char *until_arg, const char *default_since)
{
	int error = 0;

	*since = INT64_MIN;
	*until = INT64_MAX;
	if (!since_arg)
		since_arg = default_since;
	if (since_arg)
		error = gm_git_date(since, since_arg, "--since");
	if (!error && until_arg)
		error = gm_git_date(until, until_arg, "--until");
	return error == GM_EINVALID ? GM_EUSAGE : error;
}
