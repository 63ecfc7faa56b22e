#include "gm/activity.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gm/buf.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/ident.h"
#include "gm/match.h"
#include "gm/output.h"
#include "gm/strmap.h"
#include "gm/unowned.h"

/* ==================== what the walk saw ==================== */

/* A commit of the window: ranges of the files and people arrays. */
struct seen_commit {
	int64_t time;		/* committer time */
	size_t files, nr_files;
	size_t people, nr_people;
};

struct seen {
	struct gm_strmap path_ids;	/* path -> 1 + its index in paths */
	size_t *review_lines;		/* per person of the walk: so far */
	size_t nr_review_lines;
	struct gm_strvec paths;		/* every file changed, in order seen */
	size_t *files;			/* indices in paths, per commit */
	size_t nr_files, alloc_files;
	struct seen_person {
		size_t id;		/* index in h->people */
		bool reviewed;		/* a review line in this commit */
	} *people;
	size_t nr_people, alloc_people;
	struct seen_commit *commits;
	size_t nr_commits, alloc_commits;
};

static int seen_path(struct seen *sn, const char *path, size_t *id)
{
	size_t len = strlen(path);
	void *v;

	if (gm_strmap_get(&sn->path_ids, path, len, &v)) {
		*id = (size_t)(uintptr_t)v - 1;
		return 0;
	}
	if (gm_strvec_pushn(&sn->paths, path, len) < 0 ||
	    gm_strmap_put(&sn->path_ids, path, len,
			  (void *)(uintptr_t)sn->paths.nr) < 0)
		return GM_ERROR;
	*id = sn->paths.nr - 1;
	return 0;
}

/* Reviewed-by and Acked-by lines naming `p` in the walk so far. */
static size_t review_lines(const struct gm_history_person *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nr_types; i++)
		if (!strcmp(p->types[i].key, "Reviewed-by") ||
		    !strcmp(p->types[i].key, "Acked-by"))
			n += p->types[i].lines;
	return n;
}

/*
 * Whether the commit just counted gave person `id` of `h` a review line:
 * the walk counts a commit before it is handed over, so its review lines
 * are those added since the last look.
 */
static int seen_review(struct seen *sn, const struct gm_history *h,
		       size_t id, bool *out)
{
	size_t n = review_lines(&h->people[id]);

	if (id >= sn->nr_review_lines) {
		size_t nr = h->nr_people, *v = realloc(sn->review_lines,
						       nr * sizeof(*v));

		if (!v)
			return gm_error_set(GM_ERROR, "out of memory");
		memset(v + sn->nr_review_lines, 0,
		       (nr - sn->nr_review_lines) * sizeof(*v));
		sn->review_lines = v;
		sn->nr_review_lines = nr;
	}
	*out = n > sn->review_lines[id];
	sn->review_lines[id] = n;
	return 0;
}

static int seen_commit(const struct gm_history *h,
		       const struct gm_history_commit *hc, void *payload)
{
	struct seen *sn = payload;
	struct seen_commit *c;
	int error = 0;

	if (GM_ARRAY_GROW(sn->commits, sn->nr_commits, sn->alloc_commits) < 0)
		return GM_ERROR;
	c = &sn->commits[sn->nr_commits++];
	c->time = hc->time;
	c->files = sn->nr_files;
	c->nr_files = hc->nr_files;
	c->people = sn->nr_people;
	c->nr_people = hc->nr_people;
	for (size_t i = 0; i < hc->nr_files && !error; i++) {
		if (GM_ARRAY_GROW(sn->files, sn->nr_files, sn->alloc_files) < 0)
			return GM_ERROR;
		error = seen_path(sn, hc->files[i], &sn->files[sn->nr_files++]);
	}
	for (size_t i = 0; i < hc->nr_people && !error; i++) {
		if (GM_ARRAY_GROW(sn->people, sn->nr_people,
				  sn->alloc_people) < 0)
			return GM_ERROR;
		sn->people[sn->nr_people].id = hc->people[i];
		error = seen_review(sn, h, hc->people[i],
				    &sn->people[sn->nr_people++].reviewed);
	}
	return error;
}

