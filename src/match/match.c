#include "gm/match.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/needles.h"
#include "gm/strmap.h"

struct index_list {
	size_t *v;
	size_t nr, alloc;
};

struct gm_match_ctx {
	const struct gm_maintainers *m;	/* the model matched */
	struct gm_pattern_ctx pattern;	/* match data, directory test */
	struct gm_glob_state *globs;	/* per m->globs[i], on first use */
	struct gm_regex_state *regexes;	/* per m->regexes[i], likewise */
	/* the keyword pass */
	struct gm_needles *needles;	/* the K: literals, on first use */
	struct index_list klines;	/* the K: lines, owners of those */
	unsigned char *found;	/* per K: line: one of its literals seen */
	struct gm_buf padded;	/* the text, for the regex engine */
	struct match_index *index;	/* the F:/N: index, on first use */
	struct line_hit *hits;	/* one file's, while it is matched */
	size_t nr_hits, alloc_hits;
};

static void index_free(struct match_index *ix);

int gm_match_ctx_new(struct gm_match_ctx **out, const struct gm_maintainers *m,
		     gm_pattern_isdir_fn isdir, void *payload)
{
	struct gm_match_ctx *ctx = calloc(1, sizeof(*ctx));
	int error;

	if (!ctx)
		return gm_error_set(GM_ERROR, "out of memory");
	ctx->m = m;
	ctx->padded = (struct gm_buf)GM_BUF_INIT;
	/* the pattern states, all zeros: not matched yet */
	ctx->globs = calloc(m->nr_globs + 1, sizeof(*ctx->globs));
	ctx->regexes = calloc(m->nr_regexes + 1, sizeof(*ctx->regexes));
	if (!ctx->globs || !ctx->regexes)
		error = gm_error_set(GM_ERROR, "out of memory");
	else
		error = gm_pattern_ctx_init(&ctx->pattern, isdir, payload);
	if (error < 0) {
		gm_match_ctx_free(ctx);
		return error;
	}
	*out = ctx;
	return 0;
}

void gm_match_ctx_free(struct gm_match_ctx *ctx)
{
	struct gm_glob_state *gs;
	struct gm_regex_state *rs;

	if (!ctx)
		return;
	/* most patterns were never matched: their states hold nothing */
	for (size_t i = 0; (gs = ctx->globs) && i < ctx->m->nr_globs; i++)
		if (gs[i].code || gs[i].value)
			gm_glob_state_release(&gs[i]);
	for (size_t i = 0; (rs = ctx->regexes) && i < ctx->m->nr_regexes; i++)
		if (rs[i].code || rs[i].prefixed)
			gm_regex_state_release(&rs[i]);
	free(ctx->globs);
	free(ctx->regexes);
	gm_pattern_ctx_release(&ctx->pattern);
	gm_needles_free(ctx->needles);
	free(ctx->klines.v);
	free(ctx->found);
	gm_buf_release(&ctx->padded);
	index_free(ctx->index);
	free(ctx->hits);
	free(ctx);
}

/*
 * The F: and N: lines that may hit a path: a section matches only
 * through one of them. A plain F: glob can only match paths that start
 * with its literal part L (what comes before its first '*' or '?'), so it
 * is filed under L cut after the '/' that ends its directory part and one
 * more character, if L has one: "include/linux/foo.h" under
 * "include/linux/f", "drivers/net/" under itself, "MAINTAINERS" under
 * "M". A path looks up, at its start and after each of its '/', the key
 * that ends there and the one a character longer. An N: regex is tried
 * where one of its required literals is in the path (one scan for all of
 * them); those with none, and globs with no literal part or of any other
 * kind (regexes), are tried on every path.
 */
struct match_index {
	struct gm_strmap by_prefix;	/* key -> struct index_list * */
	struct index_list always;	/* lines tried on every path */
	struct gm_needles *names;	/* the N: lines' required literals */
	struct index_list name_lines;	/* owner -> its N: line */
	unsigned char *found;		/* per owner, for one path */
};

/* One line that hit, for the section it belongs to. */
struct line_hit {
	size_t section;
	size_t line;
	int depth;
	bool counts;	/* within --pattern-depth */
	bool exact;	/* the file is no deeper than the glob */
};

