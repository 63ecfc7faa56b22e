/*
 * The commit-graph reader (graph.c) against the graphs git writes: for
 * every commit of a history and every path of its trees and its
 * parent's, the changed-path filter never says "unchanged" of a path
 * git diff-tree shows changed, and says it of almost every other; in one
 * graph file and in a chain of two; the empty commit's filter and the
 * one of a commit of more than 512 changes as gitformat-commit-graph(5)
 * has them; murmur3 against its published values; bad files give no
 * graph and bad bytes no crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gm/graph.h"
#include "gm/strvec.h"
#include "gm_tests.h"

#define GIT_ENV "export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null " \
	"GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.com " \
	"GIT_COMMITTER_NAME=C GIT_COMMITTER_EMAIL=c@example.com && "

static void sh(const char *dir, const char *script)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), "cd '%s' && " GIT_ENV "sh -ec '%s' "
		 ">/dev/null 2>&1", dir, script);
	ck_assert_int_eq(system(cmd), 0);
}

/* The lines `cmd` prints in `dir`. */
static void lines(struct gm_strvec *out, const char *dir, const char *cmd)
{
	char buf[8192], line[4096];
	FILE *f;

	gm_strvec_release(out);
	snprintf(buf, sizeof(buf), "cd '%s' && " GIT_ENV "%s", dir, cmd);
	ck_assert_ptr_nonnull(f = popen(buf, "r"));
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		ck_assert_int_eq(gm_strvec_push(out, line), 0);
	}
	ck_assert_int_eq(pclose(f), 0);
}

static bool has(const struct gm_strvec *v, const char *s)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], s))
			return true;
	return false;
}

static void remove_repo(char *dir)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(dir);
}

static char *make_repo(void)
{
	char *dir = strdup("/tmp/gm-graph-XXXXXX");

	ck_assert_ptr_nonnull(mkdtemp(dir));
	sh(dir, "git init -q . && mkdir -p a/b \"dir x\" \"\303\251\" && "
	   "echo 1 > a/b/c.txt && echo 2 > a/d.txt && echo 3 > top.txt && "
	   "echo 4 > \"dir x/y\" && echo 5 > \"\303\251/\303\274.txt\" && "
	   "git add -A && git commit -qm one && "
	   "echo more >> a/b/c.txt && git commit -qam two && "
	   "mkdir e && git mv a/d.txt e/d.txt && git commit -qm three && "
	   "git commit -q --allow-empty -m empty && "
	   "mkdir big && for i in $(seq 1 600); do echo $i > big/f$i; done && "
	   "git add big && git commit -qm big && "
	   "echo 6 >> \"\303\251/\303\274.txt\" && git commit -qam high && "
	   "git rm -q top.txt && mkdir top.txt && echo 7 > top.txt/inner && "
	   "git add top.txt && git commit -qm type");
	return dir;
}

/* The object directory's graph, its filters of `version`. */
static struct gm_graph *graph_of_version(const char *dir, int version)
{
	char objects[1024];
	const char *dirs[] = { "/nonexistent", objects };
	struct gm_graph *g = NULL;

	snprintf(objects, sizeof(objects), "%s/.git/objects", dir);
	ck_assert_int_eq(gm_graph_open(&g, dirs, 2, version), 0);
	ck_assert_ptr_nonnull(g);
	return g;
}

static struct gm_graph *graph_of(const char *dir)
{
	return graph_of_version(dir, -1);
}

static git_oid oid_of(const char *hex)
{
	git_oid id;

	ck_assert_int_eq(git_oid_fromstr(&id, hex), 0);
	return id;
}

/*
 * Every commit of `dir`'s HEAD against git diff-tree, every path of its
 * trees and its parent's asked; how many unchanged ones were asked and
 * how many the filters ruled out.
 */
