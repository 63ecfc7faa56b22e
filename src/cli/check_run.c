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
#include "gm/error.h"
#include "gm/patch.h"

/* What one run reads: the texts of its mails, and the cover letter. */
struct run {
	struct gm_query_env *env;
	struct gm_query_worker w;
	struct gm_check chk;
	struct gm_strvec *warnings;
	struct gm_buf **texts;		/* kept while their mails are */
	size_t nr_texts, alloc_texts;
	struct gm_check_mail cover;	/* .text NULL: none */
	struct gm_buf name;
};

/* "Name <email>" of `sig` appended to `out`. */
static int put_signature(struct gm_strvec *out, const git_signature *sig)
{
	return gm_strvec_pushf(out, "%s <%s>", sig->name, sig->email);
}

/* The author of each Fixes: commit of `in`, as pairs: who, why. */
static int fixes_authors(struct gm_strvec *out, git_repository *repo,
			 const struct gm_strvec *fixes)
{
	int error = 0;

	for (size_t i = 0; i < fixes->nr && !error; i++) {
		git_object *obj = NULL;

		if (git_revparse_single(&obj, repo, fixes->v[i]) < 0 ||
		    git_object_type(obj) != GIT_OBJECT_COMMIT) {
			git_object_free(obj);
			continue;	/* the query warns of it */
		}
		if (!(error = put_signature(out, git_commit_author(
						(git_commit *)obj))))
			error = gm_strvec_pushf(out, "author of Fixes: %s",
						fixes->v[i]);
		git_object_free(obj);
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
	if (!q.inputs.files.nr) {
		error = gm_strvec_pushf(r->warnings, "'%s' has no patch",
					name);
		goto out;
	}
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
	else if (!(error = fixes_authors(&fixes, gm_repo_git(r->w.repo),
					 &q.inputs.fixes)))
		error = gm_check_recipients(&r->chk, name, m,
					    r->cover.text ? &r->cover : NULL,
					    &q.rank, &fixes);
out:
	gm_strvec_release(&fixes);
	gm_query_release(&q);
	return error;
}

/* Whether `m` is a cover letter: "[PATCH 0/N]" and the like. */
static int is_cover(struct run *r, const struct gm_check_mail *m)
{
	int error = gm_check_header(&r->name, m, "Subject");
	size_t skip = strspn(r->name.ptr, " \t");
	char *s;
	bool cover;

	if (error <= 0)
		return error;
	if (!(s = malloc(r->name.len + 10)))
		return gm_error_set(GM_ERROR, "out of memory");
	memcpy(s, "Subject: ", 9);
	memcpy(s + 9, r->name.ptr + skip, r->name.len - skip + 1);
	cover = gm_patch_is_cover_subject(s);
	free(s);
	return cover;
}

/* Read the mail file `path` and keep its text. */
static int read_text(struct run *r, const char *path, struct gm_buf **out)
{
	struct gm_buf *b = calloc(1, sizeof(*b));
	int error;

	if (!b || GM_ARRAY_GROW(r->texts, r->nr_texts, r->alloc_texts) < 0) {
		free(b);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	r->texts[r->nr_texts++] = *out = b;
	if ((error = gm_buf_read_file(b, path)) == GM_ENOTFOUND)
		error = gm_error_set(GM_ENOTFOUND, "file '%s' not found", path);
	return error;
}

/* A message to check, and where it came from. */
struct mail {
	struct gm_check_mail m;
	size_t path;		/* index in the run's paths */
	size_t nth;		/* its place in that file, from 1 */
};

/* Every message of the mail files `paths`, but the cover letter. */
static int read_mails(struct run *r, const struct gm_strvec *paths,
		      struct mail **out, size_t *nr)
{
	size_t alloc = 0;
	int error = 0;

	for (size_t i = 0; i < paths->nr && !error; i++) {
		struct gm_check_mail m;
		struct gm_buf *b = NULL;
		size_t pos = 0, nth = 0;
		int cover;

		if ((error = read_text(r, paths->v[i], &b)) < 0)
			break;
		while (!error && gm_check_next_mail(&m, b->ptr, b->len, &pos)) {
			nth++;
			if ((cover = is_cover(r, &m)) < 0) {
				error = cover;
			} else if (cover) {
				if (!r->cover.text)
					r->cover = m;
			} else if (!(error = GM_ARRAY_GROW(*out, *nr, alloc))) {
				(*out)[(*nr)++] = (struct mail){ m, i, nth };
			}
		}
	}
	return error;
}

/* Check the messages of `paths`: "path" names one alone, else "path:N". */
static int run_files(struct run *r, const struct gm_strvec *paths)
{
	struct mail *mails = NULL;
	size_t nr = 0;
	int error = read_mails(r, paths, &mails, &nr);

	for (size_t i = 0; i < nr && !error; i++) {
		const struct mail *a = &mails[i];
		bool alone = a->nth == 1 &&
			     (i + 1 == nr || mails[i + 1].path != a->path);

		gm_buf_reset(&r->name);
		if (!(error = alone ? gm_buf_puts(&r->name, paths->v[a->path]) :
			      gm_buf_printf(&r->name, "%s:%zu",
					    paths->v[a->path], a->nth)))
			error = run_patch(r, r->name.ptr, &a->m, NULL);
	}
	free(mails);
	return error;
}

/* One commit, as format-patch would write it; merges are skipped. */
static int run_commit(struct run *r, git_commit *commit)
{
	git_email_create_options opts;
	struct gm_strvec committer = GM_STRVEC_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_buf text = { NULL, 0, 0 };
	struct gm_check_mail m;
	size_t pos = 0;
	int error = 0;

	if (git_commit_parentcount(commit) > 1)
		return 0;
	memset(&opts, 0, sizeof(opts));
	opts.version = GIT_EMAIL_CREATE_OPTIONS_VERSION;
	git_diff_options_init(&opts.diff_opts, GIT_DIFF_OPTIONS_VERSION);
	git_diff_find_options_init(&opts.diff_find_opts,
				   GIT_DIFF_FIND_OPTIONS_VERSION);
	git_oid_tostr(hex, 13, git_commit_id(commit));
	if (git_email_create_from_commit(&text, commit, &opts) < 0)
		error = gm_error_from_git(GIT_ERROR, "cannot format a commit");
	else if (!(error = put_signature(&committer,
					 git_commit_committer(commit))) &&
		 gm_check_next_mail(&m, text.ptr, text.size, &pos))
		error = run_patch(r, hex, &m, committer.v[0]);
	git_buf_dispose(&text);
	gm_strvec_release(&committer);
	return error;
}

/* The commits of `range`, oldest first: "A..B", or one revision. */
static int run_range(struct run *r, const char *range)
{
	git_repository *repo = gm_repo_git(r->w.repo);
	git_revwalk *walk = NULL;
	git_object *obj = NULL;
	git_commit *commit = NULL;
	git_oid id;
	int error = 0;

	if (!strstr(range, "..")) {
		if (git_revparse_single(&obj, repo, range) < 0 ||
		    git_object_peel((git_object **)&commit, obj,
				    GIT_OBJECT_COMMIT) < 0)
			error = gm_error_set(GM_ENOTFOUND,
					     "'%s' is no file and no commit",
					     range);
		else
			error = run_commit(r, commit);
		goto out;
	}
	if (git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME |
				GIT_SORT_REVERSE) < 0 ||
	    git_revwalk_push_range(walk, range) < 0)
		error = gm_error_set(GM_ENOTFOUND, "bad revision range '%s'",
				     range);
	while (!error && !git_revwalk_next(&id, walk)) {
		git_commit_free(commit);
		commit = NULL;
		if (git_commit_lookup(&commit, repo, &id) < 0)
			error = gm_error_from_git(GIT_ERROR, "cannot read a commit");
		else
			error = run_commit(r, commit);
	}
out:
	git_commit_free(commit);
	git_object_free(obj);
	git_revwalk_free(walk);
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

int gm_check_run(FILE *out, struct gm_strvec *warnings,
		 struct gm_query_env *env, struct gm_repo *repo,
		 size_t *missing)
{
	const struct gm_options *o = env->opts;
	struct gm_strvec paths = GM_STRVEC_INIT, ranges = GM_STRVEC_INIT;
	struct run r;
	int error;

	memset(&r, 0, sizeof(r));
	r.env = env;
	r.warnings = warnings;
	gm_check_init(&r.chk, env->rules->mailmap);
	r.chk.approvals = !strcmp(o->check, "approvals");
	r.chk.reviewers = o->check_reviewers;
	r.chk.history = o->check_history;
	error = gm_query_worker_init(&r.w, env, repo, true);
	for (size_t i = 0; i < o->args.nr && !error; i++) {
		struct stat st;

		if (!stat(o->args.v[i], &st))
			error = add_paths(&paths, o->args.v[i]);
		else if (r.chk.approvals)
			error = gm_strvec_push(&ranges, o->args.v[i]);
		else
			error = gm_error_set(GM_ENOTFOUND, "file '%s' not found",
					     o->args.v[i]);
	}
	if (!error)
		error = run_files(&r, &paths);
	for (size_t i = 0; i < ranges.nr && !error; i++)
		error = run_range(&r, ranges.v[i]);
	if (!error)
		error = gm_check_write(out, &r.chk, o->format &&
				       !strcmp(o->format, "json"));
	*missing = gm_check_missing(&r.chk);
	for (size_t i = 0; i < r.nr_texts; i++) {
		gm_buf_release(r.texts[i]);
		free(r.texts[i]);
	}
	free(r.texts);
	gm_buf_release(&r.name);
	gm_check_release(&r.chk);
	gm_query_worker_release(&r.w);
	gm_strvec_release(&paths);
	gm_strvec_release(&ranges);
	return error;
}
