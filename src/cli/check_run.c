/*
 * --check on the command line: the mails and commits read, each patch
 * put to the pipeline as one question, its verdict from src/check.
 */
#include "gm/check_run.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gm/check.h"
#include "gm/commits.h"
#include "gm/error.h"
#include "gm/objects.h"
#include "gm/patch.h"
#include "gm/range.h"

/* What one run holds: its worker, verdicts, cover letter and commits. */
struct run {
	struct gm_query_env *env;
	struct gm_query_worker w;
	struct gm_check chk;
	struct gm_strvec *warnings;
	struct gm_check_mail cover;	/* .text NULL: none */
	struct gm_objects_rules *rules;	/* for commits: NULL until read */
	struct gm_commits commits;
	struct gm_buf name;
};

/* The author of each Fixes: commit of `in`, as pairs: who, why. */
static int fixes_authors(struct gm_strvec *out, struct gm_repo *repo,
			 const struct gm_strvec *fixes)
{
	int error = 0;

	for (size_t i = 0; i < fixes->nr && error >= 0; i++) {
		struct gm_range_commit ci;

		/* one not found: the query warns of it */
		if (!(error = gm_range_commit(repo, fixes->v[i], &ci)) &&
		    !(error = gm_strvec_push(out, ci.author)))
			error = gm_strvec_pushf(out, "author of Fixes: %s",
						fixes->v[i]);
		gm_range_commit_release(&ci);
		if (error == GM_ENOTFOUND)
			error = 0;
	}
	return error;
}

/* One patch through the pipeline and the check; `committer` for commits. */
static int run_patch(struct run *r, const char *name,
		     const struct gm_check_mail *m, const char *committer)
{
	struct gm_strvec fixes = GM_STRVEC_INIT;
	struct gm_query q;
	int error;

	if ((error = gm_query_init(&q, &r->w, true)) < 0 ||
	    (error = gm_inputs_read_text(&q.inputs, r->w.repo,
					 &r->env->inputs, m->text,
					 m->len)) < 0)
		goto out;
	if (!q.inputs.files.nr)	/* a reply, a note: nothing to judge */
		goto out;
	if ((error = gm_query_start(&q)) < 0 ||
	    (error = gm_query_run(&q)) < 0)
		goto out;
	for (size_t i = 0; i < q.warnings.nr && !error; i++)
		error = gm_strvec_pushf(r->warnings, "%s: %s", name,
					q.warnings.v[i]);
	if (error)
		goto out;
	if (r->chk.approvals)
		error = gm_check_approvals(&r->chk, name, m, committer,
					   r->env->rules->m, q.matches);
	else if (!(error = fixes_authors(&fixes, r->w.repo, &q.inputs.fixes)))
		error = gm_check_recipients(&r->chk, name, m,
					    r->cover.text ? &r->cover : NULL,
					    &q.rank, &fixes);
out:
	gm_strvec_release(&fixes);
	gm_query_release(&q);
	return error;
}

/* Whether `m` is a cover letter: "[PATCH 0/N]" and the like. */
static int is_cover(const struct gm_check_mail *m)
{
	struct gm_buf v = GM_BUF_INIT, s = GM_BUF_INIT;
	int error = gm_check_header(&v, m, "Subject");

	if (error > 0 && !(error = gm_buf_printf(&s, "Subject: %s", v.ptr)))
		error = gm_patch_is_cover_subject(s.ptr);
	gm_buf_release(&v);
	gm_buf_release(&s);
	return error;
}

/*
 * Check the messages of the mail files `paths` (read into `t`), the
 * first cover letter standing for all: a message alone in its file is
 * named by the file, else "file:N".
 */
static int run_files(struct run *r, const struct gm_strvec *paths,
		     struct gm_buf *t)
{
	struct gm_check_mail m, next;
	int error = 0;

