#include "gm/graph.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/pack.h"

#define RAWSZ GIT_OID_RAWSZ
#define MAX_LAYERS 64
#define BDAT_HEADER 12
#define SEED0 0x293ae76fu
#define SEED1 0x7e646e2cu
#define NO_PARENT 0x70000000u
#define MORE_PARENTS 0x80000000u

/* One file of the graph: a layer of a chain, or the whole graph. */
struct layer {
	const unsigned char *map;
	size_t len;
	uint32_t nr, base;		/* commits: its own, below it */
	const unsigned char *fanout, *oids, *cdat;
	const unsigned char *bidx, *bdat;	/* NULL: no usable filters */
	size_t bdat_len;		/* after its header */
	uint32_t version, hashes, bits;	/* of the filters */
};

struct gm_graph {
	struct layer *v;
	size_t nr;
};

/* ==================== murmur3 and the keys ==================== */

static uint32_t rotl32(uint32_t x, unsigned r)
{
	return x << r | x >> (32 - r);
}

static uint32_t mix(uint32_t k)
{
	return rotl32(k * 0xcc9e2d51u, 15) * 0x1b873593u;
}

uint32_t gm_graph_murmur3(uint32_t seed, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint32_t h = seed, k = 0;
	size_t i = 0;

	for (; i + 4 <= len; i += 4) {
		k = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 |
		    (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24;
		h = rotl32(h ^ mix(k), 13) * 5 + 0xe6546b64u;
	}
	k = 0;
	for (size_t j = len & 3; j--;)	/* the tail, little-endian too */
		k = k << 8 | p[i + j];
	if (len & 3)
		h ^= mix(k);
	h ^= (uint32_t)len;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	return h ^ (h >> 16);
}

void gm_graph_path_release(struct gm_graph_path *p)
{
	free(p->seeds);
	memset(p, 0, sizeof(*p));
}

int gm_graph_path_set(struct gm_graph_path *p, const char *path, size_t len)
{
	size_t n = 1;

	gm_graph_path_release(p);
	if (!len) {
		p->any = true;
		return 0;
	}
	for (size_t i = 0; i < len; i++) {
		n += path[i] == '/';
		p->high |= (unsigned char)path[i] > 0x7f;
	}
	if (!(p->seeds = calloc(n, sizeof(*p->seeds))))
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i <= len; i++) {	/* each prefix up to a '/' */
		if (i < len && path[i] != '/')
			continue;
		p->seeds[p->nr][0] = gm_graph_murmur3(SEED0, path, i);
		p->seeds[p->nr++][1] = gm_graph_murmur3(SEED1, path, i);
	}
	return 0;
}

/* ==================== reading a file ==================== */

/* The chunk `id` of `l`: where it starts and its length; NULL if none. */
static const unsigned char *chunk(const struct layer *l, const char *id,
				  size_t *len)
{
	size_t nr = l->map[6], end = l->len - RAWSZ, start = 0;
	const unsigned char *toc = l->map + 8;
	bool found = false;

	for (size_t i = 0; i < nr; i++, toc += 12) {
		uint64_t off = (uint64_t)gm_be32(toc + 4) << 32 | gm_be32(toc + 8);

		if (!memcmp(toc, id, 4)) {
			start = (size_t)off;
			found = off <= end;
		}
	}
	if (!found)
		return NULL;
	toc = l->map + 8;	/* where the next chunk starts */
	for (size_t i = 0; i <= nr; i++, toc += 12) {
		uint64_t off = (uint64_t)gm_be32(toc + 4) << 32 | gm_be32(toc + 8);

		if (off > start && off < end)
			end = (size_t)off;
	}
	*len = end - start;
	return l->map + start;
}

/* Whether the filters' ends in `bidx` never go back nor past `len`. */
static bool index_sane(const unsigned char *bidx, uint32_t nr, size_t len)
{
	uint32_t last = 0;

	for (uint32_t i = 0; i < nr; i++) {
		uint32_t end = gm_be32(bidx + 4 * (size_t)i);

		if (end < last || end > len)
			return false;
		last = end;
	}
	return true;
}

/*
 * The Bloom filters of `l`, if they are of `version` (-1: 1 or 2) and
 * sane: settings git could have written, an index within the data.
 * Anything else leaves the layer without filters: "may have changed".
 */
static void layer_filters(struct layer *l, int version)
{
	size_t bidx_len, bdat_len;
	const unsigned char *bidx = chunk(l, "BIDX", &bidx_len);
	const unsigned char *bdat = chunk(l, "BDAT", &bdat_len);
	uint32_t v, hashes, bits;

	if (!version || !bidx || !bdat || bidx_len != (size_t)l->nr * 4 ||
	    bdat_len < BDAT_HEADER)
		return;
	v = gm_be32(bdat);
	hashes = gm_be32(bdat + 4);
	bits = gm_be32(bdat + 8);
	if ((v != 1 && v != 2) || (version > 0 && (uint32_t)version != v) ||
	    !hashes || hashes > 32 || !bits ||
	    !index_sane(bidx, l->nr, bdat_len - BDAT_HEADER))
		return;
	l->bits = bits;
	l->bidx = bidx;
	l->bdat = bdat + BDAT_HEADER;
	l->bdat_len = bdat_len - BDAT_HEADER;
	l->version = v;
	l->hashes = hashes;
}

