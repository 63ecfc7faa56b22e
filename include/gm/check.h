#ifndef GM_CHECK_H
#define GM_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "gm/buf.h"
#include "gm/mailmap.h"
#include "gm/maintainers.h"
#include "gm/match.h"
#include "gm/rank.h"
#include "gm/strmap.h"
#include "gm/strvec.h"

/*
 * --check: whether a posted patch reached the people the rules name
 * (recipients), and whether each section it touches has signed off
 * (approvals). Everything here works on texts and models it is given:
 * src/cli reads the mails, runs the query and reads the commits.
 *
 * People are compared by a key: the address after the .mailmap, lower
 * case. Threads: one struct gm_check belongs to one thread.
 */

/* One message of a mail file or mbox; points into the caller's text. */
struct gm_check_mail {
	const char *text;	/* from its first header line */
	size_t len;
	size_t body;		/* offset of the body, after the blank line */
};

/**
 * The next message of the mbox `text[*pos..len)` into `m`: a message
 * ends where a line "From " follows an empty line (or the text ends); a
 * leading "From " line is skipped. @return false when none is left.
 */
bool gm_check_next_mail(struct gm_check_mail *m, const char *text,
			size_t len, size_t *pos);

/**
 * Every `name:` header of `m` (case ignored), unfolded, blanks before
 * each value dropped, joined by ", ", into `out` (overwritten; "" if
 * none). @return 1 if there was one, 0 if not, or GM_ERROR.
 */
int gm_check_header(struct gm_buf *out, const struct gm_check_mail *m,
		    const char *name);

enum gm_check_verdict {
	GM_CHECK_MISSING,	/* required, not reached (not covered) */
	GM_CHECK_ADVICE,	/* not required, not reached */
	GM_CHECK_OK,		/* reached (covered) */
	GM_CHECK_APART		/* approvals: THE REST, a section of nobody */
};

/*
 * One line of a verdict. Recipients: `who` a person or list, `why` its
 * role ("maintainer:BETA", "author of Fixes: 1234"), `via` the address
 * that reached it when not its own. Approvals: `who` a section, `why`
 * how it was covered ("Acked-by: A <a@b>") or why it is apart, `could`
 * who could cover it.
 */
struct gm_check_item {
	enum gm_check_verdict verdict;
	char *who;
	char *why;
	char *via;
	struct gm_strvec could;
};

/* The verdict on one patch or commit. */
struct gm_check_patch {
	char *name;		/* file, "file:N" in an mbox, or commit id */
	char *subject;
	struct gm_check_item *v;
	size_t nr, alloc;
	size_t missing;		/* items GM_CHECK_MISSING */
};

struct gm_check {
	const struct gm_mailmap *mailmap;	/* may be NULL */
	bool reviewers;		/* R: required; in approvals, R: approve */
	bool history;		/* history and file people required */
	bool approvals;		/* the approvals check, else recipients */
	struct gm_strmap reached;	/* key -> the address written when
					   the .mailmap changed it, else "";
					   approvals: how they approved */
	struct gm_strvec held;	/* the values of `reached` */
	struct gm_check_patch *v;	/* verdicts, in order */
	size_t nr, alloc;
	struct gm_buf key, name, addr, mapped;	/* key_of()'s */
};

/** Start with no verdicts; `mailmap` must outlive `c`. */
void gm_check_init(struct gm_check *c, const struct gm_mailmap *mailmap);
void gm_check_release(struct gm_check *c);

/**
 * The recipients verdict on the mail `mail` (its To: and Cc:, and those
 * of `cover`, the series' cover letter, or NULL), named `name`: every
 * person and list of `rk` (a finished ranking of the patch), M:, lists
 * and `fixes` required, R: and the rest by c->reviewers and c->history;
 * `fixes` holds pairs, a mailbox then its reason. @return 0 or GM_ERROR.
 */
int gm_check_recipients(struct gm_check *c, const char *name,
			const struct gm_check_mail *mail,
			const struct gm_check_mail *cover,
			const struct gm_rank *rk, const struct gm_strvec *fixes);

/**
 * The approvals verdict on the mail `mail` (a patch, or a commit's
 * message and files, then with its `committer`, else NULL): for
 * each section of `m` that `mt` matched, whether an M: person (and R:
 * with c->reviewers) acked or reviewed it, signed it off after the
 * author, or committed it. A catch-all (a lone-star F:) and a section
 * without such people are apart. @return 0 or GM_ERROR.
 */
int gm_check_approvals(struct gm_check *c, const char *name,
		       const struct gm_check_mail *mail,
		       const char *committer, const struct gm_maintainers *m,
		       const struct gm_matches *mt);

/** The verdicts as text, or one JSON document. @return 0 or GM_ERROR. */
int gm_check_write(FILE *f, const struct gm_check *c, bool json);

/** Items GM_CHECK_MISSING over all verdicts. */
size_t gm_check_missing(const struct gm_check *c);

#endif /* GM_CHECK_H */
