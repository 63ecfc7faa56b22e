#ifndef GM_DATE_H
#define GM_DATE_H

#include <stdint.h>

/**
 * `value` read by git itself as `git log --since=VALUE` reads it
 * (approxidate), through `git config --type=expiry-date`, which also
 * says when it finds no date at all in the value. Now is the time git
 * runs (or GIT_TEST_DATE_NOW, which git honours); TZ is git's. One git
 * run a call: a run whose threads share its dates reads them first
 * (gm_walk_dates()).
 * @return 0 with seconds since the epoch in `*out` (git's unsigned
 *         answer, INT64_MAX if larger), GM_EINVALID "WHAT: invalid date
 *         'VALUE': git reads no date in it", or GM_ERROR if git could not
 *         be run.
 */
int gm_git_date(int64_t *out, const char *value, const char *what);

#endif /* GM_DATE_H */
