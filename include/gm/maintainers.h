#ifndef GM_MAINTAINERS_H
#define GM_MAINTAINERS_H

#include <stddef.h>
#include <stdint.h>

#include "gm/pattern.h"

/*
 * MAINTAINERS as get_maintainer.pl models it (spec §3): the retained lines
 * of all files in order (tag lines "X: value" and other non-blank,
 * non-comment lines), and the sections, each a maximal run of tag lines
 * named by the retained line before it.
 *
 * Threads: once gm_maintainers_parse() returns, nothing changes the model
 * until gm_maintainers_free(); any number of threads may read it at once
 * (and match it, each with its own struct gm_match_ctx).
 */
struct gm_mline {
	char tag;		/* 'A'..'Z', or 0 for a non-tag line */
	uint32_t pattern;	/* F:/X: index in globs; N:/K: in regexes */
	const char *value;	/* tag value (or whole line), NUL-terminated */
	size_t len;		/* strlen(value) */
	const struct gm_glob *glob;	/* F:, X: */
	const struct gm_regex *regex;	/* N:, K: */
	uint32_t file;		/* which of the texts parsed, from 0 */
	uint32_t lineno;	/* its line number in that text, from 1 */
};

struct gm_section {
	size_t start;		/* index of the name line */
	size_t end;		/* index after the last tag line */
	const char *name;	/* the name line, verbatim */
	char *own_name;		/* the name, when it had to be built */
	const char *short_name;	/* the name as roles show it */
	char *own_short_name;	/* it, when it had to be shortened */
	const char *status;	/* value of the last S:, NULL without one */
	int maintained;		/* an S: says maintain/support */
	int has_maintainer;	/* at least one M: */
};

struct gm_maintainers {
	struct gm_mline *lines;		/* retained lines */
	size_t nr_lines;
	struct gm_section *sections;	/* in file order */
	size_t nr_sections;
	size_t *section_of;		/* line index -> section index, or SIZE_MAX */
	struct gm_glob *globs;		/* the F:/X: patterns, in line order */
	struct gm_regex *regexes;	/* the N:/K: patterns, in line order */
	size_t nr_globs, nr_regexes;
	char **texts;			/* owned copies of the files */
	size_t nr_texts;
	char **names;			/* their paths, for messages, or NULL */
};

/**
 * Parse `n` MAINTAINERS texts, concatenated in order, into a model.
 * Nothing in them is fatal: every line is either a tag line or not.
 * The directory test of R-12 is the matcher's (gm_match_ctx_new()). On
 * success `*out` belongs to the caller.
 * @return 0 or GM_ERROR (out of memory).
 */
int gm_maintainers_parse(struct gm_maintainers **out, const char *const *bufs,
			 const size_t *lens, size_t n);

/**
 * Xen's F:/X: brace groups: each glob whose value has "{a,b,...}" (not
 * first, not after a '\\') is matched as "(a|b|...)", a regex group;
 * the lines' values stay as written. Call before any matcher is made
 * from `m`, while no other thread reads it.
 * @return 0 or GM_ERROR (out of memory).
 */
int gm_maintainers_braces(struct gm_maintainers *m);

/* What gm_maintainers_stars() finds. */
enum { GM_STARS_FILES = 1, GM_STARS_DIRS = 2 };

/**
 * The catch-all F: lines among lines [from, to) of `m`: GM_STARS_FILES
 * for an F: of a lone star, GM_STARS_DIRS for one of a star and a slash,
 * both or'd, 0 for neither. A section with either is a catch-all to the
 * approvals of --check and to the ranking; --unowned asks for both.
 */
unsigned gm_maintainers_stars(const struct gm_maintainers *m, size_t from,
			      size_t to);

/**
 * Name the `n` texts parsed (their paths in the tree, copied), for
 * messages that point at a line ("drivers/MAINTAINERS:12:").
 * @return 0 or GM_ERROR (out of memory: then no text is named).
 */
int gm_maintainers_set_names(struct gm_maintainers *m,
			     const char *const *names, size_t n);

/** Free the model. NULL is a no-op. */
void gm_maintainers_free(struct gm_maintainers *m);

#endif /* GM_MAINTAINERS_H */
