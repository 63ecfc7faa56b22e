#include "gm/signers.h"

#include <stdlib.h>
#include <time.h>
#include <string.h>

#include <git2/sys/repository.h>

#include "gm/blame.h"
#include "gm/buf.h"
#include "gm/date.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/pack.h"
#include "gm/mailmap.h"
#include "gm/strmap.h"
#include "gm/thread.h"
#include "gm/trailer.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/* ==================== the script's reading of a log entry ==================== */

/* R-73's signature test: trailer.c's. */
bool gm_signers_is_signature(const char *line, bool all_types)
{
	return gm_trailer_is_signature(line, strlen(line), all_types);
}

const char *gm_signers_value(const char *line)
{
	const char *p = line + strlen(line);

	/* s/\s*.*:\s*(.+)\s*\/$1/: the last ':' with a character after it */
	while (p > line) {
		p--;
		if (*p == ':' && p[1])
			break;
	}
	if (*p != ':' || !p[1])
		return line;
	for (p++; gm_email_isspace((unsigned char)*p) && p[1]; p++)
		;
	return p;
}

/* The script's /(Linus Torvalds)/i on a line: rank.c's. */
bool gm_signers_names_chief(const char *s)
{
	return gm_rank_is_chief_penguin_line(s, strlen(s));
}

