#include "gm/date.h"

#include <inttypes.h>

#include "gm/error.h"
#include "gm/repo.h"

int gm_git_date(int64_t *out, const char *value, const char *what)
{
	struct gm_buf arg = GM_BUF_INIT, text = GM_BUF_INIT;
	const char *argv[] = {
		"git", "-c", NULL, "config", "--type=expiry-date", "gm.date",
		NULL,
	};
	char *end = NULL;
	uintmax_t t = 0;
	int rc = -1, error = 0;

	/*
	 * A space first, which git skips, so that git config's own words
	 * (now, all, never, false) are read as dates are; none before '@',
	 * which git reads as a commit's date only at the start.
	 */
	if (!gm_buf_printf(&arg, "gm.date=%s%s", *value == '@' ? "" : " ",
			   value)) {
		argv[2] = arg.ptr;
		rc = gm_git_run(argv, NULL, &text, NULL);
	}
	if (!rc)
		t = strtoumax(text.ptr, &end, 10);
	if (rc > 0)
		error = gm_error_set(GM_EINVALID, "%s: invalid date '%.100s': "
				     "git reads no date in it", what, value);
	else if (rc || end == text.ptr || *end != '\n')
		error = gm_error_set(GM_ERROR, "cannot read a date with git "
				     "config --type=expiry-date");
	else
		*out = t > INT64_MAX ? INT64_MAX : (int64_t)t;
	gm_buf_release(&arg);
	gm_buf_release(&text);
	return error;
}
