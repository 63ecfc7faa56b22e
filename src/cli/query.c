/*
 * One question through the pipeline: rules, inputs, matches, history,
 * ranking, output.
 */
#include "gm/query.h"

#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/config.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/output.h"
#include "gm/rank_git.h"
#include "gm/unowned.h"

int gm_query_env_load(struct gm_query_env *env, struct gm_repo *r)
{
	struct gm_buf text = GM_BUF_INIT;
	int found = gm_config_read_file(r, ".get_maintainer.ignore", &text);
	int error = found < 0 ? found : 0;

	if (!found)
		error = gm_rank_parse_ignore(&env->ignore, text.ptr, text.len);
	gm_buf_release(&text);
	return error;
}

void gm_query_rank_settings(struct gm_rank_settings *s,
			    const struct gm_options *o)
{
	*s = (struct gm_rank_settings){
		.email = o->email,
		.maintainers = o->maintainers,
		.reviewers = o->reviewers,
		.usename = o->usename,
		.lists = o->lists,
		.subscriber_lists = o->subscriber_lists,
		.moderated = o->moderated,
		.remove_duplicates = o->remove_duplicates,
		.rolestats = o->rolestats,
		.substatus = o->substatus,
		.drop_rest_supporter = o->drop_rest_supporter,
		.reviewer_section = o->reviewer_section,
		.section_name_max = o->section_name_max,
		.named_lists = o->named_lists,
		.git_author_roles = o->git_author_roles,
		.maintainer_roles = o->maintainer_roles,
		.keyword_roles = o->keyword_roles,
		.penguins = &o->penguins,
		.from_filename = o->from_filename,
		.git_blame_signatures = o->git_blame_signatures,
		.git_all_signature_types = o->git_all_signature_types,
		.git_chief_penguins = o->git_chief_penguins,
		.git_min_signatures = o->git_min_signatures,
		.git_max_maintainers = o->git_max_maintainers,
		.git_min_percent = o->git_min_percent,
		.history = o->history,
		.max_recipients = o->max_recipients,
	};
}

void gm_query_worker_release(struct gm_query_worker *w)
{
	gm_match_ctx_free(w->match_ctx);
	gm_match_ctx_free(w->keyword_ctx);
	gm_rank_memo_release(&w->memo);
	memset(w, 0, sizeof(*w));
}

int gm_query_init(struct gm_query *q, struct gm_query_worker *w,
		  bool serial)
{
	memset(q, 0, sizeof(*q));
	q->w = w;
	q->walk.serial = serial;
	gm_rank_init(&q->rank, &w->env->rank, NULL);
	q->rank.ignore = &w->env->ignore;
	q->rank.memo = &w->memo;
	if (!(q->out = open_memstream(&q->out_buf, &q->out_len)))
		return gm_error_set(GM_ERROR, "out of memory");
	return 0;
}

int gm_query_start(struct gm_query *q)
{
	return gm_walk_start(&q->walk, q->w->repo, q->w->env->opts,
			     &q->inputs, &q->w->env->dates);
}

/* The addresses written in a file: the tree's, else the work tree's. */
static int query_scan_file_emails(struct gm_query *q, const char *path)
{
	const struct gm_options *o = q->w->env->opts;
	struct gm_repo *r = q->w->repo;
	struct gm_buf text = GM_BUF_INIT;
	size_t len = strlen(path);
	int error;

	if (gm_inputs_is_maintainers_r47(path) ||
	    (!o->file_emails && (len < 5 || strcmp(path + len - 5, ".yaml"))))
		return 0;
	error = gm_repo_read(r, path, &text);
	if (error == GM_ENOTFOUND)
		error = gm_repo_worktree_read(r, path, &text);
	if (error == GM_ENOTFOUND || error == GM_EINVALID)
		error = 0;
	else if (!error)
		error = gm_email_scan_text(&q->file_emails, text.ptr, text.len,
					   o->usename, o->unicode_file_emails);
	gm_buf_release(&text);
	return error;
}

