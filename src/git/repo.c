#include "repo_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <git2/sys/repository.h>

#include "gm/error.h"
#include "gm/index.h"
#include "gm/objects.h"
#include "gm/pack.h"
#include "gm/strmap.h"

/*
 * The tree of the directory dir[0..len) ("" for the top), or NULL if
 * there is none: looked up once, then kept in r->dirs.
 */
static int repo_dir_tree(struct gm_repo *r, const char *dir, size_t len,
			 git_tree **out)
{
	struct gm_buf name = GM_BUF_INIT;
	const git_tree_entry *e;
	git_tree *parent = NULL, *tree = NULL;
	size_t plen = len;
	void *v;
	int error;

	*out = r->tree;
	if (!len)
		return 0;
	if (gm_strmap_get(&r->dirs, dir, len, &v)) {
		*out = v;
		return 0;
	}
	while (plen && dir[plen - 1] != '/')
		plen--;
	error = repo_dir_tree(r, dir, plen ? plen - 1 : 0, &parent);
	if (!error && parent &&
	    !(error = gm_buf_put(&name, dir + plen, len - plen)) &&
	    (e = git_tree_entry_byname(parent, name.ptr)) &&
	    git_tree_entry_type(e) == GIT_OBJECT_TREE &&
	    git_tree_lookup(&tree, r->repo, git_tree_entry_id(e)) < 0)
		tree = NULL;	/* unreadable: as if absent */
	if (!error && (error = gm_strmap_put(&r->dirs, dir, len, tree)) < 0)
		git_tree_free(tree);
	gm_buf_release(&name);
	*out = error ? NULL : tree;
	return error;
}

int gm_repo_lookup(struct gm_repo *r, const char *path,
		   struct gm_repo_entry *out)
{
	const char *base = strrchr(path, '/');
	size_t dlen = base ? (size_t)(base - path) : 0;
	const git_tree_entry *e;
	git_tree *dir;

	base = base ? base + 1 : path;
	if (!*path || repo_dir_tree(r, path, dlen, &dir) < 0 || !dir ||
	    !(e = git_tree_entry_byname(dir, base)))
		return GM_ENOTFOUND;
	git_oid_cpy(&out->id, git_tree_entry_id(e));
	out->type = git_tree_entry_type(e);
	out->mode = git_tree_entry_filemode(e);
	return 0;
}

enum gm_repo_kind gm_repo_kind(struct gm_repo *r, const char *path)
{
	struct gm_repo_entry e;

	if (gm_repo_lookup(r, path, &e) < 0)
		return GM_REPO_NONE;
	if (e.type == GIT_OBJECT_TREE)
		return GM_REPO_TREE;
	return e.type == GIT_OBJECT_BLOB || e.type == GIT_OBJECT_COMMIT ?
	       GM_REPO_BLOB : GM_REPO_NONE;
}

/* The blob of the file at `path` (entry `e`, or NULL), as gm_repo_text(). */
static int repo_blob(struct gm_repo *r, const char *path,
		     const struct gm_repo_entry *e, git_blob **out)
{
	struct gm_repo_entry found;
	char hex[GIT_OID_HEXSZ + 1];

	if (!e && gm_repo_lookup(r, path, &found) < 0)
		return gm_error_set(GM_ENOTFOUND, "'%s' is not in the tree", path);
	if (!e)
		e = &found;
	if (e->type != GIT_OBJECT_BLOB || e->mode == GIT_FILEMODE_LINK)
		return gm_error_set(GM_EINVALID, "'%s' is not a regular file",
				    path);
	if (git_blob_lookup(out, r->repo, &e->id) == 0)
		return 0;
	git_oid_tostr(hex, sizeof(hex), &e->id);
	return gm_error_set(GM_ERROR,
			    "cannot read '%s' (blob %s): not in the object database (a partial clone?)",
			    path, hex);
}

/* ==================== the work tree ==================== */

int gm_repo_worktree_read_at(const char *top, const char *path,
			     struct gm_buf *out)
{
	struct gm_buf full = GM_BUF_INIT;
	size_t len = strlen(top);
	int error;

	error = gm_buf_printf(&full, "%s%s%s", top,
			      len && top[len - 1] == '/' ? "" : "/", path);
	if (!error)
		error = gm_buf_read_regular(out, full.ptr, GM_BUF_MAX_READ - 1);
	gm_buf_release(&full);
	return error;
}

int gm_repo_worktree_read(struct gm_repo *r, const char *path,
			  struct gm_buf *out)
{
	if (!r->workdir)
		return GM_ENOTFOUND;
	return gm_repo_worktree_read_at(r->workdir, path, out);
}