static void check_all(const char *dir, size_t *unchanged, size_t *ruled_out)
{
	struct gm_strvec commits = GM_STRVEC_INIT, changed = GM_STRVEC_INIT,
			 paths = GM_STRVEC_INIT, tree = GM_STRVEC_INIT;
	struct gm_graph *g = graph_of(dir);
	char cmd[512];

	*unchanged = *ruled_out = 0;
	lines(&commits, dir, "git rev-list HEAD");
	for (size_t i = 0; i < commits.nr; i++) {
		const char *c = commits.v[i];
		struct gm_graph_commit gc;
		git_oid id = oid_of(c), tid;

		snprintf(cmd, sizeof(cmd), "git rev-parse %s^{tree}", c);
		lines(&tree, dir, cmd);
		tid = oid_of(tree.v[0]);
		ck_assert(gm_graph_find(g, &id, &tid, &gc));
		snprintf(cmd, sizeof(cmd), "git -c core.quotePath=false "
			 "diff-tree --root -r -t --name-only --no-commit-id %s",
			 c);
		lines(&changed, dir, cmd);
		snprintf(cmd, sizeof(cmd), "{ git -c core.quotePath=false "
			 "ls-tree -r -t --name-only %s; git -c core.quotePath="
			 "false ls-tree -r -t --name-only %s^ 2>/dev/null; "
			 "echo nope/x; } | sort -u", c, c);
		lines(&paths, dir, cmd);
		for (size_t k = 0; k < paths.nr; k++) {
			struct gm_graph_path p = { 0 };
			bool may;

			ck_assert_int_eq(gm_graph_path_set(&p, paths.v[k],
							   strlen(paths.v[k])),
					 0);
			may = gm_graph_may_change_any(g, gc, &p, 1);
			if (has(&changed, paths.v[k])) {
				ck_assert_msg(may, "%s: %s missed", c,
					      paths.v[k]);
			} else {
				++*unchanged;
				*ruled_out += !may;
			}
			gm_graph_path_release(&p);
		}
	}
	gm_graph_free(g);
	gm_strvec_release(&commits);
	gm_strvec_release(&changed);
	gm_strvec_release(&paths);
	gm_strvec_release(&tree);
}

/* The filter of HEAD~`back` on `path`, if of `version`. */
static bool may_at_version(const char *dir, int back, const char *path,
			   int version)
{
	struct gm_strvec v = GM_STRVEC_INIT;
	struct gm_graph *g = graph_of_version(dir, version);
	struct gm_graph_path p = { 0 };
	struct gm_graph_commit gc;
	git_oid id, tid;
	char cmd[256];
	bool may;

	snprintf(cmd, sizeof(cmd), "git rev-parse HEAD~%d HEAD~%d^{tree}",
		 back, back);
	lines(&v, dir, cmd);
	id = oid_of(v.v[0]);
	tid = oid_of(v.v[1]);
	ck_assert(gm_graph_find(g, &id, &tid, &gc));
	ck_assert_int_eq(gm_graph_path_set(&p, path, strlen(path)), 0);
	may = gm_graph_may_change_any(g, gc, &p, 1);
	gm_graph_path_release(&p);
	gm_graph_free(g);
	gm_strvec_release(&v);
	return may;
}

static bool may_at(const char *dir, int back, const char *path)
{
	return may_at_version(dir, back, path, -1);
}

START_TEST(test_graph_murmur3)
{
	/* published values of 32-bit murmur3 */
	ck_assert_uint_eq(gm_graph_murmur3(0, "", 0), 0);
	ck_assert_uint_eq(gm_graph_murmur3(1, "", 0), 0x514e28b7u);
	ck_assert_uint_eq(gm_graph_murmur3(0xffffffffu, "", 0), 0x81f16f39u);
	ck_assert_uint_eq(gm_graph_murmur3(0, "\0\0\0\0", 4), 0x2362f9deu);
	ck_assert_uint_eq(gm_graph_murmur3(0x9747b28cu, "aaaa", 4),
			  0x5a97808au);
	ck_assert_uint_eq(gm_graph_murmur3(0x9747b28cu, "abc", 3),
			  0xc84a62ddu);
	ck_assert_uint_eq(gm_graph_murmur3(0x9747b28cu, "Hello, world!", 13),
			  0x24884cbau);
}
END_TEST

