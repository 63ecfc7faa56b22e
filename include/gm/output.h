#ifndef GM_OUTPUT_H
#define GM_OUTPUT_H

#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

#include "gm/buf.h"

#include "gm/history.h"
#include "gm/maintainers.h"
#include "gm/match.h"
#include "gm/rank.h"
#include "gm/signers.h"

/* What the text output takes from the command line. */
struct gm_output_settings {
	bool email;		/* --email: the people */
	bool lists;		/* -l: the lists */
	bool roles;		/* each address with its role in brackets */
	bool to;		/* --to: maintainers and lists only, */
	bool cc;		/* --cc: everybody else only; both: all */
	bool headers;		/* --headers: To: and Cc: lines instead */
	bool multiline;		/* one item a line, else joined by: */
	const char *separator;	/* --separator, never NULL */
	bool scm, substatus, status, subsystem, web, bug;	/* the groups */
};

/**
 * Print the groups of R-84 that `s` asks for, in order: people and lists
 * (identical strings merged, R-82), then scm, substatus, status,
 * subsystem, web, bug, one item per line or joined by the separator
 * with s->headers, only the To: and Cc: lines (their roles too,
 * if s->roles: the command line turns roles off for headers).
 * @return 0, or GM_ERROR if writing failed.
 */
int gm_output_write(FILE *f, const struct gm_rank *rk,
		    const struct gm_output_settings *s);

/**
 * Print, for `--sections`, every section matched by file `i` of `mt` with
 * its tag lines, F:/X: turned back into globs. Their values come
 * through `ctx`, the context the files were matched with (match.h: one
 * thread at a time), which knows their directory answers.
 * @return 0, or GM_ERROR if writing failed.
 */
int gm_output_sections(FILE *f, const struct gm_maintainers *m,
		       struct gm_match_ctx *ctx, const struct gm_match_file *mf,
		       const char *letters);

/* What the JSON document describes; everything is borrowed. */
struct gm_output_report {
	const char *rev;			/* the commit's id */
	const struct gm_strvec *files;
	struct gm_maintainers *m;
	const struct gm_matches *matches;
	const struct gm_rank *rank;
	const struct gm_history *history;	/* NULL without --history */
	int64_t since;				/* the window, with history */
	int64_t until;				/* INT64_MAX for none */
	const struct gm_signers_report *git;	/* NULL without --git */
};

/**
 * Print the whole result as one JSON document (schema in the README).
 * @return 0, or GM_ERROR if writing failed.
 */
int gm_output_json(FILE *f, const struct gm_output_report *r);

/** Write `s` as a JSON string (quoted, escaped) to `f`. */
void gm_output_json_put(FILE *f, const char *s);

/**
 * One --batch answer, appended to `out`: each line of `text[0..len)` (an
 * answer as gm_output_write() prints it) as "path<TAB>line", ended by NUL
 * with `nul`, else by a newline. @return 0 or GM_ERROR.
 */
int gm_output_batch_text(struct gm_buf *out, const char *path,
			 const char *text, size_t len, bool nul);

/**
 * One --batch answer in JSON, appended to `out`: the document
 * `doc[0..len)` (as gm_output_json() prints it) on one line, with
 * "input": `path` first. @return 0 or GM_ERROR.
 */
int gm_output_batch_json(struct gm_buf *out, const char *path,
			 const char *doc, size_t len);

/**
 * A message line: `prefix`, then `msg` with control characters shown as
 * \xHH, then a newline, on `f` (stderr).
 */
void gm_output_message(FILE *f, const char *prefix, const char *msg);

#endif /* GM_OUTPUT_H */
