#include "gm/follow.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/repo.h"
#include "gm/strmap.h"
#include "gm/strvec.h"
#include "gm/thread.h"

#define MAX_SCORE 60000
#define MIN_SCORE 30000			/* -M50% */
#define MIN_BASENAME_SCORE 45000	/* halfway to MAX_SCORE */
#define HASHBASE 107927

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static bool is_regular(git_filemode_t m)
{
	return m == GIT_FILEMODE_BLOB || m == GIT_FILEMODE_BLOB_EXECUTABLE;
}

/* ==================== the copy search's cache ==================== */

/* What the searches know of a blob: its size, and its fingerprint. */
struct blobinfo {
	int64_t size;		/* -1: unreadable */
	bool have_fp;		/* fp/nr hold the fingerprint */
	bool no_fp;		/* unreadable blob: none */
	bool queued;		/* in the batch being read */
	uint32_t *fp;		/* its words (fp_next()) */
	uint32_t nr;		/* words */
};

#define SIZE_UNKNOWN INT64_MIN

/*
 * One file of the parent's tree, in the order of a recursive listing,
 * with what is known of it.
 */
struct fentry {
	struct gm_objects_tree *t;
	struct blobinfo *b;	/* NULL: not looked up yet */
	int64_t size;		/* b's: -1 unreadable, or SIZE_UNKNOWN */
	uint32_t i;		/* entry of t */
	uint32_t dir;		/* its directory, in `dirs` */
	bool deleted;		/* not in the commit: a rename, not a copy */
	bool regular;		/* a regular file: a source it may be */
};

/* The tables a fingerprint is counted in: one set per thread. */
struct fp_scratch {
	uint32_t *acc;		/* HASHBASE: zero between uses */
	uint32_t *touched;	/* HASHBASE, after `acc`: the hashes it counts */
};

/* What reading one blob gave. */
struct blob_got {
	enum { GOT_MISS, GOT_NONE, GOT_OK } state; /* MISS: libgit2's */
	size_t size;
	uint32_t *fp;		/* fingerprint: nr words (fp_next()) */
	uint32_t nr;
};

/* A blob to read: its id, its facts. */
struct blob_want {
	git_oid id;
	struct blobinfo *b;
};

/*
 * Memory one thread takes for the whole walk, in blocks freed together:
 * the fingerprints kept (and, the walk's thread's, the blobs' facts).
 */
struct arena {
	char **blocks;
	size_t nr, alloc;
	size_t used, size;	/* of the last block */
};

#define ARENA_BLOCK ((size_t)1 << 20)

/* `bytes` from `a`, aligned on 8; NULL: out of memory. */
static void *arena_take(struct arena *a, size_t bytes)
{
	bytes = (bytes + 7) & ~(size_t)7;
	if (!a->nr || a->size - a->used < bytes) {
		size_t size = bytes > ARENA_BLOCK ? bytes : ARENA_BLOCK;
		char *block;

		if (GM_ARRAY_GROW(a->blocks, a->nr, a->alloc) < 0 ||
		    !(block = malloc(size)))
			return NULL;
		a->blocks[a->nr++] = block;
		a->used = 0;
		a->size = size;
	}
	a->used += bytes;
	return a->blocks[a->nr - 1] + a->used - bytes;
}

static void arena_release(struct arena *a)
{
	for (size_t i = 0; i < a->nr; i++)
		free(a->blocks[i]);
	free(a->blocks);
}

/* What a task works with: the pack reader, its rules, tables and arena. */
struct worker {
	struct gm_pack_reader *pack;
	const struct gm_objects_rules *rules;
	struct fp_scratch *scratch;
	struct arena *arena;
};

/*
 * Work on items [0, n) that the calling thread and the helper share as
 * they go (gm_split): fn(ctx, i, worker) does item i, writing only what
 * is item i's.
 */
struct task {
	int (*fn)(void *ctx, size_t i, const struct worker *wk);
	void *ctx;
	size_t step;
	struct gm_split split;
};

/*
 * The second thread of the copy search, where there is a second CPU and
 * there are packs: a reader and tables of its own, working on one task
 * at a time, which the search waits for before it reads the results.
 */
struct follow_helper {
	struct gm_pack_reader *pack;
	const struct gm_objects_rules *rules;
	struct fp_scratch scratch;
	struct arena arena;
	struct task *task;
	struct gm_job job;
};

/*
 * A fingerprint is a sequence of words, one per chunk hash: the hash in
 * the low FP_HASH_BITS bits and its bytes above them, or for FP_MANY
 * bytes or more, FP_MANY there and the bytes in the next word.
 */
#define FP_HASH_BITS 17
#define FP_HASH_MASK ((1u << FP_HASH_BITS) - 1)
#define FP_MANY (UINT32_MAX >> FP_HASH_BITS)

_Static_assert(HASHBASE <= FP_HASH_MASK + 1, "a hash fits its bits");