enum gm_repo_kind gm_repo_worktree_kind(struct gm_repo *r, const char *path)
{
	struct gm_buf full = GM_BUF_INIT;
	enum gm_repo_kind kind = GM_REPO_NONE;
	struct stat st;

	if (r->workdir && !gm_buf_printf(&full, "%s%s", r->workdir, path) &&
	    !stat(full.ptr, &st))
		kind = S_ISDIR(st.st_mode) ? GM_REPO_TREE : GM_REPO_BLOB;
	gm_buf_release(&full);
	return kind;
}

int gm_repo_text(struct gm_repo *r, const char *path,
		 const struct gm_repo_entry *e, struct gm_repo_text *out)
{
	int error = repo_blob(r, path, e, &out->blob);

	if (error < 0)
		return error;
	out->ptr = git_blob_rawcontent(out->blob);
	out->len = (size_t)git_blob_rawsize(out->blob);
	if (!out->ptr)
		out->ptr = "";
	return 0;
}

void gm_repo_text_release(struct gm_repo_text *t)
{
	git_blob_free(t->blob);
	gm_buf_release(&t->buf);
	*t = (struct gm_repo_text)GM_REPO_TEXT_INIT;
}

int gm_repo_read(struct gm_repo *r, const char *path, struct gm_buf *out)
{
	struct gm_repo_text text = GM_REPO_TEXT_INIT;
	int error = gm_repo_text(r, path, NULL, &text);

	if (!error)
		error = gm_buf_put(out, text.ptr, text.len);
	gm_repo_text_release(&text);
	return error;
}

int gm_repo_list(struct gm_repo *r, const char *dir, struct gm_strvec *out)
{
	git_tree *tree = NULL;
	git_oid *blobs = NULL;	/* a partial clone's, fetched at once */
	size_t nr = 0;
	int error = repo_dir_tree(r, dir, strlen(dir), &tree);

	if (!error && !tree)
		return gm_error_set(GM_ENOTFOUND, "'%s' is not a directory",
				    dir);
	if (!error &&
	    !(blobs = calloc(git_tree_entrycount(tree) + 1, sizeof(*blobs))))
		error = gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; !error && i < git_tree_entrycount(tree); i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(e);

		if (name[0] == '.')
			continue;
		if (git_tree_entry_type(e) == GIT_OBJECT_BLOB)
			git_oid_cpy(&blobs[nr++], git_tree_entry_id(e));
		error = gm_strvec_pushf(out, "%s%s%s%s", dir, *dir ? "/" : "",
					name, git_tree_entry_type(e) ==
					GIT_OBJECT_TREE ? "/" : "");
	}
	if (!error)
		gm_strvec_sort_uniq(out);
	if (!error)
		error = gm_repo_git_fetch_missing(r->repo, blobs, nr, "a file");
	free(blobs);
	return error;
}

/* ==================== every file ==================== */

/*
 * Every entry of `tree` (at `path`, "" or "a/b/") and below that is not a
 * tree, to `leaf` with its path, depth first in tree order; subtrees
 * named `skip` (or none, NULL) are not entered.
 */
static int tree_walk(struct gm_repo *r, const git_tree *tree,
		     struct gm_buf *path, const char *skip,
		     int (*leaf)(void *arg, const struct gm_buf *path,
				 const git_tree_entry *e),
		     void *arg)
{
	size_t len = path->len;
	int error = 0;

	for (size_t i = 0; !error && i < git_tree_entrycount(tree); i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(e);
		bool dir = git_tree_entry_type(e) == GIT_OBJECT_TREE;
		git_tree *sub = NULL;

		if (dir && skip && !strcmp(name, skip))
			continue;
		if ((error = gm_buf_puts(path, name)) < 0)
			break;
		if (!dir)
			error = leaf(arg, path, e);
		else if (git_tree_lookup(&sub, r->repo, git_tree_entry_id(e)) < 0)
			error = gm_error_set(GM_ERROR, "cannot read '%s'",
					     path->ptr);
		else if (!(error = gm_buf_putc(path, '/')))
			error = tree_walk(r, sub, path, skip, leaf, arg);
		git_tree_free(sub);
		path->len = len;
		path->ptr[len] = '\0';
	}
	return error;
}

static int files_leaf(void *out, const struct gm_buf *path,
		      const git_tree_entry *e)
{
	(void)e;
	return gm_strvec_pushn(out, path->ptr, path->len);
}

