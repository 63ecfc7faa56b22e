/*
 * --check: the recipients and the approvals of patches, judged against
 * what the rules name.
 */
#include "gm/check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gm/email.h"
#include "gm/error.h"
#include "gm/output.h"
#include "gm/trailer.h"

/* ==================== mails ==================== */

/* The end of the line at `i` (after its '\n'), and its length without it. */
static size_t line_end(const char *t, size_t len, size_t i, size_t *n)
{
	const char *nl = memchr(t + i, '\n', len - i);
	size_t end = nl ? (size_t)(nl - t) + 1 : len;

	*n = end - i - (nl != NULL);
	if (*n && t[i + *n - 1] == '\r')
		(*n)--;
	return end;
}

static bool is_from_line(const char *t, size_t len, size_t i)
{
	return len - i >= 5 && !memcmp(t + i, "From ", 5);
}

bool gm_check_next_mail(struct gm_check_mail *m, const char *text,
			size_t len, size_t *pos)
{
	size_t i = *pos, n, next;
	bool blank = true;

	while (i < len && (line_end(text, len, i, &n), !n))
		i = line_end(text, len, i, &n);
	if (i < len && is_from_line(text, len, i))
		i = line_end(text, len, i, &n);
	if (i >= len)
		return false;
	m->text = text + i;
	m->body = SIZE_MAX;
	for (next = i; next < len; blank = !n) {
		if (blank && next > i && is_from_line(text, len, next))
			break;
		next = line_end(text, len, next, &n);
		if (!n && m->body == SIZE_MAX)
			m->body = next - i;
	}
	m->len = next - i;
	if (m->body == SIZE_MAX)
		m->body = m->len;
	*pos = next;
	return true;
}

int gm_check_header(struct gm_buf *out, const struct gm_check_mail *m,
		    const char *name)
{
	size_t nlen = strlen(name), i = 0, n, next;
	bool in = false, found = false;
	int error = 0;

	gm_buf_reset(out);
	for (; i < m->body && !error; i = next) {
		const char *s = m->text + i;

		next = line_end(m->text, m->body, i, &n);
		if (n && (*s == ' ' || *s == '\t')) {
			if (in)
				error = gm_buf_put(out, s, n);
			continue;
		}
		in = n > nlen && s[nlen] == ':' && !strncasecmp(s, name, nlen);
		if (!in)
			continue;
		if (found)
			error = gm_buf_puts(out, ", ");
		found = true;
		s += nlen + 1;
		n -= nlen + 1;
		for (; n && (*s == ' ' || *s == '\t'); n--)
			s++;
		if (!error)
			error = gm_buf_put(out, s, n);
	}
	return error < 0 ? error : found;
}

/* The mailboxes of a header value, split at commas outside "", <>, (). */
static int split(struct gm_strvec *out, const char *value)
{
	int quoted = 0, angle = 0, paren = 0;
	const char *start = value;
	size_t n;

	for (const char *p = value;; p++) {
		if (*p == '\\' && quoted && p[1]) {
			p++;
			continue;
		}
		if (*p == '"' && !paren)
			quoted = !quoted;
		else if (!quoted && (*p == '<' || *p == '>'))
			angle += *p == '<' ? 1 : -1;
		else if (!quoted && (*p == '(' || *p == ')'))
			paren += *p == '(' ? 1 : -1;
		if (*p && (*p != ',' || quoted || angle > 0 || paren > 0))
			continue;
		while (start < p && gm_email_isspace((unsigned char)*start))
			start++;
		n = (size_t)(p - start);
		while (n && gm_email_isspace((unsigned char)start[n - 1]))
			n--;
		if (n && gm_strvec_pushn(out, start, n) < 0)
			return GM_ERROR;
		if (!*p)
			return 0;
		start = p + 1;
	}
}

/* ==================== people ==================== */

void gm_check_init(struct gm_check *c, const struct gm_mailmap *mailmap)
{
	memset(c, 0, sizeof(*c));
	c->mailmap = mailmap;
}

