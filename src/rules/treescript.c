/* memmem() and memrchr(): GNU extensions, in every libc we build with. */
#define _GNU_SOURCE
#include "gm/treescript.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/strvec.h"

#define TS_NAME_MAX 64	/* longer variable names are not read */

/* An option whose default the tree's copy of the script may change. */
struct ts_option {
	const char *name;	/* a name of its GetOptions entry */
	const char *alias;	/* another one, or NULL */
	int linux61;		/* its default in 6.1 (or 6.1's behaviour) */
	bool number;		/* an integer, not a switch */
	bool can_auto;		/* `undef` means: decided when run */
};

/*
 * 6.1's defaults, the tool's own too. An option 6.1 does not have
 * gets the value that describes what 6.1 does without it.
 */
static const struct ts_option ts_options[] = {
	{ "email", NULL, 1, false, false },
	{ "m", NULL, 1, false, false },
	{ "r", NULL, 1, false, false },
	{ "n", NULL, 1, false, false },
	{ "l", NULL, 1, false, false },
	{ "s", NULL, 0, false, false },
	{ "moderated", NULL, 1, false, false },
	{ "keywords", "k", 1, false, false },
	/* not in 6.1, which always matches K: against -f files (R-30) */
	{ "keywords-in-file", "kf", 1, false, false },
	{ "file-emails", "fe", 0, false, false },
	{ "remove-duplicates", NULL, 1, false, false },
	{ "mailmap", NULL, 1, false, false },
	{ "fixes", NULL, 1, false, false },
	{ "git-all-signature-types", NULL, 0, false, false },
	{ "git-blame-signatures", NULL, 1, false, false },
	{ "git-chief-penguins", NULL, 0, false, false },
	{ "git-min-signatures", NULL, 1, true, false },
	{ "git-max-maintainers", NULL, 5, true, false },
	{ "git-min-percent", NULL, 5, true, false },
	{ "pattern-depth", NULL, 0, true, false },
	{ "scm", NULL, 0, false, false },
	{ "status", NULL, 0, false, false },
	{ "subsystem", NULL, 0, false, false },
	{ "web", NULL, 0, false, false },
	{ "bug", NULL, 0, false, false },		/* not in 6.1 */
	{ "substatus", NULL, 0, false, true },	/* nor this */
	/* read for gm_treescript_read()'s own steps and notes alone */
	{ "git-fallback", NULL, 1, false, false },
	{ "rolestats", NULL, 1, false, false },
};

#define TS_NR (sizeof(ts_options) / sizeof(*ts_options))
#define TS_FOLLOWED (TS_NR - 2)	/* those ts_read_defaults() takes */

enum ts_state {
	TS_UNKNOWN = 0,	/* no initialiser read, or one not understood */
	TS_VALUE,	/* a decimal integer */
	TS_UNDEF	/* `undef`, or no initialiser at all */
};

/* What the script says of one option of ts_options[]. */
struct ts_var {
	char name[TS_NAME_MAX];	/* the variable its entry binds, or "" */
	enum ts_state state;
	long value;
	size_t line;		/* of its initialiser */
};

static bool ts_isblank(int c)
{
	return c == ' ' || c == '\t';
}

static const char *ts_skip_blanks(const char *p, const char *end)
{
	while (p < end && ts_isblank((unsigned char)*p))
		p++;
	return p;
}

static const char *ts_eol(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl : end;
}

/* The first occurrence of `word` in the text up to `end`, or NULL. */
static const char *ts_find(const char *text, const char *end,
			   const char *word)
{
	return memmem(text, (size_t)(end - text), word, strlen(word));
}

/* The 1-based number of the line that `p` is on. */
static size_t ts_lineno(const char *text, const char *p)
{
	size_t n = 1;

	for (const char *q = text; q < p; q++)
		n += *q == '\n';
	return n;
}

