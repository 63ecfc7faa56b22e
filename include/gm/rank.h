#ifndef GM_RANK_H
#define GM_RANK_H

#include <stdbool.h>
#include <stddef.h>

#include "gm/buf.h"
#include "gm/history.h"
#include "gm/maintainers.h"
#include "gm/match.h"
#include "gm/mailmap.h"
#include "gm/signers.h"
#include "gm/strmap.h"
#include "gm/strvec.h"

/*
 * What the rank takes from the command line: src/cli fills it from its
 * options, whose names (get_maintainer.pl's long options) it keeps.
 * Rankings only read it, so one may serve the rankings of all threads.
 */
struct gm_rank_settings {
	/* whom to name, and how */
	bool email;		/* --email: people at all */
	bool maintainers;	/* -m: M: entries */
	bool reviewers;		/* -r: R: entries */
	bool usename;		/* -n: names in addresses */
	bool lists;		/* -l: open (and moderated) lists */
	bool subscriber_lists;	/* -s: subscribers-only lists */
	bool moderated;		/* --moderated */
	bool remove_duplicates;	/* --remove-duplicates */
	bool rolestats;		/* --rolestats: roles with their counts */
	bool substatus;		/* --substatus, its default resolved */

	/* what forks of the script and later Linux scripts do (6.1: off) */
	bool drop_rest_supporter;	/* --drop-the-rest-supporter */
	bool reviewer_section;	/* --reviewer-section: "reviewer:NAME" */
	int section_name_max;	/* --section-name-max: role names cut */
	bool named_lists;	/* --named-lists: L: as "Name <addr>" */
	bool git_author_roles;	/* --git-author-roles: authored, lines */
	bool maintainer_roles;	/* every M: is "maintainer:" but THE REST's */
	bool keyword_roles;	/* ":Keyword:<K>" after a K: section's roles */
	const struct gm_strvec *penguins;	/* "Name:addr"; NULL or none:
						   Linux's */

	/* the history's people */
	bool from_filename;	/* -f: the arguments are paths */
	bool git_blame_signatures;	/* --git-blame-signatures */
	bool git_all_signature_types;	/* --git-all-signature-types */
	bool git_chief_penguins;	/* --git-chief-penguins */
	int git_min_signatures;	/* --git-min-signatures */
	int git_max_maintainers;	/* --git-max-maintainers */
	int git_min_percent;	/* --git-min-percent */
	bool history;		/* --history */
	int max_recipients;	/* --max-recipients: -1 as many as the
				   sections give, 0 all */
};

/*
 * The recipients, built the way get_maintainer.pl builds them: people and
 * lists from matched sections in order, de-duplicated by name and address
 * normalised through .mailmap, with roles that later
 * sources append to. Also the other output groups.
 *
 * Threads: one struct gm_rank belongs to one thread at a time; calls on
 * different rankings, and gm_rank_is_penguin_line(), may
 * run at the same time.
 */
/* Where a person came from; an entry may have several. */
enum gm_rank_kind {
	GM_KIND_MAINTAINER = 1 << 0,	/* an M: line */
	GM_KIND_REVIEWER = 1 << 1,	/* an R: line */
	GM_KIND_HISTORY = 1 << 2,	/* the history walk */
	GM_KIND_FIXES = 1 << 3,		/* a signer of a Fixes: commit */
	GM_KIND_IN_FILE = 1 << 4,	/* written in one of the files */
	GM_KIND_CHIEF = 1 << 5		/* --git-chief-penguins */
};

/*
 * --history's ranking. A person's place in the sections matched: M: or
 * R: of a section that claims only part of the tree, or of a catch-all
 * one (an F: pattern of a lone star, with or without a slash, as in
 * THE REST).
 */
enum gm_rank_scope {
	GM_SCOPE_NONE = 0,	/* in no section */
	GM_SCOPE_CATCHALL = 1,	/* of catch-all sections only, and some
				   other section has its own M: */
	GM_SCOPE_REVIEWER = 2,	/* R: of a section of its own */
	GM_SCOPE_MAINTAINER = 3	/* M: of a section of its own (or of the
				   catch-all when no section has one) */
};

struct gm_rank_entry {
	char *addr;	/* "Name <addr>" or a bare address */
	struct gm_strvec roles;	/* one by one, in the order given */
	const struct gm_history_person *history;	/* activity, or NULL */
	const struct gm_mline *source;	/* the M:/R:/L: line, or NULL */
	unsigned kinds;		/* enum gm_rank_kind bits */
	double score;	/* --history's, once ranked */
	enum gm_rank_scope scope;	/* --history's, once ranked */
};