START_TEST(test_graph_filters_as_git)
{
	char *dir = make_repo();
	size_t unchanged, out;

	sh(dir, "git commit-graph write --reachable --changed-paths");
	check_all(dir, &unchanged, &out);
	ck_assert_uint_gt(unchanged, 100);
	ck_assert_uint_ge(out * 10, unchanged * 8);	/* most ruled out */
	/* no change: all bits clear; over 512: all set */
	ck_assert(!may_at(dir, 3, "a/b/c.txt"));
	ck_assert(may_at(dir, 2, "a/b/c.txt"));
	ck_assert(!may_at(dir, 0, "a/b/c.txt"));
	ck_assert(may_at(dir, 0, "top.txt"));
	ck_assert(may_at(dir, 0, "top.txt/inner"));
	ck_assert(may_at(dir, 0, ""));
	remove_repo(dir);
}
END_TEST

START_TEST(test_graph_chain)
{
	char *dir = make_repo();
	size_t unchanged, out;

	sh(dir, "git commit-graph write --reachable --changed-paths "
	   "--split=no-merge && echo 8 > a/new && git add a/new && "
	   "git commit -qm later && echo 9 >> a/b/c.txt && "
	   "git commit -qam last && git commit-graph write --reachable "
	   "--changed-paths --split=no-merge && "
	   "test $(wc -l < .git/objects/info/commit-graphs/"
	   "commit-graph-chain) = 2 && ! test -f .git/objects/info/"
	   "commit-graph");
	check_all(dir, &unchanged, &out);
	ck_assert_uint_ge(out * 10, unchanged * 8);
	ck_assert(may_at(dir, 0, "a/b"));
	ck_assert(!may_at(dir, 0, "a/new"));
	ck_assert(may_at(dir, 1, "a/new"));
	remove_repo(dir);
}
END_TEST

/*
 * Each commit's tree, committer time and parents as git log has them,
 * merges included; an octopus merge's parents left to the commit.
 */
START_TEST(test_graph_commits_as_git)
{
	char *dir = make_repo();
	struct gm_strvec v = GM_STRVEC_INIT;
	struct gm_graph *g;
	size_t octopus = 0;

	/* a merge, an octopus, a time past 32 bits (which git log prints) */
	sh(dir, "t=$(git rev-parse HEAD^{tree}) && "
	   "s=$(echo side | git commit-tree $t -p HEAD~2) && "
	   "m=$(echo merge | git commit-tree $t -p HEAD -p $s) && "
	   "x=$(echo x | git commit-tree $t -p HEAD~3) && "
	   "y=$(echo y | git commit-tree $t -p HEAD~4) && "
	   "o=$(echo oct | git commit-tree $t -p $m -p $x -p $y) && "
	   "f=$(printf \"tree %s\\nparent %s\\nauthor A <a@b> 1 +0000\\n"
	   "committer C <c@d> 4300000000 +0000\\n\\nfar\\n\" $t $o | "
	   "git hash-object -t commit -w --stdin --literally) && "
	   "git update-ref HEAD $f && git commit-graph write --reachable");
	g = graph_of(dir);
	lines(&v, dir, "git log --format=\"%H %T %ct %P\"");
	for (size_t i = 0; i < v.nr; i++) {
		char *f[8] = { 0 }, *save = NULL;
		struct gm_graph_commit gc, parents[2];
		git_oid id, tree, got;
		size_t nr = 0;
		int n;

		for (char *w = strtok_r(v.v[i], " ", &save); w && nr < 8;
		     w = strtok_r(NULL, " ", &save))
			f[nr++] = w;
		id = oid_of(f[0]);
		tree = oid_of(f[1]);
		ck_assert(gm_graph_find(g, &id, &tree, &gc));
		gm_graph_commit_id(g, gc, &got);
		ck_assert(git_oid_equal(&got, &id));
		gm_graph_commit_tree(g, gc, &got);
		ck_assert(git_oid_equal(&got, &tree));
		ck_assert_int_eq(gm_graph_commit_time(g, gc),
				 strtoll(f[2], NULL, 10));
		n = gm_graph_commit_parents(g, gc, parents);
		if (nr - 3 > 2) {
			ck_assert_int_eq(n, -1);
			octopus++;
			continue;
		}
		ck_assert_int_eq(n, (int)(nr - 3));
		for (int k = 0; k < n; k++) {
			gm_graph_commit_id(g, parents[k], &got);
			id = oid_of(f[3 + k]);
			ck_assert(git_oid_equal(&got, &id));
		}
	}
	ck_assert_uint_eq(octopus, 1);
	gm_strvec_release(&v);
	gm_graph_free(g);
	remove_repo(dir);
}
END_TEST

