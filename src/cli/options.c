#include "gm/options.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "gm/error.h"

enum opt_kind {
	OPT_BOOL,	/* negatable: --x, --nox, --no-x */
	OPT_SET,	/* --x sets 1, no negation */
	OPT_INT,	/* --x=N or --x N */
	OPT_STRING,	/* --x=S or --x S */
	OPT_OPTSTRING,	/* --x (as "") or --x=S, never --x S */
	OPT_HELP,	/* -h / --help */
	OPT_UNSUPPORTED	/* known to get_maintainer.pl, not implemented */
};

struct opt_def {
	const char *name;
	enum opt_kind kind;
	size_t offset;	/* of the int or char * field in gm_options */
	int def;	/* an int field's default, if not 0 */
};

#define DEF(field, v) offsetof(struct gm_options, field), (v)
#define OFF(field) DEF(field, 0)

/*
 * Alphabetical, for the reader; looked up by a linear scan. Of aliases,
 * one holds the default.
 */
static const struct opt_def opt_table[] = {
	{ "activity", OPT_SET, OFF(activity) },
	{ "batch", OPT_SET, OFF(batch) },
	{ "brace-patterns", OPT_BOOL, OFF(brace_patterns) },
	{ "bug", OPT_BOOL, OFF(bug) },
	{ "cc", OPT_SET, OFF(cc) },
	{ "check", OPT_OPTSTRING, OFF(check) },
	{ "check-history", OPT_BOOL, OFF(check_history) },
	{ "check-reviewers", OPT_BOOL, OFF(check_reviewers) },
	{ "drop-the-rest-supporter", OPT_BOOL, OFF(drop_rest_supporter) },
	{ "drop_the_rest_supporter", OPT_BOOL, OFF(drop_rest_supporter) },
	{ "email", OPT_BOOL, DEF(email, 1) },
	{ "f", OPT_SET, OFF(from_filename) },
	{ "fe", OPT_BOOL, OFF(file_emails) },
	{ "file", OPT_SET, OFF(from_filename) },
	{ "file-emails", OPT_BOOL, OFF(file_emails) },
	{ "find-maintainer-files", OPT_SET, OFF(find_maintainer_files) },
	{ "fixes", OPT_BOOL, DEF(fixes, 1) },
	{ "format", OPT_STRING, OFF(format) },
	{ "git", OPT_BOOL, OFF(git) },
	{ "git-all-signature-types", OPT_BOOL, OFF(git_all_signature_types) },
	{ "git-author-roles", OPT_BOOL, DEF(git_author_roles, 1) },
	{ "git-blame", OPT_BOOL, OFF(git_blame) },
	{ "git-blame-signatures", OPT_BOOL, DEF(git_blame_signatures, 1) },
	{ "git-chief-penguins", OPT_BOOL, OFF(git_chief_penguins) },
	{ "git-fallback", OPT_BOOL, OFF(git_fallback) },
	{ "git-fallback-maintainers", OPT_BOOL, OFF(git_fallback_maintainers) },
	{ "git-max-maintainers", OPT_INT, DEF(git_max_maintainers, 5) },
	{ "git-min-percent", OPT_INT, DEF(git_min_percent, 5) },
	{ "git-min-signatures", OPT_INT, DEF(git_min_signatures, 1) },
	{ "git-since", OPT_STRING, OFF(git_since) },
	{ "h", OPT_HELP, 0, 0 },
	{ "headers", OPT_SET, OFF(headers) },
	{ "help", OPT_HELP, 0, 0 },
	{ "hg-since", OPT_STRING, OFF(hg_since) },
	{ "history", OPT_BOOL, OFF(history) },
	{ "i", OPT_UNSUPPORTED, 0, 0 },
	{ "interactive", OPT_UNSUPPORTED, 0, 0 },
	{ "jobs", OPT_INT, OFF(jobs) },
	{ "k", OPT_BOOL, DEF(keywords, 1) },
	{ "keyword-roles", OPT_BOOL, OFF(keyword_roles) },
	{ "keywords", OPT_BOOL, OFF(keywords) },
	{ "keywords-in-file", OPT_BOOL, DEF(keywords_in_file, 1) },
	{ "kf", OPT_BOOL, OFF(keywords_in_file) },
	{ "l", OPT_BOOL, DEF(lists, 1) },
	{ "letters", OPT_STRING, OFF(letters) },
	{ "links-insecure", OPT_BOOL, OFF(links_insecure) },
	{ "m", OPT_BOOL, DEF(maintainers, 1) },
	{ "mailmap", OPT_BOOL, DEF(mailmap, 1) },
	{ "maintainer-path", OPT_STRING, OFF(maintainer_path) },
	{ "maintainer-roles", OPT_BOOL, OFF(maintainer_roles) },
	{ "max-recipients", OPT_INT, DEF(max_recipients, -1) },
	{ "moderated", OPT_BOOL, DEF(moderated, 1) },
	{ "mpath", OPT_STRING, OFF(maintainer_path) },
	{ "multiline", OPT_BOOL, DEF(multiline, 1) },
	{ "n", OPT_BOOL, DEF(usename, 1) },
	{ "named-lists", OPT_BOOL, OFF(named_lists) },
	{ "patch-dev-null", OPT_BOOL, DEF(patch_dev_null, 1) },
	{ "pattern-depth", OPT_INT, OFF(pattern_depth) },
	{ "progress", OPT_BOOL, DEF(progress, -1) },
	{ "r", OPT_BOOL, DEF(reviewers, 1) },
	{ "remove-duplicates", OPT_BOOL, DEF(remove_duplicates, 1) },
	{ "rev", OPT_STRING, OFF(rev) },
	{ "report", OPT_OPTSTRING, OFF(report) },
	{ "reviewer-section", OPT_BOOL, DEF(reviewer_section, 1) },
	{ "roles", OPT_BOOL, OFF(roles) },
	{ "rolestats", OPT_BOOL, OFF(rolestats) },
	{ "s", OPT_BOOL, OFF(subscriber_lists) },
	{ "scm", OPT_BOOL, OFF(scm) },
	{ "section-name-max", OPT_INT, DEF(section_name_max, 50) },
	{ "sections", OPT_BOOL, OFF(sections) },
	{ "self-test", OPT_OPTSTRING, OFF(self_test) },
	{ "separator", OPT_STRING, OFF(separator) },
	{ "series", OPT_STRING, OFF(series) },
	{ "since", OPT_STRING, OFF(since) },
	{ "status", OPT_BOOL, OFF(status) },
	{ "substatus", OPT_BOOL, OFF(substatus) },
	{ "subsystem", OPT_BOOL, OFF(subsystem) },
	{ "to", OPT_SET, OFF(to) },
	{ "tracked-paths", OPT_BOOL, DEF(tracked_paths, 1) },
	{ "tree", OPT_BOOL, OFF(tree) },
	{ "unicode-file-emails", OPT_BOOL, OFF(unicode_file_emails) },
	{ "unowned", OPT_SET, OFF(unowned) },
	{ "until", OPT_STRING, OFF(until) },
	{ "usage", OPT_HELP, 0, 0 },
	{ "v", OPT_SET, OFF(version) },
	{ "verbose", OPT_BOOL, OFF(verbose) },
	{ "version", OPT_SET, OFF(version) },
	{ "web", OPT_BOOL, OFF(web) },
	{ "z", OPT_SET, OFF(nul) },
};