static void seen_release(struct seen *sn)
{
	gm_strmap_release(&sn->path_ids);
	gm_strvec_release(&sn->paths);
	free(sn->files);
	free(sn->people);
	free(sn->review_lines);
	free(sn->commits);
}

/* ==================== the sections' people ==================== */

/* The identity of `name`/`email` after the mailmap: its address's key. */
static int identity_key(struct gm_strmap *keys, git_mailmap *mm,
			const char *name, const char *email, bool add,
			size_t *key)
{
	const char *rname = name, *remail = email;
	struct gm_buf lc = GM_BUF_INIT;
	void *v;
	int error = 0;

	*key = SIZE_MAX;
	if (mm && (error = gm_ident_resolve(mm, &rname, &remail)) < 0)
		return error;
	if ((error = gm_buf_set_lower(&lc, remail)) < 0)
		goto out;
	if (gm_strmap_get(keys, lc.ptr, lc.len, &v))
		*key = (size_t)(uintptr_t)v - 1;
	else if (add && (error = gm_strmap_put(keys, lc.ptr, lc.len,
			 (void *)(uintptr_t)(keys->nr + 1))) == 0)
		*key = keys->nr - 1;
out:
	gm_buf_release(&lc);
	return error;
}

static int person_add(struct gm_activity_section *as, struct gm_strmap *keys,
		      git_mailmap *mm, const char *value, bool reviewer)
{
	struct gm_buf name = GM_BUF_INIT, addr = GM_BUF_INIT;
	struct gm_activity_person *p;
	size_t key;
	int error;

	if ((error = gm_email_parse(&name, &addr, value)) < 0 ||
	    !gm_email_address_valid(addr.ptr) ||
	    !gm_email_name_valid(name.ptr) ||
	    (error = identity_key(keys, mm, name.ptr, addr.ptr, true,
				  &key)) < 0)
		goto out;
	gm_email_unquote(&name);
	for (size_t i = 0; i < as->nr_people; i++)
		if (as->people[i].key == key)
			goto out;	/* once per section, its first role */
	if ((error = GM_ARRAY_GROW(as->people, as->nr_people,
				   as->alloc_people)) < 0)
		goto out;
	p = memset(&as->people[as->nr_people], 0, sizeof(*p));
	p->reviewer = reviewer;
	p->last = INT64_MIN;
	p->key = key;
	p->name = gm_buf_detach(&name, NULL);
	p->email = gm_buf_detach(&addr, NULL);
	as->nr_people++;
	if (!p->name || !p->email)
		error = gm_error_set(GM_ERROR, "out of memory");
out:
	gm_buf_release(&name);
	gm_buf_release(&addr);
	return error;
}

/* The people of an M:/R: value: one address, or a list of them. */
static int people_add(struct gm_activity_section *as, struct gm_strmap *keys,
		      git_mailmap *mm, const char *value, bool reviewer)
{
	struct gm_strvec list = GM_STRVEC_INIT;
	int error = 0;

	if (!gm_email_rfc822_valid(value) &&
	    (error = gm_email_rfc822_list(&list, value)) < 0)
		return error;
	if (!list.nr)
		error = person_add(as, keys, mm, value, reviewer);
	for (size_t i = 0; i < list.nr && !error; i++)
		error = person_add(as, keys, mm, list.v[i], reviewer);
	gm_strvec_release(&list);
	return error;
}

static int sections_init(struct gm_activity *a, const struct gm_maintainers *m,
			 const bool *wanted, struct gm_strmap *keys,
			 git_mailmap *mm)
{
	int error = 0;

	a->sections = calloc(m->nr_sections ? m->nr_sections : 1,
			     sizeof(*a->sections));
	if (!a->sections)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t s = 0; s < m->nr_sections && !error; s++) {
		const struct gm_section *sec = &m->sections[s];
		struct gm_activity_section *as = &a->sections[a->nr_sections];

		if (wanted && !wanted[s])
			continue;
		as->section = s;
		a->nr_sections++;
		for (size_t k = sec->start + 1; k < sec->end && !error; k++) {
			const struct gm_mline *ml = &m->lines[k];

			if (ml->tag == 'M' || ml->tag == 'R')
				error = people_add(as, keys, mm, ml->value,
						   ml->tag == 'R');
		}
	}
	return error;
}

