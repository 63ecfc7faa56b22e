#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>

#include "gm/date.h"
#include "gm/error.h"
#include "gm/history.h"
#include "gm/options.h"
#include "gm/walk.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/*
 * gm_git_date() asks git. The forms people type, at fixed times
 * (GIT_TEST_DATE_NOW) in fixed zones, with what they mean written out as
 * a wall clock and its offset (or seconds before now); each is also asked
 * of git log's own reading (git rev-parse --since), which must agree to
 * the second, as must every value git reads silently, however odd.
 */

#define MIN 60
#define HOUR (60 * MIN)
#define DAY (24 * HOUR)
#define WEEK (7 * DAY)

/* 2026-03-31 12:00:00 UTC: 14:00 CEST, 08:00 EDT, a 31st. */
#define N1 1774958400
/* 2026-01-15 12:00:00 UTC: 13:00 CET, 07:00 EST. */
#define N2 1768478400

enum kind { AGO, AT, EPOCH };

struct accept_row {
	const char *tz;
	int64_t now;
	const char *in;
	enum kind kind;
	int64_t value;		/* AGO: seconds before now; EPOCH: the time */
	int at[7];		/* AT: y, mo, d, h, mi, s, minutes east */
};

#define R_AGO(tz, now, in, back) { tz, now, in, AGO, back, { 0 } }
#define R_EPOCH(in, t) { "UTC", N1, in, EPOCH, t, { 0 } }
#define R_AT(tz, now, in, y, mo, d, h, mi, s, off) \
	{ tz, now, in, AT, 0, { y, mo, d, h, mi, s, off } }

