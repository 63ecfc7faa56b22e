#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gm/buf.h"

#include "gm_tests.h"
#include "gm_testutil.h"

START_TEST(test_buf_init_is_empty_string)
{
	struct gm_buf b = GM_BUF_INIT;
	struct gm_buf c;

	gm_buf_init(&c);
	ck_assert_str_eq(b.ptr, "");
	ck_assert_uint_eq(b.len, 0);
	ck_assert_uint_eq(b.alloc, 0);
	ck_assert_str_eq(c.ptr, "");
	ck_assert_uint_eq(c.alloc, 0);
	gm_buf_release(&b);
	gm_buf_release(&c);
}
END_TEST

START_TEST(test_buf_putc_grows)
{
	struct gm_buf b = GM_BUF_INIT;
	size_t i;

	for (i = 0; i < 1000; i++)
		ck_assert_int_eq(gm_buf_putc(&b, (char)('a' + i % 26)), 0);
	ck_assert_uint_eq(b.len, 1000);
	ck_assert_uint_gt(b.alloc, 1000);
	ck_assert_int_eq(b.ptr[1000], '\0');
	for (i = 0; i < 1000; i++)
		ck_assert_int_eq(b.ptr[i], 'a' + (int)(i % 26));
	gm_buf_release(&b);
}
END_TEST

START_TEST(test_buf_put_keeps_embedded_nul)
{
	struct gm_buf b = GM_BUF_INIT;

	ck_assert_int_eq(gm_buf_put(&b, "a\0b", 3), 0);
	ck_assert_int_eq(gm_buf_puts(&b, "cd"), 0);
	ck_assert_uint_eq(b.len, 5);
	ck_assert_mem_eq(b.ptr, "a\0bcd", 6);
	gm_buf_release(&b);
}
END_TEST

START_TEST(test_buf_put_nothing_is_empty_string)
{
	struct gm_buf b = GM_BUF_INIT;

	ck_assert_int_eq(gm_buf_put(&b, "", 0), 0);
	ck_assert_str_eq(b.ptr, "");
	ck_assert_uint_eq(b.len, 0);
	gm_buf_release(&b);
}
END_TEST

START_TEST(test_buf_printf_appends)
{
	struct gm_buf b = GM_BUF_INIT;
	char big[300];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(gm_buf_puts(&b, "<"), 0);
	ck_assert_int_eq(gm_buf_printf(&b, "%d-%s", 42, "abc"), 0);
	ck_assert_str_eq(b.ptr, "<42-abc");
	ck_assert_int_eq(gm_buf_printf(&b, "%s|%zu", big, (size_t)7), 0);
	ck_assert_uint_eq(b.len, 7 + 299 + 2);
	ck_assert_int_eq(strncmp(b.ptr, "<42-abcxxx", 10), 0);
	ck_assert_str_eq(b.ptr + b.len - 2, "|7");
	gm_buf_release(&b);
}
END_TEST

START_TEST(test_buf_reset_keeps_storage)
{
	struct gm_buf b = GM_BUF_INIT;
	size_t alloc;

	gm_buf_puts(&b, "hello world");
	alloc = b.alloc;
	gm_buf_reset(&b);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_uint_eq(b.alloc, alloc);
	ck_assert_str_eq(b.ptr, "");
	gm_buf_puts(&b, "x");
	ck_assert_str_eq(b.ptr, "x");
	gm_buf_release(&b);
}
END_TEST

START_TEST(test_buf_detach_hands_over)
{
	struct gm_buf b = GM_BUF_INIT;
	size_t len = 0;
	char *s;

	gm_buf_puts(&b, "content");
	s = gm_buf_detach(&b, &len);
	ck_assert_str_eq(s, "content");
	ck_assert_uint_eq(len, 7);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_uint_eq(b.alloc, 0);
	ck_assert_str_eq(b.ptr, "");
	free(s);

	/* an empty buffer still gives a string the caller can free() */
	s = gm_buf_detach(&b, &len);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, "");
	ck_assert_uint_eq(len, 0);
	free(s);
	gm_buf_release(&b);
}
END_TEST

START_TEST(test_buf_set_lower)
{
	struct gm_buf b = GM_BUF_INIT;

	ck_assert_int_eq(gm_buf_set_lower(&b, "Linus <TORVALDS@Example.ORG>"),
			 0);
	ck_assert_str_eq(b.ptr, "linus <torvalds@example.org>");
	ck_assert_uint_eq(b.len, 28);
	/* the content replaced, bytes past ASCII kept, in place too */
	ck_assert_int_eq(gm_buf_set_lower(&b, "\xc3\x89Z@["), 0);
	ck_assert_str_eq(b.ptr, "\xc3\x89z@[");
	ck_assert_int_eq(gm_buf_puts(&b, "QX`{"), 0);
	ck_assert_int_eq(gm_buf_set_lower(&b, b.ptr), 0);
	ck_assert_str_eq(b.ptr, "\xc3\x89z@[qx`{");
	gm_buf_release(&b);
}
END_TEST

START_TEST(test_buf_release_is_reusable)
{
	struct gm_buf b = GM_BUF_INIT;

	gm_buf_puts(&b, "one");
	gm_buf_release(&b);
	ck_assert_str_eq(b.ptr, "");
	ck_assert_uint_eq(b.alloc, 0);
	gm_buf_puts(&b, "two");
	ck_assert_str_eq(b.ptr, "two");
	gm_buf_release(&b);
	gm_buf_release(&b);
}
END_TEST