/* ==================== counting ==================== */

struct tally {
	struct gm_activity *a;
	size_t *slot;		/* per section of the model: index in a */
	size_t *stamp;		/* per section of the model: 1 + last commit */
	size_t *key_of;		/* per person of the walk: identity */
};

/* The people of the commit `sc` that are the section's, counted. */
static void tally_people(const struct tally *t, const struct seen *sn,
			 const struct seen_commit *sc,
			 struct gm_activity_section *as)
{
	for (size_t j = sc->people; j < sc->people + sc->nr_people; j++) {
		size_t key = t->key_of[sn->people[j].id];

		for (size_t i = 0; key != SIZE_MAX && i < as->nr_people; i++) {
			struct gm_activity_person *p = &as->people[i];

			if (p->key != key)
				continue;
			p->commits++;
			p->reviews += sn->people[j].reviewed;
			if (sc->time > p->last)
				p->last = sc->time;
		}
	}
}

/* Commit `c`: once for each wanted section that claims one of its files. */
static void tally_commit(struct tally *t, const struct seen *sn,
			 const struct gm_matches *o, size_t c)
{
	const struct seen_commit *sc = &sn->commits[c];

	for (size_t f = sc->files; f < sc->files + sc->nr_files; f++) {
		const struct gm_match_file *mf = &o->files[sn->files[f]];

		for (size_t k = 0; k < mf->nr_sections; k++) {
			size_t s = mf->sections[k];
			struct gm_activity_section *as;

			if (t->stamp[s] == c + 1 || t->slot[s] == SIZE_MAX)
				continue;
			t->stamp[s] = c + 1;
			as = &t->a->sections[t->slot[s]];
			as->commits++;
			tally_people(t, sn, sc, as);
		}
	}
}

static int tally_all(struct gm_activity *a, const struct gm_maintainers *m,
		     const struct gm_history *h, const struct seen *sn,
		     const struct gm_matches *o, struct gm_strmap *keys)
{
	struct tally t = { a, NULL, NULL, NULL };
	size_t ns = m->nr_sections ? m->nr_sections : 1;
	int error = 0;

	t.slot = malloc(ns * sizeof(*t.slot));
	t.stamp = calloc(ns, sizeof(*t.stamp));
	t.key_of = malloc((h->nr_people ? h->nr_people : 1) *
			  sizeof(*t.key_of));
	if (!t.slot || !t.stamp || !t.key_of) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	memset(t.slot, 0xff, ns * sizeof(*t.slot));	/* SIZE_MAX: none */
	for (size_t i = 0; i < a->nr_sections; i++)
		t.slot[a->sections[i].section] = i;
	/* the walk's identities are mapped already: no second mailmap */
	for (size_t i = 0; i < h->nr_people && !error; i++)
		error = identity_key(keys, NULL, h->people[i].name,
				     h->people[i].email, false, &t.key_of[i]);
	for (size_t c = 0; c < sn->nr_commits && !error; c++)
		tally_commit(&t, sn, o, c);
out:
	free(t.slot);
	free(t.stamp);
	free(t.key_of);
	return error;
}

int gm_activity_count(struct gm_activity **out, git_repository *repo,
		      const git_oid *start, const struct gm_maintainers *m,
		      const struct gm_unowned_opts *uo, const bool *wanted,
		      const struct gm_history_options *ho)
{
	struct gm_activity *a = calloc(1, sizeof(*a));
	struct gm_strmap keys = GM_STRMAP_INIT;
	struct gm_history *h = NULL;
	struct gm_matches *o = NULL;
	struct seen sn;
	int error;

	memset(&sn, 0, sizeof(sn));
	if (!a)
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = sections_init(a, m, wanted, &keys, ho->mailmap)) < 0 ||
	    (error = gm_history_each(&h, repo, start, ho, seen_commit,
				     &sn)) < 0 ||
	    (error = gm_unowned_match(&o, m, uo,
				      (const char *const *)sn.paths.v,
				      sn.paths.nr)) < 0 ||
	    (error = tally_all(a, m, h, &sn, o, &keys)) < 0)
		goto out;
	a->commits = h->commits;
	a->shallow = h->shallow;
	a->unreadable = h->unreadable;