static bool ts_isident(int c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

/* A Perl identifier at *p into `out`, *p moved past it; false if none. */
static bool ts_ident(const char **p, const char *end, char out[TS_NAME_MAX])
{
	const char *s = *p, *q = *p;

	if (q >= end || !ts_isident((unsigned char)*q, true))
		return false;
	while (q < end && ts_isident((unsigned char)*q, false))
		q++;
	*p = q;
	if ((size_t)(q - s) >= TS_NAME_MAX)
		return false;
	memcpy(out, s, (size_t)(q - s));
	out[q - s] = '\0';
	return true;
}

/*
 * Just past the first "GetOptions(" of a line, before any '#' on it,
 * or NULL. `*line` gets the start of that line.
 */
static const char *ts_find_getoptions(const char *p, const char *end,
				      const char **line)
{
	static const char word[] = "GetOptions(";

	for (const char *q = p; (q = ts_find(q, end, word)); q++) {
		const char *nl = memrchr(p, '\n', (size_t)(q - p));

		*line = nl ? nl + 1 : p;
		if (!memchr(*line, '#', (size_t)(q - *line)))
			return q + sizeof(word) - 1;
	}
	return NULL;
}

static bool ts_name_is(const char *s, size_t len, const char *name)
{
	return name && strlen(name) == len && !strncasecmp(s, name, len);
}

/* The entry of spec <s, len> binds `var`: the options it names get it. */
static void ts_bind(struct ts_var *vars, const char *s, size_t len,
		    const char *var)
{
	size_t names = 0;

	/* "kf|keywords-in-file!", "git-since=s", "self-test:s" */
	while (names < len && !memchr("!+=:", s[names], 4))
		names++;
	for (size_t at = 0, one; at < names; at += one + 1) {
		for (one = 0; at + one < names && s[at + one] != '|'; one++)
			;
		for (size_t i = 0; i < TS_NR; i++)
			if (!vars[i].name[0] &&
			    (ts_name_is(s + at, one, ts_options[i].name) ||
			     ts_name_is(s + at, one, ts_options[i].alias)))
				memcpy(vars[i].name, var, strlen(var) + 1);
	}
}

/*
 * One GetOptions entry at *p, `'spec' => \$var` (or "spec"), bound in
 * `vars`; *p moved past it. False, *p unmoved, for anything else.
 */
static bool ts_read_entry(struct ts_var *vars, const char **p,
			  const char *end)
{
	const char *q = *p + 1, *spec = *p + 1;
	char var[TS_NAME_MAX];
	char quote = **p;
	size_t len;

	while (q < end && *q != quote && *q != '\n')
		q++;
	if (q >= end || *q != quote)
		return false;
	len = (size_t)(q - spec);
	q = ts_skip_blanks(q + 1, end);
	if (end - q < 2 || q[0] != '=' || q[1] != '>')
		return false;
	q = ts_skip_blanks(q + 2, end);
	if (end - q < 2 || q[0] != '\\' || q[1] != '$')
		return false;
	q += 2;
	if (!ts_ident(&q, end, var))
		return false;
	ts_bind(vars, spec, len, var);
	*p = q;
	return true;
}

/* The entries of the GetOptions call whose arguments start at `p`. */
static void ts_read_entries(struct ts_var *vars, const char *p,
			    const char *end)
{
	while (p < end) {
		while (p < end && (ts_isblank((unsigned char)*p) ||
				   *p == '\n' || *p == '\r' || *p == ','))
			p++;
		if (p >= end || *p == ')')
			return;
		if ((*p == '\'' || *p == '"') &&
		    ts_read_entry(vars, &p, end))
			continue;
		p = ts_eol(p, end);	/* a comment, or something else */
	}
}

/* A decimal integer or `undef` at *p, up to a ';'. */
static enum ts_state ts_read_value(const char *p, const char *eol,
				   long *value)
{
	enum ts_state state = TS_UNKNOWN;
	bool minus = false;
	long v = 0;
	int digits = 0;

	if (eol - p >= 5 && !memcmp(p, "undef", 5) &&
	    (eol - p == 5 || !ts_isident((unsigned char)p[5], false))) {
		state = TS_UNDEF;
		p += 5;
	} else {
		if (p < eol && (*p == '-' || *p == '+'))
			minus = *p++ == '-';
		while (p < eol && *p >= '0' && *p <= '9' && digits < 10) {
			v = v * 10 + (*p++ - '0');
			digits++;
		}
		if (digits == 0 || digits >= 10)
			return TS_UNKNOWN;
		state = TS_VALUE;
		*value = minus ? -v : v;
	}
	p = ts_skip_blanks(p, eol);
	return p < eol && *p == ';' ? state : TS_UNKNOWN;
}

/*
 * A line `my $name = VALUE;` (or `my $name;`), line `lineno`: what it
 * says of `name`.
 */
static void ts_read_initialiser(struct ts_var *vars, const char *p,
				const char *eol, size_t lineno)
{
	char name[TS_NAME_MAX];
	enum ts_state state = TS_UNKNOWN;
	long value = 0;

	if (eol - p < 4 || memcmp(p, "my", 2) || !ts_isblank((unsigned char)p[2]))
		return;
	p = ts_skip_blanks(p + 2, eol);
	if (p >= eol || *p++ != '$' || !ts_ident(&p, eol, name))
		return;
	p = ts_skip_blanks(p, eol);
	if (p < eol && *p == ';')
		state = TS_UNDEF;
	else if (p < eol && *p == '=' && (p + 1 >= eol || p[1] != '='))
		state = ts_read_value(ts_skip_blanks(p + 1, eol), eol, &value);
	for (size_t i = 0; i < TS_NR; i++) {
		if (!strcmp(vars[i].name, name)) {
			vars[i].state = state;	/* the last one counts */
			vars[i].value = value;
			vars[i].line = lineno;
		}
	}
}

/*
 * What the script says of each option of ts_options[], into `vars`: the
 * variable its GetOptions entry binds, and that variable's last
 * top-level initialiser (column 0, before the call). False, nothing
 * bound, without a GetOptions call.
 */
static bool ts_read_vars(struct ts_var vars[TS_NR], const char *text,
			 size_t len)
{
	const char *end = text + len, *line = NULL, *args;
	size_t lineno = 1;

	memset(vars, 0, TS_NR * sizeof(*vars));
	if (!text || !(args = ts_find_getoptions(text, end, &line)))
		return false;
	ts_read_entries(vars, args, end);
	for (const char *p = text; p < line; lineno++) {
		const char *eol = ts_eol(p, line);

		ts_read_initialiser(vars, p, eol, lineno);
		p = eol < line ? eol + 1 : line;
	}
	return true;
}

/* ==================== the Linux family ==================== */

/* Whether `text` is Linux's own script, of any version (as the header says). */
static bool ts_is_linux(const char *text, size_t len)
{
	return ts_find(text, text + len,
		       "push(@penguin_chief, \"Linus Torvalds:torvalds\\@") &&
	       ts_find(text, text + len, "(-f \"${lk_path}Kbuild\")");
}

/* A behaviour of later Linux scripts, and the text that marks it. */
struct ts_marker {
	const char *option;	/* the setting it turns on */
	const char *present;	/* text a script that has it holds */
	const char *absent;	/* text only scripts without it hold, or NULL */
};

/*
 * What later scripts changed, each found by a line of its change: roles
 * of K:-matched sections end in ":Keyword:<K>" (6.12 has it); in-file
 * names are Unicode letters, cleaned of stray punctuation (6.7); every
 * M: is a "maintainer:" but THE REST's "chief penguin:" (2025: the S:
 * derived names such as "supporter" are gone).
 */
static const struct ts_marker ts_linux_markers[] = {
	{ "keyword-roles", "\":Keyword:$keyword_hash{$line}\"", NULL },
	{ "unicode-file-emails", "split(/[^\\p{L}", NULL },
	{ "maintainer-roles", "sub get_maintainer_role", "\"odd fixer\"" },
};

/* Set `option` in ts->settings, in place of an earlier setting of it. */
static void ts_set(struct gm_treescript *ts, const char *option, int value,
		   size_t line)
{
	size_t i = 0;

	while (i < ts->nr_settings && strcmp(ts->settings[i].option, option))
		i++;
	if (i == GM_TS_SETTINGS_MAX)
		return;
	ts->nr_settings += i == ts->nr_settings;
	ts->settings[i] = (struct gm_ts_setting){ option, value, line };
}

/* The behaviours a later Linux script has, turned on in `ts`. */
static void ts_read_linux(struct gm_treescript *ts, const char *text,
			  size_t len)
{
	if (!ts_is_linux(text, len))
		return;
	for (size_t i = 0; i < sizeof(ts_linux_markers) /
			       sizeof(*ts_linux_markers); i++) {
		const struct ts_marker *mk = &ts_linux_markers[i];
		const char *at = ts_find(text, text + len, mk->present);

		if (!at || (mk->absent && ts_find(text, text + len, mk->absent)))
			continue;
		ts_set(ts, mk->option, 1, ts_lineno(text, at));
	}
}

/* The option defaults `vars` gives differently from 6.1. */
static void ts_read_defaults(struct gm_treescript *ts,
			     const struct ts_var *vars)
{
	for (size_t i = 0; i < TS_FOLLOWED; i++) {
		const struct ts_option *o = &ts_options[i];
		int v;

		if (!vars[i].name[0])
			continue;	/* the script has no such option */
		if (vars[i].state == TS_VALUE)
			v = o->number ? (int)vars[i].value : vars[i].value != 0;
		else if (vars[i].state == TS_UNDEF && o->can_auto)
			v = -1;
		else
			continue;
		if (v != o->linux61)
			ts_set(ts, o->name, v, vars[i].line);
	}
}

/* ==================== the script's family ==================== */

/* Each family's name for messages; ts_family() returns one of these. */
static const char *const ts_family_names[] = {
	[GM_TS_NONE] = "none",
	[GM_TS_LINUX61] = "Linux 6.1",
	[GM_TS_LINUX] = "Linux (after 6.1)",
	[GM_TS_UBOOT] = "u-boot",
	[GM_TS_XEN] = "Xen",
	[GM_TS_UNKNOWN] = "unknown (taken as Linux 6.1)",
};

/* The first line at column 0 that starts with `prefix`, or NULL. */
static const char *ts_line_starting(const char *text, const char *end,
				    const char *prefix)
{
	for (const char *q = text; (q = ts_find(q, end, prefix)); q++)
		if (q == text || q[-1] == '\n')
			return q;
	return NULL;
}

/*
 * The family of the script `text` (`len` bytes); `*line` gets the line
 * that told (0 when unknown).
 */
static enum gm_ts_family ts_family(const char *text, size_t len, size_t *line)
{
	const char *end, *v, *at;

	*line = 0;
	if (!text || !len)
		return GM_TS_UNKNOWN;
	end = text + len;
	/* my $V = '0.26-xen'; */
	v = ts_line_starting(text, end, "my $V = '");
	if (v && (at = ts_find(v, ts_eol(v, end), "-xen'"))) {
		*line = ts_lineno(text, v);
		return GM_TS_XEN;
	}
	if ((at = ts_find(text, end, "a U-Boot source tree"))) {
		*line = ts_lineno(text, at);
		return GM_TS_UBOOT;
	}
	if (!v || !(at = ts_find(text, end, "Linus Torvalds:torvalds")))
		return GM_TS_UNKNOWN;
	*line = ts_lineno(text, v);
	/* options Linux added after 6.1 */
	if ((at = ts_find(text, end, "'substatus!'")) ||
	    (at = ts_find(text, end, "keywords-in-file!"))) {
		*line = ts_lineno(text, at);
		return GM_TS_LINUX;
	}
	return GM_TS_LINUX61;
}

/* ==================== chief penguins ==================== */

/*
 * A line `push(@penguin_chief, "Name:addr");` at column 0: "Name:addr"
 * into `out` with Perl's \@ and \\ undone. False for anything else.
 */
static bool ts_read_penguin(struct gm_buf *out, const char *p,
			    const char *eol)
{
	static const char head[] = "push(@penguin_chief,";
	const size_t n = sizeof(head) - 1;

	if ((size_t)(eol - p) < n || memcmp(p, head, n))
		return false;
	p = ts_skip_blanks(p + n, eol);
	if (p >= eol || *p++ != '"')
		return false;
	gm_buf_reset(out);
	for (; p < eol && *p != '"'; p++) {
		if (*p == '\\' && p + 1 < eol)
			p++;
		if (gm_buf_putc(out, *p) < 0)
			return false;
	}
	if (p >= eol || !out->len || !memchr(out->ptr, ':', out->len))
		return false;
	p = ts_skip_blanks(p + 1, eol);
	return p < eol && *p == ')';
}

/*
 * The script's chief penguins, each `push(@penguin_chief, "Name:addr");`
 * line at column 0, appended to `out`; `*first_line` gets the first
 * one's line. @return how many, or GM_ERROR.
 */
static int ts_penguins(struct gm_strvec *out, const char *text, size_t len,
		       size_t *first_line)
{
	struct gm_buf one = GM_BUF_INIT;
	const char *end = text + len;
	int n = 0;

	*first_line = 0;
	for (const char *p = text; p && p < end;) {
		const char *eol = ts_eol(p, end);

		if (ts_read_penguin(&one, p, eol)) {
			if (gm_strvec_push(out, one.ptr) < 0) {
				n = GM_ERROR;
				break;
			}
			if (!n++)
				*first_line = ts_lineno(text, p);
		}
		p = eol < end ? eol + 1 : end;
	}
	gm_buf_release(&one);
	return n;
}

/* ==================== one option's default ==================== */

/*
 * The default of the option `name` of ts_options[] in `vars`: the last
 * top-level initialiser of the variable it binds. *line gets that
 * initialiser's line (0 for none). @return TS_VALUE, TS_UNDEF (no
 * initialiser, or undef), TS_UNKNOWN (an expression), or -1: the script
 * has no such option.
 */
static int ts_default_of(const struct ts_var *vars, const char *name,
			 long *value, size_t *line)
{
	size_t i = 0;

	while (strcmp(ts_options[i].name, name))
		i++;
	*line = 0;
	if (!vars[i].name[0])
		return -1;
	*value = vars[i].value;
	*line = vars[i].line;
	return vars[i].line ? (int)vars[i].state : TS_UNDEF;
}

/* ==================== what a family does ==================== */

/* Xen's 0.26-xen against 6.1, told by the family's line `line`. */
static void ts_xen(struct gm_treescript *ts, size_t line)
{
	static const struct {
		const char *option;
		int value;
	} xen[] = {
		{ "drop-the-rest-supporter", 1 }, { "brace-patterns", 1 },
		{ "reviewer-section", 0 }, { "section-name-max", 20 },
		{ "named-lists", 1 }, { "patch-dev-null", 0 },
		{ "git-author-roles", 0 }, { "fixes", 0 },
		{ "tracked-paths", 0 },
	};

	for (size_t i = 0; i < sizeof(xen) / sizeof(*xen); i++)
		ts_set(ts, xen[i].option, xen[i].value, line);
}

/* A note for --verbose; a failed one is only a note lost. */
#define TS_NOTE(notes, ...) ((void)gm_strvec_pushf((notes), __VA_ARGS__))

/* --git-fallback: the script's default, whatever 6.1's is. */
static void ts_follow_fallback(struct gm_treescript *ts,
			       const struct ts_var *vars, const char *path)
{
	size_t line;
	long v = 1;
	int state = ts_default_of(vars, "git-fallback", &v, &line);
	int on;

	if (state == -1) {
		ts_set(ts, "git-fallback", 0, 0);
		TS_NOTE(&ts->notes, "%s: no --git-fallback: off", path);
		return;
	}
	/* undef is false; an expression not understood: 6.1's value */
	on = state == TS_VALUE ? v != 0 : state != TS_UNDEF;
	ts_set(ts, "git-fallback", on, line);
	TS_NOTE(&ts->notes, "%s:%zu: --git-fallback default %d", path, line,
		on);
}

/*
 * --git-fallback-maintainers: the script's fallback condition, from
 * `($email_git_fallback &&` to `!$exact_pattern_match_hash{$file}`,
 * lacks 6.1's `$file !~ /MAINTAINERS$/` (coreboot's, Xen's).
 */
static void ts_follow_fallback_maintainers(struct gm_treescript *ts,
					   const char *text, size_t len,
					   const char *path)
{
	const char *at = text ? ts_find(text, text + len,
					"($email_git_fallback &&") : NULL;
	const char *end = at ? ts_find(at, text + len,
				       "!$exact_pattern_match_hash{$file}") : NULL;
	size_t line;

	if (!end || ts_find(at, end, "MAINTAINERS"))
		return;
	line = ts_lineno(text, at);
	ts_set(ts, "git-fallback-maintainers", 1, line);
	TS_NOTE(&ts->notes, "%s:%zu: --git-fallback also for MAINTAINERS",
		path, line);
}

/* Notes of the defaults ts_read_defaults() followed, and --rolestats. */
static void ts_note_defaults(const struct ts_var *vars, const char *path,
			     struct gm_strvec *notes)
{
	static const char *const names[] = {
		"remove-duplicates", "fixes", "moderated", "keywords-in-file",
		"substatus", "rolestats",
	};
	size_t line;
	long v;

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		int state = ts_default_of(vars, names[i], &v, &line);

		if (state == -1)
			TS_NOTE(notes, "%s: no --%s", path, names[i]);
		else if (state == TS_VALUE)
			TS_NOTE(notes, "%s:%zu: --%s default %ld%s", path, line,
				names[i], v, strcmp(names[i], "rolestats") ? "" :
				" (not followed: layout stays addresses only)");
		else if (line)
			TS_NOTE(notes, "%s:%zu: --%s default undef", path, line,
				names[i]);
	}
}

