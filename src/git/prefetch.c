/* OpenSSL's SHA-1 rounds alone: its EVP interface starts providers. */
#define OPENSSL_API_COMPAT 0x10100000L
#include "gm/prefetch.h"
#include "repo_internal.h"

#include <openssl/sha.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/thread.h"

/* Files of the command line read at the most, and their sizes. */
#define PREFETCH_FILES 64
#define PREFETCH_FILE_MAX ((size_t)16 << 20)
#define PREFETCH_TOTAL_MAX ((size_t)64 << 20)

struct prefetch_text {
	char *arg;			/* as given */
	char *path;			/* canonical, once read */
	unsigned char id[SHA_DIGEST_LENGTH];
	struct gm_buf text;
};

struct gm_prefetch {
	pthread_t thread;
	bool joined;
	char *top;			/* the work tree top it found */
	const struct gm_prefetch_digest *digest;	/* or NULL */
	unsigned char id[SHA_DIGEST_LENGTH];	/* of the MAINTAINERS it read */
	void *made;			/* the digest of it, or NULL */
	struct prefetch_text texts[PREFETCH_FILES];
	size_t nr_texts;
};

/* The id git gives a blob of these bytes: SHA-1 of "blob <len>\0" data. */
static void blob_id(const char *data, size_t len,
		    unsigned char out[SHA_DIGEST_LENGTH])
{
	char head[32];
	SHA_CTX s;

	SHA1_Init(&s);
	SHA1_Update(&s, head, (size_t)snprintf(head, sizeof(head), "blob %zu",
					       len) + 1);
	SHA1_Update(&s, data, len);
	SHA1_Final(out, &s);
}

/* The file t->arg of the work tree `top`, if it is a regular one of no more than `room` bytes. */
static void prefetch_text(struct prefetch_text *t, const char *top,
			  size_t *room)
{
	size_t n = strlen(top);

	if (!(t->path = realpath(t->arg, NULL)) || strncmp(t->path, top, n) ||
	    t->path[n] != '/' ||
	    gm_repo_worktree_read_at(top, t->path + n + 1, &t->text) ||
	    t->text.len > (*room < PREFETCH_FILE_MAX ? *room : PREFETCH_FILE_MAX)) {
		free(t->path);
		t->path = NULL;
		gm_buf_release(&t->text);
		return;
	}
	blob_id(t->text.ptr, t->text.len, t->id);
	*room -= t->text.len;
}

static void *prefetch_run(void *payload)
{
	struct gm_prefetch *p = payload;
	struct gm_buf text = GM_BUF_INIT;
	size_t room = PREFETCH_TOTAL_MAX;

	if (!p->digest ||
	    gm_repo_worktree_read_at(p->top, "MAINTAINERS", &text) < 0)
		goto out;
	blob_id(text.ptr, text.len, p->id);
	p->made = p->digest->make(text.ptr, text.len);
out:
	gm_buf_release(&text);
	for (size_t i = 0; i < p->nr_texts; i++)
		prefetch_text(&p->texts[i], p->top, &room);
	return NULL;
}

struct gm_prefetch *gm_prefetch_start(const struct gm_repo_location *loc,
				      int argc, const char **argv,
				      const struct gm_prefetch_digest *digest)
{
	const char *top = gm_repo_location_worktree(loc);
	struct gm_prefetch *p;

	if (!top || gm_thread_cpus() < 2 ||
	    !(p = calloc(1, sizeof(*p))))
		return NULL;
	if (!(p->top = strdup(top))) {
		free(p);
		return NULL;
	}
	p->digest = digest;
	for (int i = 1; i < argc && p->nr_texts < PREFETCH_FILES; i++) {
		struct prefetch_text *t = &p->texts[p->nr_texts];

		if (argv[i][0] == '-' || !argv[i][0])
			continue;
		gm_buf_init(&t->text);
		if ((t->arg = strdup(argv[i])))
			p->nr_texts++;
	}
	if (gm_thread_start(&p->thread, prefetch_run, p)) {
		p->joined = true;
		gm_prefetch_free(p);
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

/* Whether `workdir` (as libgit2 gives it) is the top the thread found. */
static bool prefetch_same_top(struct gm_prefetch *p, const char *workdir)
{
	char *top = workdir ? realpath(workdir, NULL) : NULL;
	bool same = top && !strcmp(top, p->top);

	free(top);
	return same;
}

void *gm_prefetch_take(struct gm_prefetch *p, const char *workdir,
		       const git_oid *id)
{
	void *made = NULL;

	if (!p)
		return NULL;
	prefetch_join(p);
	if (p->made && prefetch_same_top(p, workdir) &&
	    !memcmp(id->id, p->id, SHA_DIGEST_LENGTH)) {
		made = p->made;
		p->made = NULL;
	}
	return made;
}

bool gm_prefetch_take_text(struct gm_prefetch *p, const char *workdir,
			   const char *path, const git_oid *id,
			   struct gm_buf *out)
{
	size_t n;

	if (!p)
		return false;
	prefetch_join(p);
	if (!prefetch_same_top(p, workdir))
		return false;
	n = strlen(p->top);	/* t->path is p->top, '/', the path */
	for (size_t i = 0; i < p->nr_texts; i++) {
		struct prefetch_text *t = &p->texts[i];

		if (t->path && !strcmp(t->path + n + 1, path) &&
		    !memcmp(t->id, id->id, SHA_DIGEST_LENGTH)) {
			*out = t->text;
			gm_buf_init(&t->text);
			free(t->path);
			t->path = NULL;
			return true;
		}
	}
	return false;
}

void gm_prefetch_free(struct gm_prefetch *p)
{
	if (!p)
		return;
	prefetch_join(p);
	for (size_t i = 0; i < p->nr_texts; i++) {
		free(p->texts[i].arg);
		free(p->texts[i].path);
		gm_buf_release(&p->texts[i].text);
	}
	if (p->made)
		p->digest->free(p->made);
	free(p->top);
	free(p);
}