static const struct accept_row accepted[] = {
	R_AGO("UTC", N1, "now", 0),
	R_AGO("UTC", N1, "NOW", 0),
	R_AGO("UTC", N1, "yesterday", DAY),
	R_AGO("UTC", N1, "Yesterday", DAY),
	R_AGO("UTC", N1, "1.second.ago", 1),
	R_AGO("UTC", N1, "90.seconds.ago", 90),
	R_AGO("UTC", N1, "1.minute.ago", MIN),
	R_AGO("UTC", N1, "45 minutes ago", 45 * MIN),
	R_AGO("UTC", N1, "1.hour.ago", HOUR),
	R_AGO("UTC", N1, "36-hours-ago", 36 * HOUR),
	R_AGO("UTC", N1, "1.day.ago", DAY),
	R_AGO("UTC", N1, "3.days.ago", 3 * DAY),
	R_AGO("UTC", N1, "3 days ago", 3 * DAY),
	R_AGO("UTC", N1, "3-days-ago", 3 * DAY),
	R_AGO("UTC", N1, "3_days_ago", 3 * DAY),
	R_AGO("UTC", N1, "3  days  ago", 3 * DAY),
	R_AGO("UTC", N1, "3days", 3 * DAY),
	R_AGO("UTC", N1, "3.days", 3 * DAY),
	R_AGO("UTC", N1, "3.DAYS.AGO", 3 * DAY),
	R_AGO("UTC", N1, "  3.days.ago\n", 3 * DAY),
	R_AGO("UTC", N1, "06.days.ago", 6 * DAY),
	R_AGO("UTC", N1, "0.days.ago", 0),
	R_AGO("UTC", N1, "1.week.ago", WEEK),
	R_AGO("UTC", N1, "2.weeks.ago", 2 * WEEK),
	R_AGO("UTC", N1, "2 weeks ago", 2 * WEEK),
	R_AGO("UTC", N1, "two weeks ago", 2 * WEEK),
	R_AGO("UTC", N1, "ten.days.ago", 10 * DAY),
	R_AGO("UTC", N1, "3000.days.ago", 3000LL * DAY),
	R_AGO("UTC", N1, "last.week", WEEK),
	R_AGO("UTC", N1, "last week", WEEK),
	R_AGO("UTC", N1, "LAST WEEK", WEEK),
	R_AGO("UTC", N1, "last.day", DAY),
	R_AGO("UTC", N1, "last.hour", HOUR),
	R_AGO("UTC", N1, "last.minute", MIN),
	R_AGO("UTC", N1, "last-second", 1),
	R_AGO("UTC", N1, "0.months.ago", 0),
	/* months by the calendar; a day the month lacks runs over */
	R_AT("UTC", N1, "1.month.ago", 2026, 3, 3, 12, 0, 0, 0),
	R_AT("UTC", N1, "last.month", 2026, 3, 3, 12, 0, 0, 0),
	R_AT("UTC", N1, "last month", 2026, 3, 3, 12, 0, 0, 0),
	R_AT("UTC", N1, "6.months.ago", 2025, 10, 1, 12, 0, 0, 0),
	R_AT("UTC", N1, "one.month.ago", 2026, 3, 3, 12, 0, 0, 0),
	R_AT("UTC", N1, "13.months.ago", 2025, 3, 3, 12, 0, 0, 0),
	R_AT("UTC", N1, "25 months ago", 2024, 3, 2, 12, 0, 0, 0),
	R_AT("UTC", N2, "6.months.ago", 2025, 7, 15, 12, 0, 0, 0),
	R_AT("UTC", N1, "1.year.ago", 2025, 3, 31, 12, 0, 0, 0),
	R_AT("UTC", N1, "1-year-ago", 2025, 3, 31, 12, 0, 0, 0),
	R_AT("UTC", N1, "last.year", 2025, 3, 31, 12, 0, 0, 0),
	R_AT("UTC", N1, "2.years.ago", 2024, 3, 31, 12, 0, 0, 0),
	/* a day alone: at now's time of day */
	R_AT("UTC", N1, "2026-02-20", 2026, 2, 20, 12, 0, 0, 0),
	R_AT("UTC", N1, "2026-2-5", 2026, 2, 5, 12, 0, 0, 0),
	R_AT("UTC", N1, "2024-02-29", 2024, 2, 29, 12, 0, 0, 0),
	R_AT("UTC", N1, "1970-01-02", 1970, 1, 2, 12, 0, 0, 0),
	/* a day and a time: local time */
	R_AT("UTC", N1, "2026-02-20 10:00", 2026, 2, 20, 10, 0, 0, 0),
	R_AT("UTC", N1, "2026-02-20 10:00:30", 2026, 2, 20, 10, 0, 30, 0),
	R_AT("UTC", N1, "2026-02-20T10:00", 2026, 2, 20, 10, 0, 0, 0),
	R_AT("UTC", N1, "2026-02-20t10:00", 2026, 2, 20, 10, 0, 0, 0),
	R_AT("UTC", N1, "2026-02-20 9:30", 2026, 2, 20, 9, 30, 0, 0),
	R_AT("UTC", N1, "2026-02-20   10:00", 2026, 2, 20, 10, 0, 0, 0),
	R_AT("UTC", N1, "2026-02-20T23:59:59", 2026, 2, 20, 23, 59, 59, 0),
	/* with a zone */
	R_AT("UTC", N1, "2026-02-20 10:00 +0100", 2026, 2, 20, 10, 0, 0, 60),
	R_AT("UTC", N1, "2026-02-20 10:00:00 +0100", 2026, 2, 20, 10, 0, 0,
	     60),
	R_AT("UTC", N1, "2026-02-20 10:00+0100", 2026, 2, 20, 10, 0, 0, 60),
	R_AT("UTC", N1, "2026-02-20 10:00 +01", 2026, 2, 20, 10, 0, 0, 60),
	R_AT("UTC", N1, "2026-02-20 10:00 +01:30", 2026, 2, 20, 10, 0, 0, 90),
	R_AT("UTC", N1, "2026-02-20 10:00 -0530", 2026, 2, 20, 10, 0, 0, -330),
	R_AT("UTC", N1, "2026-02-20 10:00 +1400", 2026, 2, 20, 10, 0, 0, 840),
	R_AT("UTC", N1, "2026-02-20 10:00 -2359", 2026, 2, 20, 10, 0, 0,
	     -1439),
	R_AT("UTC", N1, "2026-02-20T10:00Z", 2026, 2, 20, 10, 0, 0, 0),
	R_AT("UTC", N1, "2026-02-20T10:00:00z", 2026, 2, 20, 10, 0, 0, 0),
	R_AT("UTC", N1, "2026-02-20T10:00:00+01:00", 2026, 2, 20, 10, 0, 0,
	     60),
	R_AT("UTC", N1, "2026-02-20T10:00:00-05:30", 2026, 2, 20, 10, 0, 0,
	     -330),
	R_AT("UTC", N1, "2026-02-20T10:00:00.123Z", 2026, 2, 20, 10, 0, 0, 0),
	R_AT("UTC", N1, "2026-02-20T10:00:00.123456+02:00", 2026, 2, 20, 10,
	     0, 0, 120),
	R_AT("UTC", N1, "2026-02-20 10:00 Z", 2026, 2, 20, 10, 0, 0, 0),
	R_AT("UTC", N1, "2026-02-20 10:00 UTC", 2026, 2, 20, 10, 0, 0, 0),
	R_AT("UTC", N1, "2026-02-20 10:00 gmt", 2026, 2, 20, 10, 0, 0, 0),
	R_AT("UTC", N1, "1970-01-01T00:00:00Z", 1970, 1, 1, 0, 0, 0, 0),
	R_AT("UTC", N1, "2099-12-31T23:59:59Z", 2099, 12, 31, 23, 59, 59, 0),
	R_EPOCH("@1700000000", 1700000000),
	R_EPOCH("@1700000000 +0100", 1700000000),
	R_EPOCH("@100000000", 100000000),
	R_EPOCH("@0123456789", 123456789),
	R_EPOCH("@1700000000 +01:00", 1700000000),
	R_EPOCH("@4102444799", 4102444799),
	/* a commit's date: any number, then " +hhmm" */
	R_EPOCH("@0 +0000", 0),
	R_EPOCH("@0 -0500", 0),
	R_EPOCH("@5 +0100", 5),
	/* a lone number of fewer than nine digits: now, a day or a year */
	R_AGO("UTC", N1, "@0", 0),
	R_AGO("UTC", N1, "@00", 0),
	R_AGO("UTC", N1, "@005", 0),
	R_AGO("UTC", N1, "@38", 0),
	R_AGO("UTC", N1, "@12345", 0),
	R_AGO("UTC", N1, "@99999999", 0),
	R_AT("UTC", N1, "@15", 2026, 3, 15, 12, 0, 0, 0),
	R_AT("UTC", N1, "@05", 2026, 3, 5, 12, 0, 0, 0),
	R_AT("UTC", N1, "@33", 2033, 3, 31, 12, 0, 0, 0),
	R_AT("UTC", N1, "@75", 1975, 3, 31, 12, 0, 0, 0),
	R_AT("UTC", N1, "@1999", 1999, 3, 31, 12, 0, 0, 0),
	R_AT("Europe/Berlin", N1, "@15", 2026, 3, 15, 13, 0, 0, 60),

	/*
	 * Berlin, now 14:00 CEST. "N days" are N times 24 hours across the
	 * change of March 29; a month or a day alone keeps now's daylight
	 * flag, so in winter it reads 14:00 as daylight time: 13:00 CET.
	 */
	R_AGO("Europe/Berlin", N1, "3.days.ago", 3 * DAY),
	R_AGO("Europe/Berlin", N1, "yesterday", DAY),
	R_AGO("Europe/Berlin", N1, "last.week", WEEK),
	R_AT("Europe/Berlin", N1, "1.month.ago", 2026, 3, 3, 13, 0, 0, 60),
	R_AT("Europe/Berlin", N1, "1.year.ago", 2025, 3, 31, 14, 0, 0, 120),
	R_AT("Europe/Berlin", N1, "2025-07-01", 2025, 7, 1, 14, 0, 0, 120),
	R_AT("Europe/Berlin", N1, "2026-02-20", 2026, 2, 20, 13, 0, 0, 60),
	R_AT("Europe/Berlin", N1, "2026-02-20 10:00", 2026, 2, 20, 10, 0, 0,
	     60),
	R_AT("Europe/Berlin", N1, "2025-07-01 10:00", 2025, 7, 1, 10, 0, 0,
	     120),
	R_AT("Europe/Berlin", N1, "2026-02-20 10:00 +0000", 2026, 2, 20, 10, 0,
	     0, 0),
	R_AT("Europe/Berlin", N1, "2026-02-20T10:00Z", 2026, 2, 20, 10, 0, 0,
	     0),
	/* 02:30 twice on October 26: the second (CET), as git reads it */
	R_AT("Europe/Berlin", N1, "2025-10-26 02:30", 2025, 10, 26, 2, 30, 0,
	     60),
	/* no 02:30 on March 29: read with the offset before the change */
	R_AT("Europe/Berlin", N1, "2026-03-29 02:30", 2026, 3, 29, 2, 30, 0,
	     60),
	R_AT("Europe/Berlin", N1, "2026-03-29 03:30", 2026, 3, 29, 3, 30, 0,
	     120),
	R_AT("Europe/Berlin", N1, "2026-03-29 01:30", 2026, 3, 29, 1, 30, 0,
	     60),
	/* Berlin, now 13:00 CET: summer dates read 13:00 as CET, 14:00 CEST */
	R_AT("Europe/Berlin", N2, "6.months.ago", 2025, 7, 15, 14, 0, 0, 120),
	R_AT("Europe/Berlin", N2, "2025-07-01", 2025, 7, 1, 14, 0, 0, 120),
	R_AT("Europe/Berlin", N2, "2026-01-10", 2026, 1, 10, 13, 0, 0, 60),

	/* New York, now 08:00 EDT; west of UTC the first 01:30 is kept */
	R_AT("America/New_York", N1, "2025-11-02 01:30", 2025, 11, 2, 1, 30,
	     0, -240),
	R_AT("America/New_York", N1, "2026-03-08 02:30", 2026, 3, 8, 2, 30, 0,
	     -300),
	R_AT("America/New_York", N1, "2026-01-10 10:00", 2026, 1, 10, 10, 0, 0,
	     -300),
	R_AT("America/New_York", N1, "1.year.ago", 2025, 3, 31, 8, 0, 0, -240),
	R_AT("America/New_York", N1, "2026-02-20", 2026, 2, 20, 7, 0, 0, -300),
	R_AT("America/New_York", N2, "2025-07-04", 2025, 7, 4, 8, 0, 0, -240),

	/* half hours: Kolkata +05:30; Lord Howe's daylight time is +30 min */
	R_AT("Asia/Kolkata", N1, "2026-02-20 10:00", 2026, 2, 20, 10, 0, 0,
	     330),
	R_AT("Asia/Kolkata", N1, "2026-02-20", 2026, 2, 20, 17, 30, 0, 330),
	R_AT("Australia/Lord_Howe", N1, "2026-04-05 01:45", 2026, 4, 5, 1, 45,
	     0, 630),
	R_AT("Australia/Lord_Howe", N1, "2025-10-05 02:15", 2025, 10, 5, 2, 15,
	     0, 630),
	R_AT("Australia/Lord_Howe", N1, "1.month.ago", 2026, 3, 3, 23, 0, 0,
	     660),
};