static int list_add(struct index_list *l, size_t v)
{
	if (GM_ARRAY_GROW(l->v, l->nr, l->alloc) < 0)
		return GM_ERROR;
	l->v[l->nr++] = v;
	return 0;
}

/* Length of the plain glob's key, 0 if it has none (see above). */
static size_t glob_key(const struct gm_glob *g)
{
	size_t lit = 0, dir = 0;

	if (!g->plain)
		return 0;
	while (lit < g->len && g->glob[lit] != '*' && g->glob[lit] != '?')
		if (g->glob[lit++] == '/')
			dir = lit;
	return lit > dir ? dir + 1 : dir;
}

/* Line `line`, its regex's required literals owned by `owner`, into `l`. */
static int needles_add(struct gm_needles *n, struct index_list *l,
		       const struct gm_regex *re, size_t line)
{
	size_t owner = l->nr;
	int error = list_add(l, line);

	for (size_t j = 0; j < re->required.nr && !error; j++)
		error = gm_needles_add(n, re->required.v[j],
				       strlen(re->required.v[j]), re->caseless,
				       owner);
	return error;
}

static int index_add(struct match_index *ix, const struct gm_maintainers *m,
		     size_t line)
{
	const struct gm_mline *ml = &m->lines[line];
	struct index_list *l = NULL;
	size_t n;

	if (ml->tag == 'N' && ml->regex->required.nr)
		return needles_add(ix->names, &ix->name_lines, ml->regex, line);
	if (ml->tag != 'F' && ml->tag != 'N')
		return 0;
	n = ml->tag == 'F' ? glob_key(ml->glob) : 0;
	if (!n)
		return list_add(&ix->always, line);
	if (!gm_strmap_get(&ix->by_prefix, ml->glob->glob, n, (void **)&l)) {
		if (!(l = calloc(1, sizeof(*l))))
			return gm_error_set(GM_ERROR, "out of memory");
		if (gm_strmap_put(&ix->by_prefix, ml->glob->glob, n, l) < 0) {
			free(l);
			return GM_ERROR;
		}
	}
	return list_add(l, line);
}

static void index_free(struct match_index *ix)
{
	if (!ix)
		return;
	for (size_t i = 0; i < ix->by_prefix.alloc; i++) {
		struct index_list *l = ix->by_prefix.slots[i].value;

		if (l)
			free(l->v);
		free(l);
	}
	gm_strmap_release(&ix->by_prefix);
	free(ix->always.v);
	gm_needles_free(ix->names);
	free(ix->name_lines.v);
	free(ix->found);
	free(ix);
}

/* The index of `m`'s lines (every tag line is a section's), into *out. */
static int index_build(struct match_index **out, const struct gm_maintainers *m)
{
	struct match_index *ix = calloc(1, sizeof(*ix));
	int error = ix ? gm_needles_new(&ix->names) :
			 gm_error_set(GM_ERROR, "out of memory");

	for (size_t i = 0; i < m->nr_lines && !error; i++)
		error = index_add(ix, m, i);
	if (!error && !(ix->found = malloc(ix->name_lines.nr + 1)))
		error = gm_error_set(GM_ERROR, "out of memory");
	if (error < 0)
		index_free(ix);
	else
		*out = ix;
	return error;
}

struct depth {
	size_t section;
	size_t line;	/* the F:/N: line that set the depth */
	int depth;
};

static int depth_cmp(const void *a, const void *b)
{
	const struct depth *x = a, *y = b;

	if (x->depth != y->depth)
		return x->depth > y->depth ? -1 : 1;
	return x->section < y->section ? -1 : x->section > y->section;
}

/*
 * Only a literal glob can name a directory: any other without a
 * final '/' or "**" matches only paths with as many slashes,
 * which is tried first.
 */
static bool glob_hit(struct gm_match_ctx *ctx, const struct gm_mline *ml,
		     const char *path, size_t len, size_t slashes)
{
	const struct gm_glob *g = ml->glob;

	if (!g->literal && !g->anydepth && slashes != g->slashes &&
	    !(g->len && g->glob[g->len - 1] == '/'))
		return false;
	return gm_glob_matches(g, &ctx->globs[ml->pattern], &ctx->pattern, path,
			       len, slashes);
}

