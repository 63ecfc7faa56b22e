#include "gm/rank.h"

#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gm/email.h"
#include "gm/buf.h"
#include "gm/error.h"
#include "gm/trailer.h"

/*
 * The chief penguin of when the tree's script names none
 * (no settings' penguins): Linux's @penguin_chief, "Name:addr".
 */
static const char *const chief_linux[] = {
	"Linus Torvalds:torvalds@linux-foundation.org"
};

/* The chief penguins, "Name:addr" each; `*nr` gets how many. */
static const char *const *chiefs(const struct gm_rank_settings *s,
				 size_t *nr)
{
	if (!s || !s->penguins || !s->penguins->nr) {
		*nr = 1;
		return chief_linux;
	}
	*nr = s->penguins->nr;
	return (const char *const *)s->penguins->v;
}

void gm_rank_init(struct gm_rank *rk, const struct gm_rank_settings *set,
		  const struct gm_mailmap *mailmap)
{
	*rk = (struct gm_rank){ .set = set, .mailmap = mailmap };
}

static void entry_free(struct gm_rank_entry *e)
{
	free(e->addr);
	gm_strvec_release(&e->roles);
}

static void list_release(struct gm_rank_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		entry_free(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void gm_rank_release(struct gm_rank *rk)
{
	struct gm_strvec *groups[] = { &rk->scm, &rk->substatus, &rk->status,
		&rk->subsystem, &rk->web, &rk->bug, &rk->warnings };

	for (size_t i = 0; i < sizeof(groups) / sizeof(*groups); i++)
		gm_strvec_release(groups[i]);
	list_release(&rk->people);
	list_release(&rk->lists);
	gm_strmap_release(&rk->seen_name);
	gm_strmap_release(&rk->seen_addr);
	gm_strmap_release(&rk->seen_list);
	gm_strmap_release_values(&rk->dedup_name, free);
	gm_strmap_release_values(&rk->dedup_addr, free);
	gm_strmap_release(&rk->scopes);
	list_release(&rk->cut);
	gm_history_people_free(rk->hist, rk->nr_hist);
}

static int list_push(struct gm_rank_list *l, const char *addr, size_t len,
		     const char *role)
{
	struct gm_rank_entry *e;

	if (GM_ARRAY_GROW(l->v, l->nr, l->alloc) < 0)
		return GM_ERROR;
	e = &l->v[l->nr];
	memset(e, 0, sizeof(*e));
	if (!(e->addr = strndup(addr, len)) ||
	    (*role && gm_strvec_push(&e->roles, role))) {
		free(e->addr);
		gm_strvec_release(&e->roles);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	l->nr++;
	return 0;
}

/*
 * What push_person() needs of an address line: its name and address, the
 * formatted person, and the lower-case name and address, as one block
 * "name\0addr\0person\0lname\0laddr\0" (addr empty: no address).
 */
static char *person_parse(const char *line, int usename)
{
	struct gm_buf name = GM_BUF_INIT, addr = GM_BUF_INIT;
	struct gm_buf block = GM_BUF_INIT, tmp = GM_BUF_INIT;
	int error;

	if (!(error = gm_email_parse(&name, &addr, line)) &&
	    !(error = gm_buf_put(&block, name.ptr, name.len + 1)) &&
	    !(error = gm_buf_put(&block, addr.ptr, addr.len + 1)) &&
	    (!addr.len ||
	     !(error = gm_email_format(&tmp, name.ptr, addr.ptr, usename))) &&
	    !(error = gm_buf_put(&block, tmp.ptr ? tmp.ptr : "", tmp.len + 1)) &&
	    !(error = gm_buf_set_lower(&tmp, name.ptr)) &&
	    !(error = gm_buf_put(&block, tmp.ptr, tmp.len + 1)) &&
	    !(error = gm_buf_set_lower(&tmp, addr.ptr)))
		error = gm_buf_put(&block, tmp.ptr, tmp.len + 1);
	gm_buf_release(&name);
	gm_buf_release(&addr);
	gm_buf_release(&tmp);
	if (error)
		gm_buf_release(&block);
	return error ? NULL : gm_buf_detach(&block, NULL);
}

/*
 * person_parse() of `line`, through the memo, its five parts into `f`;
 * the block is freed by the caller if `*own`.
 */
static const char *person_of(struct gm_rank *rk, const char *line, bool *own,
			     const char *f[5])
{
	struct gm_rank_memo *memo = rk->memo;
	size_t len = strlen(line);
	char *p;
	void *v;

	*own = !memo;
	if (memo && gm_strmap_get(&memo->persons, line, len, &v))
		p = v;
	else if (!(p = person_parse(line, rk->set->usename)))
		return NULL;
	else if (memo && gm_strmap_put(&memo->persons, line, len, p) < 0)
		*own = true;	/* not remembered: only time lost */
	for (int i = 0; i < 5; i++)
		f[i] = i ? f[i - 1] + strlen(f[i - 1]) + 1 : p;
	return p;
}

/* push_email_address() of R-64. @return 1 if an address was parsed, 0 if not. */
static int push_person(struct gm_rank *rk, const char *line, const char *role)
{
	const char *f[5], *p;	/* name, addr, person, lname, laddr */
	bool own;
	int error = 0;

	if (!(p = person_of(rk, line, &own, f)))
		return gm_error_set(GM_ERROR, "out of memory");
	if (!*f[1])
		goto out;
	error = 1;
	if (rk->set->remove_duplicates &&
	    ((*f[0] && gm_strmap_get(&rk->seen_name, f[3], strlen(f[3]),
				      NULL)) ||
	     gm_strmap_get(&rk->seen_addr, f[4], strlen(f[4]), NULL)))
		goto out;
	if (list_push(&rk->people, f[2], strlen(f[2]), role) < 0) {
		error = GM_ERROR;
		goto out;
	}
	rk->people.v[rk->people.nr - 1].kinds = rk->kind;
	rk->people.v[rk->people.nr - 1].source = rk->line;
	if (rk->set->remove_duplicates &&
	    ((*f[0] && gm_strmap_put(&rk->seen_name, f[3], strlen(f[3]),
				      NULL) < 0) ||
	     gm_strmap_put(&rk->seen_addr, f[4], strlen(f[4]), NULL) < 0))
		error = GM_ERROR;
out:
	if (own)
		free((char *)p);
	return error;
}

static const char valid_mark;	/* the memo's value for a valid one */

/* gm_email_rfc822_valid(), through the caller's memo if there is one. */
static bool rank_rfc822_valid(struct gm_rank *rk, const char *value)
{
	struct gm_strmap *valid = rk->memo ? &rk->memo->valid : NULL;
	size_t len = strlen(value);
	void *v;
	bool ok;

	if (valid && gm_strmap_get(valid, value, len, &v))
		return v;
	ok = gm_email_rfc822_valid(value);
	/* a memo that cannot grow only costs time */
	if (valid)
		gm_strmap_put(valid, value, len, ok ? (void *)&valid_mark : NULL);
	return ok;
}

void gm_rank_memo_release(struct gm_rank_memo *memo)
{
	gm_strmap_release(&memo->valid);
	gm_strmap_release_values(&memo->mapped, free);
	gm_strmap_release_values(&memo->persons, free);
	gm_buf_release(&memo->key);
}

/*
 * The .mailmap's form of `s` normalised (`addr` NULL), or of the address
 * formatted from the name `s` and `addr`, into `out` (overwritten),
 * through the caller's memo if there is one. @return 0 or GM_ERROR.
 */
static int rank_mapped(struct gm_rank *rk, struct gm_buf *out, const char *s,
		       const char *addr)
{
	struct gm_rank_memo *memo = rk->memo;
	struct gm_buf tmp = GM_BUF_INIT;
	char *copy;
	void *v;
	int error = 0;

	if (memo) {
		gm_buf_reset(&memo->key);
		if (gm_buf_putc(&memo->key, addr ? 'F' : 'N') < 0 ||
		    gm_buf_put(&memo->key, s, strlen(s) + !!addr) < 0 ||
		    (addr && gm_buf_puts(&memo->key, addr) < 0))
			return GM_ERROR;
		if (gm_strmap_get(&memo->mapped, memo->key.ptr, memo->key.len,
				  &v)) {
			gm_buf_reset(out);
			return gm_buf_puts(out, v);
		}
	}
	error = addr ? gm_email_format(&tmp, s, addr, 1) :
		       gm_email_normalize(&tmp, s, 1);
	if (!error)
		error = gm_mailmap_apply(out, rk->mailmap, tmp.ptr);
	gm_buf_release(&tmp);
	if (error || !memo)
		return error;
	if ((copy = strdup(out->ptr)) &&
	    gm_strmap_put(&memo->mapped, memo->key.ptr, memo->key.len,
			  copy) < 0)
		free(copy);	/* not remembered: only time lost */
	return 0;
}

/*
 * "FILE:LINE: " for a message about MAINTAINERS line `ml` (nothing
 * without one), into `out`. A model whose texts are not named is the
 * top-level MAINTAINERS alone.
 */
static int rank_where(struct gm_buf *out, const struct gm_rank *rk,
		      const struct gm_mline *ml)
{
	const struct gm_maintainers *m = rk->m;
	const char *name = "MAINTAINERS";

	gm_buf_reset(out);
	if (!ml || !m || ml < m->lines || ml >= m->lines + m->nr_lines)
		return gm_buf_puts(out, "");
	if (m->names && ml->file < m->nr_texts && m->names[ml->file])
		name = m->names[ml->file];
	return gm_buf_printf(out, "%s:%lu: ", name, (unsigned long)ml->lineno);
}

/* push_email_addresses(): one address, a list of them, or the raw value. */
static int push_people(struct gm_rank *rk, const char *value, const char *role)
{
	struct gm_strvec list = GM_STRVEC_INIT;
	struct gm_buf msg = GM_BUF_INIT;
	int error;

	if (rank_rfc822_valid(rk, value))
		return push_person(rk, value, role) < 0 ? GM_ERROR : 0;
	error = gm_email_rfc822_list(&list, value);
	if (error > 0) {
		for (size_t i = 0; i < list.nr && error >= 0; i++)
			error = push_person(rk, list.v[i], role);
	} else if (error == 0) {
		error = push_person(rk, value, role);
		if (error == 0 && (error = rank_where(&msg, rk, rk->line)) == 0)
			error = gm_strvec_pushf(&rk->warnings, "%sInvalid "
						"MAINTAINERS address: '%s'",
						msg.ptr, value);
	}
	gm_strvec_release(&list);
	gm_buf_release(&msg);
	return error < 0 ? GM_ERROR : 0;
}

/*
 * The section's name as roles show it, appended to `out`: cut to
 * --section-name-max bytes, the last three "...", blanks before them
 * dropped; 0: not cut. Linux's 50 is the rules stage's sec->short_name.
 */
static int role_name(struct gm_buf *out, const struct gm_rank_settings *o,
		     const struct gm_section *sec)
{
	size_t len = strlen(sec->name), max = (size_t)o->section_name_max;

	if (o->section_name_max == 50)
		return gm_buf_puts(out, sec->short_name);
	if (o->section_name_max < 4 || len <= max)
		return gm_buf_puts(out, sec->name);
	len = max - 3;
	while (len && gm_email_isspace((unsigned char)sec->name[len - 1]))
		len--;
	if (gm_buf_put(out, sec->name, len) < 0)
		return GM_ERROR;
	return gm_buf_puts(out, "...");
}

/*
 * The M: role of 6.1: derived from the section's last S; with
 * `uniform` (later Linux scripts), "maintainer" whatever the status but
 * "chief penguin" where it is "Buried alive in reporters" (any case).
 */
static int maintainer_role(struct gm_buf *out, const struct gm_rank_settings *o,
			   const struct gm_section *sec, bool uniform)
{
	static const char *const map[][2] = {
		{ "supported", "supporter" },
		{ "maintained", "maintainer" },
		{ "odd fixes", "odd fixer" },
		{ "orphan", "orphan minder" },
		{ "obsolete", "obsolete minder" },
		{ "buried alive in reporters", "chief penguin" },
	};
	struct gm_buf lc = GM_BUF_INIT;
	const char *role;
	int error = gm_buf_set_lower(&lc, sec->status ? sec->status :
				     "unknown");

	role = uniform ? "maintainer" : lc.ptr;
	for (size_t i = 0; !error && i < sizeof(map) / sizeof(*map); i++)
		if (!strcmp(lc.ptr, map[i][0]) &&
		    (!uniform || !strcmp(map[i][1], "chief penguin")))
			role = map[i][1];
	gm_buf_reset(out);
	if (!error && !(error = gm_buf_printf(out, "%s:", role)))
		error = role_name(out, o, sec);
	gm_buf_release(&lc);
	return error;
}

/* The bytes of gm_email_isspace(), Perl's \s. */
#define PERL_SPACE " \t\n\r\f\v"

static int add_list(struct gm_rank *rk, const struct gm_section *sec,
		    const char *value, const char *suffix)
{
	const struct gm_rank_settings *o = rk->set;
	struct gm_buf role = GM_BUF_INIT, tmp = GM_BUF_INIT;
	struct gm_buf name = GM_BUF_INIT, parsed = GM_BUF_INIT;
	const char *extra, *kind = NULL;
	size_t len;
	int error = 0;

	/* --named-lists: the address of "Name <addr>", then as ever */
	if (o->named_lists && !gm_email_parse(&name, &parsed, value))
		value = parsed.ptr;
	/* the address up to the first space, the annotation after it */
	len = strcspn(value, PERL_SPACE);
	extra = len ? value + len + strspn(value + len, PERL_SPACE) : "";
	if (!len)
		len = strlen(value);
	if (strstr(extra, "subscribers-only"))
		kind = o->subscriber_lists ? "subscriber list" : NULL;
	else if (o->lists && strstr(extra, "moderated"))
		kind = o->moderated ? "moderated list" : NULL;
	else if (o->lists)
		kind = "open list";
	if (!kind || (error = gm_buf_put(&tmp, value, len)) < 0 ||
	    (error = gm_buf_set_lower(&tmp, tmp.ptr)) < 0 ||
	    gm_strmap_get(&rk->seen_list, tmp.ptr, tmp.len, NULL))
		goto out;
	gm_buf_reset(&name);
	if ((error = role_name(&name, o, sec)) < 0)
		goto out;
	if (strcmp(name.ptr, "THE REST"))
		error = gm_buf_printf(&role, "%s:%s%s", kind, name.ptr, suffix);
	else
		error = gm_buf_printf(&role, "%s%s", kind, suffix);
	if (!error && !(error = gm_strmap_put(&rk->seen_list, tmp.ptr, tmp.len,
					      NULL)))
		error = list_push(&rk->lists, value, len, role.ptr);
	if (!error)
		rk->lists.v[rk->lists.nr - 1].source = rk->line;
out:
	gm_buf_release(&role);
	gm_buf_release(&tmp);
	gm_buf_release(&name);
	gm_buf_release(&parsed);
	return error;
}

/*
 * One line of a section; `role` and `reviewer`: its roles, once made;
 * `suffix` ends every role and value taken ("" but for K: sections).
 */
static int add_tag(struct gm_rank *rk, const struct gm_section *sec,
		   const struct gm_mline *ml, struct gm_buf *role,
		   struct gm_buf *reviewer, const char *suffix)
{
	const struct gm_rank_settings *o = rk->set;
	static const char tags[] = "TWBS";
	struct gm_strvec *groups[] = { &rk->scm, &rk->web, &rk->bug,
		&rk->status };
	const char *t;

	switch (ml->tag) {
	case 'L':
		return add_list(rk, sec, ml->value, suffix);
	case 'M':
		if (!o->maintainers)
			return 0;
		if (!role->len &&
		    (maintainer_role(role, o, sec, o->maintainer_roles) < 0 ||
		     gm_buf_puts(role, suffix) < 0))
			return GM_ERROR;
		return push_people(rk, ml->value, role->ptr);
	case 'R':
		if (!o->reviewers)
			return 0;
		/* "reviewer:NAME", "reviewer" with --no-reviewer-section */
		if (!reviewer->len &&
		    (gm_buf_puts(reviewer, "reviewer") < 0 ||
		     (o->reviewer_section &&
		      (gm_buf_putc(reviewer, ':') < 0 ||
		       role_name(reviewer, o, sec) < 0)) ||
		     gm_buf_puts(reviewer, suffix) < 0))
			return GM_ERROR;
		return push_people(rk, ml->value, reviewer->ptr);
	default:	/* T:, W:, B:, S: */
		t = ml->tag ? strchr(tags, ml->tag) : NULL;
		return t ? gm_strvec_pushf(groups[t - tags], "%s%s", ml->value,
					   suffix) : 0;
	}
}

/* The key of the bare "reviewer" role (--no-reviewer-section): no name. */
#define BARE_REVIEWER "\n"

/* Note `key` as a catch-all's (2) or an own section's (1): own wins. */
static int scope_put(struct gm_rank *rk, const char *key, uintptr_t v)
{
	void *old;

	if (gm_strmap_get(&rk->scopes, key, strlen(key), &old) &&
	    (uintptr_t)old <= v)
		return 0;
	return gm_strmap_put(&rk->scopes, key, strlen(key), (void *)v);
}

/*
 * Remember whether section `sec` is a catch-all (an F: of a lone star),
 * under its name as the roles show it; with --no-reviewer-section, its
 * R: lines under BARE_REVIEWER.
 */
static int note_scope(struct gm_rank *rk, const struct gm_maintainers *m,
		      const struct gm_section *sec)
{
	uintptr_t catchall = gm_maintainers_stars(m, sec->start + 1,
						  sec->end) != 0;
	bool reviewers = false;
	struct gm_buf name = GM_BUF_INIT;
	int error;

	for (size_t i = sec->start + 1; i < sec->end; i++)
		reviewers |= m->lines[i].tag == 'R';
	error = role_name(&name, rk->set, sec);
	if (!error)
		error = scope_put(rk, name.ptr, catchall + 1);
	if (!error && reviewers && !rk->set->reviewer_section)
		error = scope_put(rk, BARE_REVIEWER, catchall + 1);
	gm_buf_release(&name);
	return error;
}

/* add_categories() of R-50..R-55: section `s`, `suffix` after its roles. */
static int add_section(struct gm_rank *rk, const struct gm_maintainers *m,
		       size_t s, const char *suffix)
{
	const struct gm_section *sec = &m->sections[s];
	const char *status = sec->status ? sec->status : "Unknown";
	struct gm_buf role = GM_BUF_INIT, reviewer = GM_BUF_INIT;
	int error;

	error = gm_strvec_push(&rk->subsystem, sec->name);
	rk->m = m;
	for (size_t i = sec->start + 1; i < sec->end && !error; i++) {
		rk->kind = m->lines[i].tag == 'M' ? GM_KIND_MAINTAINER :
						    GM_KIND_REVIEWER;
		rk->line = &m->lines[i];
		error = add_tag(rk, sec, &m->lines[i], &role, &reviewer,
				suffix);
	}
	rk->line = NULL;
	if (!error && rk->set->substatus && strcmp(sec->name, "THE REST") &&
	    strcmp(status, "Maintained"))
		error = gm_strvec_pushf(&rk->substatus, "%s status: %s%s",
					sec->name, status, suffix);
	if (!error && rk->set->history)
		error = note_scope(rk, m, sec);
	gm_buf_release(&role);
	gm_buf_release(&reviewer);
	return error;
}

/* The role that --drop-the-rest-supporter drops, as Xen's script has it. */
#define REST_SUPPORTER "supporter:THE REST"

/* Whether `role` is the one role of `e`. */
static bool role_is(const struct gm_rank_entry *e, const char *role)
{
	return e->roles.nr == 1 && !strcmp(e->roles.v[0], role);
}

/*
 * Whether every file matched a section whose M: role is not it.
 * @return 1, 0 or GM_ERROR.
 */
static int files_have_own_section(const struct gm_rank *rk,
				  const struct gm_maintainers *m,
				  const struct gm_matches *matches)
{
	struct gm_buf role = GM_BUF_INIT;
	bool own = true;
	int error = 0;

	for (size_t i = 0; i < matches->nr_files && own && !error; i++) {
		const struct gm_match_file *f = &matches->files[i];

		own = false;
		for (size_t k = 0; k < f->nr_sections && !own && !error; k++)
			if (!(error = maintainer_role(&role, rk->set,
						      &m->sections[f->sections[k]],
						      false)))
				own = strcmp(role.ptr, REST_SUPPORTER) != 0;
	}
	gm_buf_release(&role);
	return error ? error : own;
}

int gm_rank_drop_rest_supporter(struct gm_rank *rk,
				const struct gm_maintainers *m,
				const struct gm_matches *matches)
{
	struct gm_rank_list *l = &rk->people;
	bool other = false;
	size_t j = 0;
	int error;

	if (!rk->set->drop_rest_supporter || l->nr < 2)
		return 0;
	if ((error = files_have_own_section(rk, m, matches)) <= 0)
		return error;
	for (size_t i = 0; i < l->nr && !other; i++)
		other = !role_is(&l->v[i], REST_SUPPORTER) &&
			!role_is(&l->v[i], "reviewer");
	for (size_t i = 0; other && i < l->nr; i++) {
		if (!role_is(&l->v[i], REST_SUPPORTER))
			l->v[j++] = l->v[i];
		else
			entry_free(&l->v[i]);
	}
	l->nr = other ? j : l->nr;
	return 0;
}

int gm_rank_add_section(struct gm_rank *rk, const struct gm_maintainers *m,
			size_t s)
{
	return add_section(rk, m, s, "");
}

int gm_rank_add_keyword_section(struct gm_rank *rk,
				const struct gm_maintainers *m, size_t line)
{
	struct gm_buf suffix = GM_BUF_INIT;
	int error = 0;

	if (rk->set->keyword_roles)
		error = gm_buf_printf(&suffix, ":Keyword:%s", m->lines[line].value);
	if (!error)
		error = add_section(rk, m, m->section_of[line],
				    suffix.ptr ? suffix.ptr : "");
	gm_buf_release(&suffix);
	return error;
}

/* ==================== normalisation ==================== */

static int pair_put(struct gm_strmap *m, const char *key, size_t klen,
		    const char *name, const char *addr)
{
	size_t nl = strlen(name), al = strlen(addr);
	char *pair = malloc(nl + al + 2);
	void *old;

	if (!pair)
		return gm_error_set(GM_ERROR, "out of memory");
	memcpy(pair, name, nl + 1);
	memcpy(pair + nl + 1, addr, al + 1);
	if (gm_strmap_get(m, key, klen, &old))
		free(old);
	if (gm_strmap_put(m, key, klen, pair) < 0) {
		free(pair);
		return GM_ERROR;
	}
	return 0;
}

/*
 * gm_rank_dedup(), or with `all`: whatever the settings say, and each
 * name and address met tied to the identity first met under the other,
 * so that a chain of names and addresses is one person.
 */
static int rank_dedup(struct gm_rank *rk, struct gm_buf *out, const char *s,
		      bool all)
{
	const char *f[5], *name, *lname, *laddr, *p, *pn, *pa;
	void *by_name = NULL, *by_addr = NULL, *pair;
	bool own = false;
	int error;

	if ((error = rank_mapped(rk, out, s, NULL)) < 0 ||
	    !(all || rk->set->remove_duplicates))
		return error;
	if (!(p = person_of(rk, out->ptr, &own, f)))
		return gm_error_set(GM_ERROR, "out of memory");
	name = f[0];
	lname = f[3];
	laddr = f[4];
	if (*name)
		gm_strmap_get(&rk->dedup_name, lname, strlen(lname), &by_name);
	if (!by_name)
		gm_strmap_get(&rk->dedup_addr, laddr, strlen(laddr), &by_addr);
	pair = by_name ? by_name : by_addr;
	pn = pair ? pair : name;	/* "name\0addr", as the block starts */
	pa = pn + strlen(pn) + 1;
	if (!pair || (all && *name && !by_name))
		error = pair_put(&rk->dedup_name, lname, strlen(lname), pn, pa);
	if (!error && (!pair || (all && by_name &&
		       !gm_strmap_get(&rk->dedup_addr, laddr, strlen(laddr),
				      NULL))))
		error = pair_put(&rk->dedup_addr, laddr, strlen(laddr), pn, pa);
	if (!error && pair)
		error = rank_mapped(rk, out, pn, pa);
	if (own)
		free((char *)p);
	return error;
}

int gm_rank_dedup(struct gm_rank *rk, struct gm_buf *out, const char *s)
{
	return rank_dedup(rk, out, s, false);
}

int gm_rank_normalize(struct gm_rank *rk)
{
	struct gm_buf out = GM_BUF_INIT;
	int error = 0;

	for (size_t i = 0; i < rk->people.nr + rk->lists.nr && !error; i++) {
		struct gm_rank_entry *e = i < rk->people.nr ? &rk->people.v[i] :
					  &rk->lists.v[i - rk->people.nr];

		if (!(error = gm_rank_dedup(rk, &out, e->addr))) {
			free(e->addr);
			e->addr = gm_buf_detach(&out, NULL);
		}
	}
	gm_buf_release(&out);
	return error;
}

/* ==================== roles from elsewhere ==================== */

int gm_rank_roles(struct gm_buf *out, const struct gm_rank_entry *e)
{
	int error = 0;

	gm_buf_reset(out);
	for (size_t i = 0; i < e->roles.nr && !error; i++)
		error = gm_buf_printf(out, "%s%s", i ? "," : "", e->roles.v[i]);
	return error;
}

/* Whether a role of `e` contains `role`, which has no comma. */
static bool has_role(const struct gm_rank_entry *e, const char *role)
{
	for (size_t i = 0; i < e->roles.nr; i++)
		if (strstr(e->roles.v[i], role))
			return true;
	return false;
}

/* add_role() of R-66: append `role` to every entry of the same person. */
static int add_role(struct gm_rank *rk, const char *line, const char *role)
{
	struct gm_buf name = GM_BUF_INIT, addr = GM_BUF_INIT, fmt = GM_BUF_INIT;
	struct gm_buf en = GM_BUF_INIT, ea = GM_BUF_INIT;
	int error;

	if ((error = gm_email_parse(&name, &addr, line)) < 0 ||
	    (error = gm_email_format(&fmt, name.ptr, addr.ptr,
				     rk->set->usename)) < 0)
		goto out;
	for (size_t i = 0; i < rk->people.nr && !error; i++) {
		struct gm_rank_entry *e = &rk->people.v[i];
		bool same;

		if (rk->set->remove_duplicates) {
			if ((error = gm_email_parse(&en, &ea, e->addr)) < 0)
				break;
			same = !strcmp(name.ptr, en.ptr) || !strcmp(addr.ptr, ea.ptr);
		} else {
			same = !strcmp(fmt.ptr, e->addr);
		}
		if (!same || (*role && has_role(e, role)))
			continue;
		e->kinds |= rk->kind;
		error = gm_strvec_push(&e->roles, role);
	}
out:
	gm_buf_release(&name);
	gm_buf_release(&addr);
	gm_buf_release(&fmt);
	gm_buf_release(&en);
	gm_buf_release(&ea);
	return error;
}

/* Most first, then by string. */
static int count_cmp(const void *a, const void *b)
{
	const struct gm_signers_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->who, y->who);
}

static void counts_free(struct gm_signers_count *c, size_t nr)
{
	for (size_t i = 0; c && i < nr; i++)
		free(c[i].who);
	free(c);
}

/*
 * `lines` (one at least) through the .mailmap, each distinct one counted,
 * into `*out` (`*nr` of them): most first, then by string, as
 * vcs_assign() takes them. Freed with counts_free().
 */
static int count_lines(struct gm_rank *rk, const struct gm_strvec *lines,
		       struct gm_signers_count **out, size_t *nr)
{
	struct gm_buf tmp = GM_BUF_INIT;
	struct gm_signers_count *c = calloc(lines->nr, sizeof(*c));
	size_t n = 0;
	int error = c ? 0 : gm_error_set(GM_ERROR, "out of memory");

	for (size_t i = 0; i < lines->nr && !error; i++) {
		c[i].count = 1;
		if (!(error = gm_mailmap_apply(&tmp, rk->mailmap, lines->v[i])) &&
		    !(c[i].who = gm_buf_detach(&tmp, NULL)))
			error = gm_error_set(GM_ERROR, "out of memory");
	}
	gm_buf_release(&tmp);
	if (error) {
		counts_free(c, lines->nr);
		return error;
	}
	qsort(c, lines->nr, sizeof(*c), count_cmp);	/* all 1: by string */
	for (size_t i = 0; i < lines->nr; i++) {
		if (n && !strcmp(c[n - 1].who, c[i].who)) {
			c[n - 1].count++;
			free(c[i].who);
		} else {
			c[n++] = c[i];
		}
	}
	qsort(c, n, sizeof(*c), count_cmp);
	*out = c;
	*nr = n;
	return 0;
}

/* vcs_assign() of the people counted in `c`. */
static int assign_counts(struct gm_rank *rk, const char *role, int divisor,
			 const struct gm_signers_count *c, size_t nr)
{
	const struct gm_rank_settings *o = rk->set;
	struct gm_buf r = GM_BUF_INIT;
	int n = 0, error = 0;

	if (!nr)
		return 0;
	if (divisor <= 0) {
		error = gm_strvec_pushf(&rk->warnings,
					"Bad divisor in main::vcs_assign: %d",
					divisor);
		divisor = 1;
	}
	for (size_t i = 0; i < nr && !error; i++) {
		double pct = c[i].count * 100.0 / divisor;

		if (pct > 100)
			pct = 100;
		if (rk->ignore && gm_strvec_contains(rk->ignore, c[i].who))
			continue;
		if (c[i].count < o->git_min_signatures ||
		    ++n > o->git_max_maintainers || pct < o->git_min_percent)
			break;
		if ((error = push_person(rk, c[i].who, "")) < 0)
			break;
		gm_buf_reset(&r);
		if (o->rolestats)
			error = gm_buf_printf(&r, "%s:%d/%d=%.0f%%", role,
					      c[i].count, divisor, pct);
		else
			error = gm_buf_puts(&r, role);
		if (!error)
			error = add_role(rk, c[i].who, r.ptr);
	}
	gm_buf_release(&r);
	return error;
}

int gm_rank_assign(struct gm_rank *rk, const char *role, int divisor,
		   const struct gm_strvec *lines, unsigned kind,
		   struct gm_signers_facts *facts)
{
	struct gm_signers_count *c = NULL;
	size_t nr = 0;
	int error;

	rk->kind = kind;
	if (!lines->nr)
		return 0;
	if ((error = count_lines(rk, lines, &c, &nr)) < 0)
		return error;
	error = assign_counts(rk, role, divisor, c, nr);
	if (!error && nr && facts &&
	    facts->nr_roles < sizeof(facts->roles) / sizeof(*facts->roles)) {
		facts->roles[facts->nr_roles++] =
			(struct gm_signers_role){ role, divisor, c, nr };
		return 0;	/* the facts' now */
	}
	counts_free(c, nr);
	return error;
}

/* Whether `s` contains `pat` with '.' in `pat` matching any character. */
static bool contains_dotted(const char *s, const char *pat)
{
	size_t n = strlen(pat);

	for (; *s; s++) {
		size_t i = 0;

		while (i < n && s[i] && (pat[i] == '.' || pat[i] == s[i]))
			i++;
		if (i == n)
			return true;
	}
	return false;
}

bool gm_rank_is_penguin_line(const struct gm_rank_settings *s,
			     const char *line, size_t len)
{
	size_t nr;
	const char *const *v = chiefs(s, &nr);

	for (size_t i = 0; i < nr; i++) {
		const char *colon = strrchr(v[i], ':');
		size_t n = colon ? (size_t)(colon - v[i]) : 0;

		for (size_t p = 0; n && p + n <= len; p++)
			if (!strncasecmp(line + p, v[i], n))
				return true;
	}
	return false;
}

/* The penguin "Name:addr" as format_email(name, addr, usename) gives it. */
static int chief_format(struct gm_buf *out, const char *chief, int usename)
{
	const char *colon = strrchr(chief, ':');
	struct gm_buf name = GM_BUF_INIT;
	int error;

	if (!colon)
		return gm_error_set(GM_ERROR, "chief penguin '%s' has no ':'",
				    chief);
	if (!(error = gm_buf_put(&name, chief, (size_t)(colon - chief))))
		error = gm_email_format(out, name.ptr, colon + 1, usename);
	gm_buf_release(&name);
	return error;
}

/*
 * R-79's removal test: whether the person string `entry` matches a chief
 * penguin's format_email(name, addr, usename) as the script's unanchored
 * regex does: anywhere in it, case-sensitive, each '.' any byte.
 */
static bool is_penguin_entry(const struct gm_rank_settings *s,
			     const char *entry, int usename)
{
	struct gm_buf fmt = GM_BUF_INIT;
	size_t nr;
	const char *const *v = chiefs(s, &nr);
	bool found = false;

	for (size_t i = 0; i < nr && !found; i++)
		found = chief_format(&fmt, v[i], usename) == 0 &&
			contains_dotted(entry, fmt.ptr);
	gm_buf_release(&fmt);
	return found;
}

static int drop_chief(struct gm_rank *rk)
{
	const struct gm_rank_settings *o = rk->set;
	struct gm_buf fmt = GM_BUF_INIT;
	size_t nr, j = 0;
	const char *const *v = chiefs(o, &nr);
	int error = 0;

	for (size_t k = 0; o->git_chief_penguins && k < nr && !error; k++) {
		if (!(error = chief_format(&fmt, v[k], o->usename)) &&
		    !(error = list_push(&rk->people, fmt.ptr, fmt.len,
					"chief penguin")))
			rk->people.v[rk->people.nr - 1].kinds = GM_KIND_CHIEF;
	}
	gm_buf_release(&fmt);
	if (o->git_chief_penguins || error)
		return error;
	for (size_t i = 0; i < rk->people.nr; i++) {
		if (is_penguin_entry(o, rk->people.v[i].addr, o->usename))
			entry_free(&rk->people.v[i]);
		else
			rk->people.v[j++] = rk->people.v[i];
	}
	rk->people.nr = j;
	return 0;
}

int gm_rank_signers(struct gm_rank *rk, struct gm_strvec *out,
		    const char *text, size_t len)
{
	struct gm_buf value = GM_BUF_INIT, once = GM_BUF_INIT;
	struct gm_buf twice = GM_BUF_INIT;
	const char *pos = text, *end = text + len, *line, *v;
	bool all = rk->set->git_all_signature_types;
	size_t n, vlen;
	int error = 0;

	while (!error && gm_trailer_next_line(&pos, end, &line, &n)) {
		if (!gm_trailer_is_signature(line, n, all) ||
		    (!rk->set->git_chief_penguins &&
		     gm_rank_is_penguin_line(rk->set, line, n)))
			continue;
		gm_trailer_signature_value(line, n, &v, &vlen);
		gm_buf_reset(&value);
		if (!(error = gm_buf_put(&value, v, vlen)) &&
		    !(error = gm_rank_dedup(rk, &once, value.ptr)) &&
		    !(error = gm_rank_dedup(rk, &twice, once.ptr)))
			error = gm_strvec_push(out, twice.ptr);
	}
	gm_buf_release(&value);
	gm_buf_release(&once);
	gm_buf_release(&twice);
	return error;
}

int gm_rank_finish(struct gm_rank *rk, const struct gm_strvec *file_emails)
{
	struct gm_buf mapped = GM_BUF_INIT, fmt = GM_BUF_INIT;
	int error;

	if (!rk->set->email)
		return 0;
	error = drop_chief(rk);
	rk->kind = GM_KIND_IN_FILE;
	for (size_t i = 0; file_emails && i < file_emails->nr && !error; i++) {
		if ((error = gm_mailmap_apply(&mapped, rk->mailmap,
					      file_emails->v[i])) < 0 ||
		    (error = gm_email_normalize(&fmt, mapped.ptr,
						rk->set->usename)) < 0 ||
		    (error = push_person(rk, fmt.ptr, "")) < 0)
			break;
		error = add_role(rk, fmt.ptr, "in file");
	}
	gm_buf_release(&mapped);
	gm_buf_release(&fmt);
	return error;
}

int gm_rank_parse_ignore(struct gm_strvec *out, const char *buf, size_t len)
{
	const char *pos = buf, *s, *e, *hash;
	struct gm_buf line = GM_BUF_INIT;
	size_t n;
	int error = 0;

	while (!error && gm_trailer_next_line(&pos, buf + len, &s, &n)) {
		e = s + n;
		while (e > s && gm_email_isspace((unsigned char)e[-1]))
			e--;
		if ((hash = memchr(s, '#', (size_t)(e - s))))
			e = hash;
		gm_buf_reset(&line);
		if (e > s && !(error = gm_buf_put(&line, s, (size_t)(e - s))) &&
		    gm_email_rfc822_valid(line.ptr))
			error = gm_strvec_push(out, line.ptr);
	}
	gm_buf_release(&line);
	return error;
}

/* ==================== history ==================== */

/* Trailer lines of `p` whose type is one of `keys` (any case). */
static size_t trailer_lines(const struct gm_history_person *p,
			    const char *const *keys, size_t nr_keys)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nr_types; i++)
		for (size_t k = 0; k < nr_keys; k++)
			if (!strcasecmp(p->types[i].key, keys[k]))
				n += p->types[i].lines;
	return n;
}

