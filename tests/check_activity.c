#define _GNU_SOURCE	/* open_memstream */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gm/activity.h"
#include "gm/buf.h"
#include "gm/history.h"
#include "gm/repo.h"
#include "gm/ident.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/*
 * A history of whole trees, one commit each (author "Test Author
 * <author@example.com>", committer time as given):
 *   1000  the first tree
 *   2000  a/x.c changed                 Signed-off-by: an old address
 *   3000  a/legacy/old.c changed        Reviewed-by: Rita
 *   4000  q/q.c and Makefile changed    Signed-off-by: Someone Else
 *   5000  old/moved.c renamed to d/moved.c, run.sh made executable
 *   6000  lib/newthing.c added, a/x.c changed   Acked-by: Nick, SOB: Maria
 *   7000  nothing changed
 */
#define F(p, c) { p, c, 0 }
#define MAILMAP "Maria Maint <maria@example.com> <maria@old.example.com>\n"

static const struct gm_test_file t1000[] = {
	F(".mailmap", MAILMAP),
	F("Makefile", "1\n"), F("a/legacy/old.c", "1\n"), F("a/x.c", "1\n"),
	F("e", "a file\n"), F("old/moved.c", "moved\n"), F("q/q.c", "1\n"),
	F("run.sh", "echo\n"),
};
static const struct gm_test_file t2000[] = {
	F(".mailmap", MAILMAP),
	F("Makefile", "1\n"), F("a/legacy/old.c", "1\n"), F("a/x.c", "2\n"),
	F("e", "a file\n"), F("old/moved.c", "moved\n"), F("q/q.c", "1\n"),
	F("run.sh", "echo\n"),
};
static const struct gm_test_file t3000[] = {
	F(".mailmap", MAILMAP),
	F("Makefile", "1\n"), F("a/legacy/old.c", "2\n"), F("a/x.c", "2\n"),
	F("e", "a file\n"), F("old/moved.c", "moved\n"), F("q/q.c", "1\n"),
	F("run.sh", "echo\n"),
};
static const struct gm_test_file t4000[] = {
	F(".mailmap", MAILMAP),
	F("Makefile", "2\n"), F("a/legacy/old.c", "2\n"), F("a/x.c", "2\n"),
	F("e", "a file\n"), F("old/moved.c", "moved\n"), F("q/q.c", "2\n"),
	F("run.sh", "echo\n"),
};
static const struct gm_test_file t5000[] = {
	F(".mailmap", MAILMAP),
	F("Makefile", "2\n"), F("a/legacy/old.c", "2\n"), F("a/x.c", "2\n"),
	F("d/moved.c", "moved\n"), F("e/f", "now a directory\n"),
	F("q/q.c", "2\n"), { "run.sh", "echo\n", GIT_FILEMODE_BLOB_EXECUTABLE },
};
static const struct gm_test_file t6000[] = {
	F(".mailmap", MAILMAP),
	F("Makefile", "2\n"), F("a/legacy/old.c", "2\n"), F("a/x.c", "3\n"),
	F("d/moved.c", "moved\n"), F("e/f", "now a directory\n"),
	F("lib/newthing.c", "new\n"), F("q/q.c", "2\n"),
	{ "run.sh", "echo\n", GIT_FILEMODE_BLOB_EXECUTABLE },
};

#define C(msg, t, files) { msg, t, files, ARRAY_SIZE(files) }

static const struct gm_test_commit history[] = {
	C("first\n\nSigned-off-by: Maria Maint <maria@example.com>\n", 1000,
	  t1000),
	C("a: change\n\nSigned-off-by: Maria Maint <maria@old.example.com>\n",
	  2000, t2000),
	C("legacy: change\n\nReviewed-by: Rita Review <rita@example.com>\n",
	  3000, t3000),
	C("q: change\n\nSigned-off-by: Someone Else <else@example.com>\n", 4000,
	  t4000),
	C("move, chmod, file to directory\n\n"
	  "Signed-off-by: Dora Move <dora@example.com>\n", 5000, t5000),
	C("lib: newthing\n\nAcked-by: Nick Named <nick@example.com>\n"
	  "Signed-off-by: Maria Maint <MARIA@example.com>\n", 6000, t6000),
	C("nothing\n", 7000, t6000),
};

static const char rules[] =
	"FOO DRIVER\n"
	"M:\tMaria Maint <maria@example.com>\n"
	"R:\tRita Review <rita@example.com>\n"
	"S:\tMaintained\n"
	"F:\ta/\n"
	"X:\ta/legacy/\n"
	"\n"
	"NAMED\n"
	"M:\t\"Nick Named\" <nick@example.com>\n"
	"S:\tSupported\n"
	"N:\tnewthing\n"
	"\n"
	"QUIET\n"
	"M:\tQuinn Quiet <quinn@example.com>\n"
	"S:\tMaintained\n"
	"F:\tq/\n"
	"\n"
	"MOVED\n"
	"M:\tDora Move <dora@example.com>\n"
	"M:\tMaria Maint <maria@old.example.com>\n"
	"S:\tMaintained\n"
	"F:\td/\n"
	"\n"
	"AUTHORED\n"
	"M:\tTest Author <author@example.com>\n"
	"F:\tMakefile\n"
	"\n"
	"EMPTY\n"
	"M:\tEmma Empty <emma@example.com>\n"
	"F:\tnothing/\n"
	"\n"
	"THE REST\n"
	"M:\tLinus T <lt@example.com>\n"
	"S:\tBuried alive in reporters\n"
	"F:\t*\n"
	"F:\t*/\n";

static char *repo_dir;
static char repo_head[GIT_OID_HEXSZ + 1];
static char *saved_cwd;

static void history_setup(void)
{
	ck_assert_int_eq(gm_test_repo_create(&repo_dir, repo_head, history,
					     ARRAY_SIZE(history)), 0);
}

static void history_teardown(void)
{
	gm_test_rmtree(repo_dir);
	repo_dir = NULL;
}

static void cwd_enter(void)
{
	saved_cwd = getcwd(NULL, 0);
	ck_assert_int_eq(chdir(repo_dir), 0);
}

static void cwd_leave(void)
{
	ck_assert_int_eq(chdir(saved_cwd), 0);
	free(saved_cwd);
}

/* ==================== the walk: gm_history_each() ==================== */

/* Each commit as "TIME:file,file;person,person" lines. */
static int describe(const struct gm_history *h,
		    const struct gm_history_commit *c, void *payload)
{
	struct gm_buf *b = payload;

	gm_buf_printf(b, "%lld:", (long long)c->time);
	for (size_t i = 0; i < c->nr_files; i++)
		gm_buf_printf(b, "%s%s", i ? "," : "", c->files[i]);
	gm_buf_putc(b, ';');
	for (size_t i = 0; i < c->nr_people; i++)
		gm_buf_printf(b, "%s%s", i ? "," : "",
			      h->people[c->people[i]].email);
	gm_buf_putc(b, '\n');
	return 0;
}

/* The walk described, with the commit-graph's commits if `graph`. */
static char *walk_once(int64_t since, int64_t until, bool mailmap,
		       bool graph, size_t *commits)
{
	struct gm_history_options ho = GM_HISTORY_OPTIONS_INIT;
	struct gm_buf b = GM_BUF_INIT;
	struct gm_history *h = NULL;
	struct gm_repo *r = NULL;
	git_mailmap *mm = NULL;

	ck_assert_int_eq(gm_test_repo_open(&r, NULL), 0);
	if (mailmap)
		ck_assert_int_eq(gm_ident_mailmap(&mm, gm_repo_git(r),
						    gm_repo_tree(r)), 0);
	ho.since = since;
	ho.until = until;
	ho.mailmap = mm;
	if (graph) {
		ck_assert_int_eq(gm_repo_graph(&ho.graph, r), 0);
		ck_assert_ptr_nonnull(ho.graph);
	}
	ck_assert_int_eq(gm_history_each(&h, gm_repo_git(r),
					 gm_repo_commit_id(r), &ho, describe,
					 &b), 0);
	*commits = h->commits;
	gm_history_free(h);
	git_mailmap_free(mm);
	gm_repo_free(r);
	return gm_buf_detach(&b, NULL);
}

/* The walk described; the same again read from a commit-graph. */
static char *walk(int64_t since, int64_t until, bool mailmap, size_t *commits)
{
	char *s = walk_once(since, until, mailmap, false, commits), *again;
	size_t n;

	ck_assert_int_eq(system("git rev-parse HEAD | GIT_CONFIG_NOSYSTEM=1 "
				"git commit-graph write --stdin-commits "
				">/dev/null 2>&1"), 0);
	again = walk_once(since, until, mailmap, true, &n);
	ck_assert_str_eq(again, s);
	ck_assert_uint_eq(n, *commits);
	free(again);
	ck_assert_int_eq(system("rm -f \"$(git rev-parse --git-path "
				"objects)/info/commit-graph\""), 0);
	return s;
}

/*
 * Newest first; each file changed against the parent (a rename is a
 * deletion and an addition, a mode change is a change, a file replaced
 * by a directory both); a commit with no change is not handed over.
 */
START_TEST(test_activity_walk_changes)
{
	size_t commits;
	char *s = walk(INT64_MIN, INT64_MAX, true, &commits);

	ck_assert_str_eq(s,
		"6000:a/x.c,lib/newthing.c;author@example.com,nick@example.com,"
		"MARIA@example.com\n"
		"5000:d/moved.c,e,e/f,old/moved.c,run.sh;author@example.com,"
		"dora@example.com\n"
		"4000:Makefile,q/q.c;author@example.com,else@example.com\n"
		"3000:a/legacy/old.c;author@example.com,rita@example.com\n"
		"2000:a/x.c;author@example.com,MARIA@example.com\n"
		"1000:.mailmap,Makefile,a/legacy/old.c,a/x.c,e,old/moved.c,"
		"q/q.c,run.sh;author@example.com,MARIA@example.com\n");
	ck_assert_uint_eq(commits, 6);
	free(s);
}
END_TEST

/*
 * The mailmap makes the old address Maria's; a person keeps the first
 * spelling of the address seen, newest commit first.
 */
START_TEST(test_activity_walk_mailmap)
{
	size_t commits;
	char *s = walk(1500, INT64_MAX, true, &commits);

	ck_assert_ptr_nonnull(strstr(s, "2000:a/x.c;author@example.com,"
					"MARIA@example.com\n"));
	free(s);
	s = walk(1500, INT64_MAX, false, &commits);
	ck_assert_ptr_nonnull(strstr(s, "2000:a/x.c;author@example.com,"
					"maria@old.example.com\n"));
	free(s);
}
END_TEST

/* --since ends the walk at the first older commit; --until skips. */
START_TEST(test_activity_walk_window)
{
	size_t commits;
	char *s = walk(3000, 5000, true, &commits);

	ck_assert_str_eq(s,
		"5000:d/moved.c,e,e/f,old/moved.c,run.sh;author@example.com,"
		"dora@example.com\n"
		"4000:Makefile,q/q.c;author@example.com,else@example.com\n"
		"3000:a/legacy/old.c;author@example.com,rita@example.com\n");
	ck_assert_uint_eq(commits, 3);
	free(s);
}
END_TEST

/* ==================== counting per section ==================== */

static struct gm_maintainers *model(void)
{
	return gm_test_parse(rules);
}

/* The directory test of R-12 in the tree of `payload`, a struct gm_repo. */
static bool repo_isdir(const char *path, void *payload)
{
	return gm_repo_kind(payload, path) == GM_REPO_TREE;
}

/* Count the sections `wanted` (NULL: all) of `m` in the window. */
static struct gm_activity *count_wanted(const struct gm_maintainers *m,
					int64_t since, int64_t until,
					bool mailmap, const bool *wanted)
{
	struct gm_history_options ho = GM_HISTORY_OPTIONS_INIT;
	struct gm_unowned_opts uo = GM_UNOWNED_OPTS_INIT;
	struct gm_activity *a = NULL;
	struct gm_repo *r = NULL;
	git_mailmap *mm = NULL;

	ck_assert_int_eq(gm_test_repo_open(&r, NULL), 0);
	if (mailmap)
		ck_assert_int_eq(gm_ident_mailmap(&mm, gm_repo_git(r),
						    gm_repo_tree(r)), 0);
	ho.since = since;
	ho.until = until;
	ho.mailmap = mm;
	uo.isdir = repo_isdir;
	uo.payload = r;
	ck_assert_int_eq(gm_activity_count(&a, gm_repo_git(r),
					   gm_repo_commit_id(r), m, &uo, wanted,
					   &ho), 0);
	git_mailmap_free(mm);
	gm_repo_free(r);
	return a;
}

static struct gm_activity *count(const struct gm_maintainers *m,
				 int64_t since, int64_t until, bool mailmap)
{
	return count_wanted(m, since, until, mailmap, NULL);
}

static const struct gm_activity_section *
find(const struct gm_activity *a, const struct gm_maintainers *m,
     const char *name)
{
	for (size_t i = 0; i < a->nr_sections; i++)
		if (!strcmp(m->sections[a->sections[i].section].name, name))
			return &a->sections[i];
	ck_abort_msg("no section '%s'", name);
	return NULL;
}

static void check_person(const struct gm_activity_section *as, size_t k,
			 const char *email, bool reviewer, size_t commits,
			 int64_t last)
{
	ck_assert_uint_gt(as->nr_people, k);
	ck_assert_str_eq(as->people[k].email, email);
	ck_assert_int_eq(as->people[k].reviewer, reviewer);
	ck_assert_uint_eq(as->people[k].commits, commits);
	ck_assert_int_eq(as->people[k].last, last);
}

START_TEST(test_activity_count_known)
{
	struct gm_maintainers *m = model();
	struct gm_activity *a = count(m, 1500, INT64_MAX, true);
	const struct gm_activity_section *as;

	ck_assert_uint_eq(a->nr_sections, m->nr_sections);
	ck_assert_uint_eq(a->commits, 5);
	/* X: a/legacy/ leaves 3000 out; the old address is Maria's */
	as = find(a, m, "FOO DRIVER");
	ck_assert_uint_eq(as->commits, 2);
	ck_assert_uint_eq(as->nr_people, 2);
	check_person(as, 0, "maria@example.com", false, 2, 6000);
	check_person(as, 1, "rita@example.com", true, 0, INT64_MIN);
	ck_assert(!gm_activity_section_idle(as));
	/* N: newthing claims lib/newthing.c */
	as = find(a, m, "NAMED");
	ck_assert_uint_eq(as->commits, 1);
	check_person(as, 0, "nick@example.com", false, 1, 6000);
	/* a maintainer with no commit in the window */
	as = find(a, m, "QUIET");
	ck_assert_uint_eq(as->commits, 1);
	check_person(as, 0, "quinn@example.com", false, 0, INT64_MIN);
	ck_assert(gm_activity_section_idle(as));
	/* renamed into d/: the rename counts, the history before it not */
	as = find(a, m, "MOVED");
	ck_assert_uint_eq(as->commits, 1);
	ck_assert_uint_eq(as->nr_people, 2);
	check_person(as, 0, "dora@example.com", false, 1, 5000);
	check_person(as, 1, "maria@old.example.com", false, 0, INT64_MIN);
	/* the author counts */
	as = find(a, m, "AUTHORED");
	ck_assert_uint_eq(as->commits, 1);
	check_person(as, 0, "author@example.com", false, 1, 4000);
	as = find(a, m, "EMPTY");
	ck_assert_uint_eq(as->commits, 0);
	ck_assert(!gm_activity_section_idle(as));
	as = find(a, m, "THE REST");
	ck_assert_uint_eq(as->commits, 5);
	ck_assert(gm_activity_section_idle(as));
	gm_activity_free(a);
	gm_maintainers_free(m);
}
END_TEST

/* Without the mailmap the old address is somebody else. */
START_TEST(test_activity_count_no_mailmap)
{
	struct gm_maintainers *m = model();
	struct gm_activity *a = count(m, 1500, INT64_MAX, false);
	const struct gm_activity_section *as = find(a, m, "FOO DRIVER");

	ck_assert_uint_eq(as->commits, 2);
	check_person(as, 0, "maria@example.com", false, 1, 6000);
	as = find(a, m, "MOVED");
	check_person(as, 1, "maria@old.example.com", false, 0, INT64_MIN);
	gm_activity_free(a);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_activity_count_until)
{
	struct gm_maintainers *m = model();
	struct gm_activity *a = count(m, 1500, 4500, true);
	const struct gm_activity_section *as = find(a, m, "FOO DRIVER");

	ck_assert_uint_eq(a->commits, 3);
	ck_assert_uint_eq(as->commits, 1);
	check_person(as, 0, "maria@example.com", false, 1, 2000);
	ck_assert_uint_eq(find(a, m, "MOVED")->commits, 0);
	gm_activity_free(a);
	gm_maintainers_free(m);
}
END_TEST

/* Only the wanted sections are counted and listed. */
START_TEST(test_activity_count_wanted)
{
	struct gm_maintainers *m = model();
	bool *wanted = calloc(m->nr_sections, sizeof(*wanted));
	struct gm_activity *a;

	wanted[gm_test_section(m, "QUIET")] = true;
	a = count_wanted(m, INT64_MIN, INT64_MAX, false, wanted);
	ck_assert_uint_eq(a->nr_sections, 1);
	ck_assert_uint_eq(a->sections[0].commits, 2);	/* 1000 and 4000 */
	gm_activity_free(a);
	free(wanted);
	gm_maintainers_free(m);
}
END_TEST

/* ==================== output ==================== */

static char *written(const struct gm_activity *a, struct gm_maintainers *m,
		     bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(gm_activity_write(f, a, m, "abc", 1500, INT64_MAX,
					   json), 0);
	fclose(f);
	return buf;
}

START_TEST(test_activity_write_text)
{
	struct gm_maintainers *m = model();
	struct gm_activity *a = count(m, 1500, INT64_MAX, true);
	char *s = written(a, m, false);

	/* the table; NAMED's quoted name without its quotes */
	ck_assert_ptr_nonnull(strstr(s,
		"Commits from 1970-01-01 to now: 5 change a file\n"
		"\n"
		"  SECTION     STATUS          COMMITS  ROLE  PERSON                               COMMITS  REVIEWS  LAST\n"
		"! QUIET       Maintained            1  M     Quinn Quiet <quinn@example.com>            0        0  -\n"
		"! THE REST    Buried alive in reporters        5  M     Linus T <lt@example.com>                   0        0  -\n"
		"  FOO DRIVER  Maintained            2  M     Maria Maint <maria@example.com>            2        0  1970-01-01\n"
		"                                       R     Rita Review <rita@example.com>             0        0  -\n"
		"  NAMED       Supported             1  M     Nick Named <nick@example.com>              1        1  1970-01-01\n"
		"  MOVED       Maintained            1  M     Dora Move <dora@example.com>               1        0  1970-01-01\n"
		"                                       M     Maria Maint <maria@old.example.com>        0        0  -\n"
		"  AUTHORED    -                     1  M     Test Author <author@example.com>           1        0  1970-01-01\n"
		"  EMPTY       -                     0  M     Emma Empty <emma@example.com>              0        0  -\n"));
	free(s);
	gm_activity_free(a);
	gm_maintainers_free(m);
}
END_TEST

START_TEST(test_activity_write_json)
{
	struct gm_maintainers *m = model();
	struct gm_activity *a = count(m, 1500, INT64_MAX, true);
	char *s = written(a, m, true);

	ck_assert_ptr_nonnull(strstr(s,
		"{\n  \"version\": 1,\n  \"rev\": \"abc\",\n"
		"  \"since\": 1500,\n  \"until\": null,\n"
		"  \"commits\": 5,\n  \"sections\": [\n"));
	ck_assert_ptr_nonnull(strstr(s,
		"    {\"name\": \"FOO DRIVER\", \"status\": \"Maintained\", "
		"\"commits\": 2, \"people\": [{\"name\": \"Maria Maint\", "
		"\"email\": \"maria@example.com\", \"role\": \"maintainer\", "
		"\"commits\": 2, \"reviews\": 0, \"last\": 6000}, "
		"{\"name\": \"Rita Review\", "
		"\"email\": \"rita@example.com\", \"role\": \"reviewer\", "
		"\"commits\": 0, \"reviews\": 0, \"last\": null}]},\n"));
	ck_assert_ptr_nonnull(strstr(s, "[{\"name\": \"Nick Named\", "
		"\"email\": \"nick@example.com\", \"role\": \"maintainer\", "
		"\"commits\": 1, \"reviews\": 1, "));
	ck_assert_ptr_nonnull(strstr(s,
		"    {\"name\": \"AUTHORED\", \"status\": null, "
		"\"commits\": 1, "));
	ck_assert_str_eq(s + strlen(s) - 14, "null}]}\n  ]\n}\n");
	free(s);
	gm_activity_free(a);
	gm_maintainers_free(m);
}
END_TEST

Suite *activity_suite(void)
{
	Suite *s = suite_create("activity");
	TCase *walk_tc = tcase_create("walk");
	TCase *counts = tcase_create("count");
	TCase *output = tcase_create("output");
	TCase *all[] = { walk_tc, counts, output };

	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		tcase_add_unchecked_fixture(all[i], history_setup,
					    history_teardown);
		tcase_add_checked_fixture(all[i], cwd_enter, cwd_leave);
	}
	tcase_add_test(walk_tc, test_activity_walk_changes);
	tcase_add_test(walk_tc, test_activity_walk_mailmap);
	tcase_add_test(walk_tc, test_activity_walk_window);
	suite_add_tcase(s, walk_tc);
	tcase_add_test(counts, test_activity_count_known);
	tcase_add_test(counts, test_activity_count_no_mailmap);
	tcase_add_test(counts, test_activity_count_until);
	tcase_add_test(counts, test_activity_count_wanted);
	suite_add_tcase(s, counts);
	tcase_add_test(output, test_activity_write_text);
	tcase_add_test(output, test_activity_write_json);
	suite_add_tcase(s, output);
	return s;
}
