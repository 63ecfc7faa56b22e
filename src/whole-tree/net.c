#include "gm/net.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>
#include <git2/sys/stream.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/tls.h"

#define HTTP_MAX_REDIRECTS 20	/* wget's --max-redirect default */
#define HTTP_MAX_HEADER 32768	/* of one response */

/* ==================== sockets with a deadline ==================== */

int64_t gm_net_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for `events` on `fd` until `deadline`. @return 0 or GM_ERROR. */
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

int gm_net_connect(const char *host, const char *port, int64_t deadline)
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

int gm_net_send(int fd, const void *buf, size_t len, int64_t deadline)
{
	const char *p = buf;

	while (len) {
		ssize_t n;

		if (net_wait(fd, POLLOUT, deadline) < 0)
			return GM_ERROR;
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK ||
			      errno == EINTR))
			continue;
		if (n < 0)
			return gm_error_set(GM_ERROR, "send: %s",
					    strerror(errno));
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

ssize_t gm_net_recv(int fd, void *buf, size_t len, int64_t deadline)
{
	for (;;) {
		ssize_t n;

		if (net_wait(fd, POLLIN, deadline) < 0)
			return GM_ERROR;
		n = recv(fd, buf, len, 0);
		if (n >= 0)
			return n;
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			return gm_error_set(GM_ERROR, "recv: %s",
					    strerror(errno));
	}
}

/* ==================== HTTP HEAD ==================== */

/* An http(s) URL, split. */
struct http_url {
	bool tls;
	char host[256];		/* without IPv6 brackets */
	char port[8];
	bool default_port;
	struct gm_buf target;	/* path and query, encoded for the request */
};

static int http_url_invalid(const char *url)
{
	return gm_error_set(GM_ENOTFOUND, "not a valid http(s) URL: %s", url);
}

/* The request target: path and query, bytes but graphic ASCII %-encoded. */
static int http_target(struct gm_buf *out, const char *s, size_t len)
{
	int error = 0;

	gm_buf_reset(out);
	if (!len || *s != '/')
		error = gm_buf_putc(out, '/');
	for (size_t i = 0; i < len && !error; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= ' ' || c >= 0x7f)
			error = gm_buf_printf(out, "%%%02X", c);
		else
			error = gm_buf_putc(out, (char)c);
	}
	return error;
}

static int http_url_parse(struct http_url *u, const char *url)
{
	const char *p = url, *auth, *end, *host, *hend, *port = NULL, *at;
	size_t hlen, plen = 0;

	if (!strncasecmp(p, "http://", 7)) {
		u->tls = false;
		p += 7;
	} else if (!strncasecmp(p, "https://", 8)) {
		u->tls = true;
		p += 8;
	} else {
		return http_url_invalid(url);
	}
	auth = p;
	end = auth + strcspn(auth, "/?#");
	for (at = end; at > auth && at[-1] != '@'; at--)
		;
	host = at > auth ? at : auth;	/* no user:password@ */
	if (*host == '[') {
		hend = memchr(host, ']', (size_t)(end - host));
		if (!hend)
			return http_url_invalid(url);
		host++;
		if (hend + 1 < end && hend[1] == ':')
			port = hend + 2;
		else if (hend + 1 != end)
			return http_url_invalid(url);
	} else {
		hend = memchr(host, ':', (size_t)(end - host));
		if (hend)
			port = hend + 1;
		else
			hend = end;
	}
	hlen = (size_t)(hend - host);
	if (port)
		plen = (size_t)(end - port);
	if (!hlen || hlen >= sizeof(u->host) || plen >= sizeof(u->port) ||
	    (port && strspn(port, "0123456789") < plen))
		return http_url_invalid(url);
	memcpy(u->host, host, hlen);
	u->host[hlen] = '\0';
	u->default_port = !plen;
	if (plen) {
		memcpy(u->port, port, plen);
		u->port[plen] = '\0';
	} else {
		snprintf(u->port, sizeof(u->port), "%s", u->tls ? "443" : "80");
	}
	if (atoi(u->port) < 1 || atoi(u->port) > 65535)
		return http_url_invalid(url);
	return http_target(&u->target, end, strcspn(end, "#"));
}

/* A connection, plain or TLS. */
struct http_conn {
	int fd;
	struct gm_tls *tls;
	int64_t deadline;
};

