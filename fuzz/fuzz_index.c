/*
 * gm_index_find() on the input read as an index file, for the tree whose
 * id is the input's first 20 bytes, so that the cache-tree can name it:
 * no crash, no read past the input (ASan), and what it returns is
 * consistent: entries of the name, each with a path of the index.
 */
#include "fuzz_common.h"

#include "gm/index.h"

static void check_found(const char *name, const struct gm_index_file *f,
			size_t nr, size_t size)
{
	size_t nlen = strlen(name);

	for (size_t i = 0; i < nr; i++) {
		size_t len = strlen(f[i].path);

		FUZZ_CHECK(len >= nlen && len < size);
		FUZZ_CHECK(!strcmp(f[i].path + len - nlen, name));
		FUZZ_CHECK(len == nlen || f[i].path[len - nlen - 1] == '/');
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "MAINTAINERS", "a" };
	git_oid tree;

	if (size < sizeof(tree.id))
		return 0;
	memcpy(tree.id, data, sizeof(tree.id));
	data += sizeof(tree.id);
	size -= sizeof(tree.id);
	for (size_t n = 0; n < sizeof(names) / sizeof(*names); n++) {
		struct gm_index_file *f = NULL;
		size_t nr = 0;
		/* an exact copy: a read past the end is one past the block */
		unsigned char *copy = malloc(size ? size : 1);
		int error;

		FUZZ_CHECK(copy);
		if (size)
			memcpy(copy, data, size);
		error = gm_index_find(copy, size, &tree, names[n], &f, &nr);
		FUZZ_CHECK(error == 0 || error == GM_ENOTFOUND ||
			   error == GM_ERROR);
		FUZZ_CHECK(error == 0 || (!f && !nr));
		check_found(names[n], f, nr, size);
		gm_index_files_free(f, nr);
		free(copy);
	}
	return 0;
}
