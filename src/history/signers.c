#include "gm/signers.h"

#include <stdlib.h>
#include <string.h>

#include "gm/blame.h"
#include "gm/buf.h"
#include "gm/commits.h"
#include "gm/date.h"
#include "gm/email.h"
#include "gm/encoding.h"
#include "gm/error.h"
#include "gm/follow.h"
#include "gm/objects.h"
#include "gm/repo.h"
#include "gm/trailer.h"
#include "gm/window.h"

/* ==================== a log entry, read ==================== */

static bool is_commit_line(const char *s)
{
	return !strncmp(s, "GitCommit: ", 11) &&
	       strspn(s + 11, "0123456789abcdef") >= GIT_OID_HEXSZ;
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

/* Output line `s` (`len` bytes, then '\n' or NUL), blanks at its start cut. */
static int classify_line(struct gm_signers_commit *out, const char *s,
			 size_t len, bool all_types, bool body)
{
	int error = 0;

	while (len && gm_email_isspace((unsigned char)*s))
		s++, len--;
	if (!len)
		return 0;
	if (is_commit_line(s))
		out->commit_lines++;
	if (!strncmp(s, "GitAuthor: ", 11))
		error = gm_strvec_pushn(&out->authors, s, len);
	if (!error && gm_trailer_is_signature(s, len, all_types))
		error = gm_strvec_pushn(&out->signatures, s, len);
	if (!error && body && is_stat_like(s))
		error = gm_strvec_pushn(&out->stat_like, s, len);
	return error;
}

/*
 * The entry of `--format="GitCommit: %H%nGitAuthor: %an <%ae>%nGitDate:
 * %aD%nGitSubject: %s%n%b%n"`: %s is the first paragraph, its lines
 * joined by spaces, %b the rest. The date line can match nothing.
 */
int gm_signers_commit_read(struct gm_signers_commit *out, const git_oid *id,
			   const char *text, bool all_types)
{
	struct gm_commit_utf8 u = GM_COMMIT_UTF8_INIT;
	struct gm_buf line = GM_BUF_INIT, subject = GM_BUF_INIT;
	bool in_subject = true;
	const char *msg;
	int error;

	memset(out, 0, sizeof(*out));
	out->id = *id;
	out->commit_lines = 1;	/* "GitCommit: <id>": no address, no stat */
	if ((error = gm_commit_utf8_text(&u, text)) < 0 ||
	    (error = gm_buf_printf(&line, "GitAuthor: %s <%s>", u.name,
				   u.email)) < 0)
		goto out;
	msg = u.message;
	if (!(out->author = strdup(line.ptr + 11)))
		error = gm_error_set(GM_ERROR, "out of memory");
	if (error ||
	    (error = classify_line(out, line.ptr, line.len, all_types, false)) < 0 ||
	    (error = gm_buf_puts(&subject, "GitSubject: ")) < 0)
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
out:
	gm_commit_utf8_release(&u);
	gm_buf_release(&line);
	gm_buf_release(&subject);
	if (error)
		gm_signers_commit_release(out);
	return error;
}

char *gm_signers_commit_hex(const struct gm_signers_commit *c,
			    char out[GIT_OID_HEXSZ + 1])
{
	return gm_oid_hex(out, &c->id);
}

void gm_signers_commit_release(struct gm_signers_commit *c)
{
	gm_strvec_release(&c->authors);
	gm_strvec_release(&c->signatures);
	gm_strvec_release(&c->stat_like);
	free(c->author);
	c->author = NULL;
}

/* ==================== the walk ==================== */

/* A change of one file in one commit, its numstat still to count. */
struct pending {
	size_t path, touch;
	struct gm_commits_entry a, b;	/* parent's, commit's */
};

struct walk {
	const struct gm_signers_request *req;
	int64_t since;		/* the window's oldest committer time */
	struct gm_objects_rules *rules;	/* how git reads commits here */
	struct gm_commits src;		/* commits and trees, as git reads them */
	struct gm_signers *s;
	struct gm_commits_paths all;	/* every file, at its current path */
	struct gm_window *win;	/* the commits of the window, compared */
	bool *moved;		/* per file: not where the window compares it */
	struct gm_commits_paths away;	/* the files moved */
	struct gm_commits_changes ch;	/* the files the commit changed */
	struct pending *pending;
	size_t nr_pending, alloc_pending;
	struct gm_follow *follow;	/* the copy searches' cache */
};

/*
 * File `f` now at `path` (the walk's). The window compares the walk's
 * paths (all of them, kept sorted) where the walk runs alone and where
 * it compares for the window; ahead, it compares their first paths, and
 * the walk those moved since (`away`, sorted too; unused alone, where
 * every commit is compared at the current paths).
 */
static void walk_move(struct walk *w, size_t f, char *path)
{
	free(w->all.paths[f]);
	w->all.paths[f] = path;
	gm_commits_paths_sort(&w->all);
	if (!w->moved[f]) {
		w->moved[f] = true;
		w->away.order[w->away.nr++] = f;
	}
	gm_commits_paths_sort(&w->away);
}

/* The touch of file `c->path` by commit `k`, and its numstat to count. */
static int note_touch(struct walk *w, size_t k,
		      const struct gm_commits_change *c, bool renamed)
{
	struct gm_signers_file *file = &w->s->files[c->path];
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
	if (w->all.kind[c->path] == GM_COMMITS_FILE && !renamed &&
	    !(t->path = strdup(w->all.paths[c->path])))
		return gm_error_set(GM_ERROR, "out of memory");
	p = &w->pending[w->nr_pending++];
	*p = (struct pending){ c->path, file->nr_touches++, c->a, c->b };
	return 0;
}

/* Record the changes `ch` of the commit examined, following renames. */
static int record(struct walk *w, struct gm_commits_item *it,
		  const struct gm_commits_changes *ch, const git_oid *ta,
		  const git_oid *tb)
{
	struct gm_signers *s = w->s;
	size_t k = s->nr_commits;
	const char *text;
	int error;

	if (GM_ARRAY_GROW(s->commits, s->nr_commits, s->alloc_commits) < 0)
		return GM_ERROR;
	if ((error = gm_commits_item_text(&w->src, it, &text)) < 0 ||
	    (error = gm_signers_commit_read(&s->commits[k], &it->id, text,
					    w->req->all_signature_types)) < 0)
		return error;
	s->nr_commits++;
	for (size_t i = 0; i < ch->nr && !error; i++) {
		const struct gm_commits_change *c = &ch->v[i];
		char *source = NULL;

		if (w->all.kind[c->path] == GM_COMMITS_FILE && !c->a.found &&
		    c->b.found &&
		    (error = gm_follow_source(&source, w->follow, ta, tb,
					      w->all.paths[c->path], &c->b.id,
					      c->b.mode)) < 0)
			break;
		if ((error = note_touch(w, k, c, source != NULL)) < 0 ||
		    (source && (error = gm_strvec_push(
				&s->files[c->path].renamed_from, source)) < 0)) {
			free(source);
			break;
		}
		if (source)
			walk_move(w, c->path, source);
	}
	return error;
}

/*
 * One commit of the window: a non-merge one that changed a file at its
 * current path recorded. Unless compared at the current paths, the
 * window's changes stand for the files not moved; those moved are
 * compared here. No changed-path filter is
 * asked: git log --follow asks none.
 */
static int walk_commit(struct walk *w, const struct gm_window_commit *wc)
{
	const struct gm_commits_changes *ch = &wc->ch;
	const git_oid *ta = wc->has_parent ? &wc->ta : NULL;
	struct gm_commits_item it;
	int error = 0;

	w->s->walked++;
	if (wc->merge)
		return 0;
	if (w->away.nr && !wc->current) {
		w->ch.nr = 0;
		for (size_t i = 0; i < wc->ch.nr && !error; i++) {
			if (w->moved[wc->ch.v[i].path])
				continue;
			if (GM_ARRAY_GROW(w->ch.v, w->ch.nr, w->ch.alloc) < 0)
				return GM_ERROR;
			w->ch.v[w->ch.nr++] = wc->ch.v[i];
		}
		if ((error = gm_commits_diff(&w->src, &w->away, ta, &wc->tb,
					     &w->ch)) < 0)
			return error;
		ch = &w->ch;
	}
	if (!ch->nr)
		return 0;
	memset(&it, 0, sizeof(it));
	it.id = wc->id;
	error = record(w, &it, ch, ta, &wc->tb);
	gm_commits_item_release(&it);
	return error;
}

/* ==================== numstat ==================== */

/* The blob of `e` (or its replacement), if a file's; else NULL. */
static const git_oid *blob_of(const struct walk *w,
			      const struct gm_commits_entry *e)
{
	if (!e->found || e->mode == GIT_FILEMODE_COMMIT ||
	    e->mode == GIT_FILEMODE_TREE)
		return NULL;
	return gm_objects_replaced(w->rules, &e->id);
}

/*
 * The line counts of the touches counted, their blobs that a partial
 * clone lacks fetched first in one go, as git log --numstat fetches them.
 */
static int count_all(struct walk *w)
{
	struct gm_repo_numstat *n = NULL;
	git_oid *ids;
	size_t nr = 0;
	int error;

	if (!w->nr_pending)
		return 0;
	if (!(ids = malloc(2 * w->nr_pending * sizeof(*ids))))
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < w->nr_pending; i++) {
		const struct pending *p = &w->pending[i];

		if (!w->s->files[p->path].touches[p->touch].path)
			continue;	/* not counted */
		if (blob_of(w, &p->a))
			ids[nr++] = *blob_of(w, &p->a);
		if (blob_of(w, &p->b))
			ids[nr++] = *blob_of(w, &p->b);
	}
	error = gm_repo_git_fetch_missing(w->req->repo, ids, nr, "a blob");
	free(ids);
	if (error < 0 ||
	    (error = gm_repo_numstat_new(&n, w->req->reopen, w->req->repo)) < 0)
		return error;
	for (size_t i = 0; i < w->nr_pending; i++) {
		const struct pending *p = &w->pending[i];
		struct gm_signers_touch *t =
			&w->s->files[p->path].touches[p->touch];

		if (t->path)	/* else never matched: not counted */
			gm_repo_numstat(n, blob_of(w, &p->a), blob_of(w, &p->b),
					t->path, &t->added, &t->deleted);
	}
	gm_repo_numstat_free(n);
	return 0;
}

