#ifndef GM_PACK_H
#define GM_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <git2.h>

/*
 * Objects read straight from a repository's pack files, for --git's
 * copy search, which reads the blobs of whole trees. Each read gives
 * what libgit2 gives for the same id; what this reader cannot answer (a
 * loose object, a pack it does not know, an index of version 1,
 * anything it finds malformed) it leaves to libgit2, which stays the
 * authority: a miss is never an error. What it buys over git_odb_read()
 * is in doc/performance.md.
 *
 * A struct gm_packs is read-only once made: any number of threads may
 * share it. Each thread reads through a struct gm_pack_reader of its own.
 */
struct gm_packs;
struct gm_pack_reader;

/**
 * The packs of the object directories `dirs` (each index file in their
 * "pack" directories with its pack), and of their alternates
 * (info/alternates, followed as git does, to a depth of five). A
 * directory that cannot be read gives no pack. On success `*out`
 * belongs to the caller (gm_packs_free()).
 * @return 0 or GM_ERROR (out of memory).
 */
int gm_packs_open(struct gm_packs **out, const char *const *dirs, size_t nr);
void gm_packs_free(struct gm_packs *p);

/** How many packs were found. */
size_t gm_packs_count(const struct gm_packs *p);

/**
 * A reader of `p`, which must outlive it. `cache_bytes` bounds the delta
 * bases it keeps (0: a default of 64 MiB). The caller owns `*out`.
 * @return 0 or GM_ERROR.
 */
int gm_pack_reader_new(struct gm_pack_reader **out, const struct gm_packs *p,
		       size_t cache_bytes);
void gm_pack_reader_free(struct gm_pack_reader *r);

/**
 * Object `id`: its type and content in `*out` (`*len` bytes and a NUL
 * after them), which the caller frees with free().
 * @return 0, GM_ENOTFOUND (not in a pack this reader can read: ask
 * libgit2), or GM_ERROR (out of memory).
 */
int gm_pack_read(struct gm_pack_reader *r, const git_oid *id,
		 git_object_t *type, char **out, size_t *len);

/**
 * The type and size of object `id`, without its content: a delta's size
 * is read from the start of the delta alone, and its type from the end
 * of its chain of bases, which `type` NULL spares (the size alone).
 * @return 0, GM_ENOTFOUND (ask libgit2), or GM_ERROR.
 */
int gm_pack_header(struct gm_pack_reader *r, const git_oid *id,
		   git_object_t *type, size_t *size);

/*
 * Shared with the commit-graph reader (graph.c), whose files are built
 * the same way.
 */

/** The big-endian 32-bit number at `p`. */
static inline uint32_t gm_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/**
 * The number at `*p` (before `end`, `*p` moved past it) as an offset
 * delta's base and a version 4 index's path cut are written; false if
 * malformed.
 */
bool gm_offset_varint(const unsigned char **p, const unsigned char *end,
		      size_t *out);

/**
 * `path`, a regular file not empty, mapped read-only (munmap()); false if
 * it cannot be. A FIFO is not waited on.
 */
bool gm_map_file(const char *path, const unsigned char **out, size_t *len);

/**
 * The position of `id` among `ids`: ids of GIT_OID_RAWSZ bytes sorted,
 * with their `fanout` (256 big-endian counts of the ids whose first byte
 * is at most i), as in a pack index or a commit-graph, which the caller
 * checked. As ids are uniform, each probe goes where the key would be if
 * the ids between the bounds known so far were evenly spread: about log
 * log n probes, against log n for bisection, which takes over after 8.
 * @return whether it is there.
 */
bool gm_fanout_find(const unsigned char *fanout, const unsigned char *ids,
		    const unsigned char *id, uint32_t *pos);

#endif /* GM_PACK_H */
