#include "gm/objects.h"

#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"

/* ==================== replacements, grafts, shallow ==================== */

/* A graft: `nr` parents, or -1 for a shallow commit (none at all). */
struct graft {
	git_oid id;
	git_oid *parents;
	int nr;
	size_t seq;		/* its place in the files */
};

struct gm_objects_rules {
	git_oid (*replace)[2];	/* (object, replacement), by object */
	size_t nr_replace, alloc_replace;
	struct graft *grafts;	/* by id */
	size_t nr_grafts, alloc_grafts;
};

static int oid_pair_cmp(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
}

static int graft_cmp(const void *a, const void *b)
{
	const struct graft *x = a, *y = b;

	return git_oid_cmp(&x->id, &y->id);
}

/* By id, then in the files' order. */
static int graft_order(const void *a, const void *b)
{
	const struct graft *x = a, *y = b;
	int c = git_oid_cmp(&x->id, &y->id);

	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

void gm_objects_rules_free(struct gm_objects_rules *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_grafts; i++)
		free(r->grafts[i].parents);
	free(r->grafts);
	free(r->replace);
	free(r);
}

bool gm_objects_rules_graph_ok(const struct gm_objects_rules *r)
{
	return !r || (!r->nr_replace && !r->nr_grafts);
}

const git_oid *gm_objects_replaced(const struct gm_objects_rules *r,
				   const git_oid *id)
{
	/* chains are followed as git follows them, five deep at most */
	for (int depth = 0; r && r->nr_replace && depth < 5; depth++) {
		const git_oid (*e)[2] = bsearch(id, r->replace, r->nr_replace,
						sizeof(*r->replace),
						oid_pair_cmp);

		if (!e)
			break;
		id = &(*e)[1];
	}
	return id;
}

struct replace_scan {
	struct gm_objects_rules *r;
	git_repository *repo;
	const char *base;
	int error;
};

/* 40 hex digits at `p` into `id`. */
static bool hex_id(git_oid *id, const char *p)
{
	return strspn(p, "0123456789abcdefABCDEF") >= GIT_OID_HEXSZ &&
	       !git_oid_fromstrn(id, p, GIT_OID_HEXSZ);
}

/* One reference: a replacement if it is the base and 40 hex digits. */
static int replace_ref(const char *name, void *payload)
{
	struct replace_scan *s = payload;
	struct gm_objects_rules *r = s->r;
	size_t n = strlen(s->base);
	git_oid from, to;

	if (strncmp(name, s->base, n) || !hex_id(&from, name + n) ||
	    git_reference_name_to_id(&to, s->repo, name) < 0)
		return 0;
	if (GM_ARRAY_GROW(r->replace, r->nr_replace, r->alloc_replace) < 0) {
		s->error = GM_ERROR;
		return 1;
	}
	git_oid_cpy(&r->replace[r->nr_replace][0], &from);
	git_oid_cpy(&r->replace[r->nr_replace++][1], &to);
	return 0;
}

/* The replace refs, if git reads them here. */
static int rules_replace(struct gm_objects_rules *r, git_repository *repo)
{
	const char *base = getenv("GIT_REPLACE_REF_BASE");
	struct replace_scan s = { r, repo, base ? base : "refs/replace/", 0 };
	git_config *cfg = NULL;
	int on = 1;

	if (getenv("GIT_NO_REPLACE_OBJECTS"))
		return 0;
	if (git_repository_config_snapshot(&cfg, repo) == 0 &&
	    git_config_get_bool(&on, cfg, "core.useReplaceRefs") < 0)
		on = 1;
	git_config_free(cfg);
	if (!on)
		return 0;
	git_reference_foreach_name(repo, replace_ref, &s);
	if (!s.error && r->nr_replace)
		qsort(r->replace, r->nr_replace, sizeof(*r->replace),
		      oid_pair_cmp);
	return s.error;
}

/*
 * A graft line "<id> [<parent>...]" (trailing white space dropped), into
 * `g`; false for a comment, an empty or a malformed line (git ignores it).
 */
static bool graft_parse(struct graft *g, const char *line, size_t len)
{
	const char *p = line, *end;
	size_t rest;

	while (len && strchr(" \t\r\n\v\f", line[len - 1]))
		len--;
	end = line + len;
	if (!len || *line == '#' || len < GIT_OID_HEXSZ ||
	    (rest = len - GIT_OID_HEXSZ) % (GIT_OID_HEXSZ + 1) ||
	    !hex_id(&g->id, p))
		return false;
	g->nr = (int)(rest / (GIT_OID_HEXSZ + 1));
	if (g->nr && !(g->parents = calloc((size_t)g->nr, sizeof(git_oid))))
		return false;
	for (int i = 0; (p += GIT_OID_HEXSZ) < end; i++, p++) {
		if (!strchr(" \t\r\n\v\f", *p) ||
		    !hex_id(&g->parents[i], p + 1)) {
			free(g->parents);
			g->parents = NULL;
			return false;
		}
	}
	return true;
}

/*
 * The lines of the file `name` in the common directory, as grafts
 * (`shallow`: each a commit without parents, over any graft of it).
 */
