/*
 * The whole-tree claims against the matcher, on a real tree:
 *
 *     gm_claims_oracle TREE [STEP]
 *
 * reads TREE's MAINTAINERS from its HEAD, and checks for every file of
 * the tree (every STEP-th with STEP) that gm_unowned_match() reports
 * exactly the sections gm_match_files() finds for it, as `-f FILE` would
 * and that gm_unowned_mark() owns it exactly when one of them has
 * an M: line and is no catch-all. Prints a summary; exit 0 if all agree,
 * 1 if not, 2 if TREE cannot be read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/maintainers.h"
#include "gm/match.h"
#include "gm/repo.h"
#include "gm/strvec.h"
#include "gm/unowned.h"

/* Claims as (file, section) pairs, in the order reported. */
struct pairs {
	size_t (*v)[2];
	size_t nr, alloc;
};

static int keep_pair(size_t section, size_t file, void *payload)
{
	struct pairs *p = payload;

	if (GM_ARRAY_GROW(p->v, p->nr, p->alloc) < 0)
		return GM_ERROR;
	p->v[p->nr][0] = file;
	p->v[p->nr][1] = section;
	p->nr++;
	return 0;
}

/* gm_unowned_match()'s claims on `files`, into `p`. */
static int keep_pairs(const struct gm_maintainers *m,
		      const struct gm_unowned_opts *o,
		      const struct gm_strvec *files, struct pairs *p)
{
	struct gm_matches *mt = NULL;
	int error = gm_unowned_match(&mt, m, o, (const char *const *)files->v,
				     files->nr);

	for (size_t i = 0; i < files->nr && !error; i++)
		for (size_t k = 0; k < mt->files[i].nr_sections && !error; k++)
			error = keep_pair(mt->files[i].sections[k], i, p);
	gm_matches_free(mt);
	return error;
}

