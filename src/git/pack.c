#define ZLIB_CONST
#include "gm/pack.h"

#include <dirent.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/strvec.h"

#define RAWSZ GIT_OID_RAWSZ
#define MAX_OBJECT ((size_t)1 << 30)	/* larger ones: libgit2's */
#define MAX_CHAIN 10000
#define ALTERNATE_DEPTH 5
#define CACHE_SLOTS 1024
#define DEFAULT_CACHE ((size_t)64 << 20)

/* The object types of a pack (git's pack-format.txt), 1 to 4 libgit2's. */
enum {
	OBJ_COMMIT = 1, OBJ_TREE = 2, OBJ_BLOB = 3, OBJ_TAG = 4,
	OBJ_OFS_DELTA = 6, OBJ_REF_DELTA = 7
};
_Static_assert((int)GIT_OBJECT_COMMIT == OBJ_COMMIT &&
	       (int)GIT_OBJECT_TAG == OBJ_TAG, "a pack's types are libgit2's");

/* One pack: its .idx (version 2) and .pack, mapped whole. */
struct pack {
	const unsigned char *idx;
	size_t idx_len;
	const unsigned char *data;
	size_t len;		/* of data, the trailing checksum included */
	uint32_t nr;
	const unsigned char *fanout;	/* 256 big-endian counts */
	const unsigned char *ids;	/* nr ids, sorted */
	const unsigned char *offsets;	/* nr offsets, or indexes of large */
	const unsigned char *large;	/* 64-bit offsets */
	size_t nr_large;
};

struct gm_packs {
	struct pack *v;
	size_t nr, alloc;
};

/* A delta base kept, by pack and offset. */
struct cached {
	const struct pack *p;	/* NULL: an empty slot */
	size_t off;
	int type;
	char *data;
	size_t len;
};

struct gm_pack_reader {
	const struct gm_packs *packs;
	struct libdeflate_decompressor *inflater;
	z_stream z;		/* for the first bytes of a delta */
	size_t last;		/* the pack of the last hit: tried first */
	struct cached cache[CACHE_SLOTS];
	size_t cached, limit;	/* bytes kept, and at most */
	size_t hand;		/* the next slot to evict from */
};

static uint64_t be64(const unsigned char *p)
{
	return (uint64_t)gm_be32(p) << 32 | gm_be32(p + 4);
}

/* ==================== opening ==================== */

static void pack_unmap(struct pack *p)
{
	if (p->idx)
		munmap((void *)p->idx, p->idx_len);
	if (p->data)
		munmap((void *)p->data, p->len);
}

bool gm_map_file(const char *path, const unsigned char **out, size_t *len)
{
	struct stat st;
	void *m;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);	/* no FIFO */

	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return false;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return false;
	*out = m;
	*len = (size_t)st.st_size;
	return true;
}

/* Whether the mapped .idx of `p` is a well-formed version 2 index. */
static bool idx_parse(struct pack *p)
{
	static const unsigned char magic[8] = {
		0xff, 't', 'O', 'c', 0, 0, 0, 2
	};
	size_t fixed;
	uint32_t prev = 0;

	if (p->idx_len < 8 + 1024 + 2 * RAWSZ || memcmp(p->idx, magic, 8))
		return false;
	p->fanout = p->idx + 8;
	for (int i = 0; i < 256; i++) {
		uint32_t n = gm_be32(p->fanout + 4 * i);

		if (n < prev)
			return false;
		prev = n;
	}
	p->nr = prev;
	fixed = 8 + 1024 + (size_t)p->nr * (RAWSZ + 8) + 2 * RAWSZ;
	if (p->idx_len < fixed || (p->idx_len - fixed) % 8)
		return false;
	p->ids = p->fanout + 1024;
	p->offsets = p->ids + (size_t)p->nr * (RAWSZ + 4);
	p->large = p->offsets + (size_t)p->nr * 4;
	p->nr_large = (p->idx_len - fixed) / 8;
	return true;
}