static bool is_commit_line(const char *s)
{
	if (strncmp(s, "GitCommit: ", 11))
		return false;
	for (int i = 0; i < GIT_OID_HEXSZ; i++) {
		char c = s[11 + i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return false;
	}
	return true;
}

/* Whether `s` starts with "<digits>\t<digits>\t", as numstat lines do. */
static bool is_stat_like(const char *s)
{
	for (int k = 0; k < 2; k++) {
		const char *d = s;

		while (*s >= '0' && *s <= '9')
			s++;
		if (s == d || *s++ != '\t')
			return false;
	}
	return true;
}

/* One line of the script's output, white space at its start removed. */
static int classify_line(struct gm_signers_commit *out, const char *s,
			 size_t len, bool all_types, bool body)
{
	struct gm_buf line = GM_BUF_INIT;
	int error = 0;

	while (len && gm_email_isspace((unsigned char)*s))
		s++, len--;
	if (!len)
		return 0;
	if ((error = gm_buf_put(&line, s, len)) < 0)
		return error;
	if (is_commit_line(line.ptr))
		out->commit_lines++;
	if (!strncmp(line.ptr, "GitAuthor: ", 11))
		error = gm_strvec_push(&out->authors, line.ptr);
	if (!error && gm_signers_is_signature(line.ptr, all_types))
		error = gm_strvec_push(&out->signatures, line.ptr);
	if (!error && body && is_stat_like(line.ptr))
		error = gm_strvec_push(&out->stat_like, line.ptr);
	gm_buf_release(&line);
	return error;
}

/*
 * The entry of `--format="GitCommit: %H%nGitAuthor: %an <%ae>%nGitDate:
 * %aD%nGitSubject: %s%n%b%n"`: %s is the first paragraph, its lines
 * joined by spaces, %b the rest. The date line can match nothing.
 */
int gm_signers_commit_read(struct gm_signers_commit *out, git_commit *c,
			   bool all_types)
{
	const git_signature *a = git_commit_author(c);
	const char *msg = git_commit_message(c);
	struct gm_buf line = GM_BUF_INIT, subject = GM_BUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	bool in_subject = true;
	int error;

	memset(out, 0, sizeof(*out));
	git_oid_cpy(&out->id, git_commit_id(c));
	git_oid_tostr(hex, sizeof(hex), &out->id);
	if ((error = gm_buf_printf(&line, "%s <%s>", a && a->name ? a->name : "",
				   a && a->email ? a->email : "")) < 0)
		goto out;
	if (!(out->author = strdup(line.ptr))) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	gm_buf_reset(&line);
	if ((error = gm_buf_printf(&line, "GitCommit: %s", hex)) < 0 ||
	    (error = classify_line(out, line.ptr, line.len, all_types, false)) < 0)
		goto out;
	gm_buf_reset(&line);
	if ((error = gm_buf_printf(&line, "GitAuthor: %s", out->author)) < 0 ||
	    (error = classify_line(out, line.ptr, line.len, all_types, false)) < 0)
		goto out;
	if ((error = gm_buf_puts(&subject, "GitSubject: ")) < 0)
		goto out;
	while (msg && *msg && !error) {
		size_t len = strcspn(msg, "\n"), n = len;
		bool blank = true;

		for (size_t i = 0; i < len && blank; i++)
			blank = gm_email_isspace((unsigned char)msg[i]);
		if (in_subject && blank && subject.len > 12) {
			in_subject = false;
		} else if (in_subject && !blank) {
			while (n && gm_email_isspace((unsigned char)msg[n - 1]))
				n--;
			if (subject.len > 12)
				error = gm_buf_putc(&subject, ' ');
			if (!error)
				error = gm_buf_put(&subject, msg, n);
		} else if (!in_subject) {
			error = classify_line(out, msg, len, all_types, true);
		}
		msg += len + (msg[len] == '\n');
	}
	if (!error)
		error = classify_line(out, subject.ptr, subject.len, all_types,
				      false);
	out->author_chief = gm_signers_names_chief(out->author);
out:
	gm_buf_release(&line);
	gm_buf_release(&subject);
	if (error)
		gm_signers_commit_release(out);
	return error;
}

void gm_signers_commit_release(struct gm_signers_commit *c)
{
	gm_strvec_release(&c->authors);
	gm_strvec_release(&c->signatures);
	gm_strvec_release(&c->stat_like);
	free(c->author);
	c->author = NULL;
}

/* ==================== trees ==================== */

#define TREE_SLOTS 1024

/* An entry of a tree at some path; `found` false for none. */
struct entry {
	bool found;
	git_oid id;
	git_filemode_t mode;
};

/* A change of one file in one commit, its numstat still to count. */
struct pending {
	size_t file, touch;
	struct entry a, b;	/* parent's, commit's */
};

/* One entry of a raw tree object, pointing into it. */
struct tentry {
	const char *name;	/* NUL-terminated in the object */
	uint32_t len;
	uint32_t mode;
	const unsigned char *id;	/* GIT_OID_RAWSZ bytes */
};

struct blobinfo;

/*
 * A tree object read once and indexed: its entries in the object's
 * order, up to the first malformed one. `sorted` says they are in git's
 * order (each name once), which lookups by binary search rely on;
 * otherwise they scan. `info` (the copy search's) is per entry, NULL
 * until asked for.
 */
struct ptree {
	git_oid id;
	char *raw;		/* the object, ours */
	struct tentry *v;
	size_t nr;
	bool sorted;
	struct blobinfo **info;
};

static bool mode_is_tree(uint32_t mode)
{
	return mode == GIT_FILEMODE_TREE;
}

/*
 * git's order of tree entries (base_name_compare()): a tree's name
 * compares as if it ended in '/'.
 */
static int tentry_cmp(const char *a, size_t alen, bool atree, const char *b,
		      size_t blen, bool btree)
{
	size_t n = alen < blen ? alen : blen;
	int c = memcmp(a, b, n);
	unsigned ca, cb;

	if (c)
		return c;
	ca = n < alen ? (unsigned char)a[n] : atree ? '/' : 0;
	cb = n < blen ? (unsigned char)b[n] : btree ? '/' : 0;
	return (ca > cb) - (ca < cb);
}

static void ptree_free(struct ptree *t)
{
	if (!t)
		return;
	free(t->raw);
	free(t->v);
	free(t->info);
	free(t);
}

/*
 * Where the walks read objects: the packs through a reader of this
 * thread's (NULL: none), then libgit2's object database for the rest.
 */
struct objects {
	git_odb *odb;
	struct gm_pack_reader *pack;
};

/*
 * Object `id`, of type `want`, into `*out` (`*len` bytes and a NUL after
 * them), which the caller frees; false if it cannot be read as one.
 */
static bool objects_read(const struct objects *o, const git_oid *id,
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

/* The size of blob `id`; false if it is no readable blob. */
static bool objects_blob_size(const struct objects *o, const git_oid *id,
			      size_t *size)
{
	git_object_t type;

	if (o->pack && !gm_pack_header(o->pack, id, &type, size))
		return type == GIT_OBJECT_BLOB;
	return o->odb && !git_odb_read_header(size, &type, o->odb, id) &&
	       type == GIT_OBJECT_BLOB;
}

/* Tree `id` read and indexed; NULL if unreadable or no tree. */
static struct ptree *ptree_read(const struct objects *o, const git_oid *id)
{
	struct ptree *t;
	const char *p, *end;
	size_t alloc = 0, len;

	if (!(t = calloc(1, sizeof(*t))))
		return NULL;
	if (!objects_read(o, id, GIT_OBJECT_TREE, &t->raw, &len))
		goto fail;
	git_oid_cpy(&t->id, id);
	p = t->raw;
	end = p + len;
	t->sorted = true;
	while (p < end) {
		struct tentry e = { NULL, 0, 0, NULL };
		const char *nul;

		while (p < end && *p >= '0' && *p <= '7')
			e.mode = e.mode * 8 + (uint32_t)(*p++ - '0');
		if (p >= end || *p++ != ' ')
			break;
		if (!(nul = memchr(p, '\0', (size_t)(end - p))) ||
		    (size_t)(end - nul) < 1 + GIT_OID_RAWSZ ||
		    (size_t)(nul - p) > UINT32_MAX)
			break;
		e.name = p;
		e.len = (uint32_t)(nul - p);
		e.id = (const unsigned char *)nul + 1;
		p = nul + 1 + GIT_OID_RAWSZ;
		if (GM_ARRAY_GROW(t->v, t->nr, alloc) < 0)
			goto fail;
		if (t->nr && tentry_cmp(t->v[t->nr - 1].name, t->v[t->nr - 1].len,
					mode_is_tree(t->v[t->nr - 1].mode),
					e.name, e.len,
					mode_is_tree(e.mode)) >= 0)
			t->sorted = false;
		t->v[t->nr++] = e;
	}
	return t;
fail:
	ptree_free(t);
	return NULL;
}

/*
 * The entry `name` (`len` bytes) of `t`: with `kind` 0 of any mode (the
 * first in the object), 1 only a tree, -1 only a non-tree. NULL: none.
 */
static const struct tentry *ptree_find(const struct ptree *t,
				       const char *name, size_t len, int kind)
{
	if (!t)
		return NULL;
	if (!t->sorted) {
		for (size_t i = 0; i < t->nr; i++) {
			const struct tentry *e = &t->v[i];

			if (e->len == len && !memcmp(e->name, name, len) &&
			    (!kind || (kind > 0) == mode_is_tree(e->mode)))
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
			const struct tentry *e = &t->v[mid];
			int c = tentry_cmp(name, len, tree, e->name, e->len,
					   mode_is_tree(e->mode));

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

struct walk {
	git_repository *repo;
	const struct gm_signers_options *opts;
	struct gm_signers *s;
	struct objects objs;
	struct ptree *trees[TREE_SLOTS];	/* direct-mapped by id */
	char **paths;		/* per file: its current path, no final '/' */
	bool *dir;		/* per file: a directory */
	size_t *order;		/* files sorted by path, '/' first */
	struct gm_strmap seen;	/* hex ids of queued commits */
	struct pending *pending;
	size_t nr_pending, alloc_pending;
	size_t *changed;	/* files changed by the commit examined */
	struct entry *ca, *cb;	/* their entries */
	size_t nr_changed;
	bool resort;		/* a path changed: sort `order` again */
	struct follow_cache *follow;	/* sizes, fingerprints of blobs */
	git_repository *attr_repo;	/* for attributes: repo or its own */
	struct gm_buf name;
};

/* The tree `id`, indexed, from a direct-mapped cache; NULL if unread. */
static struct ptree *tree_get(struct walk *w, const git_oid *id)
{
	size_t slot;
	struct ptree **t;

	memcpy(&slot, id->id, sizeof(slot));
	t = &w->trees[slot % TREE_SLOTS];
	if (*t && git_oid_equal(&(*t)->id, id))
		return *t;
	ptree_free(*t);
	*t = ptree_read(&w->objs, id);
	return *t;
}

/* The entry `name` (`len` bytes) of tree `id` (NULL: none). */
static int tree_entry(struct walk *w, const git_oid *id, const char *name,
		      size_t len, struct entry *out)
{
	const struct ptree *t;
	const struct tentry *e;

	out->found = false;
	if (!id || !(t = tree_get(w, id)) || !(e = ptree_find(t, name, len, 0)))
		return 0;
	out->found = true;
	git_oid_fromraw(&out->id, e->id);
	out->mode = (git_filemode_t)e->mode;
	return 0;
}

static bool is_tree(const struct entry *e)
{
	return e->found && e->mode == GIT_FILEMODE_TREE;
}

static bool same_entry(const struct entry *a, const struct entry *b)
{
	if (a->found != b->found)
		return false;
	return !a->found || (a->mode == b->mode && git_oid_equal(&a->id, &b->id));
}

/* Compare paths component by component: '/' sorts before any byte. */
static int path_cmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		unsigned x = *a == '/' ? 1 : (unsigned char)*a + 1;
		unsigned y = *b == '/' ? 1 : (unsigned char)*b + 1;

		if (!*a)
			x = 0;
		if (!*b)
			y = 0;
		if (x != y || !x)
			return (int)x - (int)y;
	}
}

static _Thread_local const char *const *sort_paths;

static int order_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = path_cmp(sort_paths[x], sort_paths[y]);

	return c ? c : (x > y) - (x < y);
}

/* Sort the files by their current paths (qsort has no payload). */
static void walk_sort(struct walk *w)
{
	sort_paths = (const char *const *)w->paths;
	qsort(w->order, w->s->nr_files, sizeof(*w->order), order_cmp);
	sort_paths = NULL;
	w->resort = false;
}

static int note_change(struct walk *w, size_t f, const struct entry *a,
		       const struct entry *b)
{
	w->changed[w->nr_changed] = f;
	w->ca[w->nr_changed] = *a;
	w->cb[w->nr_changed] = *b;
	w->nr_changed++;
	return 0;
}

/*
 * Compare the trees `ta` and `tb` (NULL: none) at the files order[lo..hi),
 * whose paths share their first `off` bytes, the directory the trees are.
 */
static int diff_level(struct walk *w, const git_oid *ta, const git_oid *tb,
		      size_t lo, size_t hi, size_t off)
{
	size_t i = lo;
	int error = 0;

	while (i < hi && !error) {
		const char *p = w->paths[w->order[i]] + off;
		size_t len = strcspn(p, "/"), j = i;
		struct entry a, b;
		git_oid ida, idb;

		while (j < hi && !strncmp(w->paths[w->order[j]] + off, p, len) &&
		       (w->paths[w->order[j]][off + len] == '/' ||
			!w->paths[w->order[j]][off + len]))
			j++;
		if ((error = tree_entry(w, ta, p, len, &a)) < 0 ||
		    (error = tree_entry(w, tb, p, len, &b)) < 0)
			break;
		if (same_entry(&a, &b)) {
			i = j;
			continue;
		}
		for (size_t k = i; k < j && !error; k++) {
			size_t f = w->order[k];
			const char *rest = w->paths[f] + off + len;

			if (*rest)
				continue;
			if (!w->dir[f] && (!is_tree(&a) || !is_tree(&b)))
				error = note_change(w, f, &a, &b);
			else if (w->dir[f] && (is_tree(&a) || is_tree(&b)))
				error = note_change(w, f, &a, &b);
		}
		if (error)
			break;
		git_oid_cpy(&ida, &a.id);
		git_oid_cpy(&idb, &b.id);
		while (i < j && !w->paths[w->order[i]][off + len])
			i++;
		if (i < j && (is_tree(&a) || is_tree(&b)))
			error = diff_level(w, is_tree(&a) ? &ida : NULL,
					   is_tree(&b) ? &idb : NULL, i, j,
					   off + len + 1);
		i = j;
	}
	return error;
}

/* ==================== --follow ==================== */

#define MAX_SCORE 60000
#define MIN_SCORE 30000			/* -M50% */
#define MIN_BASENAME_SCORE 45000	/* halfway to MAX_SCORE */
#define HASHBASE 107927

static bool is_binary(const char *buf, size_t len)
{
	return memchr(buf, '\0', len < 8000 ? len : 8000) != NULL;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

struct source {
	const char *path;	/* in the diff, valid while it lives */
	git_oid id;
	git_filemode_t mode;
	bool deleted;		/* not in the commit: a rename, not a copy */
};

/* One entry of a raw tree object. */
struct raw_entry {
	const char *name;
	size_t len;
	unsigned mode;
	const unsigned char *id;
};

/* The next entry at `*p` of a raw tree ending at `end`; false at its end. */
static bool raw_next(const char **p, const char *end, struct raw_entry *e)
{
	const char *nul;

	e->mode = 0;
	while (*p < end && **p >= '0' && **p <= '7')
		e->mode = e->mode * 8 + (unsigned)(*(*p)++ - '0');
	if (*p >= end || *(*p)++ != ' ')
		return false;
	if (!(nul = memchr(*p, '\0', (size_t)(end - *p))) ||
	    (size_t)(end - nul) < 1 + GIT_OID_RAWSZ)
		return false;
	e->name = *p;
	e->len = (size_t)(nul - *p);
	e->id = (const unsigned char *)nul + 1;
	*p = nul + 1 + GIT_OID_RAWSZ;
	return true;
}

/* git's order of tree entries: a tree's name compares as if ending in '/'. */
static int raw_cmp(const struct raw_entry *a, const struct raw_entry *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, n);
	unsigned ca, cb;

	if (c)
		return c;
	ca = n < a->len ? (unsigned char)a->name[n] :
	     a->mode == GIT_FILEMODE_TREE ? '/' : 0;
	cb = n < b->len ? (unsigned char)b->name[n] :
	     b->mode == GIT_FILEMODE_TREE ? '/' : 0;
	return (ca > cb) - (ca < cb);
}

struct deleted {
	git_odb *odb;
	struct source *v;
	size_t nr, alloc;
	struct gm_strvec paths;		/* owns the paths of v */
};

static int deleted_add(struct deleted *d, const char *prefix,
		       const struct raw_entry *e)
{
	struct gm_buf path = GM_BUF_INIT;
	int error;

	if ((error = gm_buf_printf(&path, "%s%.*s", prefix, (int)e->len,
				   e->name)) < 0 ||
	    (error = gm_strvec_push(&d->paths, path.ptr)) < 0 ||
	    (error = GM_ARRAY_GROW(d->v, d->nr, d->alloc)) < 0)
		goto out;
	d->v[d->nr].path = NULL;	/* set once the paths stop moving */
	d->v[d->nr].deleted = true;
	git_oid_fromraw(&d->v[d->nr].id, e->id);
	d->v[d->nr++].mode = (git_filemode_t)e->mode;
out:
	gm_buf_release(&path);
	return error;
}

/* The files of tree `a` (raw id) not in tree `b` (NULL: none), recursively. */
static int deleted_collect(struct deleted *d, const unsigned char *a,
			   const unsigned char *b, const char *prefix)
{
	git_odb_object *ta = NULL, *tb = NULL;
	const char *pa, *ea, *pb = NULL, *eb = NULL;
	struct raw_entry x, y;
	bool have_y = false;
	git_oid id;
	int error = 0;

	git_oid_fromraw(&id, a);
	if (git_odb_read(&ta, d->odb, &id) < 0)
		return 0;	/* unreadable: nothing taken from it */
	if (b) {
		git_oid_fromraw(&id, b);
		if (git_odb_read(&tb, d->odb, &id) < 0)
			tb = NULL;
	}
	pa = git_odb_object_data(ta);
	ea = pa + git_odb_object_size(ta);
	if (tb) {
		pb = git_odb_object_data(tb);
		eb = pb + git_odb_object_size(tb);
		have_y = raw_next(&pb, eb, &y);
	}
	while (!error && raw_next(&pa, ea, &x)) {
		struct gm_buf sub = GM_BUF_INIT;
		int c = 1;

		while (have_y && (c = raw_cmp(&x, &y)) > 0)
			have_y = raw_next(&pb, eb, &y);
		if (!have_y)
			c = 1;
		if (c == 0 && !memcmp(x.id, y.id, GIT_OID_RAWSZ) &&
		    x.mode == y.mode)
			continue;
		if (x.mode != GIT_FILEMODE_TREE) {
			if (c != 0)
				error = deleted_add(d, prefix, &x);
			continue;
		}
		if ((error = gm_buf_printf(&sub, "%s%.*s/", prefix, (int)x.len,
					   x.name)) == 0)
			error = deleted_collect(d, x.id,
						c == 0 && y.mode == GIT_FILEMODE_TREE ?
						y.id : NULL, sub.ptr);
		gm_buf_release(&sub);
	}
	git_odb_object_free(ta);
	git_odb_object_free(tb);
	return error;
}

/*
 * What --follow's copy search keeps across a walk: the trees of the
 * parents searched (indexed, by id), and per blob asked about its size
 * and, up to a bound, its fingerprint: each chunk hash once with its
 * bytes, in no order. Scores are counted against the destination's
 * counts spread over a table of HASHBASE slots.
 */
struct blobinfo {
	int64_t size;		/* -1: unreadable */
	bool have_fp;		/* fp/nr hold the fingerprint */
	bool no_fp;		/* unreadable blob: none */
	bool queued;		/* in the batch being read */
	uint32_t *fp;		/* (hash, bytes) pairs */
	uint32_t nr;		/* pairs */
};

struct oidmap {
	git_oid *keys;
	void **values;		/* NULL: an empty slot */
	size_t nr, alloc;	/* alloc: a power of two or 0 */
};

/* One file of the parent's tree, in the order of a recursive listing. */
struct fentry {
	struct ptree *t;
	uint32_t i;		/* entry of t */
	uint32_t dir;		/* its directory, in `dirs` */
	bool deleted;		/* not in the commit: a rename, not a copy */
};

/* The tables a fingerprint is counted in: one set per thread. */
struct fp_scratch {
	uint32_t *acc;		/* HASHBASE: zero between uses */
	uint32_t *touched;	/* HASHBASE: the hashes `acc` counts */
};

/* What reading one blob gave. */
struct blob_got {
	enum { GOT_MISS, GOT_NONE, GOT_OK } state;	/* MISS: ask libgit2 */
	size_t size;
	uint32_t *fp;		/* with fingerprints: (hash, bytes) pairs */
	uint32_t nr;
};

/* A blob to read: its id, its size if known (0 if not), its facts. */
struct blob_want {
	git_oid id;
	size_t size;
	struct blobinfo *b;
};

/*
 * Blobs read from the packs alone, by one thread: the sizes (or with
 * `fingerprints`, the fingerprints) of want[lo..hi), into got[lo..hi).
 */
struct blob_batch {
	const struct blob_want *want;
	size_t lo, hi;
	bool fingerprints;
	struct blob_got *got;
	struct gm_pack_reader *pack;	/* the reading thread's */
	struct fp_scratch *scratch;	/* its tables */
	int error;
};

/*
 * The second thread of the copy search, where there is a second CPU and
 * there are packs: a reader and tables of its own, used by one batch at
 * a time, which the search waits for before it reads the results.
 */
struct follow_helper {
	struct gm_pack_reader *pack;
	struct fp_scratch scratch;
	struct blob_batch batch;
	struct gm_job job;
};

struct follow_cache {
	const struct objects *objs;	/* borrowed */
	struct oidmap trees;	/* id -> struct ptree *, all kept */
	struct oidmap blobs;	/* id -> struct blobinfo * */
	size_t spans;		/* fingerprint pairs kept, in all */
	struct blobinfo once;	/* one not kept, until the next */
	struct fp_scratch scratch;	/* this thread's */
	struct follow_helper *helper;	/* NULL: one thread */
	struct blobinfo **temps;	/* fingerprints over the bound */
	size_t nr_temps, alloc_temps;
	uint32_t *dst;		/* HASHBASE: the destination's, zero between */
	struct fentry *v;	/* the listing of the search under way */
	size_t nr, alloc;
	size_t *dirs;		/* offsets of directory prefixes in `names` */
	size_t nr_dirs, alloc_dirs;
	struct gm_buf names;	/* the prefixes, each NUL-terminated */
};

#define FOLLOW_CACHE_SPANS ((size_t)8 << 20)

static size_t oidmap_hash(const git_oid *id)
{
	size_t h;

	memcpy(&h, id->id, sizeof(h));
	return h;
}

/* The slot of `id` in `m`: its own, or the empty one it would take. */
static size_t oidmap_slot(const struct oidmap *m, const git_oid *id)
{
	size_t mask = m->alloc - 1, i = oidmap_hash(id) & mask;

	while (m->values[i] && !git_oid_equal(&m->keys[i], id))
		i = (i + 1) & mask;
	return i;
}

static void *oidmap_get(const struct oidmap *m, const git_oid *id)
{
	return m->alloc ? m->values[oidmap_slot(m, id)] : NULL;
}

/* Map `id` (absent) to `value` (not NULL). @return 0 or GM_ERROR. */
static int oidmap_put(struct oidmap *m, const git_oid *id, void *value)
{
	size_t i;

	if ((m->nr + 1) * 2 > m->alloc) {
		struct oidmap n = { NULL, NULL, 0, m->alloc ? m->alloc * 2 : 256 };

		n.keys = malloc(n.alloc * sizeof(*n.keys));
		n.values = calloc(n.alloc, sizeof(*n.values));
		if (!n.keys || !n.values) {
			free(n.keys);
			free(n.values);
			return gm_error_set(GM_ERROR, "out of memory");
		}
		for (size_t k = 0; k < m->alloc; k++) {
			if (!m->values[k])
				continue;
			i = oidmap_slot(&n, &m->keys[k]);
			n.keys[i] = m->keys[k];
			n.values[i] = m->values[k];
		}
		n.nr = m->nr;
		free(m->keys);
		free(m->values);
		*m = n;
	}
	i = oidmap_slot(m, id);
	git_oid_cpy(&m->keys[i], id);
	m->values[i] = value;
	m->nr++;
	return 0;
}

static int scratch_init(struct fp_scratch *sc)
{
	sc->acc = calloc(HASHBASE, sizeof(*sc->acc));
	sc->touched = calloc(HASHBASE, sizeof(*sc->touched));
	return sc->acc && sc->touched ? 0 : GM_ERROR;
}

static void scratch_release(struct fp_scratch *sc)
{
	free(sc->acc);
	free(sc->touched);
}

static void follow_helper_free(struct follow_helper *h)
{
	if (!h)
		return;
	gm_pack_reader_free(h->pack);
	scratch_release(&h->scratch);
	free(h);
}

/* A helper reading `packs`; NULL if there are none, or one CPU. */
static struct follow_helper *follow_helper_new(const struct gm_packs *packs)
{
	struct follow_helper *h;

	if (!gm_packs_count(packs) || gm_thread_cpus() < 2 ||
	    !(h = calloc(1, sizeof(*h))))
		return NULL;
	if (scratch_init(&h->scratch) < 0 ||
	    gm_pack_reader_new(&h->pack, packs, 0) < 0) {
		follow_helper_free(h);
		return NULL;
	}
	return h;
}

static void follow_cache_free(struct follow_cache *fc);

static struct follow_cache *follow_cache_new(const struct objects *objs,
					     const struct gm_packs *packs)
{
	struct follow_cache *fc = calloc(1, sizeof(*fc));

	if (!fc)
		return NULL;
	fc->objs = objs;
	gm_buf_init(&fc->names);
	fc->dst = calloc(HASHBASE, sizeof(*fc->dst));
	if (!fc->dst || scratch_init(&fc->scratch) < 0) {
		follow_cache_free(fc);
		return NULL;
	}
	fc->helper = follow_helper_new(packs);
	return fc;
}

static void follow_cache_free(struct follow_cache *fc)
{
	if (!fc)
		return;
	for (size_t i = 0; i < fc->trees.alloc; i++)
		ptree_free(fc->trees.values[i]);
	for (size_t i = 0; i < fc->blobs.alloc; i++) {
		struct blobinfo *b = fc->blobs.values[i];

		if (b)
			free(b->fp);
		free(b);
	}
	free(fc->trees.keys);
	free(fc->trees.values);
	free(fc->blobs.keys);
	free(fc->blobs.values);
	free(fc->once.fp);
	free(fc->temps);
	scratch_release(&fc->scratch);
	follow_helper_free(fc->helper);
	free(fc->dst);
	free(fc->v);
	free(fc->dirs);
	gm_buf_release(&fc->names);
	free(fc);
}

/* The tree `id` from the cache, read if new; NULL if unreadable. */
static struct ptree *follow_tree(struct follow_cache *fc, const git_oid *id)
{
	struct ptree *t = oidmap_get(&fc->trees, id);

	if (t)
		return t;
	if (!(t = ptree_read(fc->objs, id)))
		return NULL;
	if (oidmap_put(&fc->trees, id, t) < 0) {
		ptree_free(t);
		return NULL;
	}
	return t;
}

/* The entry of blob `id`, its size read if new; NULL: out of memory. */
static struct blobinfo *follow_blob(struct follow_cache *fc, const git_oid *id)
{
	struct blobinfo *b = oidmap_get(&fc->blobs, id);
	size_t size;

	if (b)
		return b;
	if (!(b = calloc(1, sizeof(*b))))
		return NULL;
	b->size = !objects_blob_size(fc->objs, id, &size) ||
		  (uint64_t)size > UINT32_MAX ? -1 : (int64_t)size;
	if (oidmap_put(&fc->blobs, id, b) < 0) {
		free(b);
		return NULL;
	}
	return b;
}

/*
 * git's fingerprint of a text (diffcore-delta.c): chunks ending at a
 * newline or 64 bytes long, hashed, with their lengths summed by hash;
 * a CR before a LF is skipped in text. Into `out` (its `fp`, `nr`).
 */
static int follow_fingerprint(struct fp_scratch *sc, struct blobinfo *out,
			      const char *buf, size_t len)
{
	size_t n = 0, k = 0;
	unsigned a1 = 0, a2 = 0;
	bool text = !is_binary(buf, len);

	for (size_t i = 0; i <= len; i++) {
		unsigned h;

		if (i < len) {
			unsigned c = (unsigned char)buf[i], old = a1;

			if (text && c == '\r' && i + 1 < len &&
			    buf[i + 1] == '\n')
				continue;
			a1 = (a1 << 7) ^ (a2 >> 25);
			a2 = (a2 << 7) ^ (old >> 25);
			a1 += c;
			if (++k < 64 && c != '\n')
				continue;
		} else if (!k) {
			break;
		}
		h = (a1 + a2 * 0x61) % HASHBASE;
		if (!sc->acc[h])
			sc->touched[n++] = h;
		sc->acc[h] += (uint32_t)k;
		k = 0;
		a1 = a2 = 0;
	}
	out->nr = (uint32_t)n;
	out->fp = n ? malloc(2 * n * sizeof(*out->fp)) : NULL;
	for (size_t i = 0; i < n; i++) {
		uint32_t h = sc->touched[i];

		if (out->fp) {
			out->fp[2 * i] = h;
			out->fp[2 * i + 1] = sc->acc[h];
		}
		sc->acc[h] = 0;
	}
	if (n && !out->fp)
		return gm_error_set(GM_ERROR, "out of memory");
	return 0;
}

/*
 * The fingerprint of blob `b` (id `id`), read if not kept: `b` itself,
 * or once the bound is reached the cache's one-off copy, valid until the
 * next call. NULL: the blob
 * is unreadable. Errors (out of memory) go to `*error`.
 */
static const struct blobinfo *follow_fp(struct follow_cache *fc,
					struct blobinfo *b, const git_oid *id,
					int *error)
{
	struct blobinfo v = *b;
	char *data;
	size_t len;

	if (b->have_fp)
		return b;
	if (b->no_fp)
		return NULL;
	if (!objects_read(fc->objs, id, GIT_OBJECT_BLOB, &data, &len)) {
		b->no_fp = true;
		return NULL;
	}
	*error = follow_fingerprint(&fc->scratch, &v, data, len);
	free(data);
	if (*error)
		return NULL;
	v.have_fp = true;
	if (fc->spans + v.nr > FOLLOW_CACHE_SPANS) {
		/* over the bound: used once, then dropped */
		free(fc->once.fp);
		fc->once = v;
		return &fc->once;
	}
	fc->spans += v.nr;
	*b = v;
	return b;
}

/* ==================== reading blobs on two threads ==================== */

static bool is_regular(git_filemode_t m)
{
	return m == GIT_FILEMODE_BLOB || m == GIT_FILEMODE_BLOB_EXECUTABLE;
}


/* One thread's part of a batch: from the packs, misses left as such. */
static void blob_batch_run(struct blob_batch *b)
{
	for (size_t i = b->lo; i < b->hi && !b->error; i++) {
		struct blob_got *g = &b->got[i];
		struct blobinfo v = { 0, false, false, false, NULL, 0 };
		git_object_t type;
		char *data = NULL;
		size_t len = 0;
		int e;

		if (!b->fingerprints) {
			e = gm_pack_header(b->pack, &b->want[i].id, &type,
					   &g->size);
			g->state = e ? GOT_MISS :
				   type == GIT_OBJECT_BLOB ? GOT_OK : GOT_NONE;
			continue;
		}
		e = gm_pack_read(b->pack, &b->want[i].id, &type, &data, &len);
		if (e == GM_ENOTFOUND) {
			g->state = GOT_MISS;
			continue;
		}
		if (e < 0) {
			b->error = e;
			break;
		}
		g->state = GOT_NONE;
		if (type == GIT_OBJECT_BLOB &&
		    !(b->error = follow_fingerprint(b->scratch, &v, data, len))) {
			g->state = GOT_OK;
			g->size = len;
			g->fp = v.fp;
			g->nr = v.nr;
		}
		free(data);
	}
}

static void *blob_batch_thread(void *arg)
{
	struct follow_helper *h = arg;

	blob_batch_run(&h->batch);
	gm_job_done(&h->job, h->batch.error);
	return NULL;
}

/* What the packs missed, from libgit2, in this thread. */
static int blob_batch_misses(struct follow_cache *fc,
			     const struct blob_want *want, size_t n,
			     bool fingerprints, struct blob_got *got)
{
	const struct objects odb = { fc->objs->odb, NULL };
	int error = 0;

	for (size_t i = 0; i < n && !error; i++) {
		struct blob_got *g = &got[i];
		struct blobinfo v = { 0, false, false, false, NULL, 0 };
		char *data;
		size_t len;

		if (g->state != GOT_MISS)
			continue;
		g->state = GOT_NONE;
		if (!fingerprints) {
			if (objects_blob_size(&odb, &want[i].id, &g->size))
				g->state = GOT_OK;
			continue;
		}
		if (!objects_read(&odb, &want[i].id, GIT_OBJECT_BLOB, &data,
				  &len))
			continue;
		if (!(error = follow_fingerprint(&fc->scratch, &v, data, len))) {
			g->state = GOT_OK;
			g->size = len;
			g->fp = v.fp;
			g->nr = v.nr;
		}
		free(data);
	}
	return error;
}

/*
 * The sizes (or fingerprints) of blobs `want`, into `got`: the second
 * half (by size for fingerprints, else by count) read by the helper
 * while this thread reads the first, when there is a helper and enough
 * to share. @return 0 or GM_ERROR.
 */
static int blobs_read(struct follow_cache *fc, const struct blob_want *want,
		      size_t n, bool fingerprints, struct blob_got *got)
{
	struct follow_helper *h = fc->helper;
	struct blob_batch mine = { want, 0, n, fingerprints, got,
				   fc->objs->pack, &fc->scratch, 0 };
	bool shared = h && n >= 16;
	int error;

	if (shared) {
		size_t total = 0, half = 0, mid = 0;

		for (size_t i = 0; i < n; i++)
			total += fingerprints ? want[i].size : 1;
		while (mid < n && half * 2 < total)
			half += fingerprints ? want[mid++].size : (mid++, 1);
		h->batch = (struct blob_batch){ want, mid, n, fingerprints, got,
						h->pack, &h->scratch, 0 };
		mine.hi = mid;
		if (!gm_job_start(&h->job, blob_batch_thread, h)) {
			mine.hi = n;
			shared = false;
		}
	}
	blob_batch_run(&mine);
	error = shared ? gm_job_join(&h->job) : 0;
	if (!error)
		error = mine.error;
	if (!error)
		error = blob_batch_misses(fc, want, n, fingerprints, got);
	return error;
}

/*
 * Whether a blob of `ss` bytes may score `min_score` against one of `ds`
 * (estimate_similarity()'s test of the sizes alone).
 */
static bool size_may_match(size_t ss, size_t ds, int min_score)
{
	size_t max = ss > ds ? ss : ds, base = ss < ds ? ss : ds;

	return max && (double)max * (MAX_SCORE - min_score) >=
		      (double)(max - base) * MAX_SCORE;
}

/* The blob facts of listing entry `f`, made (size unknown) if new. */
static struct blobinfo *listing_info(struct follow_cache *fc,
				     struct fentry *f, bool *fresh)
{
	const struct tentry *e = &f->t->v[f->i];
	struct blobinfo *b;
	git_oid id;

	*fresh = false;
	if (!f->t->info && !(f->t->info = calloc(f->t->nr, sizeof(*f->t->info))))
		return NULL;
	if ((b = f->t->info[f->i]))
		return b;
	git_oid_fromraw(&id, e->id);
	if (!(b = oidmap_get(&fc->blobs, &id))) {
		if (!(b = calloc(1, sizeof(*b))))
			return NULL;
		if (oidmap_put(&fc->blobs, &id, b) < 0) {
			free(b);
			return NULL;
		}
		*fresh = true;
	}
	return f->t->info[f->i] = b;
}

/*
 * What reading blob `b` gave (`g`, whose fingerprint becomes b's) made
 * its facts, unless `error` (which is returned, or a new one) is set.
 */
static int follow_got(struct follow_cache *fc, struct blobinfo *b,
		      struct blob_got *g, bool fingerprint, int error)
{
	b->queued = false;
	if (!fingerprint) {
		b->size = g->state != GOT_OK || (uint64_t)g->size > UINT32_MAX ?
			  -1 : (int64_t)g->size;
		return error;
	}
	if (error || g->state != GOT_OK) {
		b->no_fp = !error && g->state == GOT_NONE;
		free(g->fp);
		return error;
	}
	b->fp = g->fp;
	b->nr = g->nr;
	b->have_fp = true;
	if (fc->spans + b->nr <= FOLLOW_CACHE_SPANS) {
		fc->spans += b->nr;
		return 0;
	}
	if (GM_ARRAY_GROW(fc->temps, fc->nr_temps, fc->alloc_temps) < 0)
		return GM_ERROR;
	fc->temps[fc->nr_temps++] = b;
	return 0;
}

/*
 * Before a search: the sizes of every file of the listing not known yet,
 * then the fingerprints of those whose size may match `dsize`, read in
 * two batches (blobs_read()). Fingerprints past the cache's bound are
 * kept until follow_done().
 */
static int follow_prefill(struct follow_cache *fc, size_t dsize)
{
	struct blob_want *want = NULL;
	struct blob_got *got = NULL;
	size_t nr = 0, alloc = 0;
	int error = 0;

	for (int pass = 0; pass < 2 && !error; pass++) {
		nr = 0;
		for (size_t i = 0; i < fc->nr && !error; i++) {
			struct fentry *f = &fc->v[i];
			const struct tentry *e = &f->t->v[f->i];
			struct blobinfo *b;
			bool fresh;

			if (!is_regular(e->mode))
				continue;
			if (!(b = listing_info(fc, f, &fresh))) {
				error = gm_error_set(GM_ERROR, "out of memory");
			} else if (pass == 0 ? fresh :
				   b->size >= 0 && !b->queued && !b->have_fp &&
				   !b->no_fp &&
				   size_may_match((size_t)b->size, dsize,
						  MIN_SCORE)) {
				if (GM_ARRAY_GROW(want, nr, alloc) < 0) {
					error = GM_ERROR;
					break;
				}
				git_oid_fromraw(&want[nr].id, e->id);
				want[nr].size = b->size > 0 ? (size_t)b->size : 0;
				want[nr++].b = b;
				b->queued = true;
			}
		}
		if (error || !nr)
			continue;
		if (!(got = calloc(nr, sizeof(*got)))) {
			error = gm_error_set(GM_ERROR, "out of memory");
			break;
		}
		error = blobs_read(fc, want, nr, pass == 1, got);
		for (size_t k = 0; k < nr; k++)
			error = follow_got(fc, want[k].b, &got[k], pass == 1,
					   error);
		free(got);
		got = NULL;
		nr = 0;
	}
	for (size_t k = 0; k < nr; k++)
		want[k].b->queued = false;
	free(want);
	return error;
}

/* After a search: the fingerprints kept past the bound are dropped. */
static void follow_done(struct follow_cache *fc)
{
	for (size_t i = 0; i < fc->nr_temps; i++) {
		free(fc->temps[i]->fp);
		fc->temps[i]->fp = NULL;
		fc->temps[i]->nr = 0;
		fc->temps[i]->have_fp = false;
	}
	fc->nr_temps = 0;
}

/* Add the directory `prefix` + `name` + "/" (or "" for none). */
static int listing_dir(struct follow_cache *fc, size_t parent,
		       const char *name, size_t len, uint32_t *out)
{
	size_t off = fc->names.len;
	int error;

	if (GM_ARRAY_GROW(fc->dirs, fc->nr_dirs, fc->alloc_dirs) < 0)
		return GM_ERROR;
	if (name) {
		/* the parent's prefix may move as names grows: copy by offset */
		size_t plen = strlen(fc->names.ptr + fc->dirs[parent]);

		if ((error = gm_buf_grow(&fc->names, plen + len + 2)) < 0)
			return error;
		error = gm_buf_put(&fc->names, fc->names.ptr + fc->dirs[parent],
				   plen);
		if (!error)
			error = gm_buf_put(&fc->names, name, len);
		if (!error)
			error = gm_buf_putc(&fc->names, '/');
	} else {
		error = 0;
	}
	if (!error)
		error = gm_buf_putc(&fc->names, '\0');
	if (error)
		return error;
	fc->dirs[fc->nr_dirs] = off;
	*out = (uint32_t)fc->nr_dirs++;
	return 0;
}

/*
 * List every file of tree `a` (its directory `dir`) recursively, in the
 * order of the trees, each marked deleted unless tree `b` (NULL: none;
 * `same`: identical to `a`) has it as a file too: the sources of
 * --follow, which looks for copies of any file (find_copies_harder). An
 * unreadable subtree of `a` gives nothing; one of `b`, no file.
 */
static int listing_add(struct follow_cache *fc, struct ptree *a,
		       struct ptree *b, bool same, uint32_t dir)
{
	int error = 0;

	for (size_t i = 0; i < a->nr && !error; i++) {
		const struct tentry *x = &a->v[i], *y;
		struct ptree *sa, *sb = NULL;
		bool sub_same = false;
		git_oid id;
		uint32_t sub;

		if (!mode_is_tree(x->mode)) {
			if ((error = GM_ARRAY_GROW(fc->v, fc->nr, fc->alloc)) < 0)
				break;
			fc->v[fc->nr].t = a;
			fc->v[fc->nr].i = (uint32_t)i;
			fc->v[fc->nr].dir = dir;
			fc->v[fc->nr++].deleted = !same &&
				!ptree_find(b, x->name, x->len, -1);
			continue;
		}
		git_oid_fromraw(&id, x->id);
		if (!(sa = follow_tree(fc, &id)))
			continue;
		y = same ? x : ptree_find(b, x->name, x->len, 1);
		if (y && !(sub_same = !memcmp(x->id, y->id, GIT_OID_RAWSZ))) {
			git_oid_fromraw(&id, y->id);
			sb = follow_tree(fc, &id);
		}
		if ((error = listing_dir(fc, dir, x->name, x->len, &sub)) == 0)
			error = listing_add(fc, sa, sb, sub_same, sub);
	}
	return error;
}

/* One of the four best candidates of diffcore-rename's matrix. */
struct candidate {
	int score;
	int name_score;
	size_t src;		/* SIZE_MAX: an empty slot */
};

/* score_compare(): > 0 when `b` is the better one. */
static int candidate_cmp(const struct candidate *a, const struct candidate *b)
{
	if (a->score != b->score)
		return b->score - a->score;
	return b->name_score - a->name_score;
}

/*
 * The score of estimate_similarity() of `src` (`ss` bytes) against a
 * blob of `ds` bytes whose fingerprint counts are spread over `dst`
 * (HASHBASE slots).
 */
static int fp_score(const uint32_t *dst, const struct blobinfo *src,
		    size_t ss, size_t ds)
{
	size_t max = ss > ds ? ss : ds, copied = 0;

	for (uint32_t i = 0; i < src->nr; i++) {
		uint32_t d = dst[src->fp[2 * i]], c = src->fp[2 * i + 1];

		copied += c < d ? c : d;
	}
	return ds && max ? (int)((double)copied * MAX_SCORE / (double)max) : 0;
}

/*
 * --follow's source of the file `dst` created by the commit: git
 * log's rename detection with find_copies_harder, every file of the
 * parent a source. An identical file first (one the commit deleted, of
 * the same base name, better; among equals the last in path order, as
 * git's hash map yields them); else the four most similar at 50% or
 * more, the best of them that was deleted, else the best.
 */
static int find_follow_source(char **out, struct follow_cache *fc,
			      const git_oid *ta, const git_oid *tb,
			      const char *dst, const git_oid *dst_id,
			      git_filemode_t dst_mode)
{
	const char *dst_base = base_name(dst);
	struct ptree *a, *b;
	struct blobinfo *di;
	const struct blobinfo *df;
	uint32_t *dst_fp = NULL, dst_nr;
	struct candidate top[4];
	size_t best = SIZE_MAX, dsize;
	int best_score = -1, error = 0;
	uint32_t root = 0;

	*out = NULL;
	if (!ta || dst_mode == GIT_FILEMODE_COMMIT)
		return 0;
	fc->nr = fc->nr_dirs = 0;
	gm_buf_reset(&fc->names);
	if (!(a = follow_tree(fc, ta)))
		return 0;
	b = follow_tree(fc, tb);
	if ((error = listing_dir(fc, 0, NULL, 0, &root)) < 0 ||
	    (error = listing_add(fc, a, b, false, root)) < 0)
		return error;
	for (size_t i = 0; i < fc->nr; i++) {	/* exact */
		const struct tentry *e = &fc->v[i].t->v[fc->v[i].i];
		int score;

		if (memcmp(e->id, dst_id->id, GIT_OID_RAWSZ))
			continue;
		score = fc->v[i].deleted + !strcmp(e->name, dst_base);
		if (score >= best_score) {	/* the last of the best */
			best = i;
			best_score = score;
		}
	}
	if (best != SIZE_MAX || !is_regular(dst_mode))
		goto found;
	if (!(di = follow_blob(fc, dst_id)))
		return gm_error_set(GM_ERROR, "out of memory");
	if (di->size < 0 || !(df = follow_fp(fc, di, dst_id, &error)))
		return error;
	dsize = (size_t)di->size;
	dst_nr = df->nr;
	if (df == &fc->once) {	/* the one-off goes with the next read */
		dst_fp = fc->once.fp;
		fc->once.fp = NULL;
		fc->once.have_fp = false;
	} else {
		dst_fp = df->fp;
	}
	for (uint32_t k = 0; k < dst_nr; k++)
		fc->dst[dst_fp[2 * k]] = dst_fp[2 * k + 1];
	for (int k = 0; k < 4; k++)
		top[k] = (struct candidate){ 0, 0, SIZE_MAX };
	error = follow_prefill(fc, dsize);
	for (size_t i = 0; i < fc->nr && !error; i++) {
		struct fentry *f = &fc->v[i];
		const struct tentry *e = &f->t->v[f->i];
		struct candidate c = { 0, 0, i };
		struct blobinfo *si;
		const struct blobinfo *sf;
		size_t ssize;
		git_oid id;
		int worst = 0;

		if (!is_regular(e->mode))
			continue;
		if (!f->t->info &&
		    !(f->t->info = calloc(f->t->nr, sizeof(*f->t->info)))) {
			error = gm_error_set(GM_ERROR, "out of memory");
			break;
		}
		git_oid_fromraw(&id, e->id);
		if (!(si = f->t->info[f->i]) &&
		    !(si = f->t->info[f->i] = follow_blob(fc, &id))) {
			error = gm_error_set(GM_ERROR, "out of memory");
			break;
		}
		if (si->size < 0)
			continue;
		ssize = (size_t)si->size;
		if (!size_may_match(ssize, dsize, MIN_SCORE) ||
		    !(sf = follow_fp(fc, si, &id, &error)))
			continue;
		c.score = fp_score(fc->dst, sf, ssize, dsize);
		c.name_score = !strcmp(e->name, dst_base);
		for (int k = 1; k < 4; k++)
			if (candidate_cmp(&top[k], &top[worst]) > 0)
				worst = k;
		if (candidate_cmp(&top[worst], &c) > 0)
			top[worst] = c;
	}
	for (uint32_t k = 0; k < dst_nr; k++)
		fc->dst[dst_fp[2 * k]] = 0;
	if (dst_fp != di->fp)
		free(dst_fp);
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
			if (pass || fc->v[top[k].src].deleted)
				best = top[k].src;
		}
found:
	if (best != SIZE_MAX) {
		const struct fentry *f = &fc->v[best];
		struct gm_buf path = GM_BUF_INIT;

		if ((error = gm_buf_puts(&path, fc->names.ptr +
					 fc->dirs[f->dir])) == 0 &&
		    (error = gm_buf_puts(&path, f->t->v[f->i].name)) == 0 &&
		    !(*out = gm_buf_detach(&path, NULL)))
			error = gm_error_set(GM_ERROR, "out of memory");
		gm_buf_release(&path);
	}
	return error;
}

/* estimate_similarity() of diffcore-rename.c, 0..MAX_SCORE. */
static int similarity(git_blob *src, git_blob *dst, int min_score)
{
	size_t ss = (size_t)git_blob_rawsize(src);
	size_t ds = (size_t)git_blob_rawsize(dst);
	struct blobinfo a = { 0, false, false, false, NULL, 0 };
	struct blobinfo b = { 0, false, false, false, NULL, 0 };
	struct fp_scratch sc = { NULL, NULL };
	uint32_t *table = NULL;
	int score = 0;

	if (!size_may_match(ss, ds, min_score))
		return 0;
	if (scratch_init(&sc) < 0 ||
	    !(table = calloc(HASHBASE, sizeof(*table))) ||
	    follow_fingerprint(&sc, &a, git_blob_rawcontent(src), ss) < 0 ||
	    follow_fingerprint(&sc, &b, git_blob_rawcontent(dst), ds) < 0)
		goto out;
	for (uint32_t k = 0; k < b.nr; k++)
		table[b.fp[2 * k]] = b.fp[2 * k + 1];
	score = fp_score(table, &a, ss, ds);
out:
	free(a.fp);
	free(b.fp);
	free(table);
	scratch_release(&sc);
	return score;
}

int gm_signers_find_rename(char **out, git_repository *repo,
			   const git_oid *ta, const git_oid *tb,
			   const char *dst, const git_oid *dst_id,
			   git_filemode_t dst_mode)
{
	struct entry de = { true, { { 0 } }, dst_mode };
	const struct entry *dst_entry = &de;
	struct walk wr, *w = &wr;
	struct deleted del = { NULL, NULL, 0, 0, GM_STRVEC_INIT };
	git_blob *db = NULL, *sb = NULL;
	struct source *src = NULL;
	size_t nr = 0, best = SIZE_MAX, same_base = 0, base_at = 0;
	int best_score = -1, error = 0;

	*out = NULL;
	git_oid_cpy(&de.id, dst_id);
	wr.repo = repo;
	if (!ta || dst_entry->mode == GIT_FILEMODE_COMMIT)
		return 0;
	if (git_repository_odb(&del.odb, repo) < 0)
		goto out;	/* unreadable: no rename */
	if ((error = deleted_collect(&del, ta->id, tb->id, "")) < 0)
		goto out;
	src = del.v;
	nr = del.nr;
	for (size_t i = 0; i < nr; i++)
		src[i].path = del.paths.v[i];
	for (size_t i = 0; i < nr; i++) {	/* exact */
		int score;

		if (!git_oid_equal(&src[i].id, &dst_entry->id))
			continue;
		score = 1 + !strcmp(base_name(src[i].path), base_name(dst));
		if (score > best_score) {
			best = i;
			best_score = score;
		}
	}
	if (best != SIZE_MAX || git_blob_lookup(&db, w->repo, &dst_entry->id) < 0)
		goto found;
	if (dst_entry->mode != GIT_FILEMODE_BLOB &&
	    dst_entry->mode != GIT_FILEMODE_BLOB_EXECUTABLE)
		goto found;
	for (size_t i = 0; i < nr; i++) {
		if (!strcmp(base_name(src[i].path), base_name(dst))) {
			same_base++;
			base_at = i;
		}
	}
	if (same_base == 1 &&
	    (src[base_at].mode == GIT_FILEMODE_BLOB ||
	     src[base_at].mode == GIT_FILEMODE_BLOB_EXECUTABLE) &&
	    git_blob_lookup(&sb, w->repo, &src[base_at].id) == 0) {
		if (similarity(sb, db, MIN_BASENAME_SCORE) >= MIN_BASENAME_SCORE)
			best = base_at;
		git_blob_free(sb);
		sb = NULL;
		if (best != SIZE_MAX)
			goto found;
	}
	for (size_t i = 0; i < nr; i++) {
		int score;

		if (src[i].mode != GIT_FILEMODE_BLOB &&
		    src[i].mode != GIT_FILEMODE_BLOB_EXECUTABLE)
			continue;
		if (git_blob_lookup(&sb, w->repo, &src[i].id) < 0)
			continue;
		score = similarity(sb, db, MIN_SCORE);
		score = score * 2 + !strcmp(base_name(src[i].path),
					    base_name(dst));
		git_blob_free(sb);
		sb = NULL;
		if (score >= MIN_SCORE * 2 && score > best_score) {
			best = i;
			best_score = score;
		}
	}
found:
	if (best != SIZE_MAX && !(*out = strdup(src[best].path)))
		error = gm_error_set(GM_ERROR, "out of memory");
out:
	free(del.v);
	gm_strvec_release(&del.paths);
	git_odb_free(del.odb);
	git_blob_free(db);
	return error;
}

/* ==================== the walk ==================== */

struct qitem {
	git_commit *c;
	uint64_t seq;		/* insertion order: ties come out first in */
};

struct queue {
	struct qitem *v;
	size_t nr, alloc;
	uint64_t seq;
};

static bool q_before(const struct qitem *a, const struct qitem *b)
{
	git_time_t ta = git_commit_time(a->c), tb = git_commit_time(b->c);

	return ta != tb ? ta > tb : a->seq < b->seq;
}

static int q_push(struct queue *q, git_commit *c)
{
	struct qitem it = { c, q->seq++ };
	size_t i;

	if (GM_ARRAY_GROW(q->v, q->nr, q->alloc) < 0)
		return GM_ERROR;
	for (i = q->nr++; i && q_before(&it, &q->v[(i - 1) / 2]); i = (i - 1) / 2)
		q->v[i] = q->v[(i - 1) / 2];
	q->v[i] = it;
	return 0;
}

static git_commit *q_pop(struct queue *q)
{
	struct qitem top, last;
	size_t i = 0;

	if (!q->nr)
		return NULL;
	top = q->v[0];
	last = q->v[--q->nr];
	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= q->nr)
			break;
		if (k + 1 < q->nr && q_before(&q->v[k + 1], &q->v[k]))
			k++;
		if (!q_before(&q->v[k], &last))
			break;
		q->v[i] = q->v[k];
		i = k;
	}
	if (q->nr)
		q->v[i] = last;
	return top.c;
}