static const char *const usage_text[] = {
	"usage: git maintainer [<options>] [<patch>... | -f <path>...]\n",
	"\n",
	"Print who should receive a patch: the MAINTAINERS sections (read from\n",
	"the tree of HEAD, or of --rev) whose patterns cover its files.\n",
	"\n",
	"Inputs:\n",
	"    <patch>               a patch or mbox file; '-' or none reads stdin\n",
	"    -f, --file            the arguments are paths (files or directories)\n",
	"    --rev=<rev>           read MAINTAINERS and files from <rev>'s tree\n",
	"    --mpath=<path>        MAINTAINERS file or directory in the tree\n",
	"    --series=<dir>        the union of a format-patch series\n",
	"    --batch               paths on stdin, one per line, each answered as\n",
	"                          -f <path>, its lines prefixed by <path><TAB>\n",
	"    -z                    with --batch: NUL ends each path and record\n",
	"    --jobs=<n>            with --batch: answer on <n> threads (default:\n",
	"                          one per CPU), in input order\n",
	"    --find-maintainer-files\n",
	"                          with a directory --mpath, read every */MAINTAINERS\n",
	"\n",
	"Selection (each has a --no form):\n",
	"    --email  -m  -r  -l  -s  --moderated  -n\n",
	"                          people, maintainers, reviewers, lists,\n",
	"                          subscribers-only lists, moderated lists, names\n",
	"    -k, --keywords        K: patterns in patches; --kf: in -f files too\n",
	"                          (default: as the tree's get_maintainer.pl)\n",
	"    --fe, --file-emails   addresses found in the files themselves\n",
	"    --remove-duplicates   one entry per name or address\n",
	"    --mailmap             apply the tree's .mailmap\n",
	"    --pattern-depth=<n>   only patterns within <n> levels of the file\n",
	"    --git-chief-penguins  keep the top-level maintainer\n",
	"\n",
	"History:\n",
	"    --history             rank who reviewed, signed or wrote recent\n",
	"                          commits of the files, with maintainers\n",
	"    --max-recipients=<n>  --history's people at most (0: all)\n",
	"    --since=<date>        oldest commit (default: 6.months.ago)\n",
	"    --until=<date>        newest commit\n",
	"    --git                 get_maintainer.pl's history of each file:\n",
	"                          commit_signer, authored, added/removed_lines\n",
	"    --git-fallback        the same for files no maintained section\n",
	"                          claims exactly (default: as the tree's\n",
	"                          get_maintainer.pl; off without one)\n",
	"    --git-since=<date>    --git's window (default: 1-year-ago)\n",
	"    --git-blame           roles from blaming the patch's hunks (or the\n",
	"                          whole file with -f)\n",
	"    --git-all-signature-types\n",
	"                          count every *-by: line, not only signed-off,\n",
	"                          reviewed and acked\n",
	"    --git-min-signatures=<n>, --git-min-percent=<n>,\n",
	"    --git-max-maintainers=<n>\n",
	"                          --git's thresholds\n",
	"\n",
	"Whole tree (the arguments are paths in the tree; none: all of it):\n",
	"    --unowned             the files no section with an M: claims, but\n",
	"                          the catch-all (F: * and F: */), summed by\n",
	"                          directory (--format=list: one a line)\n",
	"    --activity            per section: commits touching its files in\n",
	"                          the window (default: 12.months.ago), and\n",
	"                          how many each M:/R: person wrote or signed\n",
	"    --report[=<file>]     one HTML page for the people who keep\n",
	"                          MAINTAINERS: --activity, --unowned and the\n",
	"                          offline --self-test checks (stdout without\n",
	"                          <file>)\n",
	"\n",
	"Output:\n",
	"    --roles, --rolestats  show each entry's role (default: addresses only)\n",
	"    --format=json         one JSON document (see the README)\n",
	"    --to, --cc            only the To (maintainers, lists) or Cc\n",
	"                          (reviewers, history, ...) recipients\n",
	"    --headers             To: and Cc: header lines (sendemail.headerCmd)\n",
	"    --separator=<s>       join entries with <s> on one line\n",
	"    --multiline           one entry per line (default)\n",
	"    --scm --status --subsystem --web --bug --substatus\n",
	"                          print T:, S:, section names, W:, B:, status lines\n",
	"    --sections, --letters=<L>\n",
	"                          print the matched sections (tags in <L> only)\n",
	"    --self-test[=<checks>] [--links-insecure]\n",
	"                          check MAINTAINERS itself: sections, patterns,\n",
	"                          links, scm (the default: all four), addresses,\n",
	"                          order; exit 1 if anything is found\n",
	"    --check[=recipients] <patch>...\n",
	"                          whom the rules name (M:, lists, authors of\n",
	"                          Fixes: commits) that the mails' To:/Cc: miss\n",
	"    --check=approvals <patch>... | <rev>..<rev>\n",
	"                          the sections no M: acked, reviewed, signed\n",
	"                          off or committed; both exit 1 if any\n",
	"    --check-reviewers, --check-history\n",
	"                          R:, the history's people required too\n",
	"\n",
	"The tree's script (defaults follow scripts/get_maintainer.pl or\n",
	"maintainer.script; each has a --no form and a maintainer.* key):\n",
	"    --maintainer-roles --keyword-roles --unicode-file-emails\n",
	"                          a later Linux script's roles and addresses\n",
	"    --drop-the-rest-supporter --brace-patterns --reviewer-section\n",
	"    --named-lists --patch-dev-null --git-author-roles --tracked-paths\n",
	"    --section-name-max=<n>\n",
	"                          Xen's script's behaviours\n",
	"    --git-fallback-maintainers\n",
	"                          the fallback for a *MAINTAINERS file too\n",
	"\n",
	"    --verbose             say on stderr where the defaults came from\n",
	"    --progress            progress on stderr (default: on a terminal)\n",
	"    -v, --version         print the version\n",
	"    -h, --help            print this help\n",
};

