#include "gm/rank_git.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "gm/buf.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/mailmap.h"
#include "gm/trailer.h"

/* ==================== a file's log (vcs_file_signoffs) ==================== */

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

/* The person of a signature or author line: it runs to the end. */
static const char *person(const char *line)
{
	const char *v;
	size_t len;

	gm_trailer_signature_value(line, strlen(line), &v, &len);
	return v;
}

/* Whether signature or author line `line` counts: no chief penguin's. */
static bool counted(const struct gm_rank *rk, const char *line)
{
	return rk->set->git_chief_penguins ||
	       !gm_rank_is_penguin_line(rk->set, line, strlen(line));
}

/*
 * deduplicate_email() of each line, in order, into `out`; with `extract`
 * of the person of each signature or author line, with `signers` only of
 * the lines that count.
 */
static int dedup_all(struct gm_rank *rk, struct gm_strvec *out,
		     const struct gm_strvec *in, bool extract, bool signers)
{
	struct gm_buf tmp = GM_BUF_INIT;
	int error = 0;

	for (size_t i = 0; i < in->nr && !error; i++)
		if ((!signers || counted(rk, in->v[i])) &&
		    !(error = gm_rank_dedup(rk, &tmp, extract ? person(in->v[i]) :
					    in->v[i])))
			error = gm_strvec_push(out, tmp.ptr);
	gm_buf_release(&tmp);
	return error;
}

/* The per-file lines of vcs_find_signers(): all of the file's commits. */
struct file_lines {
	int commits;
	struct gm_strvec authors, signatures;
	struct { long a, d; } *stats;	/* the matching stat lines */
	size_t nr_stats, alloc_stats;
};

static int push_stat(struct file_lines *l, long a, long d)
{
	if (GM_ARRAY_GROW(l->stats, l->nr_stats, l->alloc_stats) < 0)
		return GM_ERROR;
	l->stats[l->nr_stats].a = a;
	l->stats[l->nr_stats++].d = d;
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
		if (!error)
			error = gm_strvec_push(ids, gm_signers_commit_hex(c, hex));
	}
	gm_buf_release(&line);
	return error;
}

/* The added_lines and removed_lines roles of R-75. */
static int assign_lines(struct gm_rank *rk, struct gm_signers_facts *facts,
			const struct file_lines *l,
			const struct gm_strvec *authors)
{
	struct gm_strvec uniq = GM_STRVEC_INIT, tmp = GM_STRVEC_INIT;
	struct gm_strvec added = GM_STRVEC_INIT, deleted = GM_STRVEC_INIT;
	struct gm_buf who = GM_BUF_INIT;
	long total_a = 0, total_d = 0;
	int error = 0;

	for (size_t i = 0; i < l->nr_stats; i++) {
		total_a += l->stats[i].a;
		total_d += l->stats[i].d;
	}
	for (size_t i = 0; i < authors->nr && !error; i++)
		if (!gm_strvec_contains(&uniq, authors->v[i]))
			error = gm_strvec_push(&uniq, authors->v[i]);
	if (!error)
		error = dedup_all(rk, &tmp, &uniq, false, false);
	gm_strvec_release(&uniq);
	for (size_t i = 0; i < tmp.nr && !error; i++)
		if (!gm_strvec_contains(&uniq, tmp.v[i]))
			error = gm_strvec_push(&uniq, tmp.v[i]);
	for (size_t u = 0; u < uniq.nr && !error; u++) {
		long a = 0, d = 0;

		for (size_t i = 0; i < l->nr_stats && !error; i++) {
			error = gm_rank_dedup(rk, &who, authors->v[i]);
			if (!error && !strcmp(uniq.v[u], who.ptr)) {
				a += l->stats[i].a;
				d += l->stats[i].d;
			}
		}
		for (long k = 0; k < a && !error; k++)
			error = gm_strvec_push(&added, uniq.v[u]);
		for (long k = 0; k < d && !error; k++)
			error = gm_strvec_push(&deleted, uniq.v[u]);
	}
	if (!error)
		error = gm_rank_assign(rk, "added_lines", (int)total_a, &added,
				       GM_KIND_HISTORY, facts);
	if (!error)
		error = gm_rank_assign(rk, "removed_lines", (int)total_d, &deleted,
				       GM_KIND_HISTORY, facts);
	gm_strvec_release(&uniq);
	gm_strvec_release(&tmp);
	gm_strvec_release(&added);
	gm_strvec_release(&deleted);
	gm_buf_release(&who);
	return error;
}

/*
 * vcs_file_signoffs() of the script (R-73..R-75) for file `f` of `s`:
 * the signer, author and line counts, given to rk as the roles
 * commit_signer, authored, added_lines and removed_lines; what was
 * counted into `facts`.
 */