static int http_send(struct http_conn *c, const char *s, size_t len)
{
	return c->tls ? gm_tls_send(c->tls, s, len) :
			gm_net_send(c->fd, s, len, c->deadline);
}

static ssize_t http_recv(struct http_conn *c, char *buf, size_t len)
{
	return c->tls ? gm_tls_recv(c->tls, buf, len) :
			gm_net_recv(c->fd, buf, len, c->deadline);
}

/* The response's head, up to the blank line, into `out`. */
static int http_read_head(struct http_conn *c, struct gm_buf *out)
{
	char buf[4096];

	while (!strstr(out->ptr, "\r\n\r\n") && !strstr(out->ptr, "\n\n")) {
		ssize_t n;

		if (out->len > HTTP_MAX_HEADER)
			return gm_error_set(GM_ENOTFOUND,
					    "response head too long");
		if ((n = http_recv(c, buf, sizeof(buf) - 1)) < 0)
			return GM_ENOTFOUND;
		if (!n)
			break;
		buf[n] = '\0';
		/* a NUL would end the text early: the head must not have one */
		if (gm_buf_put(out, buf, strlen(buf)) < 0)
			return GM_ERROR;
	}
	return 0;
}

/* The status of the head, and a copy of its Location header if any. */
static int http_parse_head(const char *head, int *status,
			   struct gm_buf *location)
{
	const char *p = head;
	int major, minor, code, n = 0;

	gm_buf_reset(location);
	if (sscanf(p, "HTTP/%d.%d %3d%n", &major, &minor, &code, &n) < 3 ||
	    !n || code < 100 || code > 999)
		return gm_error_set(GM_ENOTFOUND, "not an HTTP response");
	*status = code;
	while ((p = strchr(p, '\n')) && *++p && *p != '\r' && *p != '\n') {
		size_t len;

		if (strncasecmp(p, "location:", 9))
			continue;
		p += 9;
		p += strspn(p, " \t");
		len = strcspn(p, "\r\n");
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		return gm_buf_put(location, p, len);
	}
	return 0;
}

/* One HEAD request: the status, and where a redirect points. */
static int http_head(const struct http_url *u, int64_t deadline, int *status,
		     struct gm_buf *location)
{
	struct http_conn c = { -1, NULL, deadline };
	struct gm_buf req = GM_BUF_INIT, head = GM_BUF_INIT;
	bool v6 = strchr(u->host, ':') != NULL;
	int error;

	if (u->tls && !gm_tls_available())
		return gm_error_set(GM_EINVALID,
				    "https links are not checked: this build has no TLS");
	if ((c.fd = gm_net_connect(u->host, u->port, deadline)) < 0)
		return GM_ENOTFOUND;
	if (u->tls && gm_tls_open(&c.tls, c.fd, u->host, deadline) < 0) {
		error = GM_ENOTFOUND;
		goto out;
	}
	error = gm_buf_printf(&req, "HEAD %s HTTP/1.1\r\nHost: %s%s%s%s%s\r\n"
			      "User-Agent: git-maintainer/%s\r\n"
			      "Accept: */*\r\nConnection: close\r\n\r\n",
			      u->target.ptr, v6 ? "[" : "", u->host,
			      v6 ? "]" : "", u->default_port ? "" : ":",
			      u->default_port ? "" : u->port, GM_VERSION);
	if (!error && http_send(&c, req.ptr, req.len) < 0)
		error = GM_ENOTFOUND;
	if (!error)
		error = http_read_head(&c, &head);
	if (!error)
		error = http_parse_head(head.ptr, status, location);
out:
	gm_tls_free(c.tls);
	close(c.fd);
	gm_buf_release(&req);
	gm_buf_release(&head);
	return error;
}

/* The URL a Location value names, seen from `u` (RFC 3986, simply). */
static int http_resolve(struct gm_buf *out, const struct http_url *u,
			const char *loc)
{
	const char *scheme = u->tls ? "https" : "http";
	bool v6 = strchr(u->host, ':') != NULL;
	struct gm_buf base = GM_BUF_INIT;
	int error;

	if (strstr(loc, "://") && strcspn(loc, ":") < strcspn(loc, "/?#"))
		return gm_buf_puts(out, loc);
	if (loc[0] == '/' && loc[1] == '/')
		return gm_buf_printf(out, "%s:%s", scheme, loc);
	error = gm_buf_printf(&base, "%s://%s%s%s:%s", scheme, v6 ? "[" : "",
			      u->host, v6 ? "]" : "", u->port);
	if (!error && loc[0] != '/') {
		size_t dir = strcspn(u->target.ptr, "?");

		while (dir && u->target.ptr[dir - 1] != '/')
			dir--;
		error = gm_buf_put(&base, u->target.ptr, dir);
	}
	if (!error)
		error = gm_buf_printf(out, "%s%s", base.ptr, loc);
	gm_buf_release(&base);
	return error;
}

