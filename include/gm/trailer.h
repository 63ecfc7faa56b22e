#ifndef GM_TRAILER_H
#define GM_TRAILER_H

#include <stdbool.h>
#include <stddef.h>

#include "gm/buf.h"

/*
 * The "*-by:" lines of commit messages, under the two rules that count
 * them:
 *
 * - the history walk's one-liner (gm_trailer_parse()),
 *       git log -- PATHS | grep -i '^    [-a-z]*by:.*@'
 *   any message line (the subject included) that starts with letters and
 *   dashes ending in "by", a colon, and an '@' somewhere after it;
 *
 * - get_maintainer.pl's signatures, used for Fixes: commits
 *   and its --git mode: the lines of `git log` output as the script
 *   splits them (gm_trailer_next_line()), those gm_trailer_is_signature()
 *   takes, each person cut out by gm_trailer_signature_value().
 *
 * Lines are given as a pointer and a length, without their '\n'; results
 * point into them. Threads: every function here may run at the same time
 * as any other (none has state).
 */
struct gm_trailer {
	const char *key;	/* "Signed-off-by", as written */
	size_t key_len;
	const char *value;	/* after the colon, blanks trimmed */
	size_t value_len;
};

/**
 * Whether the message line `line` (`len` bytes, no newline) is one the
 * one-liner counts; if so, fill `t`, which points into `line`.
 */
bool gm_trailer_parse(struct gm_trailer *t, const char *line, size_t len);

/**
 * The canonical spelling of a key: first letter upper case, the rest lower
 * case ("signed-OFF-by" -> "Signed-off-by"). `out` is overwritten.
 * @return 0 or GM_ERROR.
 */
int gm_trailer_canonical_key(struct gm_buf *out, const char *key, size_t len);

/**
 * The next line of `git log` output as get_maintainer.pl reads it (R-72:
 * every match of ^\s* removed in multi-line mode, then split at '\n'):
 * the white space (Perl's \s, see gm_email_isspace()) at the start of
 * every line is removed, so blank lines vanish; white space at the end,
 * a CR included, stays.
 * Reads from `*pos` up to `end` and moves `*pos` past the line.
 * @return false when no line is left; else true, with `*line`/`*len` the
 * line (non-empty, no '\n', pointing into the text).
 */
bool gm_trailer_next_line(const char **pos, const char *end,
			  const char **line, size_t *len);

/**
 * Whether `line` is a signature line of R-73:
 * - by default `^[ \t]*(Signed-off-by:|Reviewed-by:|Acked-by:).*@.*$`,
 *   the tags case-sensitive;
 * - with `all_types` (--git-all-signature-types)
 *   `^[ \t]*(.+?)[Bb][Yy]:.*@.*$`: "by:" in either case after at least
 *   one byte (a blank counts), then an '@' after it ("Reported-by:",
 *   "Co-developed-by:", "Stand-by: a@b", but not "by: a@b").
 */
bool gm_trailer_is_signature(const char *line, size_t len, bool all_types);

/**
 * The person of a signature line, cut as R-73 does
 * (`s/\s*.*:\s*(.+)\s*\/$1/`): what follows the LAST ':' that has
 * something after it, white space after that ':' skipped (Q-21:
 * "Signed-off-by: A <a@b> # v5: x" gives "x"). White space at the end is
 * kept; if only white space follows that ':', the value is its last byte.
 * A line with no ':' before its last byte is its own value.
 * `*value`/`*value_len` point into `line`.
 */
void gm_trailer_signature_value(const char *line, size_t len,
				const char **value, size_t *value_len);

#endif /* GM_TRAILER_H */