/*
 * No filters, filters of another version or not to be read: every path
 * may have changed; a commit asked with another tree than its own: not
 * taken from the graph.
 */
START_TEST(test_graph_not_trusted)
{
	char *dir = make_repo();
	struct gm_strvec v = GM_STRVEC_INIT;
	struct gm_graph *g = NULL;
	struct gm_graph_commit gc;
	git_oid id, tid;

	sh(dir, "git commit-graph write --reachable");
	ck_assert(may_at(dir, 3, "a/b/c.txt"));	/* no filters: may */
	sh(dir, "git commit-graph write --reachable --changed-paths");
	ck_assert(!may_at_version(dir, 3, "a/b/c.txt", -1));
	ck_assert(may_at_version(dir, 3, "a/b/c.txt", 0));
	/* the version git wrote, and not the other */
	ck_assert(may_at_version(dir, 3, "a/b/c.txt", 1) !=
		  may_at_version(dir, 3, "a/b/c.txt", 2));
	g = graph_of(dir);
	lines(&v, dir, "git rev-parse HEAD HEAD~1^{tree}");
	id = oid_of(v.v[0]);
	tid = oid_of(v.v[1]);
	ck_assert(!gm_graph_find(g, &id, &tid, &gc));
	gm_graph_free(g);
	gm_strvec_release(&v);
	remove_repo(dir);
}
END_TEST

/* Cut short: no graph; bytes flipped: answers, and no crash (ASan). */
START_TEST(test_graph_damaged)
{
	char *dir = make_repo();
	char path[1100], objects[1024];
	const char *dirs[] = { objects };
	struct gm_strvec v = GM_STRVEC_INIT;
	struct gm_graph_path p = { 0 };
	struct gm_graph *g = NULL;
	FILE *f;
	long len;

	snprintf(objects, sizeof(objects), "%s/.git/objects", dir);
	snprintf(path, sizeof(path), "%s/info/commit-graph", objects);
	sh(dir, "git commit-graph write --reachable --changed-paths && "
	   "cp .git/objects/info/commit-graph .git/good && "
	   "chmod u+w .git/objects/info/commit-graph");
	lines(&v, dir, "git log --format=\"%H %T\"");
	ck_assert_ptr_nonnull(f = fopen(path, "r+b"));
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	ck_assert_int_eq(ftruncate(fileno(f), len / 2), 0);
	fclose(f);
	ck_assert_int_eq(gm_graph_open(&g, dirs, 1, -1), 0);
	ck_assert_ptr_null(g);
	ck_assert_int_eq(gm_graph_path_set(&p, "a/b/c.txt", 9), 0);
	for (long at = 0; at < len; at += at < 4096 ? 7 : 101) {
		sh(dir, "rm -f .git/objects/info/commit-graph && "
		   "cp .git/good .git/objects/info/commit-graph && "
		   "chmod u+w .git/objects/info/commit-graph");
		ck_assert_ptr_nonnull(f = fopen(path, "r+b"));
		ck_assert_int_eq(fseek(f, at, SEEK_SET), 0);
		ck_assert_int_ne(fputc(0xa5 ^ (int)(at & 0xff), f), EOF);
		fclose(f);
		ck_assert_int_eq(gm_graph_open(&g, dirs, 1, -1), 0);
		for (size_t i = 0; g && i < v.nr; i++) {
			git_oid id = oid_of(v.v[i]);
			git_oid tid = oid_of(v.v[i] + GIT_OID_HEXSZ + 1);
			struct gm_graph_commit gc;

			if (gm_graph_find(g, &id, &tid, &gc))
				(void)gm_graph_may_change_any(g, gc, &p, 1);
		}
		gm_graph_free(g);
		g = NULL;
	}
	gm_strvec_release(&v);
	gm_graph_path_release(&p);
	remove_repo(dir);
}
END_TEST

