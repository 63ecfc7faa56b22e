#ifndef GM_CLI_H
#define GM_CLI_H

/**
 * Run `git maintainer` with `argv` (argv[0] is the program name) and
 * return the process exit status: 0 on success, 128 on a fatal error,
 * 129 on a usage error (and for -h). Prints results on stdout only when
 * everything succeeded, diagnostics on stderr.
 */
int gm_cli_run(int argc, const char **argv);

#endif /* GM_CLI_H */
