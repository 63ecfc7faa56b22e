#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <git2.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/net.h"
#include "gm/tls.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/*
 * The reachability checks of --self-test=links,scm against servers
 * the test starts on the loopback interface: an HTTP server process
 * answering from a table, one that accepts connections and never answers, and a
 * port nobody listens on. No other address is ever contacted.
 */

/* What the HTTP server answers for a request target. */
static const struct {
	const char *target;
	const char *answer;
} routes[] = {
	{ "/ok", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n" },
	{ "/no-content", "HTTP/1.0 204 No Content\n\n" },
	{ "/missing", "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n" },
	{ "/error", "HTTP/1.1 500 Oops\r\n\r\n" },
	{ "/moved", "HTTP/1.1 301 Moved\r\nLocation: /dir/rel\r\n\r\n" },
	{ "/dir/rel", "HTTP/1.1 302 Found\r\nlocation:  next \r\n\r\n" },
	{ "/dir/next", "HTTP/1.1 307 Again\r\nLocation: //127.0.0.1:PORT/ok\r\n\r\n" },
	{ "/loop", "HTTP/1.1 302 Found\r\nLocation: /loop\r\n\r\n" },
	{ "/nowhere", "HTTP/1.1 302 Found\r\n\r\n" },
	{ "/garbage", "SMTP ready\r\n\r\n" },
	{ "/a%20b?q=1", "HTTP/1.1 200 OK\r\n\r\n" },
};

static int http_fd = -1, silent_fd = -1;
static int http_port, silent_port, closed_port;
static pid_t http_pid = -1;

/* A listening socket on 127.0.0.1, any port: its port in `*port`. */
static int listen_loopback(int *port)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(listen(fd, 64), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	*port = ntohs(sa.sin_port);
	return fd;
}

/* One request: read its head, answer from the table, close. */
static void serve_one(int c)
{
	char req[4096], target[512] = "", answer[512];
	size_t len = 0;
	const char *a = "HTTP/1.1 404 Not Found\r\n\r\n", *port;

	req[0] = '\0';
	/* a TLS handshake (0x16) gets its answer at once: plain text */
	while (len < sizeof(req) - 1 && !strstr(req, "\r\n\r\n") &&
	       req[0] != 0x16) {
		ssize_t n = read(c, req + len, sizeof(req) - 1 - len);

		if (n <= 0)
			break;
		len += (size_t)n;
		req[len] = '\0';
	}
	req[len] = '\0';
	if (sscanf(req, "HEAD %511s HTTP/1.1", target) == 1)
		for (size_t i = 0; i < ARRAY_SIZE(routes); i++)
			if (!strcmp(target, routes[i].target))
				a = routes[i].answer;
	/* "PORT" in an answer is the server's own */
	port = strstr(a, "PORT");
	snprintf(answer, sizeof(answer), "%.*s%d%s", (int)(port ? port - a : 0),
		 a, http_port, port ? port + 4 : "");
	if (!port)
		snprintf(answer, sizeof(answer), "%s", a);
	if (write(c, answer, strlen(answer)) < 0)
		perror("write");
}

/*
 * The HTTP server's process: answers until it is killed, and dies with the
 * runner that forked it, so a runner that exits early leaves no process
 * holding the test driver's pipes.
 */
static void http_serve(pid_t runner)
{
	int c;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != runner)
		_exit(1);
	while ((c = accept(http_fd, NULL, NULL)) >= 0) {
		serve_one(c);
		close(c);
	}
	_exit(0);
}

/* Unchecked: the servers live for the whole TCase. */
static void servers_start(void)
{
	pid_t runner;
	int fd;

	http_fd = listen_loopback(&http_port);
	silent_fd = listen_loopback(&silent_port);
	fd = listen_loopback(&closed_port);
	close(fd);	/* now nobody listens there */
	runner = getpid();
	http_pid = gm_test_fork();
	if (!http_pid)
		http_serve(runner);
}

static void servers_stop(void)
{
	kill(http_pid, SIGKILL);
	waitpid(http_pid, NULL, 0);
	close(http_fd);
	close(silent_fd);
}