out:
	gm_matches_free(o);
	seen_release(&sn);
	gm_history_free(h);
	gm_strmap_release(&keys);
	if (error) {
		gm_activity_free(a);
		return error;
	}
	*out = a;
	return 0;
}

void gm_activity_free(struct gm_activity *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nr_sections; i++) {
		for (size_t k = 0; k < a->sections[i].nr_people; k++) {
			free(a->sections[i].people[k].name);
			free(a->sections[i].people[k].email);
		}
		free(a->sections[i].people);
	}
	free(a->sections);
	free(a);
}

bool gm_activity_section_idle(const struct gm_activity_section *as)
{
	if (!as->commits)
		return false;
	for (size_t i = 0; i < as->nr_people; i++)
		if (!as->people[i].reviewer && as->people[i].commits)
			return false;
	return true;
}

/* ==================== output ==================== */

/*
 * Text from MAINTAINERS, control characters as \xHH, to `f` (NULL: only
 * measured). @return the columns it takes (UTF-8: one a character).
 */
static size_t put_text(FILE *f, const char *s)
{
	size_t w = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		bool control = *p < ' ' || *p == 0x7f;

		w += control ? 4 : (*p & 0xc0) != 0x80;
		if (f && control)
			fprintf(f, "\\x%02x", *p);
		else if (f)
			fputc(*p, f);
	}
	return w;
}

/* `s` and spaces up to `width` columns. */
static void put_cell(FILE *f, const char *s, size_t width)
{
	for (size_t w = put_text(f, s); w < width; w++)
		fputc(' ', f);
}

void gm_activity_put_date(FILE *f, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[32];

	if (t == INT64_MIN)
		fputc('-', f);
	else if (gmtime_r(&tt, &tm) &&
		 strftime(buf, sizeof(buf), "%Y-%m-%d", &tm))
		fputs(buf, f);
	else
		fprintf(f, "@%lld", (long long)t);
}

/* "Name <address>", or "<address>" without a name, into `b`. */
static const char *person_text(struct gm_buf *b,
			       const struct gm_activity_person *p)
{
	gm_buf_reset(b);
	if (gm_buf_printf(b, "%s%s<%s>", p->name, *p->name ? " " : "",
			  p->email) < 0)
		return "";
	return b->ptr;
}

/* Column widths of the table: section, status, person; at most `max`. */
struct widths {
	size_t name, status, person;
};

/* Wider cells overflow their column (the rest of their row moves). */
static size_t widest(size_t w, size_t cell, size_t max)
{
	return cell > w ? cell > max ? max : cell : w;
}

static void table_widths(struct widths *w, const struct gm_activity *a,
			 const struct gm_maintainers *m)
{
	struct gm_buf b = GM_BUF_INIT;

	w->name = strlen("SECTION");
	w->status = strlen("STATUS");
	w->person = strlen("PERSON");
	for (size_t i = 0; i < a->nr_sections; i++) {
		const struct gm_activity_section *as = &a->sections[i];
		const struct gm_section *sec = &m->sections[as->section];

		w->name = widest(w->name, put_text(NULL, sec->name), 36);
		if (sec->status)
			w->status = widest(w->status,
					   put_text(NULL, sec->status), 14);
		for (size_t k = 0; k < as->nr_people; k++)
			w->person = widest(w->person, put_text(NULL,
				person_text(&b, &as->people[k])), 48);
	}
	gm_buf_release(&b);
}

/* A section's rows: its figures, then one row per M:/R: person. */
static void write_rows(FILE *f, const struct gm_activity_section *as,
		       const struct gm_maintainers *m, const struct widths *w,
		       struct gm_buf *b)
{
	const struct gm_section *sec = &m->sections[as->section];