static bool regex_hit(struct gm_match_ctx *ctx, const struct gm_mline *ml,
		      const char *s, size_t len, bool prefixed)
{
	return gm_regex_matches(ml->regex, &ctx->regexes[ml->pattern],
				&ctx->pattern, s, len, prefixed);
}

/* The file's facts for matching a line against it. */
struct file_key {
	const char *path;
	size_t len;
	size_t slashes;
	int pattern_depth;
};

/* Whether line `i` hits the file; what it says, into `h`. */
static bool line_hits(const struct gm_maintainers *m, struct gm_match_ctx *ctx,
		      size_t i, const struct file_key *fk, struct line_hit *h)
{
	const struct gm_mline *ml = &m->lines[i];
	const struct gm_section *sec;
	int fd = (int)fk->slashes;

	h->section = m->section_of[i];
	h->line = i;
	if (ml->tag == 'N') {
		h->depth = 0;
		h->counts = true;
		h->exact = false;
		return regex_hit(ctx, ml, fk->path, fk->len, false);
	}
	if (!glob_hit(ctx, ml, fk->path, fk->len, fk->slashes))
		return false;
	sec = &m->sections[h->section];
	h->depth = gm_glob_depth(ml->glob);
	h->counts = fk->pattern_depth == 0 || fd - h->depth < fk->pattern_depth;
	h->exact = h->depth >= fd && sec->maintained && sec->has_maintainer;
	return true;
}

/*
 * Try the lines of `l` (with `found`, only those it marks), the hits
 * appended to ctx->hits.
 */
static int match_lines(const struct gm_maintainers *m, struct gm_match_ctx *ctx,
		       const struct index_list *l, const struct file_key *fk,
		       const unsigned char *found)
{
	for (size_t i = 0; i < l->nr; i++) {
		if (found && !found[i])
			continue;
		if (GM_ARRAY_GROW(ctx->hits, ctx->nr_hits, ctx->alloc_hits) < 0)
			return GM_ERROR;
		if (line_hits(m, ctx, l->v[i], fk, &ctx->hits[ctx->nr_hits]))
			ctx->nr_hits++;
	}
	return 0;
}

static int hit_cmp(const void *a, const void *b)
{
	const struct line_hit *x = a, *y = b;

	if (x->section != y->section)
		return x->section < y->section ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Whether an X: line of section `s` excludes the file. */
static bool excluded(const struct gm_maintainers *m, struct gm_match_ctx *ctx,
		     size_t s, const struct file_key *fk)
{
	const struct gm_section *sec = &m->sections[s];

	for (size_t i = sec->start; i < sec->end; i++)
		if (m->lines[i].tag == 'X' &&
		    glob_hit(ctx, &m->lines[i], fk->path, fk->len, fk->slashes))
			return true;
	return false;
}

/*
 * The sections of the hits in ctx->hits[0..nr): those no X: excludes,
 * each at the depth of its last hit within --pattern-depth, into
 * scratch. @return how many.
 */
static size_t match_sections(const struct gm_maintainers *m,
			     struct gm_match_ctx *ctx, size_t nr,
			     const struct file_key *fk, struct gm_match_file *f,
			     struct depth *scratch)
{
	size_t n = 0;

	if (nr)
		qsort(ctx->hits, nr, sizeof(*ctx->hits), hit_cmp);
	for (size_t i = 0, j; i < nr; i = j) {
		const struct line_hit *last = NULL;
		bool exact = false;

		for (j = i; j < nr && ctx->hits[j].section == ctx->hits[i].section;
		     j++) {
			exact |= ctx->hits[j].exact;
			if (ctx->hits[j].counts)
				last = &ctx->hits[j];
		}
		if (excluded(m, ctx, ctx->hits[i].section, fk))
			continue;
		f->exact |= exact;
		if (!last)
			continue;
		scratch[n].section = last->section;
		scratch[n].line = last->line;
		scratch[n++].depth = last->depth;
	}
	return n;
}

/* The sections of one file, deepest first. */
static int match_file(const struct gm_maintainers *m,
		      struct gm_match_ctx *ctx, struct gm_match_file *f,
		      int pattern_depth, struct depth *scratch)
{
	struct match_index *ix = ctx->index;
	struct file_key fk = { f->path, strlen(f->path), 0, pattern_depth };
	size_t nr;
	int error;

	fk.slashes = gm_pattern_slashes(fk.path, fk.len);
	ctx->nr_hits = 0;
	error = match_lines(m, ctx, &ix->always, &fk, NULL);
	memset(ix->found, 0, ix->name_lines.nr);
	gm_needles_scan(ix->names, fk.path, fk.len, ix->found);
	if (!error)
		error = match_lines(m, ctx, &ix->name_lines, &fk, ix->found);
	for (size_t j = 0; !error && j <= fk.len; j++) {
		struct index_list *l;

		if (j && fk.path[j - 1] != '/')
			continue;
		if (j && gm_strmap_get(&ix->by_prefix, fk.path, j, (void **)&l))
			error = match_lines(m, ctx, l, &fk, NULL);
		if (!error && j < fk.len &&
		    gm_strmap_get(&ix->by_prefix, fk.path, j + 1, (void **)&l))
			error = match_lines(m, ctx, l, &fk, NULL);
	}
	if (error)
		return error;
	nr = match_sections(m, ctx, ctx->nr_hits, &fk, f, scratch);
	qsort(scratch, nr, sizeof(*scratch), depth_cmp);
	f->sections = malloc((nr ? nr : 1) * sizeof(*f->sections));
	f->lines = malloc((nr ? nr : 1) * sizeof(*f->lines));
	if (!f->sections || !f->lines)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < nr; i++) {
		f->sections[i] = scratch[i].section;
		f->lines[i] = scratch[i].line;
	}
	f->nr_sections = nr;
	return 0;
}

