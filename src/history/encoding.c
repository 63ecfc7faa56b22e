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

/* Point *s at its conversion in `buf`, if it converts. */
static int convert_field(iconv_t cd, const char **s, struct gm_buf *buf)
{
	int error;

	if (!*s)
		return 0;
	error = convert(cd, *s, buf);
	if (error == GM_ENOTFOUND)
		return GM_ENOTFOUND;
	if (error < 0)
		return gm_error_set(GM_ERROR, "out of memory");
	*s = buf->ptr;
	return 0;
}

int gm_commit_utf8(struct gm_commit_utf8 *out, const git_commit *c,
		   const char *message)
{
	const git_signature *a = git_commit_author(c);
	const char *enc = git_commit_message_encoding(c);
	const char *name = a && a->name ? a->name : "";
	const char *email = a && a->email ? a->email : "";
	iconv_t cd;
	int error = 0;

	*out = (struct gm_commit_utf8)GM_COMMIT_UTF8_INIT;
	out->name = name;
	out->email = email;
	out->message = message;
	if (!enc || is_utf8(enc) || (cd = open_to_utf8(enc)) == (iconv_t)-1)
		return 0;
	/* git converts the whole commit, or keeps it whole as it is */
	if ((error = convert_field(cd, &out->name, &out->buf[0])) < 0 ||
	    (error = convert_field(cd, &out->email, &out->buf[1])) < 0 ||
	    (error = convert_field(cd, &out->message, &out->buf[2])) < 0) {
		out->name = name;
		out->email = email;
		out->message = message;
	}
	iconv_close(cd);
	return error == GM_ENOTFOUND ? 0 : error;
}

void gm_commit_utf8_release(struct gm_commit_utf8 *u)
{
	for (int i = 0; i < 3; i++)
		gm_buf_release(&u->buf[i]);
}