/* ==================== the walk, all of it ==================== */

static int walk_prepare(struct walk *w, const struct gm_strvec *files)
{
	struct gm_signers *s = w->s;
	size_t n = files->nr;
	int error;

	s->files = calloc(n + 1, sizeof(*s->files));
	w->away.order = calloc(n + 1, sizeof(*w->away.order));
	w->moved = calloc(n + 1, sizeof(*w->moved));
	if (!s->files || !w->away.order || !w->moved)
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = gm_commits_paths_init(&w->all, files,
					   GM_COMMITS_FILE)) < 0)
		return error;
	w->away.paths = w->all.paths;
	w->away.kind = w->all.kind;
	for (size_t i = 0; i < n; i++)
		if (!(s->files[s->nr_files++].path = strdup(files->v[i])))
			return gm_error_set(GM_ERROR, "out of memory");
	return 0;
}

/* The walk of `files` from req->start, over the commits of the window. */
static int walk_run(struct walk *w, const struct gm_strvec *files)
{
	const struct gm_window_options o = {
		&w->src, &w->all, files, w->req->start, w->since,
		w->req->serial ? NULL : w->req->reopen,
		w->req->packs, w->rules, w->req->graph,
	};
	const struct gm_window_commit *wc;
	int error = gm_window_start(&w->win, &o);

	while (!error && (error = gm_window_next(w->win, &wc)) > 0)
		error = walk_commit(w, wc);
	if (!error)
		w->s->shallow |= gm_window_shallow(w->win) || w->src.shallow;
	return error;
}

