#ifndef GM_REPO_H
#define GM_REPO_H

#include <stdbool.h>

#include <git2.h>

#include "gm/buf.h"
#include "gm/strmap.h"
#include "gm/strvec.h"

/*
 * The one door to the repository. Everything the tool knows of it comes
 * through here: where it is (found once, as git finds it, from the
 * environment and the current directory), the commit chosen, every read
 * of a tree, a blob, a commit, the configuration and the work tree.
 *
 * A struct gm_repo is used by one thread at a time: a thread of its own
 * gets its own with gm_repo_reopen(), opened exactly as the first. The
 * location may be read by any number of threads once made.
 */
struct gm_repo;
struct gm_repo_location;

/**
 * Find the repository as git does, from GIT_DIR, GIT_WORK_TREE,
 * GIT_CEILING_DIRECTORIES, GIT_DISCOVERY_ACROSS_FILESYSTEM,
 * GIT_OBJECT_DIRECTORY, GIT_ALTERNATE_OBJECT_DIRECTORIES, GIT_INDEX_FILE
 * and the current directory, read once, now. Needs nothing of libgit2.
 * Finding nothing is not an error: gm_repo_open() reports it.
 * @return 0 or GM_ERROR (out of memory); the caller owns `*out`.
 */
int gm_repo_locate(struct gm_repo_location **out);
void gm_repo_location_free(struct gm_repo_location *loc);

/**
 * Set libgit2 up for the process (after gm_repo_locate(), which needs
 * none of it): no re-hashing of objects read, no object cache, partial
 * clones readable. gm_repo_shutdown() undoes it.
 */
void gm_repo_init(void);
void gm_repo_shutdown(void);

/**
 * Open the repository `loc` names and resolve `rev` (NULL for HEAD) to a
 * commit. On success `*out` belongs to the caller (gm_repo_free()).
 * @return 0, GM_ENOTFOUND (no repository; unborn HEAD; unknown revision),
 * or GM_ERROR.
 */
int gm_repo_open(struct gm_repo **out, const struct gm_repo_location *loc,
		 const char *rev);

/**
 * `r` opened again, from the same location, at the same commit, for
 * another thread. The caller owns `*out`.
 * @return 0 or GM_ERROR.
 */
int gm_repo_reopen(struct gm_repo **out, const struct gm_repo *r);

void gm_repo_free(struct gm_repo *r);

/**
 * Run git with `argv` (argv[0] "git"): `in` on its stdin (NULL: empty),
 * its stdout into `out` and its stderr into `err` (NULL: discarded).
 * `in` is written whole before any output is read.
 * @return its exit status, or -1 if it could not be run or read.
 */
int gm_git_run(const char *const *argv, const struct gm_buf *in,
	       struct gm_buf *out, struct gm_buf *err);

#define GM_GIT_RUN_LATE (-2)

/**
 * gm_git_run() within `timeout_ms` (0: none) of its start: git then runs
 * in a process group of its own, killed whole at the limit.
 * @return as gm_git_run(), or GM_GIT_RUN_LATE if killed at the limit.
 */
int gm_git_run_limit(const char *const *argv, const struct gm_buf *in,
		     struct gm_buf *out, struct gm_buf *err, int timeout_ms);

/**
 * In a partial clone, fetch those of the `nr` objects `ids` that `repo`
 * (opened by gm_repo_open()) lacks, in one fetch per promisor remote, as git would one
 * by one when reading them (what needs many asks here first); else
 * nothing. A missing object read later is fetched alone. One that
 * cannot be fetched ends the process, as in git, with one line "fatal:
 * <what> is missing from this partial clone (<id>); fetch it with: git
 * ..." and exit 128: the readers take an unreadable object for an absent
 * one, and a shorter answer must never be printed.
 * @return 0 or GM_ERROR (out of memory).
 */
int gm_repo_git_fetch_missing(git_repository *repo, const git_oid *ids,
			      size_t nr, const char *what);

/** The work tree's top with a final '/', or NULL if bare. */
const char *gm_repo_workdir(const struct gm_repo *r);

/** The chosen commit's id, and in hex (NUL-terminated). */
const git_oid *gm_repo_commit_id(const struct gm_repo *r);
#define GM_REPO_HEX_SIZE (GIT_OID_HEXSZ + 1)
void gm_repo_commit_hex(const struct gm_repo *r, char out[GM_REPO_HEX_SIZE]);

/**
 * The libgit2 repository and the chosen commit's tree, for the history
 * walk (history.c), which reads objects by the thousand. Owned by `r`.
 */
git_repository *gm_repo_git(struct gm_repo *r);
git_tree *gm_repo_tree(struct gm_repo *r);

struct gm_packs;

