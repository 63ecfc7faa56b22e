/*
 * git run as a child process, for what libgit2 does not do: a partial
 * clone's fetches, the command line's configuration as git reads it.
 * Its input and output are files in memory (memfd_create()): nothing
 * waits on a pipe, and the output is read once git has ended.
 */
/* memfd_create() is Linux's, in every libc we build with. */
#define _GNU_SOURCE
#include "gm/repo.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