static int enqueue(struct walk *w, struct queue *q, git_commit *c)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), git_commit_id(c));
	if (gm_strmap_get(&w->seen, hex, GIT_OID_HEXSZ, NULL)) {
		git_commit_free(c);
		return 0;
	}
	if (gm_strmap_put(&w->seen, hex, GIT_OID_HEXSZ, NULL) < 0 ||
	    q_push(q, c) < 0) {
		git_commit_free(c);
		return GM_ERROR;
	}
	return 0;
}

/* Record the changes of the commit examined, following renames. */
static int record(struct walk *w, git_commit *c, const git_oid *ta,
		  const git_oid *tb)
{
	struct gm_signers *s = w->s;
	size_t k = s->nr_commits;
	int error;

	if (GM_ARRAY_GROW(s->commits, s->nr_commits, s->alloc_commits) < 0)
		return GM_ERROR;
	if ((error = gm_signers_commit_read(&s->commits[k], c,
					    w->opts->all_signature_types)) < 0)
		return error;
	s->nr_commits++;
	for (size_t i = 0; i < w->nr_changed && !error; i++) {
		size_t f = w->changed[i];
		struct gm_signers_file *file = &s->files[f];
		struct gm_signers_touch *t;
		char *source = NULL;

		if (!w->dir[f] && !w->ca[i].found && w->cb[i].found &&
		    (error = find_follow_source(&source, w->follow, ta, tb,
						w->paths[f], &w->cb[i].id,
						w->cb[i].mode)) < 0)
			break;
		if (GM_ARRAY_GROW(file->touches, file->nr_touches,
				  file->alloc_touches) < 0 ||
		    GM_ARRAY_GROW(w->pending, w->nr_pending,
				  w->alloc_pending) < 0) {
			free(source);
			return GM_ERROR;
		}
		t = &file->touches[file->nr_touches];
		memset(t, 0, sizeof(*t));
		t->commit = k;
		t->added = t->deleted = -1;
		if (!w->dir[f] && !source && !(t->path = strdup(w->paths[f]))) {
			free(source);
			return gm_error_set(GM_ERROR, "out of memory");
		}
		w->pending[w->nr_pending].file = f;
		w->pending[w->nr_pending].touch = file->nr_touches++;
		w->pending[w->nr_pending].a = w->ca[i];
		w->pending[w->nr_pending++].b = w->cb[i];
		if (source) {
			if (gm_strvec_push(&file->renamed_from, source) < 0) {
				free(source);
				return GM_ERROR;
			}
			free(w->paths[f]);
			w->paths[f] = source;
			w->resort = true;
		}
	}
	if (w->resort)
		walk_sort(w);
	return error;
}

