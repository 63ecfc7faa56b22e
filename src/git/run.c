/*
 * git run as a child process, for what libgit2 does not do: a partial
 * clone's fetches, the command line's configuration as git reads it.
 */
/* pipe2() is a GNU and BSD extension, in every libc we build with. */
#define _GNU_SOURCE
#include "gm/repo.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gm/error.h"

extern char **environ;

/* Write all of `buf` to `fd`, a SIGPIPE held back and taken. */
static bool write_all(int fd, const char *buf, size_t len)
{
	sigset_t pipe_set, old;
	bool ok = true;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ok = false;
			break;
		}
		buf += n;
		len -= (size_t)n;
	}
	if (!ok && errno == EPIPE) {
		struct timespec zero = { 0, 0 };

		sigtimedwait(&pipe_set, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ok;
}

static void close_fd(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* Milliseconds on a monotonic clock. */
static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Read `fd[0]` and `fd[1]` (-1: none) into `buf[0]` and `buf[1]` to their
 * ends, or until `deadline` (a now_ms() time; 0: none), and close them.
 * @return 0, -1 on a read error, 1 if the deadline came first.
 */
static int read_both(int fd[2], struct gm_buf *buf[2], int64_t deadline)
{
	int rc = 0;

	while (fd[0] >= 0 || fd[1] >= 0) {
		struct pollfd p[2] = { { fd[0], POLLIN, 0 }, { fd[1], POLLIN, 0 } };
		int64_t left = deadline ? deadline - now_ms() : -1;

		if (deadline && left <= 0 && !rc)
			rc = 1;
		if (!rc && poll(p, 2, left > INT_MAX ? INT_MAX : (int)left) < 0 &&
		    errno != EINTR)
			rc = -1;
		for (int i = 0; i < 2; i++) {
			ssize_t n;

			if (fd[i] < 0 || (!rc && !p[i].revents))
				continue;
			if (!rc && gm_buf_grow(buf[i], 65536) < 0)
				rc = -1;
			n = !rc ? read(fd[i], buf[i]->ptr + buf[i]->len,
				       buf[i]->alloc - buf[i]->len - 1) : 0;
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0 || rc) {
				close_fd(fd[i]);
				fd[i] = -1;
				continue;
			}
			buf[i]->len += (size_t)n;
			buf[i]->ptr[buf[i]->len] = '\0';
		}
	}
	return rc;
}

/* The child's `to`: a new pipe `p`'s write end, or /dev/null if not `want`. */
static int redirect(posix_spawn_file_actions_t *fa, int p[2], int to,
		    bool want)
{
	p[0] = p[1] = -1;
	if (!want)
		return posix_spawn_file_actions_addopen(fa, to, "/dev/null",
							O_WRONLY, 0);
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	return posix_spawn_file_actions_adddup2(fa, p[1], to);
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

int gm_git_run_limit(const char *const *argv, const struct gm_buf *in,
		     struct gm_buf *out, struct gm_buf *err, int timeout_ms)
{
	struct gm_buf *bufs[2] = { out, err };
	posix_spawn_file_actions_t fa;
	int i[2] = { -1, -1 }, o[2] = { -1, -1 }, e[2] = { -1, -1 };
	int status = -1, rc;
	pid_t pid = 0;

	if (posix_spawn_file_actions_init(&fa))
		return -1;
	if (!redirect(&fa, o, 1, out) && !redirect(&fa, e, 2, err) &&
	    !(in ? pipe2(i, O_CLOEXEC) < 0 ||
		   posix_spawn_file_actions_adddup2(&fa, i[0], 0) :
		   posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
						    O_RDONLY, 0)))
		pid = spawn(argv, &fa, timeout_ms > 0);
	posix_spawn_file_actions_destroy(&fa);
	close_fd(i[0]);
	close_fd(o[1]);
	close_fd(e[1]);
	if (pid > 0 && in)
		write_all(i[1], in->ptr, in->len);
	close_fd(i[1]);
	rc = read_both((int[]){ o[0], e[0] }, bufs,
		       timeout_ms > 0 ? now_ms() + timeout_ms : 0);
	if (pid <= 0)
		return -1;
	if (rc > 0)
		kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (rc)
		return rc > 0 ? GM_GIT_RUN_LATE : -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int gm_git_run(const char *const *argv, const struct gm_buf *in,
	       struct gm_buf *out, struct gm_buf *err)
{
	return gm_git_run_limit(argv, in, out, err, 0);
}
