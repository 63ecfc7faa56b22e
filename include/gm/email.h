#ifndef GM_EMAIL_H
#define GM_EMAIL_H

#include <stdbool.h>
#include <stddef.h>

#include "gm/buf.h"
#include "gm/strvec.h"

/*
 * The address model of get_maintainer.pl (spec §8): how a "Name <addr>"
 * string is split, how a name is quoted, and which strings are RFC 822
 * addresses. All functions work on NUL-terminated strings.
 *
 * Threads: every function here may run at the same time as any other, on
 * different output buffers (the RFC 822 regexes are compiled once, under
 * pthread_once(), and only read after).
 */

/**
 * Split `s` into a quoted-if-needed name and an address (R-60). Either
 * may come out empty. The buffers are overwritten. The name is quoted as
 * R-61 says, except where that would not be one valid RFC 5322 quoted
 * string (`Q\` gives `"Q\"`, whose backslash escapes the closing quote):
 * then every '\' and '"' in it is escaped (`"Q\\"`).
 * @return 0 or GM_ERROR (out of memory).
 */
int gm_email_parse(struct gm_buf *name, struct gm_buf *addr, const char *s);

/**
 * A name gm_email_parse() quoted, bare: the quotes off, each backslash
 * escape undone (for JSON, which needs no mail quoting). A name not in
 * quotes stays as it is.
 */
void gm_email_unquote(struct gm_buf *name);

/**
 * Format `name` and `addr` as "Name <addr>", or the bare address when
 * `usename` is 0 or the name is empty. Appends to `out`.
 * @return 0 or GM_ERROR.
 */
int gm_email_format(struct gm_buf *out, const char *name, const char *addr,
		    int usename);

/** gm_email_parse() followed by gm_email_format(); `out` is overwritten. */
int gm_email_normalize(struct gm_buf *out, const char *s, int usename);

/** Whether `s`, comments removed, is one RFC 822 address. */
bool gm_email_rfc822_valid(const char *s);

/**
 * If `s`, comments removed, is an RFC 822 list of addresses,
 * append its addresses to `out` and return 1; return 0 if it is not a
 * list, or GM_ERROR.
 */
int gm_email_rfc822_list(struct gm_strvec *out, const char *s);

/** Whether the byte is whitespace as Perl's \s sees it. */
bool gm_email_isspace(int c);

/**
 * Find the addresses written in a file's text, as get_maintainer.pl does
 * for .yaml files and --file-emails (R-47, 6.1 rules), and append them,
 * cleaned and formatted with names when `usename`, to `out`. With `utf8`,
 * as Linux 6.7 and later do it (--unicode-file-emails): the text read as
 * UTF-8, names of Unicode letters, surrounding quotes and stray
 * punctuation dropped from them. @return 0 or GM_ERROR.
 */
int gm_email_scan_text(struct gm_strvec *out, const char *text, size_t len,
		       int usename, bool utf8);
/**
 * Whether `addr` can stand in a mail header as an address: an RFC 5322
 * addr-spec in its dot-atom form on both sides of one '@' (atext and
 * single dots between them; bytes from 0x80 up pass, as RFC 6532 text).
 * Quoted local parts and domain literals are refused: git send-email
 * does not take them either.
 */
bool gm_email_address_valid(const char *addr);

/** Whether `name` has no control characters (CR, LF, TAB and the like). */
bool gm_email_name_valid(const char *name);

/**
 * Whether `s` is one recipient as this tool may print it, an RFC 5322
 * mailbox: a bare address, or a display name (atoms and quoted strings,
 * blanks between, possibly none) and "<address>" ending the string, with
 * gm_email_address_valid() true of the address, no control character
 * anywhere (TAB included) and no '<' in the name, which R-60 could not
 * read back.
 */
bool gm_email_mailbox_valid(const char *s);

#endif /* GM_EMAIL_H */
