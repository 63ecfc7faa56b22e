/* strcasestr() is a GNU and BSD extension, in every libc we build with. */
#define _GNU_SOURCE
#include "gm/maintainers.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gm/email.h"
#include "gm/buf.h"
#include "gm/error.h"

#define SECTION_MAXLEN 50

/*
 * The line s[0..end), NUL-terminated at `end`, with `nul` if the text
 * may hold other NULs.
 */
static int maintainers_add_line(struct gm_maintainers *m, char *s,
				const char *end, bool nul, size_t *alloc)
{
	const char *t = s + strspn(s, " \t\n\r\f\v");
	struct gm_mline *ml;

	if (!*t || *t == '#')	/* blank, or a comment */
		return 0;
	if (GM_ARRAY_GROW(m->lines, m->nr_lines, *alloc) < 0)
		return GM_ERROR;
	ml = &m->lines[m->nr_lines++];
	memset(ml, 0, sizeof(*ml));
	ml->value = s;
	if (s[0] >= 'A' && s[0] <= 'Z' && s[1] == ':') {
		ml->tag = s[0];
		ml->value = s + 2;
		while (gm_email_isspace((unsigned char)*ml->value))
			ml->value++;
	}
	/* a NUL inside the line ends its value, as it ends a C string */
	ml->len = nul ? strlen(ml->value) : (size_t)(end - ml->value);
	return 0;
}

/* Keep `text` (NULL: out of memory) in m->texts, or free it. */
static int maintainers_keep(struct gm_maintainers *m, char *text)
{
	char **texts = text ? realloc(m->texts, (m->nr_texts + 1) *
					       sizeof(*texts)) : NULL;

	if (!texts) {
		free(text);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	m->texts = texts;
	m->texts[m->nr_texts++] = text;
	return 0;
}

static int maintainers_add_text(struct gm_maintainers *m, const char *buf,
				size_t len, size_t *alloc)
{
	char *text = malloc(len + 1), *p, *end;
	size_t lineno = 1;
	bool nul;

	if (maintainers_keep(m, text) < 0)
		return GM_ERROR;
	memcpy(text, buf, len);
	text[len] = '\0';
	nul = memchr(text, '\0', len) != NULL;
	for (p = text, end = text + len; p < end; lineno++) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *eol = nl ? nl : end;
		size_t before = m->nr_lines;

		if (eol > p && eol[-1] == '\r')	/* CRLF: the CR is no value */
			eol--;
		*eol = '\0';
		if (maintainers_add_line(m, p, eol, nul, alloc) < 0)
			return GM_ERROR;
		if (m->nr_lines > before) {	/* for messages naming it */
			m->lines[before].file = (uint32_t)(m->nr_texts - 1);
			m->lines[before].lineno = (uint32_t)lineno;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* Give each F:/X: line its glob and each N:/K: line its regex. */
static int maintainers_compile(struct gm_maintainers *m)
{
	size_t nglobs = 0, nregexes = 0;

	for (size_t i = 0; i < m->nr_lines; i++) {
		char t = m->lines[i].tag;

		nglobs += t == 'F' || t == 'X';
		nregexes += t == 'N' || t == 'K';
	}
	if (nglobs > UINT32_MAX || nregexes > UINT32_MAX)
		return gm_error_set(GM_ERROR, "too many patterns");
	m->globs = calloc(nglobs ? nglobs : 1, sizeof(*m->globs));
	m->regexes = calloc(nregexes ? nregexes : 1, sizeof(*m->regexes));
	if (!m->globs || !m->regexes)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < m->nr_lines; i++) {
		struct gm_mline *ml = &m->lines[i];

		if (ml->tag == 'F' || ml->tag == 'X') {
			struct gm_glob *g = &m->globs[m->nr_globs];

			gm_glob_init(g, ml->value, ml->len);
			ml->glob = g;
			ml->pattern = (uint32_t)m->nr_globs++;
		} else if (ml->tag == 'N' || ml->tag == 'K') {
			struct gm_regex *re = &m->regexes[m->nr_regexes];

			if (gm_regex_init(re, ml->value, ml->len) < 0)
				return GM_ERROR;
			ml->regex = re;
			ml->pattern = (uint32_t)m->nr_regexes++;
		}
	}
	return 0;
}

/* The name as roles show it: shortened, in a copy, if too long. */
static int section_short_name(struct gm_section *sec)
{
	size_t len = strlen(sec->name);
	char *s;

	sec->short_name = sec->name;
	if (len <= SECTION_MAXLEN)
		return 0;
	len = SECTION_MAXLEN - 3;
	while (len && gm_email_isspace((unsigned char)sec->name[len - 1]))
		len--;
	if (!(s = malloc(len + 4)))
		return gm_error_set(GM_ERROR, "out of memory");
	memcpy(s, sec->name, len);
	memcpy(s + len, "...", 4);
	sec->short_name = sec->own_short_name = s;
	return 0;
}

static void section_scan_tags(struct gm_maintainers *m, struct gm_section *sec)
{
	for (size_t i = sec->start; i < sec->end; i++) {
		const struct gm_mline *ml = &m->lines[i];

		if (ml->tag == 'S') {
			sec->maintained |= strcasestr(ml->value, "maintain") ||
					   strcasestr(ml->value, "support");
			if (i > sec->start)
				sec->status = ml->value;
		} else if (ml->tag == 'M') {
			sec->has_maintainer = 1;
		}
	}
}

/*
 * The section scan of R-15: from the first tag line, each run of tag lines
 * is a section named by the line before it; the scan resumes one line
 * after the run ends.
 */
static int maintainers_find_sections(struct gm_maintainers *m)
{
	size_t tvi = 0, alloc = 0;

	while (tvi < m->nr_lines && !m->lines[tvi].tag)
		tvi++;
	m->section_of = malloc((m->nr_lines + 1) * sizeof(*m->section_of));
	if (!m->section_of)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < m->nr_lines; i++)
		m->section_of[i] = SIZE_MAX;
	while (tvi < m->nr_lines) {
		size_t start = tvi, end = tvi;
		struct gm_section *sec;

		while (start > 0 && m->lines[start].tag)
			start--;
		while (end < m->nr_lines && m->lines[end].tag)
			end++;
		tvi = end + 1;
		if (start == end)
			continue;
		if (GM_ARRAY_GROW(m->sections, m->nr_sections, alloc) < 0)
			return GM_ERROR;
		sec = &m->sections[m->nr_sections];
		memset(sec, 0, sizeof(*sec));
		sec->start = start;
		sec->end = end;
		sec->name = m->lines[start].value;
		if (m->lines[start].tag) {	/* stored as the script does: "X:value" */
			const struct gm_mline *ml = &m->lines[start];

			if (!(sec->own_name = malloc(ml->len + 3)))
				return gm_error_set(GM_ERROR, "out of memory");
			sec->own_name[0] = ml->tag;
			sec->own_name[1] = ':';
			memcpy(sec->own_name + 2, ml->value, ml->len + 1);
			sec->name = sec->own_name;
		}
		if (section_short_name(sec) < 0)
			return GM_ERROR;
		section_scan_tags(m, sec);
		for (size_t i = start; i < end; i++)
			m->section_of[i] = m->nr_sections;
		m->nr_sections++;
	}
	return 0;
}

int gm_maintainers_parse(struct gm_maintainers **out, const char *const *bufs,
			 const size_t *lens, size_t n)
{
	struct gm_maintainers *m = calloc(1, sizeof(*m));
	size_t alloc = 0;
	int error = 0;

	if (!m)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < n && !error; i++)
		error = maintainers_add_text(m, bufs[i], lens[i], &alloc);
	if (!error)
		error = maintainers_compile(m);
	if (!error)
		error = maintainers_find_sections(m);
	if (error) {
		gm_maintainers_free(m);
		return error;
	}
	*out = m;
	return 0;
}

