#include "gm/signers.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gm/blame.h"
#include "gm/buf.h"
#include "gm/date.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/mailmap.h"
#include "gm/strmap.h"
#include "gm/trailer.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

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

/* The script's /(Linus Torvalds)/i on a line: rank.c's. */
bool gm_signers_names_chief(const char *s)
{
	return gm_rank_is_chief_penguin_line(s, strlen(s));
}

/* ==================== what the script makes of it ==================== */

/* The script's ^(\d+)\t(\d+)\tFILE$, FILE a regex. */
struct stat_re {
	pcre2_code *re;
	pcre2_match_data *md;
	const char *file;	/* literal fallback */
};

static void stat_re_init(struct stat_re *r, const char *file)
{
	struct gm_buf pat = GM_BUF_INIT;
	int err;
	PCRE2_SIZE off;

	memset(r, 0, sizeof(*r));
	r->file = file;
	if (gm_buf_printf(&pat, "^(\\d+)\\t(\\d+)\\t%s$", file) == 0)
		r->re = pcre2_compile((PCRE2_SPTR)pat.ptr, pat.len, 0, &err,
				      &off, NULL);
	if (r->re)
		r->md = pcre2_match_data_create_from_pattern(r->re, NULL);
	gm_buf_release(&pat);
}

static void stat_re_release(struct stat_re *r)
{
	pcre2_match_data_free(r->md);
	pcre2_code_free(r->re);
}

/* Whether `line` matches; its two numbers into `a`, `d`. */
static bool stat_re_match(struct stat_re *r, const char *line, long *a,
			  long *d)
{
	const char *p = line;

	if (r->re && r->md) {
		if (pcre2_match(r->re, (PCRE2_SPTR)line, PCRE2_ZERO_TERMINATED,
				0, 0, r->md, NULL) < 0)
			return false;
	} else {
		const char *tab = strchr(line, '\t');

		tab = tab ? strchr(tab + 1, '\t') : NULL;
		if (!tab || strcmp(tab + 1, r->file))
			return false;
	}
	*a = strtol(p, (char **)&p, 10);
	*d = strtol(p + 1, NULL, 10);
	return true;
}

/* deduplicate_email() of each line, in order, into `out`. */
static int dedup_all(struct gm_rank *rk, struct gm_strvec *out,
		     const struct gm_strvec *in, bool extract)
{
	struct gm_buf tmp = GM_BUF_INIT;
	int error = 0;

	for (size_t i = 0; i < in->nr && !error; i++) {
		const char *s = extract ? gm_signers_value(in->v[i]) : in->v[i];

		if (!(error = gm_rank_dedup(rk, &tmp, s)))
			error = gm_strvec_push(out, tmp.ptr);
	}
	gm_buf_release(&tmp);
	return error;
}

static int count_cmp(const void *a, const void *b)
{
	const struct gm_signers_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->who, y->who);
}

/* The counts vcs_assign() sees for a role, kept for the JSON facts. */
static int facts_role(struct gm_rank *rk, struct gm_signers_facts *facts,
		      const char *name, int divisor,
		      const struct gm_strvec *lines)
{
	struct gm_signers_role *r;
	struct gm_strmap idx = GM_STRMAP_INIT;
	struct gm_buf tmp = GM_BUF_INIT;
	int error = 0;

	if (!facts || !lines->nr ||
	    facts->nr_roles >= sizeof(facts->roles) / sizeof(*facts->roles))
		return 0;
	r = &facts->roles[facts->nr_roles++];
	r->name = name;
	r->divisor = divisor;
	if (!(r->v = calloc(lines->nr, sizeof(*r->v))))
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < lines->nr && !error; i++) {
		void *at;

		if ((error = gm_mailmap_apply(&tmp, rk->mailmap, lines->v[i])) < 0)
			break;
		if (gm_strmap_get(&idx, tmp.ptr, tmp.len, &at)) {
			r->v[(size_t)at - 1].count++;
			continue;
		}
		if (!(r->v[r->nr].who = strdup(tmp.ptr))) {
			error = gm_error_set(GM_ERROR, "out of memory");
			break;
		}
		r->v[r->nr++].count = 1;
		error = gm_strmap_put(&idx, tmp.ptr, tmp.len,
				      (void *)(uintptr_t)r->nr);
	}
	if (r->nr)
		qsort(r->v, r->nr, sizeof(*r->v), count_cmp);
	gm_strmap_release(&idx);
	gm_buf_release(&tmp);
	return error;
}

