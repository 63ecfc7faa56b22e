#include "gm/net.h"

#include <dlfcn.h>
#include <netdb.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include <curl/curl.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/progress.h"
#include "gm/repo.h"

#define HTTP_MAX_REDIRECTS 20	/* wget's --max-redirect default */

_Static_assert(GM_NET_WHY_SIZE >= CURL_ERROR_SIZE,
	       "a link's why[] is libcurl's error buffer");

static void link_fail(struct gm_net_link *link, int result, const char *why)
{
	link->result = result;
	snprintf(link->why, sizeof(link->why), "%s", why);
}

/* ==================== libcurl, loaded by gm_net_init() ==================== */

/*
 * libcurl and the twenty libraries it brings are loaded only by a run
 * that checks links: linked in, they would cost every run of the
 * program some milliseconds to start. The table is written by
 * gm_net_init() and gm_net_shutdown() alone, before and after the
 * checks. LC_FUNCTIONS lists the functions used, without "curl_".
 */
#define LC_FUNCTIONS(X)                                                    \
	X(global_init) X(global_cleanup) X(version_info) X(easy_init)      \
	X(easy_setopt) X(easy_getinfo) X(easy_strerror) X(easy_cleanup)   \
	X(multi_init) X(multi_add_handle) X(multi_remove_handle)           \
	X(multi_perform) X(multi_poll) X(multi_info_read) X(multi_cleanup)

#define LC_POINTER(name) __typeof__(curl_##name) *name;
static struct libcurl {
	void *dl;		/* NULL: not loaded, `why` says why */
	char why[256];
	LC_FUNCTIONS(LC_POINTER)
} lc;

/* POSIX: a function's address fits a void * (dlsym()'s own example) */
#define LC_SYMBOL(name)                                                   \
	if (!why && !(*(void **)&lc.name = dlsym(lc.dl, "curl_" #name))) \
		why = "a function is missing";

void gm_net_shutdown(void)
{
	if (lc.dl) {
		lc.global_cleanup();
		dlclose(lc.dl);
	}
	memset(&lc, 0, sizeof(lc));
}

/* Load GM_LIBCURL; without it (or too old) lc.dl is NULL, lc.why says why. */
static void lc_load(void)
{
	const char *why = NULL;

	memset(&lc, 0, sizeof(lc));
	if (!(lc.dl = dlopen(GM_LIBCURL, RTLD_NOW | RTLD_LOCAL))) {
		snprintf(lc.why, sizeof(lc.why), "%s", dlerror());
		return;
	}
	LC_FUNCTIONS(LC_SYMBOL)
	if (!why && lc.version_info(CURLVERSION_NOW)->version_num < 0x075500)
		why = "version 7.85 or later is needed";
	if (!why && lc.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		why = "it cannot start";
	if (why) {
		dlclose(lc.dl);
		memset(&lc, 0, sizeof(lc));
		snprintf(lc.why, sizeof(lc.why), "%s: %s", GM_LIBCURL, why);
	}
}

/* ==================== HTTP HEAD, through libcurl ==================== */

/* `url` with its control, space and non-ASCII bytes %-encoded, as wget. */
static char *http_encode(const char *url)
{
	struct gm_buf b = GM_BUF_INIT;
	int error = 0;

	for (const unsigned char *p = (const unsigned char *)url; *p && !error;
	     p++)
		error = *p <= ' ' || *p >= 0x7f ? gm_buf_printf(&b, "%%%02X", *p)
						: gm_buf_putc(&b, (char)*p);
	if (error) {
		gm_buf_release(&b);
		return NULL;
	}
	return gm_buf_detach(&b, NULL);
}

/* A HEAD request for `link` (number `i`), to `url`. @return it, or NULL. */
static CURL *http_request(struct gm_net_link *link, const char *url,
			  size_t i, const struct gm_net_options *o)
{
	CURL *easy = lc.easy_init();
	bool ok;

	if (!easy)
		return NULL;
	ok = !lc.easy_setopt(easy, CURLOPT_URL, url) &&
	     !lc.easy_setopt(easy, CURLOPT_PRIVATE, (void *)(uintptr_t)i) &&
	     !lc.easy_setopt(easy, CURLOPT_ERRORBUFFER, link->why) &&
	     !lc.easy_setopt(easy, CURLOPT_NOBODY, 1L) &&
	     !lc.easy_setopt(easy, CURLOPT_NOSIGNAL, 1L) &&
	     !lc.easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https") &&
	     !lc.easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR,
			       "http,https") &&
	     !lc.easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L) &&
	     !lc.easy_setopt(easy, CURLOPT_MAXREDIRS,
			       (long)HTTP_MAX_REDIRECTS) &&
	     !lc.easy_setopt(easy, CURLOPT_TIMEOUT_MS, (long)o->timeout_ms) &&
	     !lc.easy_setopt(easy, CURLOPT_USERAGENT,
			       "git-maintainer/" GM_VERSION);
	if (ok && o->insecure)
		ok = !lc.easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 0L) &&
		     !lc.easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 0L);
	if (!ok) {
		lc.easy_cleanup(easy);
		return NULL;
	}
	return easy;
}

