#ifndef GM_HISTORY_H
#define GM_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <git2.h>

#include "gm/strvec.h"

/*
 * Who has been active on some paths lately: one walk over the commits
 * that `git log --no-merges --since=S --until=U REV -- PATHS` lists,
 * counting each commit's author and the message lines the one-liner
 * `grep -i '^    [-a-z]*by:.*@'` picks, per person.
 */
struct gm_history_type {
	char *key;		/* canonical spelling, e.g. "Signed-off-by" */
	size_t lines;		/* message lines of that type naming the person */
};

struct gm_history_person {
	char *name;		/* as first seen, after the mailmap */
	char *email;		/* after the mailmap */
	size_t commits;		/* distinct commits naming the person */
	size_t authored;	/* commits authored */
	struct gm_history_type *types;
	size_t nr_types;
	/* review lines (Reviewed-by:, Acked-by:) naming the person ... */
	size_t author_rev;	/* ... on the author's other commits */
	double long_rev;	/* ... on the paths over GM_HISTORY_LONG, each
				 * e^(-age / GM_HISTORY_DECAY) */
	struct gm_strvec names;	/* the other names met with `email` */
};

/**
 * Add `lines` lines of type `key` (canonical) to `p`.
 * @return 0 or GM_ERROR.
 */
int gm_history_person_add_type(struct gm_history_person *p, const char *key,
			       size_t lines);

struct gm_history {
	size_t commits;			/* commits that touched the paths */
	struct gm_history_person *people;	/* most commits first */
	size_t nr_people;
	bool shallow;			/* the walk reached a shallow boundary */
	size_t unreadable;		/* commits or trees that could not be read */
	size_t rejected;		/* trailer values that were no address */
	struct gm_strvec committers;	/* of the commits counted: lower-case
					 * addresses after the mailmap, each
					 * once, in the order first seen */
	char *author;			/* opts->author's address, lower-case
					 * after the mailmap, or NULL */
};

struct gm_graph;
struct gm_packs;

struct gm_history_options {
	int64_t since;		/* oldest committer time, or INT64_MIN */
	int64_t until;		/* newest committer time, or INT64_MAX */
	git_mailmap *mailmap;	/* NULL for raw identities */
	const struct gm_graph *graph;	/* filters asked first, or NULL */
	const struct gm_packs *packs;	/* read first, or NULL */
	bool signals;		/* count long_rev (and author_rev) too */
	const char *author;	/* "Name <address>" whose commits' review
				 * lines are author_rev (with `signals`) */
};

#define GM_HISTORY_OPTIONS_INIT \
	{ INT64_MIN, INT64_MAX, NULL, NULL, NULL, false, NULL }

/* The long window of long_rev and the decay of its weights, in seconds. */
#define GM_HISTORY_LONG (730 * 86400LL)
#define GM_HISTORY_DECAY (180 * 86400.0)

/**
 * Walk from `start` and count the commits that touch `paths` (relative to
 * the top; "" is everything; "dir/" matches only a directory, as git's
 * pathspecs do; no wildcards: paths are literal, as with git's
 * --literal-pathspecs), with git's default history simplification over
 * every parent of a merge, however many. A commit older than `since`
 * ends that line of the walk, as git's --since does. With `signals`,
 * also each person's review lines (git log --no-merges, each walk as
 * git's): long_rev on the commits that touch the paths over
 * GM_HISTORY_LONG before the window's end (`until`, else the time of
 * `start`), or over the window if it is longer;
 * author_rev, with an `author`, on the window's commits of the whole
 * tree whose author is that person (the same address, or the same name
 * of two words or more, both through the mailmap). On success `*out`
 * belongs to the caller (gm_history_free()).
 * @return 0 or GM_ERROR.
 */
int gm_history_walk(struct gm_history **out, git_repository *repo,
		    const git_oid *start, const struct gm_strvec *paths,
		    const struct gm_history_options *opts);

/*
 * One commit of gm_history_each(), valid during the call only: the files
 * it changes and the people it names, counted into `h` as
 * gm_history_walk() counts them.
 */
struct gm_history_commit {
	int64_t time;			/* the committer's */
	const char *const *files;	/* against its parent, in path order */
	size_t nr_files;
	const size_t *people;		/* in h->people, each once */
	size_t nr_people;
};

typedef int (*gm_history_commit_fn)(const struct gm_history *h,
				    const struct gm_history_commit *c,
				    void *payload);

/**
 * Walk from `start` over the commits of `git log --no-merges
 * --full-history --since=S --until=U REV`: every parent of a merge is
 * followed; each other commit is compared with its one parent (a root, or
 * a commit whose parent is missing, with the empty tree), without rename
 * detection. A commit older than `since` ends that line of the walk, as
 * in gm_history_walk(). Each one that changes a file is counted and given
 * to `fn`, which may stop the walk by returning an error. On success
 * `*out` (gm_history_free()) has the totals of those commits, its people
 * in the order first seen. @return 0, GM_ERROR, or the error of `fn`.
 */
int gm_history_each(struct gm_history **out, git_repository *repo,
		    const git_oid *start,
		    const struct gm_history_options *opts,
		    gm_history_commit_fn fn, void *payload);

void gm_history_free(struct gm_history *h);

/* The `nr` people of `v`, their strings, and `v` itself. */
void gm_history_people_free(struct gm_history_person *v, size_t nr);

/**
 * The window of a walk (gm_history_options.since and .until): the dates
 * `since_arg` (NULL: `default_since`; both NULL: no lower bound) and
 * `until_arg` (NULL: no upper bound), read by gm_git_date(). Both are set
 * even on failure.
 * @return 0, GM_EUSAGE with a one-line message naming the option and the
 *         value ("--since: invalid date 'x': git reads no date in it"), or
 *         GM_ERROR if git could not be run.
 */
int gm_history_window(int64_t *since, int64_t *until, const char *since_arg,
		      const char *until_arg, const char *default_since);

#endif /* GM_HISTORY_H */
