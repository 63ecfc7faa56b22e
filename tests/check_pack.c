/*
 * The pack reader (pack.c) against libgit2 on packs git writes: every
 * object of a repository read both ways, with offset and reference
 * deltas, through an alternate, from packs cut short or corrupted (a
 * miss then, never other bytes), with a cache too small to keep bases.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/pack.h"
#include "gm_testutil.h"
#include "gm_tests.h"

/* Run `cmd` (a shell command) with git's configuration left out. */
static void sh(const char *fmt, const char *dir)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null "
		 "GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.com "
		 "GIT_COMMITTER_NAME=C GIT_COMMITTER_EMAIL=c@example.com "
		 "GIT_AUTHOR_DATE=@1700000000 GIT_COMMITTER_DATE=@1700000000 "
		 "sh -c '%s' >/dev/null 2>&1", dir, fmt);
	ck_assert_int_eq(system(cmd), 0);
}

/*
 * A repository whose files change a little in each of 30 commits (so
 * that git stores most versions as deltas), a big file and an empty one
 * among them, packed by `repack` (a command run in it).
 */
static char *make_repo(const char *repack)
{
	char *dir = gm_test_tmpdir();

	ck_assert_ptr_nonnull(dir);
	sh("git init -q . && : > empty && "
	   "seq 1 20000 > big && git add empty big && git commit -qm big", dir);
	sh("for i in $(seq 1 30); do "
	   "seq $i 400 > a.txt; seq 1 $((i * 7)) > sub/b.txt 2>/dev/null || "
	   "{ mkdir -p sub; seq 1 $((i * 7)) > sub/b.txt; }; "
	   "echo $i >> big; git add -A; git commit -qm \"c$i\"; done", dir);
	sh(repack, dir);
	return dir;
}

/* The ids of every object of the repository at `dir`. */
static struct gm_strvec all_objects(const char *dir)
{
	struct gm_strvec v = GM_STRVEC_INIT;
	char cmd[1024], line[128];
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "git -C '%s' cat-file --batch-all-objects "
		 "--batch-check='%%(objectname)'", dir);
	ck_assert_ptr_nonnull(p = popen(cmd, "r"));
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		ck_assert_int_eq(gm_strvec_push(&v, line), 0);
	}
	pclose(p);
	ck_assert_uint_gt(v.nr, 90);
	return v;
}

static struct gm_packs *open_packs(const char *dir)
{
	struct gm_packs *ps = NULL;
	struct gm_buf objs = GM_BUF_INIT;
	const char *dirs[1];

	ck_assert_int_eq(gm_buf_printf(&objs, "%s/.git/objects", dir), 0);
	dirs[0] = objs.ptr;
	ck_assert_int_eq(gm_packs_open(&ps, dirs, 1), 0);
	gm_buf_release(&objs);
	return ps;
}

/*
 * Every object of `ids` read by `r` as libgit2 reads it from `dir`;
 * how many were found in a pack.
 */
static size_t compare_all(const char *dir, const struct gm_strvec *ids,
			  struct gm_pack_reader *r)
{
	git_repository *repo = NULL;
	git_odb *odb = NULL;
	size_t found = 0;

	ck_assert_int_eq(git_repository_open(&repo, dir), 0);
	ck_assert_int_eq(git_repository_odb(&odb, repo), 0);
	for (size_t i = 0; i < ids->nr; i++) {
		git_odb_object *o = NULL;
		git_object_t type, htype;
		git_oid id;
		char *data = NULL;
		size_t len, size;
		int error;

		ck_assert_int_eq(git_oid_fromstr(&id, ids->v[i]), 0);
		ck_assert_int_eq(git_odb_read(&o, odb, &id), 0);
		error = gm_pack_read(r, &id, &type, &data, &len);
		ck_assert(error == 0 || error == GM_ENOTFOUND);
		if (!error) {
			found++;
			ck_assert_int_eq(type, git_odb_object_type(o));
			ck_assert_uint_eq(len, git_odb_object_size(o));
			ck_assert(!memcmp(data, git_odb_object_data(o), len));
			ck_assert_int_eq(data[len], '\0');
			ck_assert_int_eq(gm_pack_header(r, &id, &htype, &size), 0);
			ck_assert_int_eq(htype, type);
			ck_assert_uint_eq(size, len);
			/* the size alone, the chain of bases not walked */
			size = 0;
			ck_assert_int_eq(gm_pack_header(r, &id, NULL, &size), 0);
			ck_assert_uint_eq(size, len);
		}
		free(data);
		git_odb_object_free(o);
	}
	git_odb_free(odb);
	git_repository_free(repo);
	return found;
}

/* Every object, with the given cache size, found in the pack and equal. */
static void check_repack(const char *repack, size_t cache)
{
	char *dir = make_repo(repack);
	struct gm_strvec ids = all_objects(dir);
	struct gm_packs *ps = open_packs(dir);
	struct gm_pack_reader *r = NULL;

	ck_assert_uint_eq(gm_packs_count(ps), 1);
	ck_assert_int_eq(gm_pack_reader_new(&r, ps, cache), 0);
	ck_assert_uint_eq(compare_all(dir, &ids, r), ids.nr);
	/* again, the bases now cached */
	ck_assert_uint_eq(compare_all(dir, &ids, r), ids.nr);
	gm_pack_reader_free(r);
	gm_packs_free(ps);
	gm_strvec_release(&ids);
	gm_test_rmtree(dir);
}

START_TEST(test_pack_offset_deltas)
{
	check_repack("git repack -adfq --depth=50 --window=50", 0);
}
END_TEST

