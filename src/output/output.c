#include "gm/output.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/strmap.h"

/*
 * Write `s` with every control character but TAB (with `tab`, TAB too)
 * shown as \xHH: the text comes from MAINTAINERS and patches, and goes to
 * terminals and headers.
 */
static void output_text(FILE *f, const char *s, bool tab)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		const unsigned char *q = p;

		while (*q && *q != 0x7f && (*q >= ' ' || (*q == '\t' && !tab)))
			q++;
		fwrite(p, 1, (size_t)(q - p), f);
		if (!*q)
			break;
		fprintf(f, "\\x%02x", *q);
		p = q + 1;
	}
}

/* The strings of `sv` without later repeats, as R-83 prints them. */
static int output_items(FILE *f, const struct gm_strvec *sv,
			const struct gm_output_settings *s)
{
	struct gm_strmap seen = GM_STRMAP_INIT;
	size_t n = 0;
	int error = 0;

	for (size_t i = 0; i < sv->nr && !error; i++) {
		const char *v = sv->v[i];

		if (gm_strmap_get(&seen, v, strlen(v), NULL) ||
		    (error = gm_strmap_put(&seen, v, strlen(v), NULL)) < 0)
			continue;
		if (!s->multiline && n++)
			output_text(f, s->separator, false);
		output_text(f, v, false);
		if (s->multiline)
			fputc('\n', f);
	}
	gm_strmap_release(&seen);
	if (!s->multiline)
		fputc('\n', f);
	if (!error && ferror(f))
		error = gm_error_set(GM_ERROR, "write error: %s", strerror(errno));
	return error;
}

/*
 * merge_email() of R-82 over people then lists, into `lines`; with only
 * one of --to and --cc (`which` 1 or 2), just those recipients.
 */
static int people_lines(struct gm_strvec *lines, const struct gm_rank *rk,
			const struct gm_output_settings *s, int which)
{
	const struct gm_rank_list *lists[2] = { &rk->people, &rk->lists };
	bool use[2] = { s->email, s->lists };
	struct gm_strmap seen = GM_STRMAP_INIT;
	struct gm_buf line = GM_BUF_INIT, roles = GM_BUF_INIT;
	int error = 0;

	for (int k = 0; k < 2 && !error; k++) {
		for (size_t i = 0; use[k] && i < lists[k]->nr && !error; i++) {
			const struct gm_rank_entry *e = &lists[k]->v[i];
			bool to = k == 1 ||
				  (e->kinds & (GM_KIND_MAINTAINER | GM_KIND_CHIEF));

			if ((which == 1 && !to) || (which == 2 && to) ||
			    gm_strmap_get(&seen, e->addr, strlen(e->addr), NULL))
				continue;
			gm_buf_reset(&line);
			if (!s->roles)
				error = gm_buf_puts(&line, e->addr);
			else if (!(error = gm_rank_roles(&roles, e)))
				error = gm_buf_printf(&line, "%s (%s)", e->addr,
						      roles.ptr);
			if (!error)
				error = gm_strmap_put(&seen, e->addr,
						      strlen(e->addr), NULL);
			if (!error)
				error = gm_strvec_push(lines, line.ptr);
		}
	}
	gm_strmap_release(&seen);
	gm_buf_release(&line);
	gm_buf_release(&roles);
	return error;
}

/* One header, addresses joined by ", ", folded before 78 columns. */
static void output_header(FILE *f, const char *name,
			  const struct gm_strvec *addrs)
{
	size_t col;

	if (!addrs->nr)
		return;
	col = (size_t)fprintf(f, "%s:", name);
	for (size_t i = 0; i < addrs->nr; i++) {
		size_t len = strlen(addrs->v[i]) + 1 + (i + 1 < addrs->nr);

		if (i && col + len > 78) {
			fputs("\n", f);
			col = 0;
		}
		fputc(' ', f);
		output_text(f, addrs->v[i], false);
		fputs(i + 1 < addrs->nr ? "," : "", f);
		col += len;
	}
	fputc('\n', f);
}