static int http_check(const char *target, int port, int ms)
{
	char url[256];

	snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", port, target);
	return gm_net_http_check(url, gm_net_now() + ms);
}

/* ==================== HTTP ==================== */

static const struct {
	const char *target;
	int result;
	const char *why;
} http_cases[] = {
	{ "/ok", 0, NULL },
	{ "/no-content", 0, NULL },		/* HTTP/1.0, bare LF lines */
	{ "/missing", GM_ENOTFOUND, "HTTP status 404" },
	{ "/error", GM_ENOTFOUND, "HTTP status 500" },
	{ "/moved", 0, NULL },			/* absolute, relative, //host */
	{ "/loop", GM_ENOTFOUND, "too many redirects" },
	{ "/nowhere", GM_ENOTFOUND, "HTTP status 302" },
	{ "/garbage", GM_ENOTFOUND, "not an HTTP response" },
	{ "/a b?q=1#frag", 0, NULL },		/* encoded, no fragment sent */
	{ "", GM_ENOTFOUND, "HTTP status 404" },	/* "/" is asked */
};

START_TEST(test_net_http_table)
{
	int rc = http_check(http_cases[_i].target, http_port, 5000);

	ck_assert_msg(rc == http_cases[_i].result, "%s: %d (%s)",
		      http_cases[_i].target, rc, gm_error_last());
	if (http_cases[_i].why)
		ck_assert_str_eq(gm_error_last(), http_cases[_i].why);
}
END_TEST

/* A server that never answers costs the deadline, not more. */
START_TEST(test_net_http_silent_server)
{
	int64_t start = gm_net_now();

	ck_assert_int_eq(http_check("/ok", silent_port, 300), GM_ENOTFOUND);
	ck_assert_str_eq(gm_error_last(), "timed out");
	ck_assert_int_ge(gm_net_now() - start, 250);
	ck_assert_int_lt(gm_net_now() - start, 3000);
}
END_TEST

START_TEST(test_net_http_refused)
{
	ck_assert_int_eq(http_check("/ok", closed_port, 5000), GM_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(gm_error_last(), "cannot connect"));
}
END_TEST

static const char *const bad_urls[] = {
	"ftp://127.0.0.1/", "http:/127.0.0.1/", "http://", "http://:80/",
	"http://127.0.0.1:x/", "http://127.0.0.1:0/", "http://127.0.0.1:99999/",
	"http://[::1/", "http://[::1]x/",
};

START_TEST(test_net_http_bad_url)
{
	ck_assert_int_eq(gm_net_http_check(bad_urls[_i], gm_net_now() + 1000),
			 GM_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(gm_error_last(), "not a valid"));
}
END_TEST

/* https to a server that speaks plain HTTP: no handshake, not reached. */
START_TEST(test_net_https_to_plain_server)
{
	char url[128];

	snprintf(url, sizeof(url), "https://127.0.0.1:%d/ok", http_port);
	ck_assert_int_eq(gm_net_http_check(url, gm_net_now() + 2000),
			 gm_tls_available() ? GM_ENOTFOUND : GM_EINVALID);
}
END_TEST

/* ==================== git ==================== */

static const struct gm_test_file repo_files[] = {
	{ "README", "hello\n", 0 },
};

static const struct gm_test_commit repo_commits[] = {
	{ "first\n", 1700000000, repo_files, ARRAY_SIZE(repo_files) },
};

static int git_check(const char *url, const char *pattern, int ms)
{
	struct gm_strvec patterns = GM_STRVEC_INIT;
	int rc;

	if (pattern)
		ck_assert_int_eq(gm_strvec_push(&patterns, pattern), 0);
	rc = gm_net_git_check(url, &patterns, gm_net_now() + ms);
	gm_strvec_release(&patterns);
	return rc;
}