/**
 * The packs of the repository's object directories (pack.c), for the
 * walks that read whole trees' blobs: opened on the first call, owned by
 * `r`, read-only, and so shareable with threads while `r` lives.
 * @return 0 or GM_ERROR.
 */
int gm_repo_packs(const struct gm_packs **out, struct gm_repo *r);

struct gm_graph;

/**
 * The commit-graph git would read here (graph.c), with the Bloom filters
 * it would use (commitGraph.changedPathsVersion), or NULL (none, or git
 * reads none: core.commitGraph, a shallow or grafted repository): read
 * on the first call, owned by `r`, read-only, shareable like the packs.
 * @return 0 or GM_ERROR.
 */
int gm_repo_graph(const struct gm_graph **out, struct gm_repo *r);

/**
 * The configuration value `key` (repository, global and system files,
 * as git reads them), as a bool or a string.
 * @return 0, GM_ENOTFOUND if unset (or unreadable), GM_EINVALID if not a
 * bool, or GM_ERROR; `*out` (a string) is the caller's.
 */
int gm_repo_config_bool(struct gm_repo *r, const char *key, bool *out);
int gm_repo_config_string(struct gm_repo *r, const char *key, char **out);

/**
 * The body of the message (all but the subject) of the commit `rev`
 * names (a full or abbreviated id, or any revision), appended to `out`.
 * @return 0, GM_ENOTFOUND if it names no commit, or GM_ERROR.
 */
int gm_repo_commit_body(struct gm_repo *r, const char *rev,
			struct gm_buf *out);

enum gm_repo_kind {
	GM_REPO_NONE = 0,	/* not in the tree */
	GM_REPO_BLOB,		/* a file (or symlink, or submodule) */
	GM_REPO_TREE		/* a directory */
};

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

/*
 * The content of a file of the tree: its blob, not copied, or bytes the
 * caller read into `buf` (the work tree's copy, with GM_BUF_PAD zeros).
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
 * The content of the file at `path`, the blob's bytes without a copy: of
 * the entry `e` found there by gm_repo_lookup() (in this repository or in
 * another opening of it), or NULL to look it up. The caller releases
 * `out` before `r` is freed.
 * @return 0, GM_ENOTFOUND, GM_EINVALID if it is not a regular file, or
 * GM_ERROR (a missing object included).
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
 * What `path` (relative to the top) is in the work tree: a directory
 * (GM_REPO_TREE), anything else that exists (GM_REPO_BLOB), or nothing,
 * also when there is no work tree.
 */
enum gm_repo_kind gm_repo_worktree_kind(struct gm_repo *r, const char *path);

/**
 * Read the regular file `path` (relative to the top) of the work tree
 * into the empty `out`, as gm_buf_read_regular() does (never a FIFO, a
 * device or through a final symlink; zeros after).
 * @return 0, GM_ENOTFOUND (none, another kind, or no work tree), or
 * GM_ERROR.
 */
int gm_repo_worktree_read(struct gm_repo *r, const char *path,
			  struct gm_buf *out);

/**
 * Turn a path given on the command line, relative to the current
 * directory (or absolute, inside the work tree), into a path relative to
 * the top, with "." and ".." resolved and no trailing '/'. `out` is
 * overwritten. @return 0, or GM_EINVALID for a path outside the tree.
 */
int gm_repo_relative(struct gm_repo *r, const char *arg, struct gm_buf *out);

/* libgit2's repository `repo`, for the stages above (src/git: the door). */
bool gm_repo_git_is_head(git_repository *repo, const git_oid *id);
/** `repo`'s git directory, with a final '/'. */
const char *gm_repo_git_dir(git_repository *repo);
/** Whether `path` is a blob in the tree of commit `id`. */
bool gm_repo_git_is_blob(git_repository *repo, const git_oid *id,
			 const char *path);

/*
 * git log --numstat's line counts. Attributes are read as git log reads
 * them: from the work tree (and info/attributes, core.attributesFile),
 * never from the index, which libgit2 would fall back to; so the counts
 * are made on `r` (else, if NULL, `repo`: the same repository) opened
 * again with an empty index; on `repo` if bare or it cannot be so.
 */
struct gm_repo_numstat;

int gm_repo_numstat_new(struct gm_repo_numstat **out,
			const struct gm_repo *r, git_repository *repo);
void gm_repo_numstat_free(struct gm_repo_numstat *n);

/**
 * The lines of `path` the change from blob `a` to blob `b` (NULL: none;
 * ids already replaced) adds and deletes; -1 and -1 where git prints
 * "-\t-": binary (a NUL, or -diff), or unreadable.
 */
void gm_repo_numstat(struct gm_repo_numstat *n, const git_oid *a,
		     const git_oid *b, const char *path, long *added,
		     long *deleted);

#endif /* GM_REPO_H */
