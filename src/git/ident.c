#include "gm/ident.h"

#include "gm/error.h"

int64_t gm_ident_commit_time(const git_commit *c)
{
	return (int64_t)git_commit_time(c);
}

int gm_ident_resolve(const char **rname, const char **remail,
		     const git_mailmap *mm, const char *name,
		     const char *email)
{
	if (git_mailmap_resolve(rname, remail, mm, name, email) < 0)
		return gm_error_set(GM_ERROR, "out of memory");
	return 0;
}

void gm_ident_mailmap_free(git_mailmap *mm)
{
	git_mailmap_free(mm);
}
