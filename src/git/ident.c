#include "gm/ident.h"

#include <stdlib.h>

#include "gm/error.h"

/* The blob at `spec` in `tree`, else the one `spec` names, with a newline. */
static int mailmap_add_blob(struct gm_buf *all, git_repository *repo,
			    git_tree *tree, const char *spec)
{
	git_object *obj = NULL;
	int error = 0;

	if (!(tree ? git_object_lookup_bypath(&obj, (git_object *)tree, spec,
					      GIT_OBJECT_BLOB) :
		     git_revparse_single(&obj, repo, spec)) &&
	    git_object_type(obj) == GIT_OBJECT_BLOB &&
	    !(error = gm_buf_put(all, git_blob_rawcontent((git_blob *)obj),
				 (size_t)git_blob_rawsize((git_blob *)obj))))
		error = gm_buf_putc(all, '\n');
	git_object_free(obj);
	return error;
}

int gm_ident_mailmap(git_mailmap **out, git_repository *repo, git_tree *tree)
{
	struct gm_buf all = GM_BUF_INIT;
	git_config *cfg = NULL;
	git_buf value = { NULL, 0, 0 };
	int error;

	error = mailmap_add_blob(&all, repo, tree, ".mailmap");
	if (!error && git_repository_config_snapshot(&cfg, repo) == 0) {
		if (git_config_get_string_buf(&value, cfg, "mailmap.blob") == 0)
			error = mailmap_add_blob(&all, repo, NULL, value.ptr);
		git_buf_dispose(&value);
		if (!error &&
		    git_config_get_path(&value, cfg, "mailmap.file") == 0) {
			error = gm_buf_read_file(&all, value.ptr);
			if (error == GM_ENOTFOUND)
				error = 0;
		}
		git_buf_dispose(&value);
	}
	git_config_free(cfg);
	if (!error && git_mailmap_from_buffer(out, all.ptr, all.len) < 0)
		error = gm_error_from_git(GIT_ERROR, "cannot parse the mailmap");
	gm_buf_release(&all);
	return error;
}

int gm_ident_resolve(const git_mailmap *mm, const char **name,
		     const char **email)
{
	if (mm && git_mailmap_resolve(name, email, mm, *name, *email) < 0)
		return gm_error_set(GM_ERROR, "out of memory");
	return 0;
}

/* The first of `keys` set (environment, then config) into `out`. */
static int ident_part(struct gm_buf *out, git_config *cfg, const char *env,
		      const char *key1, const char *key2)
{
	const char *v = getenv(env);
	git_buf value = { NULL, 0, 0 };
	int error = 0;

	gm_buf_reset(out);
	if (v && *v)
		return gm_buf_puts(out, v) < 0 ? GM_ERROR : 0;
	if (cfg && (git_config_get_string_buf(&value, cfg, key1) == 0 ||
		    git_config_get_string_buf(&value, cfg, key2) == 0))
		error = gm_buf_puts(out, value.ptr);
	git_buf_dispose(&value);
	return error < 0 ? GM_ERROR : 0;
}

int gm_ident_user(struct gm_buf *name, struct gm_buf *email,
		  git_repository *repo)
{
	git_config *cfg = NULL;
	const char *fallback = getenv("EMAIL");
	int error;

	if (git_repository_config_snapshot(&cfg, repo) < 0)
		cfg = NULL;
	if ((error = ident_part(name, cfg, "GIT_AUTHOR_NAME", "author.name",
				"user.name")) == 0 &&
	    (error = ident_part(email, cfg, "GIT_AUTHOR_EMAIL", "author.email",
				"user.email")) == 0 &&
	    !email->len && fallback && *fallback)
		error = gm_buf_puts(email, fallback) < 0 ? GM_ERROR : 0;
	git_config_free(cfg);
	if (!error && !email->len)
		error = GM_ENOTFOUND;
	return error;
}

void gm_ident_mailmap_free(git_mailmap *mm)
{
	git_mailmap_free(mm);
}
