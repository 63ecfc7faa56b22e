#ifndef GM_ENCODING_H
#define GM_ENCODING_H

#include <git2.h>

#include "gm/buf.h"

/*
 * A commit's author and message as `git log` shows them: in UTF-8. A
 * commit with an "encoding" header naming another encoding (git commit
 * with i18n.commitEncoding) has them re-encoded from it with iconv, the
 * whole commit (header and message) at once as git does; where that
 * encoding is unknown or a byte of the commit is not in it (UTF-7's
 * "+0000" time zone is not), git shows all of it as it is, and so do we.
 * Threads: no state.
 */
struct gm_commit_utf8 {
	const char *name;	/* the author's; "" if none */
	const char *email;
	const char *message;
	struct gm_buf buf[2];	/* what they point into, if re-encoded */
};

#define GM_COMMIT_UTF8_INIT { "", "", NULL, { GM_BUF_INIT, GM_BUF_INIT } }

/**
 * Fill `out` with the author and message of the commit object's bytes
 * `text` (NUL-terminated) in UTF-8, its message the one after its header;
 * release it with gm_commit_utf8_release().
 * @return 0 or GM_ERROR (out of memory).
 */
int gm_commit_utf8_text(struct gm_commit_utf8 *out, const char *text);
void gm_commit_utf8_release(struct gm_commit_utf8 *u);

#endif /* GM_ENCODING_H */