/* Whether the mapped .pack of `p` is a pack of the index's objects. */
static bool pack_parse(const struct pack *p)
{
	uint32_t version;

	if (p->len < 12 + RAWSZ || memcmp(p->data, "PACK", 4))
		return false;
	version = gm_be32(p->data + 4);
	return (version == 2 || version == 3) && gm_be32(p->data + 8) == p->nr;
}

/* Add the pack of index `idx_path`, if both files are well formed. */
static int packs_add(struct gm_packs *ps, const char *idx_path)
{
	struct pack p;
	struct gm_buf path = GM_BUF_INIT;
	size_t n = strlen(idx_path) - strlen(".idx");
	bool ok;

	memset(&p, 0, sizeof(p));
	if (gm_buf_put(&path, idx_path, n) < 0 ||
	    gm_buf_puts(&path, ".pack") < 0)
		return GM_ERROR;
	ok = gm_map_file(idx_path, &p.idx, &p.idx_len) && idx_parse(&p) &&
	     gm_map_file(path.ptr, &p.data, &p.len) && pack_parse(&p);
	gm_buf_release(&path);
	if (ok && GM_ARRAY_GROW(ps->v, ps->nr, ps->alloc) == 0) {
		ps->v[ps->nr++] = p;
		return 0;
	}
	pack_unmap(&p);
	return ok ? GM_ERROR : 0;
}

/* The packs of object directory `dir`, in the order of their names. */
static int packs_add_dir(struct gm_packs *ps, const char *dir)
{
	struct gm_strvec names = GM_STRVEC_INIT;
	struct gm_buf path = GM_BUF_INIT;
	struct dirent *de;
	DIR *d;
	int error = 0;

	if (gm_buf_printf(&path, "%s/pack", dir) < 0)
		return GM_ERROR;
	if (!(d = opendir(path.ptr))) {
		gm_buf_release(&path);
		return 0;
	}
	while (!error && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > 4 && !strcmp(de->d_name + len - 4, ".idx"))
			error = gm_strvec_pushf(&names, "%s/%s", path.ptr,
						de->d_name);
	}
	closedir(d);
	gm_strvec_sort_uniq(&names);	/* a directory's names are unique */
	for (size_t i = 0; !error && i < names.nr; i++)
		error = packs_add(ps, names.v[i]);
	gm_strvec_release(&names);
	gm_buf_release(&path);
	return error;
}

static int packs_add_objects(struct gm_packs *ps, struct gm_strvec *seen,
			     const char *dir, int depth);

/* The alternates named in `dir`/info/alternates, relative ones to `dir`. */
static int packs_add_alternates(struct gm_packs *ps, struct gm_strvec *seen,
				const char *dir, int depth)
{
	struct gm_buf file = GM_BUF_INIT, path = GM_BUF_INIT;
	char *line, *next;
	int error = 0;

	if (gm_buf_printf(&path, "%s/info/alternates", dir) < 0)
		return GM_ERROR;
	if (gm_buf_read_file(&file, path.ptr) < 0)
		gm_buf_reset(&file);	/* none */
	for (line = file.ptr; !error && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!*line || *line == '#')
			continue;
		gm_buf_reset(&path);
		if ((*line == '/' ? gm_buf_puts(&path, line) :
		     gm_buf_printf(&path, "%s/%s", dir, line)) < 0)
			error = GM_ERROR;
		else
			error = packs_add_objects(ps, seen, path.ptr,
						  depth + 1);
	}
	gm_buf_release(&file);
	gm_buf_release(&path);
	return error;
}

/* An object directory not `seen` yet (canonical), and its alternates. */
static int packs_add_objects(struct gm_packs *ps, struct gm_strvec *seen,
			     const char *dir, int depth)
{
	char *real;
	int error;

	if (depth > ALTERNATE_DEPTH || !(real = realpath(dir, NULL)))
		return 0;
	if (gm_strvec_contains(seen, real)) {
		free(real);
		return 0;
	}
	error = gm_strvec_push(seen, real);
	if (!error)
		error = packs_add_dir(ps, real);
	if (!error)
		error = packs_add_alternates(ps, seen, real, depth);
	free(real);
	return error;
}

