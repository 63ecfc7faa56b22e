#include "gm/mailmap.h"

#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

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

/* The four line forms of R-20, tried in order. */
static const char *const form_sources[] = {
	"^([^<]+)<([^>]+)>$",
	"^<([^>]+)>\\s*<([^>]+)>$",
	"^(.+)<([^>]+)>\\s*<([^>]+)>$",
	"^(.+)<([^>]+)>\\s*(.+)\\s*<([^>]+)>$",
};

#define NFORMS (sizeof(form_sources) / sizeof(*form_sources))

static int mailmap_add_line(struct gm_mailmap *mm, pcre2_code *const *forms,
			    pcre2_match_data *md, const char *s, size_t len)
{
	struct gm_buf name = GM_BUF_INIT, addr = GM_BUF_INIT;
	struct gm_buf wname = GM_BUF_INIT, waddr = GM_BUF_INIT;
	struct gm_buf key = GM_BUF_INIT;
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
	size_t form = 0;
	int error = 0;

	/* the first form `s` has; group k is s[ov[2k] .. ov[2k+1]) */
	while (form < NFORMS &&
	       pcre2_match(forms[form], (PCRE2_SPTR)s, len, 0, 0, md, NULL) <= 0)
		form++;
#define GROUP(k) s + ov[2 * (k)], ov[2 * (k) + 1] - ov[2 * (k)]
	switch (form + 1) {
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

static void forms_free(pcre2_code **forms)
{
	for (size_t f = 0; f < NFORMS; f++)
		pcre2_code_free(forms[f]);
}

static int forms_compile(pcre2_code **forms)
{
	int errcode;
	PCRE2_SIZE erroff;

	for (size_t f = 0; f < NFORMS; f++) {
		forms[f] = pcre2_compile((PCRE2_SPTR)form_sources[f],
					 PCRE2_ZERO_TERMINATED, 0, &errcode,
					 &erroff, NULL);
		if (!forms[f]) {
			forms_free(forms);
			return gm_error_set(GM_ERROR, "out of memory");
		}
	}
	return 0;
}

int gm_mailmap_from_buffer(struct gm_mailmap **out, const char *buf,
			   size_t len)
{
	struct gm_mailmap *mm = calloc(1, sizeof(*mm));
	pcre2_code *forms[NFORMS] = { NULL };
	pcre2_match_data *md = pcre2_match_data_create(8, NULL);
	const char *end = buf + len;
	int error = 0;

	if (!mm || !md || forms_compile(forms) < 0) {
		free(mm);
		pcre2_match_data_free(md);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	while (buf < end) {
		const char *nl = memchr(buf, '\n', (size_t)(end - buf));
		const char *eol = nl ? nl : end;
		const char *hash = memchr(buf, '#', (size_t)(eol - buf));
		const char *s = buf, *e = hash ? hash : eol;

		while (s < e && gm_email_isspace((unsigned char)*s))
			s++;
		while (e > s && gm_email_isspace((unsigned char)e[-1]))
			e--;
		if (e > s && (error = mailmap_add_line(mm, forms, md, s,
						       (size_t)(e - s))) < 0)
			break;
		buf = nl ? nl + 1 : end;
	}
	forms_free(forms);
	pcre2_match_data_free(md);
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
	if (mm) {
		/* "Name <addr>" if either map has it, else the bare address */
		const char *k = map_get(&mm->names, key.ptr) ||
				map_get(&mm->addresses, key.ptr) ? key.ptr :
								   addr.ptr;
		const char *n = map_get(&mm->names, k);
		const char *a = map_get(&mm->addresses, k);

		rname = n ? n : rname;
		raddr = a ? a : raddr;
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
	gm_strmap_release_values(&mm->names, free);
	gm_strmap_release_values(&mm->addresses, free);
	free(mm);
}