/* Map and check the graph file `path`, `bases` layers below it. */
static bool layer_open(struct layer *l, const char *path, unsigned bases,
		       int version)
{
	size_t len;

	memset(l, 0, sizeof(*l));
	if (!gm_map_file(path, &l->map, &l->len))
		return false;
	if (l->len < 8 + 12 + RAWSZ || memcmp(l->map, "CGPH", 4) ||
	    l->map[4] != 1 || l->map[5] != 1 || l->map[7] != bases ||
	    l->len < 8 + ((size_t)l->map[6] + 1) * 12 + RAWSZ)
		goto bad;
	if (!(l->fanout = chunk(l, "OIDF", &len)) || len != 1024)
		goto bad;
	l->nr = gm_be32(l->fanout + 1020);
	for (int i = 1; i < 256; i++)
		if (gm_be32(l->fanout + 4 * i) < gm_be32(l->fanout + 4 * (i - 1)))
			goto bad;
	if (!(l->oids = chunk(l, "OIDL", &len)) ||
	    len != (size_t)l->nr * RAWSZ ||
	    !(l->cdat = chunk(l, "CDAT", &len)) ||
	    len != (size_t)l->nr * (RAWSZ + 16))
		goto bad;
	layer_filters(l, version);
	return true;
bad:
	munmap((void *)l->map, l->len);
	memset(l, 0, sizeof(*l));
	return false;
}

static void graph_close(struct gm_graph *g)
{
	for (size_t i = 0; i < g->nr; i++)
		munmap((void *)g->v[i].map, g->v[i].len);
	free(g->v);
	g->v = NULL;
	g->nr = 0;
}

/*
 * The filters of a chain's layers whose settings differ from those of
 * the topmost layer with filters dropped, as git drops them.
 */
static void chain_settings(struct gm_graph *g)
{
	const struct layer *first = NULL;

	for (size_t i = g->nr; i--;) {
		struct layer *l = &g->v[i];

		if (!l->bidx)
			continue;
		if (!first) {
			first = l;
		} else if (l->version != first->version ||
			   l->hashes != first->hashes || l->bits != first->bits) {
			l->bidx = l->bdat = NULL;
			l->bdat_len = 0;
		}
	}
}

/* The layers named by `dir`/info/commit-graphs/commit-graph-chain. */
static int graph_chain(struct gm_graph *g, const char *dir, int version)
{
	struct gm_buf path = GM_BUF_INIT;
	const unsigned char *text;
	size_t len, nr;
	int error = 0;

	if (gm_buf_printf(&path, "%s/info/commit-graphs/commit-graph-chain",
			  dir) < 0)
		return GM_ERROR;
	if (!gm_map_file(path.ptr, &text, &len)) {
		gm_buf_release(&path);
		return 0;
	}
	nr = len / (2 * RAWSZ + 1);
	if (len % (2 * RAWSZ + 1) || !nr || nr > MAX_LAYERS ||
	    !(g->v = calloc(nr, sizeof(*g->v))))
		goto out;
	for (size_t i = 0; i < nr; i++) {
		const char *line = (const char *)text + i * (2 * RAWSZ + 1);

		if (line[2 * RAWSZ] != '\n' ||
		    strspn(line, "0123456789abcdef") != 2 * RAWSZ)
			goto bad;
		gm_buf_reset(&path);
		if (gm_buf_printf(&path,
				  "%s/info/commit-graphs/graph-%.*s.graph",
				  dir, 2 * RAWSZ, line) < 0) {
			error = GM_ERROR;
			goto bad;
		}
		if (!layer_open(&g->v[i], path.ptr, (unsigned)i, version) ||
		    (i && g->v[i - 1].base + g->v[i - 1].nr < g->v[i - 1].base))
			goto bad;
		g->v[i].base = i ? g->v[i - 1].base + g->v[i - 1].nr : 0;
		g->nr++;
	}
	chain_settings(g);
	goto out;
bad:
	graph_close(g);
out:
	munmap((void *)text, len);
	gm_buf_release(&path);
	return error ? gm_error_set(GM_ERROR, "out of memory") : 0;
}