/* Values in which git finds no date at all: refused, as `git config` does. */
static const char *const refused[] = {
	"", "  \t", "today", "a.week.ago", "zero.days.ago", "lastweek", "@",
	"yesterdayz", "bogus",
	/* git config's own words, which git log does not read as dates */
	"all", "false",
};

/* Values git reads as some date, silently: read as git log reads them. */
static const char *const odd[] = {
	"2026-13-01", "2026-00-10", "2026-02-30", "2025-02-29", "2100-02-29",
	"2026-01-00", "2026-01-32", "2026-02-20 24:00", "2026-02-20 10:60",
	"2026-02-20T-1:00", "2026-02-20T10", "26-02-20", "2026/02/20",
	"2026-02-20Z", "2026-02-20 +0100", "2026-02-20 10:00 +2400",
	"2026-02-20 10:00 CET", "2026-02-20 10:00 +0100 x",
	"99999999999999999.weeks.ago", "2147483648.seconds.ago",
	"2147483647.years.ago", "@99999999999999999999", "@4102444800",
	"@5 +01:00", "@-5", "@1700000000x", "5.min.ago", "3.fortnights.ago",
	"3", "last", "006.days.ago", "3.days.ago.x", "now!", "yesterday noon",
	"3.days\nago", "-3.days.ago", "2 wekks ago", "never", "1960-01-01",
};
/* ==================== a second reading of the calendar ==================== */

