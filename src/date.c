#include "gm/date.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gm/error.h"

static const struct {
	const char *name;
	int64_t seconds;	/* 0 for calendar months, -1 for years */
} date_units[] = {
	{ "second", 1 }, { "sec", 1 }, { "minute", 60 }, { "min", 60 },
	{ "hour", 3600 }, { "day", 86400 }, { "week", 7 * 86400 },
	{ "month", 0 }, { "year", -1 },
};

static bool date_sep(char c)
{
	return c == '.' || c == '-' || c == '_' || c == ' ';
}

/* "<n> <unit> ago": `n` units before `now`. */
static int date_relative(int64_t *out, const char *s, time_t now)
{
	char *end;
	long n = strtol(s, &end, 10);
	struct tm tm;
	size_t len;

	if (end == s || n < 0 || !date_sep(*end))
		return GM_EINVALID;
	for (s = end; date_sep(*s); s++)
		;
	for (size_t i = 0; i < sizeof(date_units) / sizeof(*date_units); i++) {
		len = strlen(date_units[i].name);
		if (strncasecmp(s, date_units[i].name, len))
			continue;
		end = (char *)s + len;
		end += (*end == 's' || *end == 'S');
		while (date_sep(*end))
			end++;
		if (strcasecmp(end, "ago"))
			return GM_EINVALID;
		if (date_units[i].seconds > 0) {
			*out = (int64_t)now - n * date_units[i].seconds;
			return 0;
		}
		localtime_r(&now, &tm);
		if (date_units[i].seconds == 0)
			tm.tm_mon -= (int)n;
		else
			tm.tm_year -= (int)n;
		tm.tm_isdst = -1;
		*out = (int64_t)mktime(&tm);
		return 0;
	}
	return GM_EINVALID;
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

/* A zone suffix: "Z", "+hh", "+hhmm", "+hh:mm". @return seconds east. */
static int date_zone(const char *s, long *offset)
{
	int hh = 0, mm = 0, sign;

	if (!strcmp(s, "Z") || !strcmp(s, "z")) {
		*offset = 0;
		return 0;
	}
	if (*s != '+' && *s != '-')
		return GM_EINVALID;
	sign = *s++ == '-' ? -1 : 1;
	if (!isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[1]))
		return GM_EINVALID;
	hh = (s[0] - '0') * 10 + s[1] - '0';
	s += 2;
	s += *s == ':';
	if (*s) {
		if (!isdigit((unsigned char)s[0]) ||
		    !isdigit((unsigned char)s[1]) || s[2])
			return GM_EINVALID;
		mm = (s[0] - '0') * 10 + s[1] - '0';
	}
	*offset = sign * (hh * 3600L + mm * 60L);
	return 0;
}

/* "YYYY-MM-DD[T HH:MM[:SS]][zone]". */
static int date_absolute(int64_t *out, const char *s, time_t now)
{
	int y, mo, d, h = -1, mi = 0, sec = 0, n = 0;
	long offset = 0;
	bool zoned = false;
	struct tm tm;

	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || n != 10)
		return GM_EINVALID;
	s += n;
	if (*s == 'T' || *s == ' ') {
		n = 0;
		if (sscanf(s + 1, "%2d:%2d%n", &h, &mi, &n) != 2 || n != 5)
			return GM_EINVALID;
		s += 1 + n;
		if (*s == ':') {
			if (sscanf(s + 1, "%2d%n", &sec, &n) != 1 || n != 2)
				return GM_EINVALID;
			s += 3;
		}
	}
	if (*s) {
		if (date_zone(s, &offset) < 0)
			return GM_EINVALID;
		zoned = true;
	}
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    sec > 60)
		return GM_EINVALID;
	localtime_r(&now, &tm);
	if (h < 0) {		/* git keeps the current time of day */
		h = tm.tm_hour;
		mi = tm.tm_min;
		sec = tm.tm_sec;
	}
	if (zoned) {
		*out = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 +
		       sec - offset;
		return 0;
	}
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	tm.tm_isdst = -1;
	*out = (int64_t)mktime(&tm);
	return 0;
}

int gm_date_parse(int64_t *out, const char *s, time_t now)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (s[0] == '@' && isdigit((unsigned char)s[1])) {
		long long v = strtoll(s + 1, &end, 10);

		if (!*end) {
			*out = v;
			return 0;
		}
	} else if (!strcasecmp(s, "now")) {
		*out = now;
		return 0;
	} else if (!strcasecmp(s, "yesterday")) {
		*out = (int64_t)now - 86400;
		return 0;
	} else if (date_relative(out, s, now) == 0 ||
		   date_absolute(out, s, now) == 0) {
		return 0;
	}
	return gm_error_set(GM_EINVALID, "invalid date '%s'", s);
}