/* Signers of each Fixes: commit get "blamed_fixes". */
static int query_add_fixes(struct gm_query *q)
{
	const struct gm_strvec *fixes = &q->inputs.fixes;
	struct gm_buf body = GM_BUF_INIT;
	int error = 0;

	for (size_t i = 0; i < fixes->nr && !error; i++) {
		struct gm_strvec signers = GM_STRVEC_INIT;

		gm_buf_reset(&body);
		error = gm_repo_commit_body(q->w->repo, fixes->v[i], &body);
		if (error == GM_ENOTFOUND) {
			error = gm_strvec_pushf(&q->warnings,
						"Fixes: commit '%s' not found",
						fixes->v[i]);
			continue;
		}
		if (!error)
			error = gm_rank_signers(&q->rank, &signers, body.ptr,
						body.len);
		if (!error)
			error = gm_rank_assign(&q->rank, "blamed_fixes", 1,
					       &signers, GM_KIND_FIXES, NULL);
		gm_strvec_release(&signers);
	}
	gm_buf_release(&body);
	return error;
}

/* Finish the walk (or do it now) and merge its people in. */
static int query_add_history(struct gm_query *q)
{
	const struct gm_history *h;
	int error = gm_walk_finish(&q->walk, q->matches);

	if (error || !(h = q->walk.history))
		return error;
	if (h->shallow)
		error = gm_strvec_pushf(&q->warnings,
					"history stops at the shallow clone boundary");
	if (!error && h->unreadable)
		error = gm_strvec_pushf(&q->warnings,
					"%zu objects of the history could not be read",
					h->unreadable);
	if (!error && !h->commits)
		error = gm_strvec_pushf(&q->warnings,
					"no commits in the window touch these paths");
	if (error)
		return error;
	return gm_rank_add_history(&q->rank, h);
}

/* A -f file's content, once read. */
struct keywords_text {
	struct gm_repo_entry entry;	/* where it is in the tree */
	bool in_tree;			/* else in the work tree, if anywhere */
	bool read;
	struct gm_repo_text text;
};

/* The prefetched bytes of the tree's regular file `t`, if they are its. */
static void keywords_take_prefetched(struct keywords_text *t,
				     struct gm_repo *r,
				     struct gm_prefetch *prefetch,
				     const char *path)
{
	if (!t->in_tree || t->entry.type != GIT_OBJECT_BLOB ||
	    t->entry.mode == GIT_FILEMODE_LINK ||
	    !gm_prefetch_take_text(prefetch, gm_repo_workdir(r), path,
				   &t->entry.id, &t->text.buf))
		return;
	t->text.ptr = t->text.buf.ptr;
	t->text.len = t->text.buf.len;
	t->text.pad = GM_BUF_PAD;
	t->read = true;
}

/* Read `t`, the file `path`, unless taken already; none is no error. */
static int keywords_read(struct keywords_text *t, struct gm_repo *r,
			 const char *path)
{
	int error = 0;

	if (t->read)
		return 0;
	if (t->in_tree) {
		error = gm_repo_text(r, path, &t->entry, &t->text);
	} else if (!(error = gm_repo_worktree_read(r, path, &t->text.buf))) {
		t->text.ptr = t->text.buf.ptr;
		t->text.len = t->text.buf.len;
		t->text.pad = GM_BUF_PAD;
	}
	t->read = !error;
	return error == GM_ENOTFOUND || error == GM_EINVALID ? 0 : error;
}

/* In a partial clone, fetch the blobs of the files left to read at once. */
static int keywords_fetch_missing(const struct keywords_text *t, size_t n,
				  struct gm_repo *r)
{
	git_oid *ids = calloc(n + 1, sizeof(*ids));
	size_t nr = 0;
	int error;

	if (!ids)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (!t[i].read && t[i].in_tree &&
		    t[i].entry.type == GIT_OBJECT_BLOB)
			ids[nr++] = t[i].entry.id;
	error = gm_repo_git_fetch_missing(gm_repo_git(r), ids, nr,
					  "a file given with -f");
	free(ids);
	return error;
}

/* The -f files' hits: every file looked up and read, then matched. */
static int keywords_files(struct gm_matches *hits, struct gm_repo *r,
			  const struct gm_inputs *in,
			  const struct gm_maintainers *m,
			  struct gm_match_ctx *ctx,
			  struct gm_prefetch *prefetch)
{
	const struct gm_strvec *files = &in->keyword_files;
	struct keywords_text *t = calloc(files->nr + 1, sizeof(*t));
	int error = 0;