static bool leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* y-mo-d h:mi:s at `east` minutes east of UTC, counted a day at a time. */
static int64_t wall_at(const int at[7])
{
	static const int mdays[] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};
	int64_t days = 0;

	for (int y = 1970; y < at[0]; y++)
		days += leap(y) ? 366 : 365;
	for (int m = 1; m < at[1]; m++)
		days += mdays[m - 1] + (m == 2 && leap(at[0]));
	days += at[2] - 1;
	return days * DAY + at[3] * HOUR + at[4] * MIN + at[5] - at[6] * MIN;
}

static int64_t expected(const struct accept_row *r)
{
	switch (r->kind) {
	case AGO:
		return r->now - r->value;
	case EPOCH:
		return r->value;
	default:
		return wall_at(r->at);
	}
}

/* ==================== the zone of each test ==================== */

static char *saved_tz;
static bool had_tz;

static void tz_setup(void)
{
	const char *tz = getenv("TZ");

	had_tz = tz != NULL;
	saved_tz = tz ? strdup(tz) : NULL;
}

static void tz_teardown(void)
{
	if (had_tz)
		setenv("TZ", saved_tz, 1);
	else
		unsetenv("TZ");
	tzset();
	free(saved_tz);
	saved_tz = NULL;
}

static void use_tz(const char *tz)
{
	char path[256];

	/* a zone glibc cannot find is UTC, silently: say so instead */
	snprintf(path, sizeof(path), "/usr/share/zoneinfo/%s", tz);
	ck_assert_msg(!strcmp(tz, "UTC") || access(path, R_OK) == 0,
		      "no zone file %s (tzdata)", path);
	setenv("TZ", tz, 1);
	tzset();
}

