#include "gm/date.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gm/error.h"

/*
 * The reader: a scanner over the value without its surrounding white
 * space. Each form has its own function; each refusal says what was
 * expected where.
 */
struct scan {
	const char *value;	/* as given, for messages */
	const char *p;		/* the next byte to read */
	const char *end;	/* after the last byte that is not a space */
	time_t now;
};

#define UNIT_MONTH 0
#define UNIT_YEAR  (-1)

static const struct {
	const char *name;	/* singular; a final 's' is allowed */
	int64_t seconds;	/* UNIT_MONTH or UNIT_YEAR: by the calendar */
} units[] = {
	{ "second", 1 },
	{ "minute", 60 },
	{ "hour", 60 * 60 },
	{ "day", 24 * 60 * 60 },
	{ "week", 7 * 24 * 60 * 60 },
	{ "month", UNIT_MONTH },
	{ "year", UNIT_YEAR },
};

/* git's number words, "one" to "ten" ("zero" is not one of them). */
static const char *const number_names[] = {
	"one", "two", "three", "four", "five",
	"six", "seven", "eight", "nine", "ten",
};

static const char *const month_names[] = {
	"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December",
};

/* Copy `s` into `buf` with control bytes as '?', cut at `size` - 4. */
static void show(char *buf, size_t size, const char *s)
{
	size_t n = 0;

	for (; *s && n + 4 < size; s++)
		buf[n++] = ((unsigned char)*s < 0x20 || *s == 0x7f) ? '?' : *s;
	if (*s) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
}

static int fail(const struct scan *d, const char *fmt, ...) GM_PRINTF(2, 3);

/* Refuse the value: "invalid date 'VALUE': WHY", on one line. */
static int fail(const struct scan *d, const char *fmt, ...)
{
	char why[200], shown_why[200], shown_value[100];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	show(shown_why, sizeof(shown_why), why);
	show(shown_value, sizeof(shown_value), d->value);
	return gm_error_set(GM_EINVALID, "invalid date '%s': %s", shown_value,
			    shown_why);
}

static bool at_end(const struct scan *d)
{
	return d->p == d->end;
}

static int peek(const struct scan *d)
{
	return at_end(d) ? -1 : (unsigned char)*d->p;
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

/* Between the words of "2.weeks.ago". */
static bool is_sep(int c)
{
	return c == '.' || c == '-' || c == '_' || c == ' ';
}

static size_t run_of(const struct scan *d, bool (*in)(int))
{
	const char *q = d->p;

	while (q < d->end && in((unsigned char)*q))
		q++;
	return (size_t)(q - d->p);
}

static size_t skip(struct scan *d, bool (*in)(int))
{
	size_t n = run_of(d, in);

	d->p += n;
	return n;
}

/* The word of `len` bytes at the scanner is `w`, in any case. */
static bool word_is(const struct scan *d, size_t len, const char *w)
{
	return len == strlen(w) && !strncasecmp(d->p, w, len);
}

/* What is left, for messages: "'REST'" or "the end". */
static const char *rest(const struct scan *d, char *buf, size_t size)
{
	if (at_end(d))
		return "the end";
	snprintf(buf, size, "'%.*s'", (int)(d->end - d->p), d->p);
	return buf;
}

static int unexpected(const struct scan *d)
{
	char buf[64];

	return fail(d, "unexpected %s after '%.*s'", rest(d, buf, sizeof(buf)),
		    (int)(d->p - d->value), d->value);
}

/* A number of `min` to `max` digits, `what` for the message. */
static int read_field(struct scan *d, size_t min, size_t max, const char *what,
		      int *v)
{
	size_t n = run_of(d, is_digit);
	char buf[64];

	if (n < min || n > max)
		return fail(d, "expected %s at %s", what,
			    rest(d, buf, sizeof(buf)));
	*v = 0;
	for (size_t i = 0; i < n; i++)
		*v = *v * 10 + (d->p[i] - '0');
	d->p += n;
	return 0;
}

/* A character `c`, `what` for the message. */
static int expect(struct scan *d, int c, const char *what)
{
	char buf[64];

	if (peek(d) != c)
		return fail(d, "expected %s at %s", what,
			    rest(d, buf, sizeof(buf)));
	d->p++;
	return 0;
}

/* Days from 1970-01-01 to the given civil date (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The wall clock y-m-d h:mi:s read as UTC. */
static int64_t civil_seconds(int64_t y, int m, int d, int h, int mi, int s)
{
	return days_from_civil(y, m, d) * 86400 + h * 3600 + mi * 60 + s;
}

/* Seconds east of UTC of the local time at `t`. */
static int offset_at(int64_t *off, const struct scan *d, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!localtime_r(&tt, &tm))
		return fail(d, "the time is out of range");
	*off = civil_seconds((int64_t)tm.tm_year + 1900, tm.tm_mon + 1,
			     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec) - t;
	return 0;
}

