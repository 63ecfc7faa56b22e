#include "gm/keywords.h"

#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"

/*
 * The -f files' contents, through `r`, but for those prefetched; a file
 * that is none is skipped.
 */
static int keywords_read_texts(struct gm_keywords *kw, struct gm_repo *r)
{
	for (size_t i = 0; i < kw->in->keyword_files.nr; i++) {
		struct gm_keywords_text *t = &kw->texts[i];
		const char *path = kw->in->keyword_files.v[i];
		int error;

		if (t->read)
			continue;
		if (t->in_tree) {
			error = gm_repo_text(r, path, &t->entry, &t->text);
		} else if (!(error = gm_repo_worktree_read(r, path,
							   &t->text.buf))) {
			t->text.ptr = t->text.buf.ptr;
			t->text.len = t->text.buf.len;
			t->text.pad = GM_BUF_PAD;
		}
		if (error && error != GM_ENOTFOUND && error != GM_EINVALID)
			return error;
		t->read = !error;
	}
	return 0;
}

static void *keywords_reader(void *payload)
{
	struct gm_keywords *kw = payload;
	int error = gm_repo_reopen(&kw->reader_repo, kw->repo);

	if (!error)
		error = keywords_read_texts(kw, kw->reader_repo);
	gm_job_done(&kw->reader, error);
	return NULL;
}

/* The prefetched bytes of the tree's regular file `t`, if they are its. */
static bool keywords_take_prefetched(struct gm_keywords *kw,
				     struct gm_prefetch *prefetch,
				     const char *path,
				     struct gm_keywords_text *t)
{
	if (!t->in_tree || t->entry.type != GIT_OBJECT_BLOB ||
	    t->entry.mode == GIT_FILEMODE_LINK ||
	    !gm_prefetch_take_text(prefetch, gm_repo_workdir(kw->repo), path,
				   &t->entry.id, &t->text.buf))
		return false;
	t->text.ptr = t->text.buf.ptr;
	t->text.len = t->text.buf.len;
	t->text.pad = GM_BUF_PAD;
	t->read = true;
	return true;
}

/* In a partial clone, fetch the blobs of the -f files left to read at once. */
static int keywords_fetch_missing(struct gm_keywords *kw, struct gm_repo *r)
{
	size_t n = kw->in->keyword_files.nr, nr = 0;
	git_oid *ids = calloc(n, sizeof(*ids));
	int error;

	if (!ids)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (!kw->texts[i].read && kw->texts[i].in_tree &&
		    kw->texts[i].entry.type == GIT_OBJECT_BLOB)
			ids[nr++] = kw->texts[i].entry.id;
	error = gm_repo_fetch_missing(r, ids, nr, "a file given with -f");
	free(ids);
	return error;
}

int gm_keywords_start_reader(struct gm_keywords *kw, struct gm_repo *r,
			     const struct gm_inputs *in, bool keywords,
			     struct gm_prefetch *prefetch)
{
	size_t n = in->keyword_files.nr, taken = 0;

	kw->in = in;
	kw->repo = r;
	if (!(kw->hits = calloc(1, sizeof(*kw->hits))))
		return gm_error_set(GM_ERROR, "out of memory");
	if (!keywords || !n)
		return 0;
	if (!(kw->texts = calloc(n, sizeof(*kw->texts))))
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < n; i++) {	/* the trees are this thread's */
		struct gm_keywords_text *t = &kw->texts[i];

		t->text = (struct gm_repo_text)GM_REPO_TEXT_INIT;
		t->in_tree = gm_repo_lookup(r, in->keyword_files.v[i],
					    &t->entry) == 0;
		taken += keywords_take_prefetched(kw, prefetch,
						  in->keyword_files.v[i], t);
	}
	if (taken < n && keywords_fetch_missing(kw, r) < 0)
		return GM_ERROR;
	if (taken < n && !kw->serial)
		gm_job_start(&kw->reader, keywords_reader, kw);
	return 0;
}

/* The pass itself, over the -f files and the patches. */
static int keywords_match(struct gm_keywords *kw)
{
	const struct gm_maintainers *m = kw->m;
	struct gm_match_ctx *ctx;
	int error = gm_job_join(&kw->reader);

	if (!error && !kw->ctx && !kw->shared_ctx)
		error = gm_match_ctx_new(&kw->ctx, m, NULL, NULL);
	ctx = kw->ctx ? kw->ctx : kw->shared_ctx;
	for (size_t i = 0; kw->texts && i < kw->in->keyword_files.nr &&
	     !error; i++) {
		const struct gm_keywords_text *t = &kw->texts[i];

		if (t->read)
			error = gm_match_keywords_text(kw->hits, m, ctx,
						       t->text.ptr,
						       t->text.len,
						       t->text.pad);
	}
	for (size_t i = 0; i < kw->in->nr_patches && !error; i++)
		error = gm_match_keywords_patch(kw->hits, m, ctx,
						kw->in->patches[i].text.ptr,
						&kw->in->patches[i].patch);
	return error;
}

static void *keywords_matcher(void *payload)
{
	struct gm_keywords *kw = payload;

	gm_job_done(&kw->matcher, keywords_match(kw));
	return NULL;
}

int gm_keywords_start(struct gm_keywords *kw, const struct gm_maintainers *m)
{
	int error = 0;

	kw->m = m;
	if (!kw->texts && !kw->in->nr_patches)
		return 0;
	if (kw->texts && !kw->reader.running)	/* no reader thread */
		error = keywords_read_texts(kw, kw->repo);
	if (!error && !kw->serial)
		gm_job_start(&kw->matcher, keywords_matcher, kw);
	return error;
}

int gm_keywords_finish(struct gm_keywords *kw)
{
	int error = 0;

	if (kw->matcher.running)
		error = gm_job_join(&kw->matcher);
	else if (kw->m && (kw->texts || kw->in->nr_patches))
		error = keywords_match(kw);
	if (!error)
		gm_match_keywords_finish(kw->hits);
	return error;
}

void gm_keywords_release(struct gm_keywords *kw)
{
	gm_job_join(&kw->matcher);	/* which may join the reader */
	gm_job_join(&kw->reader);
	for (size_t i = 0; kw->texts && i < kw->in->keyword_files.nr; i++)
		gm_repo_text_release(&kw->texts[i].text);
	free(kw->texts);
	gm_repo_free(kw->reader_repo);
	gm_matches_free(kw->hits);
	gm_match_ctx_free(kw->ctx);
	memset(kw, 0, sizeof(*kw));
}