/* The HEAD requests of one gm_net_http_check(). */
struct http_run {
	CURLM *multi;
	struct gm_net_link **links;
	CURL **easy;		/* links[i]'s request while it runs */
	const struct gm_net_options *o;
};

/*
 * Start the check of links[i]. A link that needs no request (https
 * without TLS here) gets its answer at once.
 * @return 1 if a request runs, 0 if not, GM_ERROR.
 */
static int http_start(struct http_run *run, size_t i)
{
	struct gm_net_link *link = run->links[i];
	char *url = NULL;
	CURL *easy = NULL;

	memset(link->why, 0, sizeof(link->why));
	link->result = GM_ENOTFOUND;
	link->network = link->unreached = false;
	if (!strncasecmp(link->url, "https:", 6) &&	/* no TLS here */
	    !(lc.version_info(CURLVERSION_NOW)->features & CURL_VERSION_SSL)) {
		link_fail(link, GM_EINVALID,
			  "https links are not checked: libcurl here has no TLS");
		return 0;
	}
	if (!(url = http_encode(link->url)) ||
	    !(easy = http_request(link, url, i, run->o)) ||
	    lc.multi_add_handle(run->multi, easy) != CURLM_OK) {
		free(url);
		lc.easy_cleanup(easy);
		return gm_error_set(GM_ERROR, "cannot start a request for %s",
				    link->url);
	}
	free(url);	/* libcurl keeps its own copy */
	run->easy[i] = easy;
	link->network = true;
	return 1;
}

/* Whether `code` says no server was reached, the transfer being `easy`. */
static bool http_unreached(CURL *easy, CURLcode code)
{
	curl_off_t connected = 0;
	long redirects = 0;

	if (code != CURLE_COULDNT_RESOLVE_HOST &&
	    code != CURLE_COULDNT_RESOLVE_PROXY &&
	    code != CURLE_COULDNT_CONNECT &&
	    code != CURLE_OPERATION_TIMEDOUT)
		return false;
	lc.easy_getinfo(easy, CURLINFO_CONNECT_TIME_T, &connected);
	lc.easy_getinfo(easy, CURLINFO_REDIRECT_COUNT, &redirects);
	return !connected && !redirects;
}

/* The answer of the finished request `easy` of `link`. */
static void http_finish(struct gm_net_link *link, CURL *easy, CURLcode code)
{
	long status = 0;

	lc.easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
	if (code == CURLE_OK && status >= 200 && status < 300) {
		link->result = 0;
	} else if (code == CURLE_OK) {
		snprintf(link->why, sizeof(link->why), "HTTP status %ld",
			 status);
	} else {
		if (!link->why[0])
			link_fail(link, GM_ENOTFOUND, lc.easy_strerror(code));
		link->unreached = http_unreached(easy, code);
	}
}

/* Take the finished requests off the multi handle. @return how many. */
static size_t http_reap(struct http_run *run)
{
	CURLMsg *msg;
	size_t done = 0;
	int left;

	while ((msg = lc.multi_info_read(run->multi, &left))) {
		char *i = NULL;

		if (msg->msg != CURLMSG_DONE)
			continue;
		lc.easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &i);
		http_finish(run->links[(uintptr_t)i], msg->easy_handle,
			    msg->data.result);
		gm_progress_add(run->o->progress, 1);
		run->easy[(uintptr_t)i] = NULL;
		lc.multi_remove_handle(run->multi, msg->easy_handle);
		lc.easy_cleanup(msg->easy_handle);
		done++;
	}
	return done;
}

