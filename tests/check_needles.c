#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/needles.h"

#include "gm_tests.h"
#include "gm_testutil.h"

static struct gm_needles *needles_of(const char *const *lits, size_t n,
				     bool caseless)
{
	struct gm_needles *nd;

	ck_assert_int_eq(gm_needles_new(&nd), 0);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(gm_needles_add(nd, lits[i], strlen(lits[i]),
						caseless, i), 0);
	return nd;
}

START_TEST(test_needles_finds_each_literal)
{
	static const char *const lits[] = { "zstd", "riscv", "bpf", "_MT_" };
	struct gm_needles *nd = needles_of(lits, 4, false);
	unsigned char found[4] = { 0 };
	const char *text = "if (ABS_MT_X) bpf_prog(); /* not RISCV */";

	gm_needles_scan(nd, text, strlen(text), found);
	ck_assert_int_eq(found[0], 0);
	ck_assert_int_eq(found[1], 0);	/* case matters */
	ck_assert_int_eq(found[2], 1);
	ck_assert_int_eq(found[3], 1);
	gm_needles_free(nd);
}
END_TEST

START_TEST(test_needles_caseless)
{
	static const char *const lits[] = { "clang", "LLVM" };
	struct gm_needles *nd = needles_of(lits, 2, true);
	unsigned char found[2] = { 0 };

	gm_needles_scan(nd, "Clang and llvm", 14, found);
	ck_assert_int_eq(found[0], 1);
	ck_assert_int_eq(found[1], 1);
	gm_needles_free(nd);
}
END_TEST

START_TEST(test_needles_edges_of_the_text)
{
	static const char *const lits[] = { "abc", "xyz1" };
	struct gm_needles *nd = needles_of(lits, 2, false);
	unsigned char found[2] = { 0 };

	gm_needles_scan(nd, "abc--xyz1", 9, found);
	ck_assert_int_eq(found[0], 1);
	ck_assert_int_eq(found[1], 1);
	memset(found, 0, sizeof(found));
	gm_needles_scan(nd, "ab", 2, found);		/* shorter than any */
	gm_needles_scan(nd, "--xyz", 5, found);	/* a literal cut short */
	ck_assert_int_eq(found[0], 0);
	ck_assert_int_eq(found[1], 0);
	gm_needles_free(nd);
}
END_TEST

START_TEST(test_needles_owners_share)
{
	struct gm_needles *nd;
	unsigned char found[3] = { 0, 0, 7 };

	ck_assert_int_eq(gm_needles_new(&nd), 0);
	ck_assert_int_eq(gm_needles_add(nd, "pstore", 6, false, 1), 0);
	ck_assert_int_eq(gm_needles_add(nd, "ramoops", 7, false, 1), 0);
	ck_assert_int_eq(gm_needles_add(nd, "ab", 2, false, 0), GM_EINVALID);
	gm_needles_scan(nd, "a ramoops area", 14, found);
	ck_assert_int_eq(found[0], 0);
	ck_assert_int_eq(found[1], 1);
	ck_assert_int_eq(found[2], 7);	/* other bytes left alone */
	gm_needles_free(nd);
}
END_TEST

/* The reference: whether `lit` occurs in `text`, ASCII case ignored or not. */
static bool naive_find(const char *text, size_t len, const char *lit,
		       size_t llen, bool caseless)
{
	for (size_t i = 0; i + llen <= len; i++) {
		size_t k = 0;

		while (k < llen && (caseless ?
			(text[i + k] >= 'A' && text[i + k] <= 'Z' ?
			 text[i + k] + 32 : text[i + k]) ==
			(lit[k] >= 'A' && lit[k] <= 'Z' ? lit[k] + 32 : lit[k]) :
			text[i + k] == lit[k]))
			k++;
		if (k == llen)
			return true;
	}
	return false;
}

/*
 * Against the reference on a pseudo-random text over a small alphabet,
 * where literals and hash buckets collide often; the alphabet has both
 * cases and the bytes next to them ('@', '[', '`', '{') and with the high
 * bit set (0xc1 is 'A' | 0x80), which must not fold. The wide alphabet
 * gives more first bytes than the SSSE3 scan has groups. Case matters
 * for none, all or every other literal; the portable scan and the SSSE3
 * one (where the CPU has it) are both checked.
 */
