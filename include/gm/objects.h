#ifndef GM_OBJECTS_H
#define GM_OBJECTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <git2.h>

#include "gm/pack.h"

/*
 * Objects as --git's walk and copy search read them by the ten thousand:
 * whole, into buffers of their own, from the packs first (pack.c), then
 * from libgit2's object database; and trees parsed once into an index of
 * their entries.
 */

/*
 * What git reads in place of what a repository's objects say (all empty
 * in most repositories): replace refs (refs/replace/<id> names the
 * object read for <id>, unless GIT_NO_REPLACE_OBJECTS is set or
 * core.useReplaceRefs is false; GIT_REPLACE_REF_BASE names another
 * prefix), grafts ($GIT_DIR/info/grafts, "<commit> [<parent>...]" lines:
 * the commit's parents) and the shallow boundary ($GIT_DIR/shallow: those
 * commits have none). Read-only once made: threads may share it.
 */
struct gm_objects_rules;

/**
 * The rules of `repo`, as git reads them at startup. The caller owns
 * `*out` (gm_objects_rules_free()). @return 0 or GM_ERROR.
 */
int gm_objects_rules_load(struct gm_objects_rules **out,
			  git_repository *repo);
void gm_objects_rules_free(struct gm_objects_rules *r);

/**
 * Whether git reads the commit-graph under these rules (its
 * commit_graph_compatible(): no replacement, graft or shallow commit),
 * the graph's parents being the objects' own.
 */
bool gm_objects_rules_graph_ok(const struct gm_objects_rules *r);

/** The object read for `id`: its replacement, or `id` itself. */
const git_oid *gm_objects_replaced(const struct gm_objects_rules *r,
				   const git_oid *id);

/*
 * Where to read: a thread's pack reader (NULL: none), then `odb`, each
 * object replaced as `rules` (NULL: none) say; a commit that cannot be
 * parsed here is left to libgit2 through `repo` (NULL: none).
 */
struct gm_objects {
	git_odb *odb;
	struct gm_pack_reader *pack;
	const struct gm_objects_rules *rules;
	git_repository *repo;
};

/**
 * `o` on `repo`'s database (NULL: none), `packs` read first (NULL: none),
 * ids replaced as `rules` says. Closed with gm_objects_close().
 * @return 0 or GM_ERROR.
 */
int gm_objects_open(struct gm_objects *o, git_repository *repo,
		    const struct gm_packs *packs,
		    const struct gm_objects_rules *rules);
void gm_objects_close(struct gm_objects *o);

/**
 * Object `id` (or its replacement), of type `want`, into `*out` (`*len`
 * bytes and a NUL after them), which the caller frees; false if it
 * cannot be read as one.
 */
bool gm_objects_read(const struct gm_objects *o, const git_oid *id,
		     git_object_t want, char **out, size_t *len);

/** The size of blob `id`; false if it is no readable blob. */
bool gm_objects_blob_size(const struct gm_objects *o, const git_oid *id,
			  size_t *size);

/** git's test for binary content: a NUL in the first 8000 bytes. */
bool gm_objects_binary(const char *buf, size_t len);

/* A commit as a walk sees it: after replacement, grafts and shallow. */
struct gm_objects_commit {
	git_oid tree;
	git_oid *parents;
	size_t nr_parents;
	int64_t time;		/* the committer's */
	bool shallow;		/* at the shallow boundary: parents cut */
	char *data;		/* the object's bytes, a NUL after them */
};

/**
 * Commit `id` into `out` (released by gm_objects_commit_release() even
 * on failure): the content of its replacement, if any, and the parents
 * its graft or the shallow boundary gives it; its bytes kept in `data`.
 * @return 0, GM_ENOTFOUND (unreadable, or no commit), or GM_ERROR.
 */
int gm_objects_commit_read(struct gm_objects_commit *out,
			   const struct gm_objects *o, const git_oid *id);
void gm_objects_commit_release(struct gm_objects_commit *c);

/* One entry of a tree, pointing into the tree's object. */
struct gm_objects_entry {
	const char *name;	/* NUL-terminated in the object */
	uint32_t len;
	uint32_t mode;
	const unsigned char *id;	/* GIT_OID_RAWSZ bytes */
};

/*
 * A tree object read once and indexed: its entries in the object's
 * order, up to the first malformed one. `sorted` says they are in git's
 * order (each name once), which lookups by binary search rely on;
 * otherwise they scan.
 */
struct gm_objects_tree {
	git_oid id;
	char *raw;		/* the object */
	struct gm_objects_entry *v;
	size_t nr;
	bool sorted;
};

/** Tree `id` read and indexed; NULL if unreadable, no tree, or no memory. */
struct gm_objects_tree *gm_objects_tree_read(const struct gm_objects *o,
					     const git_oid *id);
void gm_objects_tree_free(struct gm_objects_tree *t);

/**
 * The entry `name` (`len` bytes) of `t` (NULL: none): with `kind` 0 of
 * any mode (the first in the object), 1 only a tree, -1 only a non-tree.
 * NULL: none.
 */
const struct gm_objects_entry *gm_objects_tree_find(
	const struct gm_objects_tree *t, const char *name, size_t len,
	int kind);

/** Whether `mode` is a tree's. */
static inline bool gm_objects_is_tree(uint32_t mode)
{
	return mode == GIT_FILEMODE_TREE;
}

/**
 * git's order of tree entries (base_name_compare()): a tree's name
 * compares as if it ended in '/'. <0, 0 or >0.
 */
int gm_objects_entry_cmp(const struct gm_objects_entry *a,
			 const struct gm_objects_entry *b);

/*
 * Object ids and commits for the stages above, which call no libgit2
 * function themselves (tests/layers): src/git is the one door.
 */
static inline bool gm_oid_equal(const git_oid *a, const git_oid *b)
{
	return git_oid_equal(a, b);
}

static inline void gm_oid_fromraw(git_oid *out, const unsigned char *raw)
{
	git_oid_fromraw(out, raw);
}

/* Whether `hex` is an id in hex, into `out`. */
static inline bool gm_oid_fromhex(git_oid *out, const char *hex)
{
	return git_oid_fromstr(out, hex) == 0;
}

/* `id` in hex into `out` (GIT_OID_HEXSZ + 1 bytes), NUL-terminated. */
static inline char *gm_oid_hex(char *out, const git_oid *id)
{
	return git_oid_tostr(out, GIT_OID_HEXSZ + 1, id);
}

#endif /* GM_OBJECTS_H */
