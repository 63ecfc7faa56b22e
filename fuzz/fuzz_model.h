#ifndef GM_FUZZ_MODEL_H
#define GM_FUZZ_MODEL_H

/*
 * The input of fuzz_maintainers and fuzz_rank: MAINTAINERS text, two files
 * if it holds a NUL byte (the text before it and the text after); and the
 * invariants of the parsed model.
 */
#include "fuzz_common.h"

#include "gm/maintainers.h"

/* gm_maintainers_parse() on the input. */
static int fuzz_parse_maintainers(struct gm_maintainers **out,
				  const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nul = memchr(text, '\0', size);
	const char *bufs[2] = { text, NULL };
	size_t lens[2] = { size, 0 }, n = 1;

	if (nul) {
		lens[0] = (size_t)(nul - text);
		bufs[1] = nul + 1;
		lens[1] = size - lens[0] - 1;
		n = 2;
	}
	return gm_maintainers_parse(out, bufs, lens, n);
}

/* Sections tile the tag lines in order; each line's pattern fits its tag. */
static void fuzz_check_model(const struct gm_maintainers *m)
{
	for (size_t s = 0; s < m->nr_sections; s++) {
		const struct gm_section *sec = &m->sections[s];

		FUZZ_CHECK(sec->start < sec->end && sec->end <= m->nr_lines);
		FUZZ_CHECK(!s || m->sections[s - 1].end <= sec->start);
		FUZZ_CHECK(sec->name && sec->short_name);
		FUZZ_CHECK(strlen(sec->short_name) <= 50);
		for (size_t i = sec->start; i < sec->end; i++)
			FUZZ_CHECK(m->section_of[i] == s);
	}
	for (size_t i = 0; i < m->nr_lines; i++) {
		const struct gm_mline *ml = &m->lines[i];

		FUZZ_CHECK(strlen(ml->value) == ml->len);
		FUZZ_CHECK(!ml->tag || (ml->tag >= 'A' && ml->tag <= 'Z'));
		FUZZ_CHECK(!ml->glob == !(ml->tag == 'F' || ml->tag == 'X'));
		FUZZ_CHECK(!ml->regex == !(ml->tag == 'N' || ml->tag == 'K'));
	}
}

#endif /* GM_FUZZ_MODEL_H */