	if (!t)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < files->nr; i++) {
		t[i].text = (struct gm_repo_text)GM_REPO_TEXT_INIT;
		t[i].in_tree = gm_repo_lookup(r, files->v[i], &t[i].entry) == 0;
		keywords_take_prefetched(&t[i], r, prefetch, files->v[i]);
	}
	if (files->nr)
		error = keywords_fetch_missing(t, files->nr, r);
	for (size_t i = 0; i < files->nr && !error; i++) {
		error = keywords_read(&t[i], r, files->v[i]);
		if (!error && t[i].read)
			error = gm_match_keywords_text(hits, m, ctx,
						       t[i].text.ptr,
						       t[i].text.len,
						       t[i].text.pad);
	}
	for (size_t i = 0; i < files->nr; i++)
		gm_repo_text_release(&t[i].text);
	free(t);
	return error;
}

/*
 * The keyword pass: the K: lines hit by the contents of the
 * -f files of `in` (but those `prefetch` holds, read through `r`; one
 * that is no file is skipped) and by its patches' lines, matched with
 * `ctx`, in the script's order, into `*out`, the caller's.
 */
static int keywords_match(struct gm_matches **out, struct gm_repo *r,
			  const struct gm_inputs *in,
			  const struct gm_maintainers *m,
			  struct gm_match_ctx *ctx,
			  struct gm_prefetch *prefetch)
{
	int error;

	if (!(*out = calloc(1, sizeof(**out))))
		return gm_error_set(GM_ERROR, "out of memory");
	error = keywords_files(*out, r, in, m, ctx, prefetch);
	for (size_t i = 0; i < in->nr_patches && !error; i++)
		error = gm_match_keywords_patch(*out, m, ctx,
						in->patches[i].text.ptr,
						&in->patches[i].patch);
	if (!error)
		gm_match_keywords_finish(*out);
	return error;
}

/* The sections of the file rules, then of the keywords. */
static int query_add_sections(struct gm_query *q)
{
	struct gm_query_worker *w = q->w;
	const struct gm_options *o = w->env->opts;
	const struct gm_maintainers *m = w->env->rules->m;
	int error = 0;

	/* the worker's contexts, for all its questions */
	if (!w->match_ctx)
		error = gm_match_ctx_new(&w->match_ctx, m, gm_unowned_isdir,
					 w->repo);
	if (!error && o->keywords && !w->keyword_ctx)
		error = gm_match_ctx_new(&w->keyword_ctx, m, NULL, NULL);
	if (!error)
		error = gm_match_files(&q->matches, m, w->match_ctx,
				       &q->inputs.files, o->pattern_depth);
	for (size_t i = 0; !error && i < q->matches->nr_files; i++) {
		const struct gm_match_file *f = &q->matches->files[i];

		for (size_t k = 0; k < f->nr_sections && !error; k++)
			error = gm_rank_add_section(&q->rank, m, f->sections[k]);
		if (!error && o->sections)
			error = gm_output_sections(q->out, m, w->match_ctx, f,
						   o->letters);
		if (!error)
			error = query_scan_file_emails(q, f->path);
	}
	if (!error)
		error = gm_rank_drop_rest_supporter(&q->rank, m, q->matches);
	if (!error && o->keywords)
		error = keywords_match(&q->keywords, w->repo, &q->inputs, m,
				       w->keyword_ctx, w->env->prefetch);
	for (size_t i = 0; !error && q->keywords &&
	     i < q->keywords->nr_keywords; i++)
		error = gm_rank_add_keyword_section(&q->rank, m,
						    q->keywords->keywords[i]);
	return error;
}

/* The script's history of each file, its roles merged in (R-71..R-78). */
static int query_add_git(struct gm_query *q)
{
	const struct gm_options *o = q->w->env->opts;
	struct gm_repo *r = q->w->repo;
	struct gm_signers_request req = {
		gm_repo_git(r), gm_repo_commit_id(r), gm_repo_workdir(r),
		&q->inputs.files, q->matches, q->inputs.ranges,
		q->inputs.nr_ranges, NULL, NULL, r,
		o->git, o->git_fallback, o->git_blame,
		o->git_all_signature_types, o->git_since, q->walk.serial,
		o->git_fallback_maintainers,
		q->w->env->dates.known ? &q->w->env->dates.git_since : NULL,
	};
	int error;

	if (!o->email || (!o->git && !o->git_fallback && !o->git_blame))
		return 0;
	if ((error = gm_repo_packs(&req.packs, r)) < 0 ||
	    (error = gm_repo_graph(&req.graph, r)) < 0 ||
	    (error = gm_signers_collect(&q->git, &req)) < 0)
		return error;
	return gm_rank_add_git(&q->rank, q->git);
}

