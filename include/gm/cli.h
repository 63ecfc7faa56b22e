#ifndef GM_CLI_H
#define GM_CLI_H

#include "gm/prefetch.h"
#include "gm/repo.h"

/**
 * Run `git maintainer` with `argv` (argv[0] is the program name) and
 * return the process exit status: 0 on success, 128 on a fatal error,
 * 129 on a usage error (and for -h). Prints results on stdout only when
 * everything succeeded, diagnostics on stderr. `loc` is where
 * gm_repo_locate() found the repository (NULL if it could not be
 * looked for); `prefetch` (may be NULL) is what gm_prefetch_start()
 * began. Both stay the caller's.
 */
int gm_cli_run(int argc, const char **argv,
	       const struct gm_repo_location *loc, struct gm_prefetch *prefetch);

#endif /* GM_CLI_H */
