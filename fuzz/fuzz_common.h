#ifndef GM_FUZZ_COMMON_H
#define GM_FUZZ_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/error.h"

/* The libFuzzer entry point, declared for -Wmissing-prototypes. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken invariant is a crash: libFuzzer saves the input. */
#define FUZZ_CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
			__LINE__, #cond); \
		abort(); \
	} \
} while (0)

/* A NUL-terminated copy of `len` bytes (cut at the first NUL, as C strings
 * read from the library's callers are). */
static inline char *fuzz_strndup(const void *data, size_t len)
{
	char *s = malloc(len + 1);

	if (!s)
		abort();
	if (len)
		memcpy(s, data, len);
	s[len] = '\0';
	return s;
}

static inline void fuzz_mismatch(const char *fmt, ...) GM_PRINTF(1, 2);

/*
 * Report a wrong answer found by a differential check. It is a crash,
 * unless GM_FUZZ_KEEP_GOING=1 asks to print it and go on, to survey more
 * than one bug in a run: the first 100 are printed, or the first N for
 * GM_FUZZ_KEEP_GOING=N with N > 1.
 */
static inline void fuzz_mismatch(const char *fmt, ...)
{
	static long limit = -1;
	static long reported;
	const char *v;
	va_list ap;

	if (limit < 0) {
		v = getenv("GM_FUZZ_KEEP_GOING");
		limit = v ? strtol(v, NULL, 10) : 0;
		if (limit == 1)
			limit = 100;
	}
	if (!limit || reported < limit) {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	if (!limit)
		abort();
	if (++reported == limit)
		fputs("(further mismatches are not shown)\n", stderr);
}

#endif /* GM_FUZZ_COMMON_H */
