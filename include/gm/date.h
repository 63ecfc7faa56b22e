#ifndef GM_DATE_H
#define GM_DATE_H

#include <stdint.h>
#include <time.h>

/**
 * Parse a date the way git's --since and --until read the common forms:
 * "@<epoch>", "now", "<n>.<unit>.ago" (also with '-', '_' or spaces, units
 * second to year, plural or not; months and years by the calendar),
 * "yesterday", "YYYY-MM-DD" (at the current time of day, as git does) and
 * "YYYY-MM-DD[T ]HH:MM[:SS]" with an optional "Z" or "+hh[:]mm" zone.
 * Local time unless a zone is given. `now` is the reference time.
 * @return 0 with the epoch in `*out`, or GM_EINVALID.
 */
int gm_date_parse(int64_t *out, const char *s, time_t now);

#endif /* GM_DATE_H */
