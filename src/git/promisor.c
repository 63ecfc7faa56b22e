/*
 * Objects a partial clone lacks, fetched as git fetches them when read:
 * from the promisor remotes, "git fetch <remote> --filter=blob:none
 * --stdin" with the ids on its input. A last object database backend,
 * asked only when every other one lacks an object, fetches it and
 * answers "not found", upon which libgit2 re-scans its packs and finds
 * it there; a failed fetch stops the process (gm_error_die()), as
 * gm_repo_git_fetch_missing() says why.
 */
#include "repo_internal.h"

#include <git2/sys/odb_backend.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"

/* Ids given to one fetch at most (41 bytes each, under a pipe's 64 KiB). */
#define FETCH_BATCH 1000

/* One fetch at a time in the process: they write to the same packs. */
static pthread_mutex_t fetch_lock = PTHREAD_MUTEX_INITIALIZER;

struct promisor {
	git_odb_backend parent;	/* first: libgit2 casts to it */
	char *git_dir;		/* what git fetch is run in */
	struct gm_strvec remotes;	/* in the order git asks them */
	git_odb *fresh;		/* the object directories, re-scanned */
};

/* ==================== which remotes ==================== */

/*
 * Add <name> of "remote.<name>.promisor" = true, or of any
 * "remote.<name>.partialclonefilter" (git takes either), if not there yet
 * and not `last`.
 */
static int remotes_add(struct gm_strvec *remotes, const git_config_entry *e,
		       const char *last)
{
	const char *name, *dot = strrchr(e->name, '.');
	int yes = 1;
	size_t len;

	if (strncmp(e->name, "remote.", 7) || dot <= (name = e->name + 7) ||
	    (strcmp(dot, ".partialclonefilter") &&
	     (strcmp(dot, ".promisor") ||
	      git_config_parse_bool(&yes, e->value) < 0 || !yes)))
		return 0;
	len = (size_t)(dot - name);
	if (!strncmp(last, name, len) && !last[len])
		return 0;
	for (size_t i = 0; i < remotes->nr; i++)
		if (strlen(remotes->v[i]) == len &&
		    !strncmp(remotes->v[i], name, len))
			return 0;
	return gm_strvec_pushn(remotes, name, len);
}

/*
 * The promisor remotes, as git orders them: those with
 * remote.<name>.promisor or .partialclonefilter set, then
 * extensions.partialClone's last.
 */
static int promisor_remotes(git_repository *repo, struct gm_strvec *out)
{
	git_config *cfg = NULL;
	git_config_iterator *it;
	git_config_entry *e;
	git_buf partial = GIT_BUF_INIT;
	const char *last;
	int error = 0;

	if (git_repository_config_snapshot(&cfg, repo) < 0)
		return 0;
	last = git_config_get_string_buf(&partial, cfg,
					 "extensions.partialclone") == 0 ?
	       partial.ptr : "";
	/* by hand: a regular expression costs more than the whole scan */
	if (git_config_iterator_new(&it, cfg) == 0) {
		while (!error && git_config_next(&e, it) == 0)
			error = remotes_add(out, e, last);
		git_config_iterator_free(it);
	}
	if (!error && *last)
		error = gm_strvec_push(out, last);
	git_buf_dispose(&partial);
	git_config_free(cfg);
	return error;
}

/* ==================== running git fetch ==================== */

/*
 * "git fetch" from `remote` of the objects `ids` lists (one hex id a
 * line), as git runs it, its output discarded (its messages are not
 * ours: a failure is said in one line). What it fetched is what counts.
 */
static void run_fetch(const char *git_dir, const char *remote,
		      const struct gm_buf *ids)
{
	const char *argv[] = {
		"git", "--git-dir", git_dir,
		"-c", "fetch.negotiationAlgorithm=noop", "fetch", remote,
		"--no-tags", "--no-write-fetch-head",
		"--recurse-submodules=no", "--filter=blob:none", "--stdin",
		NULL
	};

	gm_git_run(argv, ids, NULL, NULL);
}

