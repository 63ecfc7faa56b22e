#ifndef GM_TREESCRIPT_H
#define GM_TREESCRIPT_H

#include <stddef.h>

#include "gm/options.h"
#include "gm/repo.h"

/*
 * The defaults of the get_maintainer.pl the tree ships. Linux 6.1's
 * script is the reference; a later copy of it (or a fork's) may start an
 * option elsewhere: Linux's `--keywords-in-file` (off, where 6.1 always
 * matched K: against the contents of -f files) and `--substatus` (on
 * when standard output is a terminal). The tool takes such a default
 * from the copy at the commit being examined, below git config, the
 * conf file and the command line.
 *
 * The script is read as text, never run: an option's default is the
 * initialiser of the variable its GetOptions entry binds, the last
 * top-level `my $var = VALUE;` line before the GetOptions call, where
 * VALUE is a decimal integer or `undef`. Anything else (no such option,
 * no such line, an expression) leaves 6.1's default in place, so no text
 * can make a run fail. Only options that choose recipients or add
 * information lines are followed; layout (--multiline, --roles,
 * --rolestats, --separator), modes (--sections, --letters, -f) and the
 * history switches (--git, --git-fallback, --git-blame, --tree) stay the
 * tool's own.
 *
 * A copy of Linux's own script (its chief penguin is Linus, and it checks
 * for a kernel tree by its Kbuild) later than 6.1 also turns on, each
 * found by a line of its change, --keyword-roles (":Keyword:" roles,
 * 6.12), --unicode-file-emails (names of \p{L} letters, 6.7) and
 * --maintainer-roles (no S:-derived role names, 2025).
 *
 * Both functions may run in any thread, on options of their own.
 */

/* Where the script is, relative to the top of the tree. */
#define GM_TREESCRIPT_PATH "scripts/get_maintainer.pl"

/**
 * Set in `opts` every default that the script `text` (`len` bytes, no
 * terminating NUL needed) gives differently from 6.1. `--substatus`
 * declared `undef` sets `opts->substatus` to -1: decided by
 * gm_options_finish() as that script decides it.
 * @return the number of options changed.
 */
int gm_treescript_apply(struct gm_options *opts, const char *text,
			size_t len);

/**
 * gm_treescript_apply() with the blob at GM_TREESCRIPT_PATH in the tree
 * of `r`'s commit (never the work tree's copy). No script, one that is
 * no regular file, or one that cannot be read leaves `opts` as it is.
 * @return the number of options changed (0 or more); never an error.
 */
int gm_treescript_load(struct gm_options *opts, struct gm_repo *r);

#endif /* GM_TREESCRIPT_H */
