#ifndef GM_NET_H
#define GM_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "gm/strvec.h"

/*
 * Whether the links of MAINTAINERS answer: an HTTP HEAD request, and what
 * `git ls-remote --exit-code -h` asks of a git server, each to be done
 * before a deadline. No proxy is used and nothing is tried twice. Once
 * gm_net_init() has returned, every function here may run in several
 * threads at once, until gm_net_shutdown().
 *
 * A deadline is a time of gm_net_now(); 0 means none.
 */

/** Milliseconds on a monotonic clock. */
int64_t gm_net_now(void);

/**
 * A TCP connection to `host` (a name, or an address; an IPv6 one without
 * brackets) at `port`, made before `deadline`.
 * @return the socket, or GM_ERROR with a message.
 */
int gm_net_connect(const char *host, const char *port, int64_t deadline);

/** Send all of buf[0..len) before `deadline`. @return 0 or GM_ERROR. */
int gm_net_send(int fd, const void *buf, size_t len, int64_t deadline);

/**
 * Receive up to `len` bytes before `deadline`.
 * @return how many (0 at the end of the stream), or GM_ERROR.
 */
ssize_t gm_net_recv(int fd, void *buf, size_t len, int64_t deadline);

/**
 * HEAD `url` (http:// or https://, redirects followed up to 20 times, as
 * wget does) and tell whether the last answer is a 2xx status. TLS
 * certificates are not verified (wget --no-check-certificate).
 * @return 0 if it is, GM_ENOTFOUND if not (the message says why),
 * GM_EINVALID for a link this program cannot check (https without TLS
 * support in this build), GM_ERROR.
 */
int gm_net_http_check(const char *url, int64_t deadline);

/**
 * Whether the git repository at `url` has a branch: a ref under
 * refs/heads/ and, if `patterns` has any, one whose name, after a '/',
 * matches one of them as `git ls-remote` matches (a glob of the tail).
 * Through libgit2: git://, http(s):// (any certificate accepted), file://
 * and local paths.
 * @return 0 if it has, GM_ENOTFOUND if not (or the server is out of
 * reach, the message says why), GM_EINVALID for an ssh URL (not
 * checked), GM_ERROR.
 */
int gm_net_git_check(const char *url, const struct gm_strvec *patterns,
		     int64_t deadline);

/**
 * Make libgit2's plain sockets honour the calling thread's deadline of
 * gm_net_git_check(); call before any thread does, and pair with
 * gm_net_shutdown() once they are done. @return 0 or GM_ERROR.
 */
int gm_net_init(void);
void gm_net_shutdown(void);

#endif /* GM_NET_H */
