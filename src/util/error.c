#include "gm/error.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

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

const char *gm_error_last(void)
{
	return last_message;
}

void gm_error_clear(void)
{
	last_message[0] = '\0';
}

/* Held while stdout is written; taken for good by the thread that dies. */
static pthread_mutex_t stdout_lock = PTHREAD_MUTEX_INITIALIZER;

int gm_error_write_records(FILE *f, const void *buf, size_t len)
{
	int error = 0;

	pthread_mutex_lock(&stdout_lock);
	if ((len && fwrite(buf, 1, len, f) != len) || fflush(f))
		error = gm_error_set(GM_ERROR, "write error on standard output");
	pthread_mutex_unlock(&stdout_lock);
	return error;
}

_Noreturn void gm_error_die(void)
{
	pthread_mutex_lock(&stdout_lock);
	fputs("fatal: ", stderr);
	for (const unsigned char *p = (const unsigned char *)gm_error_last();
	     *p; p++)
		fprintf(stderr, *p < ' ' || *p == 0x7f ? "\\x%02x" : "%c", *p);
	fputc('\n', stderr);
	fflush(stderr);
	_exit(128);
}
