#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/net.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/*
 * The reachability checks of --self-test=links,scm against servers
 * the test starts on the loopback interface: tests/selftest/http-server
 * (python3: HTTP, and HTTPS with a certificate openssl makes for the
 * occasion), a port that accepts connections and never answers, and a
 * port nobody listens on. Names under .invalid never resolve. No address
 * but 127.0.0.1 is ever connected to: the proxy variables are cleared.
 */

#define HTTP_SERVER GM_FIXTURES_DIR "/../tests/selftest/http-server"

/* Milliseconds on a monotonic clock. */
static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int silent_fd = -1;
static int http_port, https_port, silent_port, closed_port;
static int server_in = -1;	/* the server's stdin: closing it stops it */
static pid_t server_pid = -1;
static char *server_dir;

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

/* The server process: python3, dying with the runner that forked it. */
static void server_exec(pid_t runner, int in, int out)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != runner ||
	    dup2(in, 0) < 0 || dup2(out, 1) < 0)
		_exit(126);
	execlp("python3", "python3", HTTP_SERVER, server_dir, (char *)NULL);
	_exit(127);
}

/* Its first line, "<http port> <https port>", within 30 s. */
static void server_read_ports(int fd)
{
	char line[64] = "";
	size_t len = 0;
	struct pollfd p = { fd, POLLIN, 0 };

	while (len < sizeof(line) - 1 && !strchr(line, '\n') &&
	       poll(&p, 1, 30000) > 0) {
		ssize_t n = read(fd, line + len, sizeof(line) - 1 - len);

		if (n <= 0)
			break;
		len += (size_t)n;
		line[len] = '\0';
	}
	ck_assert_msg(sscanf(line, "%d %d", &http_port, &https_port) == 2,
		      "%s did not start (python3 is needed)", HTTP_SERVER);
}