/*
 * The local wall clock `wall` (read as UTC), as git 2.39 reads a date and
 * time without a zone: with the offset in force at the instant `wall` if
 * the result has that offset, else with the offset the result has; on a
 * clock change this picks what glibc's mktime() picks in a process that
 * had not called it before, which is git's case, where our process may
 * have (mktime() remembers its last offset). A time skipped when the
 * clocks go forward is read with the offset before the change.
 */
static int local_wall(int64_t *out, const struct scan *d, int64_t wall)
{
	int64_t o1, o2, o3, before;

	if (wall < INT64_MIN / 2 || wall > INT64_MAX / 2)
		return fail(d, "the time is out of range");
	if (offset_at(&o1, d, wall) < 0 || offset_at(&o2, d, wall - o1) < 0)
		return GM_EINVALID;
	if (o2 == o1) {
		*out = wall - o1;
		return 0;
	}
	if (offset_at(&o3, d, wall - o2) < 0)
		return GM_EINVALID;
	if (o3 == o2) {
		*out = wall - o2;
		return 0;
	}
	if (offset_at(&before, d, wall - (o1 > o2 ? o1 : o2)) < 0)
		return GM_EINVALID;
	*out = wall - before;
	return 0;
}

/* mktime(), refusing a local time it cannot represent. */
static int make_local(int64_t *out, const struct scan *d, struct tm *tm)
{
	time_t t = mktime(tm);
	struct tm back;

	/* On success `tm` is normalised, so it is what `t` reads back as. */
	if (t == (time_t)-1 &&
	    (!localtime_r(&t, &back) || back.tm_year != tm->tm_year ||
	     back.tm_mon != tm->tm_mon || back.tm_mday != tm->tm_mday ||
	     back.tm_hour != tm->tm_hour || back.tm_min != tm->tm_min ||
	     back.tm_sec != tm->tm_sec))
		return fail(d, "the time is out of range");
	*out = (int64_t)t;
	return 0;
}

static int local_now(struct tm *tm, const struct scan *d)
{
	time_t now = d->now;

	if (!localtime_r(&now, tm))
		return fail(d, "the current time is out of range");
	return 0;
}

/* ==================== @<epoch> ==================== */

static int read_zone(struct scan *d, int64_t *offset);

/* The last second git reads as a date: 2099-12-31 23:59:59 UTC. */
#define EPOCH_MAX INT64_C(4102444799)

/* git reads nine digits and more as seconds since the epoch. */
#define EPOCH_DIGITS_MIN 100000000

/* Whether `p` is " +hhmm" (or '-') and nothing more: a commit's zone. */
static bool is_header_zone(const char *p, const char *end)
{
	if (end - p != 6 || p[0] != ' ' || (p[1] != '+' && p[1] != '-'))
		return false;
	for (int i = 2; i < 6; i++)
		if (!is_digit(p[i]))
			return false;
	return true;
}

/*
 * A number of fewer than nine digits after '@', alone, as git reads a
 * lone number: a day of this month (1 to 31), a year (32 to 37 as
 * 2032-2037, 70 to 99 as 1970-1999, 1970 to 2099), at now's time of
 * day, month and day; any other (0, or three digits or more with a
 * leading zero among them) is now.
 */
