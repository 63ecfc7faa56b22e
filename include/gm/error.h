#ifndef GM_ERROR_H
#define GM_ERROR_H

#include <stddef.h>
#include <stdio.h>

#if defined(__GNUC__) || defined(__clang__)
#define GM_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define GM_PRINTF(fmt, args)
#endif

/*
 * Every fallible function returns 0 on success or one of these negative
 * codes, with a message describing the failure available from
 * gm_error_last() until the next error is set.
 */
enum gm_error_code {
	GM_OK = 0,
	GM_ERROR = -1,		/* generic failure, out of memory included */
	GM_ENOTFOUND = -3,	/* a repository, revision, path or file is missing */
	GM_EINVALID = -4,	/* malformed input */
	GM_EUSAGE = -5,		/* bad command line */
};

/**
 * Record `fmt` as the last error message and return `code`, so that an
 * error site reads `return gm_error_set(GM_EINVALID, "...", ...);`.
 */
int gm_error_set(int code, const char *fmt, ...) GM_PRINTF(2, 3);

/**
 * Record the message of libgit2's last error, prefixed by `what`, and
 * return a gm error code matching `git_code` (GM_ENOTFOUND for
 * GIT_ENOTFOUND, GM_ERROR otherwise). Defined in src/git (objects.c),
 * the one stage that calls libgit2.
 */
int gm_error_from_git(int git_code, const char *what);

/** The last message set; never NULL (empty when none was set). */
const char *gm_error_last(void);

/** Forget the last message. */
void gm_error_clear(void);

/**
 * Write `len` bytes of whole records to `f` and flush them: whatever
 * thread calls gm_error_die(), stdout (on a pipe or a file) then holds
 * whole records only. @return 0, or GM_ERROR on a write error.
 */
int gm_error_write_records(FILE *f, const void *buf, size_t len);

/**
 * End the process as git's die() does, from any thread: "fatal: " and
 * the message set (control characters as \xHH) on stderr, exit status
 * 128, once no gm_error_write_records() is under way (what stdout's own
 * buffer holds is dropped).
 */
_Noreturn void gm_error_die(void);

#endif /* GM_ERROR_H */