int gm_repo_files(struct gm_repo *r, struct gm_strvec *out)
{
	struct gm_buf path = GM_BUF_INIT;
	int error = tree_walk(r, r->tree, &path, NULL, files_leaf, out);

	if (!error)
		gm_strvec_sort_uniq(out);	/* tree order, unless the tree is bad */
	gm_buf_release(&path);
	return error;
}

/* ==================== finding files by name ==================== */

#define FIND_CACHE ((size_t)4 << 20)	/* delta bases of the files found */

struct find {
	struct gm_repo *r;
	const char *name;
	struct gm_repo_file *files;
	size_t nr, alloc;
	struct gm_objects objs;		/* the packs first, if any */
};

/* Keep the file `entry` found at `path`, with its content. */
static int find_keep(struct gm_repo *r, struct find *f, const char *path,
		     const struct gm_repo_entry *entry)
{
	struct gm_repo_file *file;
	git_blob *blob = NULL;
	char *data = NULL;
	size_t len = 0;
	int error = 0;

	if (GM_ARRAY_GROW(f->files, f->nr, f->alloc) < 0)
		return gm_error_set(GM_ERROR, "out of memory");
	file = &f->files[f->nr];
	memset(file, 0, sizeof(*file));
	if (!(file->path = strdup(path)))
		return gm_error_set(GM_ERROR, "out of memory");
	f->nr++;
	if (entry->type == GIT_OBJECT_BLOB && entry->mode != GIT_FILEMODE_LINK &&
	    gm_objects_read(&f->objs, &entry->id, GIT_OBJECT_BLOB, &data,
			    &len)) {
		error = gm_buf_put(&file->text, data, len);
		free(data);
		return error;
	}
	if ((error = repo_blob(r, path, entry, &blob)) == 0)
		error = gm_buf_put(&file->text, git_blob_rawcontent(blob),
				   (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return error;
}

/* A file named f->name, kept; anything else, passed over. */
static int find_leaf(void *arg, const struct gm_buf *path,
		     const git_tree_entry *e)
{
	struct find *f = arg;
	struct gm_repo_entry entry;

	if (strcmp(git_tree_entry_name(e), f->name))
		return 0;
	git_oid_cpy(&entry.id, git_tree_entry_id(e));
	entry.type = git_tree_entry_type(e);
	entry.mode = git_tree_entry_filemode(e);
	return find_keep(f->r, f, path->ptr, &entry);
}

static int find_cmp(const void *a, const void *b)
{
	return strcmp(((const struct gm_repo_file *)a)->path,
		      ((const struct gm_repo_file *)b)->path);
}

/* Whether `path` has a component ".git", which gm_repo_find() does not enter. */
static bool path_in_dot_git(const char *path)
{
	for (const char *p = path; (p = strstr(p, ".git/")); p++)
		if (p == path || p[-1] == '/')
			return true;
	return false;
}

/* In a partial clone, fetch the blobs of `found` at once. */
static int find_fetch_blobs(struct gm_repo *r,
			    const struct gm_index_file *found, size_t nr)
{
	size_t n = 0;
	git_oid *ids;
	int error;

	if (!(ids = calloc(nr + 1, sizeof(*ids))))
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < nr; i++)
		if (found[i].mode != GIT_FILEMODE_COMMIT)	/* no submodule */
			git_oid_cpy(&ids[n++], &found[i].id);
	error = gm_repo_git_fetch_missing(r->repo, ids, n, "a file");
	free(ids);
	return error;
}

/*
 * The files of the index named f->name below `prefix` ("" or "a/b/"),
 * if the index stands for the whole tree (gm_index_find()): no tree is
 * read. GM_ENOTFOUND if it does not, or there is none.
 */
static int find_in_index(struct gm_repo *r, struct find *f,
			 const char *prefix)
{
	struct gm_index_file *found = NULL;
	struct gm_buf index = GM_BUF_INIT;
	size_t nr = 0, plen = strlen(prefix), len;
	const unsigned char *map;
	bool mapped;
	int error;

	/* a bare repository's index is not read */
	mapped = r->workdir && !(r->loc->index_file ?
				 gm_buf_puts(&index, r->loc->index_file) :
				 gm_buf_printf(&index, "%sindex",
					       git_repository_path(r->repo))) &&
		 gm_map_file(index.ptr, &map, &len);
	gm_buf_release(&index);
	if (!mapped)
		return GM_ENOTFOUND;
	error = gm_index_find(map, len, git_tree_id(r->tree), f->name, &found,
			      &nr);
	if (!error)
		error = find_fetch_blobs(r, found, nr);
	for (size_t i = 0; i < nr && !error; i++) {
		struct gm_repo_entry e = { found[i].id, GIT_OBJECT_BLOB,
					   (git_filemode_t)found[i].mode };

		if (e.mode == GIT_FILEMODE_COMMIT)
			e.type = GIT_OBJECT_COMMIT;
		if (!strncmp(found[i].path, prefix, plen) &&
		    !path_in_dot_git(found[i].path))
			error = find_keep(r, f, found[i].path, &e);
	}
	gm_index_files_free(found, nr);
	munmap((void *)map, len);
	return error;
}

int gm_repo_find(struct gm_repo *r, const char *dir, const char *name,
		 struct gm_repo_file **out, size_t *nr)
{
	struct find f = { r, name, NULL, 0, 0, { NULL, NULL, NULL, r->repo } };
	struct gm_buf path = GM_BUF_INIT;
	const struct gm_packs *packs;
	git_tree *top = NULL;
	int error;

	*out = NULL;
	*nr = 0;
	if ((error = repo_dir_tree(r, dir, strlen(dir), &top)) < 0)
		return error;
	if (!top)
		return gm_error_set(GM_ENOTFOUND, "'%s' is not a directory",
				    dir);
	if ((error = gm_repo_packs(&packs, r)) < 0 ||
	    (error = gm_pack_reader_new(&f.objs.pack, packs, FIND_CACHE)) < 0)
		return error;
	error = gm_buf_printf(&path, "%s%s", dir, *dir ? "/" : "");
	if (!error && (error = find_in_index(r, &f, path.ptr)) == GM_ENOTFOUND) {
		gm_repo_files_free(f.files, f.nr);
		f.files = NULL;
		f.nr = f.alloc = 0;
		error = tree_walk(r, top, &path, ".git", find_leaf, &f);
	}
	gm_buf_release(&path);
	gm_pack_reader_free(f.objs.pack);
	if (error) {
		gm_repo_files_free(f.files, f.nr);
		return error;
	}
	if (f.nr)
		qsort(f.files, f.nr, sizeof(*f.files), find_cmp);
	*out = f.files;
	*nr = f.nr;
	return 0;
}

void gm_repo_files_free(struct gm_repo_file *files, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(files[i].path);
		gm_buf_release(&files[i].text);
	}
	free(files);
}