/* One commit of the window: its parents queued; a non-merge examined. */
static int walk_commit(struct walk *w, struct queue *q, git_commit *c)
{
	unsigned n = git_commit_parentcount(c);
	git_oid pt;
	bool have_parent = false;
	int error = 0;

	for (unsigned i = 0; i < n && !error; i++) {
		git_commit *p = NULL;

		if (git_commit_parent(&p, c, i) < 0) {
			w->s->shallow = true;
			continue;
		}
		if (i == 0) {
			git_oid_cpy(&pt, git_commit_tree_id(p));
			have_parent = true;
		}
		error = enqueue(w, q, p);
	}
	if (error || n > 1 || (n == 1 && !have_parent))
		return error;
	w->nr_changed = 0;
	error = diff_level(w, have_parent ? &pt : NULL, git_commit_tree_id(c),
			   0, w->s->nr_files, 0);
	if (!error && w->nr_changed)
		error = record(w, c, have_parent ? &pt : NULL,
			       git_commit_tree_id(c));
	return error;
}

/* ==================== numstat ==================== */

/* Whether git would show `path` as binary: a NUL, or the -diff attribute. */
static bool attr_binary(git_repository *repo, const char *path)
{
	const char *v = NULL;

	if (!path || git_attr_get(&v, repo, GIT_ATTR_CHECK_FILE_THEN_INDEX,
				  path, "diff") < 0)
		return false;
	return GIT_ATTR_IS_FALSE(v);
}

