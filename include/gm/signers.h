#ifndef GM_SIGNERS_H
#define GM_SIGNERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <git2.h>

#include "gm/match.h"
#include "gm/patch.h"
#include "gm/strvec.h"

/*
 * get_maintainer.pl's history of each file (spec §9, R-72..R-75): what
 *
 *     git log --no-color --follow --since=S --numstat --no-merges \
 *         --format=... -- FILE
 *
 * prints for every FILE, from one walk over the commits instead of one
 * per file. The walk goes over what git log walks with --follow (every
 * commit of the window: --follow turns history simplification off), and
 * for each non-merge commit compares every file's current path with the
 * parent's tree, descending only where the trees differ. A file created
 * by a commit is looked for, as --follow does (gm_follow_source()), and
 * if found, the older commits are compared at the old path. The line
 * counts of each commit and file are numstat's (the diff of the blobs;
 * "-" for binary files).
 *
 * What the script then does with the output (counts, thresholds, roles,
 * R-74) is the rank's: gm_rank_add_signoffs(), gm_rank_add_git().
 */

/*
 * One commit's entry of the script's `git log`, as
 *
 *     git log --format="GitCommit: %H%nGitAuthor: %an <%ae>%nGitDate: %aD%n\
 *         GitSubject: %s%n%b%n"
 *
 * prints it and the script reads it, line by line: what the history walk
 * (signers.h) keeps of every commit, and blame (blame.h) of every blamed
 * commit. Below both. Threads: any function here may run beside any other
 * on objects of its own.
 */

/* A commit's log entry, classified line by line as the script reads it. */
struct gm_signers_commit {
	git_oid id;
	size_t commit_lines;	/* lines matching ^GitCommit: [0-9a-f]{40} */
	struct gm_strvec authors;	/* lines matching ^GitAuthor: */
	struct gm_strvec signatures;	/* signature lines */
	struct gm_strvec stat_like;	/* body lines starting "<n>\t<n>\t" */
	char *author;		/* "%an <%ae>", raw */
};

/** The id of `c` in hex, into `out`, which it returns. */
char *gm_signers_commit_hex(const struct gm_signers_commit *c,
			    char out[GIT_OID_HEXSZ + 1]);

/**
 * Classify the log entry of commit `id`, whose object's bytes are
 * `text`, into `out` (released by gm_signers_commit_release()): the
 * signature lines of R-73, or with `all_signature_types` those of
 * --git-all-signature-types.
 * @return 0 or GM_ERROR.
 */
int gm_signers_commit_read(struct gm_signers_commit *out, const git_oid *id,
			   const char *text, bool all_signature_types);
void gm_signers_commit_release(struct gm_signers_commit *c);

/* One commit in one file's log. */
struct gm_signers_touch {
	size_t commit;		/* index in gm_signers.commits */
	long added;		/* numstat counts; -1 for binary ("-") */
	long deleted;
	char *path;		/* the path numstat prints; NULL for a rename
				   ("a => b") or a directory, never matched */
};

struct gm_signers_file {
	char *path;			/* as given ("dir/" for a directory) */
	struct gm_signers_touch *touches;	/* git log order */
	size_t nr_touches;
	size_t alloc_touches;
	struct gm_strvec renamed_from;	/* older paths followed, newest first */
};

struct gm_signers {
	struct gm_signers_commit *commits;	/* walk order */
	size_t nr_commits;
	size_t alloc_commits;
	struct gm_signers_file *files;		/* as given */
	size_t nr_files;
	size_t walked;		/* commits of the window, merges included */
	bool shallow;		/* a parent could not be read */
};

struct gm_packs;
struct gm_graph;
struct gm_repo;

/* The counts behind one role of one file, before any threshold. */
struct gm_signers_count {
	char *who;		/* after the mailmap */
	int count;
};

struct gm_signers_role {
	const char *name;	/* "commit_signer", "authored", ... */
	int divisor;
	struct gm_signers_count *v;	/* most first, then by string */
	size_t nr;
};

/* What one file's history gave, for --format=json (the rank fills it). */
struct gm_signers_facts {
	const char *path;
	struct gm_strvec commits;	/* hex ids, in log order */
	struct gm_signers_role roles[7];
	size_t nr_roles;
};

void gm_signers_free(struct gm_signers *s);

/*
 * What a run's history is asked of, and the few settings it
 * takes from the command line. Everything is borrowed.
 */
struct gm_signers_request {
	git_repository *repo;
	const git_oid *start;		/* HEAD's commit, or --rev's */
	const char *workdir;		/* with a final '/', or NULL */
	const struct gm_strvec *files;	/* the file list of R-30 */
	const struct gm_matches *matches;	/* for the exact mark, R-43 */
	const struct gm_patch_range *ranges;	/* the patches' hunks */
	size_t nr_ranges;
	const struct gm_packs *packs;	/* its packs, read first, or NULL */
	const struct gm_graph *graph;	/* its commit-graph, or NULL */
	/* the repository, opened again for the line counts and, unless
	   `serial`, for threads of the walk's own (the commits found ahead,
	   the copy search's second reader) where there is a second CPU;
	   NULL: one thread, the counts on the repository given */
	const struct gm_repo *reopen;
	bool git;			/* --git: every file's signoffs */
	bool git_fallback;		/* --git-fallback */
	bool blame;			/* --git-blame */
	bool all_signature_types;	/* --git-all-signature-types */
	const char *since;		/* --git-since; NULL: a year ago */
	bool serial;
	bool fallback_maintainers;	/* the fallback for *MAINTAINERS too */
	const int64_t *since_at;	/* `since` read, or NULL: read here */
};

/**
 * The window's start for --git-since `since` (NULL: the script's
 * default, a year ago), read by git (gm_git_date()).
 * @return 0, GM_EUSAGE for a value with no date in it, or GM_ERROR.
 */
int gm_signers_since(int64_t *out, const char *since);


/* One file of the run: which of the history steps it gets. */
struct gm_signers_step {
	size_t walked;		/* its index in walk->files and facts, or
				   SIZE_MAX: no signoffs */
	bool blamed;		/* its blame counts (--git-blame) */
};

struct gm_blame;

/* What it found: the walk, the blames, and each walked file's facts. */
struct gm_signers_report {
	struct gm_signers *walk;	/* NULL if no file was walked */
	struct gm_signers_facts *facts;	/* per walked file, zeroed until
					   gm_rank_add_git() */
	size_t nr_facts;		/* how many it filled */
	int64_t since;			/* the window: --git-since */
	struct gm_signers_step *steps;	/* per file of the request */
	size_t nr_steps;
	struct gm_blame *blame;		/* with --git-blame, its commits read;
					   else NULL */
};

/**
 * What the script's history steps for the files of the run read (R-71,
 * with --git every file, with --git-fallback those no maintained
 * section claims exactly (and not MAINTAINERS), their signoffs from one
 * walk; with --git-blame each file's blame (but "&STDIN"'s). The rank
 * takes them in file order (gm_rank_add_git()). On success `*out`
 * belongs to the caller (gm_signers_report_free()).
 * @return 0, GM_EUSAGE for a --git-since that is no date, or GM_ERROR.
 */
int gm_signers_collect(struct gm_signers_report **out,
		       const struct gm_signers_request *req);
void gm_signers_report_free(struct gm_signers_report *r);

#endif /* GM_SIGNERS_H */