static int assign(struct gm_rank *rk, struct gm_signers_facts *facts,
		  const char *role, int divisor, const struct gm_strvec *lines)
{
	int error = facts_role(rk, facts, role, divisor, lines);

	return error ? error : gm_rank_assign(rk, role, divisor, lines,
					      GM_KIND_HISTORY);
}

/* The per-file lines of vcs_find_signers(): all of the file's commits. */
struct file_lines {
	int commits;
	struct gm_strvec authors, signatures;
	long *added, *deleted;		/* the matching stat lines */
	size_t nr_stats, alloc_added, alloc_deleted;
};

static int push_stat(struct file_lines *l, long a, long d)
{
	if (GM_ARRAY_GROW(l->added, l->nr_stats, l->alloc_added) < 0 ||
	    GM_ARRAY_GROW(l->deleted, l->nr_stats, l->alloc_deleted) < 0)
		return GM_ERROR;
	l->added[l->nr_stats] = a;
	l->deleted[l->nr_stats++] = d;
	return 0;
}

static int gather(struct file_lines *l, const struct gm_signers *s,
		  const struct gm_signers_file *file, struct stat_re *re,
		  struct gm_strvec *ids)
{
	struct gm_buf line = GM_BUF_INIT;
	int error = 0;

	for (size_t i = 0; i < file->nr_touches && !error; i++) {
		const struct gm_signers_touch *t = &file->touches[i];
		const struct gm_signers_commit *c = &s->commits[t->commit];
		char hex[GIT_OID_HEXSZ + 1];
		long a, d;

		l->commits += (int)c->commit_lines;
		for (size_t k = 0; k < c->authors.nr && !error; k++)
			error = gm_strvec_push(&l->authors, c->authors.v[k]);
		for (size_t k = 0; k < c->signatures.nr && !error; k++)
			error = gm_strvec_push(&l->signatures, c->signatures.v[k]);
		for (size_t k = 0; k < c->stat_like.nr && !error; k++)
			if (stat_re_match(re, c->stat_like.v[k], &a, &d))
				error = push_stat(l, a, d);
		if (!error && t->path && t->added >= 0) {
			gm_buf_reset(&line);
			error = gm_buf_printf(&line, "%ld\t%ld\t%s", t->added,
					      t->deleted, t->path);
			if (!error && stat_re_match(re, line.ptr, &a, &d))
				error = push_stat(l, a, d);
		}
		git_oid_tostr(hex, sizeof(hex), &c->id);
		if (!error && ids)
			error = gm_strvec_push(ids, hex);
	}
	gm_buf_release(&line);
	return error;
}

/* A memo of deduplicate_email() within one loop that repeats its calls. */
static int dedup_memo(struct gm_rank *rk, struct gm_strmap *memo,
		      struct gm_strvec *keep, const char *s, const char **out)
{
	struct gm_buf tmp = GM_BUF_INIT;
	void *v;
	int error;

	if (gm_strmap_get(memo, s, strlen(s), &v)) {
		*out = keep->v[(size_t)v - 1];
		return 0;
	}
	if ((error = gm_rank_dedup(rk, &tmp, s)) == 0 &&
	    (error = gm_strvec_push(keep, tmp.ptr)) == 0 &&
	    (error = gm_strmap_put(memo, s, strlen(s),
				   (void *)(uintptr_t)keep->nr)) == 0)
		*out = keep->v[keep->nr - 1];
	gm_buf_release(&tmp);
	return error;
}

