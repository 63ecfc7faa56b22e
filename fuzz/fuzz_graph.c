/*
 * The commit-graph reader on the input as a repository's
 * info/commit-graph: no crash, no read past the file (ASan); each commit
 * it gives is found again by its id and tree, its parents are commits of
 * the graph, and a path may change wherever the filters cannot say.
 */
#include "fuzz_common.h"

#include <sys/stat.h>
#include <unistd.h>

#include "gm/graph.h"

#define MAX_COMMITS 64

static char dir[64];
static char file[96];

static char info[80];

static void cleanup(void)
{
	unlink(file);
	rmdir(info);
	rmdir(dir);
}

/* A directory of its own for the file, made once, removed at exit. */
static void setup(void)
{
	if (*dir)
		return;
	snprintf(dir, sizeof(dir), "/tmp/gm-fuzz-graph.XXXXXX");
	FUZZ_CHECK(mkdtemp(dir));
	snprintf(info, sizeof(info), "%s/info", dir);
	FUZZ_CHECK(!mkdir(info, 0700));
	snprintf(file, sizeof(file), "%s/commit-graph", info);
	atexit(cleanup);
}

static void check_commit(const struct gm_graph *g, struct gm_graph_commit c,
			 const struct gm_graph_path *paths, size_t nr_paths)
{
	struct gm_graph_commit found, parents[2];
	git_oid id, tree;
	int n;

	gm_graph_commit_id(g, c, &id);
	gm_graph_commit_tree(g, c, &tree);
	FUZZ_CHECK(gm_graph_commit_time(g, c) >= 0);
	/* an id twice in a layer may find the other one: same tree or none */
	if (gm_graph_find(g, &id, &tree, &found)) {
		git_oid again;

		gm_graph_commit_id(g, found, &again);
		FUZZ_CHECK(git_oid_equal(&again, &id));
	}
	n = gm_graph_commit_parents(g, c, parents);
	FUZZ_CHECK(n >= -1 && n <= 2);
	for (int i = 0; i < n; i++) {	/* commits of the graph */
		git_oid pid;

		gm_graph_commit_id(g, parents[i], &pid);
		gm_graph_commit_tree(g, parents[i], &pid);
		FUZZ_CHECK(gm_graph_commit_time(g, parents[i]) >= 0);
	}
	for (size_t k = 0; k < nr_paths; k++)
		(void)gm_graph_may_change_any(g, c, &paths[k], 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "a", "a/b/c.txt", "\xc3\xa9/x" };
	struct gm_graph_path paths[3];
	const char *dirs[1];
	struct gm_graph *g = NULL;
	FILE *f;

	setup();
	dirs[0] = dir;
	FUZZ_CHECK(f = fopen(file, "wb"));
	FUZZ_CHECK(fwrite(data, 1, size, f) == size);
	FUZZ_CHECK(!fclose(f));
	FUZZ_CHECK(gm_graph_open(&g, dirs, 1, -1) == 0);
	memset(paths, 0, sizeof(paths));
	for (size_t k = 0; k < 3; k++) {
		const char *p = names[k];

		FUZZ_CHECK(gm_graph_path_set(&paths[k], p, strlen(p)) == 0);
	}
	for (uint32_t i = 0; g && i < MAX_COMMITS; i++) {
		struct gm_graph_commit c;

		if (!gm_graph_commit_at(g, i, &c))
			break;
		check_commit(g, c, paths, 3);
	}
	for (size_t k = 0; k < 3; k++)
		gm_graph_path_release(&paths[k]);
	gm_graph_free(g);
	return 0;
}
