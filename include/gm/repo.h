#ifndef GM_REPO_H
#define GM_REPO_H

#include <stdbool.h>

#include <git2.h>

#include "gm/buf.h"
#include "gm/strmap.h"
#include "gm/strvec.h"

/*
 * The one door to the repository: found from the current directory (or
 * GIT_DIR), one commit chosen, and everything read from that commit's tree.
 */
struct gm_repo {
	git_repository *repo;
	git_commit *commit;	/* HEAD's commit, or --rev's */
	git_tree *tree;		/* its tree */
	char *workdir;		/* work tree top with a final '/', NULL if bare */
	char *prefix;		/* cwd below the work tree top: "" or "a/b/" */
	struct gm_strmap dirs;	/* "a/b" -> its git_tree *, or NULL: none */
};

enum gm_repo_kind {
	GM_REPO_NONE = 0,	/* not in the tree */
	GM_REPO_BLOB,		/* a file (or symlink, or submodule) */
	GM_REPO_TREE		/* a directory */
};

/**
 * Open the repository around the current directory, honouring GIT_DIR and
 * GIT_WORK_TREE as git does, and resolve `rev` (NULL for HEAD) to a commit.
 * On success `*out` belongs to the caller (gm_repo_free()).
 * @return 0, GM_ENOTFOUND (no repository; unborn HEAD; unknown revision),
 * or GM_ERROR.
 */
int gm_repo_open(struct gm_repo **out, const char *rev);

/**
 * `r` opened again, at the same commit, for another thread: a gm_repo is
 * not to be shared between threads. The caller owns `*out`.
 * @return 0 or GM_ERROR.
 */
int gm_repo_reopen(struct gm_repo **out, const struct gm_repo *r);

void gm_repo_free(struct gm_repo *r);

/* A path's entry in the tree. */
struct gm_repo_entry {
	git_oid id;
	git_object_t type;
	git_filemode_t mode;
};

/**
 * Look `path` (relative to the top, no trailing '/') up in the tree.
 * @return 0 or GM_ENOTFOUND.
 */
int gm_repo_lookup(struct gm_repo *r, const char *path,
		   struct gm_repo_entry *out);

/** What `path` (relative to the top, no trailing '/') is in the tree. */
enum gm_repo_kind gm_repo_kind(struct gm_repo *r, const char *path);

/**
 * Append the content of the file at `path` in the tree to `out`.
 * @return 0, GM_ENOTFOUND if there is none, GM_EINVALID if it is not a
 * regular file, or GM_ERROR (a missing object included).
 */
int gm_repo_read(struct gm_repo *r, const char *path, struct gm_buf *out);

/**
 * The blob of the file at `path`, without a copy: of the entry `e` found
 * there by gm_repo_lookup() (in this repository or in another opening of
 * it), or NULL to look it up. The caller frees `*out` before `r`.
 * @return 0, GM_ENOTFOUND, GM_EINVALID if it is not a regular file, or
 * GM_ERROR (a missing object included).
 */
int gm_repo_blob(struct gm_repo *r, const char *path,
		 const struct gm_repo_entry *e, git_blob **out);

/*
 * The content of a file of the tree: its blob, not copied, or the same
 * bytes read from the work tree.
 */
struct gm_repo_text {
	const char *ptr;	/* the bytes, never NULL */
	size_t len;
	size_t pad;		/* zero bytes readable after them */
	git_blob *blob;		/* what ptr points into, */
	struct gm_buf buf;	/* or this */
};

#define GM_REPO_TEXT_INIT { "", 0, 0, NULL, GM_BUF_INIT }

/**
 * The content of the file at `path`, as gm_repo_blob() finds it (`e` or
 * NULL). Where the work tree's file holds exactly the blob's bytes (they
 * hash to its id) they are read from there, which costs less than
 * inflating the blob. The caller releases `out` before `r` is freed.
 * @return as gm_repo_blob().
 */
int gm_repo_text(struct gm_repo *r, const char *path,
		 const struct gm_repo_entry *e, struct gm_repo_text *out);
void gm_repo_text_release(struct gm_repo_text *t);

/**
 * Append to `out` the entries of the directory `dir` ("" for the top)
 * whose names do not start with '.', as paths from the top, sorted;
 * directories get a final '/'.
 * @return 0, GM_ENOTFOUND if `dir` is not a directory, or GM_ERROR.
 */
int gm_repo_list(struct gm_repo *r, const char *dir, struct gm_strvec *out);

/**
 * Fill the empty `out` with the path of every file of the tree (blobs,
 * symlinks and submodules; not directories), from the top, in byte
 * order: the list `git ls-files` prints for a clean index, unquoted.
 * This reads every tree, once: they are not kept.
 * @return 0 or GM_ERROR (an unreadable tree included).
 */
int gm_repo_files(struct gm_repo *r, struct gm_strvec *out);

/* A file found by gm_repo_find(), with its content. */
struct gm_repo_file {
	char *path;
	struct gm_buf text;
};

/**
 * Every file named `name` at any depth below the directory `dir` ("" for
 * the top), `.git` directories left out, with its content: `*nr` of them
 * in `*out`, sorted by path (gm_repo_files_free()). This reads every tree
 * below `dir`, once: they are not kept.
 * @return 0, GM_ENOTFOUND if `dir` is not a directory, GM_EINVALID if a
 * file of that name is not a regular file, or GM_ERROR.
 */
int gm_repo_find(struct gm_repo *r, const char *dir, const char *name,
		 struct gm_repo_file **out, size_t *nr);
void gm_repo_files_free(struct gm_repo_file *files, size_t nr);

/**
 * Turn a path given on the command line, relative to the current
 * directory (or absolute, inside the work tree), into a path relative to
 * the top, with "." and ".." resolved and no trailing '/'. `out` is
 * overwritten. @return 0, or GM_EINVALID for a path outside the tree.
 */
int gm_repo_relative(struct gm_repo *r, const char *arg, struct gm_buf *out);

#endif /* GM_REPO_H */