/* --headers: "To:" and "Cc:" lines for sendemail.headerCmd. */
static int output_headers(FILE *f, const struct gm_rank *rk,
			  const struct gm_output_settings *s)
{
	struct gm_strvec to = GM_STRVEC_INIT, cc = GM_STRVEC_INIT;
	int error = people_lines(&to, rk, s, 1);

	if (!error)
		error = people_lines(&cc, rk, s, 2);
	if (!error) {
		output_header(f, "To", &to);
		output_header(f, "Cc", &cc);
	}
	gm_strvec_release(&to);
	gm_strvec_release(&cc);
	return error ? error : ferror(f) ? gm_error_set(GM_ERROR, "write error") : 0;
}

int gm_output_write(FILE *f, const struct gm_rank *rk,
		    const struct gm_output_settings *s)
{
	const struct gm_strvec *groups[] = { &rk->scm, &rk->substatus,
		&rk->status, &rk->subsystem, &rk->web, &rk->bug };
	bool wanted[] = { s->scm, s->substatus, s->status, s->subsystem,
		s->web, s->bug };
	struct gm_strvec lines = GM_STRVEC_INIT;
	int error = 0;

	if (s->headers)
		return output_headers(f, rk, s);
	if (s->email || s->lists)
		error = people_lines(&lines, rk, s, s->to == s->cc ? 0 :
				     s->to ? 1 : 2);
	if (!error && lines.nr)
		error = output_items(f, &lines, s);
	gm_strvec_release(&lines);
	for (size_t i = 0; i < sizeof(wanted) / sizeof(*wanted) && !error; i++)
		if (wanted[i])
			error = output_items(f, groups[i], s);
	return error;
}

/* ==================== --sections ==================== */

/* R-85 steps 1 and 2: a '.' not after '\' and not before '*' becomes '?'. */
static void restore_dots(char *s, size_t len)
{
	size_t i = 1;

	while (i + 1 < len) {
		if (s[i] == '.' && s[i - 1] != '\\' && s[i + 1] != '*') {
			s[i] = '?';
			i += 3;
		} else {
			i++;
		}
	}
	if (len >= 2 && s[len - 1] == '.' && s[len - 2] != '\\')
		s[len - 1] = '?';
}

/* R-85 steps 3 to 5: "\." to ".", "(?:.*)" to "**", ".*" to "*". */
static int restore_glob(struct gm_buf *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		int error;

		if (s[i] == '\\' && i + 1 < len && s[i + 1] == '.') {
			error = gm_buf_putc(out, '.');
			i += 2;
		} else if (len - i >= 6 && !memcmp(s + i, "(?:.*)", 6)) {
			error = gm_buf_puts(out, "**");
			i += 6;
		} else if (s[i] == '.' && i + 1 < len && s[i + 1] == '*') {
			error = gm_buf_putc(out, '*');
			i += 2;
		} else {
			error = gm_buf_putc(out, s[i++]);
		}
		if (error < 0)
			return error;
	}
	return 0;
}

static int section_line(struct gm_buf *out, const struct gm_maintainers *m,
			struct gm_match_ctx *ctx, size_t line)
{
	const struct gm_mline *ml = &m->lines[line];
	struct gm_buf raw = GM_BUF_INIT;
	const char *v = ml->value;
	size_t len = ml->len;
	int error;

