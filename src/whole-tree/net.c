#include "gm/net.h"

#include <dlfcn.h>
#include <errno.h>
#include <fnmatch.h>
#include <netdb.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <git2.h>
#include <git2/sys/stream.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/progress.h"

#define HTTP_MAX_REDIRECTS 20	/* wget's --max-redirect default */

_Static_assert(GM_NET_WHY_SIZE >= CURL_ERROR_SIZE,
	       "a link's why[] is libcurl's error buffer");

int64_t gm_net_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

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
 * checks.
 */
static struct libcurl {
	void *dl;		/* NULL: not loaded, `why` says why */
	char why[256];
	CURLcode (*global_init)(long flags);
	void (*global_cleanup)(void);
	curl_version_info_data *(*version_info)(CURLversion v);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *easy, CURLoption option, ...);
	CURLcode (*easy_getinfo)(CURL *easy, CURLINFO info, ...);
	const char *(*easy_strerror)(CURLcode code);
	void (*easy_cleanup)(CURL *easy);
	CURLM *(*multi_init)(void);
	CURLMcode (*multi_add_handle)(CURLM *multi, CURL *easy);
	CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *easy);
	CURLMcode (*multi_perform)(CURLM *multi, int *running);
	CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd *fds,
				unsigned nfds, int ms, int *ret);
	CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
	CURLMcode (*multi_cleanup)(CURLM *multi);
} lc;

#define LC_SYMBOL(name) { "curl_" #name, offsetof(struct libcurl, name) }
static const struct {
	const char *name;
	size_t offset;
} lc_symbols[] = {
	LC_SYMBOL(global_init), LC_SYMBOL(global_cleanup),
	LC_SYMBOL(version_info), LC_SYMBOL(easy_init), LC_SYMBOL(easy_setopt),
	LC_SYMBOL(easy_getinfo), LC_SYMBOL(easy_strerror),
	LC_SYMBOL(easy_cleanup), LC_SYMBOL(multi_init),
	LC_SYMBOL(multi_add_handle), LC_SYMBOL(multi_remove_handle),
	LC_SYMBOL(multi_perform), LC_SYMBOL(multi_poll),
	LC_SYMBOL(multi_info_read), LC_SYMBOL(multi_cleanup),
};

static void lc_unload(void)
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
	for (size_t i = 0; i < sizeof(lc_symbols) / sizeof(*lc_symbols); i++) {
		void *sym = dlsym(lc.dl, lc_symbols[i].name);

		if (!sym) {
			why = "a function is missing";
			break;
		}
		/* POSIX: a function's address fits a void * */
		memcpy((char *)&lc + lc_symbols[i].offset, &sym, sizeof(sym));
	}
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