bool gm_options_at(size_t i, struct gm_option_info *out)
{
	const struct opt_def *d;

	if (i >= sizeof(opt_table) / sizeof(*opt_table))
		return false;
	d = &opt_table[i];
	out->name = d->name;
	out->negatable = d->kind == OPT_BOOL;
	out->takes_value = d->kind == OPT_INT || d->kind == OPT_STRING ||
			   d->kind == OPT_OPTSTRING;
	out->optional_value = d->kind == OPT_OPTSTRING;
	out->supported = d->kind != OPT_UNSUPPORTED;
	return true;
}

void gm_options_usage_write(FILE *f)
{
	for (size_t i = 0; i < sizeof(usage_text) / sizeof(*usage_text); i++)
		fputs(usage_text[i], f);
}

void gm_options_init(struct gm_options *o)
{
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < sizeof(opt_table) / sizeof(*opt_table); i++)
		if (opt_table[i].def)
			*(int *)((char *)o + opt_table[i].offset) = opt_table[i].def;
}

static void set_string(char **field, const char *value)
{
	free(*field);
	*field = value ? strdup(value) : NULL;
}

void gm_options_release(struct gm_options *o)
{
	for (size_t i = 0; i < sizeof(opt_table) / sizeof(*opt_table); i++)
		if (opt_table[i].kind == OPT_STRING ||
		    opt_table[i].kind == OPT_OPTSTRING)
			set_string((char **)((char *)o + opt_table[i].offset),
				   NULL);
	gm_strvec_release(&o->penguins);
	gm_strvec_release(&o->args);
}