	gm_buf_reset(out);
	if (!ml->tag)
		return gm_buf_put(out, v, len);
	if (ml->glob)
		v = gm_match_glob_value(m, ctx, line, &len);
	if ((error = gm_buf_printf(out, "%c:\t", ml->tag)) < 0)
		return error;
	if (!ml->glob)
		return gm_buf_put(out, v, len);
	/* the dot rules see the line with its "F:" in front */
	if (!(error = gm_buf_printf(&raw, "%c:", ml->tag)) &&
	    !(error = gm_buf_put(&raw, v, len))) {
		restore_dots(raw.ptr, raw.len);
		error = restore_glob(out, raw.ptr + 2, raw.len - 2);
	}
	/* Xen's last step for a value read with --brace-patterns */
	if (!error && ml->glob->glob != ml->value)
		gm_pattern_regroup(out->ptr, out->len, "(|)", "{,}");
	gm_buf_release(&raw);
	return error;
}

int gm_output_sections(FILE *f, const struct gm_maintainers *m,
		       struct gm_match_ctx *ctx, const struct gm_match_file *mf,
		       const char *letters)
{
	struct gm_buf line = GM_BUF_INIT;
	int error = 0;

	for (size_t k = 0; k < mf->nr_sections && !error; k++) {
		const struct gm_section *sec = &m->sections[mf->sections[k]];

		for (size_t i = sec->start; i < sec->end && !error; i++) {
			const struct gm_mline *ml = &m->lines[i];

			/* --letters (none: all), in either case */
			if (ml->tag && letters && *letters &&
			    !strchr(letters, tolower((unsigned char)ml->tag)) &&
			    !strchr(letters, toupper((unsigned char)ml->tag)))
				continue;
			if ((error = section_line(&line, m, ctx, i)) < 0)
				break;
			output_text(f, line.ptr, false);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	gm_buf_release(&line);
	if (!error && ferror(f))
		error = gm_error_set(GM_ERROR, "write error: %s", strerror(errno));
	return error;
}

/* ==================== JSON ==================== */

/* Length of the valid UTF-8 sequence at `s`, or 0. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > left)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* Bytes that are not UTF-8 become U+FFFD. */
void gm_output_json_put(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);

	fputc('"', f);
	while (left) {
		size_t n = utf8_len(p, left);

		if (!n) {
			fputs("\\ufffd", f);
			n = 1;
		} else if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p);
		} else {
			fwrite(p, 1, n, f);
		}
		p += n;
		left -= n;
	}
	fputc('"', f);
}

static void json_key(FILE *f, const char *key)
{
	gm_output_json_put(f, key);
	fputs(": ", f);
}

static void json_strings(FILE *f, const struct gm_strvec *sv)
{
	fputc('[', f);
	for (size_t i = 0; i < sv->nr; i++) {
		if (i)
			fputs(", ", f);
		gm_output_json_put(f, sv->v[i]);
	}
	fputc(']', f);
}

static void json_pattern(FILE *f, const struct gm_mline *ml)
{
	struct gm_buf b = GM_BUF_INIT;

	gm_buf_printf(&b, "%c: ", ml->tag);
	gm_buf_put(&b, ml->value, ml->len);
	gm_output_json_put(f, b.ptr);
	gm_buf_release(&b);
}

/* "sections": every section matched, with the files and patterns. */
static void json_sections(FILE *f, const struct gm_output_report *r)
{
	const struct gm_maintainers *m = r->m;
	bool first = true;

	fputs("  \"sections\": [", f);
	for (size_t s = 0; s < m->nr_sections; s++) {
		const struct gm_section *sec = &m->sections[s];
		bool any = false;

		for (size_t i = 0; i < r->matches->nr_files; i++) {
			const struct gm_match_file *mf = &r->matches->files[i];

			for (size_t k = 0; k < mf->nr_sections; k++) {
				if (mf->sections[k] != s)
					continue;
				if (!any) {
					fputs(first ? "\n    {\"name\": " :
						      ",\n    {\"name\": ", f);
					gm_output_json_put(f, sec->name);
					fputs(", \"status\": ", f);
					if (sec->status)
						gm_output_json_put(f, sec->status);
					else
						fputs("null", f);
					fputs(", \"matches\": [", f);
				} else {
					fputs(", ", f);
				}
				fputs("{\"file\": ", f);
				gm_output_json_put(f, mf->path);
				fputs(", \"pattern\": ", f);
				json_pattern(f, &m->lines[mf->lines[k]]);
				fputc('}', f);
				any = true;
				first = false;
			}
		}
		if (any)
			fputs("]}", f);
	}
	fputs(first ? "],\n" : "\n  ],\n", f);
}

