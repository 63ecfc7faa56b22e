#include "gm/pqueue.h"

#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"

void gm_pqueue_init(struct gm_pqueue *q, size_t size,
		    bool (*before)(const void *a, const void *b))
{
	*q = (struct gm_pqueue){ NULL, 0, 0, size, before };
}

void *gm_pqueue_at(struct gm_pqueue *q, size_t i)
{
	return q->v + i * q->size;
}

int gm_pqueue_push(struct gm_pqueue *q, const void *item)
{
	size_t i;

	if (gm_array_grow(&q->v, &q->alloc, q->nr + 1, q->size) < 0)
		return GM_ERROR;
	for (i = q->nr++; i; i = (i - 1) / 2) {
		const void *parent = gm_pqueue_at(q, (i - 1) / 2);

		if (!q->before(item, parent))
			break;
		memcpy(gm_pqueue_at(q, i), parent, q->size);
	}
	memcpy(gm_pqueue_at(q, i), item, q->size);
	return 0;
}

bool gm_pqueue_pop(struct gm_pqueue *q, void *out)
{
	void *last;
	size_t i = 0;

	if (!q->nr)
		return false;
	memcpy(out, q->v, q->size);
	/* the last item goes to the spare slot, then sinks from the top */
	last = gm_pqueue_at(q, q->nr);
	memcpy(last, gm_pqueue_at(q, --q->nr), q->size);
	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= q->nr)
			break;
		if (k + 1 < q->nr &&
		    q->before(gm_pqueue_at(q, k + 1), gm_pqueue_at(q, k)))
			k++;
		if (!q->before(gm_pqueue_at(q, k), last))
			break;
		memcpy(gm_pqueue_at(q, i), gm_pqueue_at(q, k), q->size);
		i = k;
	}
	if (q->nr)
		memcpy(gm_pqueue_at(q, i), last, q->size);
	return true;
}

void gm_pqueue_release(struct gm_pqueue *q)
{
	free(q->v);
	q->v = NULL;
	q->nr = q->alloc = 0;
}