static const char *const review_keys[] = { "Reviewed-by", "Acked-by" };
static const char *const signoff_keys[] = { "Signed-off-by" };

/*
 * "history_commits:N/M=P%" (the window's commits touching the files that
 * name the person, of all of them), "history_authored:..." and
 * "history_reviewed:..." (their review and ack lines), then
 * "history_author_reviews:N" (author_rev) and "history_file_reviews:W"
 * (long_rev, its decayed weight); names only without stats. Labels of their own, never get_maintainer.pl's --git ones, which
 * count per file and may be shown beside them.
 */
static int history_roles(struct gm_rank_entry *e, const struct gm_rank *rk,
			 const struct gm_history_person *p, size_t total)
{
	static const char *const names[5] = { "history_commits",
		"history_authored", "history_reviewed", "history_author_reviews",
		"history_file_reviews" };
	const double v[5] = { (double)p->commits, (double)p->authored,
		(double)trailer_lines(p, review_keys, 2), (double)p->author_rev,
		p->long_rev };
	struct gm_buf role = GM_BUF_INIT;
	int error = 0;

	for (int k = 0; k < 5 && !error; k++) {
		if (v[k] <= 0)
			continue;
		gm_buf_reset(&role);
		error = gm_buf_puts(&role, names[k]);
		if (!error && rk->set->rolestats && k < 3)
			error = gm_buf_printf(&role, ":%zu/%zu=%.0f%%",
					      (size_t)v[k], total,
					      v[k] * 100.0 / total);
		else if (!error && rk->set->rolestats)
			error = gm_buf_printf(&role, ":%.4g", v[k]);
		if (!error)
			error = gm_strvec_push(&e->roles, role.ptr);
	}
	gm_buf_release(&role);
	return error;
}

