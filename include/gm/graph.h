#ifndef GM_GRAPH_H
#define GM_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <git2.h>

/*
 * A repository's commit-graph (gitformat-commit-graph(5)) as git reads
 * it, for its changed-path Bloom filters: per commit, a filter of every
 * path its diff against its first parent touches, and of their leading
 * directories. A filter never misses a path that changed, so a walk asks
 * it first and diffs trees only where it says a path may have changed.
 * `git gc` writes a graph; `git commit-graph write --changed-paths`, one
 * with filters.
 *
 * The graph also gives each commit's parents, tree and committer time,
 * which a walk then reads without inflating the commit.
 *
 * Nothing here is trusted beyond a file's own bounds: a walk enters the
 * graph at a commit it has read, whose tree must be the graph's
 * (gm_graph_find()), and any filter that is missing, of another version
 * or out of bounds says "may have changed".
 *
 * A struct gm_graph is read-only once made: threads may share it.
 */
struct gm_graph;

/* A commit of the graph: its layer, and its position there. */
struct gm_graph_commit {
	uint32_t layer, pos;
};

/* A path's filter keys: its own and its leading directories'. */
struct gm_graph_path {
	uint32_t (*seeds)[2];	/* per key: the two hashes of its bytes */
	size_t nr;
	bool high;		/* a byte above 0x7f: version 1 differs */
	bool any;		/* the top (""): every commit may change it */
};

/**
 * The commit-graph of the first of the object directories `dirs` that
 * has one (info/commit-graph, else the chain in info/commit-graphs/), as
 * git looks for it, its Bloom filters used if of `version` (1 or 2; -1:
 * either; 0: none). `*out` is NULL if there is none, or it is malformed;
 * else the caller's (gm_graph_free()).
 * @return 0 or GM_ERROR (out of memory).
 */
int gm_graph_open(struct gm_graph **out, const char *const *dirs, size_t nr,
		  int version);
void gm_graph_free(struct gm_graph *g);

/**
 * Commit `id` in the graph, if it is there with the tree `tree`.
 * @return whether it is.
 */
bool gm_graph_find(const struct gm_graph *g, const git_oid *id,
		   const git_oid *tree, struct gm_graph_commit *out);

/**
 * The keys of `path` (`len` bytes, no final '/'), for the graph's
 * filters; `p` is released first if it held keys.
 * @return 0 or GM_ERROR.
 */
int gm_graph_path_set(struct gm_graph_path *p, const char *path, size_t len);
void gm_graph_path_release(struct gm_graph_path *p);

/**
 * The commit at position `global` of the graph (a chain's layers one
 * after the other, as the graph's parent positions count).
 * @return false if there is none.
 */
bool gm_graph_commit_at(const struct gm_graph *g, uint32_t global,
			struct gm_graph_commit *out);

/* The id, tree and committer time of commit `c`, as the graph has them. */
void gm_graph_commit_id(const struct gm_graph *g, struct gm_graph_commit c,
			git_oid *out);
void gm_graph_commit_tree(const struct gm_graph *g, struct gm_graph_commit c,
			  git_oid *out);
int64_t gm_graph_commit_time(const struct gm_graph *g,
			     struct gm_graph_commit c);

/**
 * The parents of commit `c` as commits of the graph, if it has at most
 * two, into `parents`.
 * @return how many, or -1 if the graph cannot say (an octopus merge, a
 * position out of bounds): the commit itself must be read.
 */
int gm_graph_commit_parents(const struct gm_graph *g,
			    struct gm_graph_commit c,
			    struct gm_graph_commit parents[2]);

/**
 * Whether commit `c` may change any of the `nr` paths `p` against its
 * first parent: false only when its filter lacks a key of each.
 */
bool gm_graph_may_change_any(const struct gm_graph *g,
			     struct gm_graph_commit c,
			     const struct gm_graph_path *p, size_t nr);

/** Git's 32-bit murmur3 of `len` bytes, from `seed` (version 2's). */
uint32_t gm_graph_murmur3(uint32_t seed, const void *data, size_t len);

#endif /* GM_GRAPH_H */
