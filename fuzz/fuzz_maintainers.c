/*
 * The MAINTAINERS parser alone: gm_maintainers_parse() on the input (two
 * files if it holds a NUL byte) and the invariants of the model.
 *
 * The work per input is linear in its size and small, so the fuzzer's time
 * goes to the parser. What is done with the model (--sections, matching,
 * keywords, ranking, the printed addresses) is fuzz_rank's, on the same
 * inputs: a run there prints every section, matches ten paths twice and
 * ranks the sections found, some ten times the work.
 */
#include "fuzz_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gm_maintainers *m = NULL;

	if (fuzz_parse_maintainers(&m, data, size) < 0)
		return 0;
	fuzz_check_model(m);
	gm_maintainers_free(m);
	return 0;
}
