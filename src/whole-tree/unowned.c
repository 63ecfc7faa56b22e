#include "gm/unowned.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/needles.h"
#include "gm/output.h"
#include "gm/pattern.h"
#include "gm/strmap.h"

/* ==================== claims ==================== */

/*
 * The length of the text that every path the glob matches starts with:
 * the glob up to its first '*' or '?', or the first character that the
 * converted regex does not take literally. A quantifier after it
 * may make the last literal optional; an alternation anywhere may make
 * the whole prefix optional.
 */
static size_t glob_prefix(const struct gm_glob *g)
{
	static const char stop[] = "*?[](){}+^$|\\\n";
	size_t i = 0;

	if (!g->plain && memchr(g->glob, '|', g->len))
		return 0;
	while (i < g->len && !strchr(stop, g->glob[i]))
		i++;
	if (!g->plain && i < g->len && i &&
	    (g->glob[i] == '+' || g->glob[i] == '{'))
		i--;
	return i;
}

/* The first of files[0..nr) that is not below `prefix` in byte order. */
static size_t lower_bound(const char *const *files, size_t nr,
			  const char *prefix, size_t len)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strncmp(files[mid], prefix, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Files an N: regex may match: its literals are in them (gm_needles). */
struct file_list {
	size_t *v;
	size_t nr, alloc;
};

struct claims {
	const struct gm_maintainers *m;
	struct gm_pattern_ctx pc;	/* match data, the directory test */
	struct gm_glob_state *globs;	/* per m->globs[i] */
	struct gm_regex_state *regexes;	/* per m->regexes[i] */
	const char *const *files;
	size_t nr;
	size_t *lens;		/* per file: strlen */
	size_t *slashes;	/* per file: '/' in it */
	size_t *excluded;	/* per file: 1 + the last section an X: hit */
	size_t *claimed;	/* per file: 1 + the last section reported */
	unsigned char *settled;	/* per file: the callback is done with it */
	size_t *regex_of;	/* per line: its N: regex's index or SIZE_MAX */
	size_t *regex_line;	/* per N: regex: its line */
	struct file_list *maybe;	/* per N: regex: the files to try */
	size_t nr_regexes;
	int pattern_depth;
	bool skip_catch_all;	/* the catch-alls' two lines not tried */
	gm_unowned_claim_fn fn;
	void *payload;
};

/* The range [*lo, *hi) of files the glob can match. */
static void glob_range(const struct claims *c, const struct gm_glob *g,
		       size_t *lo, size_t *hi)
{
	size_t n = glob_prefix(g);

	*lo = 0;
	*hi = c->nr;
	if (!n)
		return;
	*lo = lower_bound(c->files, c->nr, g->glob, n);
	for (*hi = *lo; *hi < c->nr && !strncmp(c->files[*hi], g->glob, n);
	     ++*hi)
		;
}

/*
 * Whether the glob matches file `i`. Only a literal value can name a
 * directory; any other without a final '/' or "**" matches only
 * paths with as many slashes, which is checked first.
 */
static bool glob_hit(struct claims *c, const struct gm_glob *g, size_t i)
{
	if (!g->literal && !g->anydepth && c->slashes[i] != g->slashes &&
	    !(g->len && g->glob[g->len - 1] == '/'))
		return false;
	return gm_glob_matches(g, &c->globs[g - c->m->globs], &c->pc,
			       c->files[i], c->lens[i], c->slashes[i]);
}

static bool regex_hit(struct claims *c, const struct gm_regex *re, size_t i)
{
	return gm_regex_matches(re, &c->regexes[re - c->m->regexes], &c->pc,
				c->files[i], c->lens[i], false);
}

/* Whether file `i` is still to be tried for section `s`. */
static bool open_for(const struct claims *c, size_t s, size_t i)
{
	return !c->settled[i] && c->claimed[i] != s + 1 &&
	       c->excluded[i] != s + 1;
}

/* Report that section `s` claims file `i`. */
static int claim(struct claims *c, size_t s, size_t i)
{
	int rc;

	c->claimed[i] = s + 1;
	rc = c->fn(s, i, c->payload);
	if (rc > 0)
		c->settled[i] = 1;
	return rc < 0 ? rc : 0;
}

static bool line_is(const struct gm_mline *ml, const char *value)
{
	return ml->len == strlen(value) && !memcmp(ml->value, value, ml->len);
}

/* Whether the line is one of the two F: lines that make a catch-all. */
static bool is_catch_all_line(const struct gm_mline *ml)
{
	return ml->tag == 'F' && (line_is(ml, "*") || line_is(ml, "*/"));
}

/* R-40 for one section on every file: its X: lines first. */
static int claims_section(struct claims *c, size_t s)
{
	const struct gm_section *sec = &c->m->sections[s];
	bool skip = c->skip_catch_all && gm_unowned_is_catch_all(c->m, s);
	size_t lo, hi;
	int error = 0;

	for (size_t k = sec->start; k < sec->end; k++) {
		const struct gm_mline *ml = &c->m->lines[k];

		if (ml->tag != 'X')
			continue;
		glob_range(c, ml->glob, &lo, &hi);
		for (size_t i = lo; i < hi; i++)
			if (glob_hit(c, ml->glob, i))
				c->excluded[i] = s + 1;
	}
	for (size_t k = sec->start; k < sec->end && !error; k++) {
		const struct gm_mline *ml = &c->m->lines[k];
		int pd;

		if (ml->tag == 'N') {
			const struct file_list *l = &c->maybe[c->regex_of[k]];

			for (size_t j = 0; j < l->nr && !error; j++) {
				size_t i = l->v[j];

				if (open_for(c, s, i) &&
				    regex_hit(c, ml->regex, i))
					error = claim(c, s, i);
			}
			continue;
		}
		if (ml->tag != 'F' || (skip && is_catch_all_line(ml)))
			continue;
		pd = gm_glob_depth(ml->glob);
		glob_range(c, ml->glob, &lo, &hi);
		for (size_t i = lo; i < hi && !error; i++) {
			if (!open_for(c, s, i))
				continue;
			if (c->pattern_depth &&
			    (int)c->slashes[i] - pd >= c->pattern_depth)
				continue;
			if (glob_hit(c, ml->glob, i))
				error = claim(c, s, i);
		}
	}
	return error;
}

static int list_add(struct file_list *l, size_t i)
{
	if (GM_ARRAY_GROW(l->v, l->nr, l->alloc) < 0)
		return GM_ERROR;
	l->v[l->nr++] = i;
	return 0;
}

/*
 * For each N: line of a wanted section, the files that hold one of the
 * literals every match of its regex holds (all files if it has none):
 * one scan of each path for all of them.
 */
static int claims_regexes(struct claims *c, const bool *wanted)
{
	const struct gm_maintainers *m = c->m;
	struct gm_needles *needles = NULL;
	unsigned char *found = NULL;
	int error;

	c->regex_of = malloc((m->nr_lines ? m->nr_lines : 1) *
			     sizeof(*c->regex_of));
	c->regex_line = malloc((m->nr_lines ? m->nr_lines : 1) *
			       sizeof(*c->regex_line));
	if (!c->regex_of || !c->regex_line)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t k = 0; k < m->nr_lines; k++)
		c->regex_of[k] = SIZE_MAX;
	for (size_t s = 0; s < m->nr_sections; s++) {
		const struct gm_section *sec = &m->sections[s];

		for (size_t k = sec->start; k < sec->end; k++) {
			if (m->lines[k].tag != 'N' || (wanted && !wanted[s]) ||
			    c->regex_of[k] != SIZE_MAX)
				continue;
			c->regex_line[c->nr_regexes] = k;
			c->regex_of[k] = c->nr_regexes++;
		}
	}
	if (!c->nr_regexes)
		return 0;
	c->maybe = calloc(c->nr_regexes, sizeof(*c->maybe));
	found = malloc(c->nr_regexes);
	if (!c->maybe || !found) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	error = gm_needles_new(&needles);
	for (size_t r = 0; r < c->nr_regexes && !error; r++) {
		const struct gm_regex *re = m->lines[c->regex_line[r]].regex;

		for (size_t j = 0; j < re->required.nr && !error; j++)
			error = gm_needles_add(needles, re->required.v[j],
					       strlen(re->required.v[j]),
					       re->caseless, r);
	}
	for (size_t i = 0; i < c->nr && !error; i++) {
		memset(found, 0, c->nr_regexes);
		gm_needles_scan(needles, c->files[i], c->lens[i], found);
		for (size_t r = 0; r < c->nr_regexes && !error; r++)
			if (found[r] ||
			    !m->lines[c->regex_line[r]].regex->required.nr)
				error = list_add(&c->maybe[r], i);
	}
out:
	gm_needles_free(needles);
	free(found);
	return error;
}