/*
 * Walk from req->start over the commits since `since` and collect the
 * history of each of `files` (paths from the top; "dir/" for a directory,
 * which is not followed). On success `*out` belongs to the caller
 * (gm_signers_free()). May run beside other threads on a repository of
 * its own.
 * @return 0 or GM_ERROR.
 */
static int signers_walk(struct gm_signers **out,
			const struct gm_signers_request *req, int64_t since,
			const struct gm_strvec *files)
{
	struct walk w;
	int error;

	*out = NULL;
	memset(&w, 0, sizeof(w));
	w.req = req;
	w.since = since;
	if (!(w.s = calloc(1, sizeof(*w.s))))
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = gm_objects_rules_load(&w.rules, req->repo)) < 0 ||
	    (error = gm_commits_open(&w.src, req->repo, req->packs, w.rules,
				     req->graph)) < 0 ||
	    (error = gm_follow_new(&w.follow, &w.src.objs,
				   req->reopen && !req->serial ?
				   req->packs : NULL)) < 0 ||
	    (error = walk_prepare(&w, files)) < 0)
		goto out;
	error = walk_run(&w, files);
	if (!error)
		error = count_all(&w);
out:
	gm_window_free(w.win);
	gm_commits_close(&w.src);
	gm_objects_rules_free(w.rules);
	gm_commits_paths_release(&w.all);
	free(w.moved);
	free(w.away.order);
	free(w.ch.v);
	free(w.pending);
	gm_follow_free(w.follow);
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