/* Whether this libcurl speaks TLS. */
static bool http_has_tls(void)
{
	return (lc.version_info(CURLVERSION_NOW)->features &
		CURL_VERSION_SSL) != 0;
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

/* The answer for a link when libcurl could not be loaded. */
static void http_unchecked(struct gm_net_link *link)
{
	link->network = link->unreached = false;
	link->result = GM_EINVALID;
	snprintf(link->why, sizeof(link->why), "not checked: %.200s", lc.why);
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
	if (!strncasecmp(link->url, "https:", 6) && !http_has_tls()) {
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

	if (!lc.dl) {
		for (size_t i = 0; i < nr; i++)
			http_unchecked(links[i]);
		return 0;
	}
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

/* ==================== git ls-remote, through libgit2 ==================== */

/*
 * Wait for `events` on `fd` until `deadline` (a gm_net_now() time, 0 for
 * none). @return 0 or GM_ERROR.
 */
static int net_wait(int fd, short events, int64_t deadline)
{
	struct pollfd p = { fd, events, 0 };

	for (;;) {
		int64_t left = deadline ? deadline - gm_net_now() : -1;
		int rc;

		if (deadline && left <= 0)
			return gm_error_set(GM_ERROR, "timed out");
		rc = poll(&p, 1, left > 1000000 ? 1000000 : (int)left);
		if (rc > 0)
			return 0;
		if (rc < 0 && errno != EINTR)
			return gm_error_set(GM_ERROR, "poll: %s",
					    strerror(errno));
	}
}

/* Connect the non-blocking socket `fd` to `ai` before `deadline`. */
static int net_connect_one(int fd, const struct addrinfo *ai, int64_t deadline)
{
	int so_error = 0;
	socklen_t len = sizeof(so_error);

	if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
		return 0;
	if (errno != EINPROGRESS && errno != EINTR)
		return gm_error_set(GM_ERROR, "%s", strerror(errno));
	if (net_wait(fd, POLLOUT, deadline) < 0)
		return GM_ERROR;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len) < 0)
		so_error = errno;
	if (so_error)
		return gm_error_set(GM_ERROR, "%s", strerror(so_error));
	return 0;
}

/* A TCP connection to `host` at `port` before `deadline`: its socket. */
static int net_connect(const char *host, const char *port, int64_t deadline)
{
	struct addrinfo hints, *list = NULL;
	int fd = -1, rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	rc = getaddrinfo(host, port, &hints, &list);
	if (rc)
		return gm_error_set(GM_ERROR, "cannot resolve '%s': %s", host,
				    gai_strerror(rc));
	for (const struct addrinfo *ai = list; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC |
					   SOCK_NONBLOCK, ai->ai_protocol);
		if (fd < 0) {
			gm_error_set(GM_ERROR, "socket: %s", strerror(errno));
			continue;
		}
		if (!net_connect_one(fd, ai, deadline))
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(list);
	if (fd < 0) {
		char why[256];

		snprintf(why, sizeof(why), "%s", gm_error_last());
		return gm_error_set(GM_ERROR, "cannot connect to %s port %s: %s",
				    host, port, why);
	}
	return fd;
}

/*
 * libgit2's plain sockets, replaced by these (git_stream_register()) while
 * the checks run, so that each stays within its thread's deadline. They
 * also tell whether a server was reached.
 */
struct net_stream {
	git_stream parent;
	char *host;
	char *port;
	int fd;
};

/* The calling thread's gm_net_git_check(). */
static _Thread_local int64_t stream_deadline;
static _Thread_local bool stream_tried, stream_reached;

static int stream_fail(void)
{
	git_error_set_str(GIT_ERROR_NET, gm_error_last());
	return -1;
}

static int stream_connect(git_stream *s)
{
	struct net_stream *ns = (struct net_stream *)s;

	stream_tried = true;
	ns->fd = net_connect(ns->host, ns->port, stream_deadline);
	if (ns->fd < 0)
		return stream_fail();
	stream_reached = true;
	return 0;
}

static ssize_t stream_read(git_stream *s, void *buf, size_t len)
{
	struct net_stream *ns = (struct net_stream *)s;

	for (;;) {
		ssize_t n;

		if (net_wait(ns->fd, POLLIN, stream_deadline) < 0)
			return stream_fail();
		n = recv(ns->fd, buf, len, 0);
		if (n >= 0)
			return n;
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			gm_error_set(GM_ERROR, "recv: %s", strerror(errno));
			return stream_fail();
		}
	}
}

static ssize_t stream_write(git_stream *s, const char *buf, size_t len,
			    int flags)
{
	struct net_stream *ns = (struct net_stream *)s;
	size_t done = 0;

	(void)flags;
	while (done < len) {
		ssize_t n;

		if (net_wait(ns->fd, POLLOUT, stream_deadline) < 0)
			return stream_fail();
		n = send(ns->fd, buf + done, len - done, MSG_NOSIGNAL);
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
		    errno != EINTR) {
			gm_error_set(GM_ERROR, "send: %s", strerror(errno));
			return stream_fail();
		}
		if (n > 0)
			done += (size_t)n;
	}
	return (ssize_t)len;
}

static int stream_close(git_stream *s)
{
	struct net_stream *ns = (struct net_stream *)s;

	if (ns->fd >= 0)
		close(ns->fd);
	ns->fd = -1;
	return 0;
}

static void stream_free(git_stream *s)
{
	struct net_stream *ns = (struct net_stream *)s;

	stream_close(s);
	free(ns->host);
	free(ns->port);
	free(ns);
}

static int stream_new(git_stream **out, const char *host, const char *port)
{
	struct net_stream *ns = calloc(1, sizeof(*ns));

	if (!ns || !(ns->host = strdup(host)) || !(ns->port = strdup(port))) {
		if (ns)
			free(ns->host);
		free(ns);
		git_error_set_oom();
		return -1;
	}
	ns->fd = -1;
	ns->parent.version = GIT_STREAM_VERSION;
	ns->parent.connect = stream_connect;
	ns->parent.read = stream_read;
	ns->parent.write = stream_write;
	ns->parent.close = stream_close;
	ns->parent.free = stream_free;
	*out = &ns->parent;
	return 0;
}