/* `s` as one word of a POSIX shell, quoted if it must be. */
static int shell_word(struct gm_buf *out, const char *s)
{
	int error = 0;

	if (*s && s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789._/@%+=:,-")] == '\0')
		return gm_buf_puts(out, s);
	error = gm_buf_putc(out, '\'');
	for (; *s && !error; s++)
		error = *s == '\'' ? gm_buf_puts(out, "'\\''") :
				      gm_buf_putc(out, *s);
	return error ? error : gm_buf_putc(out, '\'');
}

/* GIT_NO_LAZY_FETCH as git reads a boolean from the environment. */
static bool no_lazy_fetch(void)
{
	const char *v = getenv("GIT_NO_LAZY_FETCH");
	int yes = 0;

	if (!v || !*v)
		return false;
	if (git_config_parse_bool(&yes, v) == 0)
		return yes;
	return strtol(v, NULL, 10) != 0;
}

/*
 * Fetch the `nr` objects `ids` lists that p->fresh lacks (it re-scans its
 * packs before it says so), remote after remote, until none is missing.
 * Not the repository's database: it is locked while a read of it misses,
 * and taking fetch_lock, then its lock, would be the other order.
 * @return 0, GM_ENOTFOUND with the message naming `what`, the first
 * missing id and how to fetch it, or GM_ERROR.
 */
static int promisor_fetch(struct promisor *p, const git_oid *ids, size_t nr,
			  const char *what)
{
	git_odb *odb = p->fresh;
	struct gm_buf list = GM_BUF_INIT;
	char hex[GIT_OID_HEXSZ + 1] = "";
	bool lazy = !no_lazy_fetch();
	const char *remote = p->remotes.nr ? p->remotes.v[0] : "origin";
	int error = 0;

	pthread_mutex_lock(&fetch_lock);
	for (size_t r = 0; lazy && r < p->remotes.nr; r++) {
		gm_buf_reset(&list);
		for (size_t i = 0; !error && i < nr; i++)
			if (!git_odb_exists(odb, &ids[i])) {
				git_oid_tostr(hex, sizeof(hex), &ids[i]);
				error = gm_buf_printf(&list, "%s\n", hex);
			}
		if (error || !list.len)
			break;
		run_fetch(p->git_dir, p->remotes.v[r], &list);
	}
	for (size_t i = 0; !error && i < nr; i++)
		if (!git_odb_exists(odb, &ids[i])) {
			git_oid_tostr(hex, sizeof(hex), &ids[i]);
			gm_buf_reset(&list);
			error = shell_word(&list, remote) < 0 ? GM_ERROR :
				gm_error_set(GM_ENOTFOUND,
					     "%s is missing from this partial "
					     "clone (%s); fetch it with: git "
					     "fetch %s --no-tags "
					     "--filter=blob:none %s",
					     what, hex, list.ptr, hex);
		}
	pthread_mutex_unlock(&fetch_lock);
	gm_buf_release(&list);
	return error;
}

/* ==================== the backend ==================== */

/*
 * The miss of libgit2's every other backend (a header's too: libgit2
 * reads the object when no backend gives its header): fetch it, or stop.
 */
static int promisor_read(void **data, size_t *len, git_object_t *type,
			 git_odb_backend *b, const git_oid *id)
{
	(void)data;
	(void)len;
	(void)type;
	if (promisor_fetch((struct promisor *)b, id, 1, "an object") < 0)
		gm_error_die();
	return GIT_ENOTFOUND;	/* libgit2 re-scans its packs: there it is */
}

static void promisor_free(git_odb_backend *b)
{
	struct promisor *p = (struct promisor *)b;

	if (!p)
		return;
	free(p->git_dir);
	gm_strvec_release(&p->remotes);
	git_odb_free(p->fresh);
	free(p);
}

int gm_repo_promisor_attach(git_repository *repo, const char *object_dir)
{
	struct promisor *p = calloc(1, sizeof(*p));
	struct gm_buf dir = GM_BUF_INIT;
	git_odb *odb = NULL;
	int error;

	if (!p)
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = promisor_remotes(repo, &p->remotes)) < 0 ||
	    !p->remotes.nr)
		goto out;
	if (!(p->git_dir = strdup(git_repository_path(repo))) ||
	    (object_dir ? gm_buf_puts(&dir, object_dir) :
	     gm_buf_printf(&dir, "%sobjects", git_repository_commondir(repo)))) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	p->parent.version = GIT_ODB_BACKEND_VERSION;
	p->parent.read = promisor_read;
	p->parent.free = promisor_free;
	if (git_odb_open(&p->fresh, dir.ptr) < 0 ||
	    git_repository_odb(&odb, repo) < 0 ||
	    git_odb_add_alternate(odb, &p->parent, 0) < 0) {
		error = gm_error_from_git(-1, "cannot open the object directory");
		goto out;
	}
	p = NULL;	/* the object database's now */
out:
	gm_buf_release(&dir);
	git_odb_free(odb);
	promisor_free(p ? &p->parent : NULL);
	return error;
}

int gm_repo_git_fetch_missing(git_repository *repo, const git_oid *ids,
			      size_t nr, const char *what)
{
	struct promisor *p = NULL;
	git_odb_backend *b;
	git_odb *odb;
	int error = 0;

	if (!nr || git_repository_odb(&odb, repo) < 0)
		return 0;
	for (size_t i = 0; !p && i < git_odb_num_backends(odb); i++)
		if (git_odb_get_backend(&b, odb, i) == 0 &&
		    b->read == promisor_read)
			p = (struct promisor *)b;
	git_odb_free(odb);
	for (size_t i = 0; p && !error && i < nr; i += FETCH_BATCH)
		error = promisor_fetch(p, ids + i, nr - i < FETCH_BATCH ?
				       nr - i : FETCH_BATCH, what);
	if (error == GM_ENOTFOUND)
		gm_error_die();	/* as a read of one of them would */
	return error;
}
