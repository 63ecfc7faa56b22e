/*
 * --check: the recipients and the approvals of patches, judged against
 * what the rules name.
 */
#include "gm/check.h"

#include <ctype.h>
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

int gm_check_split(struct gm_strvec *out, const char *value)
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

static void item_release(struct gm_check_item *it)
{
	free(it->who);
	free(it->why);
	free(it->via);
	gm_strvec_release(&it->could);
}

void gm_check_release(struct gm_check *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		for (size_t k = 0; k < c->v[i].nr; k++)
			item_release(&c->v[i].v[k]);
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
	memset(c, 0, sizeof(*c));
}

static void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* The address of the mailbox `who` after the .mailmap, into c->addr. */
static int map_address(struct gm_check *c, const char *who)
{
	int error = gm_mailmap_apply(&c->key, c->mailmap, who);

	if (!error)
		error = gm_email_parse(&c->name, &c->addr, c->key.ptr);
	return error;
}

int gm_check_key(struct gm_check *c, struct gm_buf *out, const char *who)
{
	char *plain;
	int error;

	if ((error = gm_email_parse(&c->name, &c->addr, who)) < 0)
		return error;
	lower(c->addr.ptr);
	if (!(plain = strdup(c->addr.ptr)))
		return gm_error_set(GM_ERROR, "out of memory");
	/* the .mailmap's keys are as written, else in lower case */
	if (!(error = map_address(c, who)) && !strcasecmp(c->addr.ptr, plain))
		error = map_address(c, plain);
	gm_buf_reset(out);
	if (!error)
		error = gm_buf_puts(out, *c->addr.ptr ? c->addr.ptr : who);
	lower(out->ptr);
	free(plain);
	return error;
}