/* ==================== git's own reading ==================== */

static char *git_dir;

/* Unchecked: one repository for git to run in, read-only in the tests. */
static void git_setup(void)
{
	git_repository *repo = NULL;

	git_dir = gm_test_tmpdir();
	ck_assert_ptr_nonnull(git_dir);
	ck_assert_int_eq(git_repository_init(&repo, git_dir, 0), 0);
	git_repository_free(repo);
}

static void git_teardown(void)
{
	gm_test_rmtree(git_dir);
	git_dir = NULL;
}

static void git_child(int out, const char *tz, int64_t at, const char *in)
{
	char now[32], since[512];

	snprintf(now, sizeof(now), "%lld", (long long)at);
	snprintf(since, sizeof(since), "--since=%s", in);
	if (dup2(out, 1) < 0)
		_exit(126);
	setenv("GIT_TEST_DATE_NOW", now, 1);
	setenv("TZ", tz, 1);
	setenv("HOME", git_dir, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	execlp("git", "git", "-C", git_dir, "rev-parse", since, (char *)NULL);
	_exit(127);
}

/* What `git rev-parse --since=IN` says (git log's reading), at `at` in `tz`. */
static int64_t git_since(const char *tz, int64_t at, const char *in)
{
	char buf[128];
	size_t len = 0;
	ssize_t n;
	int fds[2], status;
	long long v;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = gm_test_fork();
	if (pid == 0) {
		close(fds[0]);
		git_child(fds[1], tz, at, in);
	}
	close(fds[1]);
	while (len + 1 < sizeof(buf) &&
	       (n = read(fds[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "git rev-parse --since='%s' failed", in);
	ck_assert_msg(sscanf(buf, "--max-age=%lld", &v) == 1,
		      "git rev-parse said '%s'", buf);
	return v;
}


/* ==================== the tests ==================== */

/* Now at `now` (GIT_TEST_DATE_NOW) in `tz`, for git. */
static void use_now(const char *tz, int64_t now)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)now);
	setenv("GIT_TEST_DATE_NOW", buf, 1);
	use_tz(tz);
}

START_TEST(test_date_form_means)
{
	const struct accept_row *r = &accepted[_i];
	int64_t got = -42, git = git_since(r->tz, r->now, r->in);

	use_now(r->tz, r->now);
	ck_assert_msg(gm_git_date(&got, r->in, "--since") == 0,
		      "'%s' refused: %s", r->in, gm_error_last());
	ck_assert_msg(got == expected(r), "'%s' in %s: %lld, expected %lld",
		      r->in, r->tz, (long long)got, (long long)expected(r));
	ck_assert_msg(got == git, "'%s' in %s: %lld, git %lld", r->in, r->tz,
		      (long long)got, (long long)git);
}
END_TEST

START_TEST(test_date_odd_value_read_as_git_log_does)
{
	int64_t got = -42, git = git_since("Europe/Berlin", N1, odd[_i]);

	use_now("Europe/Berlin", N1);
	ck_assert_msg(gm_git_date(&got, odd[_i], "--since") == 0,
		      "'%s' refused: %s", odd[_i], gm_error_last());
	ck_assert_msg(got == git, "'%s': %lld, git %lld", odd[_i],
		      (long long)got, (long long)git);
}
END_TEST

START_TEST(test_date_refusal)
{
	char message[256];
	int64_t got = -42;

	use_now("UTC", N1);
	snprintf(message, sizeof(message), "--until: invalid date '%s': git "
		 "reads no date in it", refused[_i]);
	ck_assert_int_eq(gm_git_date(&got, refused[_i], "--until"),
			 GM_EINVALID);
	ck_assert_int_eq(got, -42);
	ck_assert_str_eq(gm_error_last(), message);
}
END_TEST

START_TEST(test_date_message_is_bounded)
{
	char in[3000];
	int64_t got;

	memset(in, 'x', sizeof(in) - 1);
	in[sizeof(in) - 1] = '\0';
	use_now("UTC", N1);
	ck_assert_int_eq(gm_git_date(&got, in, "--since"), GM_EINVALID);
	ck_assert_uint_lt(strlen(gm_error_last()), 400);
}
END_TEST

/*
 * A run's dates are read once, before its questions: they keep them as
 * "now" moves, and --git-since is read only when a walk may need it.
 */
START_TEST(test_date_run_reads_once)
{
	struct gm_options o;
	struct gm_walk_dates d = { 0 }, none = { 0 };
	struct gm_inputs in;
	struct gm_walk w = { 0 };
	char since[] = "3.days.ago", git_since[] = "4.days.ago";

	memset(&in, 0, sizeof(in));
	gm_options_init(&o);
	o.history = 1;
	o.git_fallback = 1;
	o.since = since;
	o.git_since = git_since;
	use_now("UTC", N1);
	ck_assert_int_eq(gm_walk_dates(&d, &o), 0);
	ck_assert(d.known);
	ck_assert_int_eq(d.since, N1 - 3 * DAY);
	ck_assert_int_eq(d.until, INT64_MAX);
	ck_assert_int_eq(d.git_since, N1 - 4 * DAY);
	use_now("UTC", N2);
	o.history = 0;	/* the window without the walk's thread */
	o.email = 1;
	o.git_fallback = 0;
	ck_assert_int_eq(gm_walk_dates(&none, &o), 0);
	ck_assert_int_eq(none.git_since, 0);
	o.history = 1;
	w.serial = true;	/* no walk thread: only the window */
	ck_assert_int_eq(gm_walk_start(&w, NULL, &o, &in, &d), 0);
	ck_assert_int_eq(w.since, N1 - 3 * DAY);
	gm_walk_release(&w);
}
END_TEST

/* ==================== the window (history.h) ==================== */

START_TEST(test_date_window_default_and_open_ends)
{
	int64_t since = 0, until = 0;

	use_now("UTC", N1);
	ck_assert_int_eq(gm_history_window(&since, &until, NULL, NULL,
					   "6.months.ago"), 0);
	ck_assert_int_eq(since, wall_at((const int[7]){ 2025, 10, 1, 12, 0, 0,
							0 }));
	ck_assert_int_eq(until, INT64_MAX);
	ck_assert_int_eq(gm_history_window(&since, &until, NULL, NULL, NULL),
			 0);
	ck_assert_int_eq(since, INT64_MIN);
	ck_assert_int_eq(until, INT64_MAX);
	ck_assert_int_eq(gm_history_window(&since, &until, "last.week",
					   "yesterday", "6.months.ago"), 0);
	ck_assert_int_eq(since, N1 - WEEK);
	ck_assert_int_eq(until, N1 - DAY);
}
END_TEST

START_TEST(test_date_window_refusal_names_the_option)
{
	int64_t since, until;

	use_now("UTC", N1);
	ck_assert_int_eq(gm_history_window(&since, &until, "today", NULL,
					   "6.months.ago"), GM_EUSAGE);
	ck_assert_str_eq(gm_error_last(), "--since: invalid date 'today': "
			 "git reads no date in it");
	ck_assert_int_eq(gm_history_window(&since, &until, NULL, "5.mins",
					   "6.months.ago"), 0);
	ck_assert_int_eq(gm_history_window(&since, &until, NULL, "soon",
					   "6.months.ago"), GM_EUSAGE);
	ck_assert_str_eq(gm_error_last(), "--until: invalid date 'soon': "
			 "git reads no date in it");
	ck_assert_int_eq(gm_history_window(&since, &until, NULL, NULL, "x"),
			 GM_EUSAGE);
	ck_assert_str_eq(gm_error_last(),
			 "--since: invalid date 'x': git reads no date in it");
}
END_TEST

Suite *date_suite(void)
{
	Suite *s = suite_create("date");
	TCase *forms = tcase_create("forms");
	TCase *git = tcase_create("git");
	TCase *errors = tcase_create("errors");
	TCase *window = tcase_create("window");

	tcase_add_checked_fixture(forms, tz_setup, tz_teardown);
	tcase_add_test(forms, test_date_run_reads_once);
	suite_add_tcase(s, forms);

	tcase_add_unchecked_fixture(git, git_setup, git_teardown);
	tcase_add_checked_fixture(git, tz_setup, tz_teardown);
	tcase_add_loop_test(git, test_date_form_means, 0,
			    ARRAY_SIZE(accepted));
	tcase_add_loop_test(git, test_date_odd_value_read_as_git_log_does, 0,
			    ARRAY_SIZE(odd));
	suite_add_tcase(s, git);

	tcase_add_checked_fixture(errors, tz_setup, tz_teardown);
	tcase_add_loop_test(errors, test_date_refusal, 0, ARRAY_SIZE(refused));
	tcase_add_test(errors, test_date_message_is_bounded);
	suite_add_tcase(s, errors);

	tcase_add_checked_fixture(window, tz_setup, tz_teardown);
	tcase_add_test(window, test_date_window_default_and_open_ends);
	tcase_add_test(window, test_date_window_refusal_names_the_option);
	suite_add_tcase(s, window);
	return s;
}