static void clear_proxies(void)
{
	static const char *const names[] = {
		"http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy",
		"ALL_PROXY", "no_proxy", "NO_PROXY",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		unsetenv(names[i]);
}

/* Unchecked: the servers live for the whole TCase. */
static void servers_start(void)
{
	int in[2], out[2], fd;
	pid_t runner = getpid();

	clear_proxies();
	silent_fd = listen_loopback(&silent_port);
	fd = listen_loopback(&closed_port);
	close(fd);	/* now nobody listens there */
	ck_assert_ptr_nonnull(server_dir = gm_test_tmpdir());
	ck_assert_int_eq(pipe(in), 0);
	ck_assert_int_eq(pipe(out), 0);
	for (int i = 0; i < 2; i++)
		ck_assert(fcntl(in[i], F_SETFD, FD_CLOEXEC) == 0 &&
			  fcntl(out[i], F_SETFD, FD_CLOEXEC) == 0);
	server_pid = gm_test_fork();
	if (!server_pid)
		server_exec(runner, in[0], out[1]);
	close(in[0]);
	close(out[1]);
	server_in = in[1];
	server_read_ports(out[0]);
	close(out[0]);
	ck_assert_int_eq(gm_net_init(), 0);
}

static void servers_stop(void)
{
	gm_net_shutdown();
	close(server_in);
	kill(server_pid, SIGKILL);
	waitpid(server_pid, NULL, 0);
	close(silent_fd);
	gm_test_rmtree(server_dir);
}

static const struct gm_net_options opts_default = { 5000, 4, false, NULL };

static void url_at(struct gm_buf *url, const char *scheme, int port,
		   const char *target)
{
	gm_buf_reset(url);
	ck_assert_int_eq(gm_buf_printf(url, "%s://127.0.0.1:%d%s", scheme,
				       port, target), 0);
}

/* Check one URL with `o`: its link, answered. */
static struct gm_net_link check_one(const char *url,
				    const struct gm_net_options *o)
{
	struct gm_net_link link = { .url = url };
	struct gm_net_link *links[] = { &link };

	ck_assert_int_eq(gm_net_http_check(links, 1, o), 0);
	return link;
}

/* ==================== HTTP ==================== */

static const struct {
	const char *target;
	int result;
	const char *why;	/* a part of the reason */
} http_cases[] = {
	{ "/ok", 0, NULL },
	{ "/no-content", 0, NULL },
	{ "/missing", GM_ENOTFOUND, "HTTP status 404" },
	{ "/error", GM_ENOTFOUND, "HTTP status 500" },
	{ "/moved", 0, NULL },			/* relative, ..., //host */
	{ "/loop", GM_ENOTFOUND, "redirects" },
	{ "/nowhere", GM_ENOTFOUND, "HTTP status 302" },
	{ "/garbage", GM_ENOTFOUND, NULL },
	{ "/a b?q=1#frag", 0, NULL },		/* encoded, no fragment sent */
	{ "", GM_ENOTFOUND, "HTTP status 404" },	/* "/" is asked */
	{ "/early", 0, NULL },			/* 103, then 200 */
	{ "/early-missing", GM_ENOTFOUND, "HTTP status 404" },
	{ "/head-only", 0, NULL },		/* a HEAD request */
};

/* All at once, four at a time: each link gets its own answer. */
START_TEST(test_net_http_table)
{
	struct gm_net_link links[ARRAY_SIZE(http_cases)];
	struct gm_net_link *p[ARRAY_SIZE(http_cases)];
	struct gm_buf url[ARRAY_SIZE(http_cases)];

	for (size_t i = 0; i < ARRAY_SIZE(http_cases); i++) {
		gm_buf_init(&url[i]);
		url_at(&url[i], "http", http_port, http_cases[i].target);
		memset(&links[i], 0, sizeof(links[i]));
		links[i].url = url[i].ptr;
		p[i] = &links[i];
	}
	ck_assert_int_eq(gm_net_http_check(p, ARRAY_SIZE(p), &opts_default),
			 0);
	for (size_t i = 0; i < ARRAY_SIZE(http_cases); i++) {
		const char *why = http_cases[i].why;

		ck_assert_msg(links[i].result == http_cases[i].result,
			      "%s: %d (%s)", http_cases[i].target,
			      links[i].result, links[i].why);
		ck_assert_msg(!why || strstr(links[i].why, why), "%s: %s",
			      http_cases[i].target, links[i].why);
		ck_assert(links[i].network && !links[i].unreached);
		gm_buf_release(&url[i]);
	}
}
END_TEST

/* An answer later than the limit, or none at all, costs the limit. */
START_TEST(test_net_http_deadline)
{
	struct gm_net_options o = { 500, 1, false, NULL };
	struct gm_buf url = GM_BUF_INIT;
	struct gm_net_link link;
	int64_t start = now_ms();

	url_at(&url, "http", http_port, "/slow");
	link = check_one(url.ptr, &o);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert_msg(strstr(link.why, "imed out"), "%s", link.why);
	ck_assert(link.network && !link.unreached);	/* it was reached */
	ck_assert_int_ge(now_ms() - start, 450);
	ck_assert_int_lt(now_ms() - start, 2500);

	start = now_ms();
	url_at(&url, "http", silent_port, "/ok");
	link = check_one(url.ptr, &o);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert(!link.unreached);
	ck_assert_int_ge(now_ms() - start, 450);
	ck_assert_int_lt(now_ms() - start, 2500);
	gm_buf_release(&url);
}
END_TEST

/* Elapsed milliseconds for `n` half-second answers, `parallel` at once. */
static int64_t delays(size_t n, int parallel)
{
	struct gm_net_options o = { 5000, parallel, false, NULL };
	struct gm_net_link links[8], *p[8];
	struct gm_buf url = GM_BUF_INIT;
	int64_t start;

	ck_assert_uint_le(n, ARRAY_SIZE(links));
	url_at(&url, "http", http_port, "/delay");
	for (size_t i = 0; i < n; i++) {
		memset(&links[i], 0, sizeof(links[i]));
		links[i].url = url.ptr;
		p[i] = &links[i];
	}
	start = now_ms();
	ck_assert_int_eq(gm_net_http_check(p, n, &o), 0);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(links[i].result == 0, "%s", links[i].why);
	gm_buf_release(&url);
	return now_ms() - start;
}

/* `parallel` at a time, the next one started as soon as one is done. */
START_TEST(test_net_http_parallel)
{
	int64_t two_rounds = delays(8, 4), one_by_one = delays(4, 1);

	ck_assert_msg(two_rounds >= 1000 && two_rounds < 1400,
		      "8 by 4 at once: %lld ms", (long long)two_rounds);
	ck_assert_msg(one_by_one >= 2000, "1 at a time: %lld ms",
		      (long long)one_by_one);
}
END_TEST

/* No server reached: a name that does not resolve, a refused port. */
START_TEST(test_net_http_unreached)
{
	struct gm_buf url = GM_BUF_INIT;
	struct gm_net_link link;

	link = check_one("http://nonexistent.invalid/", &opts_default);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert(link.network && link.unreached);
	ck_assert_msg(strstr(link.why, "esolv"), "%s", link.why);
	url_at(&url, "http", closed_port, "/ok");
	link = check_one(url.ptr, &opts_default);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert(link.network && link.unreached);
	gm_buf_release(&url);
}
END_TEST

/* Malformed: not checked as reachable, not counted as out of reach. */
static const char *const bad_urls[] = {
	"http://", "http://:80/", "http://[::1/", "http://127.0.0.1:99999/",
};

START_TEST(test_net_http_bad_url)
{
	struct gm_net_link link = check_one(bad_urls[_i], &opts_default);

	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert(!link.unreached);
}
END_TEST

/* The proxy variables are honoured: the server, as a proxy, answers. */
START_TEST(test_net_http_proxy)
{
	struct gm_buf proxy = GM_BUF_INIT;
	struct gm_net_link link;

	url_at(&proxy, "http", http_port, "/");
	ck_assert_int_eq(setenv("http_proxy", proxy.ptr, 1), 0);
	link = check_one("http://proxied.invalid/ok", &opts_default);
	ck_assert_msg(link.result == 0, "%s", link.why);
	ck_assert_int_eq(setenv("no_proxy", "proxied.invalid", 1), 0);
	link = check_one("http://proxied.invalid/ok", &opts_default);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);	/* not resolved */
	ck_assert(link.unreached);
	clear_proxies();
	gm_buf_release(&proxy);
}
END_TEST