static void json_history_person(FILE *f, const struct gm_history_person *p)
{
	fprintf(f, ", \"history\": {\"commits\": %zu, \"authored\": %zu, "
		   "\"trailers\": {", p->commits, p->authored);
	for (size_t k = 0; k < p->nr_types; k++) {
		if (k)
			fputs(", ", f);
		json_key(f, p->types[k].key);
		fprintf(f, "%zu", p->types[k].lines);
	}
	fprintf(f, "}, \"author_rev\": %zu, \"long_rev\": %.3f}",
		p->author_rev, p->long_rev);
}

static void json_person(FILE *f, const struct gm_output_report *r,
			const struct gm_rank_entry *e, bool kept,
			struct gm_buf *name, struct gm_buf *addr)
{
	static const char *const scopes[] = { "none", "catchall", "reviewer",
					       "maintainer" };

	gm_email_parse(name, addr, e->addr);
	gm_email_unquote(name);
	fputs("\"name\": ", f);
	gm_output_json_put(f, name->ptr);
	fputs(", \"email\": ", f);
	gm_output_json_put(f, addr->ptr);
	fputs(", \"roles\": ", f);
	json_strings(f, &e->roles);
	fprintf(f, ", \"maintainers\": %s",
		e->kinds & (GM_KIND_MAINTAINER | GM_KIND_REVIEWER) ?
		"true" : "false");
	if (r->history)	/* as gm_rank_add_history() ranked and cut */
		fprintf(f, ", \"inactive\": %s, \"kept\": %s, \"score\": %g, "
			   "\"scope\": \"%s\"",
			gm_strvec_contains(&e->roles, "inactive") ? "true" : "false",
			kept ? "true" : "false", e->score, scopes[e->scope]);
	if (e->history)
		json_history_person(f, e->history);
	fputc('}', f);
}

/* The people listed, then (--history) those ranked but cut, best first. */
static void json_people(FILE *f, const struct gm_output_report *r)
{
	struct gm_buf name = GM_BUF_INIT, addr = GM_BUF_INIT;
	const struct gm_rank_list *l = &r->rank->people, *cut = &r->rank->cut;
	size_t n = 0;

	fputs("  \"people\": [", f);
	for (size_t i = 0; r->rank->set->email && i < l->nr + cut->nr; i++) {
		bool kept = i < l->nr;

		fputs(n++ ? ",\n    {" : "\n    {", f);
		json_person(f, r, kept ? &l->v[i] : &cut->v[i - l->nr], kept,
			    &name, &addr);
	}
	fputs(n ? "\n  ],\n" : "],\n", f);
	gm_buf_release(&name);
	gm_buf_release(&addr);
}

static void json_lists(FILE *f, const struct gm_output_report *r)
{
	const struct gm_rank_list *l = &r->rank->lists;
	bool show = r->rank->set->lists;

	fputs("  \"lists\": [", f);
	for (size_t i = 0; show && i < l->nr; i++) {
		fputs(i ? ",\n    {\"address\": " : "\n    {\"address\": ", f);
		gm_output_json_put(f, l->v[i].addr);
		fputs(", \"roles\": ", f);
		json_strings(f, &l->v[i].roles);
		fputc('}', f);
	}
	fputs(show && l->nr ? "\n  ]" : "]", f);
}

