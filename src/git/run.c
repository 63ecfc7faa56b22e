/*
 * git run as a child process, for what libgit2 does not do: a partial
 * clone's fetches, the command line's configuration as git reads it.
 */
/* pipe2() is a GNU and BSD extension, in every libc we build with. */
#define _GNU_SOURCE
#include "gm/repo.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
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

/*
 * Read `fd[0]` and `fd[1]` (-1: none) into `buf[0]` and `buf[1]` to their
 * ends, and close them.
 */
static bool read_both(int fd[2], struct gm_buf *buf[2])
{
	bool ok = true;

	while (fd[0] >= 0 || fd[1] >= 0) {
		struct pollfd p[2] = { { fd[0], POLLIN, 0 }, { fd[1], POLLIN, 0 } };

		if (poll(p, 2, -1) < 0 && errno != EINTR)
			ok = false;
		for (int i = 0; i < 2; i++) {
			ssize_t n;

			if (fd[i] < 0 || (ok && !p[i].revents))
				continue;
			ok = ok && gm_buf_grow(buf[i], 65536) == 0;
			n = ok ? read(fd[i], buf[i]->ptr + buf[i]->len,
				      buf[i]->alloc - buf[i]->len - 1) : 0;
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0 || !ok) {
				close_fd(fd[i]);
				fd[i] = -1;
				continue;
			}
			buf[i]->len += (size_t)n;
			buf[i]->ptr[buf[i]->len] = '\0';
		}
	}
	return ok;
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

int gm_git_run(const char *const *argv, const struct gm_buf *in,
	       struct gm_buf *out, struct gm_buf *err)
{
	struct gm_buf *bufs[2] = { out, err };
	posix_spawn_file_actions_t fa;
	int i[2] = { -1, -1 }, o[2] = { -1, -1 }, e[2] = { -1, -1 };
	int status = -1;
	bool ok;
	pid_t pid = 0;

	if (posix_spawn_file_actions_init(&fa))
		return -1;
	if (redirect(&fa, o, 1, out) || redirect(&fa, e, 2, err) ||
	    (in ? pipe2(i, O_CLOEXEC) < 0 ||
		  posix_spawn_file_actions_adddup2(&fa, i[0], 0) :
		  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
						   O_RDONLY, 0)) ||
	    posix_spawnp(&pid, "git", &fa, NULL, (char *const *)argv, environ))
		pid = 0;
	posix_spawn_file_actions_destroy(&fa);
	close_fd(i[0]);
	close_fd(o[1]);
	close_fd(e[1]);
	if (pid > 0 && in)
		write_all(i[1], in->ptr, in->len);
	close_fd(i[1]);
	ok = read_both((int[]){ o[0], e[0] }, bufs);
	if (pid <= 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return ok && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