/*
 * The repository attributes are read from: `repo` opened again with an
 * empty index. git log reads attributes from the work tree (and
 * info/attributes, core.attributesFile) and never from the index, which
 * it does not load; libgit2 falls back to the index, so its index is
 * made empty (which also spares reading it); the blobs whose lines are
 * counted are read from it too, as their diff looks up their attributes
 * in the repository they come from. `repo` itself if it cannot
 * be opened so, or not at the same work tree.
 */
static git_repository *attr_repo_open(git_repository *repo)
{
	const char *wd = git_repository_workdir(repo), *wd2;
	git_repository *r = NULL;
	git_index *index = NULL;

	if (!wd || git_repository_open(&r, git_repository_path(repo)) < 0)
		return repo;
	if (!(wd2 = git_repository_workdir(r)) || strcmp(wd, wd2) ||
	    git_index_new(&index) < 0 || git_repository_set_index(r, index) < 0) {
		git_index_free(index);
		git_repository_free(r);
		return repo;
	}
	git_index_free(index);
	return r;
}

static int blob_of(git_blob **out, git_repository *repo, const struct entry *e)
{
	*out = NULL;
	if (!e->found || e->mode == GIT_FILEMODE_COMMIT ||
	    e->mode == GIT_FILEMODE_TREE)
		return 0;
	return git_blob_lookup(out, repo, &e->id) < 0 ? -1 : 0;
}