/* ==================== HTTPS ==================== */

START_TEST(test_net_https_self_signed)
{
	struct gm_net_options insecure = opts_default;
	struct gm_buf url = GM_BUF_INIT;
	struct gm_net_link link;

	ck_assert_msg(https_port, "openssl req failed: no HTTPS server");
	insecure.insecure = true;
	url_at(&url, "https", https_port, "/ok");
	link = check_one(url.ptr, &opts_default);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert_msg(strstr(link.why, "certificate"), "%s", link.why);
	ck_assert(!link.unreached);
	link = check_one(url.ptr, &insecure);
	ck_assert_msg(link.result == 0, "%s", link.why);
	url_at(&url, "https", https_port, "/early");
	link = check_one(url.ptr, &insecure);
	ck_assert_msg(link.result == 0, "%s", link.why);
	url_at(&url, "https", https_port, "/missing");
	link = check_one(url.ptr, &insecure);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert_str_eq(link.why, "HTTP status 404");
	gm_buf_release(&url);
}
END_TEST

/* https to a server that speaks plain HTTP: reached, no handshake. */
START_TEST(test_net_https_to_plain_server)
{
	struct gm_net_options insecure = opts_default;
	struct gm_buf url = GM_BUF_INIT;
	struct gm_net_link link;

	insecure.insecure = true;
	url_at(&url, "https", http_port, "/ok");
	link = check_one(url.ptr, &insecure);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert(!link.unreached);
	gm_buf_release(&url);
}
END_TEST

