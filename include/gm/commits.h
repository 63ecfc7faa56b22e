#ifndef GM_COMMITS_H
#define GM_COMMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <git2.h>

#include "gm/graph.h"
#include "gm/objects.h"
#include "gm/pqueue.h"
#include "gm/strmap.h"
#include "gm/strvec.h"

/*
 * The history engine of every walk (--history and --activity in
 * history.c, --git in signers.c): commits as git reads them
 * (gm_objects_commit_read(): replace refs, grafts, the shallow boundary),
 * from the commit-graph where git would read it, else from the packs,
 * else from libgit2; a queue of them, newest first and of equal times
 * first queued first, as git's; and trees compared at a set of paths.
 * A struct gm_commits is one thread's; the rules, packs and graph it
 * reads through are read-only and may be shared.
 */

/* A commit to walk. */
struct gm_commits_item {
	git_oid id;
	int64_t time;		/* the committer's */
	uint64_t seq;		/* the order queued in */
	bool in_graph;		/* the commit-graph has it, as `gc` */
	struct gm_graph_commit gc;
	struct gm_objects_commit *raw;	/* read and parsed, or NULL */
};

void gm_commits_item_release(struct gm_commits_item *it);

#define GM_COMMITS_TREE_SLOTS 1024

/* One thread's reading: objects, the graph if allowed, trees kept. */
struct gm_commits {
	struct gm_objects objs;
	const struct gm_graph *graph;	/* NULL: read every commit */
	bool shallow;		/* a parent was cut off or unreadable */
	size_t unreadable;	/* trees that could not be read */
	struct gm_objects_tree *trees[GM_COMMITS_TREE_SLOTS];
};

/**
 * Into the zeroed `c`: reading through `repo` (NULL: the packs alone)
 * and `packs` (NULL: none) under `rules` (borrowed), with `graph` if the
 * rules let git read it.
 * @return 0 or GM_ERROR.
 */
int gm_commits_open(struct gm_commits *c, git_repository *repo,
		    const struct gm_packs *packs,
		    const struct gm_objects_rules *rules,
		    const struct gm_graph *graph);
void gm_commits_close(struct gm_commits *c);

/**
 * The item of commit `id`, read.
 * @return 0, GM_ENOTFOUND, or GM_ERROR.
 */
int gm_commits_item(struct gm_commits *c, const git_oid *id,
		    struct gm_commits_item *out);

/**
 * The bytes of the object that stands for `it` (its replacement, if
 * any), read once with its header: `*text`, NUL-terminated, belongs to `it`.
 * @return 0 or GM_ERROR.
 */
int gm_commits_item_text(struct gm_commits *c, struct gm_commits_item *it,
			 const char **text);

/* A commit's tree and its parents, as items with their trees. */
struct gm_commits_parents {
	git_oid tree;
	size_t nr;
	struct gm_commits_item *v;
	git_oid *trees;
	bool *loaded;		/* false: a parent cut off as unreadable */
	size_t nr_loaded;
};

/**
 * The parents of `it`, from the graph if it has them, else read: one
 * that cannot be read is left out (c->shallow set). Released by
 * gm_commits_parents_release(), even on failure. @return 0 or GM_ERROR.
 */
int gm_commits_parents(struct gm_commits *c, struct gm_commits_item *it,
		       struct gm_commits_parents *out);
void gm_commits_parents_release(struct gm_commits_parents *p);

/* ==================== the walk ==================== */

/*
 * The one walk over a window of commits: from `start`, newest first
 * (ties in the order queued, as git's), each commit queued once, those
 * older than `since` passed over. Its modes are git's revision walks:
 * GM_COMMITS_FULL (--full-history: every parent read and queued, as
 * --git and its look-ahead follow one file and --activity walks) and
 * GM_COMMITS_SIMPLIFY (the caller reads the parents and queues those it
 * keeps with gm_commits_walk_push(), as --history simplifies by paths).
 */