static int pair_cmp(const void *a, const void *b)
{
	const size_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

static int size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

static bool isdir(const char *path, void *payload)
{
	return gm_repo_kind(payload, path) == GM_REPO_TREE;
}

static int load(struct gm_repo_location **loc, struct gm_repo **r,
		struct gm_maintainers **m, struct gm_strvec *all, size_t step,
		struct gm_strvec *files)
{
	struct gm_buf text = GM_BUF_INIT;
	const char *buf;
	size_t len;
	int error;

	if ((error = gm_repo_locate(loc)) < 0 ||
	    (error = gm_repo_open(r, *loc, NULL)) < 0 ||
	    (error = gm_repo_read(*r, "MAINTAINERS", &text)) < 0)
		goto out;
	buf = text.ptr;
	len = text.len;
	if ((error = gm_maintainers_parse(m, &buf, &len, 1)) < 0 ||
	    (error = gm_repo_files(*r, all)) < 0)
		goto out;
	for (size_t i = 0; i < all->nr && !error; i += step)
		error = gm_strvec_push(files, all->v[i]);
out:
	gm_buf_release(&text);
	return error;
}

/* Whether section `s` is a catch-all: both F: lines of a star. */
static bool is_catch_all(const struct gm_maintainers *m, size_t s)
{
	const struct gm_section *sec = &m->sections[s];

	return gm_maintainers_stars(m, sec->start, sec->end) ==
	       (GM_STARS_FILES | GM_STARS_DIRS);
}

/* Whether a catch-all section has lines beyond its two (mark check). */
static bool plain_catch_alls(const struct gm_maintainers *m)
{
	for (size_t s = 0; s < m->nr_sections; s++) {
		const struct gm_section *sec = &m->sections[s];

		if (!is_catch_all(m, s))
			continue;
		for (size_t k = sec->start; k < sec->end; k++)
			if (strchr("FXN", m->lines[k].tag) && m->lines[k].tag &&
			    strcmp(m->lines[k].value, "*") &&
			    strcmp(m->lines[k].value, "*/"))
				return false;
	}
	return true;
}

/*
 * File `file`: the claims at p->v[*at...] against the matcher's sections
 * `f`, and `owned` (if not NULL) against them. @return the differences.
 */
static size_t compare_file(const struct gm_maintainers *m,
			   struct gm_match_file *f, size_t file,
			   const struct pairs *p, size_t *at,
			   const unsigned char *owned)
{
	size_t n = 0, bad = 0;
	bool want = false;

	qsort(f->sections, f->nr_sections, sizeof(size_t), size_cmp);
	for (size_t k = 0; k < f->nr_sections; k++) {
		size_t s = f->sections[k];

		want |= m->sections[s].has_maintainer &&
			!is_catch_all(m, s);
	}
	while (*at + n < p->nr && p->v[*at + n][0] == file)
		n++;
	if (n != f->nr_sections || (owned && owned[file] != want)) {
		bad++;
		printf("%s: %zu sections by the matcher, %zu claims; "
		       "owned %d\n", f->path, f->nr_sections, n,
		       owned ? owned[file] : -1);
	}
	for (size_t k = 0; k < n && k < f->nr_sections; k++) {
		size_t got = p->v[*at + k][1], s = f->sections[k];

		if (got != s) {
			bad++;
			printf("%s: section '%s' by the matcher, "
			       "'%s' claimed\n", f->path, m->sections[s].name,
			       m->sections[got].name);
		}
	}
	*at += n;
	return bad;
}

static size_t compare(const struct gm_maintainers *m, struct gm_repo *r,
		      const struct gm_strvec *files, struct pairs *p,
		      const unsigned char *owned)
{
	bool check_owned = plain_catch_alls(m);
	size_t at = 0, bad = 0, chunk = 4096;
	struct gm_match_ctx *ctx = NULL;

	if (gm_match_ctx_new(&ctx, m, isdir, r) < 0) {
		fprintf(stderr, "match: %s\n", gm_error_last());
		exit(2);
	}

	qsort(p->v, p->nr, sizeof(*p->v), pair_cmp);
	for (size_t from = 0; from < files->nr; from += chunk) {
		struct gm_strvec part = GM_STRVEC_INIT;
		struct gm_matches *mt = NULL;

		for (size_t i = from; i < files->nr && i < from + chunk; i++)
			gm_strvec_push(&part, files->v[i]);
		if (gm_match_files(&mt, m, ctx, &part, 0) < 0) {
			fprintf(stderr, "match: %s\n", gm_error_last());
			exit(2);
		}
		for (size_t i = 0; i < mt->nr_files; i++)
			bad += compare_file(m, &mt->files[i], from + i, p, &at,
					    check_owned ? owned : NULL);
		gm_matches_free(mt);
		gm_strvec_release(&part);
	}
	gm_match_ctx_free(ctx);
	return bad;
}

int main(int argc, char **argv)
{
	struct gm_strvec all = GM_STRVEC_INIT, files = GM_STRVEC_INIT;
	struct gm_unowned_opts o = GM_UNOWNED_OPTS_INIT;
	struct gm_repo_location *loc = NULL;
	struct gm_maintainers *m = NULL;
	struct gm_repo *r = NULL;
	struct pairs p = { NULL, 0, 0 };
	unsigned char *owned = NULL;
	size_t step = argc > 2 ? strtoul(argv[2], NULL, 10) : 1, bad;

	if (argc < 2 || chdir(argv[1]) < 0) {
		fprintf(stderr, "usage: gm_claims_oracle TREE [STEP]\n");
		return 2;
	}
	git_libgit2_init();
	if (load(&loc, &r, &m, &all, step ? step : 1, &files) < 0)
		goto fail;
	o.isdir = isdir;
	o.payload = r;
	if (!(owned = malloc(files.nr + 1)) ||
	    keep_pairs(m, &o, &files, &p) < 0 ||
	    gm_unowned_mark(owned, m, &o, (const char *const *)files.v,
			    files.nr) < 0) {
fail:
		fprintf(stderr, "gm_claims_oracle: %s\n", gm_error_last());
		return 2;
	}
	bad = compare(m, r, &files, &p, owned);
	printf("%zu files of %zu, %zu claims, %zu sections: %zu differ\n",
	       files.nr, all.nr, p.nr, m->nr_sections, bad);
	free(p.v);
	free(owned);
	gm_strvec_release(&files);
	gm_strvec_release(&all);
	gm_maintainers_free(m);
	gm_repo_free(r);
	gm_repo_location_free(loc);
	git_libgit2_shutdown();
	return bad ? 1 : 0;
}
