/*
 * The settings of "git -c key=value", as git hands them to its
 * subcommands (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT and its pairs),
 * read by git itself: `git config --list -z --show-scope`, its entries
 * of the "command" scope (include.path's files too), so that git's own
 * rules apply, and what git refuses is refused. They are added to the
 * repository's configuration as its highest level, so that every read
 * of it, ours or libgit2's, sees them.
 */
/* pipe2() is a GNU and BSD extension, in every libc we build with. */
#define _GNU_SOURCE
#include "repo_internal.h"

#include <git2/sys/config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gm/buf.h"
#include "gm/error.h"

extern char **environ;

struct env_config {
	git_config_backend parent;	/* first: libgit2 casts to it */
	git_config_entry *entries;	/* in the order given */
	size_t nr, alloc;
};

struct env_iterator {
	git_config_iterator parent;
	size_t next;
};

/* ==================== reading them through git ==================== */

static void entry_keep(git_config_entry *e)
{
	(void)e;	/* the backend owns every entry */
}

/* Add key=value (`value` NULL: the key alone, a true bool). */
static int env_add(struct env_config *c, const char *key, const char *value)
{
	git_config_entry *e;
	char *name = strdup(key), *dup = NULL;

	if (!name || (value && !(dup = strdup(value))) ||
	    GM_ARRAY_GROW(c->entries, c->nr, c->alloc) < 0) {
		free(name);
		free(dup);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	e = &c->entries[c->nr++];
	memset(e, 0, sizeof(*e));
	e->name = name;
	e->value = dup;
	e->level = GIT_CONFIG_LEVEL_APP;
	e->free = entry_keep;
	return 0;
}

/*
 * Run `git config --list -z --show-scope` into `out`, its stderr into
 * `err`. @return its exit status, or -1 if it could not be run.
 */
static int run_git_config(struct gm_buf *out, struct gm_buf *err)
{
	static const char *const argv[] = {
		"git", "config", "--list", "-z", "--show-scope", NULL
	};
	posix_spawn_file_actions_t fa;
	int o[2], e[2] = { -1, -1 }, status = -1;
	pid_t pid = 0;

	if (pipe2(o, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(e, O_CLOEXEC) == 0 && !posix_spawn_file_actions_init(&fa)) {
		if (posix_spawn_file_actions_adddup2(&fa, o[1], 1) ||
		    posix_spawn_file_actions_adddup2(&fa, e[1], 2) ||
		    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
						     O_RDONLY, 0) ||
		    posix_spawnp(&pid, "git", &fa, NULL, (char *const *)argv,
				 environ))
			pid = 0;
		posix_spawn_file_actions_destroy(&fa);
	}
	close(o[1]);
	if (e[1] >= 0)
		close(e[1]);
	/* stdout first: git writes its few messages before its list */
	if (pid > 0 && gm_buf_read_fd(out, o[0], "git config") == 0)
		gm_buf_read_fd(err, e[0], "git config");
	close(o[0]);
	if (e[0] >= 0)
		close(e[0]);
	if (pid <= 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The "command" entries of `list` ("scope\0key\nvalue\0", or "key\0"). */
static int env_parse(struct env_config *c, char *list, size_t len)
{
	char *p = list, *end = list + len;
	int error = 0;

	while (!error && p < end) {
		char *scope = p, *key = p + strlen(p) + 1, *nl;

		if (key >= end)
			break;
		p = key + strlen(key) + 1;
		if (strcmp(scope, "command"))
			continue;
		if ((nl = strchr(key, '\n')))
			*nl = '\0';
		error = env_add(c, key, nl ? nl + 1 : NULL);
	}
	return error;
}

/* Git's first message in `err`, without its "error: " or "fatal: ". */
static int env_refused(const struct gm_buf *err)
{
	const char *msg = err->ptr, *colon = strstr(msg, ": ");
	int len;

	if (colon && (!strncmp(msg, "error", 5) || !strncmp(msg, "fatal", 5)))
		msg = colon + 2;
	len = (int)strcspn(msg, "\n");
	if (!len)
		return gm_error_set(GM_EINVALID, "git config cannot read the "
				    "command-line configuration");
	return gm_error_set(GM_EINVALID, "%.*s", len, msg);
}

/*
 * What git config said last, for the environment `env_key` (every
 * GIT_CONFIG_* variable): git is run again only when that changes.
 */
static pthread_mutex_t env_cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gm_buf env_key = GM_BUF_INIT, env_list = GM_BUF_INIT,
		     env_err = GM_BUF_INIT;
static int env_status;

/* The GIT_CONFIG_* variables of the environment, into `out`. */
static int env_vars(struct gm_buf *out)
{
	int error = 0;

	for (char **e = environ; *e && !error; e++)
		if (!strncmp(*e, "GIT_CONFIG_", 11))
			error = gm_buf_put(out, *e, strlen(*e) + 1);
	return error;
}

/* `c` filled with git's command-line entries. */
static int env_read(struct env_config *c)
{
	struct gm_buf key = GM_BUF_INIT, list = GM_BUF_INIT;
	int error;

	pthread_mutex_lock(&env_cache_lock);
	if (!(error = env_vars(&key)) &&
	    (key.len != env_key.len || memcmp(key.ptr, env_key.ptr, key.len))) {
		gm_buf_reset(&env_list);
		gm_buf_reset(&env_err);
		gm_buf_reset(&env_key);
		env_status = run_git_config(&env_list, &env_err);
		error = gm_buf_put(&env_key, key.ptr, key.len);
	}
	if (!error)
		error = gm_buf_put(&list, env_list.ptr, env_list.len);
	if (!error && env_status)
		error = env_status < 0 ?
			gm_error_set(GM_ERROR, "cannot run git config") :
			env_refused(&env_err);
	pthread_mutex_unlock(&env_cache_lock);
	if (!error)
		error = env_parse(c, list.ptr, list.len);
	gm_buf_release(&key);
	gm_buf_release(&list);
	return error;
}

/* ==================== the backend ==================== */

static int env_open(git_config_backend *b, git_config_level_t level,
		    const git_repository *repo)
{
	(void)b;
	(void)level;
	(void)repo;
	return 0;
}

static int env_get(git_config_backend *b, const char *key,
		   git_config_entry **out)
{
	struct env_config *c = (struct env_config *)b;

	for (size_t i = c->nr; i-- > 0;)
		if (!strcmp(c->entries[i].name, key)) {
			*out = &c->entries[i];
			return 0;
		}
	return GIT_ENOTFOUND;
}

static int env_read_only(void)
{
	git_error_set_str(GIT_ERROR_CONFIG,
			  "the command-line configuration cannot be changed");
	return -1;
}

static int env_set(git_config_backend *b, const char *key, const char *value)
{
	(void)b;
	(void)key;
	(void)value;
	return env_read_only();
}

static int env_set_multivar(git_config_backend *b, const char *name,
			    const char *regexp, const char *value)
{
	(void)b;
	(void)name;
	(void)regexp;
	(void)value;
	return env_read_only();
}

static int env_del(git_config_backend *b, const char *key)
{
	(void)b;
	(void)key;
	return env_read_only();
}

static int env_del_multivar(git_config_backend *b, const char *key,
			    const char *regexp)
{
	(void)b;
	(void)key;
	(void)regexp;
	return env_read_only();
}

static int env_iterator_next(git_config_entry **out, git_config_iterator *it)
{
	struct env_iterator *i = (struct env_iterator *)it;
	struct env_config *c = (struct env_config *)it->backend;

	if (i->next >= c->nr)
		return GIT_ITEROVER;
	*out = &c->entries[i->next++];
	return 0;
}

static void env_iterator_free(git_config_iterator *it)
{
	free(it);
}

static int env_iterator(git_config_iterator **out, git_config_backend *b)
{
	struct env_iterator *i = calloc(1, sizeof(*i));

	if (!i) {
		git_error_set_oom();
		return -1;
	}
	i->parent.backend = b;
	i->parent.next = env_iterator_next;
	i->parent.free = env_iterator_free;
	*out = &i->parent;
	return 0;
}

static int env_lock(git_config_backend *b)
{
	(void)b;
	return 0;
}

static int env_unlock(git_config_backend *b, int success)
{
	(void)b;
	(void)success;
	return 0;
}

static void env_free(git_config_backend *b)
{
	struct env_config *c = (struct env_config *)b;

	if (!c)
		return;
	for (size_t i = 0; i < c->nr; i++) {
		free((char *)c->entries[i].name);
		free((char *)c->entries[i].value);
	}
	free(c->entries);
	free(c);
}

static struct env_config *env_new(void);

/* A copy, read-only, as libgit2 wants of a snapshot's every level. */
static int env_snapshot(git_config_backend **out, git_config_backend *b)
{
	struct env_config *c = (struct env_config *)b, *n = env_new();
	int error = n ? 0 : GM_ERROR;

	for (size_t i = 0; !error && i < c->nr; i++)
		error = env_add(n, c->entries[i].name, c->entries[i].value);
	if (error) {
		env_free(n ? &n->parent : NULL);
		git_error_set_oom();
		return -1;
	}
	n->parent.readonly = 1;
	*out = &n->parent;
	return 0;
}

static struct env_config *env_new(void)
{
	struct env_config *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->parent.version = GIT_CONFIG_BACKEND_VERSION;
	c->parent.open = env_open;
	c->parent.get = env_get;
	c->parent.set = env_set;
	c->parent.set_multivar = env_set_multivar;
	c->parent.del = env_del;
	c->parent.del_multivar = env_del_multivar;
	c->parent.iterator = env_iterator;
	c->parent.snapshot = env_snapshot;
	c->parent.lock = env_lock;
	c->parent.unlock = env_unlock;
	c->parent.free = env_free;
	return c;
}

int gm_repo_config_env_add(git_repository *repo)
{
	struct env_config *c;
	git_config *cfg = NULL;
	int error;

	if (!getenv("GIT_CONFIG_COUNT") && !getenv("GIT_CONFIG_PARAMETERS"))
		return 0;
	if (!(c = env_new()))
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = env_read(c)) < 0)
		goto fail;
	if ((error = git_repository_config(&cfg, repo)) < 0 ||
	    (error = git_config_add_backend(cfg, &c->parent,
					    GIT_CONFIG_LEVEL_APP, repo,
					    1)) < 0) {
		error = gm_error_from_git(error, "cannot read the configuration");
		goto fail;
	}
	git_config_free(cfg);
	return 0;
fail:
	git_config_free(cfg);
	env_free(&c->parent);
	return error;
}