static int add_signoffs(struct gm_rank *rk, const struct gm_signers *s,
			size_t f, struct gm_signers_facts *facts)
{
	const struct gm_signers_file *file = &s->files[f];
	struct file_lines l;
	struct gm_strvec authors = GM_STRVEC_INIT, signers = GM_STRVEC_INIT;
	struct gm_strvec once = GM_STRVEC_INIT;
	struct stat_re re;
	int error;

	memset(&l, 0, sizeof(l));
	memset(facts, 0, sizeof(*facts));
	facts->path = file->path;
	stat_re_init(&re, file->path);
	error = gather(&l, s, file, &re, &facts->commits);
	if (error)
		goto out;
	if (!l.signatures.nr) {		/* raw author lines, no commits */
		l.commits = 0;
		authors = l.authors;	/* taken over */
		memset(&l.authors, 0, sizeof(l.authors));
	} else {
		error = dedup_all(rk, &authors, &l.authors, true, false);
		if (!error)
			error = dedup_all(rk, &once, &l.signatures, true, true);
	}
	if (!error)
		error = dedup_all(rk, &signers, &once, false, false);
	if (!error)
		error = gm_rank_assign(rk, "commit_signer", l.commits, &signers,
				       GM_KIND_HISTORY, facts);
	if (!error && rk->set->git_author_roles)
		error = gm_rank_assign(rk, "authored", l.commits, &authors,
				       GM_KIND_HISTORY, facts);
	if (!error && rk->set->git_author_roles && authors.nr == l.nr_stats)
		error = assign_lines(rk, facts, &l, &authors);
out:
	stat_re_release(&re);
	gm_strvec_release(&l.authors);
	gm_strvec_release(&l.signatures);
	free(l.stats);
	gm_strvec_release(&authors);
	gm_strvec_release(&signers);
	gm_strvec_release(&once);
	return error;
}

/* ==================== a file's blame (vcs_file_blame) ==================== */

/*
 * vcs_find_signers() on `git log -1 <commit>`: the signers of the
 * commit, penguin-filtered, each normalised (its authors too, for the
 * side effects on the tables the script has).
 */
static int commit_signers(struct gm_rank *rk, const struct gm_signers_commit *c,
			  struct gm_strvec *out)
{
	struct gm_strvec unused = GM_STRVEC_INIT;
	int error;

	if (!c->signatures.nr)
		return 0;
	error = dedup_all(rk, &unused, &c->authors, true, false);
	if (!error)
		error = dedup_all(rk, out, &c->signatures, true, true);
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

		if (!c->author || !counted(rk, c->author))
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

/*
 * vcs_file_blame() of the script for file `file` of `b`, its commits
 * read: with --git-blame-signatures the signers of each blamed
 * commit, then "authored lines" (with -f and --rolestats) and "commits",
 * or in patch mode "modified commits", given to `rk`.
 */
static int add_blame(struct gm_rank *rk, const struct gm_blame *b, size_t file)
{
	const struct gm_blame_file *f = gm_blame_file_at(b, file);
	bool from_filename = rk->set->from_filename;
	struct gm_strvec signers = GM_STRVEC_INIT, norm = GM_STRVEC_INIT;
	struct gm_strvec lines = GM_STRVEC_INIT;
	int error = 0;

	if (rk->set->git_blame_signatures)
		for (size_t k = 0; k < f->ids.nr && !error; k++)
			error = commit_signers(rk, &f->commits[k], &signers);
	if (!error && from_filename && rk->set->rolestats)
		error = authored_lines(rk, &f->lines, &f->ids, f->commits,
				       &lines);
	if (!error && lines.nr)
		error = gm_rank_assign(rk, "authored lines", (int)f->lines.nr,
				       &lines, GM_KIND_HISTORY, NULL);
	if (!error)
		error = dedup_all(rk, &norm, &signers, false, false);
	if (!error)
		error = gm_rank_assign(rk, from_filename ? "commits" :
				       "modified commits", (int)f->ids.nr, &norm,
				       GM_KIND_HISTORY, NULL);
	gm_strvec_release(&signers);
	gm_strvec_release(&norm);
	gm_strvec_release(&lines);
	return error;
}

/* ==================== a run's history ==================== */

int gm_rank_add_git(struct gm_rank *rk, struct gm_signers_report *r)
{
	int error = 0;

	for (size_t i = 0; i < r->nr_steps && !error; i++) {
		size_t w = r->steps[i].walked;

		if (w != SIZE_MAX) {
			error = add_signoffs(rk, r->walk, w, &r->facts[w]);
			r->nr_facts = w + 1;
		}
		if (!error && r->steps[i].blamed)
			error = add_blame(rk, r->blame, i);
	}
	return error;
}
