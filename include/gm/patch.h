#ifndef GM_PATCH_H
#define GM_PATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "gm/buf.h"
#include "gm/strvec.h"

/*
 * What get_maintainer.pl reads from a patch: the file names, the
 * Fixes: commit ids, and the lines that K: keywords are tested against.
 */
struct gm_patch_line {
	size_t off;		/* offset of the line in the parsed buffer */
	size_t len;		/* its length, the newline included */
	bool prefixed;		/* after the first ---/+++ line: K: is tested
				   as "^[+-].*K" */
};

/* A hunk's "@@ -start,len" of the file of the last ---/+++ line. */
struct gm_patch_range {
	char *file;
	long start;
	long len;
};

struct gm_patch {
	struct gm_strvec files;		/* in the order found, duplicates kept */
	struct gm_strvec fixes;		/* Fixes: ids, in order */
	struct gm_patch_line *lines;	/* keyword lines */
	size_t nr_lines;
	size_t alloc_lines;
	struct gm_patch_range *ranges;	/* hunks, for --git-blame */
	size_t nr_ranges;
	size_t alloc_ranges;
	size_t last_file;	/* files.v[last_file - 1]: the last ---/+++
				   line's; 0: none yet */
};

#define GM_PATCH_INIT { GM_STRVEC_INIT, GM_STRVEC_INIT, NULL, 0, 0, \
			NULL, 0, 0, 0 }

/**
 * Parse one patch file (git diff, format-patch output, an mbox of several,
 * `diff -u`) held in `buf`, appending to `p`. Lines are classified as the
 * script does: mode change, rename from/to, diff --git, Fixes:, ---/+++,
 * hunk header, else a keyword line. C-quoted names and names ended by a
 * TAB are understood as well. `buf` must outlive the keyword lines.
 * @return 0 or GM_ERROR (out of memory).
 */
int gm_patch_parse(struct gm_patch *p, const char *buf, size_t len);

void gm_patch_release(struct gm_patch *p);

/**
 * Whether `name` (a file name, no directory) is one git format-patch
 * writes: "NNNN-*.patch"; with `cover`, the cover letter's ("0000-"),
 * else any other.
 */
bool gm_patch_is_series_name(const char *name, bool cover);

/**
 * Whether the mail `text` has a cover letter's Subject: "[PATCH 0/N]",
 * "[PATCH v2 00/N]", "[RFC 0/N]".
 */
bool gm_patch_is_cover_subject(const char *text);

/**
 * The name git wrote C-quoted as s[0..len) ("a\tb"), unquoted into
 * `out` (overwritten). @return 1 if it was one such name, whole; 0 if
 * not (`out` is then undefined); GM_ERROR.
 */
int gm_patch_unquote(struct gm_buf *out, const char *s, size_t len);

#endif /* GM_PATCH_H */
