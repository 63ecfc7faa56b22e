#include "gm/signers_commit.h"

#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/email.h"
#include "gm/encoding.h"
#include "gm/error.h"
#include "gm/objects.h"
#include "gm/trailer.h"

static bool is_commit_line(const char *s)
{
	if (strncmp(s, "GitCommit: ", 11))
		return false;
	for (int i = 0; i < GIT_OID_HEXSZ; i++) {
		char c = s[11 + i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return false;
	}
	return true;
}

/* Whether `s` starts with "<digits>\t<digits>\t", as numstat lines do. */
static bool is_stat_like(const char *s)
{
	for (int k = 0; k < 2; k++) {
		const char *d = s;

		while (*s >= '0' && *s <= '9')
			s++;
		if (s == d || *s++ != '\t')
			return false;
	}
	return true;
}

/* One line of the script's output, white space at its start removed. */
static int classify_line(struct gm_signers_commit *out, const char *s,
			 size_t len, bool all_types, bool body)
{
	struct gm_buf line = GM_BUF_INIT;
	int error = 0;

	while (len && gm_email_isspace((unsigned char)*s))
		s++, len--;
	if (!len)
		return 0;
	if ((error = gm_buf_put(&line, s, len)) < 0)
		return error;
	if (is_commit_line(line.ptr))
		out->commit_lines++;
	if (!strncmp(line.ptr, "GitAuthor: ", 11))
		error = gm_strvec_push(&out->authors, line.ptr);
	if (!error && gm_trailer_is_signature(line.ptr, line.len, all_types))
		error = gm_strvec_push(&out->signatures, line.ptr);
	if (!error && body && is_stat_like(line.ptr))
		error = gm_strvec_push(&out->stat_like, line.ptr);
	gm_buf_release(&line);
	return error;
}

/*
 * The entry of `--format="GitCommit: %H%nGitAuthor: %an <%ae>%nGitDate:
 * %aD%nGitSubject: %s%n%b%n"`: %s is the first paragraph, its lines
 * joined by spaces, %b the rest. The date line can match nothing.
 */
int gm_signers_commit_read(struct gm_signers_commit *out, git_commit *c,
			   bool all_types)
{
	struct gm_commit_utf8 u = GM_COMMIT_UTF8_INIT;
	struct gm_buf line = GM_BUF_INIT, subject = GM_BUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	bool in_subject = true;
	const char *msg;
	int error;

	memset(out, 0, sizeof(*out));
	out->id = *gm_objects_commit_id(c);
	gm_oid_hex(hex, &out->id);
	if ((error = gm_commit_utf8(&u, c, gm_objects_commit_message(c))) < 0 ||
	    (error = gm_buf_printf(&line, "%s <%s>", u.name, u.email)) < 0)
		goto out;
	msg = u.message;
	if (!(out->author = strdup(line.ptr))) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	gm_buf_reset(&line);
	if ((error = gm_buf_printf(&line, "GitCommit: %s", hex)) < 0 ||
	    (error = classify_line(out, line.ptr, line.len, all_types, false)) < 0)
		goto out;
	gm_buf_reset(&line);
	if ((error = gm_buf_printf(&line, "GitAuthor: %s", out->author)) < 0 ||
	    (error = classify_line(out, line.ptr, line.len, all_types, false)) < 0)
		goto out;
	if ((error = gm_buf_puts(&subject, "GitSubject: ")) < 0)
		goto out;
	while (msg && *msg && !error) {
		size_t len = strcspn(msg, "\n"), n = len;
		bool blank = true;

		for (size_t i = 0; i < len && blank; i++)
			blank = gm_email_isspace((unsigned char)msg[i]);
		if (in_subject && blank && subject.len > 12) {
			in_subject = false;
		} else if (in_subject && !blank) {
			while (n && gm_email_isspace((unsigned char)msg[n - 1]))
				n--;
			if (subject.len > 12)
				error = gm_buf_putc(&subject, ' ');
			if (!error)
				error = gm_buf_put(&subject, msg, n);
		} else if (!in_subject) {
			error = classify_line(out, msg, len, all_types, true);
		}
		msg += len + (msg[len] == '\n');
	}
	if (!error)
		error = classify_line(out, subject.ptr, subject.len, all_types,
				      false);
out:
	gm_commit_utf8_release(&u);
	gm_buf_release(&line);
	gm_buf_release(&subject);
	if (error)
		gm_signers_commit_release(out);
	return error;
}

char *gm_signers_commit_hex(const struct gm_signers_commit *c,
			    char out[GIT_OID_HEXSZ + 1])
{
	return gm_oid_hex(out, &c->id);
}

void gm_signers_commit_release(struct gm_signers_commit *c)
{
	gm_strvec_release(&c->authors);
	gm_strvec_release(&c->signatures);
	gm_strvec_release(&c->stat_like);
	free(c->author);
	c->author = NULL;
}