static int count_lines(struct walk *w, const struct pending *p)
{
	struct gm_signers_touch *t =
		&w->s->files[p->file].touches[p->touch];
	git_diff_options o;
	git_blob *a = NULL, *b = NULL;
	git_patch *patch = NULL;
	size_t adds = 0, dels = 0;

	if (!t->path)
		return 0;	/* never matched: not counted */
	/* from attr_repo: the diff of blobs asks it for their attributes */
	if (blob_of(&a, w->attr_repo, &p->a) < 0 ||
	    blob_of(&b, w->attr_repo, &p->b) < 0)
		goto out;
	if ((a && is_binary(git_blob_rawcontent(a), git_blob_rawsize(a))) ||
	    (b && is_binary(git_blob_rawcontent(b), git_blob_rawsize(b))) ||
	    attr_binary(w->attr_repo, t->path))
		goto out;	/* "-\t-" */
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.flags = GIT_DIFF_FORCE_TEXT;
	o.context_lines = 0;
	if (git_patch_from_blobs(&patch, a, NULL, b, NULL, &o) < 0 ||
	    git_patch_line_stats(NULL, &adds, &dels, patch) < 0)
		goto out;
	t->added = (long)adds;
	t->deleted = (long)dels;
out:
	git_patch_free(patch);
	git_blob_free(a);
	git_blob_free(b);
	return 0;
}

