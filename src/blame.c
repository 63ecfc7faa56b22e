#include "gm/blame.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gm/buf.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/signers.h"

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

int gm_blame_lines(struct gm_strvec *out, git_repository *repo,
		   const git_oid *newest, const char *workdir,
		   const char *path, long start, long len)
{
	git_blame_options o;
	git_blame *blame = NULL, *buffered = NULL, *use;
	struct gm_buf work = GM_BUF_INIT;
	git_blob *blob = commit_blob(repo, newest, path);
	const char *text;
	size_t size, lines;
	bool in_work;
	int error = 0;

	git_blame_options_init(&o, GIT_BLAME_OPTIONS_VERSION);
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
	git_oid_cpy(&o.newest_commit, newest);
	if (!in_work || (blob && size == (size_t)git_blob_rawsize(blob) &&
			 !memcmp(text, git_blob_rawcontent(blob), size))) {
		o.min_line = (size_t)start;
		o.max_line = (size_t)(start + len - 1);
	}
	if (!blob || git_blame_file(&blame, repo, path, &o) < 0) {
		blame = NULL;
		if (!blob)
			goto uncommitted;
		goto out;	/* as git blame failing */
	}
	use = blame;
	if (o.min_line == 0) {
		if (git_blame_buffer(&buffered, blame, text, size) < 0)
			goto out;
		use = buffered;
	}
	for (long i = start; i < start + len && !error; i++) {
		const git_blame_hunk *h = git_blame_get_hunk_byline(use,
								    (size_t)i);
		char hex[GIT_OID_HEXSZ + 1];

		if (!h || h->boundary)
			continue;
		git_oid_tostr(hex, sizeof(hex), &h->final_commit_id);
		error = gm_strvec_push(out, hex);
	}
	goto out;
uncommitted:
	/* a file only in the work tree: every line is not committed yet */
	for (long i = 0; i < len && !error; i++)
		error = gm_strvec_push(out, "0000000000000000000000000000000000000000");
out:
	git_blame_free(buffered);
	git_blame_free(blame);
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
		return gm_blame_lines(all, req->repo, req->newest,
				      req->workdir, path, 0, 0);
	for (size_t i = 0; i < req->nr_ranges && !error; i++)
		if (!strcmp(req->ranges[i].file, path))
			error = gm_blame_lines(all, req->repo, req->newest,
					       req->workdir, path,
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