/* Append one path component, resolving "." and "..". */
static int relative_push(struct gm_buf *out, const char *c, size_t len)
{
	if (!len || (len == 1 && c[0] == '.'))
		return 0;
	if (len == 2 && c[0] == '.' && c[1] == '.') {
		char *slash;

		if (!out->len)
			return GM_EINVALID;
		slash = strrchr(out->ptr, '/');
		out->len = slash ? (size_t)(slash - out->ptr) : 0;
		out->ptr[out->len] = '\0';
		return 0;
	}
	if (out->len && gm_buf_putc(out, '/') < 0)
		return GM_ERROR;
	return gm_buf_put(out, c, len);
}

static int relative_push_all(struct gm_buf *out, const char *path)
{
	while (*path) {
		size_t len = strcspn(path, "/");
		int error = relative_push(out, path, len);

		if (error < 0)
			return error;
		path += len;
		path += *path == '/';
	}
	return 0;
}

/* `abs` below the work tree top (as given, or with symlinks resolved). */
static const char *relative_strip_top(struct gm_repo *r, const char *abs,
				      char **resolved)
{
	size_t len;

	if (!r->workdir)
		return NULL;
	len = strlen(r->workdir);
	if (!strncmp(abs, r->workdir, len))
		return abs + len;
	if (!strncmp(abs, r->workdir, len - 1) && !abs[len - 1])
		return "";
	*resolved = realpath(r->workdir, NULL);
	if (!*resolved)
		return NULL;
	len = strlen(*resolved);
	if (!strncmp(abs, *resolved, len) && (abs[len] == '/' || !abs[len]))
		return abs + len + (abs[len] == '/');
	return NULL;
}

int gm_repo_relative(struct gm_repo *r, const char *arg, struct gm_buf *out)
{
	char *resolved = NULL;
	const char *rest = arg;
	int error;

	gm_buf_reset(out);
	if (arg[0] == '/') {
		rest = relative_strip_top(r, arg, &resolved);
		error = rest ? relative_push_all(out, rest) : GM_EINVALID;
	} else {
		error = relative_push_all(out, r->prefix);
		if (!error)
			error = relative_push_all(out, arg);
	}
	free(resolved);
	if (error == GM_EINVALID)
		return gm_error_set(GM_EINVALID, "'%s' is outside the repository",
				    arg);
	return error;
}

/* ==================== for the stages above ==================== */

