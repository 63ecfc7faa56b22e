#ifndef GM_OUTPUT_H
#define GM_OUTPUT_H

#include <stdio.h>

#include "gm/maintainers.h"
#include "gm/match.h"
#include "gm/options.h"
#include "gm/rank.h"

/**
 * Print the groups of R-84 in order: people and lists (identical strings
 * merged, R-82), then scm, substatus, status, subsystem, web, bug, each
 * when asked for, one item per line or joined by the separator.
 * @return 0, or GM_ERROR if writing failed.
 */
int gm_output_write(FILE *f, const struct gm_rank *rk,
		    const struct gm_options *o);

/**
 * Print, for `--sections`, every section matched by file `i` of `mt` with
 * its tag lines, F:/X: turned back into globs.
 * @return 0, or GM_ERROR if writing failed.
 */
int gm_output_sections(FILE *f, struct gm_maintainers *m,
		       const struct gm_match_file *mf, const char *letters);

#endif /* GM_OUTPUT_H */
