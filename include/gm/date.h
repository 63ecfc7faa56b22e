#ifndef GM_DATE_H
#define GM_DATE_H

#include <stdint.h>
#include <time.h>

/**
 * Read a date as git's --since and --until read it (git 2.39's
 * approxidate), for the forms people type, and refuse everything else:
 *
 * - "@<n> +hhmm" (a commit's date: one space, four digits): n seconds
 *   since the epoch; "@<n>" of nine digits or more up to 2099, optionally
 *   followed by any zone below, which changes nothing: the same; "@<n>"
 *   of fewer digits alone: a lone number, as git reads one: 1 to 31 a
 *   day of this month, 32-37, 70-99 and 1970-2099 a year (2032-2037,
 *   1970-1999, as given), at now's time of day, else (0 included) now;
 * - "now"; "yesterday", which is 24 hours before `now`;
 * - "<n> <unit> [ago]" with '.', '-', '_' or ' ' between the words
 *   ("2.weeks.ago", "2 weeks ago", "1-year-ago", "3days"), `n` digits or
 *   one of "one" to "ten", or "last" for 1 ("last.week"); units second,
 *   minute, hour, day, week (fixed numbers of seconds before `now`),
 *   month and year (on the calendar of the local time of `now`, the day
 *   carried over into the next month when the month is shorter, and
 *   `now`'s daylight-saving flag kept, as git does), each singular or
 *   plural, any case;
 * - "YYYY-MM-DD": that day at the local time of day of `now`, `now`'s
 *   daylight-saving flag kept, as git does;
 * - "YYYY-MM-DD[T| ]HH:MM[:SS[.frac]]": local time (the fraction is
 *   ignored), or with a zone after it, with or without a space: "Z",
 *   "UTC", "GMT", "+hh", "+hhmm", "+hh:mm" (or '-').
 *
 * A value that names no real date (month 13, February 30, hour 24,
 * minute or second 60, a zone of 24 hours or 60 minutes), a number too
 * large to compute with, a word other than those above, and anything
 * after the date are refused: git would read them as some other date.
 * Years are any four digits, on the proleptic Gregorian calendar; git
 * itself only reads 1970 to 2099 as such, and dates before 1970 wrap.
 *
 * Reads the TZ environment variable (calls tzset()); not to be called
 * while another thread changes it.
 * @param now the reference time ("now")
 * @return 0 with the time in seconds since the epoch in `*out`, or
 *         GM_EINVALID with a one-line message naming the value and what
 *         is wrong with it.
 */
int gm_date_parse(int64_t *out, const char *s, time_t now);

#endif /* GM_DATE_H */
