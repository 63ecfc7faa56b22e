#ifndef GM_WINDOW_H
#define GM_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <git2.h>

#include "gm/commits.h"

struct gm_repo;

/*
 * The commits of a window, in git's order (newest first; of equal
 * times, the first queued), from a start commit back to the oldest
 * committer time `since`, every parent followed: each non-merge one
 * compared with its parent (or the empty tree) at a set of paths.
 *
 * Alone, the caller's thread does the walking in gm_window_next(),
 * through the caller's reader, at the caller's paths as they are at
 * each call. Ahead, a thread of its own walks and compares up to a
 * thousand commits ahead of the caller, through a repository opened
 * again and a reader of its own, at the paths as they were at the
 * start: the caller compares itself the paths it changed since, unless
 * the commit says it was compared at the caller's paths (`current`), as
 * some are where the caller would wait.
 */
struct gm_window;

/* One commit of the window. */
struct gm_window_commit {
	git_oid id;
	bool merge;		/* not compared */
	bool current;		/* compared at the caller's paths, as they are */
	bool open;		/* (not compared yet: the window's own) */
	bool has_parent;	/* `ta` is its parent's tree, else none */
	git_oid ta, tb;		/* the parent's tree, its own */
	struct gm_commits_changes ch;	/* the paths that differ */
};

struct gm_window_options {
	struct gm_commits *src;		/* the caller's reader */
	const struct gm_commits_paths *paths;	/* compared (none: no walk) */
	const struct gm_strvec *files;	/* `paths` at the start, as made by
					   gm_commits_paths_init(), FILE */
	const git_oid *start;
	int64_t since;
	/* ahead: the repository opened again for the thread, where there
	   is a second CPU (NULL: alone), and what its reader reads */
	const struct gm_repo *reopen;
	const struct gm_packs *packs;
	const struct gm_objects_rules *rules;
	const struct gm_graph *graph;
};

/**
 * Start the window `o` describes; `o` and what it points to must
 * outlive it. The caller owns `*out` (gm_window_free()).
 * @return 0 or GM_ERROR.
 */
int gm_window_start(struct gm_window **out, const struct gm_window_options *o);

/**
 * The next commit of the window into `*out`, valid until the next call.
 * @return 1, 0 once the window is done, or GM_ERROR.
 */
int gm_window_next(struct gm_window *w, const struct gm_window_commit **out);

/** Whether a parent was cut off or unreadable, once the window is done. */
bool gm_window_shallow(const struct gm_window *w);

/** Stop the walk ahead, if any, and free `w`. */
void gm_window_free(struct gm_window *w);

#endif /* GM_WINDOW_H */
