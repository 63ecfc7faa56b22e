/*
 * git run as a child process, for what libgit2 does not do: a partial
 * clone's fetches, the command line's configuration as git reads it,
 * dates (date.c). Its input and output are files in memory
 * (memfd_create()): nothing waits on a pipe, and the output is read
 * once git has ended.
 *
 * The settings of "git -c" are read by git itself (`git config --list -z
 * --show-scope`, its "command" entries, include.path's files too), so
 * that git's rules apply, and written to a file in memory (never on disk)
 * that every read of the configuration then sees.
 */
/* memfd_create() is Linux's, in every libc we build with. */
#define _GNU_SOURCE
#include "repo_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gm/buf.h"
#include "gm/error.h"

extern char **environ;

/* Milliseconds on a monotonic clock. */
static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The child's descriptor `to`: if `want`, a new file in memory, `*fd`,
 * holding `in` (NULL: empty); else /dev/null.
 */
static int redirect(posix_spawn_file_actions_t *fa, int *fd, int to,
		    bool want, const struct gm_buf *in)
{
	if (!want)
		return posix_spawn_file_actions_addopen(fa, to, "/dev/null",
							to ? O_WRONLY : O_RDONLY,
							0);
	if ((*fd = memfd_create("git", MFD_CLOEXEC)) < 0 ||
	    (in && (write(*fd, in->ptr, in->len) != (ssize_t)in->len ||
		    lseek(*fd, 0, SEEK_SET) < 0)))
		return -1;
	return posix_spawn_file_actions_adddup2(fa, *fd, to);
}

/* Start git with `fa`, in a process group of its own if `group`. */
static pid_t spawn(const char *const *argv, posix_spawn_file_actions_t *fa,
		   bool group)
{
	posix_spawnattr_t attr;
	pid_t pid = 0;

	if (posix_spawnattr_init(&attr))
		return 0;
	if ((group && posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP)) ||
	    posix_spawnp(&pid, "git", fa, &attr, (char *const *)argv, environ))
		pid = 0;
	posix_spawnattr_destroy(&attr);
	return pid;
}

/*
 * Wait for `pid` until `deadline` (a now_ms() time; 0: none), then kill
 * its process group. @return 0, -1 on an error, 1 if it was killed.
 */
static int wait_child(pid_t pid, int64_t deadline, int *status)
{
	const struct timespec tick = { 0, 2000000 };
	pid_t got;

	while ((got = waitpid(pid, status, deadline ? WNOHANG : 0)) <= 0) {
		if (got < 0 && errno != EINTR)
			return -1;
		if (got == 0 && now_ms() >= deadline) {
			kill(-pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			return 1;
		}
		if (got == 0)
			nanosleep(&tick, NULL);
	}
	return 0;
}

int gm_git_run_limit(const char *const *argv, const struct gm_buf *in,
		     struct gm_buf *out, struct gm_buf *err, int timeout_ms)
{
	struct gm_buf *bufs[3] = { NULL, out, err };
	posix_spawn_file_actions_t fa;
	int fd[3] = { -1, -1, -1 }, status = -1, rc = -1;
	pid_t pid = 0;

	if (posix_spawn_file_actions_init(&fa))
		return -1;
	if (!redirect(&fa, &fd[0], 0, in, in) &&
	    !redirect(&fa, &fd[1], 1, out, NULL) &&
	    !redirect(&fa, &fd[2], 2, err, NULL))
		pid = spawn(argv, &fa, timeout_ms > 0);
	posix_spawn_file_actions_destroy(&fa);
	if (pid > 0)
		rc = wait_child(pid, timeout_ms > 0 ? now_ms() + timeout_ms : 0,
				&status);
	for (int i = 0; i < 3; i++) {
		if (fd[i] >= 0 && i && !rc &&
		    (lseek(fd[i], 0, SEEK_SET) < 0 ||
		     gm_buf_read_fd(bufs[i], fd[i], "git's output") < 0))
			rc = -1;
		if (fd[i] >= 0)
			close(fd[i]);
	}
	if (rc)
		return rc > 0 ? GM_GIT_RUN_LATE : -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int gm_git_run(const char *const *argv, const struct gm_buf *in,
	       struct gm_buf *out, struct gm_buf *err)
{
	return gm_git_run_limit(argv, in, out, err, 0);
}

/* ==================== git -c ==================== */

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