/* The hash and bytes at word `i` of `fp`. @return the next one's index. */
static inline uint32_t fp_next(const uint32_t *fp, uint32_t i, uint32_t *h,
			       uint32_t *bytes)
{
	uint32_t w = fp[i++];

	*h = w & FP_HASH_MASK;
	*bytes = w >> FP_HASH_BITS;
	if (*bytes == FP_MANY)
		*bytes = fp[i++];
	return i;
}

/*
 * Spread (or with `clear`, take back) the fingerprint `fp` of `nr` words
 * over `count`, its bytes by hash (HASHBASE counts, zero between uses).
 */
static void dst_set(uint32_t *count, const uint32_t *fp, uint32_t nr,
		    bool clear)
{
	uint32_t h, bytes;

	for (uint32_t i = 0; i < nr;) {
		i = fp_next(fp, i, &h, &bytes);
		count[h] = clear ? 0 : bytes;
	}
}

/*
 * A source scored, or one of the four best candidates of diffcore-rename's
 * matrix; `src` indexes the listing.
 */
struct candidate {
	int score;
	int name_score;
	size_t src;		/* SIZE_MAX: an empty slot */
	const uint32_t *fp;	/* its fingerprint, `nr` words */
	uint32_t nr;
};

/*
 * A directory of a listing: its prefix (an offset in `names`), the trees
 * it was listed from (`a`, against `b` or `same`), and the listing's
 * files and directories under it, [f_start, f_end) and (itself, d_end).
 */
struct ldir {
	size_t name;
	const struct gm_objects_tree *a, *b;
	bool same;
	size_t f_start, f_end, d_end;
};

/* The files of a tree, recursively (listing_add()). */
struct listing {
	struct fentry *v;
	size_t nr, alloc;
	struct ldir *dirs;	/* in the order of their prefixes */
	size_t nr_dirs, alloc_dirs;
	struct gm_buf names;	/* the prefixes, each NUL-terminated */
};

static void listing_release(struct listing *l)
{
	free(l->v);
	free(l->dirs);
	gm_buf_release(&l->names);
}

struct gm_follow {
	const struct gm_objects *objs;	/* borrowed */
	struct gm_strmap trees;	/* raw id -> struct gm_objects_tree *, kept */
	struct gm_strmap blobs;	/* raw id -> struct blobinfo * */
	size_t spans;		/* fingerprint words kept, in all */
	struct arena arena;	/* this thread's: blobs, fingerprints kept */
	struct fp_scratch scratch;	/* this thread's */
	struct follow_helper *helper;	/* NULL: one thread */
	struct blobinfo **temps;	/* fingerprints over the bound */
	size_t nr_temps, alloc_temps;
	uint32_t *dst;		/* the search's destination (dst_set()) */
	struct candidate *cand;	/* the files of the listing scored */
	size_t nr_cand, alloc_cand;
	struct listing ls;	/* the listing of the search under way */
	bool listed;		/* ls was made whole */
	struct listing prev;	/* the one before, whose parts ls reuses */
	size_t prev_at;		/* the directory of prev reached */
};

#define FOLLOW_CACHE_SPANS ((size_t)8 << 20)

static void *oidmap_get(const struct gm_strmap *m, const git_oid *id)
{
	void *value = NULL;

	gm_strmap_get(m, (const char *)id->id, GIT_OID_RAWSZ, &value);
	return value;
}

static int oidmap_put(struct gm_strmap *m, const git_oid *id, void *value)
{
	return gm_strmap_put(m, (const char *)id->id, GIT_OID_RAWSZ, value);
}

static int scratch_init(struct fp_scratch *sc)
{
	if (!(sc->acc = calloc(2 * HASHBASE, sizeof(*sc->acc))))
		return GM_ERROR;
	sc->touched = sc->acc + HASHBASE;
	return 0;
}

static void follow_helper_free(struct follow_helper *h)
{
	if (!h)
		return;
	gm_pack_reader_free(h->pack);
	free(h->scratch.acc);
	arena_release(&h->arena);
	free(h);
}

