#include "gm/tls.h"

#include "gm/error.h"

/* A build without a TLS library: https links cannot be checked. */

bool gm_tls_available(void)
{
	return false;
}

int gm_tls_open(struct gm_tls **out, int fd, const char *host,
		int64_t deadline)
{
	(void)fd;
	(void)host;
	(void)deadline;
	*out = NULL;
	return gm_error_set(GM_ERROR, "this build has no TLS support");
}

int gm_tls_send(struct gm_tls *t, const void *buf, size_t len)
{
	(void)t;
	(void)buf;
	(void)len;
	return gm_error_set(GM_ERROR, "this build has no TLS support");
}

ssize_t gm_tls_recv(struct gm_tls *t, void *buf, size_t len)
{
	(void)t;
	(void)buf;
	(void)len;
	return gm_error_set(GM_ERROR, "this build has no TLS support");
}

void gm_tls_free(struct gm_tls *t)
{
	(void)t;
}