	for (size_t i = 0; i < paths->nr && !error; i++) {
		size_t pos = 0;

		if ((error = gm_buf_read_file(&t[i], paths->v[i])) == GM_ENOTFOUND)
			error = gm_error_set(GM_ENOTFOUND, "file '%s' not found",
					     paths->v[i]);
		while (!error && !r->cover.text &&
		       gm_check_next_mail(&m, t[i].ptr, t[i].len, &pos))
			if ((error = is_cover(&m)) > 0)
				r->cover = m;
		error = error < 0 ? error : 0;
	}
	for (size_t i = 0; i < paths->nr && error >= 0; i++) {
		size_t pos = 0, peek, nth = 0;

		while (error >= 0 &&
		       gm_check_next_mail(&m, t[i].ptr, t[i].len, &pos)) {
			nth++;
			peek = pos;
			if ((error = is_cover(&m)) != 0)
				continue;
			gm_buf_reset(&r->name);
			if (nth == 1 && !gm_check_next_mail(&next, t[i].ptr,
							    t[i].len, &peek))
				error = gm_buf_puts(&r->name, paths->v[i]);
			else
				error = gm_buf_printf(&r->name, "%s:%zu",
						      paths->v[i], nth);
			if (!error)
				error = run_patch(r, r->name.ptr, &m, NULL);
		}
	}
	return error < 0 ? error : 0;
}

/* The reading of commits for ranges, opened on first use. */
static int commits_open(struct run *r)
{
	struct gm_repo *repo = r->w.repo;
	const struct gm_packs *packs;
	const struct gm_graph *graph;
	int error;

	if (r->rules)
		return 0;
	if ((error = gm_objects_rules_load(&r->rules, gm_repo_git(repo))) < 0 ||
	    (error = gm_repo_packs(&packs, repo)) < 0 ||
	    (error = gm_repo_graph(&graph, repo)) < 0)
		return error;
	return gm_commits_open(&r->commits, gm_repo_git(repo), packs, r->rules,
			       graph);
}

/* The files commit `hex` changes against its parent, into `out`. */
static int commit_files(struct run *r, const char *hex, struct gm_strvec *out)
{
	struct gm_commits_parents p;
	struct gm_commits_item it;
	git_oid id;
	int error;

	memset(&p, 0, sizeof(p));
	if ((error = commits_open(r)) < 0)
		return error;
	if (!gm_oid_fromhex(&id, hex) ||
	    (error = gm_commits_item(&r->commits, &id, &it)) < 0)
		return error < 0 ? error : gm_error_set(GM_ERROR, "bad id");
	if (!(error = gm_commits_parents(&r->commits, &it, &p)))
		error = gm_commits_diff_all(&r->commits, p.nr_loaded ?
					    &p.trees[0] : NULL, &p.tree, out);
	gm_commits_parents_release(&p);
	gm_commits_item_release(&it);
	return error;
}

/* Commit `hex`, its committer an approver; merges are left out. */
static int run_commit(struct run *r, const char *hex)
{
	struct gm_strvec files = GM_STRVEC_INIT;
	struct gm_buf text = GM_BUF_INIT;
	struct gm_range_commit ci;
	struct gm_check_mail m;
	char name[13];
	int error;

	if ((error = gm_range_commit(r->w.repo, hex, &ci)) < 0 ||
	    ci.parents > 1 ||
	    (error = commit_files(r, hex, &files)) < 0 ||
	    (error = gm_buf_printf(&text, "From: %s\nSubject: %s\n\n%s\n---\n",
				   ci.author, ci.summary, ci.body)) < 0)
		goto out;
	/*
	 * The mail as far as the check reads it: a "--- a/X" / "+++ b/X"
	 * pair a file (names with a TAB, a newline or a quote left out).
	 */
	for (size_t i = 0; i < files.nr && !error; i++)
		if (!strpbrk(files.v[i], "\t\n\""))
			error = gm_buf_printf(&text, "--- a/%s\t\n+++ b/%s\t\n",
					      files.v[i], files.v[i]);
	if (error)
		goto out;
	snprintf(name, sizeof(name), "%s", hex);
	m.text = text.ptr;
	m.len = text.len;
	m.body = (size_t)(strstr(text.ptr, "\n\n") + 2 - text.ptr);
	error = run_patch(r, name, &m, ci.committer);
out:
	gm_range_commit_release(&ci);
	gm_buf_release(&text);
	gm_strvec_release(&files);
	return error;
}

