#ifndef GM_SELFTEST_H
#define GM_SELFTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "gm/mailmap.h"
#include "gm/net.h"
#include "gm/pattern.h"
#include "gm/repo.h"
#include "gm/strvec.h"

/*
 * --self-test: checks of the MAINTAINERS files themselves. Every
 * finding is one line on the output,
 *
 *	<file>:<line>: warning: <message>\t<the line as written>
 *
 * in the order of the lines, all files' lines taken as one sequence.
 * The checks of get_maintainer.pl (sections, patterns, links, scm) print
 * its messages; addresses and order are this program's own.
 */

enum gm_selftest_check {
	GM_SELFTEST_SECTIONS = 1 << 0,	/* headers: duplicate, S:, F:, M: */
	GM_SELFTEST_PATTERNS = 1 << 1,	/* F:/X: that match no file */
	GM_SELFTEST_LINKS = 1 << 2,	/* W:/Q:/B: that do not answer */
	GM_SELFTEST_SCM = 1 << 3,	/* T: malformed or not reachable */
	GM_SELFTEST_ADDRESSES = 1 << 4,	/* M:/R:/L: addresses */
	GM_SELFTEST_ORDER = 1 << 5	/* sections out of alphabetical order */
};

/* What a bare --self-test runs: the script's four. */
#define GM_SELFTEST_SCRIPT                                          \
	(GM_SELFTEST_SECTIONS | GM_SELFTEST_PATTERNS | GM_SELFTEST_LINKS | \
	 GM_SELFTEST_SCM)

/* The reachability checks' default limit per link, as the script's wget. */
#define GM_SELFTEST_TIMEOUT_MS 10000

/* Everything the checks read. */
struct gm_selftest_input {
	struct gm_repo_file *files;	/* in the order they are read; each
					   path as the warnings name it */
	size_t nr_files;
	struct gm_strvec paths;		/* the tree's files, sorted, as
					   `git ls-files` prints them */
	gm_pattern_isdir_fn isdir;	/* the directory test of F:/X: */
	void *isdir_payload;
	struct gm_mailmap *mailmap;	/* the tree's .mailmap, or NULL */
	struct gm_net_options net;	/* the links' checks; `parallel` of
					   them at once */
};

#define GM_SELFTEST_INPUT_INIT \
	{ NULL, 0, GM_STRVEC_INIT, NULL, NULL, NULL, \
	  { GM_SELFTEST_TIMEOUT_MS, 8, false, NULL } }

/**
 * The checks `words` names (the value of --self-test=): words made of
 * letters, digits and '_', separated by anything else; none at all means
 * GM_SELFTEST_SCRIPT. @return 0, or GM_EUSAGE for an unknown word.
 */
int gm_selftest_parse_checks(unsigned *out, const char *words);

/**
 * Read into the empty `in` what `checks` need from `r`'s tree: the
 * MAINTAINERS files that `mpath` (NULL for MAINTAINERS) and `find`
 * (--find-maintainer-files) select, as the regular mode reads them
 * named as get_maintainer.pl names them ("./MAINTAINERS"; else
 * `mpath` as given, a directory's files below it); for the patterns
 * check every file of the tree; for the addresses check the .mailmap if
 * `mailmap`. The directory test is `r`'s, so `r` must outlive `in`.
 * @return 0, GM_ENOTFOUND (no such MAINTAINERS, none in the directory),
 * or GM_ERROR.
 */
int gm_selftest_load(struct gm_selftest_input *in, struct gm_repo *r,
		     unsigned checks, const char *mpath, bool find,
		     bool mailmap);

/** Free what `in` holds; it is empty and reusable afterwards. */
void gm_selftest_release(struct gm_selftest_input *in);

/**
 * Run `checks` on `in` and print the warnings to `out`; notes about links
 * that cannot be checked here go to `err` (may be NULL). `*nr` gets the
 * number of warnings printed. The links and scm checks run
 * `in->net.parallel` at a time (the HTTP ones on libcurl in the caller's
 * thread, the git ones on threads), each within `in->net.timeout_ms`.
 * When no link reaches
 * its server (names that do not resolve, no connection), one line
 * "warning: network unreachable: links not checked (<reason>)" goes to
 * `err` instead of a warning per link, and those links count as none;
 * when the first names do not resolve (gm_net_offline()) no link is
 * tried. `in->net.progress` counts the links checked out of all.
 * @return 0 or GM_ERROR (out of memory, a write error).
 */
int gm_selftest_run(const struct gm_selftest_input *in, unsigned checks,
		    FILE *out, FILE *err, size_t *nr);

#endif /* GM_SELFTEST_H */