enum agree_case { CASE_MATTERS, CASELESS, MIXED };

static void agree(const char *alphabet, enum agree_case mode, bool portable)
{
	enum { NLIT = 300, TEXT = 20011 };
	size_t nalpha = strlen(alphabet);
	struct gm_buf lit[NLIT];
	char *text = malloc(TEXT);
	unsigned char found[NLIT] = { 0 };
	bool caseless[NLIT];
	struct gm_needles *nd;
	unsigned seed = 777u + 1000u * mode + portable;

	ck_assert_ptr_nonnull(text);
	for (size_t i = 0; i < TEXT; i++) {
		seed = seed * 1103515245u + 12345u;
		text[i] = alphabet[(seed >> 16) % nalpha];
	}
	ck_assert_int_eq(gm_needles_new(&nd), 0);
	if (portable)
		gm_needles_portable(nd);
	for (size_t i = 0; i < NLIT; i++) {
		gm_buf_init(&lit[i]);
		for (size_t k = 0; k < 3 + i % 5; k++) {
			seed = seed * 1103515245u + 12345u;
			gm_buf_putc(&lit[i], alphabet[(seed >> 16) % nalpha]);
		}
		caseless[i] = mode == CASELESS || (mode == MIXED && i % 2);
		ck_assert_int_eq(gm_needles_add(nd, lit[i].ptr, lit[i].len,
						caseless[i], i), 0);
	}
	/* every length, so that each tail and chunk boundary is crossed */
	for (size_t len = TEXT - 17; len <= TEXT; len++) {
		memset(found, 0, sizeof(found));
		gm_needles_scan(nd, text, len, found);
		for (size_t i = 0; i < NLIT; i++)
			ck_assert_msg(found[i] == naive_find(text, len, lit[i].ptr,
							     lit[i].len, caseless[i]),
				      "literal %zu, text of %zu", i, len);
	}
	for (size_t i = 0; i < NLIT; i++)
		gm_buf_release(&lit[i]);
	gm_needles_free(nd);
	free(text);
}

/* Whether gm_needles_scan() has the SSSE3 scan here (as needles.c asks). */
static bool cpu_has_ssse3(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	return __builtin_cpu_supports("ssse3");
#else
	return false;
#endif
}

