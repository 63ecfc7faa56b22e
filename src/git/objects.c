#include "gm/objects.h"

#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"

bool gm_objects_read(const struct gm_objects *o, const git_oid *id,
		     git_object_t want, char **out, size_t *len)
{
	git_odb_object *obj = NULL;
	git_object_t type;

	*out = NULL;
	if (o->pack && !gm_pack_read(o->pack, id, &type, out, len)) {
		if (type == want)
			return true;
		free(*out);
		*out = NULL;
		return false;
	}
	if (!o->odb || git_odb_read(&obj, o->odb, id) < 0 ||
	    git_odb_object_type(obj) != want ||
	    !(*out = malloc(git_odb_object_size(obj) + 1))) {
		git_odb_object_free(obj);
		return false;
	}
	*len = git_odb_object_size(obj);
	memcpy(*out, git_odb_object_data(obj), *len);
	(*out)[*len] = '\0';
	git_odb_object_free(obj);
	return true;
}

bool gm_objects_blob_size(const struct gm_objects *o, const git_oid *id,
			  size_t *size)
{
	git_object_t type;

	if (o->pack && !gm_pack_header(o->pack, id, &type, size))
		return type == GIT_OBJECT_BLOB;
	return o->odb && !git_odb_read_header(size, &type, o->odb, id) &&
	       type == GIT_OBJECT_BLOB;
}

bool gm_objects_binary(const char *buf, size_t len)
{
	return memchr(buf, '\0', len < 8000 ? len : 8000) != NULL;
}

bool gm_objects_is_tree(uint32_t mode)
{
	return mode == GIT_FILEMODE_TREE;
}

/* base_name_compare() on names and kinds. */
static int name_cmp(const char *a, size_t alen, bool atree, const char *b,
		    size_t blen, bool btree)
{
	size_t n = alen < blen ? alen : blen;
	unsigned ca, cb;
	int c;

	if (n && *a != *b)	/* most often: no call to memcmp() */
		return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
	if ((c = memcmp(a, b, n)))
		return c;
	ca = n < alen ? (unsigned char)a[n] : atree ? '/' : 0;
	cb = n < blen ? (unsigned char)b[n] : btree ? '/' : 0;
	return (ca > cb) - (ca < cb);
}

int gm_objects_entry_cmp(const struct gm_objects_entry *a,
			 const struct gm_objects_entry *b)
{
	return name_cmp(a->name, a->len, gm_objects_is_tree(a->mode),
			b->name, b->len, gm_objects_is_tree(b->mode));
}

void gm_objects_tree_free(struct gm_objects_tree *t)
{
	if (!t)
		return;
	free(t->raw);
	free(t->v);
	free(t->info);
	free(t);
}

/* The entry at `*p`, before `end`; false at the end or a malformed one. */
static bool entry_next(const char **p, const char *end,
		       struct gm_objects_entry *e)
{
	const char *nul;

	e->mode = 0;
	while (*p < end && **p >= '0' && **p <= '7')
		e->mode = e->mode * 8 + (uint32_t)(*(*p)++ - '0');
	if (*p >= end || *(*p)++ != ' ')
		return false;
	if (!(nul = memchr(*p, '\0', (size_t)(end - *p))) ||
	    (size_t)(end - nul) < 1 + GIT_OID_RAWSZ ||
	    (size_t)(nul - *p) > UINT32_MAX)
		return false;
	e->name = *p;
	e->len = (uint32_t)(nul - *p);
	e->id = (const unsigned char *)nul + 1;
	*p = nul + 1 + GIT_OID_RAWSZ;
	return true;
}

struct gm_objects_tree *gm_objects_tree_read(const struct gm_objects *o,
					     const git_oid *id)
{
	struct gm_objects_tree *t;
	struct gm_objects_entry e;
	const char *p, *end;
	size_t alloc = 0, len;

	if (!(t = calloc(1, sizeof(*t))))
		return NULL;
	if (!gm_objects_read(o, id, GIT_OBJECT_TREE, &t->raw, &len))
		goto fail;
	git_oid_cpy(&t->id, id);
	p = t->raw;
	end = p + len;
	t->sorted = true;
	while (entry_next(&p, end, &e)) {
		if (GM_ARRAY_GROW(t->v, t->nr, alloc) < 0)
			goto fail;
		if (t->nr && gm_objects_entry_cmp(&t->v[t->nr - 1], &e) >= 0)
			t->sorted = false;
		t->v[t->nr++] = e;
	}
	return t;
fail:
	gm_objects_tree_free(t);
	return NULL;
}

const struct gm_objects_entry *gm_objects_tree_find(
	const struct gm_objects_tree *t, const char *name, size_t len,
	int kind)
{
	if (!t)
		return NULL;
	if (!t->sorted) {
		for (size_t i = 0; i < t->nr; i++) {
			const struct gm_objects_entry *e = &t->v[i];

			bool tree = gm_objects_is_tree(e->mode);

			if (e->len == len && !memcmp(e->name, name, len) &&
			    (!kind || (kind > 0) == tree))
				return e;
		}
		return NULL;
	}
	for (int pass = 0; pass < 2; pass++) {
		bool tree = pass == 1;
		size_t lo = 0, hi = t->nr;

		if ((kind > 0 && !tree) || (kind < 0 && tree))
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			const struct gm_objects_entry *e = &t->v[mid];
			int c = name_cmp(name, len, tree, e->name, e->len,
					 gm_objects_is_tree(e->mode));

			if (!c)
				return e;
			if (c < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
	}
	return NULL;
}