/* The per-file arrays and the patterns' states for `c`. */
static int claims_init(struct claims *c, const struct gm_maintainers *m,
		       const struct gm_unowned_opts *o,
		       const char *const *files, size_t nr)
{
	size_t n = nr ? nr : 1;

	memset(c, 0, sizeof(*c));
	c->m = m;
	c->files = files;
	c->nr = nr;
	c->pattern_depth = o->pattern_depth;
	c->skip_catch_all = o->skip_catch_all;
	if (gm_pattern_ctx_init(&c->pc, o->isdir, o->payload) < 0)
		return GM_ERROR;
	c->globs = calloc(m->nr_globs ? m->nr_globs : 1, sizeof(*c->globs));
	c->regexes = calloc(m->nr_regexes ? m->nr_regexes : 1,
			    sizeof(*c->regexes));
	c->lens = malloc(n * sizeof(*c->lens));
	c->slashes = malloc(n * sizeof(*c->slashes));
	c->excluded = calloc(n, sizeof(*c->excluded));
	c->claimed = calloc(n, sizeof(*c->claimed));
	c->settled = calloc(n, 1);
	if (!c->globs || !c->regexes || !c->lens || !c->slashes ||
	    !c->excluded || !c->claimed || !c->settled)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < nr; i++) {
		c->lens[i] = strlen(files[i]);
		c->slashes[i] = gm_pattern_slashes(files[i], c->lens[i]);
	}
	return 0;
}