/* The graph of object directory `dir`, into `g`; none leaves it empty. */
static int graph_load(struct gm_graph *g, const char *dir, int version)
{
	struct gm_buf path = GM_BUF_INIT;

	if (gm_buf_printf(&path, "%s/info/commit-graph", dir) < 0)
		return gm_error_set(GM_ERROR, "out of memory");
	if ((g->v = calloc(1, sizeof(*g->v))) &&
	    layer_open(&g->v[0], path.ptr, 0, version))
		g->nr = 1;
	gm_buf_release(&path);
	if (!g->v)
		return gm_error_set(GM_ERROR, "out of memory");
	if (g->nr)
		return 0;
	free(g->v);
	g->v = NULL;
	return graph_chain(g, dir, version);
}

int gm_graph_open(struct gm_graph **out, const char *const *dirs, size_t nr,
		  int version)
{
	struct gm_graph *g;
	int error = 0;

	*out = NULL;
	if (!(g = calloc(1, sizeof(*g))))
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < nr && !g->nr && !error; i++)
		error = graph_load(g, dirs[i], version);
	if (error || !g->nr) {
		gm_graph_free(g);
		return error;
	}
	*out = g;
	return 0;
}

void gm_graph_free(struct gm_graph *g)
{
	if (!g)
		return;
	graph_close(g);
	free(g);
}

/* ==================== asking ==================== */

bool gm_graph_find(const struct gm_graph *g, const git_oid *id,
		   const git_oid *tree, struct gm_graph_commit *out)
{
	for (size_t i = g ? g->nr : 0; i--;) {
		const struct layer *l = &g->v[i];
		uint32_t pos;

		if (!l->nr || !gm_fanout_find(l->fanout, l->oids, id->id, &pos))
			continue;
		if (memcmp(l->cdat + (size_t)pos * (RAWSZ + 16), tree->id,
			   RAWSZ))
			return false;
		out->layer = (uint32_t)i;
		out->pos = pos;
		return true;
	}
	return false;
}

/* Whether commit `c` may change `p`: false only when its filter lacks a key. */
static bool may_change(const struct gm_graph *g, struct gm_graph_commit c,
		       const struct gm_graph_path *p)
{
	const struct layer *l = &g->v[c.layer];
	const unsigned char *data;
	uint32_t start, end;
	uint64_t bits;

	if (p->any || !l->bidx || (l->version == 1 && p->high))
		return true;
	start = c.pos ? gm_be32(l->bidx + 4 * ((size_t)c.pos - 1)) : 0;
	end = gm_be32(l->bidx + 4 * (size_t)c.pos);
	if (start >= end || end > l->bdat_len)
		return true;	/* none, or not to be trusted */
	data = l->bdat + start;
	bits = (uint64_t)(end - start) * 8;
	for (size_t k = 0; k < p->nr; k++) {
		for (uint32_t i = 0; i < l->hashes; i++) {
			uint32_t h = p->seeds[k][0] + i * p->seeds[k][1];
			uint64_t bit = h % bits;

			if (!(data[bit / 8] & (1u << (bit % 8))))
				return false;
		}
	}
	return true;
}

bool gm_graph_may_change_any(const struct gm_graph *g,
			     struct gm_graph_commit c,
			     const struct gm_graph_path *p, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (may_change(g, c, &p[i]))
			return true;
	return false;
}

bool gm_graph_commit_at(const struct gm_graph *g, uint32_t global,
			struct gm_graph_commit *out)
{
	for (size_t i = 0; i < g->nr; i++) {
		if (global >= g->v[i].base &&
		    global - g->v[i].base < g->v[i].nr) {
			out->layer = (uint32_t)i;
			out->pos = global - g->v[i].base;
			return true;
		}
	}
	return false;
}

static const unsigned char *cdat(const struct gm_graph *g,
				 struct gm_graph_commit c)
{
	return g->v[c.layer].cdat + (size_t)c.pos * (RAWSZ + 16);
}

void gm_graph_commit_id(const struct gm_graph *g, struct gm_graph_commit c,
			git_oid *out)
{
	git_oid_fromraw(out, g->v[c.layer].oids + (size_t)c.pos * RAWSZ);
}

void gm_graph_commit_tree(const struct gm_graph *g, struct gm_graph_commit c,
			  git_oid *out)
{
	git_oid_fromraw(out, cdat(g, c));
}

int64_t gm_graph_commit_time(const struct gm_graph *g,
			     struct gm_graph_commit c)
{
	const unsigned char *d = cdat(g, c) + RAWSZ + 8;

	return (int64_t)(d[3] & 3) << 32 | gm_be32(d + 4);
}

int gm_graph_commit_parents(const struct gm_graph *g,
			    struct gm_graph_commit c,
			    struct gm_graph_commit parents[2])
{
	const unsigned char *d = cdat(g, c) + RAWSZ;
	uint32_t p[2] = { gm_be32(d), gm_be32(d + 4) };
	int n = 0;

	if (p[1] & MORE_PARENTS || (p[0] == NO_PARENT && p[1] != NO_PARENT))
		return -1;
	for (int i = 0; i < 2 && p[i] != NO_PARENT; i++, n++)
		if (!gm_graph_commit_at(g, p[i], &parents[i]))
			return -1;
	return n;
}
