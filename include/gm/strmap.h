#ifndef GM_STRMAP_H
#define GM_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A hash map from strings (copied in) to opaque values (not owned), with
 * open addressing. Iteration order is unspecified; nothing here depends
 * on it.
 */
struct gm_strmap_entry {
	char *key;	/* owned copy, NULL for an empty slot */
	void *value;
	uint64_t hash;	/* of the key */
};

struct gm_strmap {
	struct gm_strmap_entry *slots;
	size_t nr;	/* keys present */
	size_t alloc;	/* slots, a power of two or 0 */
};

#define GM_STRMAP_INIT { NULL, 0, 0 }

/**
 * Map `key` (`len` bytes) to `value`, replacing an earlier value.
 * @return 0 or GM_ERROR (out of memory).
 */
int gm_strmap_put(struct gm_strmap *m, const char *key, size_t len,
		  void *value);
/** Whether `key` is present; its value goes to `*value` if non-NULL. */
bool gm_strmap_get(const struct gm_strmap *m, const char *key, size_t len,
		   void **value);
/** Free the keys (not the values); the map is empty and reusable. */
void gm_strmap_release(struct gm_strmap *m);
/** gm_strmap_release(), each value given to `free_value` first. */
void gm_strmap_release_values(struct gm_strmap *m, void (*free_value)(void *));

#endif /* GM_STRMAP_H */
