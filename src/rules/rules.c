#include "gm/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/strvec.h"

/* The --mpath value as a path from the top: no "./", no final '/'. */
static int mpath_normalize(struct gm_buf *out, const char *mpath)
{
	gm_buf_reset(out);
	while (mpath[0] == '.' && mpath[1] == '/')
		mpath += 2;
	if (!strcmp(mpath, "."))
		mpath = "";
	if (gm_buf_puts(out, mpath) < 0)
		return GM_ERROR;
	while (out->len && out->ptr[out->len - 1] == '/')
		out->ptr[--out->len] = '\0';
	return 0;
}

static int no_maintainers(const char *dir)
{
	return gm_error_set(GM_ENOTFOUND, "no MAINTAINERS files found in '%s'",
			    *dir ? dir : ".");
}

/* The model of the `n` texts `bufs`/`lens`, in order, named `names`. */
static int rules_parse(struct gm_rules *rl, const char **bufs,
		       const size_t *lens, const char *const *names, size_t n)
{
	int error = gm_maintainers_parse(&rl->m, bufs, lens, n);

	return error ? error : gm_maintainers_set_names(rl->m, names, n);
}

/* The file `mpath`, or the files of the directory `mpath`. */
static int rules_read_listed(struct gm_rules *rl, struct gm_repo *r,
			     const char *mpath, bool dir)
{
	struct gm_strvec paths = GM_STRVEC_INIT;
	struct gm_repo_text *texts = NULL;
	const char **bufs = NULL;
	size_t *lens = NULL;
	int error = dir ? gm_repo_list(r, mpath, &paths) :
			  gm_strvec_push(&paths, mpath);

	if (!error && !paths.nr)
		error = no_maintainers(mpath);
	if (error)
		goto out;
	texts = malloc(paths.nr * sizeof(*texts));
	bufs = calloc(paths.nr, sizeof(*bufs));
	lens = calloc(paths.nr, sizeof(*lens));
	if (!texts || !bufs || !lens) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < paths.nr; i++)
		texts[i] = (struct gm_repo_text)GM_REPO_TEXT_INIT;
	for (size_t i = 0; i < paths.nr && !error; i++) {
		/* a directory reads as empty */
		if (paths.v[i][strlen(paths.v[i]) - 1] != '/')
			error = gm_repo_text(r, paths.v[i], NULL, &texts[i]);
		bufs[i] = texts[i].ptr;
		lens[i] = texts[i].len;
	}
	if (!error)
		error = rules_parse(rl, bufs, lens,
				    (const char *const *)paths.v, paths.nr);
out:
	for (size_t i = 0; texts && i < paths.nr; i++)
		gm_repo_text_release(&texts[i]);
	free(texts);
	free(bufs);
	free(lens);
	gm_strvec_release(&paths);
	return error;
}

/* Every file named MAINTAINERS below `dir` (--find-maintainer-files). */
static int rules_read_found(struct gm_rules *rl, struct gm_repo *r,
			    const char *dir)
{
	struct gm_repo_file *files = NULL;
	const char **bufs = NULL, **names = NULL;
	size_t *lens = NULL, nr = 0;
	int error = gm_repo_find(r, dir, "MAINTAINERS", &files, &nr);

	if (!error && !nr)
		error = no_maintainers(dir);
	if (error)
		goto out;
	bufs = calloc(nr, sizeof(*bufs));
	names = calloc(nr, sizeof(*names));
	lens = calloc(nr, sizeof(*lens));
	if (!bufs || !names || !lens) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		bufs[i] = files[i].text.ptr;
		lens[i] = files[i].text.len;
		names[i] = files[i].path;
	}
	error = rules_parse(rl, bufs, lens, names, nr);
out:
	gm_repo_files_free(files, nr);
	free(names);
	free(bufs);
	free(lens);
	return error;
}

static const char *rules_mpath(const struct gm_rules *rl)
{
	return rl->opts->maintainer_path ? rl->opts->maintainer_path :
					   "MAINTAINERS";
}

