#include "gm/patch.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/email.h"
#include "gm/error.h"

struct line {
	const char *s;	/* start */
	size_t len;	/* without the newline */
};

static bool starts_with(const struct line *l, const char *prefix, size_t *at)
{
	size_t n = strlen(prefix);

	if (l->len < n || memcmp(l->s, prefix, n))
		return false;
	*at = n;
	return true;
}

/* Past the run of white space (`space`) or of anything else from l->s[i]. */
static size_t span(const struct line *l, size_t i, bool space)
{
	while (i < l->len && gm_email_isspace((unsigned char)l->s[i]) == space)
		i++;
	return i;
}

/*
 * Unquote the C-quoted name starting at l->s[*i] (a '"'), as git writes
 * names with unusual characters. @return 1 if one was read, 0 if not.
 */
static int unquote(struct gm_buf *out, const struct line *l, size_t *i)
{
	static const char esc[] = "abfnrtv\"\\";
	static const char val[] = "\a\b\f\n\r\t\v\"\\";
	size_t j = *i + 1;

	gm_buf_reset(out);
	while (j < l->len && l->s[j] != '"') {
		const char *e;
		unsigned v = 0;
		int error;

		if (l->s[j] != '\\') {
			error = gm_buf_putc(out, l->s[j++]);
		} else if (++j >= l->len) {
			return 0;
		} else if (l->s[j] >= '0' && l->s[j] <= '7') {
			/* up to three octal digits */
			for (size_t k = j + 3; j < k && j < l->len &&
			     l->s[j] >= '0' && l->s[j] <= '7'; j++)
				v = v * 8 + (unsigned)(l->s[j] - '0');
			error = gm_buf_putc(out, (char)v);
		} else if ((e = strchr(esc, l->s[j])) && *e) {
			error = gm_buf_putc(out, val[e - esc]);
			j++;
		} else {
			return 0;
		}
		if (error < 0)
			return error;
	}
	if (j >= l->len)
		return 0;
	*i = j + 1;
	return 1;
}

/* Strip through the first '/' and add the name. */
static int add_stripped(struct gm_patch *p, const char *name, size_t len)
{
	const char *slash = memchr(name, '/', len);

	if (slash) {
		len -= (size_t)(slash + 1 - name);
		name = slash + 1;
	}
	return gm_strvec_pushn(&p->files, name, len);
}

/* "rename from X", " mode change 100644 => 100755 X": one name to the end. */
static int parse_single_name(struct gm_patch *p, const struct line *l,
			     size_t at, bool *taken)
{
	struct gm_buf q = GM_BUF_INIT;
	size_t end;
	int error = 0;

	if (at < l->len && l->s[at] == '"') {
		size_t i = at;

		error = unquote(&q, l, &i);
		if (error > 0 && span(l, i, true) == l->len) {
			*taken = true;
			error = gm_strvec_pushn(&p->files, q.ptr, q.len);
		}
		gm_buf_release(&q);
		return error < 0 ? error : 0;
	}
	end = span(l, at, false);
	if (end == at || span(l, end, true) != l->len)
		return 0;
	*taken = true;
	return gm_strvec_pushn(&p->files, l->s + at, end - at);
}

static bool parse_mode_change(const struct line *l, size_t *at)
{
	size_t i;

	if (!starts_with(l, " mode change ", &i))
		return false;
	for (int k = 0; k < 2; k++) {
		size_t start = i;

		while (i < l->len && l->s[i] >= '0' && l->s[i] <= '7')
			i++;
		if (i == start)
			return false;
		if (k == 0) {
			if (l->len - i < 4 || memcmp(l->s + i, " => ", 4))
				return false;
			i += 4;
		}
	}
	if (i >= l->len || l->s[i] != ' ')
		return false;
	*at = i + 1;
	return true;
}

