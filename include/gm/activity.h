#ifndef GM_ACTIVITY_H
#define GM_ACTIVITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <git2.h>

#include "gm/history.h"
#include "gm/maintainers.h"
#include "gm/repo.h"
#include "gm/strvec.h"
#include "gm/unowned.h"

/*
 * How active each section's code and people have been (--activity), from
 * one walk over the window (gm_history_each()).
 *
 * A section's commits are those of `git log --no-merges --full-history
 * --since=S --until=U REV -- <its files>`: the non-merge commits that
 * change, against their one parent, a file the section claims as the
 * matcher of -f decides (gm_match_files(): its X: lines exclude, its N:
 * lines include; the directory test of F: values is the tree's at REV). A
 * person's commits are those of the section's that they authored or that
 * name them on a "*-by:" line, counted as gm_history_walk() counts them;
 * M:/R: addresses and commit identities meet after the same mailmap,
 * compared without case.
 *
 * Threads: the model is only read; a gm_repo or git_repository is the
 * calling thread's.
 */

struct gm_activity_person {
	char *name;		/* as MAINTAINERS writes it */
	char *email;
	bool reviewer;		/* an R: line, else an M: line */
	size_t commits;		/* of the section's commits, theirs */
	size_t reviews;		/* of those, with their Reviewed-by/Acked-by */
	int64_t last;		/* committer time of the newest, INT64_MIN */
	size_t key;		/* identity, for the counting */
};

struct gm_activity_section {
	size_t section;		/* index in the model */
	size_t commits;		/* commits that change its files */
	struct gm_activity_person *people; /* M:/R: in file order, once */
	size_t nr_people, alloc_people;
};

struct gm_activity {
	struct gm_activity_section *sections;	/* in model order */
	size_t nr_sections;
	size_t commits;		/* of the window, those changing a file */
	bool shallow;		/* the walk reached a shallow boundary */
	size_t unreadable;	/* commits or trees that could not be read */
};

/**
 * Walk from `start` over the window of `ho` and count, for each section
 * `s` of `m` with `wanted[s]` (all if NULL), its commits and its
 * M:/R: people's; the claims are gm_unowned_match()'s with `uo` (the
 * directory test that of the tree at `start`). On success `*out` belongs
 * to the caller (gm_activity_free()). @return 0 or GM_ERROR.
 */
int gm_activity_count(struct gm_activity **out, git_repository *repo,
		      const git_oid *start, const struct gm_maintainers *m,
		      const struct gm_unowned_opts *uo, const bool *wanted,
		      const struct gm_history_options *ho);

void gm_activity_free(struct gm_activity *a);

/** The UTC day of `t`, epoch seconds: YYYY-MM-DD ('-': INT64_MIN). */
void gm_activity_put_date(FILE *f, int64_t t);

/**
 * Whether no M: person of the section appears in any of its commits,
 * while it has some: its code changes without its maintainers.
 */
bool gm_activity_section_idle(const struct gm_activity_section *as);

/**
 * Print `a`: a table for people, a row per section and per person, the
 * idle sections (flagged '!') first, each group in MAINTAINERS order,
 * with a legend; or with `json` one JSON document, the stable form
 * (`rev`, the window `since` and `until`, INT64_MAX for none).
 * @return 0, or GM_ERROR if writing failed.
 */
int gm_activity_write(FILE *f, const struct gm_activity *a,
		      const struct gm_maintainers *m, const char *rev,
		      int64_t since, int64_t until, bool json);

/* What --activity takes from the command line. */
struct gm_activity_settings {
	const struct gm_strvec *args;	/* the paths, as given */
	const char *since;		/* --since; NULL: 12.months.ago */
	const char *until;		/* --until; NULL: no limit */
	int pattern_depth;		/* --pattern-depth, 0: no limit */
	bool mailmap;			/* --mailmap */
	bool json;			/* --format=json */
};

/**
 * The counts gm_activity_run() prints, into `*out` (the caller's,
 * gm_activity_free()), and the window it read, into `*since`/`*until`.
 * @return as gm_activity_run().
 */
int gm_activity_read(struct gm_activity **out, int64_t *since,
		     int64_t *until, struct gm_strvec *warnings,
		     struct gm_repo *r, const struct gm_maintainers *m,
		     const struct gm_activity_settings *s);

/**
 * --activity: the window from `s->since` to `s->until`, the sections
 * covering the paths `s->args` (those that claim a file at or below one
 * of them, as gm_unowned_select() reads them; all sections without), the
 * mailmap unless `s->mailmap` is off, printed to `out`, as JSON with
 * `s->json`. Warnings (a shallow history, unreadable objects) are
 * appended to `warnings`.
 * @return 0, GM_EUSAGE for a date that does not parse, or GM_ERROR.
 */
int gm_activity_run(FILE *out, struct gm_strvec *warnings, struct gm_repo *r,
		    const struct gm_maintainers *m,
		    const struct gm_activity_settings *s);

#endif /* GM_ACTIVITY_H */