/* ==================== a run's history ==================== */

/* whether the file gets the signoff step. */
static bool wants_signoffs(const struct gm_signers_request *req, size_t i)
{
	const char *path = req->files->v[i];
	size_t len = strlen(path);

	if (!strcmp(path, "&STDIN"))
		return false;
	if (req->git)
		return true;
	return req->git_fallback &&
	       (req->fallback_maintainers ||
		!(len >= 11 && !strcmp(path + len - 11, "MAINTAINERS"))) &&
	       !(req->matches && i < req->matches->nr_files &&
		 req->matches->files[i].exact);
}

int gm_signers_since(int64_t *out, const char *since)
{
	int error = gm_git_date(out, since ? since : "1-year-ago",
				"--git-since");

	return error == GM_EINVALID ? GM_EUSAGE : error;
}

/* Each file's steps, and the walk of those that get signoffs. */
static int report_walk(struct gm_signers_report *r,
		       const struct gm_signers_request *req,
		       struct gm_strvec *paths)
{
	int error = 0;

	for (size_t i = 0; i < req->files->nr && !error; i++) {
		r->steps[i].blamed = req->blame &&
				     strcmp(req->files->v[i], "&STDIN");
		r->steps[i].walked = SIZE_MAX;
		if (!wants_signoffs(req, i))
			continue;
		r->steps[i].walked = paths->nr;
		error = gm_strvec_push(paths, req->files->v[i]);
	}
	if (error || !paths->nr)
		return error;
	if (req->since_at)
		r->since = *req->since_at;
	else if ((error = gm_signers_since(&r->since, req->since)) < 0)
		return error;
	return signers_walk(&r->walk, req, r->since, paths);
}

int gm_signers_collect(struct gm_signers_report **out,
		       const struct gm_signers_request *req)
{
	struct gm_strvec paths = GM_STRVEC_INIT;
	struct gm_signers_report *r = calloc(1, sizeof(*r));
	int error = 0;

	*out = NULL;
	if (!r || !(r->steps = calloc(req->files->nr + 1, sizeof(*r->steps)))) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	r->nr_steps = req->files->nr;
	if ((error = report_walk(r, req, &paths)) < 0 ||
	    (req->blame &&
	     (error = gm_blame_run(&r->blame, &(struct gm_blame_request){
			req->repo, req->start, req->workdir, req->ranges,
			req->nr_ranges, req->all_signature_types },
			req->files)) < 0))
		goto out;
	if (r->walk && !(r->facts = calloc(paths.nr, sizeof(*r->facts))))
		error = gm_error_set(GM_ERROR, "out of memory");
out:
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
	for (size_t i = 0; i < r->nr_facts; i++) {
		struct gm_signers_facts *f = &r->facts[i];

		gm_strvec_release(&f->commits);
		for (size_t k = 0; k < f->nr_roles; k++) {
			for (size_t j = 0; j < f->roles[k].nr; j++)
				free(f->roles[k].v[j].who);
			free(f->roles[k].v);
		}
	}
	free(r->facts);
	free(r->steps);
	gm_blame_free(r->blame);
	gm_signers_free(r->walk);
	free(r);
}
