#include "gm/unowned.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/match.h"
#include "gm/output.h"
#include "gm/strmap.h"

/* ==================== claims ==================== */

size_t gm_unowned_lower_bound(const char *const *files, size_t nr,
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

/* Whether the line is one of the two F: lines that make a catch-all. */
static bool is_catch_all_line(const struct gm_mline *ml)
{
	return ml->tag == 'F' && ml->len && ml->len <= 2 &&
	       !memcmp(ml->value, "*/", ml->len);
}

/*
 * `m` as gm_unowned_mark() is to see it: a copy sharing all but its
 * lines, in `*lines` (the caller's), where the F:/N: lines of the
 * sections without an M: line, and the catch-alls' two F: lines,
 * are no tag lines.
 */
static int owners_view(struct gm_maintainers *copy, struct gm_mline **lines,
		       const struct gm_maintainers *m)
{
	*copy = *m;
	*lines = malloc((m->nr_lines ? m->nr_lines : 1) * sizeof(**lines));
	if (!*lines)
		return gm_error_set(GM_ERROR, "out of memory");
	memcpy(*lines, m->lines, m->nr_lines * sizeof(**lines));
	for (size_t s = 0; s < m->nr_sections; s++) {
		const struct gm_section *sec = &m->sections[s];
		bool catch_all = gm_maintainers_stars(m, sec->start, sec->end) ==
				 (GM_STARS_FILES | GM_STARS_DIRS);

		for (size_t k = sec->start; k < sec->end; k++) {
			struct gm_mline *ml = &(*lines)[k];

			if (sec->has_maintainer ?
			    catch_all && is_catch_all_line(ml) :
			    ml->tag == 'F' || ml->tag == 'N')
				ml->tag = 0;
		}
	}
	copy->lines = *lines;
	return 0;
}

int gm_unowned_match(struct gm_matches **out, const struct gm_maintainers *m,
		     const struct gm_unowned_opts *o, const char *const *files,
		     size_t nr)
{
	/* borrowed: the matcher only reads the list */
	struct gm_strvec view = { (char **)files, nr, 0 };
	struct gm_match_ctx *ctx = NULL;
	int error = gm_match_ctx_new(&ctx, m, o->isdir, o->payload);

	if (!error)
		error = gm_match_files(out, m, ctx, &view, o->pattern_depth);
	gm_match_ctx_free(ctx);
	return error;
}

int gm_unowned_mark(unsigned char *owned, const struct gm_maintainers *m,
		    const struct gm_unowned_opts *o, const char *const *files,
		    size_t nr)
{
	struct gm_maintainers copy;
	struct gm_mline *lines = NULL;
	struct gm_matches *mt = NULL;
	int error = owners_view(&copy, &lines, m);

	if (!error &&
	    (error = gm_unowned_match(&mt, &copy, o, files, nr)) == 0)
		for (size_t i = 0; i < nr; i++)
			owned[i] = mt->files[i].nr_sections > 0;
	gm_matches_free(mt);
	free(lines);
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
	*lo = gm_unowned_lower_bound(files, nr, dir->ptr, dir->len);
	dir->ptr[dir->len - 1] = '/' + 1;	/* the first name past them */
	*hi = gm_unowned_lower_bound(files, nr, dir->ptr, dir->len);
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
	/* not whole: the walk ended at the file's own directory */
	*whole = last && owned_before[hi] == owned_before[lo];
	if (!last)
		gm_buf_reset(dir);
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

/* One entry of "directories": `len` bytes of `name`. */
static int write_dir(FILE *f, bool *first, const char *name, size_t len,
		     size_t own, size_t all)
{
	char *dir = strndup(name, len);

	if (!dir)
		return gm_error_set(GM_ERROR, "out of memory");
	fputs(*first ? "\n    {\"name\": " : ",\n    {\"name\": ", f);
	gm_output_json_put(f, dir);
	fprintf(f, ", \"owned\": %zu, \"unowned\": %zu}", own, all - own);
	free(dir);
	*first = false;
	return 0;
}

static int write_json(FILE *f, const char *const *files, size_t nr,
		      const unsigned char *owned, const char *rev)
{
	size_t own = 0, top = 0, top_own = 0;
	bool first = true;
	int error = 0;

	for (size_t i = 0; i < nr; i++) {
		own += owned[i];
		if (!top_dir_len(files[i])) {
			top++;
			top_own += owned[i];
		}
	}
	fputs("{\n  \"version\": 1,\n  \"rev\": ", f);
	gm_output_json_put(f, rev);
	fprintf(f, ",\n  \"files\": %zu,\n  \"owned\": %zu,\n  \"unowned\": [",
		nr, own);
	for (size_t i = 0; i < nr; i++) {
		if (owned[i])
			continue;
		fputs(first ? "\n    " : ",\n    ", f);
		gm_output_json_put(f, files[i]);
		first = false;
	}
	fputs(first ? "],\n" : "\n  ],\n", f);
	fputs("  \"directories\": [", f);
	first = true;
	if (top)
		error = write_dir(f, &first, ".", 1, top_own, top);
	/* a directory's files are consecutive in path order */
	for (size_t i = 0, j; i < nr && !error; i = j) {
		size_t n = top_dir_len(files[i]);

		own = 0;
		for (j = i; j < nr && top_dir_len(files[j]) == n &&
			    !strncmp(files[i], files[j], n); j++)
			own += owned[j];
		if (n)
			error = write_dir(f, &first, files[i], n, own, j - i);
	}
	fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
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
		if (gm_strvec_contains(all, rel->ptr))
			return 0;	/* an earlier argument's */
		if ((error = gm_strvec_push(all, rel->ptr)) < 0)
			return error;
		keep[all->nr - 1] = 1;
		return 0;
	}
	if (kind == GM_REPO_TREE && rel->len &&
	    (error = gm_buf_putc(rel, '/')) < 0)
		return error;
	for (size_t i = gm_unowned_lower_bound(v, tree_nr, rel->ptr, rel->len);
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
	if (all->nr > tree_nr)	/* paths not in the tree, in order */
		qsort(v, j, sizeof(*v), path_cmp);
	*out = v;
	*nr = j;
	v = NULL;
out:
	free(keep);
	free(v);
	gm_buf_release(&rel);
	return error;
}

int gm_unowned_read(const char ***files, size_t *nr, unsigned char **owned,
		    struct gm_strvec *all, struct gm_repo *r,
		    const struct gm_maintainers *m,
		    const struct gm_strvec *args, int pattern_depth)
{
	struct gm_unowned_opts uo = GM_UNOWNED_OPTS_INIT;
	int error;

	uo.isdir = gm_unowned_isdir;
	uo.payload = r;
	uo.pattern_depth = pattern_depth;
	*owned = NULL;
	if ((error = gm_repo_files(r, all)) < 0 ||
	    (error = gm_unowned_select(files, nr, r, all, args)) < 0)
		return error;
	if (!(*owned = malloc(*nr ? *nr : 1)))
		return gm_error_set(GM_ERROR, "out of memory");
	return gm_unowned_mark(*owned, m, &uo, *files, *nr);
}

int gm_unowned_run(FILE *out, struct gm_repo *r,
		   const struct gm_maintainers *m,
		   const struct gm_unowned_settings *s)
{
	struct gm_strvec all = GM_STRVEC_INIT;
	char rev[GM_REPO_HEX_SIZE];
	const char **files = NULL;
	unsigned char *owned = NULL;
	size_t nr = 0;
	bool high = true;
	int error = gm_unowned_read(&files, &nr, &owned, &all, r, m, s->args,
				    s->pattern_depth);

	if (!error) {
		gm_repo_config_bool(r, "core.quotePath", &high);
		gm_repo_commit_hex(r, rev);
		error = gm_unowned_write(out, files, nr, owned, rev, s->form,
					 high);
	}
	free(owned);
	free(files);
	gm_strvec_release(&all);
	return error;
}