int gm_packs_open(struct gm_packs **out, const char *const *dirs, size_t nr)
{
	struct gm_packs *ps = calloc(1, sizeof(*ps));
	struct gm_strvec seen = GM_STRVEC_INIT;
	int error = 0;

	*out = NULL;
	if (!ps)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; !error && i < nr; i++)
		error = packs_add_objects(ps, &seen, dirs[i], 0);
	gm_strvec_release(&seen);
	if (error) {
		gm_packs_free(ps);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	*out = ps;
	return 0;
}

void gm_packs_free(struct gm_packs *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->nr; i++)
		pack_unmap(&ps->v[i]);
	free(ps->v);
	free(ps);
}

size_t gm_packs_count(const struct gm_packs *ps)
{
	return ps ? ps->nr : 0;
}

/* ==================== finding ==================== */

/* Entry `i`'s offset in the pack; false if it cannot be one. */
static bool pack_offset(const struct pack *p, uint32_t i, size_t *off)
{
	uint32_t o = gm_be32(p->offsets + 4 * (size_t)i);
	uint64_t v = o;

	if (o & 0x80000000u) {
		o &= 0x7fffffffu;
		if (o >= p->nr_large)
			return false;
		v = be64(p->large + 8 * (size_t)o);
	}
	if (v < 12 || v >= p->len - RAWSZ)
		return false;
	*off = (size_t)v;
	return true;
}

bool gm_fanout_find(const unsigned char *fanout, const unsigned char *ids,
		    const unsigned char *id, uint32_t *pos)
{
	uint32_t lo = id[0] ? gm_be32(fanout + 4 * (id[0] - 1)) : 0;
	uint32_t hi = gm_be32(fanout + 4 * id[0]);
	uint64_t key = be64(id), klo = (uint64_t)id[0] << 56;
	uint64_t khi = id[0] == 0xff ? UINT64_MAX : klo + ((uint64_t)1 << 56);

	for (unsigned probes = 0; lo < hi; probes++) {
		uint32_t mid = lo + (hi - lo) / 2;
		const unsigned char *at;
		uint64_t k;
		int c;

		if (probes < 8 && khi > klo && key >= klo && key <= khi)
			mid = lo + (uint32_t)((double)(key - klo) /
					      ((double)(khi - klo) + 1.0) *
					      (hi - lo));
		at = ids + (size_t)mid * RAWSZ;
		k = be64(at);
		c = key != k ? (key < k ? -1 : 1) : memcmp(id, at, RAWSZ);
		if (!c) {
			*pos = mid;
			return true;
		}
		if (c < 0) {
			hi = mid;
			khi = k;
		} else {
			lo = mid + 1;
			klo = k;
		}
	}
	return false;
}

static bool pack_find(const struct pack *p, const unsigned char *id,
		      size_t *off)
{
	uint32_t i;

	return gm_fanout_find(p->fanout, p->ids, id, &i) &&
	       pack_offset(p, i, off);
}

/* The pack holding `id`, the last one that answered tried first. */
static const struct pack *find(struct gm_pack_reader *r,
			       const unsigned char *id, size_t *off)
{
	const struct gm_packs *ps = r->packs;

	for (size_t n = 0, i = r->last; n < ps->nr; n++, i = (i + 1) % ps->nr) {
		if (pack_find(&ps->v[i], id, off)) {
			r->last = i;
			return &ps->v[i];
		}
	}
	return NULL;
}

/* ==================== objects ==================== */

/* The object header at `off`: its type, size, and where its data starts. */
static bool obj_header(const struct pack *p, size_t off, int *type,
		       size_t *size, size_t *pos)
{
	size_t end = p->len - RAWSZ;
	unsigned shift = 4;
	unsigned char c;

	if (off >= end)
		return false;
	c = p->data[off++];
	*type = (c >> 4) & 7;
	*size = c & 15;
	while (c & 0x80) {
		if (off >= end || shift > 32)
			return false;
		c = p->data[off++];
		*size |= (size_t)(c & 0x7f) << shift;
		shift += 7;
	}
	*pos = off;
	return *size <= MAX_OBJECT;
}

static bool is_delta(int type)
{
	return type == OBJ_OFS_DELTA || type == OBJ_REF_DELTA;
}