/* Stop the requests still running (after an error), free the rest. */
static void http_run_release(struct http_run *run, size_t nr)
{
	for (size_t i = 0; run->easy && i < nr; i++) {
		if (!run->easy[i])
			continue;
		lc.multi_remove_handle(run->multi, run->easy[i]);
		lc.easy_cleanup(run->easy[i]);
	}
	free(run->easy);
	lc.multi_cleanup(run->multi);
}

int gm_net_http_check(struct gm_net_link **links, size_t nr,
		      const struct gm_net_options *o)
{
	struct http_run run = { NULL, links, NULL, o };
	size_t parallel = o->parallel > 0 ? (size_t)o->parallel : 1;
	size_t next = 0, running = 0, done = 0;
	int error = 0, still, rc;

	for (size_t i = 0; !lc.dl && i < nr; i++) {
		links[i]->network = links[i]->unreached = false;
		links[i]->result = GM_EINVALID;
		snprintf(links[i]->why, sizeof(links[i]->why),
			 "not checked: %.200s", lc.why);
	}
	if (!lc.dl)
		return 0;
	run.multi = lc.multi_init();
	if (!run.multi || !(run.easy = calloc(nr + 1, sizeof(*run.easy))))
		error = gm_error_set(GM_ERROR, "cannot start libcurl");
	while (!error && (next < nr || running)) {
		while (!error && next < nr && running < parallel) {
			if ((rc = http_start(&run, next++)) < 0)
				error = rc;
			running += rc > 0;
		}
		if (!error && lc.multi_perform(run.multi, &still) != CURLM_OK)
			error = gm_error_set(GM_ERROR, "libcurl failed");
		if (!error)
			running -= (done = http_reap(&run));
		/* a request done: start the next at once, before any wait */
		if (!error && running && !(done && next < nr) &&
		    lc.multi_poll(run.multi, NULL, 0, 1000, NULL) != CURLM_OK)
			error = gm_error_set(GM_ERROR, "libcurl failed");
	}
	http_run_release(&run, nr);
	return error;
}

/* ==================== git ls-remote ==================== */

int gm_net_init(void)
{
	lc_load();
	/* git never prompts for a password on the terminal */
	if (setenv("GIT_TERMINAL_PROMPT", "0", 1) < 0)
		return gm_error_set(GM_ERROR, "out of memory");
	return 0;
}

/*
 * Whether `url` is one git reaches over ssh: an ssh scheme, or the
 * scp-like host:path (a ':' before any '/', no "://").
 */
static bool url_is_ssh(const char *url)
{
	const char *colon = strchr(url, ':');

	if (!strncasecmp(url, "ssh://", 6) ||
	    !strncasecmp(url, "git+ssh://", 10) ||
	    !strncasecmp(url, "ssh+git://", 10))
		return true;
	return colon && !strstr(url, "://") &&
	       (size_t)(colon - url) < strcspn(url, "/");
}

/* Whether git's messages `err` say that no server was reached. */
static bool git_unreached(const char *err)
{
	static const char *const says[] = {
		"unable to look up", "Could not resolve", "Connection refused",
		"Couldn't connect to server", "Network is unreachable",
		"No route to host",
	};

	for (size_t i = 0; i < sizeof(says) / sizeof(*says); i++)
		if (strstr(err, says[i]))
			return true;
	return false;
}

/* git's last message in `err`, without its "fatal: " or "error: ". */
static void git_why(struct gm_net_link *link, struct gm_buf *err)
{
	const char *msg;

	while (err->len && err->ptr[err->len - 1] == '\n')
		err->ptr[--err->len] = '\0';
	msg = err->len ? strrchr(err->ptr, '\n') : NULL;
	msg = msg ? msg + 1 : err->len ? err->ptr : "git ls-remote failed";
	if (!strncmp(msg, "fatal: ", 7) || !strncmp(msg, "error: ", 7))
		msg += 7;
	link_fail(link, GM_ENOTFOUND, msg);
}