/* ==================== git ==================== */

static const struct gm_test_file repo_files[] = {
	{ "README", "hello\n", 0 },
};

static const struct gm_test_commit repo_commits[] = {
	{ "first\n", 1700000000, repo_files, ARRAY_SIZE(repo_files) },
};

static struct gm_net_link git_link(const char *url, const char *pattern,
				   const struct gm_net_options *o)
{
	struct gm_strvec patterns = GM_STRVEC_INIT;
	struct gm_net_link link = { .url = url };

	if (pattern)
		ck_assert_int_eq(gm_strvec_push(&patterns, pattern), 0);
	ck_assert_int_eq(gm_net_git_check(&link, &patterns, o), link.result);
	gm_strvec_release(&patterns);
	return link;
}

static int git_check(const char *url, const char *pattern, int ms)
{
	struct gm_net_options o = { ms, 1, false, NULL };

	return git_link(url, pattern, &o).result;
}

/* A local repository, by path and file:// URL; branches as ls-remote -h. */
START_TEST(test_net_git_local)
{
	char *dir = NULL, *empty = NULL;
	struct gm_buf url = GM_BUF_INIT;
	struct gm_net_link link;

	ck_assert_int_eq(gm_test_repo_create(&dir, NULL, repo_commits, 1), 0);
	ck_assert_int_eq(gm_test_repo_create(&empty, NULL, NULL, 0), 0);
	ck_assert_int_eq(git_check(dir, NULL, 5000), 0);
	ck_assert_int_eq(git_check(dir, "master", 5000), 0);
	ck_assert_int_eq(git_check(dir, "mas*", 5000), 0);
	ck_assert_int_eq(git_check(dir, "heads/master", 5000), 0);
	link = git_link(dir, "aster", &opts_default);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert_str_eq(link.why, "no such branch");
	ck_assert(!link.network);	/* no server involved */
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

/* git's own configuration applies, as to the script's git ls-remote. */
START_TEST(test_net_git_insteadof)
{
	char *dir = NULL, *home = gm_test_tmpdir();
	struct gm_buf conf = GM_BUF_INIT, path = GM_BUF_INIT;
	struct gm_net_link link;

	ck_assert_ptr_nonnull(home);
	ck_assert_int_eq(gm_test_repo_create(&dir, NULL, repo_commits, 1), 0);
	ck_assert_int_eq(gm_buf_printf(&conf, "[url \"%s/\"]\n\tinsteadOf = "
				       "http://moved.invalid/\n", dir), 0);
	ck_assert_int_eq(gm_test_write_file(home, "gitconfig", conf.ptr), 0);
	ck_assert_int_eq(gm_buf_printf(&path, "%s/gitconfig", home), 0);
	ck_assert_int_eq(setenv("GIT_CONFIG_GLOBAL", path.ptr, 1), 0);
	link = git_link("http://moved.invalid/.git", "master", &opts_default);
	ck_assert_msg(link.result == 0, "%s", link.why);
	ck_assert_int_eq(unsetenv("GIT_CONFIG_GLOBAL"), 0);
	link = git_link("http://moved.invalid/.git", "master", &opts_default);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert(link.network && link.unreached);
	gm_buf_release(&conf);
	gm_buf_release(&path);
	gm_test_rmtree(dir);
	gm_test_rmtree(home);
}
END_TEST

static const char *const ssh_urls[] = {
	"ssh://git@127.0.0.1/x.git", "git+ssh://127.0.0.1/x", "ssh+git://h/x",
	"git@127.0.0.1:x.git", "127.0.0.1:x.git",
};

START_TEST(test_net_git_ssh_not_checked)
{
	struct gm_net_link link = git_link(ssh_urls[_i], NULL, &opts_default);

	ck_assert_int_eq(link.result, GM_EINVALID);
	ck_assert_str_eq(link.why, "ssh URLs are not checked");
	ck_assert(!link.network);
}
END_TEST

/* git:// and smart HTTP through git ls-remote, killed at the deadline. */
START_TEST(test_net_git_network_deadline)
{
	struct gm_net_options quick = { 300, 1, false, NULL };
	struct gm_buf url = GM_BUF_INIT;
	struct gm_net_link link;
	int64_t start;

	url_at(&url, "git", silent_port, "/x.git");
	start = now_ms();
	link = git_link(url.ptr, NULL, &quick);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert(link.network && !link.unreached);
	ck_assert_int_lt(now_ms() - start, 3000);
	url_at(&url, "http", silent_port, "/x.git");
	start = now_ms();
	ck_assert_int_eq(git_link(url.ptr, NULL, &quick).result, GM_ENOTFOUND);
	ck_assert_int_lt(now_ms() - start, 3000);
	url_at(&url, "http", http_port, "/x.git");
	link = git_link(url.ptr, NULL, &opts_default);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert(link.network && !link.unreached);
	gm_buf_release(&url);
}
END_TEST

/* Out of reach: a refused port, a name that does not resolve. */
START_TEST(test_net_git_unreached)
{
	struct gm_buf url = GM_BUF_INIT;
	struct gm_net_link link;

	url_at(&url, "git", closed_port, "/x.git");
	link = git_link(url.ptr, NULL, &opts_default);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert(link.network && link.unreached);
	link = git_link("git://nonexistent.invalid/x.git", NULL,
			&opts_default);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert(link.network && link.unreached);
	gm_buf_release(&url);
}
END_TEST

/* https git links: the certificate is verified unless insecure. */
START_TEST(test_net_git_https_certificate)
{
	struct gm_net_options insecure = opts_default;
	struct gm_buf url = GM_BUF_INIT;
	struct gm_net_link link;

	ck_assert_msg(https_port, "openssl req failed: no HTTPS server");
	insecure.insecure = true;
	url_at(&url, "https", https_port, "/x.git");
	link = git_link(url.ptr, NULL, &opts_default);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);
	ck_assert_msg(strstr(link.why, "certificate"), "%s", link.why);
	link = git_link(url.ptr, NULL, &insecure);
	ck_assert_int_eq(link.result, GM_ENOTFOUND);	/* no repository */
	ck_assert_msg(!strstr(link.why, "certificate"), "%s", link.why);
	ck_assert(!link.unreached);
	gm_buf_release(&url);
}
END_TEST