/*
 * The base of the delta at `off` whose data follows its header at
 * `*pos`: its pack and offset; `*pos` moved past the reference.
 */
static bool delta_base(struct gm_pack_reader *r, const struct pack *p,
		       int type, size_t off, size_t *pos,
		       const struct pack **bp, size_t *boff)
{
	size_t end = p->len - RAWSZ, at = *pos;

	if (type == OBJ_OFS_DELTA) {
		const unsigned char *d = p->data + at;
		size_t back;

		if (!gm_offset_varint(&d, p->data + end, &back) || !back ||
		    back > off)
			return false;
		at = (size_t)(d - p->data);
		*bp = p;
		*boff = off - back;
	} else {
		if (end - at < RAWSZ || !(*bp = find(r, p->data + at, boff)))
			return false;
		at += RAWSZ;
	}
	*pos = at;
	return true;
}

/* Inflate the zlib stream at `pos` of `p`, exactly `size` bytes, to `out`. */
static bool inflate_at(struct gm_pack_reader *r, const struct pack *p,
		       size_t pos, unsigned char *out, size_t size)
{
	size_t got = 0;

	return libdeflate_zlib_decompress_ex(r->inflater, p->data + pos,
					     p->len - RAWSZ - pos, out, size,
					     NULL, &got) == LIBDEFLATE_SUCCESS &&
	       got == size;
}

/*
 * The first `size` bytes (or fewer, all there is) the zlib stream at
 * `pos` of `p` gives, into `out`; how many in `*got`.
 */
static bool inflate_head(struct gm_pack_reader *r, const struct pack *p,
			 size_t pos, unsigned char *out, size_t size,
			 size_t *got)
{
	z_stream *z = &r->z;
	size_t in = p->len - RAWSZ - pos;
	int ret;

	if (inflateReset(z) != Z_OK)
		return false;
	z->next_in = p->data + pos;
	z->avail_in = in > UINT_MAX ? UINT_MAX : (uInt)in;
	z->next_out = out;
	z->avail_out = (uInt)size;
	do
		ret = inflate(z, Z_NO_FLUSH);
	while (ret == Z_OK && z->avail_out);
	*got = size - z->avail_out;
	return ret == Z_OK || ret == Z_STREAM_END;
}

bool gm_offset_varint(const unsigned char **p, const unsigned char *end,
		      size_t *out)
{
	size_t v;
	unsigned char c;

	if (*p >= end)
		return false;
	c = *(*p)++;
	v = c & 127;
	while (c & 128) {
		if (*p >= end || v > (SIZE_MAX >> 8))
			return false;
		c = *(*p)++;
		v = ((v + 1) << 7) | (c & 127);
	}
	*out = v;
	return true;
}