/* The MAINTAINERS files, through `r`, parsed in order (R-10; Q-29). */
static int rules_read_maintainers(struct gm_rules *rl, struct gm_repo *r)
{
	struct gm_buf mpath = GM_BUF_INIT;
	enum gm_repo_kind kind = GM_REPO_TREE;
	int error;

	if ((error = mpath_normalize(&mpath, rules_mpath(rl))) < 0)
		goto out;
	if (*mpath.ptr)
		kind = gm_repo_kind(r, mpath.ptr);
	if (kind == GM_REPO_NONE)
		error = gm_error_set(GM_ENOTFOUND, "no %s at %s", mpath.ptr,
				     rl->opts->rev ? rl->opts->rev : "HEAD");
	else if (kind == GM_REPO_TREE && rl->opts->find_maintainer_files)
		error = rules_read_found(rl, r, mpath.ptr);
	else
		error = rules_read_listed(rl, r, mpath.ptr,
					  kind == GM_REPO_TREE);
out:
	gm_buf_release(&mpath);
	return error;
}

static void *rules_parser(void *payload)
{
	struct gm_rules *rl = payload;
	struct gm_repo *r = NULL;
	int error = gm_repo_reopen(&r, rl->repo);

	if (!error)
		error = rules_read_maintainers(rl, r);
	gm_job_done(&rl->parser, error);
	gm_repo_free(r);
	return NULL;
}

/*
 * The prefetched MAINTAINERS, if it is the one that would be read: the
 * default path, the blob of this commit, from this work tree.
 */
static void rules_take_prefetch(struct gm_rules *rl,
				struct gm_prefetch *prefetch)
{
	struct gm_buf mpath = GM_BUF_INIT;
	struct gm_repo_entry e;

	if (!prefetch || rl->opts->find_maintainer_files ||
	    mpath_normalize(&mpath, rules_mpath(rl)) < 0 ||
	    strcmp(mpath.ptr, "MAINTAINERS") ||
	    gm_repo_lookup(rl->repo, "MAINTAINERS", &e) < 0 ||
	    e.type != GIT_OBJECT_BLOB || e.mode == GIT_FILEMODE_LINK)
		goto out;
	gm_prefetch_take(prefetch, gm_repo_workdir(rl->repo), &e.id, &rl->m);
out:
	gm_buf_release(&mpath);
}

void gm_rules_start(struct gm_rules *rl, struct gm_repo *r,
		    const struct gm_options *o, struct gm_prefetch *prefetch)
{
	memset(rl, 0, sizeof(*rl));
	rl->repo = r;
	rl->opts = o;
	rules_take_prefetch(rl, prefetch);
	if (!rl->m)
		gm_job_start(&rl->parser, rules_parser, rl);
}

static int rules_read_mailmap(struct gm_rules *rl)
{
	struct gm_buf text = GM_BUF_INIT;
	int error;

	if (!rl->opts->mailmap)
		return 0;
	error = gm_repo_read(rl->repo, ".mailmap", &text);
	if (error == GM_ENOTFOUND || error == GM_EINVALID)
		error = 0;
	else if (!error)
		error = gm_mailmap_from_buffer(&rl->mailmap, text.ptr, text.len);
	gm_buf_release(&text);
	return error;
}

int gm_rules_finish(struct gm_rules *rl)
{
	char message[sizeof(rl->parser.message)] = "";
	int mailmap_error = rules_read_mailmap(rl), error;

	if (mailmap_error)
		snprintf(message, sizeof(message), "%s", gm_error_last());
	if (rl->parser.running)
		error = gm_job_join(&rl->parser);
	else
		error = rl->m ? 0 : rules_read_maintainers(rl, rl->repo);
	if (!error && mailmap_error)
		error = gm_error_set(mailmap_error, "%s", message);
	return error;
}

void gm_rules_release(struct gm_rules *rl)
{
	gm_job_join(&rl->parser);
	gm_maintainers_free(rl->m);
	gm_mailmap_free(rl->mailmap);
	rl->m = NULL;
	rl->mailmap = NULL;
}
