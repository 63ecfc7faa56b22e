#include "gm/index.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/pack.h"

/* The layout of gitformat-index(5), with SHA-1 ids. */
#define INDEX_HEADER 12
#define INDEX_ID 20
#define ENTRY_FIXED 62		/* stat data, mode, id and flags */
#define ENTRY_MODE 24
#define ENTRY_OID 40
#define ENTRY_FLAGS 60
#define FLAG_EXTENDED 0x4000
#define FLAG_STAGE 0x3000
#define FLAG_NAME_LEN 0x0fff
#define XFLAG_INTENT_TO_ADD 0x2000
#define MODE_SPARSE_DIR 0040000

struct index_reader {
	const unsigned char *p, *end;	/* end: before the trailing id */
	unsigned version;
	struct gm_buf path;		/* the last entry's */
};

struct index_entry {
	const unsigned char *id;
	uint32_t mode;
	uint16_t flags, xflags;
};

static uint16_t be16(const unsigned char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* The path of a version 4 entry: the last one's, cut, then a suffix. */
static int entry_path_v4(struct index_reader *r, const unsigned char *p)
{
	const unsigned char *nul;
	size_t cut;

	if (!gm_offset_varint(&p, r->end, &cut) || cut > r->path.len ||
	    !(nul = memchr(p, '\0', (size_t)(r->end - p))))
		return GM_ENOTFOUND;
	if (cut) {
		r->path.len -= cut;
		r->path.ptr[r->path.len] = '\0';
	}
	if (gm_buf_put(&r->path, (const char *)p, (size_t)(nul - p)) < 0)
		return GM_ERROR;
	r->p = nul + 1;
	return 0;
}

/* The path of an earlier version's entry, padded to 8 bytes with NULs. */
static int entry_path_v2(struct index_reader *r, const unsigned char *p,
			 size_t fixed)
{
	const unsigned char *nul = memchr(p, '\0', (size_t)(r->end - p));
	size_t len, size;

	if (!nul)
		return GM_ENOTFOUND;
	len = (size_t)(nul - p);
	size = (fixed + len + 8) & ~(size_t)7;
	if (size > (size_t)(r->end - r->p))
		return GM_ENOTFOUND;
	gm_buf_reset(&r->path);
	if (gm_buf_put(&r->path, (const char *)p, len) < 0)
		return GM_ERROR;
	r->p += size;
	return 0;
}

/* The entry at r->p, its path in r->path; r->p moves past it. */
static int index_next(struct index_reader *r, struct index_entry *e)
{
	size_t fixed = ENTRY_FIXED;
	int error;

	if ((size_t)(r->end - r->p) < fixed + 2)
		return GM_ENOTFOUND;
	e->mode = gm_be32(r->p + ENTRY_MODE);
	e->id = r->p + ENTRY_OID;
	e->flags = be16(r->p + ENTRY_FLAGS);
	e->xflags = 0;
	if (e->flags & FLAG_EXTENDED) {
		if (r->version < 3)
			return GM_ENOTFOUND;
		e->xflags = be16(r->p + fixed);
		fixed += 2;
		if ((size_t)(r->end - r->p) < fixed + 2)
			return GM_ENOTFOUND;
	}
	error = r->version == 4 ? entry_path_v4(r, r->p + fixed) :
				  entry_path_v2(r, r->p + fixed, fixed);
	if (error)
		return error;
	/* the name length the flags give, up to its cap, must be the path's */
	if ((e->flags & FLAG_NAME_LEN) !=
	    (r->path.len < FLAG_NAME_LEN ? r->path.len : FLAG_NAME_LEN))
		return GM_ENOTFOUND;
	return 0;
}

/* A decimal count at *p, ended by `stop`. */
static bool read_count(const unsigned char **p, const unsigned char *end,
		       char stop, size_t *out)
{
	size_t v = 0;
	const unsigned char *q = *p;

	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		if (v > (SIZE_MAX - 9) / 10)
			return false;
		v = v * 10 + (size_t)(*q - '0');
	}
	if (q == *p || q >= end || *q != stop)
		return false;
	*p = q + 1;
	*out = v;
	return true;
}