int gm_net_http_check(const char *start, int64_t deadline)
{
	struct http_url u = { .target = GM_BUF_INIT };
	struct gm_buf url = GM_BUF_INIT, location = GM_BUF_INIT;
	int status = 0, error = gm_buf_puts(&url, start);

	for (int hops = 0; !error; hops++) {
		if ((error = http_url_parse(&u, url.ptr)) < 0 ||
		    (error = http_head(&u, deadline, &status, &location)) < 0)
			break;
		if (status >= 200 && status < 300)
			break;
		if (status < 300 || status >= 400 || !location.len) {
			error = gm_error_set(GM_ENOTFOUND, "HTTP status %d",
					     status);
		} else if (hops == HTTP_MAX_REDIRECTS) {
			error = gm_error_set(GM_ENOTFOUND,
					     "too many redirects");
		} else {
			gm_buf_reset(&url);
			error = http_resolve(&url, &u, location.ptr);
		}
	}
	gm_buf_release(&u.target);
	gm_buf_release(&url);
	gm_buf_release(&location);
	return error;
}

/* ==================== git ls-remote ==================== */

/*
 * libgit2's plain sockets, replaced by ours (git_stream_register()) while
 * the checks run, so that each stays within its thread's deadline.
 */
struct net_stream {
	git_stream parent;
	char *host;
	char *port;
	int fd;
};

static _Thread_local int64_t stream_deadline;

static int stream_fail(void)
{
	git_error_set_str(GIT_ERROR_NET, gm_error_last());
	return -1;
}

static int stream_connect(git_stream *s)
{
	struct net_stream *ns = (struct net_stream *)s;

	ns->fd = gm_net_connect(ns->host, ns->port, stream_deadline);
	return ns->fd < 0 ? stream_fail() : 0;
}

static ssize_t stream_read(git_stream *s, void *buf, size_t len)
{
	ssize_t n = gm_net_recv(((struct net_stream *)s)->fd, buf, len,
				stream_deadline);

	return n < 0 ? stream_fail() : n;
}

static ssize_t stream_write(git_stream *s, const char *buf, size_t len,
			    int flags)
{
	(void)flags;
	if (gm_net_send(((struct net_stream *)s)->fd, buf, len,
			stream_deadline) < 0)
		return stream_fail();
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
	return 0;
}

void gm_net_shutdown(void)
{
	git_stream_register(GIT_STREAM_STANDARD, NULL);
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

/* Reachability, not certificate validity, as the links check asks. */
static int accept_certificate(git_cert *cert, int valid, const char *host,
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

int gm_net_git_check(const char *url, const struct gm_strvec *patterns,
		     int64_t deadline)
{
	git_remote_callbacks cb;
	const git_remote_head **heads;
	git_remote *remote = NULL;
	size_t n = 0;
	int error = GM_ENOTFOUND;

	if (url_is_ssh(url))
		return gm_error_set(GM_EINVALID, "ssh URLs are not checked");
	git_remote_init_callbacks(&cb, GIT_REMOTE_CALLBACKS_VERSION);
	cb.certificate_check = accept_certificate;
	stream_deadline = deadline;
	if (git_remote_create_detached(&remote, url) < 0 ||
	    git_remote_connect(remote, GIT_DIRECTION_FETCH, &cb, NULL,
			       NULL) < 0 ||
	    git_remote_ls(&heads, &n, remote) < 0) {
		gm_error_from_git(-1, "cannot list the branches");
		goto out;
	}
	gm_error_set(GM_ENOTFOUND, "no such branch");
	for (size_t i = 0; i < n && error; i++)
		if (ls_remote_lists(heads[i]->name, patterns))
			error = 0;
out:
	if (remote)
		git_remote_disconnect(remote);
	git_remote_free(remote);
	stream_deadline = 0;
	return error;
}