/* The addresses of `name:` headers of `m` (NULL: none) into c->reached. */
static int reach(struct gm_check *c, const struct gm_check_mail *m,
		 const char *name, struct gm_buf *value)
{
	struct gm_strvec who = GM_STRVEC_INIT;
	int error = 0;

	if (!m || (error = gm_check_header(value, m, name)) <= 0 ||
	    (error = gm_check_split(&who, value->ptr)) < 0)
		goto out;
	for (size_t i = 0; i < who.nr && !error; i++) {
		struct gm_buf key = GM_BUF_INIT;

		if (!(error = gm_check_key(c, &key, who.v[i])) &&
		    !gm_strmap_get(&c->reached, key.ptr, key.len, NULL) &&
		    !(error = gm_strvec_push(&c->held, who.v[i])))
			error = gm_strmap_put(&c->reached, key.ptr, key.len,
					      c->held.v[c->held.nr - 1]);
		gm_buf_release(&key);
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

/* Whether mailboxes `a` and `b` have one address, case ignored. */
static int same_address(struct gm_check *c, const char *a, const char *b)
{
	char *first;
	int error, same;

	if ((error = gm_email_parse(&c->name, &c->addr, a)) < 0)
		return error;
	if (!(first = strdup(c->addr.ptr)))
		return gm_error_set(GM_ERROR, "out of memory");
	error = gm_email_parse(&c->name, &c->addr, b);
	same = !strcasecmp(first, c->addr.ptr);
	free(first);
	return error < 0 ? error : same;
}

/*
 * Whether `who` was reached, or, for a list, an address its L: line's
 * note names (its alias); `*via` the address written when another.
 */
static int reached(struct gm_check *c, const char *who,
		   const struct gm_mline *line, const char **via)
{
	struct gm_strvec alias = GM_STRVEC_INIT;
	struct gm_buf key = GM_BUF_INIT;
	void *v = NULL;
	int error = gm_check_key(c, &key, who), found = 0;
	const char *note;

	if (!error)
		found = gm_strmap_get(&c->reached, key.ptr, key.len, &v);
	if (!error && !found && line && line->tag == 'L' &&
	    (note = strpbrk(line->value, " \t")))
		error = gm_email_scan_text(&alias, note, strlen(note), 0);
	for (size_t i = 0; i < alias.nr && !error && !found; i++)
		if (!(error = gm_check_key(c, &key, alias.v[i])))
			found = gm_strmap_get(&c->reached, key.ptr, key.len, &v);
	*via = NULL;
	if (!error && found && (error = same_address(c, v, who)) == 0)
		*via = v;
	gm_buf_release(&key);
	gm_strvec_release(&alias);
	return error < 0 ? error : found;
}

/*
 * The verdict on `who` with role `why`, merged into the item of the same
 * person (by key, in `judged`) if there is one.
 */
static int judge(struct gm_check *c, struct gm_check_patch *p,
		 struct gm_strmap *judged, const char *who, const char *why,
		 const struct gm_mline *line, bool required)
{
	struct gm_buf key = GM_BUF_INIT;
	struct gm_check_item *it;
	const char *via;
	void *v;
	int found = reached(c, who, line, &via), error = 0;

	if (found < 0 || (error = gm_check_key(c, &key, who)) < 0)
		goto out;
	if (gm_strmap_get(judged, key.ptr, key.len, &v)) {
		it = &p->v[(uintptr_t)v - 1];
		if (required && it->verdict == GM_CHECK_ADVICE) {
			it->verdict = GM_CHECK_MISSING;
			p->missing++;
		}
		gm_buf_reset(&key);
		if (!(error = gm_buf_printf(&key, "%s, %s", it->why, why))) {
			free(it->why);
			it->why = gm_buf_detach(&key, NULL);
		}
		goto out;
	}
	if (!item_new(p, found ? GM_CHECK_OK : required ? GM_CHECK_MISSING :
		      GM_CHECK_ADVICE, who, *why ? why : "listed",
		      found ? via : NULL))
		error = GM_ERROR;
	else
		error = gm_strmap_put(judged, key.ptr, key.len,
				      (void *)(uintptr_t)p->nr);
out:
	gm_buf_release(&key);
	return found < 0 ? found : error;
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
	for (size_t i = 0; i < rk->people.nr && !error; i++) {
		const struct gm_rank_entry *e = &rk->people.v[i];

		error = judge(c, p, &judged, e->addr, e->role, NULL,
			      c->history || (e->kinds & must));
	}
	for (size_t i = 0; i < rk->lists.nr && !error; i++)
		error = judge(c, p, &judged, rk->lists.v[i].addr,
			      rk->lists.v[i].role, rk->lists.v[i].source, true);
out:
	gm_strmap_release(&judged);
	gm_buf_release(&value);
	return error;
}

/* Who approved `mail`: key -> "Acked-by: ..." in c->reached. */
static int approvers(struct gm_check *c, const struct gm_check_mail *mail,
		     const char *committer, struct gm_buf *author)
{
	struct gm_buf key = GM_BUF_INIT;
	const char *t = mail->text;
	size_t i = mail->body, n, next;
	bool after = false;	/* the author's sign-off seen */
	int error = 0;

	for (; i < mail->len && !error; i = next) {
		const char *s = t + i;
		struct gm_trailer tr;
		bool sob;

		next = line_end(t, mail->len, i, &n);
		if ((n == 3 && !memcmp(s, "---", 3)) ||
		    (n >= 11 && !memcmp(s, "diff --git ", 11)))
			break;
		if (i == mail->body && n > 6 && !memcmp(s, "From: ", 6)) {
			char *who = strndup(s + 6, n - 6);

			error = who ? gm_check_key(c, author, who) : GM_ERROR;
			free(who);
			continue;
		}
		if (!gm_trailer_parse(&tr, s, n))
			continue;
		sob = !strncasecmp(tr.key, "signed-off-by", tr.key_len);
		if ((error = gm_strvec_pushf(&c->held, "%.*s: %.*s",
					     (int)tr.key_len, tr.key,
					     (int)tr.value_len, tr.value)) < 0 ||
		    (error = gm_check_key(c, &key, c->held.v[c->held.nr - 1] +
					  tr.key_len + 2)) < 0)
			break;
		if (sob && !strcmp(key.ptr, author->ptr))
			after = true;
		else if ((sob && after) ||
			 !strncasecmp(tr.key, "acked-by", tr.key_len) ||
			 !strncasecmp(tr.key, "reviewed-by", tr.key_len))
			error = gm_strmap_put(&c->reached, key.ptr, key.len,
					      c->held.v[c->held.nr - 1]);
	}
	if (!error && committer &&
	    !(error = gm_strvec_pushf(&c->held, "committed by %s", committer)) &&
	    !(error = gm_check_key(c, &key, committer)))
		error = gm_strmap_put(&c->reached, key.ptr, key.len,
				      c->held.v[c->held.nr - 1]);
	gm_buf_release(&key);
	return error;
}

/* Whether section `s` is a catch-all: an F: of a lone star. */
static bool catchall(const struct gm_maintainers *m, size_t s)
{
	const struct gm_section *sec = &m->sections[s];

	for (size_t i = sec->start; i < sec->end; i++)
		if (m->lines[i].tag == 'F' && (!strcmp(m->lines[i].value, "*") ||
					       !strcmp(m->lines[i].value, "*/")))
			return true;
	return false;
}

/* The verdict on section `s`, whose people are looked for in c->reached. */
static int approve_section(struct gm_check *c, struct gm_check_patch *p,
			   const struct gm_maintainers *m, size_t s)
{
	const struct gm_section *sec = &m->sections[s];
	struct gm_strvec could = GM_STRVEC_INIT;
	struct gm_buf key = GM_BUF_INIT;
	struct gm_check_item *it;
	const char *by = NULL;
	void *v;
	int error = 0;

	for (size_t i = sec->start; i < sec->end && !error; i++) {
		const struct gm_mline *l = &m->lines[i];

		if (l->tag != 'M' && (l->tag != 'R' || !c->reviewers))
			continue;
		if (!(error = gm_strvec_push(&could, l->value)) &&
		    !(error = gm_check_key(c, &key, l->value)) && !by &&
		    gm_strmap_get(&c->reached, key.ptr, key.len, &v))
			by = v;
	}
	if (error)
		goto out;
	if (catchall(m, s) || !could.nr)
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
	gm_buf_release(&key);
	gm_strvec_release(&could);
	return error;
}

int gm_check_approvals(struct gm_check *c, const char *name,
		       const struct gm_check_mail *mail,
		       const char *committer, const struct gm_maintainers *m,
		       const struct gm_matches *mt)
{
	struct gm_buf author = GM_BUF_INIT, from = GM_BUF_INIT;
	bool *seen = calloc(m->nr_sections + 1, sizeof(*seen));
	struct gm_check_patch *p;
	int error;

	gm_strmap_release(&c->reached);
	gm_strvec_release(&c->held);
	if (!seen)
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = patch_new(c, name, mail, &p)) < 0 ||
	    (error = gm_check_header(&from, mail, "From")) < 0 ||
	    (error = gm_check_key(c, &author, from.ptr)) < 0 ||
	    (error = approvers(c, mail, committer, &author)) < 0)
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
	gm_buf_release(&from);
	return error;
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

static int json_field(struct gm_buf *b, const char *key, const char *value)
{
	int error = gm_buf_printf(b, ", \"%s\": ", key);

	if (error || !value)
		return error ? error : gm_buf_puts(b, "null");
	return gm_output_json_string(b, value);
}

static int json_item(struct gm_buf *b, const struct gm_check_item *it)
{
	int error = gm_buf_printf(b, "{\"verdict\": \"%s\"",
				  verdict_names[it->verdict]);

	if (!error && !(error = json_field(b, "who", it->who)) &&
	    !(error = json_field(b, "why", it->why)) &&
	    !(error = json_field(b, "via", it->via)))
		error = gm_buf_puts(b, ", \"could\": [");
	for (size_t k = 0; k < it->could.nr && !error; k++)
		if (!(error = gm_buf_puts(b, k ? ", " : "")))
			error = gm_output_json_string(b, it->could.v[k]);
	return error ? error : gm_buf_puts(b, "]}");
}

static int write_json(struct gm_buf *b, const struct gm_check *c)
{
	int error = gm_buf_printf(b, "{\"check\": \"%s\", \"missing\": %zu, "
				  "\"patches\": [", c->approvals ? "approvals" :
				  "recipients", gm_check_missing(c));

	for (size_t i = 0; i < c->nr && !error; i++) {
		const struct gm_check_patch *p = &c->v[i];

		error = gm_buf_printf(b, "%s\n {\"missing\": %zu", i ? "," : "",
				      p->missing);
		if (!error && !(error = json_field(b, "name", p->name)) &&
		    !(error = json_field(b, "subject", p->subject)))
			error = gm_buf_puts(b, ", \"items\": [");
		for (size_t k = 0; k < p->nr && !error; k++)
			if (!(error = gm_buf_puts(b, k ? ",\n  " : "\n  ")))
				error = json_item(b, &p->v[k]);
		if (!error)
			error = gm_buf_puts(b, "]}");
	}
	return error ? error : gm_buf_puts(b, "]}\n");
}

int gm_check_write(FILE *f, const struct gm_check *c, bool json)
{
	struct gm_buf b = GM_BUF_INIT;
	int error = 0;

	if (json && !(error = write_json(&b, c)))
		fwrite(b.ptr, 1, b.len, f);
	for (size_t i = 0; !json && i < c->nr && !error; i++) {
		if (i)
			fputc('\n', f);
		error = write_text(f, &c->v[i], &b);
	}
	gm_buf_release(&b);
	return error;
}
