#include "gm/error.h"

#include <stdarg.h>
#include <stdio.h>

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