bool gm_repo_git_is_head(git_repository *repo, const git_oid *id)
{
	git_oid head;

	return git_reference_name_to_id(&head, repo, "HEAD") == 0 &&
	       git_oid_equal(&head, id);
}

const char *gm_repo_git_dir(git_repository *repo)
{
	return git_repository_path(repo);
}

bool gm_repo_git_is_blob(git_repository *repo, const git_oid *id,
			 const char *path)
{
	git_commit *c = NULL;
	git_tree *t = NULL;
	git_tree_entry *e = NULL;
	bool blob = git_commit_lookup(&c, repo, id) == 0 &&
		    git_commit_tree(&t, c) == 0 &&
		    git_tree_entry_bypath(&e, t, path) == 0 &&
		    git_tree_entry_type(e) == GIT_OBJECT_BLOB;

	git_tree_entry_free(e);
	git_tree_free(t);
	git_commit_free(c);
	return blob;
}

/* ==================== numstat ==================== */

struct gm_repo_numstat {
	struct gm_repo *own;	/* `r` opened again, or NULL */
	git_repository *again;	/* `repo` opened again, or NULL */
	git_repository *repo;	/* the one counted on */
};

/* `repo` opened again as it is, with a partial clone's fetch: NULL if not. */
static git_repository *numstat_open_git(git_repository *repo)
{
	const char *wd = git_repository_workdir(repo), *wd2;
	git_repository *again = NULL;

	if (!wd || git_repository_open(&again, git_repository_path(repo)) < 0)
		return NULL;
	if (gm_repo_promisor_attach(again, NULL) < 0 ||
	    !(wd2 = git_repository_workdir(again)) || strcmp(wd, wd2)) {
		git_repository_free(again);
		return NULL;
	}
	return again;
}

int gm_repo_numstat_new(struct gm_repo_numstat **out,
			const struct gm_repo *r, git_repository *repo)
{
	struct gm_repo_numstat *n = calloc(1, sizeof(*n));
	git_index *index = NULL;

	if (!(*out = n))
		return gm_error_set(GM_ERROR, "out of memory");
	n->repo = repo;
	if (r && r->workdir && gm_repo_reopen(&n->own, r) == 0)
		n->repo = n->own->repo;
	else if (!r && (n->again = numstat_open_git(repo)))
		n->repo = n->again;
	if (n->repo != repo && (git_index_new(&index) < 0 ||
				git_repository_set_index(n->repo, index) < 0))
		n->repo = repo;
	git_index_free(index);
	gm_error_clear();	/* not opened again: `repo` counts */
	return 0;
}

void gm_repo_numstat_free(struct gm_repo_numstat *n)
{
	if (!n)
		return;
	gm_repo_free(n->own);
	git_repository_free(n->again);
	free(n);
}

/* Whether git shows `path` as binary by its -diff attribute. */
static bool numstat_attr_binary(git_repository *repo, const char *path)
{
	const char *v = NULL;

	if (git_attr_get(&v, repo, GIT_ATTR_CHECK_FILE_THEN_INDEX, path,
			 "diff") < 0)
		return false;
	return GIT_ATTR_IS_FALSE(v);
}

/* Blob `id` (NULL: none) into `*out`; false if unreadable or binary. */
static bool numstat_text(git_blob **out, git_repository *repo,
			 const git_oid *id)
{
	*out = NULL;
	return !id || (git_blob_lookup(out, repo, id) == 0 &&
		       !gm_objects_binary(git_blob_rawcontent(*out),
					  (size_t)git_blob_rawsize(*out)));
}

void gm_repo_numstat(struct gm_repo_numstat *n, const git_oid *a,
		     const git_oid *b, const char *path, long *added,
		     long *deleted)
{
	git_diff_options o;
	git_blob *ba = NULL, *bb = NULL;
	git_patch *patch = NULL;
	size_t adds = 0, dels = 0;

	*added = *deleted = -1;
	/* from n->repo: the diff of blobs asks it for their attributes */
	if (!numstat_text(&ba, n->repo, a) || !numstat_text(&bb, n->repo, b) ||
	    numstat_attr_binary(n->repo, path))
		goto out;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.flags = GIT_DIFF_FORCE_TEXT;
	o.context_lines = 0;
	if (git_patch_from_blobs(&patch, ba, NULL, bb, NULL, &o) == 0 &&
	    git_patch_line_stats(NULL, &adds, &dels, patch) == 0) {
		*added = (long)adds;
		*deleted = (long)dels;
	}
out:
	git_patch_free(patch);
	git_blob_free(ba);
	git_blob_free(bb);
}