/* ==================== the walk, all of it ==================== */

static int walk_prepare(struct walk *w, const struct gm_strvec *files)
{
	struct gm_signers *s = w->s;
	size_t n = files->nr;

	s->files = calloc(n + 1, sizeof(*s->files));
	w->paths = calloc(n + 1, sizeof(*w->paths));
	w->dir = calloc(n + 1, sizeof(*w->dir));
	w->order = calloc(n + 1, sizeof(*w->order));
	w->changed = calloc(n + 1, sizeof(*w->changed));
	w->ca = calloc(n + 1, sizeof(*w->ca));
	w->cb = calloc(n + 1, sizeof(*w->cb));
	if (!s->files || !w->paths || !w->dir || !w->order || !w->changed ||
	    !w->ca || !w->cb)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const char *p = files->v[i];
		size_t len = strlen(p);

		s->nr_files++;
		if (!(s->files[i].path = strdup(p)))
			return gm_error_set(GM_ERROR, "out of memory");
		while (len && p[len - 1] == '/')
			len--;
		w->dir[i] = len < strlen(p) || !len;
		if (!(w->paths[i] = strndup(p, len)))
			return gm_error_set(GM_ERROR, "out of memory");
		w->order[i] = i;
	}
	walk_sort(w);
	return 0;
}

static void walk_release(struct walk *w, struct queue *q)
{
	git_commit *c;

	while ((c = q_pop(q)))
		git_commit_free(c);
	free(q->v);
	for (size_t i = 0; i < TREE_SLOTS; i++)
		ptree_free(w->trees[i]);
	git_odb_free(w->objs.odb);
	gm_pack_reader_free(w->objs.pack);
	for (size_t i = 0; w->paths && i < w->s->nr_files; i++)
		free(w->paths[i]);
	free(w->paths);
	free(w->dir);
	free(w->order);
	free(w->changed);
	free(w->ca);
	free(w->cb);
	free(w->pending);
	gm_strmap_release(&w->seen);
	gm_buf_release(&w->name);
	follow_cache_free(w->follow);
}

int gm_signers_walk(struct gm_signers **out, git_repository *repo,
		    const git_oid *start, const struct gm_strvec *files,
		    const struct gm_signers_options *opts)
{
	struct walk w;
	struct queue q = { NULL, 0, 0, 0 };
	git_commit *c = NULL;
	int error;

	*out = NULL;
	memset(&w, 0, sizeof(w));
	w.repo = repo;
	w.opts = opts;
	if (!(w.s = calloc(1, sizeof(*w.s))))
		return gm_error_set(GM_ERROR, "out of memory");
	if (git_repository_odb(&w.objs.odb, repo) < 0)
		w.objs.odb = NULL;
	if ((opts->packs &&
	     gm_pack_reader_new(&w.objs.pack, opts->packs, 0) < 0) ||
	    !(w.follow = follow_cache_new(&w.objs, opts->packs))) {
		free(w.s);
		git_odb_free(w.objs.odb);
		gm_pack_reader_free(w.objs.pack);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	error = walk_prepare(&w, files);
	if (!error && git_commit_lookup(&c, repo, start) < 0)
		error = gm_error_from_git(GIT_ERROR, "cannot read the start commit");
	if (!error && files->nr)
		error = enqueue(&w, &q, c);
	else
		git_commit_free(c);
	while (!error && (c = q_pop(&q))) {
		if (git_commit_time(c) >= opts->since) {
			w.s->walked++;
			error = walk_commit(&w, &q, c);
		}
		git_commit_free(c);
	}
	if (!error && w.nr_pending)
		w.attr_repo = attr_repo_open(repo);
	for (size_t i = 0; i < w.nr_pending && !error; i++)
		error = count_lines(&w, &w.pending[i]);
	if (w.attr_repo != repo)
		git_repository_free(w.attr_repo);
	walk_release(&w, &q);
	if (error)
		gm_signers_free(w.s);
	else
		*out = w.s;
	return error;
}

void gm_signers_free(struct gm_signers *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_commits; i++)
		gm_signers_commit_release(&s->commits[i]);
	free(s->commits);
	for (size_t i = 0; i < s->nr_files; i++) {
		struct gm_signers_file *f = &s->files[i];

		for (size_t k = 0; k < f->nr_touches; k++)
			free(f->touches[k].path);
		free(f->touches);
		free(f->path);
		gm_strvec_release(&f->renamed_from);
	}
	free(s->files);
	free(s);
}

/* ==================== what the script makes of it ==================== */

/* The script's ^(\d+)\t(\d+)\tFILE$, FILE a regex. */
struct stat_re {
	pcre2_code *re;
	pcre2_match_data *md;
	const char *file;	/* literal fallback */
};

static void stat_re_init(struct stat_re *r, const char *file)
{
	struct gm_buf pat = GM_BUF_INIT;
	int err;
	PCRE2_SIZE off;

	memset(r, 0, sizeof(*r));
	r->file = file;
	if (gm_buf_printf(&pat, "^(\\d+)\\t(\\d+)\\t%s$", file) == 0)
		r->re = pcre2_compile((PCRE2_SPTR)pat.ptr, pat.len, 0, &err,
				      &off, NULL);
	if (r->re)
		r->md = pcre2_match_data_create_from_pattern(r->re, NULL);
	gm_buf_release(&pat);
}

static void stat_re_release(struct stat_re *r)
{
	pcre2_match_data_free(r->md);
	pcre2_code_free(r->re);
}

/* Whether `line` matches; its two numbers into `a`, `d`. */
static bool stat_re_match(struct stat_re *r, const char *line, long *a,
			  long *d)
{
	const char *p = line;

	if (r->re && r->md) {
		if (pcre2_match(r->re, (PCRE2_SPTR)line, PCRE2_ZERO_TERMINATED,
				0, 0, r->md, NULL) < 0)
			return false;
	} else {
		const char *tab = strchr(line, '\t');

		tab = tab ? strchr(tab + 1, '\t') : NULL;
		if (!tab || strcmp(tab + 1, r->file))
			return false;
	}
	*a = strtol(p, (char **)&p, 10);
	*d = strtol(p + 1, NULL, 10);
	return true;
}

/* deduplicate_email() of each line, in order, into `out`. */
static int dedup_all(struct gm_rank *rk, struct gm_strvec *out,
		     const struct gm_strvec *in, bool extract)
{
	struct gm_buf tmp = GM_BUF_INIT;
	int error = 0;

	for (size_t i = 0; i < in->nr && !error; i++) {
		const char *s = extract ? gm_signers_value(in->v[i]) : in->v[i];

		if (!(error = gm_rank_dedup(rk, &tmp, s)))
			error = gm_strvec_push(out, tmp.ptr);
	}
	gm_buf_release(&tmp);
	return error;
}

static int count_cmp(const void *a, const void *b)
{
	const struct gm_signers_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->who, y->who);
}

/* The counts vcs_assign() sees for a role, kept for the JSON facts. */
static int facts_role(struct gm_rank *rk, struct gm_signers_facts *facts,
		      const char *name, int divisor,
		      const struct gm_strvec *lines)
{
	struct gm_signers_role *r;
	struct gm_strmap idx = GM_STRMAP_INIT;
	struct gm_buf tmp = GM_BUF_INIT;
	int error = 0;

	if (!facts || !lines->nr ||
	    facts->nr_roles >= sizeof(facts->roles) / sizeof(*facts->roles))
		return 0;
	r = &facts->roles[facts->nr_roles++];
	r->name = name;
	r->divisor = divisor;
	if (!(r->v = calloc(lines->nr, sizeof(*r->v))))
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < lines->nr && !error; i++) {
		void *at;

		if ((error = gm_mailmap_apply(&tmp, rk->mailmap, lines->v[i])) < 0)
			break;
		if (gm_strmap_get(&idx, tmp.ptr, tmp.len, &at)) {
			r->v[(size_t)at - 1].count++;
			continue;
		}
		if (!(r->v[r->nr].who = strdup(tmp.ptr))) {
			error = gm_error_set(GM_ERROR, "out of memory");
			break;
		}
		r->v[r->nr++].count = 1;
		error = gm_strmap_put(&idx, tmp.ptr, tmp.len,
				      (void *)(uintptr_t)r->nr);
	}
	if (r->nr)
		qsort(r->v, r->nr, sizeof(*r->v), count_cmp);
	gm_strmap_release(&idx);
	gm_buf_release(&tmp);
	return error;
}

static int assign(struct gm_rank *rk, struct gm_signers_facts *facts,
		  const char *role, int divisor, const struct gm_strvec *lines)
{
	int error = facts_role(rk, facts, role, divisor, lines);

	return error ? error : gm_rank_assign(rk, role, divisor, lines,
					      GM_KIND_HISTORY);
}

/* The per-file lines of vcs_find_signers(): all of the file's commits. */
struct file_lines {
	int commits;
	struct gm_strvec authors, signatures;
	long *added, *deleted;		/* the matching stat lines */
	size_t nr_stats, alloc_added, alloc_deleted;
};

static int push_stat(struct file_lines *l, long a, long d)
{
	if (GM_ARRAY_GROW(l->added, l->nr_stats, l->alloc_added) < 0 ||
	    GM_ARRAY_GROW(l->deleted, l->nr_stats, l->alloc_deleted) < 0)
		return GM_ERROR;
	l->added[l->nr_stats] = a;
	l->deleted[l->nr_stats++] = d;
	return 0;
}