static int date_lone_number(int64_t *out, const struct scan *d, int64_t v,
			    size_t digits)
{
	struct tm tm;

	if (local_now(&tm, d) < 0)
		return GM_EINVALID;
	if (d->p[0] == '0' && digits > 2)
		v = 0;
	if (v >= 1 && v <= 31)
		tm.tm_mday = (int)v;
	else if (v >= 1970 && v <= 2099)
		tm.tm_year = (int)v - 1900;
	else if (v >= 70 && v <= 99)
		tm.tm_year = (int)v;
	else if (v >= 32 && v <= 37)
		tm.tm_year = 100 + (int)v;
	else {
		*out = (int64_t)d->now;
		return 0;
	}
	/* tm_isdst stays now's, as in git */
	return make_local(out, d, &tm);
}

/*
 * "@<n>", as git reads it: with " +hhmm" after it (a commit's date), n
 * seconds since the epoch, whatever n; else with nine digits or more,
 * the same (any zone after it changing nothing), up to 2099; with fewer
 * digits alone, a day or a year (date_lone_number()). Anything else
 * git reads as some other date.
 */
static int date_epoch(int64_t *out, struct scan *d)
{
	size_t n;
	int64_t v = 0, zone;

	d->p++;
	if (!(n = run_of(d, is_digit)))
		return fail(d, "expected seconds since the epoch after '@'");
	for (size_t i = 0; i < n; i++) {
		int digit = d->p[i] - '0';

		if (v > (INT64_MAX - digit) / 10)
			return fail(d, "the number is too large");
		v = v * 10 + digit;
	}
	if (is_header_zone(d->p + n, d->end)) {
		*out = v;
		return 0;
	}
	if (v < EPOCH_DIGITS_MIN) {
		if (d->p + n != d->end)
			return fail(d, "a zone after '@' and fewer than nine "
				    "digits is read only as ' +hhmm'");
		return date_lone_number(out, d, v, n);
	}
	if (v > EPOCH_MAX)
		return fail(d, "the time is after 2099");
	d->p += n;
	skip(d, is_space);
	if (!at_end(d) && read_zone(d, &zone) < 0)
		return GM_EINVALID;
	if (!at_end(d))
		return unexpected(d);
	*out = v;
	return 0;
}

/* ==================== <n> <unit> ago ==================== */

/* The count of "3.days.ago", "three days ago" or "last week". */
static int read_count(struct scan *d, int *count)
{
	size_t n = run_of(d, is_digit);
	long long v = 0;

	if (n) {
		/* git reads "006" as no number at all */
		if (n > 2 && d->p[0] == '0')
			return fail(d, "'%.*s' has leading zeros", (int)n,
				    d->p);
		for (size_t i = 0; i < n; i++) {
			v = v * 10 + (d->p[i] - '0');
			/* git keeps the count in an int */
			if (v > INT_MAX)
				return fail(d, "the number is too large");
		}
		d->p += n;
		skip(d, is_sep);
		*count = (int)v;
		return 0;
	}
	n = run_of(d, is_alpha);
	if (word_is(d, n, "last"))
		v = 1;
	for (size_t i = 0; i < sizeof(number_names) / sizeof(*number_names);
	     i++)
		if (word_is(d, n, number_names[i]))
			v = (long long)i + 1;
	if (!v)
		return fail(d, "unknown word '%.*s'", (int)n, d->p);
	d->p += n;
	if (!skip(d, is_sep))
		return fail(d, "expected a unit after '%.*s'",
			    (int)(d->p - d->value), d->value);
	*count = (int)v;
	return 0;
}

/* `months` and `years` before now on the local calendar, as git counts. */
static int date_calendar(int64_t *out, const struct scan *d, int months,
			 int years)
{
	struct tm tm;
	long long mon, year;

	if (local_now(&tm, d) < 0)
		return GM_EINVALID;
	mon = (long long)tm.tm_mon - months;
	year = (long long)tm.tm_year - years;
	if (mon < 0) {
		long long back = (-mon + 11) / 12;

		year -= back;
		mon += 12 * back;
	}
	if (year < INT_MIN + 1900)
		return fail(d, "the time is out of range");
	tm.tm_mon = (int)mon;
	tm.tm_year = (int)year;
	/* tm_isdst stays now's, as in git: a date across a change moves */
	return make_local(out, d, &tm);
}

