#include "gm/encoding.h"

#include <errno.h>
#include <iconv.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "gm/error.h"

static bool is_utf8(const char *name)
{
	return !strcasecmp(name, "UTF-8") || !strcasecmp(name, "UTF8");
}

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

/*
 * Point out's fields into `conv`, the whole commit converted: the author
 * of its header, and with `message` the message after it. @return 0,
 * GM_ENOTFOUND if there is no author line to read, or GM_ERROR.
 */
static int take_fields(struct gm_commit_utf8 *out, const char *conv,
		       bool message)
{
	const char *body = strstr(conv, "\n\n"), *line, *end;
	git_signature *sig = NULL;
	struct gm_buf *who = &out->buf[1];
	int error = GM_ENOTFOUND;

	if (!body)
		return GM_ENOTFOUND;
	line = !strncmp(conv, "author ", 7) ? conv : strstr(conv, "\nauthor ");
	if (!line || line > body)
		return GM_ENOTFOUND;
	line += *line == '\n' ? 8 : 7;
	end = strchr(line, '\n');
	if (gm_buf_put(who, line, (size_t)(end - line)) < 0)
		return GM_ERROR;
	if (git_signature_from_buffer(&sig, who->ptr) == 0) {
		gm_buf_reset(who);
		error = gm_buf_put(who, sig->name, strlen(sig->name) + 1) < 0 ||
			gm_buf_put(who, sig->email, strlen(sig->email)) < 0 ?
			GM_ERROR : 0;
		out->name = who->ptr;
		out->email = who->ptr + strlen(who->ptr) + 1;
		if (message)
			out->message = body + 2;
	}
	git_signature_free(sig);
	return error;
}

int gm_commit_utf8(struct gm_commit_utf8 *out, const git_commit *c,
		   const char *message)
{
	const git_signature *a = git_commit_author(c);
	const char *enc = git_commit_message_encoding(c);
	struct gm_buf *whole = &out->buf[2];
	iconv_t cd;
	int error = 0;

	*out = (struct gm_commit_utf8)GM_COMMIT_UTF8_INIT;
	out->name = a && a->name ? a->name : "";
	out->email = a && a->email ? a->email : "";
	out->message = message;
	if (!enc || is_utf8(enc) || (cd = open_to_utf8(enc)) == (iconv_t)-1)
		return 0;
	/* git converts the whole commit, or shows the whole as it is */
	if (!(error = gm_buf_printf(whole, "%s\n%s", git_commit_raw_header(c),
				    message ? message :
				    git_commit_message_raw(c))))
		error = convert(cd, whole->ptr, &out->buf[0]);
	iconv_close(cd);
	if (!error && (error = take_fields(out, out->buf[0].ptr,
					   message != NULL)) < 0) {
		out->name = a && a->name ? a->name : "";
		out->email = a && a->email ? a->email : "";
		out->message = message;
	}
	return error == GM_ENOTFOUND ? 0 : error;
}

void gm_commit_utf8_release(struct gm_commit_utf8 *u)
{
	for (int i = 0; i < 3; i++)
		gm_buf_release(&u->buf[i]);
}
