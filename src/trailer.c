#include "gm/trailer.h"

#include <string.h>

#include "gm/email.h"
#include "gm/error.h"

static bool trailer_key_char(char c)
{
	return c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool gm_trailer_parse(struct gm_trailer *t, const char *line, size_t len)
{
	size_t k = 0, v;

	while (k < len && trailer_key_char(line[k]))
		k++;
	if (k < 2 || k >= len || line[k] != ':' ||
	    (line[k - 2] | 0x20) != 'b' || (line[k - 1] | 0x20) != 'y')
		return false;
	if (!memchr(line + k + 1, '@', len - k - 1))
		return false;
	for (v = k + 1; v < len && gm_email_isspace((unsigned char)line[v]); v++)
		;
	while (len > v && gm_email_isspace((unsigned char)line[len - 1]))
		len--;
	t->key = line;
	t->key_len = k;
	t->value = line + v;
	t->value_len = len - v;
	return true;
}

int gm_trailer_canonical_key(struct gm_buf *out, const char *key, size_t len)
{
	gm_buf_reset(out);
	for (size_t i = 0; i < len; i++) {
		char c = key[i];

		if (i == 0 && c >= 'a' && c <= 'z')
			c -= 32;
		else if (i > 0 && c >= 'A' && c <= 'Z')
			c += 32;
		if (gm_buf_putc(out, c) < 0)
			return GM_ERROR;
	}
	return 0;
}