START_TEST(test_pack_reference_deltas)
{
	check_repack("git -c repack.useDeltaBaseOffset=false "
		     "repack -adfq --depth=50 --window=50", 0);
}
END_TEST

START_TEST(test_pack_tiny_cache)
{
	/* bases bigger than a quarter of the cache are never kept */
	check_repack("git repack -adfq --depth=50 --window=50", 1024);
}
END_TEST

START_TEST(test_pack_loose_is_a_miss)
{
	char *dir = make_repo("true");
	struct gm_strvec ids = all_objects(dir);
	struct gm_packs *ps = open_packs(dir);
	struct gm_pack_reader *r = NULL;

	ck_assert_uint_eq(gm_packs_count(ps), 0);
	ck_assert_int_eq(gm_pack_reader_new(&r, ps, 0), 0);
	ck_assert_uint_eq(compare_all(dir, &ids, r), 0);
	gm_pack_reader_free(r);
	gm_packs_free(ps);
	gm_strvec_release(&ids);
	gm_test_rmtree(dir);
}
END_TEST

START_TEST(test_pack_alternates)
{
	char *src = make_repo("git repack -adfq");
	char *dir = gm_test_tmpdir();
	struct gm_strvec ids = all_objects(src);
	struct gm_packs *ps;
	struct gm_pack_reader *r = NULL;
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "git clone -q --shared \"%s\" clone", src);
	sh(cmd, dir);
	snprintf(cmd, sizeof(cmd), "%s/clone", dir);
	ps = open_packs(cmd);
	ck_assert_uint_eq(gm_packs_count(ps), 1);
	ck_assert_int_eq(gm_pack_reader_new(&r, ps, 0), 0);
	ck_assert_uint_eq(compare_all(cmd, &ids, r), ids.nr);
	gm_pack_reader_free(r);
	gm_packs_free(ps);
	gm_strvec_release(&ids);
	gm_test_rmtree(dir);
	gm_test_rmtree(src);
}
END_TEST

/* The .pack file of the repository at `dir`. */
static char *pack_file(const char *dir)
{
	char cmd[1024], line[1024];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "ls '%s'/.git/objects/pack/*.pack", dir);
	ck_assert_ptr_nonnull(p = popen(cmd, "r"));
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), p));
	pclose(p);
	line[strcspn(line, "\n")] = '\0';
	return strdup(line);
}

/* Overwrite byte `at` of `path` with its complement. */
static void flip(const char *path, off_t at)
{
	int fd = open(path, O_RDWR);
	unsigned char c;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, &c, 1, at), 1);
	c = (unsigned char)~c;
	ck_assert_int_eq(pwrite(fd, &c, 1, at), 1);
	close(fd);
}

/* Each object of `want` read from `dir`'s packs: missed, or the same. */
static void assert_miss_or_same(const char *dir, git_odb_object **want,
				size_t nr)
{
	struct gm_packs *ps = open_packs(dir);
	struct gm_pack_reader *r = NULL;

	ck_assert_int_eq(gm_pack_reader_new(&r, ps, 0), 0);
	for (size_t i = 0; i < nr; i++) {
		git_object_t type;
		char *data = NULL;
		size_t len;
		int error = gm_pack_read(r, git_odb_object_id(want[i]), &type,
					 &data, &len);

		ck_assert(error == 0 || error == GM_ENOTFOUND);
		if (!error) {
			ck_assert_uint_eq(len, git_odb_object_size(want[i]));
			ck_assert(!memcmp(data, git_odb_object_data(want[i]),
					  len));
		}
		free(data);
	}
	gm_pack_reader_free(r);
	gm_packs_free(ps);
}

START_TEST(test_pack_corrupt_is_a_miss)
{
	char *dir = make_repo("git repack -adfq --depth=50 --window=50");
	struct gm_strvec ids = all_objects(dir);
	char *pack = pack_file(dir);
	git_odb_object **want = calloc(ids.nr, sizeof(*want));
	git_repository *repo = NULL;
	git_odb *odb = NULL;
	struct stat st;

	/* libgit2's reading, before the damage, is the reference */
	ck_assert_ptr_nonnull(want);
	ck_assert_int_eq(git_repository_open(&repo, dir), 0);
	ck_assert_int_eq(git_repository_odb(&odb, repo), 0);
	for (size_t i = 0; i < ids.nr; i++) {
		git_oid id;

		ck_assert_int_eq(git_oid_fromstr(&id, ids.v[i]), 0);
		ck_assert_int_eq(git_odb_read(&want[i], odb, &id), 0);
	}
	ck_assert_int_eq(stat(pack, &st), 0);
	for (off_t at = 12; at < st.st_size - 20; at += st.st_size / 97)
		flip(pack, at);
	assert_miss_or_same(dir, want, ids.nr);
	ck_assert_int_eq(truncate(pack, st.st_size / 2), 0);
	assert_miss_or_same(dir, want, ids.nr);
	for (size_t i = 0; i < ids.nr; i++)
		git_odb_object_free(want[i]);
	free(want);
	git_odb_free(odb);
	git_repository_free(repo);
	free(pack);
	gm_strvec_release(&ids);
	gm_test_rmtree(dir);
}
END_TEST

Suite *pack_suite(void)
{
	Suite *s = suite_create("pack");
	TCase *tc = tcase_create("pack");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_pack_offset_deltas);
	tcase_add_test(tc, test_pack_reference_deltas);
	tcase_add_test(tc, test_pack_tiny_cache);
	tcase_add_test(tc, test_pack_loose_is_a_miss);
	tcase_add_test(tc, test_pack_alternates);
	tcase_add_test(tc, test_pack_corrupt_is_a_miss);
	suite_add_tcase(s, tc);
	return s;
}