/* "diff --git a/X b/Y", plain or C-quoted. */
static int parse_diff_git(struct gm_patch *p, const struct line *l, bool *taken)
{
	struct gm_buf a = GM_BUF_INIT, b = GM_BUF_INIT;
	size_t i, e1, e2;
	int error = 0;

	if (!starts_with(l, "diff --git ", &i))
		return 0;
	if (i < l->len && l->s[i] == '"') {
		if ((error = unquote(&a, l, &i)) <= 0 || i >= l->len ||
		    l->s[i++] != ' ' || i >= l->len || l->s[i] != '"' ||
		    (error = unquote(&b, l, &i)) <= 0 || a.len < 2 ||
		    b.len < 2 || memcmp(a.ptr, "a/", 2) || memcmp(b.ptr, "b/", 2))
			goto out;
		*taken = true;
		if (!(error = gm_strvec_push(&p->files, a.ptr + 2)))
			error = gm_strvec_push(&p->files, b.ptr + 2);
		goto out;
	}
	if (l->len - i < 2 || memcmp(l->s + i, "a/", 2))
		goto out;
	i += 2;
	e1 = span(l, i, false);
	if (e1 == i || l->len - e1 < 3 || memcmp(l->s + e1, " b/", 3))
		goto out;
	e2 = span(l, e1 + 3, false);
	if (e2 == e1 + 3 || span(l, e2, true) != l->len)
		goto out;
	*taken = true;
	if (!(error = gm_strvec_pushn(&p->files, l->s + i, e1 - i)))
		error = gm_strvec_pushn(&p->files, l->s + e1 + 3, e2 - e1 - 3);
out:
	gm_buf_release(&a);
	gm_buf_release(&b);
	return error < 0 ? error : 0;
}

static int parse_fixes(struct gm_patch *p, const struct line *l, bool *taken)
{
	size_t i, start;

	if (!starts_with(l, "Fixes:", &i))
		return 0;
	start = span(l, i, true);
	if (start == i)
		return 0;
	for (i = start; i < l->len && i - start < 40 &&
	     strchr("0123456789abcdefABCDEF", l->s[i]) && l->s[i]; i++)
		;
	if (i - start < 6)
		return 0;
	*taken = true;
	return gm_strvec_pushn(&p->fixes, l->s + start, i - start);
}

/* "--- a/X" or "+++ b/X": the first token, or up to a TAB, or C-quoted. */
static int parse_file_line(struct gm_patch *p, const struct line *l,
			   bool *taken)
{
	struct gm_buf q = GM_BUF_INIT;
	size_t i, start, end;
	const char *tab;
	int error;

	if (!starts_with(l, "+++", &i) && !starts_with(l, "---", &i))
		return 0;
	start = span(l, i, true);
	if (start == i || start >= l->len)
		return 0;
	*taken = true;
	if (l->s[start] == '"') {
		size_t j = start;

		error = unquote(&q, l, &j);
		if (error > 0)
			error = add_stripped(p, q.ptr, q.len);
		else if (error == 0)
			error = 1;
		gm_buf_release(&q);
		if (error <= 0)
			return error;
	}
	end = span(l, start, false);
	tab = memchr(l->s + start, '\t', l->len - start);
	if (tab && (size_t)(tab - l->s) > end)
		end = (size_t)(tab - l->s);
	return add_stripped(p, l->s + start, end - start);
}

static bool is_hunk_header(const struct line *l)
{
	size_t i, k;

	if (!starts_with(l, "@@ -", &i))
		return false;
	for (k = i; k < l->len && l->s[k] >= '0' && l->s[k] <= '9'; k++)
		;
	if (k == i || k >= l->len || l->s[k] != ',')
		return false;
	return k + 1 < l->len && l->s[k + 1] >= '0' && l->s[k + 1] <= '9';
}

/* The numbers of a hunk header "@@ -start,len" (is_hunk_header() true). */
static long hunk_number(const struct line *l, size_t *i)
{
	long v = 0;

	for (; *i < l->len && l->s[*i] >= '0' && l->s[*i] <= '9'; ++*i)
		v = v > (LONG_MAX - 9) / 10 ? LONG_MAX : v * 10 + (l->s[*i] - '0');
	return v;
}

