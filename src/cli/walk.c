#include "gm/walk.h"

#include <string.h>

#include "gm/email.h"
#include "gm/error.h"
#include "gm/ident.h"
#include "gm/signers.h"

/* Whether the options ask for a walk at all. */
static bool walk_wanted(const struct gm_options *o)
{
	return o->email && o->history;
}

static int walk_window(int64_t *since, int64_t *until,
		       const struct gm_options *o)
{
	return gm_history_window(since, until, o->since, o->until,
				 "6.months.ago");
}

int gm_walk_dates(struct gm_walk_dates *d, const struct gm_options *o)
{
	int error = 0;

	if (walk_wanted(o) && (error = walk_window(&d->since, &d->until, o)))
		return error;
	if (o->email && (o->git || o->git_fallback || o->git_blame) &&
	    (error = gm_signers_since(&d->git_since, o->git_since)) < 0)
		return error;
	d->known = true;
	return 0;
}

/*
 * The paths to walk: with --history every file as given; with only
 * --git-fallback those no maintained section claims exactly.
 */
static int walk_paths(struct gm_walk *w, struct gm_strvec *paths)
{
	bool all = w->opts->history;
	const struct gm_strvec *files = all ? &w->in->walk_paths :
					      &w->in->files;
	int error = 0;

	for (size_t i = 0; i < files->nr && !error; i++) {
		const char *path = files->v[i];

		if (!strcmp(path, GM_INPUTS_STDIN))
			continue;
		if (!all && ((w->matches && w->matches->files[i].exact) ||
			     gm_inputs_is_maintainers_r71(path)))
			continue;
		error = gm_strvec_push(paths, path);
	}
	return error;
}

/* The patch's author, else the user's identity, into `out` ("" for none). */
static int walk_author(struct gm_walk *w, struct gm_repo *r,
		       struct gm_buf *out)
{
	struct gm_buf name = GM_BUF_INIT, email = GM_BUF_INIT;
	int error = 0;

	if (w->in->author)
		error = gm_buf_puts(out, w->in->author);
	else if (!(error = gm_ident_user(&name, &email, gm_repo_git(r))))
		error = gm_email_format(out, name.ptr, email.ptr, 1);
	gm_buf_release(&name);
	gm_buf_release(&email);
	return error == GM_ENOTFOUND ? 0 : error;
}

/* The walk itself, on `r` (the caller's, or a thread's own). */
static int walk_run(struct gm_walk *w, struct gm_repo *r)
{
	struct gm_history_options ho = GM_HISTORY_OPTIONS_INIT;
	struct gm_strvec paths = GM_STRVEC_INIT;
	struct gm_buf author = GM_BUF_INIT;
	int error;

	ho.since = w->since;
	ho.until = w->until;
	ho.signals = w->opts->history;
	if ((error = walk_paths(w, &paths)) < 0 ||
	    (ho.signals && (error = walk_author(w, r, &author)) < 0))
		goto out;
	ho.author = author.len ? author.ptr : NULL;
	if (w->opts->mailmap &&
	    (error = gm_ident_mailmap(&w->mailmap, gm_repo_git(r),
					gm_repo_tree(r))) < 0)
		goto out;
	ho.mailmap = w->mailmap;
	if ((error = gm_repo_graph(&ho.graph, r)) < 0 ||
	    (error = gm_repo_packs(&ho.packs, r)) < 0)
		goto out;
	error = gm_history_walk(&w->history, gm_repo_git(r),
				gm_repo_commit_id(r), &paths, &ho);
out:
	gm_strvec_release(&paths);
	gm_buf_release(&author);
	return error;
}

static void *walk_thread(void *payload)
{
	struct gm_walk *w = payload;
	struct gm_repo *r = NULL;
	int error = gm_repo_reopen(&r, w->repo);

	if (!error)
		error = walk_run(w, r);
	gm_job_done(&w->job, error);
	gm_repo_free(r);
	return NULL;
}

int gm_walk_start(struct gm_walk *w, struct gm_repo *r,
		  const struct gm_options *o, const struct gm_inputs *in,
		  const struct gm_walk_dates *dates)
{
	int error;

	w->repo = r;
	w->opts = o;
	w->in = in;
	if (!walk_wanted(o))
		return 0;
	if (dates && dates->known) {
		w->since = dates->since;
		w->until = dates->until;
	} else if ((error = walk_window(&w->since, &w->until, o)) < 0) {
		return error;
	}
	if (!w->serial)
		gm_job_start(&w->job, walk_thread, w);
	return 0;
}

int gm_walk_finish(struct gm_walk *w, const struct gm_matches *matches)
{
	w->matches = matches;
	if (!walk_wanted(w->opts))
		return 0;
	return w->job.running ? gm_job_wait(&w->job) : walk_run(w, w->repo);
}

void gm_walk_release(struct gm_walk *w)
{
	gm_job_join(&w->job);
	gm_history_free(w->history);
	gm_ident_mailmap_free(w->mailmap);
	memset(w, 0, sizeof(*w));
}
