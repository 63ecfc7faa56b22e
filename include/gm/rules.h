#ifndef GM_RULES_H
#define GM_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "gm/buf.h"
#include "gm/mailmap.h"
#include "gm/maintainers.h"

/*
 * The rules of a run: the MAINTAINERS files the settings select,
 * parsed, and the .mailmap, read by src/cli/rules_read.c. The
 * two fields may be written at once by different threads; the digest
 * runs in any thread.
 */

/* What of the command line the rules use. */
struct gm_rules_settings {
	const char *maintainer_path;	/* --mpath; NULL for MAINTAINERS */
	bool find_maintainer_files;	/* --find-maintainer-files */
	bool mailmap;			/* --mailmap */
	const char *rev;		/* the commit asked for; NULL: HEAD */
	bool brace_patterns;		/* --brace-patterns: Xen's {a,b} globs */
};

struct gm_rules {
	struct gm_maintainers *m;	/* the parsed MAINTAINERS files */
	struct gm_mailmap *mailmap;	/* NULL with --nomailmap or none */
};

/**
 * The MAINTAINERS path of `s` as a path from the top, into `out` (reset
 * first): no "./" in front, no final '/', "" for the top.
 * @return 0 or GM_ERROR.
 */
int gm_rules_path(const struct gm_rules_settings *s, struct gm_buf *out);

/*
 * The prefetch's digest (struct gm_prefetch_digest) of the top
 * MAINTAINERS: its model, or NULL if it does not parse; and its free.
 */
void *gm_rules_digest(const char *text, size_t len);
void gm_rules_digest_free(void *made);

/** Free what was parsed; `rl` is empty again. */
void gm_rules_release(struct gm_rules *rl);

#endif /* GM_RULES_H */
