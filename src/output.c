#include "gm/output.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/strmap.h"

static int output_items(FILE *f, const char *const *items, size_t nr,
			const struct gm_options *o)
{
	for (size_t i = 0; i < nr; i++) {
		if (!o->multiline && i)
			fputs(o->separator, f);
		fputs(items[i], f);
		if (o->multiline)
			fputc('\n', f);
	}
	if (!o->multiline)
		fputc('\n', f);
	return ferror(f) ? gm_error_set(GM_ERROR, "write error: %s",
					strerror(errno)) : 0;
}

/* The strings of `sv` without later repeats, borrowed into `out`. */
static int uniq_items(const struct gm_strvec *sv, const char ***out,
		      size_t *nr)
{
	struct gm_strmap seen = GM_STRMAP_INIT;
	const char **v = calloc(sv->nr + 1, sizeof(*v));
	int error = 0;

	*nr = 0;
	if (!v)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < sv->nr && !error; i++) {
		const char *s = sv->v[i];

		if (gm_strmap_get(&seen, s, strlen(s), NULL))
			continue;
		error = gm_strmap_put(&seen, s, strlen(s), NULL);
		v[(*nr)++] = s;
	}
	gm_strmap_release(&seen);
	*out = v;
	return error;
}

static int output_group(FILE *f, const struct gm_strvec *sv,
			const struct gm_options *o)
{
	const char **items = NULL;
	size_t nr;
	int error = uniq_items(sv, &items, &nr);

	if (!error)
		error = output_items(f, items, nr, o);
	free(items);
	return error;
}

/* merge_email() of R-82 over people then lists. */
static int output_people(FILE *f, const struct gm_rank *rk,
			 const struct gm_options *o)
{
	const struct gm_rank_list *lists[2] = { &rk->people, &rk->lists };
	bool use[2] = { o->email, o->lists };
	struct gm_strvec lines = GM_STRVEC_INIT;
	struct gm_strmap seen = GM_STRMAP_INIT;
	struct gm_buf line = GM_BUF_INIT;
	int error = 0;

	for (int k = 0; k < 2 && !error; k++) {
		for (size_t i = 0; use[k] && i < lists[k]->nr && !error; i++) {
			const struct gm_rank_entry *e = &lists[k]->v[i];

			if (gm_strmap_get(&seen, e->addr, strlen(e->addr), NULL))
				continue;
			gm_buf_reset(&line);
			error = o->roles ?
				gm_buf_printf(&line, "%s (%s)", e->addr, e->role) :
				gm_buf_puts(&line, e->addr);
			if (!error)
				error = gm_strmap_put(&seen, e->addr,
						      strlen(e->addr), NULL);
			if (!error)
				error = gm_strvec_push(&lines, line.ptr);
		}
	}
	if (!error && lines.nr)
		error = output_items(f, (const char *const *)lines.v, lines.nr, o);
	gm_strvec_release(&lines);
	gm_strmap_release(&seen);
	gm_buf_release(&line);
	return error;
}

int gm_output_write(FILE *f, const struct gm_rank *rk,
		    const struct gm_options *o)
{
	int error = 0;

	if (o->email || o->lists)
		error = output_people(f, rk, o);
	if (!error && o->scm)
		error = output_group(f, &rk->scm, o);
	if (!error && o->substatus && o->email && o->roles)
		error = output_group(f, &rk->substatus, o);
	if (!error && o->status)
		error = output_group(f, &rk->status, o);
	if (!error && o->subsystem)
		error = output_group(f, &rk->subsystem, o);
	if (!error && o->web)
		error = output_group(f, &rk->web, o);
	if (!error && o->bug)
		error = output_group(f, &rk->bug, o);
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

static bool letter_wanted(const char *letters, char tag)
{
	if (!letters || !*letters)
		return true;
	for (; *letters; letters++)
		if (tolower((unsigned char)*letters) == tolower((unsigned char)tag))
			return true;
	return false;
}

static int section_line(struct gm_buf *out, struct gm_maintainers *m,
			struct gm_mline *ml)
{
	struct gm_buf raw = GM_BUF_INIT;
	const char *v = ml->value;
	size_t len = ml->len;
	int error;

	gm_buf_reset(out);
	if (!ml->tag)
		return gm_buf_put(out, v, len);
	if (ml->glob)
		v = gm_glob_value(ml->glob, m->isdir, m->isdir_payload, &len);
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
	gm_buf_release(&raw);
	return error;
}

int gm_output_sections(FILE *f, struct gm_maintainers *m,
		       const struct gm_match_file *mf, const char *letters)
{
	struct gm_buf line = GM_BUF_INIT;
	int error = 0;

	for (size_t k = 0; k < mf->nr_sections && !error; k++) {
		const struct gm_section *sec = &m->sections[mf->sections[k]];

		for (size_t i = sec->start; i < sec->end && !error; i++) {
			struct gm_mline *ml = &m->lines[i];

			if (ml->tag && !letter_wanted(letters, ml->tag))
				continue;
			if (!(error = section_line(&line, m, ml)))
				fprintf(f, "%s\n", line.ptr);
		}
		fputc('\n', f);
	}
	gm_buf_release(&line);
	if (!error && ferror(f))
		error = gm_error_set(GM_ERROR, "write error: %s", strerror(errno));
	return error;
}