static const char *const agree_alphabets[] = {
	"abEe_@[`{\xc1\xe1" "A",
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP_:@[`{\xc1\xe1\x8f",
};

START_TEST(test_needles_agree_with_reference)
{
	const char *alphabet = agree_alphabets[_i / 2];
	bool portable = _i % 2;

	if (!portable && !cpu_has_ssse3()) {
		/* the scan would be the portable one: compared with itself */
		gm_test_skip("needles: no SSSE3 scan on this CPU to compare");
		return;
	}
	agree(alphabet, CASE_MATTERS, portable);
	agree(alphabet, CASELESS, portable);
	agree(alphabet, MIXED, portable);
}
END_TEST

/* `lit` with the letters picked by the bits of `mix` in the other case. */
static bool recase(const char *lit, size_t n, unsigned mix, char *out)
{
	bool same = true;

	for (size_t k = 0; k < n; k++) {
		char c = lit[k];

		out[k] = c;
		if ((mix >> k & 1) && c >= 'a' && c <= 'z')
			out[k] = (char)(c - 32);
		else if ((mix >> k & 1) && c >= 'A' && c <= 'Z')
			out[k] = (char)(c + 32);
		same &= out[k] == c;
	}
	return same;
}

/*
 * One literal, alone in its groups, at every place of a text long enough
 * for the 16-byte scan, in each mix of cases: found where case is ignored
 * or matches.
 */
static void one_literal_everywhere(const char *lit, bool caseless,
				   bool portable)
{
	size_t n = strlen(lit);
	struct gm_needles *nd;
	char text[64], as[8];

	ck_assert_int_eq(gm_needles_new(&nd), 0);
	if (portable)
		gm_needles_portable(nd);
	ck_assert_int_eq(gm_needles_add(nd, lit, n, caseless, 0), 0);
	for (unsigned mix = 0; mix < 1u << n; mix++) {
		bool same = recase(lit, n, mix, as);

		for (size_t pos = 0; pos + n <= sizeof(text); pos++) {
			unsigned char found[1] = { 0 };

			memset(text, '.', sizeof(text));
			memcpy(text + pos, as, n);
			gm_needles_scan(nd, text, sizeof(text), found);
			ck_assert_msg(found[0] == (caseless || same),
				      "'%s' as '%.*s' at %zu%s", lit, (int)n,
				      as, pos, portable ? " (portable)" : "");
		}
	}
	gm_needles_free(nd);
}

START_TEST(test_needles_one_literal_everywhere)
{
	for (int portable = 0; portable < 2; portable++) {
		one_literal_everywhere("abc", true, portable);
		one_literal_everywhere("Zq_x", true, portable);
		one_literal_everywhere("kmP", false, portable);
	}
}
END_TEST

/* Folding is ASCII only: each byte against each case of a letter. */
START_TEST(test_needles_fold_every_byte)
{
	struct gm_needles *nd;
	char text[16];

	ck_assert_int_eq(gm_needles_new(&nd), 0);
	ck_assert_int_eq(gm_needles_add(nd, "xqx", 3, true, 0), 0);
	for (int c = 0; c < 256; c++) {
		unsigned char found[1] = { 0 };

		memset(text, '.', sizeof(text));
		text[9] = 'x';
		text[10] = (char)c;
		text[11] = 'X';
		gm_needles_scan(nd, text, sizeof(text), found);
		ck_assert_msg(found[0] == (c == 'q' || c == 'Q'), "byte %d", c);
	}
	gm_needles_free(nd);
}
END_TEST

/* One thread's scans of a shared set, into a `found` of its own. */
struct scan_thread {
	const struct gm_needles *nd;
	const char *text;
	unsigned char found[4];
};

static void *scan_thread_main(void *payload)
{
	struct scan_thread *t = payload;

	for (int i = 0; i < 50; i++) {
		memset(t->found, 0, sizeof(t->found));
		gm_needles_scan(t->nd, t->text, strlen(t->text), t->found);
	}
	return NULL;
}

/* gm_needles_scan() may run in several threads on one set at once. */
START_TEST(test_needles_scan_in_threads)
{
	static const char *const lits[] = { "zstd", "riscv", "bpf", "_MT_" };
	static const char text[] =
		"a text long enough for the sixteen-byte windows: riscv, then "
		"some more words, and at the end ABS_MT_SLOT";
	struct gm_needles *nd = needles_of(lits, 4, true);
	struct scan_thread t[4];
	pthread_t tid[4];

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		t[i].nd = nd;
		t[i].text = text;
		ck_assert_int_eq(pthread_create(&tid[i], NULL,
						scan_thread_main, &t[i]), 0);
	}
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		ck_assert_int_eq(pthread_join(tid[i], NULL), 0);
		ck_assert_mem_eq(t[i].found, "\0\1\0\1", 4);
	}
	gm_needles_free(nd);
}
END_TEST

Suite *needles_suite(void)
{
	Suite *s = suite_create("needles");
	TCase *tc = tcase_create("scan");

	tcase_add_test(tc, test_needles_finds_each_literal);
	tcase_add_test(tc, test_needles_caseless);
	tcase_add_test(tc, test_needles_edges_of_the_text);
	tcase_add_test(tc, test_needles_owners_share);
	tcase_add_loop_test(tc, test_needles_agree_with_reference, 0,
			    2 * (int)ARRAY_SIZE(agree_alphabets));
	tcase_add_test(tc, test_needles_one_literal_everywhere);
	tcase_add_test(tc, test_needles_fold_every_byte);
	tcase_add_test(tc, test_needles_scan_in_threads);
	suite_add_tcase(s, tc);
	return s;
}