/*
 * The lower-case address of the person string `s` into `key`.
 * @return 1, 0 if `s` cannot be parsed, or GM_ERROR.
 */
static int email_key(struct gm_buf *key, const char *s)
{
	struct gm_buf name = GM_BUF_INIT, addr = GM_BUF_INIT;
	int error = gm_email_parse(&name, &addr, s) < 0 ? 0 :
		    gm_buf_set_lower(key, addr.ptr) < 0 ? GM_ERROR : 1;

	gm_buf_release(&name);
	gm_buf_release(&addr);
	return error;
}

/*
 * Index the people by lower-case address, `1 + index` as the value; the
 * first of an address wins, as a search in order would find it.
 */
static int index_by_email(const struct gm_rank *rk, size_t from,
			  struct gm_strmap *by, struct gm_buf *tmp)
{
	int error = 0;

	for (size_t i = from; i < rk->people.nr && error >= 0; i++)
		if ((error = email_key(tmp, rk->people.v[i].addr)) > 0 &&
		    !gm_strmap_get(by, tmp->ptr, tmp->len, NULL))
			error = gm_strmap_put(by, tmp->ptr, tmp->len,
					      (void *)(uintptr_t)(i + 1));
	return error < 0 ? error : 0;
}

/*
 * --history's rule: the weights of history_score(), chosen by
 * bench/quality-fit jointly with the walk's review signals on the seven
 * projects of doc/quality.md (there, each project's figures come from
 * weights chosen without it; these are the choice on all of them).
 */