static int gather(struct file_lines *l, const struct gm_signers *s,
		  const struct gm_signers_file *file, struct stat_re *re,
		  struct gm_strvec *ids)
{
	struct gm_buf line = GM_BUF_INIT;
	int error = 0;

	for (size_t i = 0; i < file->nr_touches && !error; i++) {
		const struct gm_signers_touch *t = &file->touches[i];
		const struct gm_signers_commit *c = &s->commits[t->commit];
		char hex[GIT_OID_HEXSZ + 1];
		long a, d;

		l->commits += (int)c->commit_lines;
		for (size_t k = 0; k < c->authors.nr && !error; k++)
			error = gm_strvec_push(&l->authors, c->authors.v[k]);
		for (size_t k = 0; k < c->signatures.nr && !error; k++)
			error = gm_strvec_push(&l->signatures, c->signatures.v[k]);
		for (size_t k = 0; k < c->stat_like.nr && !error; k++)
			if (stat_re_match(re, c->stat_like.v[k], &a, &d))
				error = push_stat(l, a, d);
		if (!error && t->path && t->added >= 0) {
			gm_buf_reset(&line);
			error = gm_buf_printf(&line, "%ld\t%ld\t%s", t->added,
					      t->deleted, t->path);
			if (!error && stat_re_match(re, line.ptr, &a, &d))
				error = push_stat(l, a, d);
		}
		git_oid_tostr(hex, sizeof(hex), &c->id);
		if (!error && ids)
			error = gm_strvec_push(ids, hex);
	}
	gm_buf_release(&line);
	return error;
}

/* A memo of deduplicate_email() within one loop that repeats its calls. */
static int dedup_memo(struct gm_rank *rk, struct gm_strmap *memo,
		      struct gm_strvec *keep, const char *s, const char **out)
{
	struct gm_buf tmp = GM_BUF_INIT;
	void *v;
	int error;

	if (gm_strmap_get(memo, s, strlen(s), &v)) {
		*out = keep->v[(size_t)v - 1];
		return 0;
	}
	if ((error = gm_rank_dedup(rk, &tmp, s)) == 0 &&
	    (error = gm_strvec_push(keep, tmp.ptr)) == 0 &&
	    (error = gm_strmap_put(memo, s, strlen(s),
				   (void *)(uintptr_t)keep->nr)) == 0)
		*out = keep->v[keep->nr - 1];
	gm_buf_release(&tmp);
	return error;
}

/* The added_lines and removed_lines roles of R-75. */
static int assign_lines(struct gm_rank *rk, struct gm_signers_facts *facts,
			const struct file_lines *l,
			const struct gm_strvec *authors)
{
	struct gm_strvec uniq = GM_STRVEC_INIT, tmp = GM_STRVEC_INIT;
	struct gm_strvec added = GM_STRVEC_INIT, deleted = GM_STRVEC_INIT;
	struct gm_strvec keep = GM_STRVEC_INIT;
	struct gm_strmap memo = GM_STRMAP_INIT;
	long total_a = 0, total_d = 0;
	int error = 0;

	for (size_t i = 0; i < l->nr_stats; i++) {
		total_a += l->added[i];
		total_d += l->deleted[i];
	}
	for (size_t i = 0; i < authors->nr && !error; i++)
		if (!gm_strvec_contains(&uniq, authors->v[i]))
			error = gm_strvec_push(&uniq, authors->v[i]);
	if (!error)
		error = dedup_all(rk, &tmp, &uniq, false);
	gm_strvec_release(&uniq);
	for (size_t i = 0; i < tmp.nr && !error; i++)
		if (!gm_strvec_contains(&uniq, tmp.v[i]))
			error = gm_strvec_push(&uniq, tmp.v[i]);
	for (size_t u = 0; u < uniq.nr && !error; u++) {
		long a = 0, d = 0;

		for (size_t i = 0; i < l->nr_stats && !error; i++) {
			const char *who = NULL;

			error = dedup_memo(rk, &memo, &keep, authors->v[i], &who);
			if (!error && !strcmp(uniq.v[u], who)) {
				a += l->added[i];
				d += l->deleted[i];
			}
		}
		for (long k = 0; k < a && !error; k++)
			error = gm_strvec_push(&added, uniq.v[u]);
		for (long k = 0; k < d && !error; k++)
			error = gm_strvec_push(&deleted, uniq.v[u]);
	}
	if (!error)
		error = assign(rk, facts, "added_lines", (int)total_a, &added);
	if (!error)
		error = assign(rk, facts, "removed_lines", (int)total_d, &deleted);
	gm_strvec_release(&uniq);
	gm_strvec_release(&tmp);
	gm_strvec_release(&added);
	gm_strvec_release(&deleted);
	gm_strvec_release(&keep);
	gm_strmap_release(&memo);
	return error;
}

int gm_signers_assign(struct gm_rank *rk, const struct gm_signers *s,
		      size_t f, struct gm_signers_facts *facts)
{
	const struct gm_signers_file *file = &s->files[f];
	struct file_lines l;
	struct gm_strvec authors = GM_STRVEC_INIT, signers = GM_STRVEC_INIT;
	struct gm_strvec once = GM_STRVEC_INIT, kept = GM_STRVEC_INIT;
	struct stat_re re;
	int error;

	memset(&l, 0, sizeof(l));
	if (facts) {
		memset(facts, 0, sizeof(*facts));
		facts->path = file->path;
	}
	stat_re_init(&re, file->path);
	error = gather(&l, s, file, &re, facts ? &facts->commits : NULL);
	if (error)
		goto out;
	if (!l.signatures.nr) {		/* raw author lines, no commits */
		l.commits = 0;
		for (size_t i = 0; i < l.authors.nr && !error; i++)
			error = gm_strvec_push(&authors, l.authors.v[i]);
	} else {
		for (size_t i = 0; i < l.signatures.nr && !error; i++)
			if (rk->opts->git_chief_penguins ||
			    !gm_signers_names_chief(l.signatures.v[i]))
				error = gm_strvec_push(&kept, l.signatures.v[i]);
		if (!error)
			error = dedup_all(rk, &authors, &l.authors, true);
		if (!error)
			error = dedup_all(rk, &once, &kept, true);
	}
	if (!error)
		error = dedup_all(rk, &signers, &once, false);
	if (!error)
		error = assign(rk, facts, "commit_signer", l.commits, &signers);
	if (!error)
		error = assign(rk, facts, "authored", l.commits, &authors);
	if (!error && authors.nr == l.nr_stats)
		error = assign_lines(rk, facts, &l, &authors);
out:
	stat_re_release(&re);
	gm_strvec_release(&l.authors);
	gm_strvec_release(&l.signatures);
	free(l.added);
	free(l.deleted);
	gm_strvec_release(&authors);
	gm_strvec_release(&signers);
	gm_strvec_release(&once);
	gm_strvec_release(&kept);
	return error;
}

void gm_signers_facts_release(struct gm_signers_facts *facts)
{
	if (!facts)
		return;
	gm_strvec_release(&facts->commits);
	for (size_t i = 0; i < facts->nr_roles; i++) {
		for (size_t k = 0; k < facts->roles[i].nr; k++)
			free(facts->roles[i].v[k].who);
		free(facts->roles[i].v);
	}
	facts->nr_roles = 0;
}

/* ==================== a run's history ==================== */

/* whether the file gets the signoff step. */
static bool wants_signoffs(const struct gm_options *o,
			   const struct gm_signers_request *req, size_t i)
{
	const char *path = req->files->v[i];
	size_t len = strlen(path);

	if (!strcmp(path, "&STDIN"))
		return false;
	if (o->git)
		return true;
	return o->git_fallback &&
	       !(len >= 11 && !strcmp(path + len - 11, "MAINTAINERS")) &&
	       !(req->matches && i < req->matches->nr_files &&
		 req->matches->files[i].exact);
}

static int report_walk(struct gm_signers_report *r, struct gm_rank *rk,
		       const struct gm_signers_request *req,
		       struct gm_strvec *paths, size_t *index)
{
	const struct gm_options *o = rk->opts;
	struct gm_signers_options so = { 0, false, NULL };
	const char *since = o->git_since ? o->git_since : "1-year-ago";
	int error = 0;

	for (size_t i = 0; i < req->files->nr && !error; i++) {
		index[i] = SIZE_MAX;
		if (!wants_signoffs(o, req, i))
			continue;
		index[i] = paths->nr;
		error = gm_strvec_push(paths, req->files->v[i]);
	}
	if (error || !paths->nr)
		return error;
	if (gm_date_parse(&r->since, since, time(NULL)) < 0)
		return gm_error_set(GM_EUSAGE, "--git-since: %s", gm_error_last());
	so.since = r->since;
	so.all_signature_types = o->git_all_signature_types;
	so.packs = req->packs;
	return gm_signers_walk(&r->walk, req->repo, req->start, paths, &so);
}

int gm_signers_collect(struct gm_signers_report **out, struct gm_rank *rk,
		       const struct gm_signers_request *req)
{
	const struct gm_options *o = rk->opts;
	struct gm_blame_request br = {
		req->repo, req->start, req->workdir, req->ranges,
		req->nr_ranges, o->from_filename, o->git_all_signature_types,
	};
	struct gm_strvec paths = GM_STRVEC_INIT;
	struct gm_signers_report *r = calloc(1, sizeof(*r));
	size_t *index = calloc(req->files->nr + 1, sizeof(*index));
	int error = 0;

	*out = NULL;
	if (!r || !index) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	if ((error = report_walk(r, rk, req, &paths, index)) < 0)
		goto out;
	if (r->walk && !(r->facts = calloc(paths.nr, sizeof(*r->facts)))) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < req->files->nr && !error; i++) {
		if (index[i] != SIZE_MAX) {
			error = gm_signers_assign(rk, r->walk, index[i],
						  &r->facts[index[i]]);
			r->nr_facts = index[i] + 1;
		}
		if (!error && o->git_blame && strcmp(req->files->v[i], "&STDIN"))
			error = gm_blame_assign(rk, &br, req->files->v[i]);
	}
out:
	free(index);
	gm_strvec_release(&paths);
	if (error) {
		gm_signers_report_free(r);
		r = NULL;
	}
	*out = r;
	return error;
}

void gm_signers_report_free(struct gm_signers_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_facts; i++)
		gm_signers_facts_release(&r->facts[i]);
	free(r->facts);
	gm_signers_free(r->walk);
	free(r);
}
