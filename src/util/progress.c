#include "gm/progress.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "gm/buf.h"
#include "gm/error.h"

/* Redraws a second: often enough to look alive, rarely enough to cost nothing. */
#define PROGRESS_TICK_NS 250000000L

struct gm_progress {
	FILE *f;
	char title[128];
	const char *unit;
	_Atomic uint64_t done, total;
	struct timespec start;
	pthread_t thread;
	pthread_mutex_t lock;	/* the fields below */
	pthread_cond_t wake;
	bool stopping;
	bool held;
	bool shown;		/* drawn at least once */
	size_t drawn;		/* width of the line on the terminal */
};

bool gm_progress_wanted(int setting)
{
	return setting < 0 ? isatty(STDERR_FILENO) : setting > 0;
}

/*
 * Draw the line as it stands over the last one, blanking what that had
 * more; "done" at the end. Under p->lock.
 */
static void progress_draw(struct gm_progress *p, bool end)
{
	uint64_t done = atomic_load(&p->done), total = atomic_load(&p->total);
	struct gm_buf line = GM_BUF_INIT;
	struct timespec now;
	double secs;

	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = (double)(now.tv_sec - p->start.tv_sec) +
	       (double)(now.tv_nsec - p->start.tv_nsec) / 1e9;

	gm_buf_puts(&line, p->title);
	if (p->unit && total)
		gm_buf_printf(&line, ": %llu/%llu %s (%d%%)",
			      (unsigned long long)done,
			      (unsigned long long)total, p->unit,
			      (int)(done * 100 / total));
	else if (p->unit)
		gm_buf_printf(&line, ": %llu %s", (unsigned long long)done,
			      p->unit);
	if (p->unit && done && secs > 0.05)
		gm_buf_printf(&line, ", %.0f/s", (double)done / secs);
	gm_buf_printf(&line, ", %.1f s%s", secs, end ? ", done" : "");
	fprintf(p->f, "\r%s%*s%s", line.ptr,
		p->drawn > line.len ? (int)(p->drawn - line.len) : 0, "",
		end ? "\n" : "\r");
	fflush(p->f);
	p->drawn = end ? 0 : line.len;
	p->shown = true;
	gm_buf_release(&line);
}

static void *progress_thread(void *arg)
{
	struct gm_progress *p = arg;
	struct timespec at;

	pthread_mutex_lock(&p->lock);
	while (!p->stopping) {
		clock_gettime(CLOCK_REALTIME, &at);
		at.tv_nsec += PROGRESS_TICK_NS;
		if (at.tv_nsec >= 1000000000L) {
			at.tv_sec++;
			at.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&p->wake, &p->lock, &at);
		if (!p->stopping && !p->held)
			progress_draw(p, false);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int gm_progress_start(struct gm_progress **out, bool on, FILE *f,
		      const char *title, const char *unit, uint64_t total)
{
	struct gm_progress *p;

	*out = NULL;
	if (!on)
		return 0;
	if (!(p = calloc(1, sizeof(*p))))
		return gm_error_set(GM_ERROR, "out of memory");
	p->f = f;
	snprintf(p->title, sizeof(p->title), "%s", title);
	p->unit = unit;
	atomic_init(&p->done, 0);
	atomic_init(&p->total, total);
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	if (pthread_create(&p->thread, NULL, progress_thread, p)) {
		pthread_cond_destroy(&p->wake);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return gm_error_set(GM_ERROR, "cannot start a thread");
	}
	*out = p;
	return 0;
}

void gm_progress_set(struct gm_progress *p, uint64_t done)
{
	if (p)
		atomic_store(&p->done, done);
}

void gm_progress_add(struct gm_progress *p, uint64_t n)
{
	if (p)
		atomic_fetch_add(&p->done, n);
}

void gm_progress_total(struct gm_progress *p, uint64_t total)
{
	if (p)
		atomic_store(&p->total, total);
}

void gm_progress_hold(struct gm_progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	if (p->drawn) {
		fprintf(p->f, "\r%*s\r", (int)p->drawn, "");
		fflush(p->f);
		p->drawn = 0;
	}
	p->held = true;
	pthread_mutex_unlock(&p->lock);
}

void gm_progress_resume(struct gm_progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->held = false;
	pthread_mutex_unlock(&p->lock);
}

void gm_progress_stop(struct gm_progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stopping = true;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	if (p->shown)	/* a run too short to show progress ends silently */
		progress_draw(p, true);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
