#include "gm/error.h"

#include <stdarg.h>
#include <stdio.h>

#include <git2.h>

/* Per thread: the history walk may run beside the main thread. */
static _Thread_local char last_message[1024];

int gm_error_set(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_message, sizeof(last_message), fmt, ap);
	va_end(ap);
	return code;
}

int gm_error_from_git(int git_code, const char *what)
{
	const git_error *e = git_error_last();
	const char *msg = e && e->message ? e->message : "unknown libgit2 error";

	gm_error_set(GM_ERROR, "%s: %s", what, msg);
	return git_code == GIT_ENOTFOUND ? GM_ENOTFOUND : GM_ERROR;
}

const char *gm_error_last(void)
{
	return last_message;
}

void gm_error_clear(void)
{
	last_message[0] = '\0';
}
