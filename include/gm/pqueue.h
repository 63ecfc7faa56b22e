#ifndef GM_PQUEUE_H
#define GM_PQUEUE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A priority queue: a binary heap of items of `size` bytes, copied in
 * and out, the one `before` all others on top. The walks queue their
 * commits in one, newest first.
 */
struct gm_pqueue {
	unsigned char *v;	/* nr items, then one spare for moving */
	size_t nr, alloc, size;
	bool (*before)(const void *a, const void *b);
};

/** An empty queue of items of `size` bytes. */
void gm_pqueue_init(struct gm_pqueue *q, size_t size,
		    bool (*before)(const void *a, const void *b));

/** Copy `item` in. @return 0 or GM_ERROR (out of memory). */
int gm_pqueue_push(struct gm_pqueue *q, const void *item);

/** Copy the top item to `out` and take it off; false if empty. */
bool gm_pqueue_pop(struct gm_pqueue *q, void *out);

/** Item `i` (below nr) in no particular order, for releasing them. */
void *gm_pqueue_at(struct gm_pqueue *q, size_t i);

/** Free the storage (not what the items point to): the queue is empty. */
void gm_pqueue_release(struct gm_pqueue *q);

#endif /* GM_PQUEUE_H */