static const struct opt_def *opt_find(const char *name)
{
	for (size_t i = 0; i < sizeof(opt_table) / sizeof(*opt_table); i++)
		if (!strcasecmp(name, opt_table[i].name))
			return &opt_table[i];
	return NULL;
}

bool gm_options_set(struct gm_options *o, const char *name, int value)
{
	const struct opt_def *def = opt_find(name);
	int *field;

	if (!def || (def->kind != OPT_BOOL && def->kind != OPT_SET &&
		     def->kind != OPT_INT))
		return false;
	field = (int *)((char *)o + def->offset);
	if (*field == value)
		return false;
	*field = value;
	return true;
}

/* Find `name`, or a negatable option spelled "no<name>" / "no-<name>". */
static const struct opt_def *opt_lookup(const char *name, int *negated)
{
	const struct opt_def *def = opt_find(name);

	*negated = 0;
	if (def || strncasecmp(name, "no", 2))
		return def;
	def = opt_find(name + 2);
	if (!def && name[2] == '-')
		def = opt_find(name + 3);
	if (def && def->kind != OPT_BOOL && def->kind != OPT_UNSUPPORTED)
		return NULL;
	*negated = def != NULL;
	return def;
}

static int parse_int(int *out, const char *name, const char *value)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (!*value || *end || errno || v < INT_MIN || v > INT_MAX ||
	    isspace((unsigned char)*value))
		return gm_error_set(GM_EUSAGE,
				    "value '%s' invalid for option %s (number expected)",
				    value, name);
	*out = (int)v;
	return 0;
}

static int opt_apply(struct gm_options *o, const struct opt_def *def,
		     int negated, const char *name, const char *value)
{
	char *base = (char *)o;

	switch (def->kind) {
	case OPT_BOOL:
	case OPT_SET:
		if (value)
			return gm_error_set(GM_EUSAGE,
					    "option '%s' takes no value", name);
		*(int *)(base + def->offset) = !negated;
		return 0;
	case OPT_INT:
		return parse_int((int *)(base + def->offset), name, value);
	case OPT_STRING:
	case OPT_OPTSTRING:
		set_string((char **)(base + def->offset), value ? value : "");
		return 0;
	case OPT_HELP:
		o->help = strcasecmp(name, "h") ? 1 : 2;
		return 0;
	case OPT_UNSUPPORTED:
		break;
	}
	return gm_error_set(GM_EUSAGE, "option '%s' is not supported", name);
}