enum gm_commits_mode { GM_COMMITS_FULL, GM_COMMITS_SIMPLIFY };

struct gm_commits_walk {
	struct gm_commits *src;		/* borrowed */
	enum gm_commits_mode mode;
	int64_t since;
	struct gm_strmap seen;		/* hex ids of queued commits */
	struct gm_pqueue heap;		/* the queued, newest first */
	uint64_t seq;			/* the next one's order queued */
};

/**
 * Into the zeroed `w`: the walk from `start` (read; queued unless
 * `empty`, as a walk at no path has nothing to find).
 * @return 0 or GM_ERROR (the start cannot be read).
 */
int gm_commits_walk_start(struct gm_commits_walk *w, struct gm_commits *src,
			  enum gm_commits_mode mode, const git_oid *start,
			  int64_t since, bool empty);

/**
 * The next commit of the window into `it`, the caller's to release;
 * under GM_COMMITS_FULL its parents into `p` (released by the caller,
 * also on failure), every one read queued; else `p` is untouched.
 * @return 1, 0 once none is left, or an error.
 */
int gm_commits_walk_next(struct gm_commits_walk *w, struct gm_commits_item *it,
			 struct gm_commits_parents *p);

/** Queue `it` (taken: released here) unless queued before. @return 0 or GM_ERROR. */
int gm_commits_walk_push(struct gm_commits_walk *w, struct gm_commits_item *it);
void gm_commits_walk_release(struct gm_commits_walk *w);

/* ==================== trees compared at paths ==================== */

/* An entry of a tree at some path; `found` false for none. */
struct gm_commits_entry {
	bool found;
	git_oid id;
	git_filemode_t mode;
};

enum gm_commits_kind {
	GM_COMMITS_FILE,	/* a file (git log --follow's) */
	GM_COMMITS_DIR,		/* "dir/": a directory only */
	GM_COMMITS_ANY		/* a pathspec: the file or the directory */
};

/*
 * Paths compared: `order` the `nr` compared, sorted by path (in git's
 * order of components); `paths` and `kind` per path of the caller's list.
 */
struct gm_commits_paths {
	char **paths;		/* no final '/'; "" (ANY) is everything */
	enum gm_commits_kind *kind;
	size_t *order;
	size_t nr;
};

/* Sort `ps->order` by path. */
void gm_commits_paths_sort(struct gm_commits_paths *ps);

/**
 * Into the zeroed `ps`: every one of `files` (paths from the top), sorted,
 * a directory's with a final '/', else of kind `plain` (a FILE's, if it
 * is "" or "/", a directory's). Released by gm_commits_paths_release(),
 * also on failure. @return 0 or GM_ERROR.
 */
int gm_commits_paths_init(struct gm_commits_paths *ps,
			  const struct gm_strvec *files,
			  enum gm_commits_kind plain);
void gm_commits_paths_release(struct gm_commits_paths *ps);

/* A path a commit changed: its index, the parent's entry and its own. */
struct gm_commits_change {
	size_t path;
	struct gm_commits_entry a, b;
};

struct gm_commits_changes {
	struct gm_commits_change *v;
	size_t nr, alloc;
};

/**
 * The paths of `ps` at which trees `ta` and `tb` (NULL: empty) differ,
 * appended to `out`, descending only where they differ.
 * @return 0 or GM_ERROR.
 */
int gm_commits_diff(struct gm_commits *c, const struct gm_commits_paths *ps,
		    const git_oid *ta, const git_oid *tb,
		    struct gm_commits_changes *out);

/**
 * Every file (path from the top) that differs between trees `ta` and
 * `tb` (NULL: empty), appended to `out` in path order: added, removed, or
 * changed in content or mode. Identical subtrees are not read; an
 * unreadable tree is taken as empty (and counted in c->unreadable).
 * @return 0 or GM_ERROR.
 */
int gm_commits_diff_all(struct gm_commits *c, const git_oid *ta,
			const git_oid *tb, struct gm_strvec *out);

#endif /* GM_COMMITS_H */
