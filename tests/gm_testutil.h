#ifndef GM_TESTUTIL_H
#define GM_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <git2.h>

#include "gm/prefetch.h"
#include "gm/rank.h"
#include "gm/repo.h"

#include "gm/maintainers.h"
#include "gm/match.h"
#include "gm/strvec.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Fixture A of the spec (§16): its MAINTAINERS text, and the directories
 * of its tree, for the F: directory test.
 */
extern const char gm_test_fixture_a[];
extern const char *const gm_test_fixture_a_dirs[];

/* The .mailmap of E21. */
extern const char gm_test_mailmap_e21[];

/*
 * A directory test over a fixed list of directory names, counting how
 * often it is asked and remembering the last path asked about.
 */
struct gm_test_dirs {
	const char *const *dirs;	/* NULL-terminated */
	int calls;
	char last[256];
};

bool gm_test_isdir(const char *path, void *payload);

/* Parse `text` as the only MAINTAINERS file. */
struct gm_maintainers *gm_test_parse(const char *text);

/** Fixture A parsed; `dirs` set to its directories. */
struct gm_maintainers *gm_test_parse_fixture_a(struct gm_test_dirs *dirs);

/* A match context for `m` with `dirs` (may be NULL) as the tree. */
struct gm_match_ctx *gm_test_match_ctx(const struct gm_maintainers *m,
				       struct gm_test_dirs *dirs);

/* The index of the section named `name` in `m`; aborts the test if none. */
size_t gm_test_section(const struct gm_maintainers *m, const char *name);

/* The strings of `sv` joined by `sep`, malloc()ed. */
char *gm_test_join(const struct gm_strvec *sv, const char *sep);

/* ==================== repositories ==================== */

/* One file of a commit; `mode` 0 is a regular file. */
struct gm_test_file {
	const char *path;
	const char *content;	/* for a symlink, its target */
	unsigned int mode;	/* 0, or GIT_FILEMODE_LINK / _EXECUTABLE */
};

/* One commit: its whole tree, a message and a fixed time. */
struct gm_test_commit {
	const char *message;
	git_time_t time;
	const struct gm_test_file *files;
	size_t nr_files;
};

/*
 * Create a repository in a new temporary directory with `commits` on
 * master, each the whole tree given, with a fixed identity and time, and
 * check HEAD out into the work tree. `*dir` gets the directory (no final
 * '/', symlinks resolved), `head` (if not NULL) HEAD's id in hex.
 * With `nr` 0 the repository has an unborn HEAD.
 * @return 0, or a libgit2 or errno failure (negative).
 */
int gm_test_repo_create(char **dir, char head[GIT_OID_HEXSZ + 1],
			const struct gm_test_commit *commits, size_t nr);

/* A new empty temporary directory (symlinks resolved), or NULL. */
/**
 * gm_repo_open() on the repository gm_repo_locate() finds now (from the
 * current directory and the environment).
 */
int gm_test_repo_open(struct gm_repo **out, const char *rev);

/** gm_prefetch_start() in the work tree gm_repo_locate() finds now. */
struct gm_prefetch *gm_test_prefetch_start(int argc, const char **argv,
					   const struct gm_prefetch_digest *digest);

/*
 * fork() for a test: flushes stdio first, and fails the test (in the parent)
 * when no child could be made. The child must run no Check code at all, not
 * even a passing ck_assert: that writes into the message file the child
 * shares with its parent and corrupts what the runner reads back.
 */
pid_t gm_test_fork(void);

char *gm_test_tmpdir(void);

/* Remove `dir` and everything below it, then free the string. */
void gm_test_rmtree(char *dir);

/* Write `content` to `dir`/`path`, creating nothing else. */
int gm_test_write_file(const char *dir, const char *path, const char *content);

/* Clear the environment variables through which git finds a repository. */
void gm_test_hermetic_env(void);

/*
 * A check of the running test that cannot run here, and why: it prints
 * "SKIP: <why>", and the run exits 77 (skipped) unless a test failed.
 * Works in Check's forked children: the reason goes to the file
 * $GM_TEST_SKIPS, which main() reads after the run.
 */
void gm_test_skip(const char *why);

/* ==================== running the program ==================== */

struct gm_test_run {
	int status;	/* the exit status, or -1 if it did not exit */
	char *out;	/* all of stdout */
	char *err;	/* all of stderr */
};

/*
 * Run the built git-maintainer in `cwd` with `args` (NULL-terminated, the
 * program name excluded), `stdin_text` on its standard input (/dev/null
 * if NULL) and a hermetic environment: HOME set to `home`, no GIT_*
 * variables but GIT_CEILING_DIRECTORIES = `ceiling` if not NULL.
 * @return 0, or -1 if it could not be run.
 */
int gm_test_run_binary(struct gm_test_run *r, const char *cwd,
		       const char *home, const char *ceiling,
		       const char *stdin_text, const char *const *args);

void gm_test_run_release(struct gm_test_run *r);

/*
 * The lines gm_blame_run() gives of `path` alone (all of it with `start`
 * and `len` 0, else -L start,+len), appended to `out`.
 */
int gm_test_blame_lines(struct gm_strvec *out, git_repository *repo,
			const git_oid *newest, const char *workdir,
			const char *path, long start, long len);

/*
 * Whether gm_rank_finish() drops the person `entry` as a chief penguin
 * under `base` (NULL: Linux's penguin) with `usename`.
 */
bool gm_test_dropped_as_penguin(const struct gm_rank_settings *base,
				const char *entry, int usename);

#endif /* GM_TESTUTIL_H */