	fputs(gm_activity_section_idle(as) ? "! " : "  ", f);
	put_cell(f, sec->name, w->name);
	fputs("  ", f);
	put_cell(f, sec->status ? sec->status : "-", w->status);
	fprintf(f, "  %7zu", as->commits);
	for (size_t k = 0; k < as->nr_people || !k; k++) {
		const struct gm_activity_person *p = &as->people[k];

		if (k)
			fprintf(f, "%*s", (int)(w->name + w->status + 13), "");
		if (!as->nr_people) {
			fputs("  -\n", f);
			break;
		}
		fputs(p->reviewer ? "  R     " : "  M     ", f);
		put_cell(f, person_text(b, p), w->person);
		fprintf(f, "  %7zu  %7zu  ", p->commits, p->reviews);
		gm_activity_put_date(f, p->last);
		fputc('\n', f);
	}
}

static void write_table(FILE *f, const struct gm_activity *a,
			const struct gm_maintainers *m, int64_t since,
			int64_t until)
{
	struct gm_buf b = GM_BUF_INIT;
	struct widths w;

	table_widths(&w, a, m);
	fputs("Commits from ", f);
	gm_activity_put_date(f, since);
	fputs(" to ", f);
	if (until == INT64_MAX)
		fputs("now", f);
	else
		gm_activity_put_date(f, until);
	fprintf(f, ": %zu change a file\n\n  ", a->commits);
	put_cell(f, "SECTION", w.name);
	fputs("  ", f);
	put_cell(f, "STATUS", w.status);
	fputs("  COMMITS  ROLE  ", f);
	put_cell(f, "PERSON", w.person);
	fputs("  COMMITS  REVIEWS  LAST\n", f);
	for (int idle = 1; idle >= 0; idle--)
		for (size_t i = 0; i < a->nr_sections; i++)
			if (gm_activity_section_idle(&a->sections[i]) ==
			    (idle == 1))
				write_rows(f, &a->sections[i], m, &w, &b);
	fputs("\n!        idle: its files changed, in commits none of its "
	      "M: people wrote or signed\n"
	      "COMMITS  a section's: commits changing its files; a person's: "
	      "those of them\n"
	      "         they wrote or are named in on a *-by: line\n"
	      "REVIEWS  of those, the ones with their Reviewed-by or Acked-by\n"
	      "LAST     the newest of them (committer date, UTC)\n"
	      "For scripts: --format=json (stable).\n", f);
	gm_buf_release(&b);
}

static void write_person(FILE *f, const struct gm_activity_person *p)
{
	fputs("{\"name\": ", f);
	gm_output_json_put(f, p->name);
	fputs(", \"email\": ", f);
	gm_output_json_put(f, p->email);
	fprintf(f, ", \"role\": \"%s\", \"commits\": %zu, \"reviews\": %zu, "
		"\"last\": ", p->reviewer ? "reviewer" : "maintainer",
		p->commits, p->reviews);
	if (p->commits)
		fprintf(f, "%lld}", (long long)p->last);
	else
		fputs("null}", f);
}

static void write_json(FILE *f, const struct gm_activity *a,
		       const struct gm_maintainers *m, const char *rev,
		       int64_t since, int64_t until)
{
	fputs("{\n  \"version\": 1,\n  \"rev\": ", f);
	gm_output_json_put(f, rev);
	fprintf(f, ",\n  \"since\": %lld,\n  \"until\": ", (long long)since);
	if (until == INT64_MAX)
		fputs("null", f);
	else
		fprintf(f, "%lld", (long long)until);
	fprintf(f, ",\n  \"commits\": %zu,\n  \"sections\": [", a->commits);
	for (size_t i = 0; i < a->nr_sections; i++) {
		const struct gm_activity_section *as = &a->sections[i];
		const struct gm_section *sec = &m->sections[as->section];

		fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
		gm_output_json_put(f, sec->name);
		fputs(", \"status\": ", f);
		if (sec->status)
			gm_output_json_put(f, sec->status);
		else
			fputs("null", f);
		fprintf(f, ", \"commits\": %zu, \"people\": [", as->commits);
		for (size_t k = 0; k < as->nr_people; k++) {
			if (k)
				fputs(", ", f);
			write_person(f, &as->people[k]);
		}
		fputs("]}", f);
	}
	fputs(a->nr_sections ? "\n  ]\n}\n" : "]\n}\n", f);
}