static const double W_MAINTAINER = 4;	/* M: of a section of their own */
static const double W_REVIEWER = 4;	/* R: of one */
static const double W_CATCHALL = 0;	/* M: or R: of a catch-all only */
static const double W_REVIEW = 2;	/* per Reviewed-by:/Acked-by: line ... */
static const double CAP_REVIEW = 3;	/* ... this many at most */
static const double W_WORK = 1;	/* per Signed-off-by: or commit written ... */
static const double CAP_WORK = 6;	/* ... this many at most */
static const double W_AUTHOR_REV = 1;	/* per review of the author's commits ... */
static const double CAP_AUTHOR_REV = 5;	/* ... this many at most */
static const double W_LONG_REV = 2;	/* per review of the files, decayed ... */
static const double CAP_LONG_REV = 3;	/* ... this much at most */

static double capped(double w, double v, double cap)
{
	return w * (v < cap ? v : cap);
}

/* The score of gm_rank_add_history(): `p` the person's walk, or NULL. */
static double history_score(enum gm_rank_scope scope,
			    const struct gm_history_person *p)
{
	const double weight[] = { 0, W_CATCHALL, W_REVIEWER, W_MAINTAINER };
	double s = weight[scope];

	if (p)
		s += capped(W_REVIEW, (double)trailer_lines(p, review_keys, 2),
			    CAP_REVIEW) +
		     capped(W_WORK, (double)(trailer_lines(p, signoff_keys, 1) +
					     p->authored), CAP_WORK) +
		     capped(W_AUTHOR_REV, (double)p->author_rev,
			    CAP_AUTHOR_REV) +
		     capped(W_LONG_REV, p->long_rev, CAP_LONG_REV);
	return s;
}