/*
 * Whether the cache-tree data[0..size) says that all `count` entries make
 * the tree `tree`: its first record, the top's, is "" NUL, the entry
 * count (-1 when not known), ' ', the subtree count, '\n', then the id.
 */
static bool cache_tree_is(const unsigned char *p, size_t size, size_t count,
			  const git_oid *tree)
{
	const unsigned char *end = p + size;
	size_t entries, subtrees;

	if (!size || *p++ != '\0' ||
	    !read_count(&p, end, ' ', &entries) ||
	    !read_count(&p, end, '\n', &subtrees) ||
	    (size_t)(end - p) < INDEX_ID)
		return false;
	return entries == count && !memcmp(p, tree->id, INDEX_ID);
}

/*
 * The extensions after the entries: the cache-tree must stand for `tree`;
 * any required extension (signature not starting 'A'..'Z': split index,
 * sparse directories, ...) is one this does not read.
 */
static int index_extensions(struct index_reader *r, size_t count,
			    const git_oid *tree)
{
	bool stands = false;

	while (r->p < r->end) {
		size_t size;

		if ((size_t)(r->end - r->p) < 8)
			return GM_ENOTFOUND;
		size = gm_be32(r->p + 4);
		if (size > (size_t)(r->end - r->p) - 8)
			return GM_ENOTFOUND;
		if (!memcmp(r->p, "TREE", 4))
			stands = cache_tree_is(r->p + 8, size, count, tree);
		else if (r->p[0] < 'A' || r->p[0] > 'Z')
			return GM_ENOTFOUND;
		r->p += 8 + size;
	}
	return stands ? 0 : GM_ENOTFOUND;
}

/* Whether the last component of path[0..len) is `name`. */
static bool path_named(const char *path, size_t len, const char *name,
		       size_t nlen)
{
	return len >= nlen && !memcmp(path + len - nlen, name, nlen) &&
	       (len == nlen || path[len - nlen - 1] == '/');
}

int gm_index_find(const unsigned char *data, size_t len, const git_oid *tree,
		  const char *name, struct gm_index_file **out, size_t *nr)
{
	struct index_reader r = { NULL, NULL, 0, GM_BUF_INIT };
	struct gm_index_file *files = NULL;
	size_t count, nfiles = 0, alloc = 0, nlen = strlen(name);
	int error = GM_ENOTFOUND;

	*out = NULL;
	*nr = 0;
	if (len < INDEX_HEADER + INDEX_ID || memcmp(data, "DIRC", 4))
		return GM_ENOTFOUND;
	r.version = gm_be32(data + 4);
	count = gm_be32(data + 8);
	r.p = data + INDEX_HEADER;
	r.end = data + len - INDEX_ID;
	if (r.version < 2 || r.version > 4)
		return GM_ENOTFOUND;
	for (size_t i = 0; i < count; i++) {
		struct index_entry e;

		if ((error = index_next(&r, &e)) < 0)
			goto out;
		if ((e.flags & FLAG_STAGE) || e.mode == MODE_SPARSE_DIR) {
			error = GM_ENOTFOUND;	/* unmerged, or sparse */
			goto out;
		}
		if ((e.xflags & XFLAG_INTENT_TO_ADD) ||
		    !path_named(r.path.ptr, r.path.len, name, nlen))
			continue;
		if (GM_ARRAY_GROW(files, nfiles, alloc) < 0 ||
		    !(files[nfiles].path = strdup(r.path.ptr))) {
			error = gm_error_set(GM_ERROR, "out of memory");
			goto out;
		}
		memcpy(files[nfiles].id.id, e.id, INDEX_ID);
		files[nfiles++].mode = e.mode;
	}
	error = index_extensions(&r, count, tree);
out:
	gm_buf_release(&r.path);
	if (error) {
		gm_index_files_free(files, nfiles);
		return error;
	}
	*out = files;
	*nr = nfiles;
	return 0;
}

void gm_index_files_free(struct gm_index_file *files, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(files[i].path);
	free(files);
}
