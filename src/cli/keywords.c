#include "gm/keywords.h"

#include <stdlib.h>

#include "gm/buf.h"
#include "gm/error.h"

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
	error = gm_repo_fetch_missing(r, ids, nr, "a file given with -f");
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

int gm_keywords_match(struct gm_matches **out, struct gm_repo *r,
		      const struct gm_inputs *in,
		      const struct gm_maintainers *m,
		      struct gm_match_ctx *ctx, struct gm_prefetch *prefetch)
{
	struct gm_match_ctx *own = NULL;
	int error = 0;

	if (!(*out = calloc(1, sizeof(**out))))
		return gm_error_set(GM_ERROR, "out of memory");
	if (!ctx && !(error = gm_match_ctx_new(&own, m, NULL, NULL)))
		ctx = own;
	if (!error)
		error = keywords_files(*out, r, in, m, ctx, prefetch);
	for (size_t i = 0; i < in->nr_patches && !error; i++)
		error = gm_match_keywords_patch(*out, m, ctx,
						in->patches[i].text.ptr,
						&in->patches[i].patch);
	if (!error)
		gm_match_keywords_finish(*out);
	gm_match_ctx_free(own);
	return error;
}
