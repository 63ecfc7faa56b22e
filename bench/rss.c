/*
 * gm-rss: run a command and report its peak resident set size.
 *
 * usage: gm-rss COMMAND [ARG...]
 *
 * Runs COMMAND, waits for it, then prints its peak RSS in kilobytes as the
 * last line on standard error, and exits with its exit status (128 + the
 * signal number if it was killed).  The command is forked from this small
 * process, so the figure is the command's own and not that of whatever
 * started the measurement (a Python parent would add its own size to it).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	pid_t pid;
	int status;

	if (argc < 2) {
		fprintf(stderr, "usage: gm-rss COMMAND [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("gm-rss: fork");
		return 127;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "gm-rss: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("gm-rss: waitpid");
			return 127;
		}
	}
	if (getrusage(RUSAGE_CHILDREN, &ru) < 0) {
		perror("gm-rss: getrusage");
		return 127;
	}
	fprintf(stderr, "%ld\n", (long)ru.ru_maxrss);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