/* Edits (insert, delete, replace, swap two neighbours) from `a` to `b`. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[32][32];

	if (la >= 32 || lb >= 32)
		return SIZE_MAX;
	for (size_t i = 0; i <= la; i++)
		for (size_t j = 0; j <= lb; j++) {
			size_t best = i && j ? d[i - 1][j - 1] +
				      (tolower((unsigned char)a[i - 1]) !=
				       tolower((unsigned char)b[j - 1])) :
				      i + j;

			if (i && d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (j && d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

/* Option `i`'s spelling `form` (0: --x, 1: --no-x), or NULL for none. */
static const char *opt_spelling(size_t i, int form, char *buf, size_t size)
{
	const struct opt_def *d = &opt_table[i];

	if (d->kind == OPT_HELP || (form && d->kind != OPT_BOOL))
		return NULL;
	snprintf(buf, size, "%s%s", form ? "no-" : "", d->name);
	return buf;
}

/*
 * The message for the unknown option `name`: "unknown option 'NAME'",
 * and the spellings nearest to it (at most two edits, a third of its
 * length), as git's "did you mean".
 */
static int opt_unknown(const char *name)
{
	const size_t n = sizeof(opt_table) / sizeof(*opt_table);
	size_t best = strlen(name) / 3 < 2 ? strlen(name) / 3 : 2;
	char hint[160] = "", buf[128];
	const char *s;

	for (size_t i = 0; i < 2 * n; i++)
		if ((s = opt_spelling(i % n, i >= n, buf, sizeof(buf))) &&
		    edit_distance(name, s) < best)
			best = edit_distance(name, s);
	for (size_t i = 0; best && i < 2 * n; i++) {
		size_t len = strlen(hint);

		if (!(s = opt_spelling(i % n, i >= n, buf, sizeof(buf))) ||
		    edit_distance(name, s) != best)
			continue;
		snprintf(hint + len, sizeof(hint) - len, "%s%s%s",
			 len ? ", " : "; did you mean ", s[1] ? "--" : "-", s);
	}
	if (*hint)
		strncat(hint, "?", sizeof(hint) - strlen(hint) - 1);
	return gm_error_set(GM_EUSAGE, "unknown option '%s'%s", name, hint);
}

/* One option word (without its dashes); may consume the next argument. */
static int parse_one(struct gm_options *o, const char *word, int *i, int argc,
		     const char **argv)
{
	const struct opt_def *def;
	const char *eq = strchr(word, '=');
	char name[128];
	size_t len = eq ? (size_t)(eq - word) : strlen(word);
	const char *value = eq ? eq + 1 : NULL;
	int negated;

	if (len >= sizeof(name))
		return gm_error_set(GM_EUSAGE, "unknown option '%s'", word);
	memcpy(name, word, len);
	name[len] = '\0';
	def = opt_lookup(name, &negated);
	if (!def)
		return opt_unknown(name);
	if (negated && value)
		return gm_error_set(GM_EUSAGE, "option '%s' takes no value", name);
	if ((def->kind == OPT_INT || def->kind == OPT_STRING) && !value) {
		if (*i + 1 >= argc)
			return gm_error_set(GM_EUSAGE,
					    "option '%s' requires a value", name);
		value = argv[++*i];
	}
	return opt_apply(o, def, negated, name, value);
}

int gm_options_parse(struct gm_options *o, int argc, const char **argv)
{
	bool options_done = false;
	int error;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (options_done || a[0] != '-' || !a[1]) {
			if ((error = gm_strvec_push(&o->args, a)) < 0)
				return error;
			if (getenv("POSIXLY_CORRECT"))
				options_done = true;
			continue;
		}
		if (!strcmp(a, "--")) {
			options_done = true;
			continue;
		}
		a += a[1] == '-' ? 2 : 1;
		if ((error = parse_one(o, a, &i, argc, argv)) < 0)
			return error;
	}
	return 0;
}

