#ifndef GM_INDEX_H
#define GM_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include <git2.h>

/*
 * git's index file (versions 2 to 4), read only as far as it can stand
 * for a tree: when its cache-tree (the TREE extension) says the whole
 * index writes out to that tree, its entries are the tree's files, in
 * path order, without reading a single tree object.
 */

/* An entry of the index: a file of the tree it stands for. */
struct gm_index_file {
	char *path;
	git_oid id;
	uint32_t mode;		/* 0100644, 0100755, 0120000 or 0160000 */
};

/**
 * The entries of the index data[0..len) whose last path component is
 * `name`, if the index stands for the tree `tree`: its cache-tree names
 * `tree` for all its entries, and it is neither split nor sparse, nor has
 * unmerged entries. Entries added with intent-to-add are no file of the
 * tree and are left out. `*out` gets `*nr` of them, in path order
 * (gm_index_files_free()).
 * @return 0, GM_ENOTFOUND when the index does not stand for `tree` or
 * is not one this reads (damaged, another version or hash, a required
 * extension), or GM_ERROR (out of memory).
 */
int gm_index_find(const unsigned char *data, size_t len, const git_oid *tree,
		  const char *name, struct gm_index_file **out, size_t *nr);

void gm_index_files_free(struct gm_index_file *files, size_t nr);

#endif /* GM_INDEX_H */
