#ifndef GM_NET_H
#define GM_NET_H

#include <stdbool.h>
#include <stddef.h>

#include "gm/strvec.h"

struct gm_progress;

/*
 * Whether the links of MAINTAINERS answer: an HTTP HEAD request (through
 * libcurl), and `git ls-remote --exit-code -h`, as the script runs it,
 * each within its own time limit. Nothing is tried twice. Once gm_net_init() has returned, gm_net_git_check() may run in
 * several threads at once, beside one gm_net_http_check(), until
 * gm_net_shutdown().
 */

/* What a check is given. */
struct gm_net_options {
	int timeout_ms;		/* per link, from its start */
	int parallel;		/* HTTP links checked at once */
	bool insecure;		/* accept any TLS certificate */
	struct gm_progress *progress;	/* one added per link done, or NULL */
};

#define GM_NET_WHY_SIZE 256	/* libcurl's CURL_ERROR_SIZE */

/* One link and, once checked, its answer. */
struct gm_net_link {
	const char *url;
	int result;		/* 0: it answers; GM_ENOTFOUND: it does not;
				   GM_EINVALID: not checked here */
	bool network;		/* the check tried to reach a server */
	bool unreached;		/* ... and reached none: a name that did not
				   resolve, no connection before the limit */
	char why[GM_NET_WHY_SIZE];	/* with a result: why */
};

/**
 * HEAD each of links[0..nr) (http:// or https://; redirects followed up
 * to 20 times, as wget does; 1xx interim answers skipped) and tell in it
 * whether the last answer is a 2xx status (GM_EINVALID for all when
 * libcurl is not loaded). `o->parallel` requests run at once on one
 * libcurl multi handle in the calling thread, each within `o->timeout_ms`
 * of its start. Certificates are verified unless
 * `o->insecure`; the proxy environment (http_proxy, https_proxy,
 * no_proxy) is honoured.
 * @return 0 (the answers are in the links), or GM_ERROR (libcurl cannot
 * start).
 */
int gm_net_http_check(struct gm_net_link **links, size_t nr,
		      const struct gm_net_options *o);

/**
 * Whether the git repository at `link->url` has a branch: `git ls-remote
 * --exit-code -h -- URL PATTERNS...` (with `-c http.sslVerify=false` if
 * `o->insecure`; no terminal prompt), killed with the process group it
 * starts once `o->timeout_ms` have passed. An ssh URL is not checked;
 * one that reaches no server (git says the name does not resolve, or the
 * connection was refused) is `unreached`.
 * @return link->result.
 */
int gm_net_git_check(struct gm_net_link *link,
		     const struct gm_strvec *patterns,
		     const struct gm_net_options *o);

/**
 * Load libcurl (GM_LIBCURL, with dlopen: a run that checks no link does
 * not pay for loading it); call before any check, and pair with
 * gm_net_shutdown() once they are done. Without a usable libcurl,
 * gm_net_http_check() answers GM_EINVALID for every link, the reason in
 * its why[].
 * @return 0 or GM_ERROR.
 */
int gm_net_init(void);
void gm_net_shutdown(void);

/** Whether `url` names a server to reach (http, https, git). */
bool gm_net_remote(const char *url);

/**
 * Whether the network is out of reach, judged before any check: no proxy
 * is set, and the names of the first (at most three) distinct hosts of
 * the remote URLs of links[0..nr) all fail to resolve. `why` then gets the
 * first failure ("cannot resolve 'HOST': ..."). Seconds at most, where
 * the checks would wait for each link's time limit.
 */
bool gm_net_offline(struct gm_net_link *const *links, size_t nr,
		    char why[GM_NET_WHY_SIZE]);

#endif /* GM_NET_H */