Suite *net_suite(void)
{
	Suite *s = suite_create("net");
	TCase *http = tcase_create("http");
	TCase *git = tcase_create("git");

	tcase_add_unchecked_fixture(http, servers_start, servers_stop);
	tcase_add_test(http, test_net_http_table);
	tcase_add_test(http, test_net_http_deadline);
	tcase_add_test(http, test_net_http_parallel);
	tcase_add_test(http, test_net_http_unreached);
	tcase_add_loop_test(http, test_net_http_bad_url, 0,
			    ARRAY_SIZE(bad_urls));
	tcase_add_test(http, test_net_http_proxy);
	tcase_add_test(http, test_net_https_self_signed);
	tcase_add_test(http, test_net_https_to_plain_server);
	suite_add_tcase(s, http);

	tcase_add_unchecked_fixture(git, servers_start, servers_stop);
	tcase_add_test(git, test_net_git_local);
	tcase_add_test(git, test_net_git_insteadof);
	tcase_add_loop_test(git, test_net_git_ssh_not_checked, 0,
			    ARRAY_SIZE(ssh_urls));
	tcase_add_test(git, test_net_git_network_deadline);
	tcase_add_test(git, test_net_git_unreached);
	tcase_add_test(git, test_net_git_https_certificate);
	suite_add_tcase(s, git);
	return s;
}
