#include "gm/mailmap.h"

#include <stdlib.h>
#include <string.h>

#include "gm/email.h"
#include "gm/error.h"
#include "gm/strmap.h"

/*
 * Two maps keyed by either a bare address or a formatted "Name <addr>"
 * string: the real name, and the real address. Values are owned strings.
 */
struct gm_mailmap {
	struct gm_strmap names;
	struct gm_strmap addresses;
};

static int map_set(struct gm_strmap *m, const char *key, const char *value)
{
	char *copy = strdup(value);
	void *old;

	if (!copy)
		return gm_error_set(GM_ERROR, "out of memory");
	if (gm_strmap_get(m, key, strlen(key), &old))
		free(old);
	if (gm_strmap_put(m, key, strlen(key), copy) < 0) {
		free(copy);
		return GM_ERROR;
	}
	return 0;
}

static void map_release(struct gm_strmap *m)
{
	for (size_t i = 0; i < m->alloc; i++)
		free(m->slots[i].value);
	gm_strmap_release(m);
}

/* "text" + " <" + addr + ">" parsed back: the name the script would keep. */
static int parse_pair(struct gm_buf *name, struct gm_buf *addr,
		      const char *n, size_t nlen, const char *a, size_t alen)
{
	struct gm_buf tmp = GM_BUF_INIT;
	int error;

	while (nlen && gm_email_isspace((unsigned char)n[nlen - 1]))
		nlen--;
	if ((error = gm_buf_put(&tmp, n, nlen)) < 0 ||
	    (error = gm_buf_puts(&tmp, " <")) < 0 ||
	    (error = gm_buf_put(&tmp, a, alen)) < 0 ||
	    (error = gm_buf_putc(&tmp, '>')) < 0)
		goto out;
	error = gm_email_parse(name, addr, tmp.ptr);
out:
	gm_buf_release(&tmp);
	return error;
}

/*
 * The four line forms of R-20, tried in order, read the way a
 * backtracking regex engine reads them:
 *   1 ^([^<]+)<([^>]+)>$
 *   2 ^<([^>]+)>\s*<([^>]+)>$
 *   3 ^(.+)<([^>]+)>\s*<([^>]+)>$
 *   4 ^(.+)<([^>]+)>\s*(.+)\s*<([^>]+)>$
 * "<" A ">" below is '<', one or more bytes other than '>', then '>'.
 */

/* The '>' closing the "<" A ">" that starts at s[at], or 0 if none. */
static size_t angle_close(const char *s, size_t len, size_t at)
{
	const char *gt;

	if (at >= len || s[at] != '<')
		return 0;
	gt = memchr(s + at + 1, '>', len - at - 1);
	return gt && gt > s + at + 1 ? (size_t)(gt - s) : 0;
}

/* Whether s[at..len) is one "<" A ">". */
static bool angle_last(const char *s, size_t len, size_t at)
{
	return len && angle_close(s, len, at) == len - 1;
}

static size_t skip_space(const char *s, size_t len, size_t at)
{
	while (at < len && gm_email_isspace((unsigned char)s[at]))
		at++;
	return at;
}

static void set_group(struct gm_mailmap_line *l, int k, size_t from,
		      size_t to)
{
	l->group[k].off = from;
	l->group[k].len = to - from;
}

/* Forms 1 and 2: at most one way to read them. */
static int form_plain(const char *s, size_t len, struct gm_mailmap_line *l)
{
	const char *lt = memchr(s, '<', len);
	size_t f = lt ? (size_t)(lt - s) : 0, r, p;

	if (f && angle_last(s, len, f)) {
		set_group(l, 0, 0, f);
		set_group(l, 1, f + 1, len - 1);
		return 1;
	}
	if ((r = angle_close(s, len, 0)) &&
	    angle_last(s, len, p = skip_space(s, len, r + 1))) {
		set_group(l, 0, 1, r);
		set_group(l, 1, p + 1, len - 1);
		return 2;
	}
	return 0;
}

/*
 * Form 3: the greedy (.+) makes the first "<" A ">" the rightmost one
 * after which the rest matches.
 */
static int form_three(const char *s, size_t len, struct gm_mailmap_line *l)
{
	for (size_t q = len; q-- > 1;) {
		size_t r = s[q] == '<' ? angle_close(s, len, q) : 0, p;

		if (!r || !angle_last(s, len, p = skip_space(s, len, r + 1)))
			continue;
		set_group(l, 0, 0, q);
		set_group(l, 1, q + 1, r);
		set_group(l, 2, p + 1, len - 1);
		return 3;
	}
	return 0;
}

/*
 * The start of the last "<" A ">" in form 4: the rightmost '<' that
 * leaves a non-empty A without '>' before the final '>'; 0 if none.
 */
static size_t form_four_last(const char *s, size_t len)
{
	size_t g = len - 1;

	if (len < 3 || s[len - 1] != '>')
		return 0;
	while (g > 0 && s[g - 1] != '>')
		g--;
	for (size_t t = len - 2; t-- > g;)
		if (s[t] == '<')
			return t;
	return 0;
}

/*
 * Form 4, like form 3 for the first "<" A ">"; then the greedy (.+) runs
 * to the last one, and is one blank if that follows the blanks at once.
 */
static int form_four(const char *s, size_t len, struct gm_mailmap_line *l)
{
	size_t t = form_four_last(s, len);

	for (size_t q = t; t && q-- > 1;) {
		size_t r = s[q] == '<' ? angle_close(s, len, q) : 0, p;

		if (!r || r + 1 >= len)
			continue;
		p = skip_space(s, len, r + 1);
		if (t < p || (t == p && p == r + 1))
			continue;
		set_group(l, 0, 0, q);
		set_group(l, 1, q + 1, r);
		set_group(l, 2, t > p ? p : t - 1, t);
		set_group(l, 3, t + 1, len - 1);
		return 4;
	}
	return 0;
}