/* Bits of where an entry's section roles come from. */
enum { M_OWN = 1, M_ALL = 2, R_OWN = 4, R_ALL = 8 };

static unsigned entry_sections(const struct gm_rank *rk,
			       const struct gm_rank_entry *e)
{
	unsigned bits = 0;

	if (!(e->kinds & (GM_KIND_MAINTAINER | GM_KIND_REVIEWER)))
		return 0;
	for (size_t i = 0; i < e->roles.nr; i++) {
		const char *role = e->roles.v[i], *colon = strchr(role, ':');
		bool reviewer = !strncmp(role, "reviewer", 8) &&
				(!role[8] || role[8] == ':');
		const char *key = colon ? colon + 1 :
				  reviewer ? BARE_REVIEWER : NULL;
		void *v;

		if (!key || !gm_strmap_get(&rk->scopes, key, strlen(key), &v))
			continue;
		if ((uintptr_t)v == 2)
			bits |= reviewer ? R_ALL : M_ALL;
		else
			bits |= reviewer ? R_OWN : M_OWN;
	}
	return bits;
}

static enum gm_rank_scope entry_scope(unsigned bits, bool own_maintainers)
{
	if (bits & M_OWN)
		return GM_SCOPE_MAINTAINER;
	if (bits & R_OWN)
		return GM_SCOPE_REVIEWER;
	if (bits & (M_ALL | R_ALL) && own_maintainers)
		return GM_SCOPE_CATCHALL;
	if (bits & M_ALL)
		return GM_SCOPE_MAINTAINER;
	return bits & R_ALL ? GM_SCOPE_REVIEWER : GM_SCOPE_NONE;
}