static void claims_release(struct claims *c)
{
	for (size_t i = 0; c->globs && i < c->m->nr_globs; i++)
		gm_glob_state_release(&c->globs[i]);
	for (size_t i = 0; c->regexes && i < c->m->nr_regexes; i++)
		gm_regex_state_release(&c->regexes[i]);
	for (size_t r = 0; c->maybe && r < c->nr_regexes; r++)
		free(c->maybe[r].v);
	free(c->globs);
	free(c->regexes);
	free(c->maybe);
	free(c->regex_of);
	free(c->regex_line);
	free(c->lens);
	free(c->slashes);
	free(c->excluded);
	free(c->claimed);
	free(c->settled);
	gm_pattern_ctx_release(&c->pc);
}

int gm_unowned_claims(const struct gm_maintainers *m,
		      const struct gm_unowned_opts *o,
		      const char *const *files, size_t nr,
		      gm_unowned_claim_fn fn, void *payload)
{
	struct claims c;
	int error = claims_init(&c, m, o, files, nr);

	c.fn = fn;
	c.payload = payload;
	if (!error)
		error = claims_regexes(&c, o->wanted);
	for (size_t s = 0; s < m->nr_sections && !error; s++)
		if (!o->wanted || o->wanted[s])
			error = claims_section(&c, s);
	claims_release(&c);
	return error;
}