/* The added_lines and removed_lines roles of R-75. */
static int assign_lines(struct gm_rank *rk, struct gm_signers_facts *facts,
			const struct file_lines *l,
			const struct gm_strvec *authors)
{
	struct gm_strvec uniq = GM_STRVEC_INIT, tmp = GM_STRVEC_INIT;
	struct gm_strvec added = GM_STRVEC_INIT, deleted = GM_STRVEC_INIT;
	struct gm_strvec keep = GM_STRVEC_INIT;
	struct gm_strmap memo = GM_STRMAP_INIT;
	long total_a = 0, total_d = 0;
	int error = 0;

	for (size_t i = 0; i < l->nr_stats; i++) {
		total_a += l->added[i];
		total_d += l->deleted[i];
	}
	for (size_t i = 0; i < authors->nr && !error; i++)
		if (!gm_strvec_contains(&uniq, authors->v[i]))
			error = gm_strvec_push(&uniq, authors->v[i]);
	if (!error)
		error = dedup_all(rk, &tmp, &uniq, false);
	gm_strvec_release(&uniq);
	for (size_t i = 0; i < tmp.nr && !error; i++)
		if (!gm_strvec_contains(&uniq, tmp.v[i]))
			error = gm_strvec_push(&uniq, tmp.v[i]);
	for (size_t u = 0; u < uniq.nr && !error; u++) {
		long a = 0, d = 0;

		for (size_t i = 0; i < l->nr_stats && !error; i++) {
			const char *who = NULL;

			error = dedup_memo(rk, &memo, &keep, authors->v[i], &who);
			if (!error && !strcmp(uniq.v[u], who)) {
				a += l->added[i];
				d += l->deleted[i];
			}
		}
		for (long k = 0; k < a && !error; k++)
			error = gm_strvec_push(&added, uniq.v[u]);
		for (long k = 0; k < d && !error; k++)
			error = gm_strvec_push(&deleted, uniq.v[u]);
	}
	if (!error)
		error = assign(rk, facts, "added_lines", (int)total_a, &added);
	if (!error)
		error = assign(rk, facts, "removed_lines", (int)total_d, &deleted);
	gm_strvec_release(&uniq);
	gm_strvec_release(&tmp);
	gm_strvec_release(&added);
	gm_strvec_release(&deleted);
	gm_strvec_release(&keep);
	gm_strmap_release(&memo);
	return error;
}