START_TEST(test_buf_grow_overflow_fails_cleanly)
{
	struct gm_buf b = GM_BUF_INIT;

	gm_buf_puts(&b, "kept");
	ck_assert_int_eq(gm_buf_grow(&b, SIZE_MAX), GM_ERROR);
	ck_assert_int_eq(gm_buf_put(&b, "x", SIZE_MAX - 2), GM_ERROR);
	ck_assert_str_eq(b.ptr, "kept");
	ck_assert_uint_eq(b.len, 4);
	gm_buf_release(&b);
}
END_TEST

START_TEST(test_buf_read_file_kinds)
{
	struct gm_buf b = GM_BUF_INIT, path = GM_BUF_INIT;
	char *dir = gm_test_tmpdir();

	ck_assert_ptr_nonnull(dir);
	ck_assert_int_eq(gm_test_write_file(dir, "f.txt", "line 1\nline 2\n"),
			 0);
	gm_buf_printf(&path, "%s/f.txt", dir);
	gm_buf_puts(&b, ">");
	ck_assert_int_eq(gm_buf_read_file(&b, path.ptr), 0);
	ck_assert_str_eq(b.ptr, ">line 1\nline 2\n");

	gm_buf_reset(&path);
	gm_buf_printf(&path, "%s/missing", dir);
	ck_assert_int_eq(gm_buf_read_file(&b, path.ptr), GM_ENOTFOUND);
	ck_assert_int_eq(gm_buf_read_file(&b, dir), GM_EINVALID);
	ck_assert_str_eq(b.ptr, ">line 1\nline 2\n");
	gm_buf_release(&b);
	gm_buf_release(&path);
	gm_test_rmtree(dir);
}
END_TEST

/*
 * Only a regular file, no larger than asked, zeros after it; a FIFO is
 * not opened (that would wait for a writer), a symlink not followed.
 */
START_TEST(test_buf_read_regular_kinds)
{
	struct gm_buf b = GM_BUF_INIT, path = GM_BUF_INIT;
	char *dir = gm_test_tmpdir();

	ck_assert_ptr_nonnull(dir);
	ck_assert_int_eq(gm_test_write_file(dir, "f.txt", "twelve bytes"), 0);
	gm_buf_printf(&path, "%s/f.txt", dir);
	ck_assert_int_eq(gm_buf_read_regular(&b, path.ptr, 11), GM_ENOTFOUND);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_int_eq(gm_buf_read_regular(&b, path.ptr, 12), 0);
	ck_assert_str_eq(b.ptr, "twelve bytes");
	for (size_t i = 0; i <= GM_BUF_PAD; i++)
		ck_assert_int_eq(b.ptr[b.len + i], 0);
	gm_buf_release(&b);
	gm_buf_reset(&path);
	gm_buf_printf(&path, "%s/link", dir);
	ck_assert_int_eq(symlink("f.txt", path.ptr), 0);
	ck_assert_int_eq(gm_buf_read_regular(&b, path.ptr, 100), GM_ENOTFOUND);
	gm_buf_reset(&path);
	gm_buf_printf(&path, "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(path.ptr, 0600), 0);
	ck_assert_int_eq(gm_buf_read_regular(&b, path.ptr, 100), GM_ENOTFOUND);
	ck_assert_int_eq(gm_buf_read_regular(&b, dir, 100), GM_ENOTFOUND);
	gm_buf_reset(&path);
	gm_buf_printf(&path, "%s/missing", dir);
	ck_assert_int_eq(gm_buf_read_regular(&b, path.ptr, 100), GM_ENOTFOUND);
	ck_assert_uint_eq(b.len, 0);
	gm_buf_release(&b);
	gm_buf_release(&path);
	gm_test_rmtree(dir);
}
END_TEST

START_TEST(test_buf_read_fd_appends_pipe)
{
	struct gm_buf b = GM_BUF_INIT;
	int fds[2];

	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(write(fds[1], "hello", 5), 5);
	close(fds[1]);
	gm_buf_puts(&b, "say ");
	ck_assert_int_eq(gm_buf_read_fd(&b, fds[0], "pipe"), 0);
	close(fds[0]);
	ck_assert_str_eq(b.ptr, "say hello");
	ck_assert_uint_eq(b.len, 9);
	gm_buf_release(&b);
}
END_TEST

Suite *buf_suite(void)
{
	Suite *s = suite_create("buf");
	TCase *tc = tcase_create("core");
	TCase *io = tcase_create("io");

	tcase_add_test(tc, test_buf_init_is_empty_string);
	tcase_add_test(tc, test_buf_putc_grows);
	tcase_add_test(tc, test_buf_put_keeps_embedded_nul);
	tcase_add_test(tc, test_buf_put_nothing_is_empty_string);
	tcase_add_test(tc, test_buf_printf_appends);
	tcase_add_test(tc, test_buf_reset_keeps_storage);
	tcase_add_test(tc, test_buf_detach_hands_over);
	tcase_add_test(tc, test_buf_set_lower);
	tcase_add_test(tc, test_buf_release_is_reusable);
	tcase_add_test(tc, test_buf_grow_overflow_fails_cleanly);
	suite_add_tcase(s, tc);
	tcase_add_test(io, test_buf_read_file_kinds);
	tcase_add_test(io, test_buf_read_regular_kinds);
	tcase_add_test(io, test_buf_read_fd_appends_pipe);
	suite_add_tcase(s, io);
	return s;
}