static bool varint(const unsigned char **p, const unsigned char *end,
		   size_t *out)
{
	size_t v = 0;
	unsigned shift = 0;
	unsigned char c;

	do {
		if (*p >= end || shift > 56)
			return false;
		c = *(*p)++;
		v |= (size_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	*out = v;
	return true;
}

/*
 * `delta` (git's delta format) applied to `base`: into `*out`, with a
 * NUL after it. @return 0, GM_ENOTFOUND (a malformed delta), GM_ERROR.
 */
static int delta_apply(char **out, size_t *len, const char *base, size_t blen,
		       const unsigned char *delta, size_t dlen)
{
	const unsigned char *d = delta, *end = delta + dlen;
	size_t bsize, rsize, at = 0;
	char *res;

	if (!varint(&d, end, &bsize) || bsize != blen ||
	    !varint(&d, end, &rsize) || rsize > MAX_OBJECT)
		return GM_ENOTFOUND;
	if (!(res = malloc(rsize + 1)))
		return gm_error_set(GM_ERROR, "out of memory");
	while (d < end) {
		unsigned op = *d++;
		size_t off = 0, n = 0;

		if (op & 0x80) {
			for (unsigned i = 0; i < 7; i++) {
				if (!(op & (1u << i)))
					continue;
				if (d >= end)
					goto bad;
				if (i < 4)
					off |= (size_t)*d++ << (8 * i);
				else
					n |= (size_t)*d++ << (8 * (i - 4));
			}
			if (!n)
				n = 0x10000;
			if (off > blen || n > blen - off || n > rsize - at)
				goto bad;
			memcpy(res + at, base + off, n);
		} else {
			n = op;
			if (!n || n > (size_t)(end - d) || n > rsize - at)
				goto bad;
			memcpy(res + at, d, n);
			d += n;
		}
		at += n;
	}
	if (at != rsize)
		goto bad;
	res[rsize] = '\0';
	*out = res;
	*len = rsize;
	return 0;
bad:
	free(res);
	return GM_ENOTFOUND;
}

/* ==================== the delta base cache ==================== */

static struct cached *cache_slot(struct gm_pack_reader *r,
				 const struct pack *p, size_t off)
{
	uint64_t h = ((uint64_t)(uintptr_t)p ^ off) * 0x9e3779b97f4a7c15ull;

	return &r->cache[(h >> 32) % CACHE_SLOTS];
}

static const struct cached *cache_get(struct gm_pack_reader *r,
				      const struct pack *p, size_t off)
{
	const struct cached *c = cache_slot(r, p, off);

	return c->p == p && c->off == off ? c : NULL;
}

static void cache_drop(struct gm_pack_reader *r, struct cached *c)
{
	if (!c->p)
		return;
	r->cached -= c->len;
	free(c->data);
	memset(c, 0, sizeof(*c));
}

/* Keep `data` (ours from now on) as object `off` of `p`. */
static void cache_put(struct gm_pack_reader *r, const struct pack *p,
		      size_t off, int type, char *data, size_t len)
{
	struct cached *c = cache_slot(r, p, off);

	if (len > r->limit / 4) {
		free(data);
		return;
	}
	cache_drop(r, c);
	while (r->cached + len > r->limit) {
		cache_drop(r, &r->cache[r->hand]);
		r->hand = (r->hand + 1) % CACHE_SLOTS;
	}
	*c = (struct cached){ p, off, type, data, len };
	r->cached += len;
}

/* ==================== reading ==================== */

/* One delta of a chain: the object at `off`, its data at `pos`. */
struct link {
	const struct pack *p;
	size_t off, pos, size;
};

/* The chain's bottom object, not a delta, inflated into `*out`. */
static int chain_base(struct gm_pack_reader *r, const struct pack *p,
		      size_t pos, int t, size_t size, char **out)
{
	if (t < OBJ_COMMIT || t > OBJ_TAG)
		return GM_ENOTFOUND;
	if (!(*out = malloc(size + 1)))
		return gm_error_set(GM_ERROR, "out of memory");
	if (!inflate_at(r, p, pos, (unsigned char *)*out, size)) {
		free(*out);
		*out = NULL;
		return GM_ENOTFOUND;
	}
	(*out)[size] = '\0';
	return 0;
}

/* The object at `off` of `p`, delta chain resolved: see gm_pack_read(). */
static int read_at(struct gm_pack_reader *r, const struct pack *p,
		   size_t off, int *type, char **out, size_t *len)
{
	struct link *chain = NULL;
	size_t nr = 0, alloc = 0, blen = 0, pos = 0, size = 0;
	const struct cached *c;
	const char *base = NULL;	/* the cache's, or `owned` */
	char *owned = NULL;
	int error = GM_ENOTFOUND, t = 0;

	while (!(c = cache_get(r, p, off))) {
		if (!obj_header(p, off, &t, &size, &pos))
			goto out;
		if (!is_delta(t))
			break;
		if (nr == MAX_CHAIN)
			goto out;
		if (GM_ARRAY_GROW(chain, nr, alloc) < 0) {
			error = GM_ERROR;
			goto out;
		}
		chain[nr] = (struct link){ p, off, 0, size };
		if (!delta_base(r, p, t, off, &pos, &p, &off))
			goto out;
		chain[nr++].pos = pos;
	}
	if (c) {
		t = c->type;
		base = c->data;
		blen = c->len;
	} else if ((error = chain_base(r, p, pos, t, size, &owned)) < 0) {
		goto out;
	} else {
		base = owned;
		blen = size;
	}
	while (nr--) {
		const struct link *l = &chain[nr];
		unsigned char *delta = malloc(l->size + 1);
		char *res = NULL;
		size_t rlen = 0;

		if (!delta) {
			error = gm_error_set(GM_ERROR, "out of memory");
			goto out;
		}
		error = inflate_at(r, l->p, l->pos, delta, l->size) ?
			delta_apply(&res, &rlen, base, blen, delta, l->size) :
			GM_ENOTFOUND;
		free(delta);
		if (error < 0)
			goto out;
		if (owned)
			cache_put(r, p, off, t, owned, blen);
		base = owned = res;
		blen = rlen;
		p = l->p;
		off = l->off;
	}
	if (!owned) {		/* the object itself was cached */
		if (!(owned = malloc(blen + 1))) {
			error = gm_error_set(GM_ERROR, "out of memory");
			goto out;
		}
		memcpy(owned, base, blen + 1);
	}
	*type = t;
	*out = owned;
	*len = blen;
	owned = NULL;
	error = 0;
out:
	free(owned);
	free(chain);
	return error;
}

int gm_pack_read(struct gm_pack_reader *r, const git_oid *id,
		 git_object_t *type, char **out, size_t *len)
{
	const struct pack *p;
	size_t off;
	int t = 0, error;

	*out = NULL;
	if (!r || !(p = find(r, id->id, &off)))
		return GM_ENOTFOUND;
	if ((error = read_at(r, p, off, &t, out, len)) < 0)
		return error;
	*type = (git_object_t)t;
	return 0;
}

int gm_pack_header(struct gm_pack_reader *r, const git_oid *id,
		   git_object_t *type, size_t *size)
{
	unsigned char head[32];
	const unsigned char *d = head;
	const struct pack *p, *dp;
	size_t off, pos, sz, bsize, got;
	int t;

	if (!r || !(p = find(r, id->id, &off)) ||
	    !obj_header(p, off, &t, &sz, &pos))
		return GM_ENOTFOUND;
	*size = sz;
	if (is_delta(t)) {
		dp = p;
		if (!delta_base(r, dp, t, off, &pos, &p, &off) ||
		    !inflate_head(r, dp, pos, head,
				  sz < sizeof(head) ? sz : sizeof(head), &got) ||
		    !varint(&d, head + got, &bsize) ||
		    !varint(&d, head + got, size))
			return GM_ENOTFOUND;
	}
	if (!type)	/* a delta's base: not looked at */
		return is_delta(t) || (t >= OBJ_COMMIT && t <= OBJ_TAG) ?
		       0 : GM_ENOTFOUND;
	for (int depth = 0; is_delta(t); depth++) {
		if (depth == MAX_CHAIN || !obj_header(p, off, &t, &sz, &pos) ||
		    (is_delta(t) && !delta_base(r, p, t, off, &pos, &p, &off)))
			return GM_ENOTFOUND;
	}
	if (t < OBJ_COMMIT || t > OBJ_TAG)
		return GM_ENOTFOUND;
	*type = (git_object_t)t;
	return 0;
}

/* ==================== readers ==================== */

int gm_pack_reader_new(struct gm_pack_reader **out, const struct gm_packs *p,
		       size_t cache_bytes)
{
	struct gm_pack_reader *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r || !(r->inflater = libdeflate_alloc_decompressor())) {
		gm_pack_reader_free(r);	/* a zeroed stream is ended safely */
		return gm_error_set(GM_ERROR, "out of memory");
	}
	if (inflateInit(&r->z) != Z_OK) {
		gm_pack_reader_free(r);
		return gm_error_set(GM_ERROR, "cannot set up zlib");
	}
	r->packs = p;
	r->limit = cache_bytes ? cache_bytes : DEFAULT_CACHE;
	*out = r;
	return 0;
}

void gm_pack_reader_free(struct gm_pack_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < CACHE_SLOTS; i++)
		cache_drop(r, &r->cache[i]);
	inflateEnd(&r->z);
	libdeflate_free_decompressor(r->inflater);
	free(r);
}
