#include "gm/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gm/error.h"

static uint64_t strmap_hash(const char *key, size_t len)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)key[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static struct gm_strmap_entry *strmap_slot(const struct gm_strmap *m,
					   const char *key, size_t len)
{
	size_t mask = m->alloc - 1;
	size_t i = (size_t)strmap_hash(key, len) & mask;

	for (;;) {
		struct gm_strmap_entry *e = &m->slots[i];

		if (!e->key || (!strncmp(e->key, key, len) && !e->key[len]))
			return e;
		i = (i + 1) & mask;
	}
}

static int strmap_grow(struct gm_strmap *m)
{
	struct gm_strmap old = *m;
	size_t alloc = m->alloc ? m->alloc * 2 : 16;

	m->slots = calloc(alloc, sizeof(*m->slots));
	if (!m->slots) {
		*m = old;
		return gm_error_set(GM_ERROR, "out of memory");
	}
	m->alloc = alloc;
	for (size_t i = 0; i < old.alloc; i++) {
		struct gm_strmap_entry *e = &old.slots[i];

		if (e->key)
			*strmap_slot(m, e->key, strlen(e->key)) = *e;
	}
	free(old.slots);
	return 0;
}

int gm_strmap_put(struct gm_strmap *m, const char *key, size_t len,
		  void *value)
{
	struct gm_strmap_entry *e;

	if ((m->nr + 1) * 2 > m->alloc && strmap_grow(m) < 0)
		return GM_ERROR;
	e = strmap_slot(m, key, len);
	if (!e->key) {
		e->key = malloc(len + 1);
		if (!e->key)
			return gm_error_set(GM_ERROR, "out of memory");
		memcpy(e->key, key, len);
		e->key[len] = '\0';
		m->nr++;
	}
	e->value = value;
	return 0;
}

bool gm_strmap_get(const struct gm_strmap *m, const char *key, size_t len,
		   void **value)
{
	struct gm_strmap_entry *e;

	if (!m->alloc)
		return false;
	e = strmap_slot(m, key, len);
	if (!e->key)
		return false;
	if (value)
		*value = e->value;
	return true;
}

void gm_strmap_release(struct gm_strmap *m)
{
	for (size_t i = 0; i < m->alloc; i++)
		free(m->slots[i].key);
	free(m->slots);
	m->slots = NULL;
	m->nr = m->alloc = 0;
}
