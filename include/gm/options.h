#ifndef GM_OPTIONS_H
#define GM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "gm/strvec.h"

/*
 * Everything the command line can say. Field names follow the long option
 * names of get_maintainer.pl; the defaults are set by gm_options_init().
 */
struct gm_options {
	/* what to collect */
	int email;		/* --email: people at all */
	int maintainers;	/* -m: M: entries */
	int reviewers;		/* -r: R: entries */
	int usename;		/* -n: names in addresses */
	int lists;		/* -l: open (and moderated) lists */
	int subscriber_lists;	/* -s: subscribers-only lists */
	int moderated;		/* --moderated */
	int keywords;		/* -k: K: sections */
	int keywords_in_file;	/* --kf: K: against -f file contents */
	int file_emails;	/* --fe: addresses found in the files */
	int remove_duplicates;	/* --remove-duplicates */
	int mailmap;		/* --mailmap: apply the tree's .mailmap */
	int fixes;		/* --fixes: signers of Fixes: commits */

	/* what a fork of the script does otherwise (treescript.h) */
	int drop_rest_supporter;	/* --drop-the-rest-supporter */
	int brace_patterns;	/* --brace-patterns: F: a/{b,c}.c */
	int reviewer_section;	/* --reviewer-section: "reviewer:NAME" */
	int section_name_max;	/* --section-name-max: role names cut */
	int named_lists;	/* --named-lists: L: as "Name <addr>" */
	int patch_dev_null;	/* --patch-dev-null: /dev/null a file */
	int git_author_roles;	/* --git-author-roles: authored, lines */
	int tracked_paths;	/* --tracked-paths: a tracked file is -f */
	struct gm_strvec penguins;	/* "Name:addr"; none: Linux's */
	/* behaviours of later Linux scripts (6.1's when 0) */
	int maintainer_roles;	/* every M: is "maintainer:" but THE REST's */
	int keyword_roles;	/* ":Keyword:<K>" after a K: section's roles */
	int unicode_file_emails;	/* --fe names read as UTF-8, cleaned as 6.7 */

	/* history (read, validated; the walk itself is not in the core) */
	int git;
	int git_fallback;
	int git_fallback_maintainers;	/* the fallback for *MAINTAINERS too */
	int git_blame;
	int git_blame_signatures;
	int git_all_signature_types;
	int git_chief_penguins;
	int git_min_signatures;
	int git_max_maintainers;
	int git_min_percent;
	char *git_since;
	char *hg_since;

	/* the history walk */
	int history;		/* --history */
	char *since;		/* --since, NULL for six months ago */
	char *until;		/* --until, NULL for no limit */
	int max_recipients;	/* --max-recipients: --history's people; -1
				   as many as the sections give, 0 all */

	/* whole-tree modes: the arguments are paths */
	int unowned;		/* --unowned: files no maintainer claims */
	int activity;		/* --activity: commits per section, person */
	char *report;		/* --report[=FILE]: "" for stdout, NULL none */

	/* --check: the arguments are patches (or commits) to judge */
	char *check;		/* "recipients" or "approvals"; NULL: off */
	int check_reviewers;	/* --check-reviewers: R: as required as M: */
	int check_history;	/* --check-history: history people required */

	/* output */
	char *format;		/* --format: "text" (NULL) or "json" */
	int to;			/* --to: maintainers and lists only */
	int cc;			/* --cc: everybody else only */
	int headers;		/* --headers: To: and Cc: header lines */
	int multiline;
	char *separator;
	int roles;
	int rolestats;
	int scm, status, subsystem, web, bug;
	int substatus;		/* -1: email && roles && stdout is a tty */
	int sections;
	char *letters;
	int pattern_depth;

	/* inputs */
	int from_filename;	/* -f */
	int find_maintainer_files;
	char *maintainer_path;	/* --mpath, NULL for MAINTAINERS */
	char *rev;		/* --rev, NULL for HEAD */
	char *series;		/* --series: a format-patch directory */
	int tree;		/* --tree: require a kernel tree */
	char *self_test;	/* --self-test[=checks]: "" bare, NULL absent */
	int links_insecure;	/* --links-insecure: any TLS certificate */
	struct gm_strvec args;	/* non-option arguments, in order */
	int batch;		/* --batch: paths on stdin */
	int nul;		/* -z: NUL-terminated paths and records */
	int jobs;		/* --jobs: --batch threads, 0 for one per CPU */

	int verbose;		/* --verbose: where the defaults came from */
	int progress;		/* --progress: 1, --no-progress: 0, else -1 */

	int help;		/* 1 for --help, 2 for -h */
	int version;
};

/** Set every option to its default. Free with gm_options_release(). */
void gm_options_init(struct gm_options *opts);
void gm_options_release(struct gm_options *opts);

/**
 * Parse `argv[0..argc)` (the program name excluded) into `opts`, with
 * get_maintainer.pl's syntax: `-x` and `--x` alike, case-insensitive names,
 * no abbreviations, `--opt=value` or `--opt value`, `--noX`/`--no-X` for
 * negatable options, options and arguments mixed, `--` ending options.
 * May be called several times (config words first, then argv): later
 * values win and arguments accumulate.
 *
 * @return 0, or GM_EUSAGE with a message for an unknown option, a missing
 * or malformed value, or an option this program does not implement.
 */
int gm_options_parse(struct gm_options *opts, int argc, const char **argv);

/**
 * Apply the settings derived from others and validate the combination
 * (get_maintainer.pl's rules: --separator turns multiline off, --rolestats
 * implies --roles, a substatus of -1 becomes email && roles && standard
 * output is a terminal, --sections turns the other outputs off, at least
 * one output must be selected). @return 0 or GM_EUSAGE.
 */
int gm_options_finish(struct gm_options *opts);

/**
 * Set the switch or number option `name` (a long name as
 * gm_options_parse() reads it, without dashes) to `value`.
 * @return whether a field changed (false for an unknown name).
 */
bool gm_options_set(struct gm_options *opts, const char *name, int value);

/* One option of the command line, as the parser knows it. */
struct gm_option_info {
	const char *name;	/* without dashes: "git-since", "f" */
	bool negatable;		/* --no-<name> and --no<name> exist */
	bool takes_value;	/* --<name>=<v> or --<name> <v> */
	bool optional_value;	/* --<name> alone, or --<name>=<v> */
	bool supported;		/* false: known to get_maintainer.pl only */
};

/**
 * The `i`-th option of the parser's table (alphabetical), into `*out`.
 * For generated lists (the bash completion) and their tests.
 * @return false once `i` is past the end.
 */
bool gm_options_at(size_t i, struct gm_option_info *out);

/** Write the usage text, for -h and usage errors, to `f`. */
void gm_options_usage_write(FILE *f);

#endif /* GM_OPTIONS_H */