bool gm_unowned_is_catch_all(const struct gm_maintainers *m, size_t s)
{
	const struct gm_section *sec = &m->sections[s];
	bool star = false, star_slash = false;

	for (size_t k = sec->start; k < sec->end; k++) {
		const struct gm_mline *ml = &m->lines[k];

		if (ml->tag != 'F')
			continue;
		star |= line_is(ml, "*");
		star_slash |= line_is(ml, "*/");
	}
	return star && star_slash;
}

static int mark_owned(size_t section, size_t file, void *payload)
{
	unsigned char *owned = payload;

	(void)section;
	owned[file] = 1;
	return 1;	/* one claim is enough */
}

int gm_unowned_mark(unsigned char *owned, const struct gm_maintainers *m,
		    const struct gm_unowned_opts *o, const char *const *files,
		    size_t nr)
{
	struct gm_unowned_opts mine = *o;
	bool *wanted = calloc(m->nr_sections ? m->nr_sections : 1,
			      sizeof(*wanted));
	int error;

	if (!wanted)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t s = 0; s < m->nr_sections; s++)
		wanted[s] = m->sections[s].has_maintainer;
	mine.wanted = wanted;
	mine.skip_catch_all = true;
	memset(owned, 0, nr);
	error = gm_unowned_claims(m, &mine, files, nr, mark_owned, owned);
	free(wanted);
	return error;
}

/* ==================== output ==================== */

/* A path as git quotes it (gm_buf_put_path()), through `tmp`. */
static int put_path(FILE *f, struct gm_buf *tmp, const char *path, bool high)
{
	int error;

	gm_buf_reset(tmp);
	if ((error = gm_buf_put_path(tmp, path, high)) == 0)
		fwrite(tmp->ptr, 1, tmp->len, f);
	return error;
}

/* ==================== directories ==================== */

/* The files of files[0..nr) below the directory `dir` ("d/"): [*lo, *hi). */
static void dir_range(const char *const *files, size_t nr, struct gm_buf *dir,
		      size_t *lo, size_t *hi)
{
	*lo = lower_bound(files, nr, dir->ptr, dir->len);
	dir->ptr[dir->len - 1] = '/' + 1;	/* the first name past them */
	*hi = lower_bound(files, nr, dir->ptr, dir->len);
	dir->ptr[dir->len - 1] = '/';
}

/*
 * Where the unowned file `i` is summed, into `dir`: the shallowest
 * directory all of whose files are unowned, else its own directory ("" at
 * the top); `*all` its files, `*whole` whether all are unowned. `owned_before`
 * counts the owned files before each index.
 */
static int dir_of(struct gm_buf *dir, size_t *all, bool *whole,
		  const char *const *files, size_t nr, const size_t *owned_before,
		  size_t i)
{
	const char *f = files[i], *last = strrchr(f, '/');
	size_t lo = 0, hi = nr;

	for (const char *p = strchr(f, '/'); p; p = strchr(p + 1, '/')) {
		gm_buf_reset(dir);
		if (gm_buf_put(dir, f, (size_t)(p - f) + 1) < 0)
			return GM_ERROR;
		dir_range(files, nr, dir, &lo, &hi);
		if (owned_before[hi] == owned_before[lo])
			break;
	}
	*whole = last && owned_before[hi] == owned_before[lo];
	if (*whole) {
		*all = hi - lo;
		return 0;
	}
	gm_buf_reset(dir);
	if (last && gm_buf_put(dir, f, (size_t)(last - f) + 1) < 0)
		return GM_ERROR;
	if (last)
		dir_range(files, nr, dir, &lo, &hi);
	*all = hi - lo;
	return 0;
}

static int dir_cmp(const void *a, const void *b)
{
	const struct gm_unowned_dir *x = a, *y = b;

	if (x->unowned != y->unowned)
		return x->unowned > y->unowned ? -1 : 1;
	return strcmp(x->path, y->path);
}