/* Merge `from` into `to` (the same address): roles, kinds, activity. */
static int entry_merge(struct gm_rank_entry *to, struct gm_rank_entry *from)
{
	int error = 0;

	for (size_t i = 0; i < from->roles.nr && !error; i++)
		if (!gm_strvec_contains(&to->roles, from->roles.v[i]) &&
		    strcmp(from->roles.v[i], "inactive"))
			error = gm_strvec_push(&to->roles, from->roles.v[i]);
	to->kinds |= from->kinds;
	if (!to->history)
		to->history = from->history;
	return error;
}

/* One entry per address (the first; the others merged into it). */
static int people_merge(struct gm_rank *rk)
{
	struct gm_strmap by = GM_STRMAP_INIT;
	struct gm_buf tmp = GM_BUF_INIT;
	size_t j = 0;
	int error = 0;

	for (size_t i = 0; i < rk->people.nr; i++) {
		struct gm_rank_entry *e = &rk->people.v[i];
		int k = error ? 0 : email_key(&tmp, e->addr);
		bool keyed = k > 0 && tmp.len;
		void *v;

		error = k < 0 ? k : error;

		if (keyed && gm_strmap_get(&by, tmp.ptr, tmp.len, &v)) {
			error = entry_merge(&rk->people.v[(uintptr_t)v - 1], e);
			entry_free(e);
			continue;
		}
		if (keyed)
			error = gm_strmap_put(&by, tmp.ptr, tmp.len,
					      (void *)(uintptr_t)(j + 1));
		rk->people.v[j++] = *e;
	}
	rk->people.nr = j;
	gm_strmap_release(&by);
	gm_buf_release(&tmp);
	return error;
}