static int rules_file(struct gm_objects_rules *r, git_repository *repo,
		      const char *name, bool shallow)
{
	struct gm_buf path = GM_BUF_INIT, text = GM_BUF_INIT;
	const char *p, *end;
	int error;

	if ((error = gm_buf_printf(&path, "%s%s",
				   git_repository_commondir(repo), name)) < 0)
		return error;
	if ((error = gm_buf_read_file(&text, path.ptr)) < 0) {
		if (error == GM_ENOTFOUND || error == GM_EINVALID)
			error = 0;	/* none */
		goto out;
	}
	for (p = text.ptr, end = p + text.len; p < end && !error;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct graft g = { .nr = 0 };

		if (shallow ? len >= GIT_OID_HEXSZ && hex_id(&g.id, p) :
			      graft_parse(&g, p, len)) {
			if (shallow)
				g.nr = -1;
			g.seq = r->nr_grafts;
			if (GM_ARRAY_GROW(r->grafts, r->nr_grafts,
					  r->alloc_grafts) < 0) {
				free(g.parents);
				error = GM_ERROR;
			} else {
				r->grafts[r->nr_grafts++] = g;
			}
		}
		p += len + 1;
	}
out:
	gm_buf_release(&path);
	gm_buf_release(&text);
	return error;
}

/*
 * Sort the grafts, keeping of each commit the shallow entry if any, else
 * the first graft of it (git ignores the later ones).
 */
static void rules_settle(struct gm_objects_rules *r)
{
	size_t k = 0;

	if (r->nr_grafts)
		qsort(r->grafts, r->nr_grafts, sizeof(*r->grafts), graft_order);
	for (size_t i = 0; i < r->nr_grafts; i++) {
		struct graft *g = &r->grafts[i];

		if (k && git_oid_equal(&r->grafts[k - 1].id, &g->id)) {
			struct graft *kept = &r->grafts[k - 1];

			if (g->nr < 0 && kept->nr >= 0) {
				free(kept->parents);
				*kept = *g;
			} else {
				free(g->parents);
			}
			continue;
		}
		r->grafts[k++] = *g;
	}
	r->nr_grafts = k;
}

int gm_objects_rules_load(struct gm_objects_rules **out,
			  git_repository *repo)
{
	struct gm_objects_rules *r = calloc(1, sizeof(*r));
	int error;

	*out = NULL;
	if (!r)
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = rules_replace(r, repo)) < 0 ||
	    (error = rules_file(r, repo, "info/grafts", false)) < 0 ||
	    (error = rules_file(r, repo, "shallow", true)) < 0) {
		gm_objects_rules_free(r);
		return error == GM_ERROR ?
			gm_error_set(GM_ERROR, "out of memory") : error;
	}
	rules_settle(r);
	*out = r;
	return 0;
}

/* ==================== reading ==================== */

int gm_error_from_git(int git_code, const char *what)
{
	const git_error *e = git_error_last();
	const char *msg = e && e->message ? e->message : "unknown libgit2 error";

	gm_error_set(GM_ERROR, "%s: %s", what, msg);
	return git_code == GIT_ENOTFOUND ? GM_ENOTFOUND : GM_ERROR;
}

int gm_objects_open(struct gm_objects *o, git_repository *repo,
		    const struct gm_packs *packs,
		    const struct gm_objects_rules *rules)
{
	memset(o, 0, sizeof(*o));
	o->repo = repo;
	o->rules = rules;
	if (repo && git_repository_odb(&o->odb, repo) < 0)
		o->odb = NULL;
	return packs && gm_pack_reader_new(&o->pack, packs, 0) < 0 ?
	       GM_ERROR : 0;
}

void gm_objects_close(struct gm_objects *o)
{
	git_odb_free(o->odb);
	gm_pack_reader_free(o->pack);
	memset(o, 0, sizeof(*o));
}