int gm_net_init(void)
{
	git_stream_registration reg = { GIT_STREAM_VERSION, stream_new, NULL };

	if (git_stream_register(GIT_STREAM_STANDARD, &reg) < 0)
		return gm_error_from_git(-1, "cannot set up the network");
	lc_load();
	return 0;
}

void gm_net_shutdown(void)
{
	git_stream_register(GIT_STREAM_STANDARD, NULL);
	lc_unload();
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

/* With --links-insecure: any certificate; else libgit2's verdict. */
static int accept_any_certificate(git_cert *cert, int valid, const char *host,
				  void *payload)
{
	(void)cert;
	(void)valid;
	(void)host;
	(void)payload;
	return 0;
}

/* Whether the ref `name` is a branch `git ls-remote -h URL patterns` lists. */
static bool ls_remote_lists(const char *name, const struct gm_strvec *patterns)
{
	struct gm_buf pat = GM_BUF_INIT, path = GM_BUF_INIT;
	bool found = !patterns || !patterns->nr;

	if (strncmp(name, "refs/heads/", 11))
		return false;
	for (size_t i = 0; !found && patterns && i < patterns->nr; i++) {
		gm_buf_reset(&pat);
		gm_buf_reset(&path);
		if (gm_buf_printf(&pat, "*/%s", patterns->v[i]) < 0 ||
		    gm_buf_printf(&path, "/%s", name) < 0)
			break;
		found = !fnmatch(pat.ptr, path.ptr, 0);
	}
	gm_buf_release(&pat);
	gm_buf_release(&path);
	return found;
}

/* Whether the listing `remote` answered has a branch `patterns` ask for. */
static int git_has_branch(struct gm_net_link *link, git_remote *remote,
			  const struct gm_strvec *patterns)
{
	const git_remote_head **heads;
	size_t n = 0;

	if (git_remote_ls(&heads, &n, remote) < 0) {
		link_fail(link, GM_ENOTFOUND, git_error_last() ?
			  git_error_last()->message : "cannot list the branches");
		return link->result;
	}
	link_fail(link, GM_ENOTFOUND, "no such branch");
	for (size_t i = 0; i < n && link->result; i++)
		if (ls_remote_lists(heads[i]->name, patterns))
			link->result = 0;
	return link->result;
}

int gm_net_git_check(struct gm_net_link *link,
		     const struct gm_strvec *patterns,
		     const struct gm_net_options *o)
{
	git_remote_callbacks cb;
	git_proxy_options proxy;
	git_remote *remote = NULL;

	memset(link->why, 0, sizeof(link->why));
	link->network = link->unreached = false;
	gm_progress_add(o->progress, 1);
	if (url_is_ssh(link->url)) {
		link_fail(link, GM_EINVALID, "ssh URLs are not checked");
		return link->result;
	}
	git_remote_init_callbacks(&cb, GIT_REMOTE_CALLBACKS_VERSION);
	if (o->insecure)
		cb.certificate_check = accept_any_certificate;
	git_proxy_options_init(&proxy, GIT_PROXY_OPTIONS_VERSION);
	proxy.type = GIT_PROXY_AUTO;
	stream_deadline = gm_net_now() + o->timeout_ms;
	stream_tried = stream_reached = false;
	if (git_remote_create_detached(&remote, link->url) < 0 ||
	    git_remote_connect(remote, GIT_DIRECTION_FETCH, &cb, &proxy,
			       NULL) < 0)
		link_fail(link, GM_ENOTFOUND, git_error_last() ?
			  git_error_last()->message : "cannot connect");
	else
		git_has_branch(link, remote, patterns);
	link->network = stream_tried;
	link->unreached = link->result && stream_tried && !stream_reached;
	if (remote)
		git_remote_disconnect(remote);
	git_remote_free(remote);
	stream_deadline = 0;
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

bool gm_net_offline(const char *const *urls, size_t nr,
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

		if (!gm_net_remote(urls[i]) ||
		    !url_host(urls[i], seen[tried], sizeof(seen[tried])))
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