static int date_relative(int64_t *out, struct scan *d)
{
	int count = 0;
	size_t n, i, len;
	int64_t seconds;

	if (read_count(d, &count) < 0)
		return GM_EINVALID;
	n = run_of(d, is_alpha);
	for (i = 0; i < sizeof(units) / sizeof(*units); i++) {
		len = strlen(units[i].name);
		if ((n == len || (n == len + 1 && (d->p[len] | 0x20) == 's')) &&
		    !strncasecmp(d->p, units[i].name, len))
			break;
	}
	if (i == sizeof(units) / sizeof(*units)) {
		if (!n)
			return fail(d, "expected a unit (seconds to years) "
				    "after '%.*s'", (int)(d->p - d->value),
				    d->value);
		return fail(d, "unknown unit '%.*s' (seconds, minutes, hours, "
			    "days, weeks, months or years)", (int)n, d->p);
	}
	d->p += n;
	if (!at_end(d)) {
		const char *before = d->p;

		if (skip(d, is_sep) && word_is(d, run_of(d, is_alpha), "ago"))
			d->p += 3;
		else
			d->p = before;
		if (!at_end(d))
			return unexpected(d);
	}
	seconds = units[i].seconds;
	if (seconds == UNIT_MONTH)
		return date_calendar(out, d, count, 0);
	if (seconds == UNIT_YEAR)
		return date_calendar(out, d, 0, count);
	seconds *= count;	/* at most INT_MAX weeks: no overflow */
	if ((int64_t)d->now < INT64_MIN + seconds)
		return fail(d, "the time is out of range");
	*out = (int64_t)d->now - seconds;
	return 0;
}

/* ==================== YYYY-MM-DD[ HH:MM[:SS]][ zone] ==================== */

static bool is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int month_days(int y, int m)
{
	static const int days[] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};

	return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

/* "Z", "UTC", "GMT", "+hh", "+hhmm" or "+hh:mm" (or '-'): seconds east. */
static int read_zone(struct scan *d, int64_t *offset)
{
	size_t n = run_of(d, is_alpha);
	char buf[64];
	int sign, hh, mm = 0;

	if (word_is(d, n, "Z") || word_is(d, n, "UTC") ||
	    word_is(d, n, "GMT")) {
		d->p += n;
		*offset = 0;
		return 0;
	}
	if (n)
		return fail(d, "unknown zone '%.*s' (Z, UTC, +hhmm or -hhmm)",
			    (int)n, d->p);
	if (peek(d) != '+' && peek(d) != '-')
		return unexpected(d);
	sign = *d->p++ == '-' ? -1 : 1;
	n = run_of(d, is_digit);
	if (n == 4) {
		hh = (d->p[0] - '0') * 10 + d->p[1] - '0';
		mm = (d->p[2] - '0') * 10 + d->p[3] - '0';
	} else if (n == 2 && (d->end - d->p < 3 || d->p[2] != ':')) {
		hh = (d->p[0] - '0') * 10 + d->p[1] - '0';
	} else if (n == 2 && d->end - d->p >= 5 && is_digit(d->p[3]) &&
		   is_digit(d->p[4]) &&
		   (d->end - d->p == 5 || !is_digit(d->p[5]))) {
		hh = (d->p[0] - '0') * 10 + d->p[1] - '0';
		mm = (d->p[3] - '0') * 10 + d->p[4] - '0';
		n = 5;
	} else {
		d->p--;
		return fail(d, "expected a zone +hhmm, +hh:mm or +hh at %s",
			    rest(d, buf, sizeof(buf)));
	}
	if (hh > 23 || mm > 59)
		return fail(d, "there is no zone %.*s", (int)n + 1, d->p - 1);
	d->p += n;
	*offset = sign * (hh * 3600 + mm * 60);
	return 0;
}

