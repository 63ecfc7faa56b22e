#ifndef GM_TLS_H
#define GM_TLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * A TLS client over a connected socket, for the links check: no
 * certificate is verified. Built on mbedTLS (the library libgit2 uses on
 * Debian) where the build finds it; otherwise gm_tls_available() is
 * false and gm_tls_open() fails. Connections are independent: several
 * threads may each use their own.
 */
struct gm_tls;

/** Whether this build speaks TLS. */
bool gm_tls_available(void);

/**
 * Shake hands on the connected socket `fd` as a client of `host` (sent
 * as SNI) before `deadline` (a gm_net_now() time, 0 for none). The
 * socket stays the caller's. On success `*out` is the caller's
 * (gm_tls_free()). @return 0 or GM_ERROR with a message.
 */
int gm_tls_open(struct gm_tls **out, int fd, const char *host,
		int64_t deadline);

/** Send all of buf[0..len). @return 0 or GM_ERROR. */
int gm_tls_send(struct gm_tls *t, const void *buf, size_t len);

/** Receive up to `len` bytes. @return how many (0 at the end), GM_ERROR. */
ssize_t gm_tls_recv(struct gm_tls *t, void *buf, size_t len);

/** Free the connection (not its socket). NULL is a no-op. */
void gm_tls_free(struct gm_tls *t);

#endif /* GM_TLS_H */