void gm_check_release(struct gm_check *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		for (size_t k = 0; k < c->v[i].nr; k++) {
			free(c->v[i].v[k].who);
			free(c->v[i].v[k].why);
			free(c->v[i].v[k].via);
			gm_strvec_release(&c->v[i].v[k].could);
		}
		free(c->v[i].v);
		free(c->v[i].name);
		free(c->v[i].subject);
	}
	free(c->v);
	gm_strmap_release(&c->reached);
	gm_strvec_release(&c->held);
	gm_buf_release(&c->key);
	gm_buf_release(&c->name);
	gm_buf_release(&c->addr);
	gm_buf_release(&c->mapped);
	memset(c, 0, sizeof(*c));
}

/*
 * The key of the mailbox `who` into c->key: its address after the
 * .mailmap (looked up as written, then in lower case), in lower case.
 * @return 1 if the .mailmap changed the address, 0 if not, or GM_ERROR.
 */
static int key_of(struct gm_check *c, const char *who)
{
	int error;

	gm_buf_reset(&c->key);
	if ((error = gm_email_parse(&c->name, &c->addr, who)) < 0 ||
	    (error = gm_buf_puts(&c->key, *c->addr.ptr ? c->addr.ptr :
				 who)) < 0)
		return error;
	if (gm_buf_set_lower(&c->key, c->key.ptr) < 0)
		return GM_ERROR;
	for (int pass = 0; pass < 2; pass++) {
		if ((error = gm_mailmap_apply(&c->mapped, c->mailmap, pass ?
					      c->key.ptr : who)) < 0 ||
		    (error = gm_email_parse(&c->name, &c->addr,
					    c->mapped.ptr)) < 0)
			return error;
		if (gm_buf_set_lower(&c->addr, c->addr.ptr) < 0)
			return GM_ERROR;
		if (*c->addr.ptr && strcmp(c->addr.ptr, c->key.ptr)) {
			gm_buf_reset(&c->key);
			return gm_buf_puts(&c->key, c->addr.ptr) < 0 ? GM_ERROR : 1;
		}
	}
	return 0;
}

/* A value of c->reached: reached at its own address. */
static char own[] = "";

/*
 * The addresses of the `name:` headers of `m` (NULL: none) into
 * c->reached, each with the address written if the .mailmap changed it.
 */
static int reach(struct gm_check *c, const struct gm_check_mail *m,
		 const char *name, struct gm_buf *value)
{
	struct gm_strvec who = GM_STRVEC_INIT;
	int error = 0, mapped;

	if (!m || (error = gm_check_header(value, m, name)) <= 0 ||
	    (error = split(&who, value->ptr)) < 0)
		goto out;
	for (size_t i = 0; i < who.nr && error >= 0; i++) {
		if ((error = mapped = key_of(c, who.v[i])) < 0 ||
		    gm_strmap_get(&c->reached, c->key.ptr, c->key.len, NULL) ||
		    (mapped && (error = gm_strvec_push(&c->held, who.v[i])) < 0))
			continue;
		error = gm_strmap_put(&c->reached, c->key.ptr, c->key.len,
				      mapped ? c->held.v[c->held.nr - 1] : own);
	}
out:
	gm_strvec_release(&who);
	return error < 0 ? error : 0;
}

/* ==================== verdicts ==================== */

static int patch_new(struct gm_check *c, const char *name,
		     const struct gm_check_mail *m, struct gm_check_patch **out)
{
	struct gm_check_patch *p;
	struct gm_buf subject = GM_BUF_INIT;
	int error;

	if ((error = GM_ARRAY_GROW(c->v, c->nr, c->alloc)) < 0 ||
	    (error = gm_check_header(&subject, m, "Subject")) < 0)
		goto out;
	p = *out = memset(&c->v[c->nr++], 0, sizeof(*p));
	p->subject = gm_buf_detach(&subject, NULL);
	if (!(p->name = strdup(name)) || !p->subject)
		error = gm_error_set(GM_ERROR, "out of memory");
out:
	gm_buf_release(&subject);
	return error;
}

static struct gm_check_item *item_new(struct gm_check_patch *p,
				      enum gm_check_verdict v, const char *who,
				      const char *why, const char *via)
{
	struct gm_check_item *it;

	if (GM_ARRAY_GROW(p->v, p->nr, p->alloc) < 0)
		return NULL;
	it = memset(&p->v[p->nr++], 0, sizeof(*it));
	it->verdict = v;
	p->missing += v == GM_CHECK_MISSING;
	it->who = strdup(who);
	it->why = strdup(why);
	it->via = via ? strdup(via) : NULL;
	if (!it->who || !it->why || (via && !it->via)) {
		gm_error_set(GM_ERROR, "out of memory");
		return NULL;
	}
	return it;
}