int gm_maintainers_braces(struct gm_maintainers *m)
{
	for (size_t i = 0; i < m->nr_lines; i++) {
		struct gm_mline *ml = &m->lines[i];
		char *re;

		if ((ml->tag != 'F' && ml->tag != 'X') ||
		    !memchr(ml->value, '{', ml->len))
			continue;
		re = strndup(ml->value, ml->len);
		if (re && !gm_pattern_regroup(re, ml->len, "{,}", "(|)")) {
			free(re);
			continue;
		}
		if (maintainers_keep(m, re) < 0)
			return GM_ERROR;
		gm_glob_init(&m->globs[ml->pattern], re, ml->len);
	}
	return 0;
}

unsigned gm_maintainers_stars(const struct gm_maintainers *m, size_t from,
			      size_t to)
{
	unsigned stars = 0;

	for (size_t i = from; i < to; i++) {
		if (m->lines[i].tag != 'F')
			continue;
		if (!strcmp(m->lines[i].value, "*"))
			stars |= GM_STARS_FILES;
		else if (!strcmp(m->lines[i].value, "*/"))
			stars |= GM_STARS_DIRS;
	}
	return stars;
}

/* Free `names`, ended by a NULL (texts added later have none). */
static void names_free(char **names)
{
	for (size_t i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

int gm_maintainers_set_names(struct gm_maintainers *m,
			     const char *const *names, size_t n)
{
	char **v = calloc(m->nr_texts + 1, sizeof(*v));

	if (!v)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < m->nr_texts && i < n; i++) {
		if (!(v[i] = strdup(names[i]))) {
			names_free(v);
			return gm_error_set(GM_ERROR, "out of memory");
		}
	}
	names_free(m->names);
	m->names = v;
	return 0;
}

void gm_maintainers_free(struct gm_maintainers *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_regexes; i++)
		gm_regex_release(&m->regexes[i]);
	free(m->globs);
	free(m->regexes);
	for (size_t i = 0; i < m->nr_sections; i++) {
		free(m->sections[i].own_short_name);
		free(m->sections[i].own_name);
	}
	for (size_t i = 0; i < m->nr_texts; i++)
		free(m->texts[i]);
	free(m->texts);
	names_free(m->names);
	free(m->lines);
	free(m->sections);
	free(m->section_of);
	free(m);
}