/* Record the hunk's range for the file of the last ---/+++ line. */
static int add_range(struct gm_patch *p, const struct line *l)
{
	struct gm_patch_range *r;
	size_t i = 4;

	if (!p->last_file)
		return 0;
	if (GM_ARRAY_GROW(p->ranges, p->nr_ranges, p->alloc_ranges) < 0)
		return GM_ERROR;
	r = &p->ranges[p->nr_ranges];
	r->start = hunk_number(l, &i);
	i++;
	r->len = hunk_number(l, &i);
	if (!(r->file = strdup(p->files.v[p->last_file - 1])))
		return gm_error_set(GM_ERROR, "out of memory");
	p->nr_ranges++;
	return 0;
}

static int add_keyword_line(struct gm_patch *p, size_t off, size_t len,
			    bool prefixed)
{
	if (GM_ARRAY_GROW(p->lines, p->nr_lines, p->alloc_lines) < 0)
		return GM_ERROR;
	p->lines[p->nr_lines].off = off;
	p->lines[p->nr_lines].len = len;
	p->lines[p->nr_lines].prefixed = prefixed;
	p->nr_lines++;
	return 0;
}

static int parse_line(struct gm_patch *p, const struct line *l, size_t off,
		      size_t full_len, bool *prefixed)
{
	bool taken = false;
	size_t at;
	int error = 0;

	if (parse_mode_change(l, &at))
		error = parse_single_name(p, l, at, &taken);
	if (!taken && !error && (starts_with(l, "rename from ", &at) ||
				 starts_with(l, "rename to ", &at)))
		error = parse_single_name(p, l, at, &taken);
	if (!taken && !error)
		error = parse_diff_git(p, l, &taken);
	if (!taken && !error)
		error = parse_fixes(p, l, &taken);
	if (!taken && !error) {
		size_t before = p->files.nr;

		error = parse_file_line(p, l, &taken);
		*prefixed |= taken;
		/* its last name is the file of the hunks after it */
		if (p->files.nr > before)
			p->last_file = p->files.nr;
	}
	if (!taken && !error && (taken = is_hunk_header(l)))
		error = add_range(p, l);
	if (!taken && !error)
		error = add_keyword_line(p, off, full_len, *prefixed);
	return error;
}

int gm_patch_parse(struct gm_patch *p, const char *buf, size_t len)
{
	bool prefixed = false;
	size_t off = 0;

	while (off < len) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t full = nl ? (size_t)(nl - (buf + off)) + 1 : len - off;
		struct line l = { buf + off, full - (nl ? 1 : 0) };
		int error = parse_line(p, &l, off, full, &prefixed);

		if (error < 0)
			return error;
		off += full;
	}
	return 0;
}

void gm_patch_release(struct gm_patch *p)
{
	gm_strvec_release(&p->files);
	gm_strvec_release(&p->fixes);
	free(p->lines);
	for (size_t i = 0; i < p->nr_ranges; i++)
		free(p->ranges[i].file);
	free(p->ranges);
	memset(p, 0, sizeof(*p));
}

bool gm_patch_is_series_name(const char *name, bool cover)
{
	size_t len = strlen(name);

	for (int i = 0; i < 4; i++)
		if (name[i] < '0' || name[i] > '9')
			return false;
	if (name[4] != '-' || len < 11 || strcmp(name + len - 6, ".patch"))
		return false;
	return cover == !strncmp(name, "0000", 4);
}

bool gm_patch_is_cover_subject(const char *text)
{
	const char *s = strstr(text, "\nSubject: [");

	if (!strncmp(text, "Subject: [", 10))
		s = text + 10;
	else if (s)
		s += 11;
	else
		return false;
	for (; *s && *s != ']' && *s != '\n'; s++) {
		const char *z = s;

		if (s[-1] != ' ' && s[-1] != '[')
			continue;
		while (*z == '0')
			z++;
		if (z > s && *z == '/')
			return true;
	}
	return false;
}

int gm_patch_unquote(struct gm_buf *out, const char *s, size_t len)
{
	struct line l = { s, len };
	size_t i = 0;
	int found;

	if (!len || s[0] != '"')
		return 0;
	found = unquote(out, &l, &i);
	if (found < 0)
		return found;
	return found && i == len;
}
