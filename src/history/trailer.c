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

/* ==================== R-72, R-73 ==================== */

bool gm_trailer_next_line(const char **pos, const char *end,
			  const char **line, size_t *len)
{
	const char *s = *pos, *nl;

	while (s < end && gm_email_isspace((unsigned char)*s))
		s++;
	if (s >= end) {
		*pos = end;
		return false;
	}
	nl = memchr(s, '\n', (size_t)(end - s));
	*line = s;
	*len = (size_t)((nl ? nl : end) - s);
	*pos = nl ? nl + 1 : end;
	return true;
}

/* The R-73 tags, each with its colon. */
static const char *const signature_tags[] = {
	"Signed-off-by:", "Reviewed-by:", "Acked-by:",
};

bool gm_trailer_is_signature(const char *line, size_t len, bool all_types)
{
	size_t rest = len;	/* where the '@' is looked for */

	if (all_types) {
		for (size_t p = 1; p + 3 <= len && rest == len; p++)
			if ((line[p] | 0x20) == 'b' &&
			    (line[p + 1] | 0x20) == 'y' && line[p + 2] == ':')
				rest = p + 3;
	} else {
		size_t b = 0;

		while (b < len && (line[b] == ' ' || line[b] == '\t'))
			b++;
		for (size_t i = 0; i < sizeof(signature_tags) /
				       sizeof(*signature_tags); i++) {
			size_t n = strlen(signature_tags[i]);

			if (len - b >= n &&
			    !memcmp(line + b, signature_tags[i], n))
				rest = b + n;
		}
	}
	return rest < len && memchr(line + rest, '@', len - rest) != NULL;
}

void gm_trailer_signature_value(const char *line, size_t len,
				const char **value, size_t *value_len)
{
	size_t v = 0;

	/* after the last ':' with at least one byte after it */
	for (size_t i = 0; i + 1 < len; i++)
		if (line[i] == ':')
			v = i + 1;
	if (v) {
		while (v < len - 1 && gm_email_isspace((unsigned char)line[v]))
			v++;
	}
	*value = line + v;
	*value_len = len - v;
}
