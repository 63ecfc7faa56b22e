#include "gm/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gm/error.h"

/* Eight bytes at a time, each word multiplied in, the high bits folded. */
static uint64_t strmap_hash(const char *key, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	for (; len >= 8; key += 8, len -= 8) {
		memcpy(&w, key, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, key, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
}

static struct gm_strmap_entry *strmap_slot(const struct gm_strmap *m,
					   const char *key, size_t len,
					   uint64_t hash)
{
	size_t mask = m->alloc - 1;
	size_t i = (size_t)hash & mask;

	for (;;) {
		struct gm_strmap_entry *e = &m->slots[i];

		if (!e->key || (e->hash == hash && !memcmp(e->key, key, len) &&
				!e->key[len]))
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
		size_t j = (size_t)e->hash & (alloc - 1);

		if (!e->key)
			continue;
		while (m->slots[j].key)	/* the keys are distinct: a free slot */
			j = (j + 1) & (alloc - 1);
		m->slots[j] = *e;
	}
	free(old.slots);
	return 0;
}

int gm_strmap_put(struct gm_strmap *m, const char *key, size_t len,
		  void *value)
{
	uint64_t hash = strmap_hash(key, len);
	struct gm_strmap_entry *e;

	if ((m->nr + 1) * 2 > m->alloc && strmap_grow(m) < 0)
		return GM_ERROR;
	e = strmap_slot(m, key, len, hash);
	if (!e->key) {
		e->key = malloc(len + 1);
		if (!e->key)
			return gm_error_set(GM_ERROR, "out of memory");
		memcpy(e->key, key, len);
		e->key[len] = '\0';
		e->hash = hash;
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
	e = strmap_slot(m, key, len, strmap_hash(key, len));
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
	*m = (struct gm_strmap)GM_STRMAP_INIT;
}

void gm_strmap_release_values(struct gm_strmap *m, void (*free_value)(void *))
{
	for (size_t i = 0; i < m->alloc; i++)
		if (m->slots[i].key)
			free_value(m->slots[i].value);
	gm_strmap_release(m);
}