int gm_activity_write(FILE *f, const struct gm_activity *a,
		      const struct gm_maintainers *m, const char *rev,
		      int64_t since, int64_t until, bool json)
{
	if (json)
		write_json(f, a, m, rev, since, until);
	else
		write_table(f, a, m, since, until);
	if (ferror(f))
		return gm_error_set(GM_ERROR, "write error: %s",
				    strerror(errno));
	return 0;
}

/* ==================== the mode ==================== */

/* Into `*wanted`: the sections that claim a file at or below `args`. */
static int covering(bool **wanted, const struct gm_unowned_opts *uo,
		    struct gm_repo *r, const struct gm_maintainers *m,
		    const struct gm_strvec *args)
{
	struct gm_strvec all = GM_STRVEC_INIT;
	struct gm_matches *mt = NULL;
	const char **files = NULL;
	size_t nr = 0;
	int error;

	*wanted = calloc(m->nr_sections ? m->nr_sections : 1, sizeof(**wanted));
	if (!*wanted)
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = gm_repo_files(r, &all)) == 0 &&
	    (error = gm_unowned_select(&files, &nr, r, &all, args)) == 0 &&
	    (error = gm_unowned_match(&mt, m, uo, files, nr)) == 0)
		for (size_t i = 0; i < nr; i++)
			for (size_t k = 0; k < mt->files[i].nr_sections; k++)
				(*wanted)[mt->files[i].sections[k]] = true;
	gm_matches_free(mt);
	free(files);
	gm_strvec_release(&all);
	return error;
}

static int add_warnings(struct gm_strvec *warnings,
			const struct gm_activity *a)
{
	int error = 0;

	if (a->shallow)
		error = gm_strvec_push(warnings, "history stops at the "
					       "shallow clone boundary");
	if (!error && a->unreadable)
		error = gm_strvec_pushf(warnings, "%zu objects of the history "
					"could not be read", a->unreadable);
	return error;
}

int gm_activity_read(struct gm_activity **out, int64_t *since,
		     int64_t *until, struct gm_strvec *warnings,
		     struct gm_repo *r, const struct gm_maintainers *m,
		     const struct gm_activity_settings *s)
{
	struct gm_history_options ho = GM_HISTORY_OPTIONS_INIT;
	struct gm_unowned_opts uo = GM_UNOWNED_OPTS_INIT;
	git_mailmap *mm = NULL;
	bool *wanted = NULL;
	int error;

	*out = NULL;
	uo.isdir = gm_unowned_isdir;
	uo.payload = r;
	uo.pattern_depth = s->pattern_depth;
	if ((error = gm_history_window(&ho.since, &ho.until, s->since,
				       s->until, "12.months.ago")) < 0 ||
	    (s->args->nr &&
	     (error = covering(&wanted, &uo, r, m, s->args)) < 0) ||
	    (s->mailmap && (error = gm_ident_mailmap(&mm, gm_repo_git(r),
						       gm_repo_tree(r))) < 0))
		goto out;
	ho.mailmap = mm;
	*since = ho.since;
	*until = ho.until;
	if ((error = gm_repo_graph(&ho.graph, r)) < 0 ||
	    (error = gm_repo_packs(&ho.packs, r)) < 0 ||
	    (error = gm_activity_count(out, gm_repo_git(r),
				       gm_repo_commit_id(r), m, &uo, wanted,
				       &ho)) < 0)
		goto out;
	error = add_warnings(warnings, *out);
out:
	gm_ident_mailmap_free(mm);
	free(wanted);
	return error;
}

int gm_activity_run(FILE *out, struct gm_strvec *warnings, struct gm_repo *r,
		    const struct gm_maintainers *m,
		    const struct gm_activity_settings *s)
{
	struct gm_activity *a = NULL;
	char rev[GM_REPO_HEX_SIZE];
	int64_t since, until;
	int error = gm_activity_read(&a, &since, &until, warnings, r, m, s);

	if (!error) {
		gm_repo_commit_hex(r, rev);
		error = gm_activity_write(out, a, m, rev, since, until,
					  s->json);
	}
	gm_activity_free(a);
	return error;
}