int gm_follow_new(struct gm_follow **out, const struct gm_objects *objs,
		  const struct gm_packs *packs)
{
	struct gm_follow *fc = calloc(1, sizeof(*fc));
	struct follow_helper *h;

	*out = NULL;
	if (!fc)
		return gm_error_set(GM_ERROR, "out of memory");
	fc->objs = objs;
	gm_buf_init(&fc->ls.names);
	gm_buf_init(&fc->prev.names);
	if (!(fc->dst = calloc(HASHBASE, sizeof(*fc->dst))) ||
	    scratch_init(&fc->scratch) < 0) {
		gm_follow_free(fc);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	*out = fc;
	/* a helper where there are packs and a second CPU */
	if (!gm_packs_count(packs) || gm_thread_cpus() < 2 ||
	    !(h = calloc(1, sizeof(*h))))
		return 0;
	if (scratch_init(&h->scratch) < 0 ||
	    gm_pack_reader_new(&h->pack, packs, 0) < 0) {
		follow_helper_free(h);
		return 0;
	}
	h->rules = objs->rules;
	fc->helper = h;
	return 0;
}

void gm_follow_free(struct gm_follow *fc)
{
	if (!fc)
		return;
	for (size_t i = 0; i < fc->trees.alloc; i++)
		gm_objects_tree_free(fc->trees.slots[i].value);
	gm_strmap_release(&fc->trees);
	gm_strmap_release(&fc->blobs);
	free(fc->temps);
	arena_release(&fc->arena);
	free(fc->scratch.acc);
	follow_helper_free(fc->helper);
	free(fc->dst);
	free(fc->cand);
	listing_release(&fc->ls);
	listing_release(&fc->prev);
	free(fc);
}

/* The tree `id` from the cache, read if new; NULL if unreadable. */
static struct gm_objects_tree *follow_tree(struct gm_follow *fc,
					  const git_oid *id)
{
	struct gm_objects_tree *t = oidmap_get(&fc->trees, id);

	if (t)
		return t;
	if (!(t = gm_objects_tree_read(fc->objs, id)))
		return NULL;
	if (oidmap_put(&fc->trees, id, t) < 0) {
		gm_objects_tree_free(t);
		return NULL;
	}
	return t;
}

/* New facts of blob `id`, none known, in the cache; NULL: out of memory. */
static struct blobinfo *blob_new(struct gm_follow *fc, const git_oid *id)
{
	struct blobinfo *b = arena_take(&fc->arena, sizeof(*b));

	if (!b)
		return NULL;
	memset(b, 0, sizeof(*b));
	return oidmap_put(&fc->blobs, id, b) < 0 ? NULL : b;
}

size_t gm_follow_chunk(const char *buf, size_t len, bool text,
		       uint32_t *hash, uint32_t *bytes)
{
	const unsigned char *p = (const unsigned char *)buf;
	size_t lim = len < 64 ? len : 64, take = lim, counted;
	bool crlf;
	const unsigned char *nl = memchr(p, '\n', lim);
	uint64_t x = 0;		/* git's two accumulators, high and low */

	if (nl)
		take = (size_t)(nl - p) + 1;
	else if (text && len > 64 && p[63] == '\r' && p[64] == '\n')
		take = 65;	/* 63 bytes, the CR skipped, the LF: 64 */
	/* a text chunk's CR before its final LF is not seen */
	crlf = text && take >= 2 && p[take - 2] == '\r' && p[take - 1] == '\n';
	counted = take - crlf;
	/* git's shifts of the pair are this rotation; then a1 += c */
	for (size_t i = 0; i + 1 < counted; i++)
		x = (x << 7 | x >> 57) + ((uint64_t)p[i] << 32);
	if (counted)	/* the last byte seen is the chunk's last */
		x = (x << 7 | x >> 57) + ((uint64_t)p[take - 1] << 32);
	*hash = ((uint32_t)(x >> 32) + (uint32_t)x * 0x61u) % HASHBASE;
	*bytes = (uint32_t)counted;
	return take;
}

/*
 * git's fingerprint of a text (diffcore-delta.c): chunks ending at a
 * newline or 64 bytes long, hashed, with their lengths summed by hash;
 * a CR before a LF is skipped in text. Into `out` (GOT_OK, its size,
 * `fp` and `nr`), its words from `arena` (NULL: malloc()).
 */
static int follow_fingerprint(struct fp_scratch *sc, struct blob_got *out,
			      const char *buf, size_t len, struct arena *arena)
{
	size_t n = 0, words;
	bool text = !gm_objects_binary(buf, len);

	for (size_t i = 0; i < len;) {
		uint32_t h, k;

		i += gm_follow_chunk(buf + i, len - i, text, &h, &k);
		if (!sc->acc[h])
			sc->touched[n++] = h;
		sc->acc[h] += k;
	}
	words = n;
	for (size_t i = 0; i < n; i++)
		words += sc->acc[sc->touched[i]] >= FP_MANY;
	out->nr = (uint32_t)words;
	out->fp = !words ? NULL : arena ?
		  arena_take(arena, words * sizeof(*out->fp)) :
		  malloc(words * sizeof(*out->fp));
	for (size_t i = 0, k = 0; i < n; i++) {
		uint32_t h = sc->touched[i], bytes = sc->acc[h];

		sc->acc[h] = 0;
		if (!out->fp)
			continue;
		out->fp[k++] = h | (bytes < FP_MANY ? bytes : FP_MANY) <<
				   FP_HASH_BITS;
		if (bytes >= FP_MANY)
			out->fp[k++] = bytes;
	}
	if (words && !out->fp)
		return gm_error_set(GM_ERROR, "out of memory");
	out->state = GOT_OK;
	out->size = len;
	return 0;
}

/* ==================== work on two threads ==================== */

/* Items of `t` done by `wk` from one end until none is left or one fails. */
static int task_work(struct task *t, const struct worker *wk, bool back)
{
	size_t from, to;
	int error = 0;

	while (!error && gm_split_take(&t->split, back, &from, &to))
		for (size_t i = from; i < to && !error; i++)
			error = t->fn(t->ctx, i, wk);
	if (error)
		gm_split_stop(&t->split);
	return error;
}

static void *helper_thread(void *arg)
{
	struct follow_helper *h = arg;
	const struct worker wk = { h->pack, h->rules, &h->scratch, &h->arena };

	gm_job_done(&h->job, task_work(h->task, &wk, true));
	return NULL;
}

/*
 * Task `t` done on items [0, n): with the helper, where there is one
 * and enough to share, else by this thread alone.
 * @return 0, or an error of either thread.
 */
static int follow_run(struct gm_follow *fc, struct task *t, size_t n)
{
	const struct worker me = { fc->objs->pack, fc->objs->rules,
				   &fc->scratch, &fc->arena };
	struct follow_helper *h = fc->helper;
	bool shared = h && n >= 2 * t->step;
	int error, helper_error = 0;

	if (n > UINT32_MAX)
		return gm_error_set(GM_ERROR, "too many files to compare");
	gm_split_init(&t->split, n, t->step);
	if (shared) {
		h->task = t;
		shared = gm_job_start(&h->job, helper_thread, h);
	}
	error = task_work(t, &me, false);
	if (shared)
		helper_error = gm_job_join(&h->job);
	return error ? error : helper_error;
}

/* ==================== reading blobs ==================== */

/* Blobs to read, and what reading them gave. */
struct reads {
	const struct blob_want *want;
	struct blob_got *got;
	bool keep;		/* fingerprints kept: in the arenas */
};

/*
 * The size of blob i from the packs; a miss is left for libgit2. Its
 * type is not looked for (a delta's would be at the end of its chain):
 * an object the tree wrongly calls a blob is found out when read.
 */
static int read_size(void *ctx, size_t i, const struct worker *wk)
{
	const struct reads *r = ctx;
	struct blob_got *g = &r->got[i];

	g->state = gm_pack_header(wk->pack, gm_objects_replaced(wk->rules,
				  &r->want[i].id), NULL, &g->size) ?
		   GOT_MISS : GOT_OK;
	return 0;
}

/* The fingerprint of blob i from the packs; a miss is left for libgit2. */
static int read_fingerprint(void *ctx, size_t i, const struct worker *wk)
{
	const struct reads *r = ctx;
	struct blob_got *g = &r->got[i];
	git_object_t type;
	char *data = NULL;
	size_t len = 0;
	int error;

	error = gm_pack_read(wk->pack, gm_objects_replaced(wk->rules,
			     &r->want[i].id), &type, &data, &len);
	g->state = error == GM_ENOTFOUND ? GOT_MISS : GOT_NONE;
	if (error == GM_ENOTFOUND)
		return 0;
	if (!error && type == GIT_OBJECT_BLOB)
		error = follow_fingerprint(wk->scratch, g, data, len,
					   r->keep ? wk->arena : NULL);
	free(data);
	return error;
}

/*
 * What the packs missed, from libgit2, in this thread; those a partial
 * clone lacks fetched first in one go, as git's rename detection fetches
 * its candidates.
 */
static int blobs_read_misses(struct gm_follow *fc,
			     const struct blob_want *want, size_t n,
			     bool fingerprints, bool keep, struct blob_got *got)
{
	const struct gm_objects odb = { fc->objs->odb, NULL, fc->objs->rules,
					NULL };
	git_oid *ids = NULL;
	size_t nr = 0;
	int error = 0;

	for (size_t i = 0; i < n && fc->objs->repo && !error; i++) {
		if (got[i].state != GOT_MISS)
			continue;
		if (!ids && !(ids = malloc(n * sizeof(*ids))))
			error = gm_error_set(GM_ERROR, "out of memory");
		else
			ids[nr++] = *gm_objects_replaced(fc->objs->rules,
							 &want[i].id);
	}
	if (!error)	/* none: repo not touched */
		error = gm_repo_git_fetch_missing(fc->objs->repo, ids, nr,
						  "a blob");
	free(ids);
	for (size_t i = 0; i < n && !error; i++) {
		struct blob_got *g = &got[i];
		char *data;
		size_t len;

		if (g->state != GOT_MISS)
			continue;
		g->state = GOT_NONE;
		if (!fingerprints) {
			if (gm_objects_blob_size(&odb, &want[i].id, &g->size))
				g->state = GOT_OK;
			continue;
		}
		if (!gm_objects_read(&odb, &want[i].id, GIT_OBJECT_BLOB, &data,
				  &len))
			continue;
		error = follow_fingerprint(&fc->scratch, g, data, len,
					   keep ? &fc->arena : NULL);
		free(data);
	}
	return error;
}

/*
 * Whether a blob of `ss` bytes may score MIN_SCORE against one of `ds`
 * (estimate_similarity()'s test of the sizes alone).
 */
static bool size_may_match(size_t ss, size_t ds)
{
	size_t max = ss > ds ? ss : ds, base = ss < ds ? ss : ds;

	return max && (double)max * (MAX_SCORE - MIN_SCORE) >=
		      (double)(max - base) * MAX_SCORE;
}

/*
 * Listing entry `f` (a regular file) looked up: its blob's facts, made if
 * new (`*fresh`: its size is to be read), and its size unless it is being
 * read.
 * @return 0 or GM_ERROR.
 */
static int entry_look_up(struct gm_follow *fc, struct fentry *f, bool *fresh)
{
	git_oid id;

	*fresh = false;
	gm_oid_fromraw(&id, f->t->v[f->i].id);
	if (!(f->b = oidmap_get(&fc->blobs, &id))) {
		if (!(f->b = blob_new(fc, &id)))
			return gm_error_set(GM_ERROR, "out of memory");
		*fresh = true;
	}
	if (!*fresh && !f->b->queued)
		f->size = f->b->size;
	return 0;
}

/*
 * What reading blob `b` gave (`g`, whose fingerprint becomes b's: kept,
 * from an arena, if `keep`) made its facts, unless `error` (which is
 * returned, or a new one) is set.
 */
static int follow_got(struct gm_follow *fc, struct blobinfo *b,
		      struct blob_got *g, bool fingerprint, bool keep,
		      int error)
{
	if (!fingerprint) {
		b->size = g->state != GOT_OK || (uint64_t)g->size > UINT32_MAX ?
			  -1 : (int64_t)g->size;
		return error;
	}
	if (error || g->state != GOT_OK) {
		b->no_fp = !error && g->state == GOT_NONE;
		if (!keep)
			free(g->fp);
		return error;
	}
	b->fp = g->fp;
	b->nr = g->nr;
	b->have_fp = true;
	b->size = (uint64_t)g->size > UINT32_MAX ? -1 : (int64_t)g->size;
	if (keep) {
		fc->spans += b->nr;
		return 0;
	}
	if (GM_ARRAY_GROW(fc->temps, fc->nr_temps, fc->alloc_temps) < 0)
		return GM_ERROR;
	fc->temps[fc->nr_temps++] = b;
	return 0;
}

/* Blobs to read for a search. */
struct wants {
	struct blob_want *v;
	size_t nr, alloc;
};

static int wants_add(struct wants *w, const struct fentry *f)
{
	if (GM_ARRAY_GROW(w->v, w->nr, w->alloc) < 0)
		return GM_ERROR;
	gm_oid_fromraw(&w->v[w->nr].id, f->t->v[f->i].id);
	w->v[w->nr++].b = f->b;
	f->b->queued = true;
	return 0;
}

/*
 * The blobs queued in `w` read (sizes, or fingerprints): from the packs
 * on both threads (follow_run()), then what they missed from libgit2;
 * and the queue emptied. A batch of fingerprints is kept whole (in the
 * arenas) while the cache holds fewer words than its bound, else kept
 * until follow_done().
 */
static int wants_read(struct gm_follow *fc, struct wants *w, bool fingerprints)
{
	bool keep = fingerprints && fc->spans < FOLLOW_CACHE_SPANS;
	struct reads r = { w->v, NULL, keep };
	struct task t = { .fn = fingerprints ? read_fingerprint : read_size,
			  .ctx = &r, .step = fingerprints ? 1 : 16 };
	int error;

	if (!w->nr)
		return 0;
	if (!(r.got = calloc(w->nr, sizeof(*r.got))))
		error = gm_error_set(GM_ERROR, "out of memory");
	else if (!(error = follow_run(fc, &t, w->nr)))
		error = blobs_read_misses(fc, w->v, w->nr, fingerprints, keep,
					  r.got);
	for (size_t k = 0; r.got && k < w->nr; k++)
		error = follow_got(fc, w->v[k].b, &r.got[k], fingerprints,
				   keep, error);
	for (size_t k = 0; k < w->nr; k++)
		w->v[k].b->queued = false;	/* also after an error */
	free(r.got);
	w->nr = 0;
	return error;
}

/*
 * The sizes of the files of the listing not known yet, read (two
 * threads, wants_read()) and noted in the listing and its trees.
 */
static int follow_sizes(struct gm_follow *fc, struct wants *w)
{
	int error = 0;

	for (size_t i = 0; i < fc->ls.nr && !error; i++) {
		struct fentry *f = &fc->ls.v[i];
		bool fresh;

		if (f->regular && f->size == SIZE_UNKNOWN &&
		    !(error = entry_look_up(fc, f, &fresh)) && fresh)
			error = wants_add(w, f);
	}
	if (!error)
		error = wants_read(fc, w, false);
	for (size_t i = 0; i < fc->ls.nr && !error; i++) {
		struct fentry *f = &fc->ls.v[i];

		if (f->regular && f->size == SIZE_UNKNOWN)
			f->size = f->b->size;
	}
	return error;
}

/*
 * The facts of the destination's blob `id` into `*out`, its fingerprint
 * read if not known (kept past the bound until follow_done()).
 * @return 0 or GM_ERROR.
 */
static int follow_dst(struct gm_follow *fc, const git_oid *id,
		      struct blobinfo **out)
{
	struct blob_want want = { *id, oidmap_get(&fc->blobs, id) };
	struct wants w = { &want, 1, 1 };

	if (!want.b && !(want.b = blob_new(fc, id)))
		return gm_error_set(GM_ERROR, "out of memory");
	if (!want.b->have_fp && !want.b->no_fp)
		want.b->size = -1;	/* until read */
	*out = want.b;
	return want.b->have_fp || want.b->no_fp ? 0 :
	       wants_read(fc, &w, true);
}

/* After a search: the fingerprints kept past the bound are dropped. */
static void follow_done(struct gm_follow *fc)
{
	for (size_t i = 0; i < fc->nr_temps; i++) {
		free(fc->temps[i]->fp);
		fc->temps[i]->fp = NULL;
		fc->temps[i]->nr = 0;
		fc->temps[i]->have_fp = false;
	}
	fc->nr_temps = 0;
}

/* ==================== the search ==================== */

static const char *listing_prefix(const struct listing *l, size_t d)
{
	return l->names.ptr + l->dirs[d].name;
}

/*
 * Add the directory `parent`'s prefix + `name` + "/" (NULL: the root,
 * "") to `l`, listed from `a` against `b` or `same`.
 */
static int listing_dir(struct listing *l, size_t parent, const char *name,
		       size_t len, const struct gm_objects_tree *a,
		       const struct gm_objects_tree *b, bool same,
		       uint32_t *out)
{
	size_t off = l->names.len;
	int error = 0;

	if (GM_ARRAY_GROW(l->dirs, l->nr_dirs, l->alloc_dirs) < 0)
		return GM_ERROR;
	if (name) {
		/* the parent's prefix may move as names grows: copy by offset */
		size_t plen = strlen(listing_prefix(l, parent));

		if ((error = gm_buf_grow(&l->names, plen + len + 2)) < 0)
			return error;
		error = gm_buf_put(&l->names, listing_prefix(l, parent), plen);
		if (!error)
			error = gm_buf_put(&l->names, name, len);
		if (!error)
			error = gm_buf_putc(&l->names, '/');
	}
	if (!error)
		error = gm_buf_putc(&l->names, '\0');
	if (error)
		return error;
	l->dirs[l->nr_dirs] = (struct ldir){ off, a, b, same, l->nr, l->nr,
					     l->nr_dirs + 1 };
	*out = (uint32_t)l->nr_dirs++;
	return 0;
}

/*
 * Directory `d` of the listing under way, just added, filled from the
 * last listing if that listed the same trees there: its files and
 * directories copied, renumbered. @return 1 if so, 0 if not, or GM_ERROR.
 */
static int listing_reuse(struct gm_follow *fc, uint32_t d)
{
	struct listing *l = &fc->ls;
	const struct listing *p = &fc->prev;
	const char *want = listing_prefix(l, d);
	const struct ldir *pd, *nd = &l->dirs[d];
	size_t n0, n1, nf, ndirs;
	int c = 1;

	while (fc->prev_at < p->nr_dirs &&
	       (c = strcmp(listing_prefix(p, fc->prev_at), want)) < 0)
		fc->prev_at++;
	if (c || fc->prev_at >= p->nr_dirs)
		return 0;
	pd = &p->dirs[fc->prev_at];
	if (pd->a != nd->a || pd->b != nd->b || pd->same != nd->same)
		return 0;
	nf = pd->f_end - pd->f_start;
	ndirs = pd->d_end - fc->prev_at - 1;
	n0 = ndirs ? p->dirs[fc->prev_at + 1].name : 0;
	n1 = !ndirs ? 0 : pd->d_end < p->nr_dirs ? p->dirs[pd->d_end].name :
						   p->names.len;
	if ((nf && GM_ARRAY_GROW(l->v, l->nr + nf - 1, l->alloc) < 0) ||
	    (ndirs && GM_ARRAY_GROW(l->dirs, l->nr_dirs + ndirs - 1,
				    l->alloc_dirs) < 0) ||
	    gm_buf_put(&l->names, p->names.ptr + n0, n1 - n0) < 0)
		return GM_ERROR;
	for (size_t k = 0; k < nf; k++) {
		struct fentry *f = &l->v[l->nr + k];

		*f = p->v[pd->f_start + k];
		f->dir = f->dir - (uint32_t)fc->prev_at + d;
	}
	for (size_t k = 0; k < ndirs; k++) {
		struct ldir *x = &l->dirs[l->nr_dirs + k];

		*x = p->dirs[fc->prev_at + 1 + k];
		x->name = x->name - n0 + (l->names.len - (n1 - n0));
		x->f_start = x->f_start - pd->f_start + l->nr;
		x->f_end = x->f_end - pd->f_start + l->nr;
		x->d_end = x->d_end - fc->prev_at + d;
	}
	l->nr += nf;
	l->nr_dirs += ndirs;
	fc->prev_at = pd->d_end;
	return 1;
}

/*
 * List every file of tree `a` (its directory `dir`) recursively, in the
 * order of the trees, each marked deleted unless tree `b` (NULL: none;
 * `same`: identical to `a`) has it as a file too: the sources of
 * --follow, which looks for copies of any file (find_copies_harder). An
 * unreadable subtree of `a` gives nothing; one of `b`, no file. What the
 * last listing listed from the same trees is copied from it.
 */
static int listing_add(struct gm_follow *fc, struct gm_objects_tree *a,
		       struct gm_objects_tree *b, bool same, uint32_t dir)
{
	struct listing *l = &fc->ls;
	int error = 0;

	for (size_t i = 0; i < a->nr && !error; i++) {
		const struct gm_objects_entry *x = &a->v[i], *y;
		struct gm_objects_tree *sa, *sb = NULL;
		bool sub_same = false;
		git_oid id;
		uint32_t sub = 0;

		if (!gm_objects_is_tree(x->mode)) {
			if ((error = GM_ARRAY_GROW(l->v, l->nr, l->alloc)) < 0)
				break;
			l->v[l->nr++] = (struct fentry){
				a, NULL, SIZE_UNKNOWN, (uint32_t)i, dir,
				!same && !gm_objects_tree_find(b, x->name, x->len, -1),
				is_regular(x->mode)
			};
			continue;
		}
		gm_oid_fromraw(&id, x->id);
		if (!(sa = follow_tree(fc, &id)))
			continue;
		y = same ? x : gm_objects_tree_find(b, x->name, x->len, 1);
		if (y && !(sub_same = !memcmp(x->id, y->id, GIT_OID_RAWSZ))) {
			gm_oid_fromraw(&id, y->id);
			sb = follow_tree(fc, &id);
		}
		error = listing_dir(l, dir, x->name, x->len, sa, sb, sub_same,
				    &sub);
		if (!error && (error = listing_reuse(fc, sub)) == 0)
			error = listing_add(fc, sa, sb, sub_same, sub);
		if (error < 0)
			break;
		error = 0;
		l->dirs[sub].f_end = l->nr;
		l->dirs[sub].d_end = l->nr_dirs;
	}
	return error;
}

/*
 * The listing of tree `ta` (fc->ls), its files marked deleted unless tree
 * `tb` has them, made with what the last one listed from the same
 * subtrees.
 * @return 1, 0 if `ta` cannot be read, or GM_ERROR.
 */
static int follow_list(struct gm_follow *fc, const git_oid *ta,
		       const git_oid *tb)
{
	struct gm_objects_tree *a, *b;
	struct listing last;
	uint32_t root = 0;
	int error;

	if (fc->listed) {	/* the last one, for its parts */
		last = fc->ls;
		fc->ls = fc->prev;
		fc->prev = last;
	}
	fc->listed = false;
	fc->prev_at = 0;
	fc->ls.nr = fc->ls.nr_dirs = 0;
	gm_buf_reset(&fc->ls.names);
	if (!(a = follow_tree(fc, ta)))
		return 0;
	b = follow_tree(fc, tb);
	if ((error = listing_dir(&fc->ls, 0, NULL, 0, a, b, false, &root)) < 0 ||
	    (error = listing_add(fc, a, b, false, root)) < 0)
		return error;
	fc->listed = true;
	return 1;
}

/* score_compare(): > 0 when `b` is the better one. */
static int candidate_cmp(const struct candidate *a, const struct candidate *b)
{
	if (a->score != b->score)
		return b->score - a->score;
	return b->name_score - a->name_score;
}

/*
 * The score of estimate_similarity() of a blob of `ss` bytes whose
 * fingerprint is `fp` (`nr` words) against one of `ds` bytes spread over
 * `dst`.
 */
static int fp_score(const uint32_t *dst, const uint32_t *fp,
		    uint32_t nr, size_t ss, size_t ds)
{
	size_t max = ss > ds ? ss : ds, copied = 0;

	for (uint32_t i = 0; i < nr;) {
		uint32_t h, c, d;

		i = fp_next(fp, i, &h, &c);
		d = dst[h];
		copied += c < d ? c : d;
	}
	return ds && max ? (int)((double)copied * MAX_SCORE / (double)max) : 0;
}

/* The scoring of the candidates of a search, against fc->dst. */
struct scoring {
	struct gm_follow *fc;
	size_t dsize;
};

static int score_one(void *ctx, size_t i, const struct worker *wk)
{
	const struct scoring *sc = ctx;
	struct candidate *c = &sc->fc->cand[i];
	const struct fentry *f = &sc->fc->ls.v[c->src];

	(void)wk;
	c->score = fp_score(sc->fc->dst, c->fp, c->nr, (size_t)f->size,
			    sc->dsize);
	return 0;
}

/*
 * Before a search: the files of the listing whose size may match
 * `dsize`, fc->cand in listing order, with their fingerprints, those not
 * kept read (two threads, wants_read()), and their scores against
 * fc->dst (two threads). Fingerprints past the cache's bound are kept
 * until follow_done().
 */
static int follow_candidates(struct gm_follow *fc, size_t dsize)
{
	struct wants w = { NULL, 0, 0 };
	struct scoring sc = { fc, dsize };
	struct task t = { .fn = score_one, .ctx = &sc, .step = 16 };
	size_t kept = 0;
	int error = follow_sizes(fc, &w);

	fc->nr_cand = 0;
	for (size_t i = 0; i < fc->ls.nr && !error; i++) {
		const struct fentry *f = &fc->ls.v[i];

		if (!f->regular || f->size < 0 || f->b->no_fp ||
		    !size_may_match((size_t)f->size, dsize))
			continue;
		if (GM_ARRAY_GROW(fc->cand, fc->nr_cand, fc->alloc_cand) < 0 ||
		    (!f->b->have_fp && !f->b->queued && wants_add(&w, f) < 0)) {
			error = GM_ERROR;
			break;
		}
		fc->cand[fc->nr_cand++] = (struct candidate){ 0, 0, i, NULL, 0 };
	}
	if (!error)
		error = wants_read(fc, &w, true);
	for (size_t k = 0; k < fc->nr_cand && !error; k++) {
		const struct blobinfo *b = fc->ls.v[fc->cand[k].src].b;

		if (!b->have_fp)
			continue;
		fc->cand[kept] = fc->cand[k];
		fc->cand[kept].fp = b->fp;
		fc->cand[kept++].nr = b->nr;
	}
	fc->nr_cand = kept;
	free(w.v);
	return error ? error : follow_run(fc, &t, fc->nr_cand);
}

int gm_follow_source(char **out, struct gm_follow *fc, const git_oid *ta,
		     const git_oid *tb, const char *dst, const git_oid *dst_id,
		     git_filemode_t dst_mode)
{
	const char *dst_base = base_name(dst);
	struct blobinfo *di = NULL;
	struct candidate top[4];
	size_t best = SIZE_MAX, dsize;
	int best_score = -1, error = 0;

	*out = NULL;
	if (!ta || dst_mode == GIT_FILEMODE_COMMIT)
		return 0;
	if ((error = follow_list(fc, ta, tb)) <= 0)
		return error;
	for (size_t i = 0; i < fc->ls.nr; i++) {	/* exact */
		const struct fentry *f = &fc->ls.v[i];
		const struct gm_objects_entry *e = &f->t->v[f->i];
		int score;

		if (memcmp(e->id, dst_id->id, GIT_OID_RAWSZ))
			continue;
		score = f->deleted + !strcmp(e->name, dst_base);
		if (score > best_score) {	/* the first of the best */
			best = i;
			best_score = score;
		}
	}
	if (best != SIZE_MAX || !is_regular(dst_mode))
		goto found;
	if ((error = follow_dst(fc, dst_id, &di)) < 0 || !di->have_fp ||
	    di->size < 0) {
		follow_done(fc);
		return error;
	}
	dsize = (size_t)di->size;
	dst_set(fc->dst, di->fp, di->nr, false);
	for (int k = 0; k < 4; k++)
		top[k] = (struct candidate){ 0, 0, SIZE_MAX, NULL, 0 };
	error = follow_candidates(fc, dsize);
	for (size_t i = 0; i < fc->nr_cand && !error; i++) {
		struct candidate *c = &fc->cand[i];
		const struct fentry *f = &fc->ls.v[c->src];
		int worst = 0;

		for (int k = 1; k < 4; k++)
			if (candidate_cmp(&top[k], &top[worst]) > 0)
				worst = k;
		if (c->score < top[worst].score)
			continue;	/* not better, whatever its name */
		c->name_score = !strcmp(f->t->v[f->i].name, dst_base);
		if (candidate_cmp(&top[worst], c) > 0)
			top[worst] = *c;
	}
	dst_set(fc->dst, di->fp, di->nr, true);
	follow_done(fc);
	if (error)
		return error;
	for (int k = 1; k < 4; k++) {	/* a stable sort of four */
		struct candidate c = top[k];
		int j = k;

		for (; j > 0 && candidate_cmp(&top[j - 1], &c) > 0; j--)
			top[j] = top[j - 1];
		top[j] = c;
	}
	for (int pass = 0; pass < 2 && best == SIZE_MAX; pass++)
		for (int k = 0; k < 4 && best == SIZE_MAX; k++) {
			if (top[k].src == SIZE_MAX || top[k].score < MIN_SCORE)
				break;
			if (pass || fc->ls.v[top[k].src].deleted)
				best = top[k].src;
		}
found:
	if (best != SIZE_MAX) {
		const struct fentry *f = &fc->ls.v[best];
		struct gm_buf path = GM_BUF_INIT;

		if ((error = gm_buf_puts(&path, fc->ls.names.ptr +
					 fc->ls.dirs[f->dir].name)) == 0 &&
		    (error = gm_buf_puts(&path, f->t->v[f->i].name)) == 0 &&
		    !(*out = gm_buf_detach(&path, NULL)))
			error = gm_error_set(GM_ERROR, "out of memory");
		gm_buf_release(&path);
	}
	return error;
}