/* --check's value and what it cannot go with. @return 0 or GM_EUSAGE. */
static int check_finish(struct gm_options *o)
{
	const char *other = o->from_filename ? "file" : o->series ? "series" :
			    o->batch ? "batch" : o->self_test ? "self-test" :
			    o->unowned ? "unowned" : o->activity ? "activity" :
			    o->sections ? "sections" : o->to ? "to" :
			    o->cc ? "cc" : o->headers ? "headers" : NULL;

	if (!o->check)
		return 0;
	if (!*o->check)
		set_string(&o->check, "recipients");
	if (strcmp(o->check, "recipients") && strcmp(o->check, "approvals"))
		return gm_error_set(GM_EUSAGE,
				    "unknown check '%s' (recipients, approvals)",
				    o->check);
	if (other)
		return gm_error_set(GM_EUSAGE,
				    "options 'check' and '%s' cannot be used together",
				    other);
	if (!o->args.nr)
		return gm_error_set(GM_EUSAGE, "--check needs patches%s",
				    strcmp(o->check, "approvals") ? "" :
				    " or commits");
	return 0;
}

int gm_options_finish(struct gm_options *o)
{
	if (check_finish(o) < 0)
		return GM_EUSAGE;
	if (o->separator && strcmp(o->separator, ", "))
		o->multiline = 0;
	if (!o->separator)
		o->separator = strdup(", ");
	if (o->to || o->cc || o->headers) {	/* for mail headers: plain text */
		o->roles = o->rolestats = 0;
		set_string(&o->format, NULL);
	}
	if (o->rolestats)
		o->roles = 1;
	if (o->substatus < 0)	/* the tree script's undecided default */
		o->substatus = o->email && o->roles && isatty(STDOUT_FILENO);
	if (o->unowned && o->activity)
		return gm_error_set(GM_EUSAGE,
				    "options 'unowned' and 'activity' cannot be used together");
	if ((o->unowned || o->activity) &&
	    (o->from_filename || o->series || o->batch || o->self_test))
		return gm_error_set(GM_EUSAGE,
				    "options '%s' and '%s' cannot be used together",
				    o->unowned ? "unowned" : "activity",
				    o->from_filename ? "file" :
				    o->series ? "series" :
				    o->batch ? "batch" : "self-test");
	if (o->report && (o->unowned || o->activity || o->self_test ||
			  o->from_filename || o->series || o->batch ||
			  o->args.nr))
		return gm_error_set(GM_EUSAGE, "--report reads the whole tree: "
				    "no other mode, no arguments");
	if (o->self_test || o->report)	/* no recipients: no output to choose */
		return 0;
	if (o->sections || (o->letters && *o->letters)) {
		o->sections = 1;
		o->email = o->lists = 0;
		o->scm = o->status = o->subsystem = o->web = o->bug = 0;
		o->keywords = o->keywords_in_file = 0;
	} else if (!o->email && !o->scm && !o->status && !o->subsystem &&
		   !o->web && !o->bug) {
		return gm_error_set(GM_EUSAGE,
				    "missing required option: email, scm, status, subsystem, web or bug");
	}
	if (o->email && !o->maintainers && !o->reviewers && !o->lists &&
	    !o->subscriber_lists && !o->git && !o->git_chief_penguins &&
	    !o->git_blame)
		return gm_error_set(GM_EUSAGE, "please select at least 1 email option");
	if (o->format && strcmp(o->format, "text") && strcmp(o->format, "json") &&
	    (strcmp(o->format, "list") || !o->unowned))
		return gm_error_set(GM_EUSAGE, strcmp(o->format, "list") ?
				    "unknown format '%s'" :
				    "--format=%s needs --unowned", o->format);
	if (o->nul && !o->batch)
		return gm_error_set(GM_EUSAGE, "-z needs --batch");
	if (o->jobs && !o->batch)
		return gm_error_set(GM_EUSAGE, "--jobs needs --batch");
	if (o->section_name_max < 0 ||
	    (o->section_name_max > 0 && o->section_name_max < 4))
		return gm_error_set(GM_EUSAGE,
				    "--section-name-max needs 0 or at least 4");
	if (o->jobs < 0)
		return gm_error_set(GM_EUSAGE, "--jobs needs a positive number");
	if (o->batch && (o->args.nr || o->series))
		return gm_error_set(GM_EUSAGE,
				    "--batch reads its paths from standard input only");
	if (o->from_filename && !o->args.nr && !o->batch)
		return gm_error_set(GM_EUSAGE, "-f needs a path: the files or "
				    "directories to ask about");
	if (o->batch)
		o->from_filename = 1;
	return 0;
}
