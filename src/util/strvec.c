#include "gm/strvec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"

int gm_strvec_pushf(struct gm_strvec *sv, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n, error;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return gm_error_set(GM_ERROR, "bad format");
	if (!(s = malloc((size_t)n + 1)))
		return gm_error_set(GM_ERROR, "out of memory");
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	error = gm_strvec_pushn(sv, s, (size_t)n);
	free(s);
	return error;
}

int gm_strvec_pushn(struct gm_strvec *sv, const char *s, size_t len)
{
	char *copy;

	if (GM_ARRAY_GROW(sv->v, sv->nr + 1, sv->alloc) < 0)
		return GM_ERROR;
	copy = malloc(len + 1);
	if (!copy)
		return gm_error_set(GM_ERROR, "out of memory");
	memcpy(copy, s, len);
	copy[len] = '\0';
	sv->v[sv->nr++] = copy;
	sv->v[sv->nr] = NULL;
	return 0;
}

int gm_strvec_push(struct gm_strvec *sv, const char *s)
{
	return gm_strvec_pushn(sv, s, strlen(s));
}

static int strvec_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void gm_strvec_sort_uniq(struct gm_strvec *sv)
{
	size_t i, j;

	if (sv->nr < 2)
		return;
	qsort(sv->v, sv->nr, sizeof(*sv->v), strvec_cmp);
	for (i = 1, j = 1; i < sv->nr; i++) {
		if (strcmp(sv->v[i], sv->v[j - 1]))
			sv->v[j++] = sv->v[i];
		else
			free(sv->v[i]);
	}
	sv->nr = j;
	sv->v[j] = NULL;
}

bool gm_strvec_contains(const struct gm_strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return true;
	return false;
}

void gm_strvec_release(struct gm_strvec *sv)
{
	for (size_t i = 0; i < sv->nr; i++)
		free(sv->v[i]);
	free(sv->v);
	*sv = (struct gm_strvec)GM_STRVEC_INIT;
}