/* "HH:MM[:SS[.frac]]" after the date; the fraction is dropped, as in git. */
static int read_time(struct scan *d, int *h, int *mi, int *s)
{
	if (read_field(d, 1, 2, "a time HH:MM", h) < 0 ||
	    expect(d, ':', "':' and the minutes") < 0 ||
	    read_field(d, 2, 2, "the minutes (MM)", mi) < 0)
		return GM_EINVALID;
	if (peek(d) == ':') {
		d->p++;
		if (read_field(d, 2, 2, "the seconds (SS)", s) < 0)
			return GM_EINVALID;
		if (peek(d) == '.' && d->p + 1 < d->end && is_digit(d->p[1])) {
			d->p++;
			skip(d, is_digit);
		}
	}
	if (*h > 23)
		return fail(d, "there is no hour %d", *h);
	if (*mi > 59)
		return fail(d, "there is no minute %d", *mi);
	if (*s > 59)
		return fail(d, "there is no second %d", *s);
	return 0;
}

static int date_absolute(int64_t *out, struct scan *d)
{
	int y, mo, da, h = 0, mi = 0, s = 0;
	int64_t offset = 0;
	bool zoned = false;
	struct tm tm;

	if (read_field(d, 4, 4, "a year (YYYY)", &y) < 0 ||
	    expect(d, '-', "'-'") < 0 ||
	    read_field(d, 1, 2, "a month (MM)", &mo) < 0 ||
	    expect(d, '-', "'-' and the day") < 0 ||
	    read_field(d, 1, 2, "a day (DD)", &da) < 0)
		return GM_EINVALID;
	if (mo < 1 || mo > 12)
		return fail(d, "there is no month %d", mo);
	if (da < 1)
		return fail(d, "there is no day 0");
	if (da > month_days(y, mo))
		return fail(d, "%s %04d has %d days", month_names[mo - 1], y,
			    month_days(y, mo));
	if (at_end(d)) {
		/* the day at now's time of day and daylight flag, as in git */
		if (local_now(&tm, d) < 0)
			return GM_EINVALID;
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = da;
		return make_local(out, d, &tm);
	}
	if (peek(d) == 'T' || peek(d) == 't')
		d->p++;
	else if (!skip(d, is_space))
		return unexpected(d);
	if (read_time(d, &h, &mi, &s) < 0)
		return GM_EINVALID;
	skip(d, is_space);
	if (!at_end(d)) {
		if (read_zone(d, &offset) < 0)
			return GM_EINVALID;
		zoned = true;
	}
	if (!at_end(d))
		return unexpected(d);
	if (!zoned)
		return local_wall(out, d, civil_seconds(y, mo, da, h, mi, s));
	*out = civil_seconds(y, mo, da, h, mi, s) - offset;
	return 0;
}

/* ==================== the entry point ==================== */

int gm_date_parse(int64_t *out, const char *s, time_t now)
{
	struct scan d = { s, s, s + strlen(s), now };
	size_t n;

	tzset();
	while (d.p < d.end && is_space((unsigned char)*d.p))
		d.p++;
	while (d.end > d.p && is_space((unsigned char)d.end[-1]))
		d.end--;
	if (at_end(&d))
		return fail(&d, "the date is empty");
	if (peek(&d) == '@')
		return date_epoch(out, &d);
	n = run_of(&d, is_digit);
	/* digits, a '-', '/' or '.' and a digit: meant as a day */
	if (n && d.end - d.p > (ptrdiff_t)n + 1 &&
	    strchr("-/.", d.p[n]) && is_digit(d.p[n + 1]))
		return date_absolute(out, &d);
	if (n)
		return date_relative(out, &d);
	n = run_of(&d, is_alpha);
	if (word_is(&d, n, "now") || word_is(&d, n, "yesterday")) {
		/* git's "yesterday" is 24 hours ago, not a calendar day */
		int64_t back = word_is(&d, n, "now") ? 0 : 24 * 60 * 60;

		d.p += n;
		if (!at_end(&d))
			return unexpected(&d);
		if ((int64_t)now < INT64_MIN + back)
			return fail(&d, "the time is out of range");
		*out = (int64_t)now - back;
		return 0;
	}
	if (n)
		return date_relative(out, &d);
	return fail(&d, "not a date (YYYY-MM-DD[ HH:MM[:SS][ +hhmm]], "
		    "N.days.ago, last.week, yesterday, now or @epoch)");
}
