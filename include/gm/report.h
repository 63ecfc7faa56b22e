#ifndef GM_REPORT_H
#define GM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "gm/maintainers.h"
#include "gm/repo.h"
#include "gm/strvec.h"

/*
 * --report: one self-contained HTML page about MAINTAINERS for the people
 * who keep it (no network, no file besides itself): every section with
 * its status and people and their activity in the window (as --activity
 * counts it; orphans, then sections whose people were all inactive,
 * first), the unowned files summed by directory (gm_unowned_dirs()), the
 * offline findings of --self-test (sections, patterns, addresses), and a
 * summary line. Every string from the repository is HTML-escaped, paths
 * quoted as git quotes them first. The inline script sorts and filters
 * the tables; with the URL fragment "#selftest=WORD" it sorts the
 * sections by commits, filters them by WORD and marks the body
 * data-selftest="done" (for tests); it shows script errors in #errors.
 */

/* What --report takes from the command line. */
struct gm_report_settings {
	const char *since;		/* --since; NULL: 12.months.ago */
	const char *until;		/* --until; NULL: no limit */
	int pattern_depth;		/* --pattern-depth, 0: no limit */
	bool mailmap;			/* --mailmap */
	const char *mpath;		/* --mpath, for the self-test */
	bool find;			/* --find-maintainer-files */
};

/**
 * Write the page for `r`'s tree and `m` to `out`; warnings (a shallow
 * history, unreadable objects) are appended to `warnings`.
 * @return 0, GM_EUSAGE for a date that does not parse, or GM_ERROR.
 */
int gm_report_run(FILE *out, struct gm_strvec *warnings, struct gm_repo *r,
		  const struct gm_maintainers *m,
		  const struct gm_report_settings *s);

#endif /* GM_REPORT_H */
