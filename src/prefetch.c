#include "gm/prefetch.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gm/buf.h"
#include "gm/pattern.h"
#include "gm/sha1.h"
#include "gm/thread.h"

struct gm_prefetch {
	pthread_t thread;
	bool joined;
	char *top;			/* the work tree top it found */
	unsigned char id[GM_SHA1_SIZE];	/* of the MAINTAINERS it read */
	struct gm_maintainers *m;	/* parsed from it, or NULL */
};

/*
 * The nearest directory at or above the current one that has a ".git",
 * as a canonical path (every prefix of one is canonical), or NULL.
 */
static char *prefetch_top(void)
{
	struct gm_buf probe = GM_BUF_INIT;
	char *dir = realpath(".", NULL);
	struct stat st;

	while (dir) {
		char *slash = strrchr(dir, '/');

		gm_buf_reset(&probe);
		if (gm_buf_printf(&probe, "%s%s.git", dir, dir[1] ? "/" : "") < 0)
			break;
		if (!lstat(probe.ptr, &st)) {
			gm_buf_release(&probe);
			return dir;
		}
		if (!slash || !dir[1])
			break;
		slash[slash == dir] = '\0';	/* "/a" -> "/" */
	}
	free(dir);
	gm_buf_release(&probe);
	return NULL;
}

static void *prefetch_run(void *payload)
{
	struct gm_prefetch *p = payload;
	struct gm_buf path = GM_BUF_INIT, text = GM_BUF_INIT;
	const char *bufs[1];
	size_t lens[1];

	if (!(p->top = prefetch_top()) ||
	    gm_buf_printf(&path, "%s/MAINTAINERS", p->top) < 0 ||
	    gm_buf_read_file(&text, path.ptr) < 0)
		goto out;
	gm_sha1_blob(text.ptr, text.len, p->id);
	bufs[0] = text.ptr;
	lens[0] = text.len;
	if (gm_maintainers_parse(&p->m, bufs, lens, 1, NULL, NULL) < 0)
		p->m = NULL;
out:
	gm_buf_release(&path);
	gm_buf_release(&text);
	gm_pattern_release_thread();
	return NULL;
}

struct gm_prefetch *gm_prefetch_start(void)
{
	struct gm_prefetch *p;

	/* libgit2 finds these; the guess below would not */
	if (getenv("GIT_DIR") || getenv("GIT_WORK_TREE") ||
	    sysconf(_SC_NPROCESSORS_ONLN) < 2 || !(p = calloc(1, sizeof(*p))))
		return NULL;
	if (gm_thread_start(&p->thread, prefetch_run, p)) {
		free(p);
		return NULL;
	}
	return p;
}

static void prefetch_join(struct gm_prefetch *p)
{
	if (!p->joined)
		pthread_join(p->thread, NULL);
	p->joined = true;
}

void gm_prefetch_take(struct gm_prefetch *p, const char *workdir,
		      const git_oid *id, struct gm_maintainers **out)
{
	char *top;

	*out = NULL;
	if (!p)
		return;
	prefetch_join(p);
	if (!p->m || !workdir || !(top = realpath(workdir, NULL)))
		return;
	if (!strcmp(top, p->top) && !memcmp(id->id, p->id, GM_SHA1_SIZE)) {
		*out = p->m;
		p->m = NULL;
	}
	free(top);
}

void gm_prefetch_free(struct gm_prefetch *p)
{
	if (!p)
		return;
	prefetch_join(p);
	gm_maintainers_free(p->m);
	free(p->top);
	free(p);
}