/* Item `it` is also there for `why`; required wins over advice. */
static int merge(struct gm_check_patch *p, struct gm_check_item *it,
		 const char *why, bool required)
{
	struct gm_buf joined = GM_BUF_INIT;

	if (gm_buf_printf(&joined, "%s, %s", it->why, why) < 0)
		return GM_ERROR;
	free(it->why);
	it->why = gm_buf_detach(&joined, NULL);
	if (required && it->verdict == GM_CHECK_ADVICE) {
		it->verdict = GM_CHECK_MISSING;
		p->missing++;
	}
	return 0;
}

/*
 * The verdict on `who` with role `why`: reached, or, for a list, an
 * address its L: line's note names (its alias) was; merged into the item
 * of the same person, found by key in `judged`, if there is one.
 */
static int judge(struct gm_check *c, struct gm_check_patch *p,
		 struct gm_strmap *judged, const char *who, const char *why,
		 const struct gm_mline *line, bool required)
{
	struct gm_strvec alias = GM_STRVEC_INIT;
	const char *via = NULL, *note;
	void *v = NULL;
	int found, error = key_of(c, who);

	if (error >= 0 && gm_strmap_get(judged, c->key.ptr, c->key.len, &v))
		return merge(p, &p->v[(uintptr_t)v - 1], why, required);
	if (error < 0 || (error = gm_strmap_put(judged, c->key.ptr, c->key.len,
						(void *)(uintptr_t)(p->nr + 1))))
		return error;
	if ((found = gm_strmap_get(&c->reached, c->key.ptr, c->key.len, &v)))
		via = *(char *)v ? v : NULL;
	else if (line && line->tag == 'L' &&
		 (note = strpbrk(line->value, " \t")))
		error = gm_email_scan_text(&alias, note, strlen(note), 0,
					   false);
	for (size_t i = 0; i < alias.nr && !found && error >= 0; i++)
		if ((error = key_of(c, alias.v[i])) >= 0 &&
		    (found = gm_strmap_get(&c->reached, c->key.ptr, c->key.len,
					   NULL)))
			via = alias.v[i];
	if (error >= 0 && !item_new(p, found ? GM_CHECK_OK : required ?
				    GM_CHECK_MISSING : GM_CHECK_ADVICE, who,
				    *why ? why : "listed", via))
		error = GM_ERROR;
	gm_strvec_release(&alias);
	return error < 0 ? error : 0;
}

int gm_check_recipients(struct gm_check *c, const char *name,
			const struct gm_check_mail *mail,
			const struct gm_check_mail *cover,
			const struct gm_rank *rk, const struct gm_strvec *fixes)
{
	unsigned must = GM_KIND_MAINTAINER |
			(c->reviewers ? GM_KIND_REVIEWER : 0u);
	struct gm_strmap judged = GM_STRMAP_INIT;
	struct gm_buf value = GM_BUF_INIT;
	struct gm_check_patch *p;
	int error;

	gm_strmap_release(&c->reached);
	gm_strvec_release(&c->held);
	if ((error = patch_new(c, name, mail, &p)) < 0 ||
	    (error = reach(c, mail, "To", &value)) < 0 ||
	    (error = reach(c, mail, "Cc", &value)) < 0 ||
	    (error = reach(c, cover, "To", &value)) < 0 ||
	    (error = reach(c, cover, "Cc", &value)) < 0)
		goto out;
	for (size_t i = 0; i + 1 < fixes->nr && !error; i += 2)
		error = judge(c, p, &judged, fixes->v[i], fixes->v[i + 1],
			      NULL, true);
	for (size_t i = 0; i < rk->people.nr + rk->lists.nr && !error; i++) {
		bool list = i >= rk->people.nr;
		const struct gm_rank_entry *e = list ?
			&rk->lists.v[i - rk->people.nr] : &rk->people.v[i];

		if (!(error = gm_rank_roles(&value, e)))
			error = judge(c, p, &judged, e->addr, value.ptr,
				      list ? e->source : NULL, list ||
				      c->history || (e->kinds & must));
	}
out:
	gm_strmap_release(&judged);
	gm_buf_release(&value);
	return error;
}