/* A local repository, by path and file:// URL; branches as ls-remote -h. */
START_TEST(test_net_git_local)
{
	char *dir = NULL, *empty = NULL;
	struct gm_buf url = GM_BUF_INIT;

	ck_assert_int_eq(gm_test_repo_create(&dir, NULL, repo_commits, 1), 0);
	ck_assert_int_eq(gm_test_repo_create(&empty, NULL, NULL, 0), 0);
	ck_assert_int_eq(git_check(dir, NULL, 5000), 0);
	ck_assert_int_eq(git_check(dir, "master", 5000), 0);
	ck_assert_int_eq(git_check(dir, "mas*", 5000), 0);
	ck_assert_int_eq(git_check(dir, "heads/master", 5000), 0);
	ck_assert_int_eq(git_check(dir, "aster", 5000), GM_ENOTFOUND);
	ck_assert_str_eq(gm_error_last(), "no such branch");
	ck_assert_int_eq(git_check(dir, "HEAD", 5000), GM_ENOTFOUND);
	ck_assert_int_eq(gm_buf_printf(&url, "file://%s", dir), 0);
	ck_assert_int_eq(git_check(url.ptr, NULL, 5000), 0);
	gm_buf_reset(&url);
	ck_assert_int_eq(gm_buf_printf(&url, "%s/none.git", dir), 0);
	ck_assert_int_eq(git_check(url.ptr, NULL, 5000), GM_ENOTFOUND);
	/* a repository without a branch fails --exit-code */
	ck_assert_int_eq(git_check(empty, NULL, 5000), GM_ENOTFOUND);
	gm_buf_release(&url);
	gm_test_rmtree(dir);
	gm_test_rmtree(empty);
}
END_TEST

static const char *const ssh_urls[] = {
	"ssh://git@127.0.0.1/x.git", "git+ssh://127.0.0.1/x", "ssh+git://h/x",
	"git@127.0.0.1:x.git", "127.0.0.1:x.git",
};

START_TEST(test_net_git_ssh_not_checked)
{
	ck_assert_int_eq(git_check(ssh_urls[_i], NULL, 1000), GM_EINVALID);
	ck_assert_str_eq(gm_error_last(), "ssh URLs are not checked");
}
END_TEST

/* git:// and smart HTTP through libgit2, on sockets with our deadline. */
START_TEST(test_net_git_network_deadline)
{
	char url[128];
	int64_t start;

	ck_assert_int_eq(gm_net_init(), 0);
	snprintf(url, sizeof(url), "git://127.0.0.1:%d/x.git", silent_port);
	start = gm_net_now();
	ck_assert_int_eq(git_check(url, NULL, 300), GM_ENOTFOUND);
	ck_assert_int_lt(gm_net_now() - start, 3000);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/x.git", silent_port);
	start = gm_net_now();
	ck_assert_int_eq(git_check(url, NULL, 300), GM_ENOTFOUND);
	ck_assert_int_lt(gm_net_now() - start, 3000);
	snprintf(url, sizeof(url), "git://127.0.0.1:%d/x.git", closed_port);
	ck_assert_int_eq(git_check(url, NULL, 5000), GM_ENOTFOUND);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/x.git", http_port);
	ck_assert_int_eq(git_check(url, NULL, 5000), GM_ENOTFOUND);
	gm_net_shutdown();
}
END_TEST

Suite *net_suite(void)
{
	Suite *s = suite_create("net");
	TCase *http = tcase_create("http");
	TCase *git = tcase_create("git");

	tcase_add_unchecked_fixture(http, servers_start, servers_stop);
	tcase_add_loop_test(http, test_net_http_table, 0,
			    ARRAY_SIZE(http_cases));
	tcase_add_test(http, test_net_http_silent_server);
	tcase_add_test(http, test_net_http_refused);
	tcase_add_loop_test(http, test_net_http_bad_url, 0,
			    ARRAY_SIZE(bad_urls));
	tcase_add_test(http, test_net_https_to_plain_server);
	suite_add_tcase(s, http);

	tcase_add_unchecked_fixture(git, servers_start, servers_stop);
	tcase_add_test(git, test_net_git_local);
	tcase_add_loop_test(git, test_net_git_ssh_not_checked, 0,
			    ARRAY_SIZE(ssh_urls));
	tcase_add_test(git, test_net_git_network_deadline);
	suite_add_tcase(s, git);
	return s;
}
