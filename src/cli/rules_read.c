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

/*
 * The file `mpath`, the files of the directory `mpath`, or with
 * --find-maintainer-files every MAINTAINERS below it, parsed in order.
 */
static int read_files(struct gm_rules_read *rr, struct gm_repo *r,
		      const char *mpath, bool dir)
{
	struct gm_strvec paths = GM_STRVEC_INIT;
	struct gm_repo_file *files = NULL;
	const char **bufs = NULL, **names = NULL;
	size_t *lens = NULL, nr = 0;
	int error;

	if (dir && rr->set.find_maintainer_files)
		error = gm_repo_find(r, mpath, "MAINTAINERS", &files, &nr);
	else if (!(error = dir ? gm_repo_list(r, mpath, &paths) :
			     gm_strvec_push(&paths, mpath)))
		nr = paths.nr;
	if (!error && !nr)
		error = gm_error_set(GM_ENOTFOUND,
				     "no MAINTAINERS files found in '%s'",
				     *mpath ? mpath : ".");
	if (error)
		goto out;
	if (paths.nr)
		files = calloc(nr, sizeof(*files));
	bufs = calloc(nr, sizeof(*bufs));
	names = calloc(nr, sizeof(*names));
	lens = calloc(nr, sizeof(*lens));
	if (!files || !bufs || !names || !lens) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nr && !error; i++) {
		if (paths.nr)
			files[i].text = (struct gm_buf)GM_BUF_INIT;
		names[i] = paths.nr ? paths.v[i] : files[i].path;
		/* a directory reads as empty */
		if (paths.nr && names[i][strlen(names[i]) - 1] != '/')
			error = gm_repo_read(r, names[i], &files[i].text);
		bufs[i] = files[i].text.ptr;
		lens[i] = files[i].text.len;
	}
	if (!error)
		error = gm_maintainers_parse(&rr->rules->m, bufs, lens, nr);
	if (!error)
		error = gm_maintainers_set_names(rr->rules->m, names, nr);
out:
	gm_repo_files_free(files, files ? nr : 0);
	free(names);
	free(bufs);
	free(lens);
	gm_strvec_release(&paths);
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
	else
		error = read_files(rr, r, mpath.ptr, kind == GM_REPO_TREE);
out:
	gm_buf_release(&mpath);
	return error;
}

/*
 * Whether the rules are read from the one file MAINTAINERS at the top
 * (the file the prefetch digests), whatever the tree holds.
 */
static bool is_default(const struct gm_rules_settings *s)
{
	struct gm_buf mpath = GM_BUF_INIT;
	bool is = !s->find_maintainer_files && !gm_rules_path(s, &mpath) &&
		  !strcmp(mpath.ptr, "MAINTAINERS");

	gm_buf_release(&mpath);
	return is;
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
	if (prefetch && is_default(&rr->set) &&
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
		error = gm_mailmap_from_buffer(&rr->rules->mailmap, text.ptr,
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
