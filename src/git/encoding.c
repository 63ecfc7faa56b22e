#include "gm/encoding.h"

#include <errno.h>
#include <iconv.h>
#include <string.h>
#include <strings.h>

#include "gm/error.h"

/* The converter from `from` to UTF-8, with git's second try at a name. */
static iconv_t open_to_utf8(const char *from)
{
	iconv_t cd = iconv_open("UTF-8", from);

	if (cd == (iconv_t)-1 && !strcasecmp(from, "latin-1"))
		cd = iconv_open("UTF-8", "ISO-8859-1");
	return cd;
}

/*
 * `s` converted by `cd` into the empty `out`. @return 0, GM_ENOTFOUND
 * if the bytes are not in the encoding (`out` then unused), or GM_ERROR.
 */
static int convert(iconv_t cd, const char *s, struct gm_buf *out)
{
	size_t left = strlen(s), room, used;
	char *in = (char *)s, *to;

	iconv(cd, NULL, NULL, NULL, NULL);
	if (gm_buf_grow(out, left * 4 + 16) < 0)
		return GM_ERROR;
	for (;;) {
		to = out->ptr + out->len;
		room = out->alloc - out->len - 1;
		used = room;
		if (iconv(cd, &in, &left, &to, &room) != (size_t)-1 &&
		    iconv(cd, NULL, NULL, &to, &room) != (size_t)-1)
			break;
		if (errno != E2BIG)
			return GM_ENOTFOUND;
		out->len += used - room;
		if (gm_buf_grow(out, out->alloc * 2) < 0)
			return GM_ERROR;
	}
	out->len += used - room;
	out->ptr[out->len] = '\0';
	return 0;
}

/* The value of the first header line `key` ("author ") of `text`, or NULL. */
static const char *header(const char *text, const char *body, const char *key,
			  size_t *len)
{
	size_t n = strlen(key);

	for (const char *p = text; p && p < body; p = strchr(p, '\n')) {
		p += *p == '\n';
		if (!strncmp(p, key, n)) {
			*len = strcspn(p + n, "\n");
			return p + n;
		}
	}
	return NULL;
}

/*
 * The author of the commit `text`, whose header ends at `body`, into
 * the empty `who`: its name, a NUL, its email. @return 0, GM_ENOTFOUND
 * if it has no author line libgit2 reads, or GM_ERROR.
 */
static int take_author(struct gm_buf *who, const char *text, const char *body)
{
	const char *line;
	git_signature *sig = NULL;
	size_t len;
	int error = GM_ENOTFOUND;

	if (!(line = header(text, body, "author ", &len)))
		return GM_ENOTFOUND;
	if (gm_buf_put(who, line, len) < 0)
		return GM_ERROR;
	if (git_signature_from_buffer(&sig, who->ptr) == 0) {
		gm_buf_reset(who);
		error = gm_buf_put(who, sig->name, strlen(sig->name) + 1) < 0 ||
			gm_buf_put(who, sig->email, strlen(sig->email)) < 0 ?
			GM_ERROR : 0;
	}
	git_signature_free(sig);
	return error;
}

/* Point out's name and email at the author in `who`, taken (`who` empty). */
static void keep_author(struct gm_commit_utf8 *out, struct gm_buf *who)
{
	gm_buf_release(&out->buf[1]);
	out->buf[1] = *who;
	gm_buf_init(who);
	out->name = out->buf[1].ptr;
	out->email = out->name + strlen(out->name) + 1;
}

int gm_commit_utf8_text(struct gm_commit_utf8 *out, const char *text)
{
	const char *body = strstr(text, "\n\n"), *enc, *conv;
	struct gm_buf name = GM_BUF_INIT, who = GM_BUF_INIT;
	size_t len = 0;
	iconv_t cd;
	int error;

	*out = (struct gm_commit_utf8)GM_COMMIT_UTF8_INIT;
	if (!body)
		body = text + strlen(text);
	out->message = *body ? body + 2 : body;
	if ((error = take_author(&who, text, body)) == 0)
		keep_author(out, &who);
	gm_buf_release(&who);
	if (error == GM_ERROR ||
	    !(enc = header(text, body, "encoding ", &len)) ||
	    gm_buf_put(&name, enc, len) < 0 || !strcasecmp(name.ptr, "UTF-8") ||
	    !strcasecmp(name.ptr, "UTF8") ||
	    (cd = open_to_utf8(name.ptr)) == (iconv_t)-1) {
		gm_buf_release(&name);
		return error == GM_ERROR ? error : 0;
	}
	gm_buf_release(&name);
	/* git converts the whole commit, or shows the whole as it is */
	error = convert(cd, text, &out->buf[0]);
	iconv_close(cd);
	conv = out->buf[0].ptr;
	if (!error && (body = strstr(conv, "\n\n")) &&
	    (error = take_author(&who, conv, body)) == 0) {
		keep_author(out, &who);
		out->message = body + 2;
	}
	gm_buf_release(&who);
	return error == GM_ERROR ? error : 0;
}

void gm_commit_utf8_release(struct gm_commit_utf8 *u)
{
	for (int i = 0; i < 2; i++)
		gm_buf_release(&u->buf[i]);
}