/* Put `who` with `how` ("Acked-by: ...", owned by c->held) in c->reached. */
static int approver(struct gm_check *c, const char *who, const char *how)
{
	int error = key_of(c, who);

	return error < 0 ? error : gm_strmap_put(&c->reached, c->key.ptr,
						 c->key.len, (void *)how);
}

/*
 * Who approved `mail`, into c->reached: the Acked-by: and Reviewed-by:
 * lines, the Signed-off-by: lines after the one of `author` (a key), the
 * committer.
 */
static int approvers(struct gm_check *c, const struct gm_check_mail *mail,
		     const char *committer, const char *author)
{
	const char *t = mail->text;
	size_t i = mail->body, n, next;
	bool after = false;	/* the author's sign-off seen */
	int error = 0;

	for (; i < mail->len && error >= 0; i = next) {
		const char *s = t + i, *how;
		struct gm_trailer tr;
		bool sob;

		next = line_end(t, mail->len, i, &n);
		if ((n == 3 && !memcmp(s, "---", 3)) ||
		    (n >= 11 && !memcmp(s, "diff --git ", 11)))
			break;
		if (!gm_trailer_parse(&tr, s, n))
			continue;
		sob = !strncasecmp(tr.key, "signed-off-by", tr.key_len);
		if ((error = gm_strvec_pushf(&c->held, "%.*s: %.*s",
					     (int)tr.key_len, tr.key,
					     (int)tr.value_len, tr.value)) < 0)
			break;
		how = c->held.v[c->held.nr - 1];
		if ((sob && after) ||
		    !strncasecmp(tr.key, "acked-by", tr.key_len) ||
		    !strncasecmp(tr.key, "reviewed-by", tr.key_len))
			error = approver(c, how + tr.key_len + 2, how);
		else if (sob && (error = key_of(c, how + tr.key_len + 2)) >= 0)
			after = !strcmp(c->key.ptr, author);
	}
	if (error >= 0 && committer &&
	    !(error = gm_strvec_pushf(&c->held, "committed by %s", committer)))
		error = approver(c, committer, c->held.v[c->held.nr - 1]);
	return error < 0 ? error : 0;
}

/* The verdict on section `s`, whose people are looked for in c->reached. */
static int approve_section(struct gm_check *c, struct gm_check_patch *p,
			   const struct gm_maintainers *m, size_t s)
{
	const struct gm_section *sec = &m->sections[s];
	struct gm_strvec could = GM_STRVEC_INIT;
	struct gm_check_item *it;
	const char *by = NULL;
	void *v;
	int error = 0;

	for (size_t i = sec->start; i < sec->end && !error; i++) {
		const struct gm_mline *l = &m->lines[i];

		if (l->tag != 'M' && (l->tag != 'R' || !c->reviewers))
			continue;
		if ((error = gm_strvec_push(&could, l->value)) < 0 ||
		    (error = key_of(c, l->value)) < 0)
			goto out;
		if (!by && gm_strmap_get(&c->reached, c->key.ptr, c->key.len,
					 &v))
			by = v;
	}
	if (gm_maintainers_stars(m, sec->start, sec->end) || !could.nr)
		it = item_new(p, GM_CHECK_APART, sec->short_name,
			      could.nr ? "catch-all" : "nobody to approve", NULL);
	else
		it = item_new(p, by ? GM_CHECK_OK : GM_CHECK_MISSING,
			      sec->short_name, by ? by : "not approved", NULL);
	if (!it) {
		error = GM_ERROR;
	} else if (!by) {	/* handed over */
		it->could = could;
		memset(&could, 0, sizeof(could));
	}
out:
	gm_strvec_release(&could);
	return error < 0 ? error : 0;
}

