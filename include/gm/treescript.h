#ifndef GM_TREESCRIPT_H
#define GM_TREESCRIPT_H

#include <stdbool.h>
#include <stddef.h>

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
 * --git-fallback follows the script (gm_treescript_read()).
 *
 * A copy of Linux's own script (its chief penguin is Linus, and it checks
 * for a kernel tree by its Kbuild) later than 6.1 also turns on, each
 * found by a line of its change, --keyword-roles (":Keyword:" roles,
 * 6.12), --unicode-file-emails (names of \p{L} letters, 6.7) and
 * --maintainer-roles (no S:-derived role names, 2025).
 *
 * Every function here may run in any thread, on a struct of its own.
 */

/* Where the script is, relative to the top of the tree. */
#define GM_TREESCRIPT_PATH "scripts/get_maintainer.pl"

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

/*
 * One setting the script gives: an option of the tool (its long name, as
 * gm_options_parse() reads it), to what, and where. First come the
 * behaviours of later Linux scripts, then the defaults the script starts
 * elsewhere than 6.1 (the initialiser of the variable its GetOptions
 * entry binds), then what a fork does.
 */
struct gm_ts_setting {
	const char *option;	/* "git-fallback", "s", ... */
	int value;	/* a switch 0 or 1, a number, or -1 (--substatus) */
	size_t line;	/* the line that tells, 0 when none does */
};

/* More than the options a script can set. */
#define GM_TS_SETTINGS_MAX 48

/*
 * What the tree's script says, as gm_treescript_read() found it. The
 * caller applies it at its place in the order of precedence.
 */
struct gm_treescript {
	enum gm_ts_family family;
	size_t family_line;	/* the line that told, 0 when unknown */
	struct gm_ts_setting settings[GM_TS_SETTINGS_MAX];	/* each once */
	size_t nr_settings;
	struct gm_strvec penguins;	/* "Name:addr"; none: 6.1's */
	size_t penguins_line;	/* the first one's */
	struct gm_strvec notes;	/* "PATH:LINE: what", for --verbose */
};

#define GM_TREESCRIPT_INIT { GM_TS_NONE, 0, { { NULL, 0, 0 } }, 0, \
			     GM_STRVEC_INIT, 0, GM_STRVEC_INIT }

/**
 * Read the script `text` (`len` bytes, no terminating NUL needed; found
 * at `path`, which only the notes name) into `out`, which must be
 * GM_TREESCRIPT_INIT or released; free it with gm_treescript_release().
 * Set in `out->settings`:
 * - every option default the script gives differently from 6.1;
 *   `--substatus` declared `undef` is -1: decided by gm_options_finish()
 *   as that script decides it;
 * - a later Linux script's behaviours, each found by a line of its
 *   change;
 * - --git-fallback: the script's default, even where it is 6.1's (the
 *   tool alone, without a script, keeps it off); a script without the
 *   option: off;
 * - --git-fallback-maintainers: on where the fallback condition lacks
 *   6.1's `$file !~ /MAINTAINERS$/`;
 * - Xen: --drop-the-rest-supporter, --brace-patterns, --no-reviewer-section,
 *   --section-name-max=20, --named-lists, --no-patch-dev-null,
 *   --no-git-author-roles, --no-tracked-paths and --no-fixes (its
 *   script has no Fixes: step).
 * Its chief penguins go to `out->penguins`, when it names any. --rolestats
 * is read for the notes only: the layout stays the tool's. One note per
 * setting taken, "PATH:LINE: what", goes to `out->notes` (one that cannot
 * be stored is only lost).
 * @return the family (enum gm_ts_family), or GM_ERROR (out of memory:
 * what was read before stays in `out`, the penguins are none).
 */
int gm_treescript_read(struct gm_treescript *out, const char *text,
		       size_t len, const char *path);

/** Free what gm_treescript_read() stored; `ts` may be NULL. */
void gm_treescript_release(struct gm_treescript *ts);

#endif /* GM_TREESCRIPT_H */
