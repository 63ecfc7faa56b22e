/*
 * The rules' texts, read through the repository and handed down to
 * src/rules, which parses them.
 */
#include "gm/rules_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/maintainers.h"
#include "gm/strvec.h"

/* The file `mpath`, or the files of the directory `mpath`. */
static int read_listed(struct gm_rules_read *rr, struct gm_repo *r,
		       const char *mpath, bool dir)
{
	struct gm_strvec paths = GM_STRVEC_INIT;
	struct gm_repo_text *texts = NULL;
	const char **bufs = NULL;
	size_t *lens = NULL;
	int error = dir ? gm_repo_list(r, mpath, &paths) :
			  gm_strvec_push(&paths, mpath);

	if (!error && !paths.nr)
		error = gm_rules_none_found(mpath);
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
		error = gm_rules_parse(rr->rules, bufs, lens,
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
static int read_found(struct gm_rules_read *rr, struct gm_repo *r,
		      const char *dir)
{
	struct gm_repo_file *files = NULL;
	const char **bufs = NULL, **names = NULL;
	size_t *lens = NULL, nr = 0;
	int error = gm_repo_find(r, dir, "MAINTAINERS", &files, &nr);

	if (!error && !nr)
		error = gm_rules_none_found(dir);
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
	error = gm_rules_parse(rr->rules, bufs, lens, names, nr);
out:
	gm_repo_files_free(files, nr);
	free(names);
	free(bufs);
	free(lens);
	return error;
}

/* The MAINTAINERS files, through `r`, parsed in order (R-10; Q-29). */
static int read_maintainers(struct gm_rules_read *rr, struct gm_repo *r)
{
	struct gm_buf mpath = GM_BUF_INIT;
	enum gm_repo_kind kind = GM_REPO_TREE;
	int error;

	if ((error = gm_rules_path(&rr->set, &mpath)) < 0)
		goto out;
	if (*mpath.ptr)
		kind = gm_repo_kind(r, mpath.ptr);
	if (kind == GM_REPO_NONE)
		error = gm_error_set(GM_ENOTFOUND, "no %s at %s", mpath.ptr,
				     rr->set.rev ? rr->set.rev : "HEAD");
	else if (kind == GM_REPO_TREE && rr->set.find_maintainer_files)
		error = read_found(rr, r, mpath.ptr);
	else
		error = read_listed(rr, r, mpath.ptr, kind == GM_REPO_TREE);
out:
	gm_buf_release(&mpath);
	return error;
}

static void *read_parser(void *payload)
{
	struct gm_rules_read *rr = payload;
	struct gm_repo *r = NULL;
	int error = gm_repo_reopen(&r, rr->repo);

	if (!error)
		error = read_maintainers(rr, r);
	gm_job_done(&rr->parser, error);
	gm_repo_free(r);
	return NULL;
}

void gm_rules_read_start(struct gm_rules_read *rr, struct gm_rules *rl,
			 struct gm_repo *r, const struct gm_options *o,
			 struct gm_prefetch *prefetch)
{
	struct gm_repo_entry e;

	memset(rr, 0, sizeof(*rr));
	rr->rules = rl;
	rr->repo = r;
	rr->set.maintainer_path = o->maintainer_path;
	rr->set.find_maintainer_files = o->find_maintainer_files;
	rr->set.mailmap = o->mailmap;
	rr->set.rev = o->rev;
	rr->set.brace_patterns = o->brace_patterns;
	/*
	 * The prefetched MAINTAINERS, if it is the one that would be read:
	 * the default path, the blob of this commit, from this work tree.
	 */
	if (prefetch && gm_rules_is_default(&rr->set) &&
	    gm_repo_lookup(r, "MAINTAINERS", &e) >= 0 &&
	    e.type == GIT_OBJECT_BLOB && e.mode != GIT_FILEMODE_LINK)
		rl->m = gm_prefetch_take(prefetch, gm_repo_workdir(r), &e.id);
	if (!rl->m)
		gm_job_start(&rr->parser, read_parser, rr);
}

static int read_mailmap(struct gm_rules_read *rr)
{
	struct gm_buf text = GM_BUF_INIT;
	int error;

	if (!rr->set.mailmap)
		return 0;
	error = gm_repo_read(rr->repo, ".mailmap", &text);
	if (error == GM_ENOTFOUND || error == GM_EINVALID)
		error = 0;
	else if (!error)
		error = gm_rules_mailmap(rr->rules, &rr->set, text.ptr,
					 text.len);
	gm_buf_release(&text);
	return error;
}

int gm_rules_read_finish(struct gm_rules_read *rr)
{
	char message[sizeof(rr->parser.message)] = "";
	int mailmap_error = read_mailmap(rr), error;

	if (mailmap_error)
		snprintf(message, sizeof(message), "%s", gm_error_last());
	if (rr->parser.running)
		error = gm_job_join(&rr->parser);
	else
		error = rr->rules->m ? 0 :
			read_maintainers(rr, rr->repo);
	if (!error && rr->set.brace_patterns)
		error = gm_maintainers_braces(rr->rules->m);
	if (!error && mailmap_error)
		error = gm_error_set(mailmap_error, "%s", message);
	return error;
}

void gm_rules_read_release(struct gm_rules_read *rr)
{
	gm_job_join(&rr->parser);
}
