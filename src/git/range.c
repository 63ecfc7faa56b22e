/*
 * The commits of a range and what each says of itself, for
 * --check=approvals.
 */
#include "gm/range.h"

#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"

/* The commit `rev` names, peeled; the caller frees `*out`. */
static int lookup(git_object **out, git_repository *repo, const char *rev)
{
	git_object *obj = NULL;
	int error = 0;

	*out = NULL;
	if (git_revparse_single(&obj, repo, rev) < 0 ||
	    git_object_peel(out, obj, GIT_OBJECT_COMMIT) < 0)
		error = gm_error_set(GM_ENOTFOUND, "'%s' names no commit", rev);
	git_object_free(obj);
	return error;
}

int gm_range_ids(struct gm_repo *r, const char *spec, struct gm_strvec *out)
{
	git_repository *repo = gm_repo_git(r);
	char hex[GIT_OID_HEXSZ + 1];
	git_revwalk *walk = NULL;
	git_object *obj = NULL;
	git_oid id;
	int error = 0;

	if (!strstr(spec, "..")) {
		if (!(error = lookup(&obj, repo, spec)))
			error = gm_strvec_push(out, git_oid_tostr(hex,
					sizeof(hex), git_object_id(obj)));
		git_object_free(obj);
		return error;
	}
	if (git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME |
				GIT_SORT_REVERSE) < 0 ||
	    git_revwalk_push_range(walk, spec) < 0)
		error = gm_error_set(GM_ENOTFOUND, "bad revision range '%s'",
				     spec);
	while (!error && !git_revwalk_next(&id, walk))
		error = gm_strvec_push(out, git_oid_tostr(hex, sizeof(hex), &id));
	git_revwalk_free(walk);
	return error;
}

static char *signature(const git_signature *s)
{
	struct gm_buf b = GM_BUF_INIT;

	return gm_buf_printf(&b, "%s <%s>", s->name, s->email) ? NULL :
	       gm_buf_detach(&b, NULL);
}

int gm_range_commit(struct gm_repo *r, const char *rev,
		    struct gm_range_commit *out)
{
	git_object *obj;
	git_commit *c;
	int error;

	memset(out, 0, sizeof(*out));
	if ((error = lookup(&obj, gm_repo_git(r), rev)) < 0)
		return error;
	c = (git_commit *)obj;
	out->author = signature(git_commit_author(c));
	out->committer = signature(git_commit_committer(c));
	out->summary = strdup(git_commit_summary(c) ? git_commit_summary(c) :
			      "");
	out->body = strdup(git_commit_body(c) ? git_commit_body(c) : "");
	out->parents = git_commit_parentcount(c);
	if (!out->author || !out->committer || !out->summary || !out->body)
		error = gm_error_set(GM_ERROR, "out of memory");
	git_object_free(obj);
	return error;
}

void gm_range_commit_release(struct gm_range_commit *c)
{
	free(c->author);
	free(c->committer);
	free(c->summary);
	free(c->body);
	memset(c, 0, sizeof(*c));
}