/*
 * Set the 4-byte big-endian word at `off` of chunk `id` (off < 0: from
 * the chunk's end) of `dir`'s commit-graph to `value`.
 */
static void chunk_poke(const char *dir, const char *id, long off,
		       unsigned value)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cd '%s' && chmod u+w "
		 ".git/objects/info/commit-graph && python3 -c 'import struct\n"
		 "p=\".git/objects/info/commit-graph\"\n"
		 "d=bytearray(open(p,\"rb\").read())\n"
		 "t=[struct.unpack(\">4sQ\",d[8+12*i:20+12*i]) for i in "
		 "range(d[6]+1)]\n"
		 "for (c,a),(_,b) in zip(t,t[1:]):\n"
		 "  if c==b\"%s\":\n"
		 "    o=a+%ld if %ld>=0 else b+%ld\n"
		 "    d[o:o+4]=struct.pack(\">I\",%u)\n"
		 "open(p,\"wb\").write(bytes(d))'", dir, id, off, off, off,
		 value);
	ck_assert_int_eq(system(cmd), 0);
}

/*
 * Filters git would not have written, or whose index goes back or past
 * the data: not trusted to rule anything out.
 */
START_TEST(test_graph_insane_filters)
{
	char *dir = make_repo();

	sh(dir, "git commit-graph write --reachable --changed-paths");
	ck_assert(!may_at(dir, 3, "a/b/c.txt"));
	chunk_poke(dir, "BDAT", 8, 0);		/* no bits per entry */
	ck_assert(may_at(dir, 3, "a/b/c.txt"));
	sh(dir, "rm -f .git/objects/info/commit-graph && "
	   "git commit-graph write --reachable --changed-paths");
	ck_assert(!may_at(dir, 3, "a/b/c.txt"));
	chunk_poke(dir, "BIDX", -4, 0);		/* the last end before others */
	ck_assert(may_at(dir, 3, "a/b/c.txt"));
	sh(dir, "rm -f .git/objects/info/commit-graph && "
	   "git commit-graph write --reachable --changed-paths");
	chunk_poke(dir, "BIDX", -4, 0x7fffffff);	/* past the data */
	ck_assert(may_at(dir, 3, "a/b/c.txt"));
	remove_repo(dir);
}
END_TEST

Suite *graph_suite(void)
{
	Suite *s = suite_create("graph");
	TCase *tc = tcase_create("graph");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_graph_murmur3);
	tcase_add_test(tc, test_graph_filters_as_git);
	tcase_add_test(tc, test_graph_chain);
	tcase_add_test(tc, test_graph_commits_as_git);
	tcase_add_test(tc, test_graph_not_trusted);
	tcase_add_test(tc, test_graph_damaged);
	tcase_add_test(tc, test_graph_insane_filters);
	suite_add_tcase(s, tc);
	return s;
}
