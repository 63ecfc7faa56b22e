#include "gm/rules.h"

#include <string.h>

#include "gm/error.h"

int gm_rules_path(const struct gm_rules_settings *s, struct gm_buf *out)
{
	const char *mpath = s->maintainer_path ? s->maintainer_path :
						 "MAINTAINERS";

	gm_buf_reset(out);
	while (mpath[0] == '.' && mpath[1] == '/')
		mpath += 2;
	if (!strcmp(mpath, "."))
		mpath = "";
	if (gm_buf_puts(out, mpath) < 0)
		return GM_ERROR;
	while (out->len && out->ptr[out->len - 1] == '/')
		out->ptr[--out->len] = '\0';
	return 0;
}

void *gm_rules_digest(const char *text, size_t len)
{
	struct gm_maintainers *m = NULL;

	if (gm_maintainers_parse(&m, &text, &len, 1) < 0)
		return NULL;
	return m;
}

void gm_rules_digest_free(void *made)
{
	gm_maintainers_free(made);
}

void gm_rules_release(struct gm_rules *rl)
{
	gm_maintainers_free(rl->m);
	gm_mailmap_free(rl->mailmap);
	rl->m = NULL;
	rl->mailmap = NULL;
}
