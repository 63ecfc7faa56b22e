#include "gm/tls.h"

#include <stdlib.h>
#include <string.h>

#include <mbedtls/ctr_drbg.h>
#include <mbedtls/entropy.h>
#include <mbedtls/error.h>
#include <mbedtls/net_sockets.h>
#include <mbedtls/ssl.h>

#include "gm/error.h"
#include "gm/net.h"

/* One connection: everything mbedTLS needs, of its own. */
struct gm_tls {
	int fd;
	int64_t deadline;
	mbedtls_entropy_context entropy;
	mbedtls_ctr_drbg_context drbg;
	mbedtls_ssl_config conf;
	mbedtls_ssl_context ssl;
};

bool gm_tls_available(void)
{
	return true;
}

static int tls_bio_send(void *ctx, const unsigned char *buf, size_t len)
{
	struct gm_tls *t = ctx;

	if (gm_net_send(t->fd, buf, len, t->deadline) < 0)
		return MBEDTLS_ERR_NET_SEND_FAILED;
	return (int)len;
}

static int tls_bio_recv(void *ctx, unsigned char *buf, size_t len)
{
	struct gm_tls *t = ctx;
	ssize_t n = gm_net_recv(t->fd, buf, len, t->deadline);

	return n < 0 ? MBEDTLS_ERR_NET_RECV_FAILED : (int)n;
}

/* Whether an mbedTLS call asks to be made again, and there is time. */
static bool tls_again(const struct gm_tls *t, int rc)
{
	return (rc == MBEDTLS_ERR_SSL_WANT_READ ||
		rc == MBEDTLS_ERR_SSL_WANT_WRITE) &&
	       (!t->deadline || gm_net_now() < t->deadline);
}

static int tls_error(int rc, const char *what)
{
	char msg[160];

	mbedtls_strerror(rc, msg, sizeof(msg));
	return gm_error_set(GM_ERROR, "%s: %s", what, msg);
}

int gm_tls_open(struct gm_tls **out, int fd, const char *host,
		int64_t deadline)
{
	static const unsigned char personal[] = "git-maintainer";
	struct gm_tls *t = calloc(1, sizeof(*t));
	int rc;

	if (!t)
		return gm_error_set(GM_ERROR, "out of memory");
	t->fd = fd;
	t->deadline = deadline;
	mbedtls_entropy_init(&t->entropy);
	mbedtls_ctr_drbg_init(&t->drbg);
	mbedtls_ssl_config_init(&t->conf);
	mbedtls_ssl_init(&t->ssl);
	if ((rc = mbedtls_ctr_drbg_seed(&t->drbg, mbedtls_entropy_func,
					&t->entropy, personal,
					sizeof(personal) - 1)) ||
	    (rc = mbedtls_ssl_config_defaults(&t->conf, MBEDTLS_SSL_IS_CLIENT,
					      MBEDTLS_SSL_TRANSPORT_STREAM,
					      MBEDTLS_SSL_PRESET_DEFAULT)))
		goto fail;
	mbedtls_ssl_conf_authmode(&t->conf, MBEDTLS_SSL_VERIFY_NONE);
	mbedtls_ssl_conf_rng(&t->conf, mbedtls_ctr_drbg_random, &t->drbg);
	if ((rc = mbedtls_ssl_setup(&t->ssl, &t->conf)) ||
	    (rc = mbedtls_ssl_set_hostname(&t->ssl, host)))
		goto fail;
	mbedtls_ssl_set_bio(&t->ssl, t, tls_bio_send, tls_bio_recv, NULL);
	while ((rc = mbedtls_ssl_handshake(&t->ssl)))
		if (!tls_again(t, rc))
			goto fail;
	*out = t;
	return 0;
fail:
	gm_tls_free(t);
	return tls_error(rc, "TLS handshake failed");
}

int gm_tls_send(struct gm_tls *t, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len) {
		int rc = mbedtls_ssl_write(&t->ssl, p, len);

		if (tls_again(t, rc))
			continue;
		if (rc < 0)
			return tls_error(rc, "TLS write failed");
		p += rc;
		len -= (size_t)rc;
	}
	return 0;
}

ssize_t gm_tls_recv(struct gm_tls *t, void *buf, size_t len)
{
	for (;;) {
		int rc = mbedtls_ssl_read(&t->ssl, buf, len);

		if (tls_again(t, rc))
			continue;
		if (rc == MBEDTLS_ERR_SSL_PEER_CLOSE_NOTIFY)
			return 0;
		if (rc < 0)
			return tls_error(rc, "TLS read failed");
		return rc;
	}
}

void gm_tls_free(struct gm_tls *t)
{
	if (!t)
		return;
	mbedtls_ssl_free(&t->ssl);
	mbedtls_ssl_config_free(&t->conf);
	mbedtls_ctr_drbg_free(&t->drbg);
	mbedtls_entropy_free(&t->entropy);
	free(t);
}