/* The answer, text or JSON, into q->out. */
static int query_output(struct gm_query *q)
{
	const struct gm_options *o = q->w->env->opts;
	char rev[GM_REPO_HEX_SIZE];
	struct gm_output_report r = {
		rev, &q->inputs.files, q->w->env->rules->m, q->matches,
		&q->rank, q->walk.history, q->walk.since, q->walk.until, q->git,
	};

	if (!o->format || strcmp(o->format, "json"))
		return gm_output_write(q->out, &q->rank, &q->w->env->output);
	gm_repo_commit_hex(q->w->repo, rev);
	return gm_output_json(q->out, &r);
}

int gm_query_run(struct gm_query *q)
{
	int error;

	q->rank.mailmap = q->w->env->rules->mailmap;
	if ((error = query_add_sections(q)) < 0 ||
	    (error = gm_rank_normalize(&q->rank)) < 0 ||
	    (error = query_add_git(q)) < 0 ||
	    (error = gm_rank_finish(&q->rank, &q->file_emails)) < 0 ||
	    (error = query_add_fixes(q)) < 0 ||
	    (error = query_add_history(q)) < 0 ||
	    (error = gm_rank_sanitize(&q->rank)) < 0 ||
	    (error = query_output(q)) < 0)
		return error;
	if (fflush(q->out) || ferror(q->out))
		return gm_error_set(GM_ERROR, "out of memory");
	return 0;
}

void gm_query_release(struct gm_query *q)
{
	if (!q->walk.job.waited)	/* else it only frees its own */
		gm_job_join(&q->walk.job);
	gm_matches_free(q->keywords);
	gm_rank_release(&q->rank);
	gm_signers_report_free(q->git);
	gm_strvec_release(&q->file_emails);
	gm_strvec_release(&q->warnings);
	gm_matches_free(q->matches);
	gm_inputs_release(&q->inputs);
	gm_walk_release(&q->walk);
	if (q->out)
		fclose(q->out);
	free(q->out_buf);
	memset(q, 0, sizeof(*q));
}

/* A --batch thread's worker, with the contexts of all its questions. */
static int query_batch_worker_new(void **out, struct gm_repo *repo,
				  void *payload)
{
	struct gm_query_worker *w = malloc(sizeof(*w));

	if (!(*out = w))
		return gm_error_set(GM_ERROR, "out of memory");
	*w = (struct gm_query_worker){ .env = payload, .repo = repo };
	return 0;
}

static void query_batch_worker_free(void *worker)
{
	if (worker)
		gm_query_worker_release(worker);
	free(worker);
}

static int query_push_all(struct gm_strvec *to, const struct gm_strvec *from)
{
	for (size_t i = 0; i < from->nr; i++)
		if (gm_strvec_push(to, from->v[i]) < 0)
			return GM_ERROR;
	return 0;
}

/* One --batch path, as -f PATH is answered (gm_batch_answer_fn). */
static int query_batch_answer(struct gm_batch_answer *a, const char *path,
			      void *worker)
{
	struct gm_query_worker *w = worker;
	struct gm_query q;
	int error;

	if ((error = gm_query_init(&q, w, true)) < 0)
		goto out;
	error = gm_inputs_read_path(&q.inputs, w->repo, &w->env->inputs, path);
	if (query_push_all(&a->before, &q.inputs.warnings) < 0) {
		error = GM_ERROR;
		goto out;
	}
	if (error == GM_ENOTFOUND) {	/* not in the tree: no answer */
		error = gm_strvec_push(&a->before, gm_error_last());
		goto out;
	}
	if (error < 0 || (error = gm_query_start(&q)) < 0 ||
	    (error = gm_query_run(&q)) < 0)
		goto out;
	if (query_push_all(&a->shared, &q.warnings) < 0 ||
	    query_push_all(&a->after, &q.rank.warnings) < 0) {
		error = GM_ERROR;
		goto out;
	}
	error = fclose(q.out) ? gm_error_set(GM_ERROR, "out of memory") : 0;
	q.out = NULL;	/* the answer, handed over to `a` */
	a->text = q.out_buf;
	a->len = q.out_len;
	q.out_buf = NULL;
out:
	gm_query_release(&q);
	return error;
}

void gm_query_batch_answerer(struct gm_batch_answerer *out,
			     struct gm_query_env *env)
{
	out->worker_new = query_batch_worker_new;
	out->worker_free = query_batch_worker_free;
	out->answer = query_batch_answer;
	out->payload = env;
}