int gm_mailmap_line_form(const char *s, size_t len,
			 struct gm_mailmap_line *l)
{
	memset(l, 0, sizeof(*l));
	if (!len)
		return 0;
	if (!(l->form = form_plain(s, len, l)) &&
	    !(l->form = form_three(s, len, l)))
		l->form = form_four(s, len, l);
	return l->form;
}

static int mailmap_add_line(struct gm_mailmap *mm, const char *s, size_t len)
{
	struct gm_buf name = GM_BUF_INIT, addr = GM_BUF_INIT;
	struct gm_buf wname = GM_BUF_INIT, waddr = GM_BUF_INIT;
	struct gm_buf key = GM_BUF_INIT;
	struct gm_mailmap_line l;
	int error = 0;

#define GROUP(k) s + l.group[(k) - 1].off, l.group[(k) - 1].len
	switch (gm_mailmap_line_form(s, len, &l)) {
	case 1:		/* Name <addr> */
		if (!(error = parse_pair(&name, &addr, GROUP(1), GROUP(2))))
			error = map_set(&mm->names, addr.ptr, name.ptr);
		break;
	case 2:		/* <real> <wrong> */
		if (!(error = gm_buf_put(&addr, GROUP(1))) &&
		    !(error = gm_buf_put(&waddr, GROUP(2))))
			error = map_set(&mm->addresses, waddr.ptr, addr.ptr);
		break;
	case 3:		/* Name <real> <wrong> */
		if (!(error = parse_pair(&name, &addr, GROUP(1), GROUP(2))) &&
		    !(error = gm_buf_put(&waddr, GROUP(3))) &&
		    !(error = map_set(&mm->names, waddr.ptr, name.ptr)))
			error = map_set(&mm->addresses, waddr.ptr, addr.ptr);
		break;
	case 4:		/* Name <real> Wrong Name <wrong> */
		if (!(error = parse_pair(&name, &addr, GROUP(1), GROUP(2))) &&
		    !(error = parse_pair(&wname, &waddr, GROUP(3), GROUP(4))) &&
		    !(error = gm_email_format(&key, wname.ptr, waddr.ptr, 1)) &&
		    !(error = map_set(&mm->names, key.ptr, name.ptr)))
			error = map_set(&mm->addresses, key.ptr, addr.ptr);
		break;
	default:
		break;
	}
#undef GROUP
	gm_buf_release(&name);
	gm_buf_release(&addr);
	gm_buf_release(&wname);
	gm_buf_release(&waddr);
	gm_buf_release(&key);
	return error;
}

int gm_mailmap_from_buffer(struct gm_mailmap **out, const char *buf,
			   size_t len)
{
	struct gm_mailmap *mm = calloc(1, sizeof(*mm));
	const char *end = buf + len;
	int error = 0;

	if (!mm)
		return gm_error_set(GM_ERROR, "out of memory");
	while (buf < end) {
		const char *nl = memchr(buf, '\n', (size_t)(end - buf));
		const char *eol = nl ? nl : end;
		const char *hash = memchr(buf, '#', (size_t)(eol - buf));
		const char *s = buf, *e = hash ? hash : eol;

		while (s < e && gm_email_isspace((unsigned char)*s))
			s++;
		while (e > s && gm_email_isspace((unsigned char)e[-1]))
			e--;
		if (e > s && (error = mailmap_add_line(mm, s,
						       (size_t)(e - s))) < 0)
			break;
		buf = nl ? nl + 1 : end;
	}
	if (error < 0) {
		gm_mailmap_free(mm);
		return error;
	}
	*out = mm;
	return 0;
}

static const char *map_get(const struct gm_strmap *m, const char *key)
{
	void *v = NULL;

	return gm_strmap_get(m, key, strlen(key), &v) ? v : NULL;
}

int gm_mailmap_apply(struct gm_buf *out, const struct gm_mailmap *mm,
		     const char *line)
{
	struct gm_buf name = GM_BUF_INIT, addr = GM_BUF_INIT;
	struct gm_buf key = GM_BUF_INIT;
	const char *rname, *raddr;
	int error;

	if ((error = gm_email_parse(&name, &addr, line)) < 0 ||
	    (error = gm_email_format(&key, name.ptr, addr.ptr, 1)) < 0)
		goto out;
	rname = name.ptr;
	raddr = addr.ptr;
	if (mm && (map_get(&mm->names, key.ptr) ||
		   map_get(&mm->addresses, key.ptr))) {
		if (map_get(&mm->names, key.ptr))
			rname = map_get(&mm->names, key.ptr);
		if (map_get(&mm->addresses, key.ptr))
			raddr = map_get(&mm->addresses, key.ptr);
	} else if (mm) {
		if (map_get(&mm->names, addr.ptr))
			rname = map_get(&mm->names, addr.ptr);
		if (map_get(&mm->addresses, addr.ptr))
			raddr = map_get(&mm->addresses, addr.ptr);
	}
	gm_buf_reset(out);
	error = gm_email_format(out, rname, raddr, 1);
out:
	gm_buf_release(&name);
	gm_buf_release(&addr);
	gm_buf_release(&key);
	return error;
}

void gm_mailmap_free(struct gm_mailmap *mm)
{
	if (!mm)
		return;
	map_release(&mm->names);
	map_release(&mm->addresses);
	free(mm);
}