bool gm_objects_read(const struct gm_objects *o, const git_oid *id,
		     git_object_t want, char **out, size_t *len)
{
	git_odb_object *obj = NULL;
	git_object_t type;

	*out = NULL;
	id = gm_objects_replaced(o->rules, id);
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

/* ==================== commits ==================== */

void gm_objects_commit_release(struct gm_objects_commit *c)
{
	free(c->parents);
	free(c->data);
	memset(c, 0, sizeof(*c));
}

/* "<prefix><40 hex>\n" at `*p` into `id`, `*p` moved past it. */
static bool id_line(const char **p, const char *end, const char *prefix,
		    git_oid *id)
{
	size_t n = strlen(prefix);

	if ((size_t)(end - *p) < n + GIT_OID_HEXSZ + 1 ||
	    memcmp(*p, prefix, n) || (*p)[n + GIT_OID_HEXSZ] != '\n' ||
	    git_oid_fromstrn(id, *p + n, GIT_OID_HEXSZ) < 0)
		return false;
	*p += n + GIT_OID_HEXSZ + 1;
	return true;
}

/* The line at `*p` if it starts with `prefix`: its end; `*p` past it. */
static const char *line_of(const char **p, const char *end,
			   const char *prefix)
{
	size_t n = strlen(prefix);
	const char *nl;

	if ((size_t)(end - *p) < n || memcmp(*p, prefix, n) ||
	    !(nl = memchr(*p, '\n', (size_t)(end - *p))))
		return NULL;
	*p = nl + 1;
	return nl;
}

/*
 * The time of a signature line ending at `nl`: the digits after its
 * last '>', followed by a time zone. false if it has none such.
 */
static bool sig_time(const char *line, const char *nl, int64_t *out)
{
	const char *gt = NULL;
	int64_t t = 0;

	for (const char *s = line; s < nl; s++)
		if (*s == '>')
			gt = s;
	if (!gt || ++gt >= nl || *gt++ != ' ' || gt >= nl || *gt < '0' ||
	    *gt > '9')
		return false;
	for (; gt < nl && *gt >= '0' && *gt <= '9'; gt++) {
		if (t > (INT64_MAX - 9) / 10)
			return false;
		t = t * 10 + (*gt - '0');
	}
	if (gt >= nl || *gt != ' ')
		return false;
	*out = t;
	return true;
}

/*
 * Commit `buf` (`len` bytes) as libgit2 parses its header: the tree,
 * the parents, one or more author lines, the committer. false for
 * anything else, which libgit2 is left to read.
 */
static bool commit_parse(struct gm_objects_commit *c, const char *buf,
			 size_t len)
{
	const char *p = buf, *end = buf + len, *line, *nl;
	size_t alloc = 0;
	git_oid id;

	if (!id_line(&p, end, "tree ", &c->tree))
		return false;
	while (id_line(&p, end, "parent ", &id)) {
		if (GM_ARRAY_GROW(c->parents, c->nr_parents, alloc) < 0)
			return false;
		c->parents[c->nr_parents++] = id;
	}
	if (!line_of(&p, end, "author "))
		return false;
	while (line_of(&p, end, "author "))
		;
	line = p;
	return (nl = line_of(&p, end, "committer ")) &&
	       sig_time(line, nl, &c->time);
}

/* The same from libgit2's reading of commit `id` (already replaced). */
static int commit_from_git(struct gm_objects_commit *c,
			   git_repository *repo, const git_oid *id)
{
	git_commit *gc = NULL;
	int error = 0;

	if (!repo || git_commit_lookup(&gc, repo, id) < 0)
		return GM_ENOTFOUND;
	git_oid_cpy(&c->tree, git_commit_tree_id(gc));
	c->time = git_commit_time(gc);
	c->nr_parents = git_commit_parentcount(gc);
	if (c->nr_parents &&
	    !(c->parents = calloc(c->nr_parents, sizeof(*c->parents))))
		error = gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; !error && i < c->nr_parents; i++)
		git_oid_cpy(&c->parents[i],
			    git_commit_parent_id(gc, (unsigned)i));
	git_commit_free(gc);
	return error;
}

/* The parents of `c` (commit `id`) as its graft or shallow entry says. */
static int commit_graft(struct gm_objects_commit *c,
			const struct gm_objects_rules *r, const git_oid *id)
{
	const struct graft *g = NULL;
	struct graft key;

	if (r && r->nr_grafts) {
		git_oid_cpy(&key.id, id);
		g = bsearch(&key, r->grafts, r->nr_grafts, sizeof(key),
			    graft_cmp);
	}
	if (!g)
		return 0;
	c->shallow = g->nr < 0;
	free(c->parents);
	c->parents = NULL;
	c->nr_parents = g->nr > 0 ? (size_t)g->nr : 0;
	if (!c->nr_parents)
		return 0;
	if (!(c->parents = malloc(c->nr_parents * sizeof(*c->parents))))
		return gm_error_set(GM_ERROR, "out of memory");
	memcpy(c->parents, g->parents, c->nr_parents * sizeof(*c->parents));
	return 0;
}

int gm_objects_commit_read(struct gm_objects_commit *out,
			   const struct gm_objects *o, const git_oid *id)
{
	char *buf = NULL;
	size_t len;
	int error;

	memset(out, 0, sizeof(*out));
	if (!gm_objects_read(o, id, GIT_OBJECT_COMMIT, &buf, &len))
		return GM_ENOTFOUND;
	if (!commit_parse(out, buf, len)) {
		gm_objects_commit_release(out);
		if ((error = commit_from_git(out, o->repo,
				gm_objects_replaced(o->rules, id))) < 0) {
			free(buf);
			return error;
		}
	}
	out->data = buf;
	return commit_graft(out, o->rules, id);
}

bool gm_objects_blob_size(const struct gm_objects *o, const git_oid *id,
			  size_t *size)
{
	git_object_t type;

	id = gm_objects_replaced(o->rules, id);
	if (o->pack && !gm_pack_header(o->pack, id, &type, size))
		return type == GIT_OBJECT_BLOB;
	return o->odb && !git_odb_read_header(size, &type, o->odb, id) &&
	       type == GIT_OBJECT_BLOB;
}

bool gm_objects_binary(const char *buf, size_t len)
{
	return memchr(buf, '\0', len < 8000 ? len : 8000) != NULL;
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