static int dirs_add(struct gm_unowned_dirs *d, struct gm_strmap *index,
		    const struct gm_buf *dir, size_t all, bool whole)
{
	struct gm_unowned_dir *e;
	void *v;

	if (gm_strmap_get(index, dir->ptr, dir->len, &v)) {
		d->v[(uintptr_t)v - 1].unowned++;
		return 0;
	}
	if (GM_ARRAY_GROW(d->v, d->nr, d->alloc) < 0)
		return GM_ERROR;
	e = &d->v[d->nr];
	e->unowned = 1;
	e->files = all;
	e->whole = whole;
	if (!(e->path = strdup(dir->ptr)))
		return gm_error_set(GM_ERROR, "out of memory");
	d->nr++;
	return gm_strmap_put(index, dir->ptr, dir->len,
			     (void *)(uintptr_t)d->nr);
}

int gm_unowned_dirs(struct gm_unowned_dirs *out, const char *const *files,
		    size_t nr, const unsigned char *owned)
{
	struct gm_strmap index = GM_STRMAP_INIT;
	struct gm_buf dir = GM_BUF_INIT;
	size_t *before = malloc((nr + 1) * sizeof(*before)), all;
	bool whole;
	int error = 0;

	memset(out, 0, sizeof(*out));
	if (!before)
		return gm_error_set(GM_ERROR, "out of memory");
	before[0] = 0;
	for (size_t i = 0; i < nr; i++) {
		before[i + 1] = before[i] + owned[i];
		out->unowned += !owned[i];
	}
	out->files = nr;
	for (size_t i = 0; i < nr && !error; i++)
		if (!owned[i] &&
		    !(error = dir_of(&dir, &all, &whole, files, nr, before, i)))
			error = dirs_add(out, &index, &dir, all, whole);
	if (!error && out->nr)
		qsort(out->v, out->nr, sizeof(*out->v), dir_cmp);
	free(before);
	gm_buf_release(&dir);
	gm_strmap_release(&index);
	if (error)
		gm_unowned_dirs_release(out);
	return error;
}

