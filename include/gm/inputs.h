#ifndef GM_INPUTS_H
#define GM_INPUTS_H

#include <stdbool.h>

#include "gm/buf.h"
#include "gm/patch.h"
#include "gm/repo.h"
#include "gm/strvec.h"

/* The name R-30 gives standard input in the file list. */
#define GM_INPUTS_STDIN "&STDIN"

/* What the inputs take from the command line. */
struct gm_inputs_settings {
	const struct gm_strvec *args;	/* the arguments, in order */
	const char *series;	/* --series: a format-patch directory */
	bool from_filename;	/* -f: the arguments are paths */
	bool tracked_paths;	/* --tracked-paths: a tracked file is -f */
	bool patch_dev_null;	/* --patch-dev-null: /dev/null a file */
	bool fixes;		/* --fixes: collect the Fixes: ids */
	bool keywords;		/* -k: keep the patches for K: */
	bool keywords_in_file;	/* --kf: K: sees the -f files' content */
};

/* A patch kept for the keyword pass, which needs MAINTAINERS. */
struct gm_inputs_patch {
	struct gm_buf text;
	struct gm_patch patch;
};

/*
 * What the command line names: patch files, an mbox, standard
 * input, a format-patch series (--series, or a cover letter standing for
 * the patches beside it), or paths of the tree with -f.
 */
struct gm_inputs {
	struct gm_strvec files;		/* the file list of R-30 */
	struct gm_strvec walk_paths;	/* the paths as given, for history */
	struct gm_strvec fixes;		/* Fixes: ids, first occurrence kept */
	char *author;			/* the first patch's From:, or NULL */
	struct gm_patch_range *ranges;	/* the patches' hunks (--git-blame) */
	size_t nr_ranges, alloc_ranges;
	struct gm_strvec keyword_files;	/* -f files whose content K: sees */
	struct gm_inputs_patch *patches;	/* patches whose lines K: sees */
	size_t nr_patches, alloc_patches;
	struct gm_strvec warnings;	/* "warning: " lines, in order */

	/* private */
	struct gm_repo *repo;
	struct gm_inputs_settings set;
	int series_depth;
};

/**
 * Read the inputs `s` names, paths taken relative to `r`'s current
 * directory, into the zeroed `in` (released by gm_inputs_release() even
 * on failure; its warnings are those before the failure).
 * @return 0, GM_EUSAGE (no input and stdin a terminal), GM_ENOTFOUND (a
 * file not found), or another error.
 */
int gm_inputs_read(struct gm_inputs *in, struct gm_repo *r,
		   const struct gm_inputs_settings *s);

/**
 * The same for the one argument `path` instead of `s->args` (--batch,
 * where `s` has -f).
 */
int gm_inputs_read_path(struct gm_inputs *in, struct gm_repo *r,
			const struct gm_inputs_settings *s, const char *path);

/**
 * The same for one patch or mail held in `text` (copied), as a patch
 * file is read (--check, one message of an mbox at a time).
 */
int gm_inputs_read_text(struct gm_inputs *in, struct gm_repo *r,
			const struct gm_inputs_settings *s, const char *text,
			size_t len);

void gm_inputs_release(struct gm_inputs *in);

/*
 * Two of the ways the script tells a MAINTAINERS file from a path (the
 * third, exactly "MAINTAINERS", is R-30's): a path matching
 * \bMAINTAINERS$, whose addresses are not taken; a path ending in
 * "MAINTAINERS", which gets no --git-fallback history.
 */
bool gm_inputs_is_maintainers_r47(const char *path);
bool gm_inputs_is_maintainers_r71(const char *path);

#endif /* GM_INPUTS_H */