/* "git": per file walked, its commits and the counts behind each role. */
static void json_git(FILE *f, const struct gm_signers_report *g)
{
	fprintf(f, ",\n  \"git\": {\"since\": %lld, \"files\": [",
		(long long)g->since);
	for (size_t i = 0; i < g->nr_facts; i++) {
		const struct gm_signers_facts *x = &g->facts[i];
		const struct gm_strvec *from = &g->walk->files[i].renamed_from;

		fputs(i ? ",\n    {\"file\": " : "\n    {\"file\": ", f);
		gm_output_json_put(f, x->path);
		fputs(", \"renamed_from\": ", f);
		json_strings(f, from);
		fputs(", \"commits\": ", f);
		json_strings(f, &x->commits);
		fputs(", \"roles\": {", f);
		for (size_t k = 0; k < x->nr_roles; k++) {
			const struct gm_signers_role *ro = &x->roles[k];

			fputs(k ? ", " : "", f);
			json_key(f, ro->name);
			fprintf(f, "{\"divisor\": %d, \"people\": [", ro->divisor);
			for (size_t n = 0; n < ro->nr; n++) {
				fputs(n ? ", {\"who\": " : "{\"who\": ", f);
				gm_output_json_put(f, ro->v[n].who);
				fprintf(f, ", \"count\": %d}", ro->v[n].count);
			}
			fputs("]}", f);
		}
		fputs("}}", f);
	}
	fputs(g->nr_facts ? "\n  ]}" : "]}", f);
}

int gm_output_json(FILE *f, const struct gm_output_report *r)
{
	fputs("{\n  \"version\": 1,\n  \"rev\": ", f);
	gm_output_json_put(f, r->rev);
	fputs(",\n  \"files\": ", f);
	json_strings(f, r->files);
	fputs(",\n", f);
	json_sections(f, r);
	json_people(f, r);
	json_lists(f, r);
	if (r->history) {
		fprintf(f, ",\n  \"history\": {\"commits\": %zu, \"since\": %lld, "
			   "\"until\": ", r->history->commits,
			(long long)r->since);
		if (r->until == INT64_MAX)
			fputs("null", f);
		else
			fprintf(f, "%lld", (long long)r->until);
		fprintf(f, ", \"shallow\": %s}",
			r->history->shallow ? "true" : "false");
	}
	if (r->git)
		json_git(f, r->git);
	fputs("\n}\n", f);
	return ferror(f) ? gm_error_set(GM_ERROR, "write error: %s",
					strerror(errno)) : 0;
}

int gm_output_batch_text(struct gm_buf *out, const char *path,
			 const char *text, size_t len, bool nul)
{
	const char *s = text, *end = text + len;
	int error = 0;

	while (s < end && !error) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		if (!(error = gm_buf_puts(out, path)) &&
		    !(error = gm_buf_putc(out, '\t')) &&
		    !(error = gm_buf_put(out, s, n)))
			error = gm_buf_putc(out, nul ? '\0' : '\n');
		s += n + 1;
	}
	return error;
}

int gm_output_batch_json(struct gm_buf *out, const char *path,
			 const char *doc, size_t len)
{
	const char *s = doc, *end = doc + len;
	bool in_string = false, escaped = false;
	char *line = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&line, &n);
	int error;

	if (!f)
		return gm_error_set(GM_ERROR, "out of memory");
	fputs("{\"input\": ", f);
	gm_output_json_put(f, path);
	fputs(", ", f);
	for (s = s < end && *s == '{' ? s + 1 : s; s < end; s++) {
		if (!in_string && *s == '\n') {
			while (s + 1 < end && s[1] == ' ')
				s++;
			continue;
		}
		in_string ^= *s == '"' && !escaped;
		escaped = in_string && !escaped && *s == '\\';
		fputc(*s, f);
	}
	fputc('\n', f);
	error = fclose(f) ? gm_error_set(GM_ERROR, "out of memory") :
			    gm_buf_put(out, line, n);
	free(line);
	return error;
}

void gm_output_message(FILE *f, const char *prefix, const char *msg)
{
	fputs(prefix, f);
	output_text(f, msg, true);
	fputc('\n', f);
}