int gm_signers_assign(struct gm_rank *rk, const struct gm_signers *s,
		      size_t f, struct gm_signers_facts *facts)
{
	const struct gm_signers_file *file = &s->files[f];
	struct file_lines l;
	struct gm_strvec authors = GM_STRVEC_INIT, signers = GM_STRVEC_INIT;
	struct gm_strvec once = GM_STRVEC_INIT, kept = GM_STRVEC_INIT;
	struct stat_re re;
	int error;

	memset(&l, 0, sizeof(l));
	if (facts) {
		memset(facts, 0, sizeof(*facts));
		facts->path = file->path;
	}
	stat_re_init(&re, file->path);
	error = gather(&l, s, file, &re, facts ? &facts->commits : NULL);
	if (error)
		goto out;
	if (!l.signatures.nr) {		/* raw author lines, no commits */
		l.commits = 0;
		for (size_t i = 0; i < l.authors.nr && !error; i++)
			error = gm_strvec_push(&authors, l.authors.v[i]);
	} else {
		for (size_t i = 0; i < l.signatures.nr && !error; i++)
			if (rk->opts->git_chief_penguins ||
			    !gm_rank_is_penguin_line(rk->opts, l.signatures.v[i],
						     strlen(l.signatures.v[i])))
				error = gm_strvec_push(&kept, l.signatures.v[i]);
		if (!error)
			error = dedup_all(rk, &authors, &l.authors, true);
		if (!error)
			error = dedup_all(rk, &once, &kept, true);
	}
	if (!error)
		error = dedup_all(rk, &signers, &once, false);
	if (!error)
		error = assign(rk, facts, "commit_signer", l.commits, &signers);
	if (!error && rk->opts->git_author_roles)
		error = assign(rk, facts, "authored", l.commits, &authors);
	if (!error && rk->opts->git_author_roles && authors.nr == l.nr_stats)
		error = assign_lines(rk, facts, &l, &authors);
out:
	stat_re_release(&re);
	gm_strvec_release(&l.authors);
	gm_strvec_release(&l.signatures);
	free(l.added);
	free(l.deleted);
	gm_strvec_release(&authors);
	gm_strvec_release(&signers);
	gm_strvec_release(&once);
	gm_strvec_release(&kept);
	return error;
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
static bool wants_signoffs(const struct gm_options *o,
			   const struct gm_signers_request *req, size_t i)
{
	const char *path = req->files->v[i];
	size_t len = strlen(path);

	if (!strcmp(path, "&STDIN"))
		return false;
	if (o->git)
		return true;
	return o->git_fallback &&
	       !(len >= 11 && !strcmp(path + len - 11, "MAINTAINERS")) &&
	       !(req->matches && i < req->matches->nr_files &&
		 req->matches->files[i].exact);
}

static int report_walk(struct gm_signers_report *r, struct gm_rank *rk,
		       const struct gm_signers_request *req,
		       struct gm_strvec *paths, size_t *index)
{
	const struct gm_options *o = rk->opts;
	struct gm_signers_options so = { 0, false, NULL, NULL, NULL };
	const char *since = o->git_since ? o->git_since : "1-year-ago";
	int error = 0;

	for (size_t i = 0; i < req->files->nr && !error; i++) {
		index[i] = SIZE_MAX;
		if (!wants_signoffs(o, req, i))
			continue;
		index[i] = paths->nr;
		error = gm_strvec_push(paths, req->files->v[i]);
	}
	if (error || !paths->nr)
		return error;
	if (gm_date_parse(&r->since, since, time(NULL)) < 0)
		return gm_error_set(GM_EUSAGE, "--git-since: %s", gm_error_last());
	so.since = r->since;
	so.all_signature_types = o->git_all_signature_types;
	so.packs = req->packs;
	so.graph = req->graph;
	so.reopen = req->reopen;
	return gm_signers_walk(&r->walk, req->repo, req->start, paths, &so);
}

int gm_signers_collect(struct gm_signers_report **out, struct gm_rank *rk,
		       const struct gm_signers_request *req)
{
	const struct gm_options *o = rk->opts;
	struct gm_blame_request br = {
		req->repo, req->start, req->workdir, req->ranges,
		req->nr_ranges, o->from_filename, o->git_all_signature_types,
	};
	struct gm_blame *blame = NULL;
	struct gm_strvec paths = GM_STRVEC_INIT;
	struct gm_signers_report *r = calloc(1, sizeof(*r));
	size_t *index = calloc(req->files->nr + 1, sizeof(*index));
	int error = 0;

	*out = NULL;
	if (!r || !index) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	if ((error = report_walk(r, rk, req, &paths, index)) < 0 ||
	    (o->git_blame && (error = gm_blame_run(&blame, &br, req->files)) < 0))
		goto out;
	if (r->walk && !(r->facts = calloc(paths.nr, sizeof(*r->facts)))) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < req->files->nr && !error; i++) {
		if (index[i] != SIZE_MAX) {
			error = gm_signers_assign(rk, r->walk, index[i],
						  &r->facts[index[i]]);
			r->nr_facts = index[i] + 1;
		}
		if (!error && o->git_blame && strcmp(req->files->v[i], "&STDIN"))
			error = gm_blame_assign(rk, blame, i);
	}
out:
	gm_blame_free(blame);
	free(index);
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
	gm_signers_free(r->walk);
	free(r);
}
