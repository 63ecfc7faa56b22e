#ifndef GM_TREESCRIPT_H
#define GM_TREESCRIPT_H

#include <stddef.h>

#include "gm/options.h"
#include "gm/strvec.h"

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
 * history switches (--git, --git-blame, --tree) stay the tool's own;
 * --git-fallback follows the script (gm_treescript_fork()).
 *
 * A copy of Linux's own script (its chief penguin is Linus, and it checks
 * for a kernel tree by its Kbuild) later than 6.1 also turns on, each
 * found by a line of its change, --keyword-roles (":Keyword:" roles,
 * 6.12), --unicode-file-emails (names of \p{L} letters, 6.7) and
 * --maintainer-roles (no S:-derived role names, 2025).
 *
 * Every function here may run in any thread, on options of their own.
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

/*
 * Which get_maintainer.pl it is, read from its text:
 * - Xen: `my $V = '...-xen';` (0.26-xen, a fork of Linux's 0.26 of 2014);
 * - u-boot: its top-of-tree test says "a U-Boot source tree";
 * - Linux: `my $V = '...'` and Linus Torvalds as chief penguin; after 6.1
 *   when its GetOptions has 'substatus!' or keywords-in-file;
 * - anything else: unknown, which is taken as 6.1.
 */
enum gm_ts_family {
	GM_TS_NONE = 0,	/* no script in the tree */
	GM_TS_LINUX61,
	GM_TS_LINUX,
	GM_TS_UBOOT,
	GM_TS_XEN,
	GM_TS_UNKNOWN
};

/** The family's name for messages ("u-boot", "Xen", ...). */
const char *gm_treescript_family_name(enum gm_ts_family f);

/**
 * The family of the script `text` (`len` bytes); `*line` gets the line
 * that told (0 when unknown).
 */
enum gm_ts_family gm_treescript_family(const char *text, size_t len,
				       size_t *line);

/**
 * The script's chief penguins, each `push(@penguin_chief, "Name:addr");`
 * line at column 0 (Perl's `\@` undone), appended to `out` as
 * "Name:addr"; `*first_line` gets the first one's line.
 * @return how many, or GM_ERROR.
 */
int gm_treescript_penguins(struct gm_strvec *out, const char *text,
			   size_t len, size_t *first_line);

/**
 * What the script `text` (found at `path`, for the notes) does apart
 * from gm_treescript_apply()'s option defaults, set in `opts`:
 * - --git-fallback: the script's default, even where it is 6.1's (the
 *   tool alone, without a script, keeps it off); a script without the
 *   option: off;
 * - its chief penguins (opts->penguins), when it names any;
 * - Xen: --drop-the-rest-supporter, --brace-patterns, --no-reviewer-section,
 *   --section-name-max=20, --named-lists, --no-patch-dev-null,
 *   --no-git-author-roles, --no-tracked-paths and --no-fixes (its
 *   script has no Fixes: step).
 * --rolestats is read for the notes only: the layout stays the tool's.
 * When `notes` is not NULL, one line per setting taken, "PATH:LINE:
 * what", is appended to it, for --verbose.
 * @return the family (enum gm_ts_family), or GM_ERROR.
 */
int gm_treescript_fork(struct gm_options *opts, const char *text, size_t len,
		       const char *path, struct gm_strvec *notes);

#endif /* GM_TREESCRIPT_H */