/* Best score first, then in list order (entries of one array). */
static int ranked_cmp(const void *a, const void *b)
{
	const struct gm_rank_entry *x = *(const struct gm_rank_entry *const *)a;
	const struct gm_rank_entry *y = *(const struct gm_rank_entry *const *)b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Who is never cut: the chief penguin and the signers of Fixes: commits. */
static bool history_kept(const struct gm_rank_entry *e)
{
	return e->kinds & (GM_KIND_CHIEF | GM_KIND_FIXES);
}

/*
 * Whether the address of `addr` (any case) is one of the `nr` lower-case
 * addresses `who`.
 */
static bool address_in(char *const *who, size_t nr, const char *addr,
		       struct gm_buf *tmp)
{
	bool found = false;

	if (nr && email_key(tmp, addr) > 0)
		for (size_t i = 0; i < nr && !found; i++)
			found = !strcmp(who[i], tmp->ptr);
	return found;
}

/*
 * Score and order the people (ties in list order), then keep `budget` of
 * them: everyone history_kept() holds, then the best of the others; the
 * patch's `author` (lower-case, or NULL) only if the budget is unlimited.
 * The others go to rk->cut, best first.
 */
static int history_cut(struct gm_rank *rk, size_t budget, char *author)
{
	struct gm_rank_list *l = &rk->people;
	struct gm_rank_entry **r = calloc(l->nr + 1, sizeof(*r));
	struct gm_rank_entry *v = calloc(l->nr + 1, sizeof(*v));
	size_t kept = 0, room, j = 0;
	struct gm_buf tmp = GM_BUF_INIT;
	bool own = false;
	int error = 0;

	if (!r || !v) {
		free(r);
		free(v);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	for (size_t i = 0; i < l->nr; i++)
		own |= (entry_sections(rk, &l->v[i]) & M_OWN) != 0;
	for (size_t i = 0; i < l->nr; i++) {
		l->v[i].scope = entry_scope(entry_sections(rk, &l->v[i]), own);
		l->v[i].score = history_score(l->v[i].scope, l->v[i].history);
		r[i] = &l->v[i];
		kept += history_kept(&l->v[i]);
	}
	qsort(r, l->nr, sizeof(*r), ranked_cmp);
	room = budget > kept ? budget - kept : 0;
	for (size_t i = 0; i < l->nr; i++) {
		struct gm_rank_entry *e = r[i];
		bool self = address_in(&author, author != NULL, e->addr, &tmp);

		if (history_kept(e) ||
		    ((!self || budget == SIZE_MAX) && room && room--))
			v[j++] = *e;
		else if (!error && !(error = GM_ARRAY_GROW(rk->cut.v, rk->cut.nr,
							   rk->cut.alloc)))
			rk->cut.v[rk->cut.nr++] = *e;
		else
			entry_free(e);
	}
	free(l->v);
	l->v = v;
	l->alloc = l->nr + 1;
	l->nr = j;
	free(r);
	gm_buf_release(&tmp);
	return error;
}

/* Add the counts of `p` to `to`, a person of rk->hist. */
static int hist_sum(struct gm_history_person *to,
		    const struct gm_history_person *p, size_t total)
{
	int error = 0;

	to->commits = to->commits + p->commits < total ?
		      to->commits + p->commits : total;
	to->authored += p->authored;
	to->author_rev += p->author_rev;
	to->long_rev += p->long_rev;
	for (size_t i = 0; i < p->nr_types && !error; i++)
		error = gm_history_person_add_type(to, p->types[i].key,
						   p->types[i].lines);
	return error;
}

/* The person of rk->hist with `name` and `addr`, added if new. */
static int hist_person(struct gm_rank *rk, struct gm_strmap *by,
		       const char *name, const char *addr, struct gm_buf *tmp,
		       struct gm_history_person **out)
{
	struct gm_history_person *p;
	void *v;
	int error;

	if ((error = gm_buf_set_lower(tmp, addr)) < 0)
		return error;
	if (gm_strmap_get(by, tmp->ptr, tmp->len, &v)) {
		*out = &rk->hist[(uintptr_t)v - 1];
		return 0;
	}
	p = &rk->hist[rk->nr_hist];
	memset(p, 0, sizeof(*p));
	p->name = strdup(name);
	p->email = strdup(addr);
	if (!p->name || !p->email) {
		free(p->name);
		free(p->email);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	*out = p;
	return gm_strmap_put(by, tmp->ptr, tmp->len,
			     (void *)(uintptr_t)++rk->nr_hist);
}

/*
 * Walk person `p` as the output names them, into `out`: the identity its
 * first name met leads to, else that of a name met elsewhere (another
 * of `p`'s names leading to an identity under another address).
 */
static int hist_identity(struct gm_rank *rk, const struct gm_history_person *p,
			 struct gm_buf *fmt, struct gm_buf *out)
{
	struct gm_buf other = GM_BUF_INIT, name = GM_BUF_INIT, addr = GM_BUF_INIT;
	int error = 0;

	for (size_t i = 0; i <= p->names.nr && !error; i++) {
		gm_buf_reset(fmt);
		if ((error = gm_email_format(fmt, i ? p->names.v[i - 1] : p->name,
					     p->email, 1)) < 0 ||
		    (error = rank_dedup(rk, &other, fmt->ptr, true)) < 0)
			break;
		if (!i || (gm_email_parse(&name, &addr, other.ptr) == 0 &&
			   strcasecmp(addr.ptr, p->email))) {
			gm_buf_reset(out);
			error = gm_buf_put(out, other.ptr, other.len);
			if (i)
				break;
		}
	}
	gm_buf_release(&other);
	gm_buf_release(&name);
	gm_buf_release(&addr);
	return error;
}

/*
 * The walk's people as the output names people (gm_rank_add_history()):
 * into rk->hist, in the walk's order, identities that meet (by name or
 * by address, whatever --remove-duplicates says) summed. The sections'
 * people are met first, so that a person MAINTAINERS lists is named
 * with the address it lists.
 */
static int history_identities(struct gm_rank *rk, const struct gm_history *h)
{
	struct gm_strmap by = GM_STRMAP_INIT;
	struct gm_buf fmt = GM_BUF_INIT, out = GM_BUF_INIT, tmp = GM_BUF_INIT;
	struct gm_buf name = GM_BUF_INIT, addr = GM_BUF_INIT;
	struct gm_history_person *q;
	int error = 0;

	if (!(rk->hist = calloc(h->nr_people + 1, sizeof(*rk->hist))))
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < rk->people.nr && !error; i++)
		error = rank_dedup(rk, &out, rk->people.v[i].addr, true);
	for (size_t i = 0; i < h->nr_people && !error; i++) {
		const struct gm_history_person *p = &h->people[i];

		if ((error = hist_identity(rk, p, &fmt, &out)) < 0)
			break;
		if (gm_email_parse(&name, &addr, out.ptr) < 0 || !addr.len)
			error = hist_person(rk, &by, p->name, p->email, &tmp, &q);
		else
			error = hist_person(rk, &by, name.ptr, addr.ptr, &tmp, &q);
		if (!error)
			error = hist_sum(q, p, h->commits);
	}
	gm_strmap_release(&by);
	gm_buf_release(&fmt);
	gm_buf_release(&out);
	gm_buf_release(&tmp);
	gm_buf_release(&name);
	gm_buf_release(&addr);
	return error;
}

/*
 * The people of rk->hist: their roles, those not listed yet added;
 * `*listed` gets how many addresses were listed before, but the author's.
 */
static int history_merge(struct gm_rank *rk, const struct gm_history *h,
			 size_t *listed)
{
	struct gm_strmap by_email = GM_STRMAP_INIT;
	struct gm_buf fmt = GM_BUF_INIT, tmp = GM_BUF_INIT;
	size_t total = h->commits;
	int error = index_by_email(rk, 0, &by_email, &tmp);

	*listed = by_email.nr - (h->author &&
				 gm_strmap_get(&by_email, h->author,
					       strlen(h->author), NULL));

	for (size_t i = 0; i < rk->nr_hist && !error; i++) {
		const struct gm_history_person *p = &rk->hist[i];
		struct gm_rank_entry *e = NULL;
		void *v;

		/* the person listed with that address (any case) */
		if (!gm_buf_set_lower(&tmp, p->email) &&
		    gm_strmap_get(&by_email, tmp.ptr, tmp.len, &v))
			e = &rk->people.v[(uintptr_t)v - 1];
		if (!e) {
			gm_buf_reset(&fmt);
			if ((error = gm_email_format(&fmt, p->name, p->email,
						     rk->set->usename)) < 0 ||
			    (error = list_push(&rk->people, fmt.ptr, fmt.len,
					       "")) < 0 ||
			    (error = index_by_email(rk, rk->people.nr - 1,
						    &by_email, &tmp)) < 0)
				break;
			e = &rk->people.v[rk->people.nr - 1];
		}
		e->history = p;
		e->kinds |= GM_KIND_HISTORY;
		error = history_roles(e, rk, p, total);
	}
	gm_strmap_release(&by_email);
	gm_buf_release(&fmt);
	gm_buf_release(&tmp);
	return error;
}

int gm_rank_add_history(struct gm_rank *rk, const struct gm_history *h)
{
	struct gm_buf tmp = GM_BUF_INIT;
	int max = rk->set->max_recipients;
	size_t listed = 0;
	int error = history_identities(rk, h);

	if (!error)
		error = history_merge(rk, h, &listed);
	if (!error)
		error = people_merge(rk);
	for (size_t i = 0; i < rk->people.nr && !error; i++) {
		struct gm_rank_entry *e = &rk->people.v[i];

		if (!e->history && !address_in(h->committers.v,
					       h->committers.nr, e->addr, &tmp))
			error = gm_strvec_push(&e->roles, "inactive");
	}
	/*
	 * --max-recipients people (0: all), else as many as were listed,
	 * none if none were (bench/quality's aim: no more than the script)
	 */
	if (!error)
		error = history_cut(rk, max > 0 ? (size_t)max : max == 0 ?
				    SIZE_MAX : listed, h->author);
	if (!error && h->rejected)
		error = gm_strvec_pushf(&rk->warnings, "%zu trailer line%s of "
					"the history name%s no valid address: "
					"not counted", h->rejected,
					h->rejected == 1 ? "" : "s",
					h->rejected == 1 ? "s" : "");
	gm_buf_release(&tmp);
	return error;
}

/* ==================== the last check ==================== */

static int sanitize_list(struct gm_rank *rk, struct gm_rank_list *l)
{
	struct gm_buf msg = GM_BUF_INIT;
	size_t j = 0;
	int error = 0;

	for (size_t i = 0; i < l->nr; i++) {
		struct gm_rank_entry *e = &l->v[i];

		if (gm_email_mailbox_valid(e->addr)) {
			l->v[j++] = *e;
			continue;
		}
		/*
		 * the line itself too, when it says more than the address;
		 * control characters are shown when the warning is printed
		 */
		if (!error && !(error = rank_where(&msg, rk, e->source)) &&
		    !(error = gm_buf_printf(&msg, "dropped malformed address '%s'",
					    e->addr)) &&
		    e->source &&
		    (!*e->addr || !strstr(e->source->value, e->addr)))
			error = gm_buf_printf(&msg, " (%c: %s)", e->source->tag,
					      e->source->value);
		if (!error)
			error = gm_strvec_push(&rk->warnings, msg.ptr);
		entry_free(e);
	}
	l->nr = j;
	gm_buf_release(&msg);
	return error;
}

int gm_rank_sanitize(struct gm_rank *rk)
{
	int error = sanitize_list(rk, &rk->people);

	return error ? error : sanitize_list(rk, &rk->lists);
}
