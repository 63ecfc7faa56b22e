#ifndef GM_UNOWNED_H
#define GM_UNOWNED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "gm/buf.h"
#include "gm/maintainers.h"
#include "gm/pattern.h"
#include "gm/repo.h"
#include "gm/strvec.h"

struct gm_matches;

/*
 * Which sections claim which files, for a whole tree at once, and the
 * files that no maintainer claims (--unowned).
 *
 * A section claims a file as the matcher decides for `-f FILE`
 * (gm_match_files(), R-40, R-42): no X: line of the section matches it,
 * and one of its F: lines (within --pattern-depth) or N: lines does. K:
 * lines are not looked at.
 *
 * Threads: the model is only read; what matching learns lives in each
 * call's own context, so calls may run in several threads at once.
 */

/* How the claims are looked for. */
struct gm_unowned_opts {
	gm_pattern_isdir_fn isdir;	/* R-12 in the files' tree, or NULL */
	void *payload;			/* for isdir */
	int pattern_depth;		/* --pattern-depth, 0: no limit */
};

#define GM_UNOWNED_OPTS_INIT { NULL, NULL, 0 }

/**
 * The sections that claim each of `files[0..nr)` (sorted by byte order,
 * unique, relative to the top, naming files, not directories), the
 * matcher's answer for `o`, into `*out` (gm_matches_free()). The model is
 * only read. @return 0 or GM_ERROR.
 */
int gm_unowned_match(struct gm_matches **out, const struct gm_maintainers *m,
		     const struct gm_unowned_opts *o, const char *const *files,
		     size_t nr);

/** The first of the sorted files[0..nr) not below prefix[0..len). */
size_t gm_unowned_lower_bound(const char *const *files, size_t nr,
			      const char *prefix, size_t len);

/**
 * Set `owned[i]` to 1 for every file of `files[0..nr)` (as for
 * gm_unowned_match()) that a section with an M: line claims, but for the
 * two F: lines that make a section a catch-all, "THE REST": `*`
 * and `*` with a trailing '/', both in it (its name does not matter); the
 * others to 0. @return 0 or GM_ERROR.
 */
int gm_unowned_mark(unsigned char *owned, const struct gm_maintainers *m,
		    const struct gm_unowned_opts *o, const char *const *files,
		    size_t nr);

/* Where the unowned files are, for people (gm_unowned_dirs()). */
struct gm_unowned_dir {
	char *path;		/* "dir/", or "" for the files at the top */
	size_t unowned;		/* the unowned files summed here */
	size_t files;		/* all the files below it */
	bool whole;		/* all of them unowned */
};

struct gm_unowned_dirs {
	struct gm_unowned_dir *v;	/* most unowned first, then by path */
	size_t nr, alloc;
	size_t files, unowned;		/* in all */
};

/**
 * Sum the files of `files[0..nr)` (sorted, as for gm_unowned_match())
 * with `owned[i]` 0 by directory, each in the shallowest directory all of
 * whose files are unowned, else in its own. `*out` is the caller's
 * (gm_unowned_dirs_release()). @return 0 or GM_ERROR.
 */
int gm_unowned_dirs(struct gm_unowned_dirs *out, const char *const *files,
		    size_t nr, const unsigned char *owned);
void gm_unowned_dirs_release(struct gm_unowned_dirs *d);

enum gm_unowned_form {
	GM_UNOWNED_TABLE,	/* gm_unowned_dirs() as a table, a legend */
	GM_UNOWNED_LIST,	/* the unowned files, one a line */
	GM_UNOWNED_JSON		/* one JSON document, the stable form */
};

/**
 * Print the files of `files[0..nr)` with `owned[i]` 0 in `form`: for
 * people, a table of gm_unowned_dirs(); one per line; or one JSON document
 * that also counts the owned and unowned files of each top-level directory
 * ("." for the files at the top), `rev` the commit's id. Paths in text
 * are quoted as git quotes them (gm_buf_put_path(), `high` for
 * core.quotePath).
 * @return 0, or GM_ERROR if writing failed.
 */
int gm_unowned_write(FILE *out, const char *const *files, size_t nr,
		     const unsigned char *owned, const char *rev,
		     enum gm_unowned_form form, bool high);

/**
 * Select the files of `r`'s tree at or below the paths `args` (relative
 * to the current directory, as given on the command line; the whole tree
 * if there are none) into `*out`, in path order, borrowed from `all`, the
 * tree's files (gm_repo_files()). A path that is not in the tree (a file
 * only staged, or only in the work tree) is taken as a file of that name:
 * it is added to `all`. The caller frees `*out` (not its strings).
 * @return 0, GM_EINVALID for a path outside the work tree, or GM_ERROR.
 */
int gm_unowned_select(const char ***out, size_t *nr, struct gm_repo *r,
		      struct gm_strvec *all, const struct gm_strvec *args);

/** R-12's directory test in the tree of `repo`, a struct gm_repo. */
bool gm_unowned_isdir(const char *path, void *repo);

/**
 * The files of `r`'s tree under `args` (gm_unowned_select(): `*files`,
 * `*nr`, borrowed from `all`, the tree's files) and whether each is
 * owned (gm_unowned_mark(): `*owned`), with `r`'s directory test and
 * --pattern-depth `pattern_depth`. The caller frees `*files`, `*owned`
 * and `all`, also after a failure. @return as those two.
 */
int gm_unowned_read(const char ***files, size_t *nr, unsigned char **owned,
		    struct gm_strvec *all, struct gm_repo *r,
		    const struct gm_maintainers *m,
		    const struct gm_strvec *args, int pattern_depth);

/* What --unowned takes from the command line. */
struct gm_unowned_settings {
	const struct gm_strvec *args;	/* the paths, as given */
	int pattern_depth;		/* --pattern-depth, 0: no limit */
	enum gm_unowned_form form;	/* --format: text, list or json */
};

/**
 * --unowned: the files of `r`'s tree under `s->args` that no maintainer
 * claims, printed to `out` in `s->form` (gm_unowned_write()).
 * @return 0, or an error of the steps above.
 */
int gm_unowned_run(FILE *out, struct gm_repo *r,
		   const struct gm_maintainers *m,
		   const struct gm_unowned_settings *s);

#endif /* GM_UNOWNED_H */