struct gm_rank_list {
	struct gm_rank_entry *v;
	size_t nr;
	size_t alloc;
};

/*
 * What rankings may remember across questions: answers of pure functions
 * of a value (RFC 822 validity, the .mailmap's form of an address), for
 * one set of options and one .mailmap. Zeroed to start; one thread's.
 */
struct gm_rank_memo {
	struct gm_strmap valid;		/* value -> non-NULL if valid */
	struct gm_strmap mapped;	/* key -> its mapped form (char *) */
	struct gm_strmap persons;	/* address line -> its parts */
	struct gm_buf key;
};

struct gm_rank {
	const struct gm_rank_settings *set;	/* the output reads it too */
	const struct gm_mailmap *mailmap;	/* may be NULL */
	struct gm_rank_list people;
	struct gm_rank_list lists;
	struct gm_strmap seen_name;		/* lc(name) of people added */
	struct gm_strmap seen_addr;		/* lc(addr) of people added */
	struct gm_strmap seen_list;		/* lc(addr) of lists added */
	struct gm_strmap dedup_name;		/* lc(name) -> "name\0addr" */
	struct gm_strmap dedup_addr;		/* lc(addr) -> "name\0addr" */
	struct gm_strvec scm, substatus, status, subsystem, web, bug;
	const struct gm_strvec *ignore;		/* the caller's, or NULL */
	struct gm_rank_memo *memo;		/* the caller's, or NULL */
	struct gm_strvec warnings;		/* for stderr, raw, in order */
	unsigned kind;				/* of the entries being added */
	struct gm_strmap scopes;	/* --history: short section name ->
					   1 (own part of the tree), 2 (all) */
	const struct gm_maintainers *m;		/* of the last section added */
	const struct gm_mline *line;		/* the line being added */
	struct gm_rank_list cut;	/* --history: the people ranked but
					   not listed, best first */
	struct gm_history_person *hist;	/* --history: the walk's people, one
					   per identity the output names */
	size_t nr_hist;
};

/**
 * Start an empty ranking with settings `set`; they and `mailmap` must
 * outlive it. A caller may then set `ignore` (gm_rank_parse_ignore()'s
 * list) and `memo`, kept across the rankings one thread makes with the
 * same settings and .mailmap (gm_rank_memo_release() frees it).
 */
void gm_rank_init(struct gm_rank *rk, const struct gm_rank_settings *set,
		  const struct gm_mailmap *mailmap);
void gm_rank_release(struct gm_rank *rk);

/** The roles of `e` joined by commas ("" for none) into `out`. */
int gm_rank_roles(struct gm_buf *out, const struct gm_rank_entry *e);

/**
 * Take the entries of section `s` (R-50..R-55): people, lists, T:, W:,
 * B:, S:, the name and the status line. @return 0 or GM_ERROR.
 */
int gm_rank_add_section(struct gm_rank *rk, const struct gm_maintainers *m,
			size_t s);

/**
 * --drop-the-rest-supporter, Xen's step after the files' sections and
 * before the keywords': when every file of `matches` matched a section
 * whose M: role is not "supporter:THE REST", there are two people or
 * more, and one of them has a role other than that and "reviewer", drop
 * every person whose role is exactly "supporter:THE REST".
 * @return 0 or GM_ERROR.
 */
int gm_rank_drop_rest_supporter(struct gm_rank *rk,
				const struct gm_maintainers *m,
				const struct gm_matches *matches);

/**
 * gm_rank_add_section() for the section holding the K: line `line` that
 * a keyword hit. With --keyword-roles, every role, T:, W:, B:, S:
 * and status line it gives ends in ":Keyword:<the K: value>", as later
 * Linux scripts print them. @return 0 or GM_ERROR.
 */
int gm_rank_add_keyword_section(struct gm_rank *rk,
				const struct gm_maintainers *m, size_t line);

/** Normalise every entry through .mailmap and the dedup tables. */
int gm_rank_normalize(struct gm_rank *rk);

/**
 * vcs_assign() of R-74 for entries of `kind`: `lines` (signers, one per
 * line) through the .mailmap, each distinct one counted, most first then
 * by string, and the frequent ones added with role
 * "<role>:<n>/<divisor>=<p>%". `facts`, if not NULL, keeps the counts
 * (where it has room). @return 0 or GM_ERROR.
 */
int gm_rank_assign(struct gm_rank *rk, const char *role, int divisor,
		   const struct gm_strvec *lines, unsigned kind,
		   struct gm_signers_facts *facts);

