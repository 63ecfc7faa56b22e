#ifndef GM_CONFIG_H
#define GM_CONFIG_H

#include "gm/buf.h"
#include "gm/options.h"
#include "gm/repo.h"
#include "gm/treescript.h"

/*
 * Where a run's options come from, lowest first: the built-in defaults
 * (6.1's), those of the tree's scripts/get_maintainer.pl where it starts
 * an option elsewhere (treescript.h), git config (maintainer.*), the
 * words of .get_maintainer.conf, the command line.
 */

/**
 * Read the file `name` from the first of the places R-01 names: the top
 * of the tree, $HOME, the tree's .scripts/. Appended to `out`.
 * @return 0, 1 if there is none (or it is no regular file), or an error.
 */
int gm_config_read_file(struct gm_repo *r, const char *name,
			struct gm_buf *out);

/**
 * The words of a .get_maintainer.conf text, appended to `out`: split at
 * blanks, a word starting with '#' ends its line.
 * @return 0 or GM_ERROR.
 */
int gm_config_words(struct gm_strvec *out, const char *text);

/**
 * Set in `opts` what the tree's script `ts` gives (gm_treescript_read()):
 * each setting it gives, and its chief penguins when it names any.
 * @return the number of options whose value it changed.
 */
int gm_config_treescript_apply(struct gm_options *opts,
			       const struct gm_treescript *ts);

/**
 * gm_treescript_read() on the script at GM_TREESCRIPT_PATH, or at the
 * path git config maintainer.script names, in the tree of `r`'s commit
 * (never the work tree's copy), applied to `opts` by
 * gm_config_treescript_apply(); a maintainer.script path not in that tree
 * is read as a file (a leading `~/` or `~user/` expanded as `git config
 * --path` does; opened without waiting: a FIFO or device is refused).
 * No script, or one that cannot be read or is larger than 4 MiB, leaves
 * `opts` as it is; a configured one, or one too large, says so in a
 * warning on stderr. The script's notes (or the one that says there is
 * none) are appended to `notes` when it is not NULL, for --verbose.
 * @return the number of options changed (0 or more); never an error.
 */
int gm_config_treescript(struct gm_options *opts, struct gm_repo *r,
			 struct gm_strvec *notes);

/**
 * Fill `opts` (released and made anew) for the `argc` words `argv`, as
 * the run sees them: defaults, the tree script's, git config, the conf
 * file's words, argv; then gm_options_finish().
 * @return 0, GM_EUSAGE (with a message), or another error.
 */
int gm_config_load(struct gm_options *opts, struct gm_repo *r, int argc,
		   const char **argv);

#endif /* GM_CONFIG_H */