/* The commits of `spec`, oldest first: "A..B", or one revision. */
static int run_range(struct run *r, const char *spec)
{
	struct gm_strvec ids = GM_STRVEC_INIT;
	int error = gm_range_ids(r->w.repo, spec, &ids);

	for (size_t i = 0; i < ids.nr && !error; i++)
		error = run_commit(r, ids.v[i]);
	gm_strvec_release(&ids);
	return error;
}

/* The mail files an argument names: itself, or a directory's patches. */
static int add_paths(struct gm_strvec *out, const char *arg)
{
	static const char *const ends[] = { ".patch", ".mbx", ".mbox", ".eml",
					    ".cover" };
	struct gm_strvec names = GM_STRVEC_INIT;
	struct dirent *de;
	DIR *d = opendir(arg);
	int error = 0;

	if (!d)
		return errno == ENOTDIR ? gm_strvec_push(out, arg) :
		       gm_error_set(GM_ERROR, "cannot open '%s': %s", arg,
				    strerror(errno));
	while (!error && (de = readdir(d)))
		for (size_t i = 0; i < sizeof(ends) / sizeof(*ends); i++) {
			size_t n = strlen(de->d_name), e = strlen(ends[i]);

			if (n > e && !strcmp(de->d_name + n - e, ends[i]) &&
			    (error = gm_strvec_pushf(&names, "%s/%s", arg,
						     de->d_name)) == 0)
				break;
		}
	closedir(d);
	gm_strvec_sort_uniq(&names);
	for (size_t i = 0; i < names.nr && !error; i++)
		error = gm_strvec_push(out, names.v[i]);
	gm_strvec_release(&names);
	return error;
}

/* The arguments: mail files (and directories of them), else ranges. */
static int run_args(struct run *r, const struct gm_strvec *args)
{
	struct gm_strvec paths = GM_STRVEC_INIT, ranges = GM_STRVEC_INIT;
	struct gm_buf *t = NULL;
	struct stat st;
	int error = 0;

	for (size_t i = 0; i < args->nr && !error; i++) {
		if (!stat(args->v[i], &st))
			error = add_paths(&paths, args->v[i]);
		else if (r->chk.approvals)
			error = gm_strvec_push(&ranges, args->v[i]);
		else
			error = gm_error_set(GM_ENOTFOUND, "file '%s' not found",
					     args->v[i]);
	}
	if (!error && !(t = calloc(paths.nr + 1, sizeof(*t))))
		error = gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; t && i < paths.nr; i++)
		gm_buf_init(&t[i]);
	if (!error)
		error = run_files(r, &paths, t);
	for (size_t i = 0; i < ranges.nr && !error; i++)
		error = run_range(r, ranges.v[i]);
	for (size_t i = 0; t && i < paths.nr; i++)
		gm_buf_release(&t[i]);
	free(t);
	gm_strvec_release(&paths);
	gm_strvec_release(&ranges);
	return error;
}

int gm_check_run(FILE *out, struct gm_strvec *warnings,
		 struct gm_query_env *env, struct gm_repo *repo,
		 size_t *missing)
{
	const struct gm_options *o = env->opts;
	struct run r;
	int error;

	memset(&r, 0, sizeof(r));
	gm_buf_init(&r.name);
	r.env = env;
	r.warnings = warnings;
	gm_check_init(&r.chk, env->rules->mailmap);
	r.chk.approvals = !strcmp(o->check, "approvals");
	r.chk.reviewers = o->check_reviewers;
	r.chk.history = o->check_history;
	r.w = (struct gm_query_worker){ .env = env, .repo = repo };
	error = run_args(&r, &o->args);
	if (!error && !r.chk.nr)
		error = gm_error_set(GM_EINVALID, "no patch to check");
	if (!error)
		error = gm_check_write(out, &r.chk, o->format &&
				       !strcmp(o->format, "json"));
	*missing = gm_check_missing(&r.chk);
	gm_buf_release(&r.name);
	gm_check_release(&r.chk);
	if (r.rules)
		gm_commits_close(&r.commits);
	gm_objects_rules_free(r.rules);
	gm_query_worker_release(&r.w);
	return error;
}
