#include "gm/signers.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gm/blame.h"
#include "gm/date.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/trailer.h"

/* ==================== the script's reading of a log entry ==================== */

/* R-73's signature test: trailer.c's. */
bool gm_signers_is_signature(const char *line, bool all_types)
{
	return gm_trailer_is_signature(line, strlen(line), all_types);
}

const char *gm_signers_value(const char *line)
{
	const char *p = line + strlen(line);

	/* s/\s*.*:\s*(.+)\s*\/$1/: the last ':' with a character after it */
	while (p > line) {
		p--;
		if (*p == ':' && p[1])
			break;
	}
	if (*p != ':' || !p[1])
		return line;
	for (p++; gm_email_isspace((unsigned char)*p) && p[1]; p++)
		;
	return p;
}

void gm_signers_facts_release(struct gm_signers_facts *facts)
{
	if (!facts)
		return;
	gm_strvec_release(&facts->commits);
	for (size_t i = 0; i < facts->nr_roles; i++) {
		for (size_t k = 0; k < facts->roles[i].nr; k++)
			free(facts->roles[i].v[k].who);
		free(facts->roles[i].v);
	}
	facts->nr_roles = 0;
}

/* ==================== a run's history ==================== */

/* whether the file gets the signoff step. */
static bool wants_signoffs(const struct gm_signers_request *req, size_t i)
{
	const char *path = req->files->v[i];
	size_t len = strlen(path);

	if (!strcmp(path, "&STDIN"))
		return false;
	if (req->git)
		return true;
	return req->git_fallback &&
	       !(len >= 11 && !strcmp(path + len - 11, "MAINTAINERS")) &&
	       !(req->matches && i < req->matches->nr_files &&
		 req->matches->files[i].exact);
}

static int report_walk(struct gm_signers_report *r,
		       const struct gm_signers_request *req,
		       struct gm_strvec *paths)
{
	struct gm_signers_options so = { 0, false, NULL, NULL, NULL, false };
	const char *since = req->since ? req->since : "1-year-ago";
	int error = 0;

	for (size_t i = 0; i < req->files->nr && !error; i++) {
		r->steps[i].walked = SIZE_MAX;
		if (!wants_signoffs(req, i))
			continue;
		r->steps[i].walked = paths->nr;
		error = gm_strvec_push(paths, req->files->v[i]);
	}
	if (error || !paths->nr)
		return error;
	if (gm_date_parse(&r->since, since, time(NULL)) < 0)
		return gm_error_set(GM_EUSAGE, "--git-since: %s", gm_error_last());
	so.since = r->since;
	so.all_signature_types = req->all_signature_types;
	so.packs = req->packs;
	so.graph = req->graph;
	so.reopen = req->reopen;
	so.serial = req->serial;
	return gm_signers_walk(&r->walk, req->repo, req->start, paths, &so);
}

/* --git-blame's blames and their commits, for every file but "&STDIN". */
static int report_blame(struct gm_signers_report *r,
			const struct gm_signers_request *req)
{
	struct gm_blame_request br = {
		req->repo, req->start, req->workdir, req->ranges,
		req->nr_ranges, req->all_signature_types,
	};
	int error;

	if ((error = gm_blame_run(&r->blame, &br, req->files)) < 0 ||
	    (error = gm_blame_read_commits(r->blame, &br)) < 0)
		return error;
	for (size_t i = 0; i < req->files->nr; i++)
		r->steps[i].blamed = strcmp(req->files->v[i], "&STDIN") != 0;
	return 0;
}

int gm_signers_collect(struct gm_signers_report **out,
		       const struct gm_signers_request *req)
{
	struct gm_strvec paths = GM_STRVEC_INIT;
	struct gm_signers_report *r = calloc(1, sizeof(*r));
	int error = 0;

	*out = NULL;
	if (!r || !(r->steps = calloc(req->files->nr + 1, sizeof(*r->steps)))) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	r->nr_steps = req->files->nr;
	if ((error = report_walk(r, req, &paths)) < 0 ||
	    (req->blame && (error = report_blame(r, req)) < 0))
		goto out;
	if (r->walk && !(r->facts = calloc(paths.nr, sizeof(*r->facts))))
		error = gm_error_set(GM_ERROR, "out of memory");
out:
	gm_strvec_release(&paths);
	if (error) {
		gm_signers_report_free(r);
		r = NULL;
	}
	*out = r;
	return error;
}

void gm_signers_report_free(struct gm_signers_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_facts; i++)
		gm_signers_facts_release(&r->facts[i]);
	free(r->facts);
	free(r->steps);
	gm_blame_free(r->blame);
	gm_signers_free(r->walk);
	free(r);
}
