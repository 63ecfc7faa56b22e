#include "gm/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char gm_buf__empty[1];

void gm_buf_init(struct gm_buf *b)
{
	b->ptr = gm_buf__empty;
	b->len = 0;
	b->alloc = 0;
}

void gm_buf_release(struct gm_buf *b)
{
	if (b->alloc)
		free(b->ptr);
	gm_buf_init(b);
}

int gm_buf_grow(struct gm_buf *b, size_t extra)
{
	size_t want, alloc;
	char *p;

	if (extra > SIZE_MAX - b->len - 1)
		return gm_error_set(GM_ERROR, "out of memory");
	want = b->len + extra + 1;
	if (want <= b->alloc)
		return 0;
	alloc = b->alloc ? b->alloc : 64;
	while (alloc < want)
		alloc = alloc > SIZE_MAX / 2 ? want : alloc * 2;
	p = realloc(b->alloc ? b->ptr : NULL, alloc);
	if (!p)
		return gm_error_set(GM_ERROR, "out of memory");
	if (!b->alloc)
		p[0] = '\0';
	b->ptr = p;
	b->alloc = alloc;
	return 0;
}

int gm_array_grow(void *array, size_t *alloc, size_t nr, size_t size)
{
	void *old, *p;
	size_t n = *alloc ? *alloc : 8;

	if (nr < *alloc)
		return 0;
	while (n <= nr)
		n = n > SIZE_MAX / 2 ? SIZE_MAX : n * 2;
	if (n > SIZE_MAX / size)
		return gm_error_set(GM_ERROR, "out of memory");
	memcpy(&old, array, sizeof(old));
	p = realloc(old, n * size);
	if (!p)
		return gm_error_set(GM_ERROR, "out of memory");
	memcpy(array, &p, sizeof(p));
	*alloc = n;
	return 0;
}

int gm_buf_put(struct gm_buf *b, const char *data, size_t len)
{
	if (gm_buf_grow(b, len) < 0)
		return GM_ERROR;
	if (len)
		memmove(b->ptr + b->len, data, len);
	b->len += len;
	b->ptr[b->len] = '\0';
	return 0;
}

int gm_buf_puts(struct gm_buf *b, const char *s)
{
	return gm_buf_put(b, s, strlen(s));
}

int gm_buf_putc(struct gm_buf *b, char c)
{
	return gm_buf_put(b, &c, 1);
}

int gm_buf_printf(struct gm_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return gm_error_set(GM_ERROR, "bad format");
	if (gm_buf_grow(b, (size_t)n) < 0)
		return GM_ERROR;
	va_start(ap, fmt);
	vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

/* Whether git quotes byte `c` of a path. */
static bool path_byte_quoted(unsigned char c, bool high)
{
	return c < ' ' || c == 0x7f || c == '"' || c == '\\' ||
	       (high && c >= 0x80);
}

int gm_buf_put_path(struct gm_buf *b, const char *path, bool high)
{
	static const char esc[] = "\a\b\t\n\v\f\r\"\\";
	static const char letter[] = "abtnvfr\"\\";
	const unsigned char *p = (const unsigned char *)path;
	size_t len = b->len;
	int error = 0;

	while (*p && !path_byte_quoted(*p, high))
		p++;
	if (!*p)
		return gm_buf_puts(b, path);
	error = gm_buf_putc(b, '"');
	for (p = (const unsigned char *)path; *p && !error; p++) {
		const char *e = path_byte_quoted(*p, high) ?
				strchr(esc, *p) : NULL;

		if (e)
			error = gm_buf_printf(b, "\\%c", letter[e - esc]);
		else if (path_byte_quoted(*p, high))
			error = gm_buf_printf(b, "\\%03o", *p);
		else
			error = gm_buf_putc(b, (char)*p);
	}
	if (!error)
		error = gm_buf_putc(b, '"');
	if (error) {
		b->len = len;
		b->ptr[len] = '\0';
	}
	return error;
}

void gm_buf_reset(struct gm_buf *b)
{
	b->len = 0;
	if (b->alloc)
		b->ptr[0] = '\0';
}

int gm_buf_set_lower(struct gm_buf *b, const char *s)
{
	if (s != b->ptr) {
		gm_buf_reset(b);
		if (gm_buf_puts(b, s) < 0)
			return GM_ERROR;
	}
	for (size_t i = 0; i < b->len; i++)
		if (b->ptr[i] >= 'A' && b->ptr[i] <= 'Z')
			b->ptr[i] += 'a' - 'A';
	return 0;
}

char *gm_buf_detach(struct gm_buf *b, size_t *len)
{
	char *p = b->alloc ? b->ptr : calloc(1, 1);

	if (len)
		*len = b->len;
	gm_buf_init(b);
	return p;
}

int gm_buf_read_fd(struct gm_buf *b, int fd, const char *what)
{
	size_t start = b->len;
	ssize_t n;
	int error = 0;

	while (!error) {
		if (b->len - start >= GM_BUF_MAX_READ)
			error = gm_error_set(GM_EINVALID, "%s: larger than %zu bytes",
					     what, (size_t)GM_BUF_MAX_READ);
		else if (gm_buf_grow(b, 65536) < 0)
			return GM_ERROR;
		else if ((n = read(fd, b->ptr + b->len,
				   b->alloc - b->len - 1)) > 0)
			b->len += (size_t)n;
		else if (!n)
			break;
		else if (errno != EINTR)
			error = gm_error_set(GM_ERROR, "cannot read %s: %s", what,
					     strerror(errno));
	}
	if (error)
		b->len = start;
	b->ptr[b->len] = '\0';
	return error;
}

int gm_buf_read_regular(struct gm_buf *b, const char *path, size_t max)
{
	int error = GM_ENOTFOUND, fd;
	struct stat st;
	size_t size;

	/* not even opened unless regular: opening a FIFO waits for a writer */
	if (lstat(path, &st) || !S_ISREG(st.st_mode) ||
	    (fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
		       O_CLOEXEC)) < 0)
		return GM_ENOTFOUND;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (uintmax_t)st.st_size > max)
		goto out;
	size = (size_t)st.st_size;
	if (gm_buf_grow(b, size + GM_BUF_PAD) < 0) {
		error = GM_ERROR;
		goto out;
	}
	while (b->len < size) {
		ssize_t n = read(fd, b->ptr + b->len, size - b->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto out;
		b->len += (size_t)n;
	}
	memset(b->ptr + b->len, 0, 1 + GM_BUF_PAD);
	error = 0;
out:
	close(fd);
	if (error)
		gm_buf_release(b);
	return error;
}

int gm_buf_read_file(struct gm_buf *b, const char *path)
{
	struct stat st;
	int fd, error;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return gm_error_set(errno == ENOENT ? GM_ENOTFOUND : GM_ERROR,
				    "cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return gm_error_set(GM_EINVALID, "'%s' is a directory", path);
	}
	error = gm_buf_read_fd(b, fd, path);
	close(fd);
	return error;
}