/**
 * Last steps for people: drop (or keep) the chief penguin, then add
 * the addresses found in the files. @return 0 or GM_ERROR.
 */
int gm_rank_finish(struct gm_rank *rk, const struct gm_strvec *file_emails);

/**
 * Merge the history ranking `h` in. The walk's people are first taken as
 * the output names people: each through gm_rank_dedup() (the .mailmap,
 * and with --remove-duplicates one address per name), the counts of
 * identities that meet summed (commits at most h->commits). People
 * already listed get their activity appended to their roles
 * ("history_commits:N/M=P%", "history_authored:...",
 * "history_reviewed:..." for Reviewed-by:/Acked-by: lines), or
 * "inactive" when the window has no commit they authored, committed or
 * are named in; the others the walk found are added. Then every person
 * (one entry per address, roles merged) gets a scope and a score
 * (how likely they are to review the patch: a weight for their scope,
 * plus, from the walk, capped weights for their review lines in the
 * window, their sign-offs and commits, the review lines on the author's
 * other commits and on the files over two years; src/rank/rank.c's
 * constants, chosen by bench/quality-fit, doc/quality.md). The people
 * are ordered by score, the order of the script kept in ties, and cut
 * to the budget: --max-recipients people (0: no cut), by default as
 * many as were listed before (what get_maintainer.pl would name; none
 * if none were). The chief penguin and the signers of Fixes: commits
 * are never cut; the best of the others fill what they leave. The
 * patch's author (h->author) takes no place and counts in no budget but
 * an unlimited one. Those cut go to rk->cut, best first. Sections are
 * known by their names as the roles show them (cut by
 * --section-name-max; "reviewer" alone with --no-reviewer-section).
 * Lists are not touched. Trailer values the walk refused (h->rejected)
 * are reported in one warning. @return 0 or GM_ERROR.
 */
int gm_rank_add_history(struct gm_rank *rk, const struct gm_history *h);

/**
 * Drop every person and list that is not one RFC 5322 mailbox as
 * gm_email_mailbox_valid() says (control characters, no '@', an address
 * not in dot-atom form, several addresses in one, a name that no quoting
 * makes valid), with a warning "dropped malformed address '...'" each:
 * the output is fed into mail headers. @return 0 or GM_ERROR.
 */
int gm_rank_sanitize(struct gm_rank *rk);

/**
 * The addresses of .get_maintainer.ignore text, appended to `out`.
 * @return 0 or GM_ERROR.
 */
int gm_rank_parse_ignore(struct gm_strvec *out, const char *buf, size_t len);

void gm_rank_memo_release(struct gm_rank_memo *memo);

/** deduplicate_email() of R-65 on one string; `out` is overwritten. */
int gm_rank_dedup(struct gm_rank *rk, struct gm_buf *out, const char *s);

/**
 * R-73's chief-penguin line filter, `/(Linus Torvalds)/i` in Linux:
 * whether `line` (`len` bytes) contains a chief penguin's name, ASCII
 * case ignored. The penguins are s->penguins (the tree's script's), or
 * Linux's Linus Torvalds when there are none or `s` is NULL.
 * Signature lines that match are no signers unless --git-chief-penguins.
 */
bool gm_rank_is_penguin_line(const struct gm_rank_settings *s,
			     const char *line, size_t len);

/**
 * The signers of one commit, as get_maintainer.pl takes them for a
 * Fixes: commit and for --git, appended to `out` in order,
 * repeats kept (one per line):
 * 1. the lines of `text` as gm_trailer_next_line() splits them;
 * 2. those gm_trailer_is_signature() takes, all types under
 *    --git-all-signature-types;
 * 3. unless --git-chief-penguins, not those for which
 *    gm_rank_is_penguin_line() holds;
 * 4. each cut with gm_trailer_signature_value(), then normalised twice
 *    with gm_rank_dedup() (R-73 step 2, and the second pass of the
 *    callers), so people first seen here enter rk's dedup tables.
 * `text` is the commit message body; the script reads the whole
 * `git log --format=...` output, whose GitSubject:/GitAuthor: lines can
 * count only under --git-all-signature-types (a "by:" and an '@' in the
 * subject or the author's name), so a caller that wants those too passes
 * them in `text` as lines of that output.
 * @return 0 or GM_ERROR.
 */
int gm_rank_signers(struct gm_rank *rk, struct gm_strvec *out,
		    const char *text, size_t len);

#endif /* GM_RANK_H */