int gm_treescript_read(struct gm_treescript *out, const char *text,
		       size_t len, const char *path)
{
	struct gm_strvec *notes = &out->notes;
	struct ts_var vars[TS_NR];
	size_t line;
	int n;

	/* a later Linux script's behaviours: none without GetOptions */
	if (ts_read_vars(vars, text, len))
		ts_read_linux(out, text, len);
	ts_read_defaults(out, vars);
	out->family = ts_family(text, len, &line);
	out->family_line = line;
	TS_NOTE(notes, "%s:%zu: family %s", path, line,
		ts_family_names[out->family]);
	ts_follow_fallback(out, vars, path);
	ts_follow_fallback_maintainers(out, text, len, path);
	ts_note_defaults(vars, path, notes);
	n = ts_penguins(&out->penguins, text, len, &out->penguins_line);
	if (n < 0) {
		gm_strvec_release(&out->penguins);
		return n;
	}
	for (size_t i = 0; i < out->penguins.nr; i++)
		TS_NOTE(notes, "%s:%zu: chief penguin %s", path,
			out->penguins_line, out->penguins.v[i]);
	if (out->family == GM_TS_XEN) {
		ts_xen(out, line);
		TS_NOTE(notes, "%s:%zu: Xen's behaviours: --drop-the-rest-supporter"
			" --brace-patterns --no-reviewer-section --section-name-max=20"
			" --named-lists --no-patch-dev-null --no-git-author-roles"
			" --no-tracked-paths --no-fixes", path, line);
	}
	return (int)out->family;
}

void gm_treescript_release(struct gm_treescript *ts)
{
	if (!ts)
		return;
	gm_strvec_release(&ts->penguins);
	gm_strvec_release(&ts->notes);
	memset(ts, 0, sizeof(*ts));
}