int gm_check_approvals(struct gm_check *c, const char *name,
		       const struct gm_check_mail *mail,
		       const char *committer, const struct gm_maintainers *m,
		       const struct gm_matches *mt)
{
	const char *body = mail->text + mail->body;
	bool *seen = calloc(m->nr_sections + 1, sizeof(*seen));
	struct gm_buf author = GM_BUF_INIT;
	struct gm_check_patch *p;
	size_t n;
	int error;

	gm_strmap_release(&c->reached);
	gm_strvec_release(&c->held);
	if (!seen)
		return gm_error_set(GM_ERROR, "out of memory");
	/* the author: the body's first line "From: ...", else From: */
	line_end(mail->text, mail->len, mail->body, &n);
	if ((error = patch_new(c, name, mail, &p)) < 0 ||
	    (error = n > 6 && !memcmp(body, "From: ", 6) ?
		     gm_buf_put(&author, body + 6, n - 6) :
		     gm_check_header(&author, mail, "From")) < 0 ||
	    (error = key_of(c, author.ptr)) < 0)
		goto out;
	gm_buf_reset(&author);
	if ((error = gm_buf_puts(&author, c->key.ptr)) < 0 ||
	    (error = approvers(c, mail, committer, author.ptr)) < 0)
		goto out;
	for (size_t i = 0; i < mt->nr_files && !error; i++)
		for (size_t k = 0; k < mt->files[i].nr_sections && !error; k++) {
			size_t s = mt->files[i].sections[k];

			if (!seen[s] && (seen[s] = true))
				error = approve_section(c, p, m, s);
		}
out:
	free(seen);
	gm_buf_release(&author);
	return error < 0 ? error : 0;
}

size_t gm_check_missing(const struct gm_check *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nr; i++)
		n += c->v[i].missing;
	return n;
}

/* ==================== output ==================== */

static const char *const verdict_names[] = { "missing", "advice", "ok",
					     "apart" };

static int write_text(FILE *f, const struct gm_check_patch *p,
		      struct gm_buf *line)
{
	int error = 0;

	gm_buf_reset(line);
	if ((error = gm_buf_printf(line, "%s: %s", p->name, p->subject)) < 0)
		return error;
	gm_output_message(f, "", line->ptr);
	for (int v = GM_CHECK_MISSING; v <= GM_CHECK_APART; v++)
		for (size_t i = 0; i < p->nr && !error; i++) {
			const struct gm_check_item *it = &p->v[i];

			if (it->verdict != (enum gm_check_verdict)v)
				continue;
			gm_buf_reset(line);
			error = gm_buf_printf(line, "  %s: %s (%s)",
					      verdict_names[v], it->who,
					      it->why);
			if (!error && it->via)
				error = gm_buf_printf(line, " via %s", it->via);
			for (size_t k = 0; k < it->could.nr && !error; k++)
				error = gm_buf_printf(line, "%s%s",
						      k ? ", " : "; could: ",
						      it->could.v[k]);
			if (!error)
				gm_output_message(f, "", line->ptr);
		}
	return error;
}

static void json_field(FILE *f, const char *key, const char *value)
{
	fprintf(f, ", \"%s\": ", key);
	if (value)
		gm_output_json_put(f, value);
	else
		fputs("null", f);
}

static void json_item(FILE *f, const struct gm_check_item *it)
{
	fprintf(f, "{\"verdict\": \"%s\"", verdict_names[it->verdict]);
	json_field(f, "who", it->who);
	json_field(f, "why", it->why);
	json_field(f, "via", it->via);
	fputs(", \"could\": [", f);
	for (size_t k = 0; k < it->could.nr; k++) {
		fputs(k ? ", " : "", f);
		gm_output_json_put(f, it->could.v[k]);
	}
	fputs("]}", f);
}

static void write_json(FILE *f, const struct gm_check *c)
{
	fprintf(f, "{\"check\": \"%s\", \"missing\": %zu, \"patches\": [",
		c->approvals ? "approvals" : "recipients", gm_check_missing(c));
	for (size_t i = 0; i < c->nr; i++) {
		const struct gm_check_patch *p = &c->v[i];

		fprintf(f, "%s\n {\"missing\": %zu", i ? "," : "", p->missing);
		json_field(f, "name", p->name);
		json_field(f, "subject", p->subject);
		fputs(", \"items\": [", f);
		for (size_t k = 0; k < p->nr; k++) {
			fputs(k ? ",\n  " : "\n  ", f);
			json_item(f, &p->v[k]);
		}
		fputs("]}", f);
	}
	fputs("]}\n", f);
}

int gm_check_write(FILE *f, const struct gm_check *c, bool json)
{
	struct gm_buf b = GM_BUF_INIT;
	int error = 0;

	if (json)
		write_json(f, c);
	for (size_t i = 0; !json && i < c->nr && !error; i++) {
		if (i)
			fputc('\n', f);
		error = write_text(f, &c->v[i], &b);
	}
	gm_buf_release(&b);
	return error;
}