void gm_unowned_dirs_release(struct gm_unowned_dirs *d)
{
	for (size_t i = 0; i < d->nr; i++)
		free(d->v[i].path);
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/* The directories as a table for people, with a legend. */
static int write_table(FILE *f, const char *const *files, size_t nr,
		       const unsigned char *owned, bool high)
{
	struct gm_buf tmp = GM_BUF_INIT;
	struct gm_unowned_dirs d;
	int error = gm_unowned_dirs(&d, files, nr, owned);

	if (error)
		return error;
	fprintf(f, "%zu of %zu files are claimed by no section with an M: "
		"line, in %zu places\n\n   UNOWNED     FILES  DIRECTORY\n",
		d.unowned, d.files, d.nr);
	for (size_t i = 0; i < d.nr && !error; i++) {
		fprintf(f, "%10zu  %8zu  ", d.v[i].unowned, d.v[i].files);
		error = put_path(f, &tmp, *d.v[i].path ? d.v[i].path : "./",
				 high);
		fputs(d.v[i].whole ? "  (all)\n" : "\n", f);
	}
	fputs("\nUNOWNED    the unowned files counted in a directory: the "
	      "shallowest whose files\n"
	      "           are all unowned, marked (all), else the file's own "
	      "directory\n"
	      "FILES      all the files below the directory\n"
	      "The catch-all (F: * and F: */) claims none. For the files "
	      "themselves:\n--format=list (one a line); for scripts: "
	      "--format=json (stable).\n", f);
	gm_unowned_dirs_release(&d);
	gm_buf_release(&tmp);
	return error;
}


/* The length of the top-level directory of `path`, 0 for a top file. */
static size_t top_dir_len(const char *path)
{
	const char *slash = strchr(path, '/');

	return slash ? (size_t)(slash - path) : 0;
}

/* Whether `b` is in `a`'s top-level directory, `n` bytes long. */
static bool same_top(const char *a, const char *b, size_t n)
{
	return top_dir_len(b) == n && !strncmp(a, b, n);
}

/* `s` as a JSON string, through `tmp`. */
static int json_put(FILE *f, struct gm_buf *tmp, const char *s)
{
	int error;

	gm_buf_reset(tmp);
	if ((error = gm_output_json_string(tmp, s)) == 0)
		fwrite(tmp->ptr, 1, tmp->len, f);
	return error;
}

/* One entry of "directories": `len` bytes of `name`. */
static int write_dir(FILE *f, struct gm_buf *tmp, bool *first,
		     const char *name, size_t len, size_t own, size_t all)
{
	struct gm_buf b = GM_BUF_INIT;
	int error;

	fputs(*first ? "\n    {\"name\": " : ",\n    {\"name\": ", f);
	if ((error = gm_buf_put(&b, name, len)) == 0 &&
	    (error = json_put(f, tmp, b.ptr)) == 0)
		fprintf(f, ", \"owned\": %zu, \"unowned\": %zu}", own,
			all - own);
	gm_buf_release(&b);
	*first = false;
	return error;
}

static int write_json(FILE *f, const char *const *files, size_t nr,
		      const unsigned char *owned, const char *rev)
{
	struct gm_buf tmp = GM_BUF_INIT;
	size_t own = 0, top = 0, top_own = 0;
	bool first = true;
	int error;

	for (size_t i = 0; i < nr; i++) {
		own += owned[i];
		if (!top_dir_len(files[i])) {
			top++;
			top_own += owned[i];
		}
	}
	fputs("{\n  \"version\": 1,\n  \"rev\": ", f);
	error = json_put(f, &tmp, rev);
	fprintf(f, ",\n  \"files\": %zu,\n  \"owned\": %zu,\n  \"unowned\": [",
		nr, own);
	for (size_t i = 0; i < nr && !error; i++) {
		if (owned[i])
			continue;
		fputs(first ? "\n    " : ",\n    ", f);
		error = json_put(f, &tmp, files[i]);
		first = false;
	}
	fputs(first ? "],\n" : "\n  ],\n", f);
	fputs("  \"directories\": [", f);
	first = true;
	if (top && !error)
		error = write_dir(f, &tmp, &first, ".", 1, top_own, top);
	/* a directory's files are consecutive in path order */
	for (size_t i = 0, j; i < nr && !error; i = j) {
		size_t n = top_dir_len(files[i]);

		own = 0;
		for (j = i; j < nr && (n ? same_top(files[i], files[j], n) :
				       j == i); j++)
			own += owned[j];
		if (n)
			error = write_dir(f, &tmp, &first, files[i], n, own,
					  j - i);
	}
	fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
	gm_buf_release(&tmp);
	return error;
}

int gm_unowned_write(FILE *out, const char *const *files, size_t nr,
		     const unsigned char *owned, const char *rev,
		     enum gm_unowned_form form, bool high)
{
	struct gm_buf tmp = GM_BUF_INIT;
	int error = 0;

	if (form == GM_UNOWNED_JSON)
		error = write_json(out, files, nr, owned, rev);
	else if (form == GM_UNOWNED_TABLE)
		error = write_table(out, files, nr, owned, high);
	else
		for (size_t i = 0; i < nr && !error; i++)
			if (!owned[i] && !(error = put_path(out, &tmp,
							    files[i], high)))
				fputc('\n', out);
	gm_buf_release(&tmp);
	if (!error && ferror(out))
		error = gm_error_set(GM_ERROR, "write error: %s",
				     strerror(errno));
	return error;
}

/* ==================== the mode ==================== */

bool gm_unowned_isdir(const char *path, void *repo)
{
	return gm_repo_kind(repo, path) == GM_REPO_TREE;
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Mark in `keep` the files of the tree's `tree_nr` (the first of `all`) at
 * or below the argument `arg`, or add it to `all` as a file and mark it
 * if it is not in the tree.
 */
static int select_path(unsigned char *keep, struct gm_repo *r,
		       struct gm_strvec *all, size_t tree_nr, const char *arg,
		       struct gm_buf *rel)
{
	const char *const *v = (const char *const *)all->v;
	enum gm_repo_kind kind;
	int error;

	if ((error = gm_repo_relative(r, arg, rel)) < 0)
		return error;
	kind = rel->len ? gm_repo_kind(r, rel->ptr) : GM_REPO_TREE;
	if (kind == GM_REPO_NONE) {
		if ((error = gm_strvec_push(all, rel->ptr)) < 0)
			return error;
		keep[all->nr - 1] = 1;
		return 0;
	}
	if (kind == GM_REPO_TREE && rel->len &&
	    (error = gm_buf_putc(rel, '/')) < 0)
		return error;
	for (size_t i = lower_bound(v, tree_nr, rel->ptr, rel->len);
	     i < tree_nr; i++) {
		if (kind == GM_REPO_BLOB ? strcmp(v[i], rel->ptr) :
		    strncmp(v[i], rel->ptr, rel->len))
			break;
		keep[i] = 1;
	}
	return 0;
}

int gm_unowned_select(const char ***out, size_t *nr, struct gm_repo *r,
		      struct gm_strvec *all, const struct gm_strvec *args)
{
	size_t tree_nr = all->nr, n = all->nr + args->nr + 1, j = 0;
	unsigned char *keep = calloc(n, 1);
	const char **v = NULL;
	struct gm_buf rel = GM_BUF_INIT;
	int error = 0;

	*out = NULL;
	*nr = 0;
	if (!keep || !(v = calloc(n, sizeof(*v)))) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	if (!args->nr)
		memset(keep, 1, tree_nr);
	for (size_t i = 0; i < args->nr && !error; i++)
		error = select_path(keep, r, all, tree_nr, args->v[i], &rel);
	for (size_t i = 0; i < all->nr && !error; i++)
		if (keep[i])
			v[j++] = all->v[i];
	if (error)
		goto out;
	if (all->nr > tree_nr) {	/* paths not in the tree, in order */
		size_t k = 0;

		qsort(v, j, sizeof(*v), path_cmp);
		for (size_t i = 0; i < j; i++)
			if (!k || strcmp(v[k - 1], v[i]))
				v[k++] = v[i];
		j = k;
	}
	*out = v;
	*nr = j;
	v = NULL;
out:
	free(keep);
	free(v);
	gm_buf_release(&rel);
	return error;
}

int gm_unowned_run(FILE *out, struct gm_repo *r,
		   const struct gm_maintainers *m,
		   const struct gm_unowned_settings *s)
{
	struct gm_unowned_opts uo = GM_UNOWNED_OPTS_INIT;
	struct gm_strvec all = GM_STRVEC_INIT;
	char rev[GM_REPO_HEX_SIZE];
	const char **files = NULL;
	unsigned char *owned = NULL;
	size_t nr = 0;
	bool high = true;
	int error;

	uo.isdir = gm_unowned_isdir;
	uo.payload = r;
	uo.pattern_depth = s->pattern_depth;
	if ((error = gm_repo_files(r, &all)) < 0 ||
	    (error = gm_unowned_select(&files, &nr, r, &all, s->args)) < 0)
		goto out;
	if (!(owned = malloc(nr ? nr : 1))) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	if ((error = gm_unowned_mark(owned, m, &uo, files, nr)) < 0)
		goto out;
	if (gm_repo_config_bool(r, "core.quotePath", &high) < 0)
		high = true;
	gm_repo_commit_hex(r, rev);
	error = gm_unowned_write(out, files, nr, owned, rev, s->form, high);
out:
	free(owned);
	free(files);
	gm_strvec_release(&all);
	return error;
}