int gm_net_git_check(struct gm_net_link *link,
		     const struct gm_strvec *patterns,
		     const struct gm_net_options *o)
{
	static const char *const args[] = { "-c", "http.sslVerify=false",
		"ls-remote", "--exit-code", "-h", "--" };
	struct gm_strvec argv = GM_STRVEC_INIT;
	struct gm_buf err = GM_BUF_INIT;
	int status = -1, error;

	memset(link->why, 0, sizeof(link->why));
	link->network = link->unreached = false;
	gm_progress_add(o->progress, 1);
	if (url_is_ssh(link->url)) {
		link_fail(link, GM_EINVALID, "ssh URLs are not checked");
		return link->result;
	}
	link->network = gm_net_remote(link->url);
	error = gm_strvec_push(&argv, "git");
	for (size_t i = o->insecure ? 0 : 2;
	     i < sizeof(args) / sizeof(*args) && !error; i++)
		error = gm_strvec_push(&argv, args[i]);
	if (!error)
		error = gm_strvec_push(&argv, link->url);
	for (size_t i = 0; patterns && i < patterns->nr && !error; i++)
		error = gm_strvec_push(&argv, patterns->v[i]);
	if (!error)
		status = gm_git_run_limit((const char *const *)argv.v, NULL,
					  NULL, &err, o->timeout_ms);
	if (status == GM_GIT_RUN_LATE)
		link_fail(link, GM_ENOTFOUND, "timed out");
	else if (status == -1 && !err.len)
		link_fail(link, GM_EINVALID, "not checked: git cannot be run");
	else if (status == 0)
		link->result = 0;
	else if (status == 2)
		link_fail(link, GM_ENOTFOUND, "no such branch");
	else
		git_why(link, &err);
	link->unreached = link->network && status != GM_GIT_RUN_LATE &&
			  link->result && git_unreached(err.len ? err.ptr : "");
	gm_strvec_release(&argv);
	gm_buf_release(&err);
	return link->result;
}

/* ==================== before the checks ==================== */

bool gm_net_remote(const char *url)
{
	return !strncasecmp(url, "http://", 7) ||
	       !strncasecmp(url, "https://", 8) ||
	       !strncasecmp(url, "git://", 6);
}

/* The host of the remote `url` ([user@]host[:port] after "://"). */
static bool url_host(const char *url, char *host, size_t size)
{
	const char *h = strstr(url, "://") + 3, *at, *end;
	size_t len;

	end = h + strcspn(h, "/?#");
	if ((at = memchr(h, '@', (size_t)(end - h))))
		h = at + 1;
	if (*h == '[')		/* an IPv6 literal: nothing to resolve */
		return false;
	len = strcspn(h, ":/?#");
	if (!len || len >= size)
		return false;
	memcpy(host, h, len);
	host[len] = '\0';
	return true;
}

bool gm_net_offline(struct gm_net_link *const *links, size_t nr,
		    char why[GM_NET_WHY_SIZE])
{
	static const char *const proxies[] = { "http_proxy", "https_proxy",
		"HTTPS_PROXY", "all_proxy", "ALL_PROXY" };
	char seen[3][256];
	size_t tried = 0;

	for (size_t i = 0; i < sizeof(proxies) / sizeof(*proxies); i++)
		if (getenv(proxies[i]) && *getenv(proxies[i]))
			return false;
	for (size_t i = 0; i < nr && tried < 3; i++) {
		struct addrinfo hints, *ai = NULL;
		bool again = false;
		int rc;

		if (!gm_net_remote(links[i]->url) ||
		    !url_host(links[i]->url, seen[tried], sizeof(seen[tried])))
			continue;
		for (size_t k = 0; k < tried && !again; k++)
			again = !strcasecmp(seen[k], seen[tried]);
		if (again)
			continue;
		memset(&hints, 0, sizeof(hints));
		hints.ai_socktype = SOCK_STREAM;
		if (!(rc = getaddrinfo(seen[tried], NULL, &hints, &ai))) {
			freeaddrinfo(ai);
			return false;
		}
		if (!tried)
			snprintf(why, GM_NET_WHY_SIZE, "cannot resolve '%.160s': %.60s",
				 seen[tried], gai_strerror(rc));
		tried++;
	}
	return tried > 0;
}
