/*
 * The settings of "git -c" read by git itself (`git config --list -z
 * --show-scope`, its "command" entries, include.path's files too), so
 * that git's rules apply, written to a file in memory (memfd_create(),
 * never on disk) that every read of the configuration then sees.
 */
/* memfd_create() is Linux's, in every libc we build with. */
#define _GNU_SOURCE
#include "repo_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gm/buf.h"
#include "gm/error.h"

extern char **environ;

/* `s` quoted as a configuration file's value or subsection is. */
static int put_quoted(struct gm_buf *out, const char *s)
{
	int error = gm_buf_putc(out, '"');

	for (; *s && !error; s++)
		error = *s == '\\' || *s == '"' ? gm_buf_printf(out, "\\%c", *s) :
			*s == '\n' ? gm_buf_puts(out, "\\n") :
				     gm_buf_putc(out, *s);
	return error ? error : gm_buf_putc(out, '"');
}

/*
 * "section.sub.name" with `value` (NULL: the name alone, a true bool) as
 * a file's lines. include.path and includeIf.*.path are left out: git
 * has read the files they name into the list.
 */
static int env_write(struct gm_buf *out, char *key, const char *value)
{
	char *dot = strchr(key, '.'), *last = strrchr(key, '.');
	int error;

	if (!dot || (!strcmp(last, ".path") &&
		     (!strcmp(key, "include.path") ||
		      !strncmp(key, "includeif.", 10))))
		return 0;
	*dot = *last = '\0';
	error = gm_buf_printf(out, "[%s", key);
	if (!error && last > dot)
		error = gm_buf_putc(out, ' ') || put_quoted(out, dot + 1);
	if (!error)
		error = gm_buf_printf(out, "]\n\t%s", last + 1);
	if (!error && value)
		error = gm_buf_puts(out, " = ") || put_quoted(out, value);
	return error ? GM_ERROR : gm_buf_putc(out, '\n');
}

/* The "command" entries of `list` ("scope\0key\nvalue\0", or "key\0"). */
static int env_parse(struct gm_buf *out, char *list, size_t len)
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
		error = env_write(out, key, nl ? nl + 1 : NULL);
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
static char env_path[64];	/* the file made of env_list */

/* The GIT_CONFIG_* variables of the environment, into `out`. */
static int env_vars(struct gm_buf *out)
{
	int error = 0;

	for (char **e = environ; *e && !error; e++)
		if (!strncmp(*e, "GIT_CONFIG_", 11))
			error = gm_buf_put(out, *e, strlen(*e) + 1);
	return error;
}

/*
 * The path of a file holding git's command-line entries, made anew only
 * when the environment changes; each stays open (repositories opened
 * before read it) for the life of the process.
 */
static int env_file(char path[64])
{
	struct gm_buf key = GM_BUF_INIT, list = GM_BUF_INIT, file = GM_BUF_INIT;
	static const char *const argv[] = {
		"git", "config", "--list", "-z", "--show-scope", NULL
	};
	int error, fd = -1;

	pthread_mutex_lock(&env_cache_lock);
	if (!(error = env_vars(&key)) &&
	    (key.len != env_key.len || memcmp(key.ptr, env_key.ptr, key.len))) {
		gm_buf_reset(&env_list);
		gm_buf_reset(&env_err);
		gm_buf_reset(&env_key);
		env_path[0] = '\0';
		env_status = gm_git_run(argv, NULL, &env_list, &env_err);
		error = gm_buf_put(&env_key, key.ptr, key.len);
	}
	if (!error && env_status)
		error = env_status < 0 ?
			gm_error_set(GM_ERROR, "cannot run git config") :
			env_refused(&env_err);
	if (!error && !env_path[0] &&
	    !(error = gm_buf_put(&list, env_list.ptr, env_list.len)) &&
	    !(error = env_parse(&file, list.ptr, list.len))) {
		if ((fd = memfd_create("git-config", MFD_CLOEXEC)) < 0 ||
		    write(fd, file.ptr, file.len) != (ssize_t)file.len)
			error = gm_error_set(GM_ERROR, "cannot hold the "
					     "command-line configuration");
		else
			snprintf(env_path, sizeof(env_path),
				 "/proc/self/fd/%d", fd);
	}
	if (error && fd >= 0)
		close(fd);
	snprintf(path, 64, "%s", env_path);
	pthread_mutex_unlock(&env_cache_lock);
	gm_buf_release(&key);
	gm_buf_release(&list);
	gm_buf_release(&file);
	return error;
}

int gm_repo_config_env_add(git_repository *repo)
{
	git_config *cfg = NULL;
	char path[64];
	int error;

	if (!getenv("GIT_CONFIG_COUNT") && !getenv("GIT_CONFIG_PARAMETERS"))
		return 0;
	if ((error = env_file(path)) < 0)
		return error;
	if ((error = git_repository_config(&cfg, repo)) < 0 ||
	    (error = git_config_add_file_ondisk(cfg, path, GIT_CONFIG_LEVEL_APP,
						repo, 1)) < 0)
		error = gm_error_from_git(error, "cannot read the configuration");
	git_config_free(cfg);
	return error;
}