int gm_match_files(struct gm_matches **out, const struct gm_maintainers *m,
		   struct gm_match_ctx *ctx, const struct gm_strvec *files,
		   int pattern_depth)
{
	struct gm_matches *mt = calloc(1, sizeof(*mt));
	struct depth *scratch = NULL;
	int error = 0;

	assert(ctx->m == m);
	if (!mt)
		return gm_error_set(GM_ERROR, "out of memory");
	if (!ctx->index)
		error = index_build(&ctx->index, m);
	mt->files = calloc(files->nr ? files->nr : 1, sizeof(*mt->files));
	scratch = malloc((m->nr_sections ? m->nr_sections : 1) *
			 sizeof(*scratch));
	if (!error && (!mt->files || !scratch))
		error = gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < files->nr && !error; i++) {
		mt->files[i].path = files->v[i];
		mt->nr_files++;
		error = match_file(m, ctx, &mt->files[i], pattern_depth,
				   scratch);
	}
	free(scratch);
	if (error) {
		gm_matches_free(mt);
		return error;
	}
	*out = mt;
	return 0;
}

const char *gm_match_glob_value(const struct gm_maintainers *m,
				struct gm_match_ctx *ctx, size_t line,
				size_t *len)
{
	const struct gm_mline *ml = &m->lines[line];

	assert(ctx->m == m);
	*len = 0;
	if (!ml->glob)
		return NULL;
	return gm_glob_value(ml->glob, &ctx->globs[ml->pattern], &ctx->pattern,
			     len);
}

static int keyword_add(struct gm_matches *mt, size_t line)
{
	if (GM_ARRAY_GROW(mt->keywords, mt->nr_keywords, mt->alloc_keywords) < 0)
		return GM_ERROR;
	mt->keywords[mt->nr_keywords++] = line;
	return 0;
}

_Static_assert(GM_REGEX_LITERAL_MIN >= GM_NEEDLE_MIN,
	       "every required literal of a regex fits the scanner");

/* Index the literals that K: regexes require (gm_regex.required). */
static int keywords_prepare(struct gm_match_ctx *ctx,
			    const struct gm_maintainers *m)
{
	int error;

	if ((error = gm_needles_new(&ctx->needles)) < 0)
		return error;
	ctx->klines.nr = 0;
	for (size_t i = 0; i < m->nr_lines && !error; i++)
		if (m->lines[i].tag == 'K')
			error = needles_add(ctx->needles, &ctx->klines,
					    m->lines[i].regex, i);
	if (!error &&
	    !(ctx->found = malloc(ctx->klines.nr ? ctx->klines.nr : 1)))
		error = gm_error_set(GM_ERROR, "out of memory");
	if (error) {	/* prepared again on the next call */
		gm_needles_free(ctx->needles);
		ctx->needles = NULL;
	}
	return error;
}

/*
 * `text`, with GM_BUF_PAD bytes of zeros after it, in ctx->padded: the
 * PCRE2 JIT's SIMD loads may read up to 15 bytes past a subject's end.
 * Harmless inside a malloc() block, but the text may come straight from
 * a blob, and valgrind sees those reads. A text without them is copied.
 */
static const char *keywords_padded(struct gm_match_ctx *ctx, const char *text,
				   size_t len)
{
	gm_buf_reset(&ctx->padded);
	if (gm_buf_grow(&ctx->padded, len + GM_BUF_PAD) < 0 ||
	    gm_buf_put(&ctx->padded, text, len) < 0)
		return NULL;
	memset(ctx->padded.ptr + len, 0, GM_BUF_PAD);
	return ctx->padded.ptr;
}

int gm_match_keywords_text(struct gm_matches *mt,
			   const struct gm_maintainers *m,
			   struct gm_match_ctx *ctx, const char *text,
			   size_t len, size_t pad)
{
	const char *subject = pad >= GM_BUF_PAD ? text : NULL;
	int error;

	assert(ctx->m == m);
	if (!ctx->needles && (error = keywords_prepare(ctx, m)) < 0)
		return error;
	memset(ctx->found, 0, ctx->klines.nr);
	gm_needles_scan(ctx->needles, text, len, ctx->found);
	for (size_t k = 0; k < ctx->klines.nr; k++) {
		size_t i = ctx->klines.v[k];
		const struct gm_mline *ml = &m->lines[i];

		if (ml->regex->required.nr && !ctx->found[k])
			continue;
		if (!subject && !(subject = keywords_padded(ctx, text, len)))
			return gm_error_set(GM_ERROR, "out of memory");
		if (gm_regex_run(ml->regex, &ctx->regexes[ml->pattern],
				 &ctx->pattern, subject, len, false) &&
		    keyword_add(mt, i) < 0)
			return GM_ERROR;
	}
	return 0;
}

int gm_match_keywords_patch(struct gm_matches *mt,
			    const struct gm_maintainers *m,
			    struct gm_match_ctx *ctx, const char *buf,
			    const struct gm_patch *p)
{
	assert(ctx->m == m);
	for (size_t i = 0; i < m->nr_lines; i++) {
		const struct gm_mline *ml = &m->lines[i];

		if (ml->tag != 'K')
			continue;
		for (size_t j = 0; j < p->nr_lines; j++) {
			const struct gm_patch_line *pl = &p->lines[j];

			if (regex_hit(ctx, ml, buf + pl->off, pl->len,
				      pl->prefixed)) {
				if (keyword_add(mt, i) < 0)
					return GM_ERROR;
				break;
			}
		}
	}
	return 0;
}

static int keyword_cmp(const void *a, const void *b)
{
	char x[32], y[32];

	snprintf(x, sizeof(x), "%zu", *(const size_t *)a);
	snprintf(y, sizeof(y), "%zu", *(const size_t *)b);
	return strcmp(x, y);
}

void gm_match_keywords_finish(struct gm_matches *mt)
{
	size_t j = 0;

	if (!mt->nr_keywords)
		return;
	qsort(mt->keywords, mt->nr_keywords, sizeof(*mt->keywords), keyword_cmp);
	for (size_t i = 0; i < mt->nr_keywords; i++)
		if (!j || mt->keywords[j - 1] != mt->keywords[i])
			mt->keywords[j++] = mt->keywords[i];
	mt->nr_keywords = j;
}

void gm_matches_free(struct gm_matches *mt)
{
	if (!mt)
		return;
	for (size_t i = 0; i < mt->nr_files; i++) {
		free(mt->files[i].sections);
		free(mt->files[i].lines);
	}
	free(mt->files);
	free(mt->keywords);
	free(mt);
}
