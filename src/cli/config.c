#include "gm/config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gm/email.h"
#include "gm/error.h"
#include "gm/strvec.h"
#include "gm/treescript.h"

int gm_config_read_file(struct gm_repo *r, const char *name,
			struct gm_buf *out)
{
	const char *home = getenv("HOME");
	struct gm_buf path = GM_BUF_INIT;
	int error;

	error = gm_repo_read(r, name, out);
	if (error != GM_ENOTFOUND)
		goto out;
	if ((error = gm_buf_printf(&path, "%s/%s", home ? home : "", name)) < 0)
		goto out;
	error = gm_buf_read_file(out, path.ptr);
	if (error != GM_ENOTFOUND)
		goto out;
	gm_buf_reset(&path);
	if ((error = gm_buf_printf(&path, ".scripts/%s", name)) < 0)
		goto out;
	error = gm_repo_read(r, path.ptr, out);
out:
	gm_buf_release(&path);
	return error == GM_ENOTFOUND || error == GM_EINVALID ? 1 : error;
}

int gm_config_words(struct gm_strvec *out, const char *s)
{
	while (*s) {
		size_t eol = strcspn(s, "\n");
		const char *p = s, *end = s + eol;

		while (p < end) {
			const char *w;

			while (p < end && gm_email_isspace((unsigned char)*p))
				p++;
			w = p;
			while (p < end && !gm_email_isspace((unsigned char)*p))
				p++;
			if (w == p || *w == '#')
				break;
			if (gm_strvec_pushn(out, w, (size_t)(p - w)) < 0)
				return gm_error_set(GM_ERROR, "out of memory");
		}
		s = *end ? end + 1 : end;
	}
	return 0;
}

/* Defaults from git config: maintainer.<key>, overridden by the options. */
static int config_apply_git(struct gm_options *o, struct gm_repo *r)
{
	static const struct {
		const char *key;
		size_t offset;
		bool is_bool;
	} keys[] = {
		{ "maintainer.history", offsetof(struct gm_options, history), true },
		{ "maintainer.keywordsInFile",
		  offsetof(struct gm_options, keywords_in_file), true },
		{ "maintainer.rolestats", offsetof(struct gm_options, rolestats), true },
		{ "maintainer.maintainerRoles",
		  offsetof(struct gm_options, maintainer_roles), true },
		{ "maintainer.keywordRoles",
		  offsetof(struct gm_options, keyword_roles), true },
		{ "maintainer.unicodeFileEmails",
		  offsetof(struct gm_options, unicode_file_emails), true },
		{ "maintainer.since", offsetof(struct gm_options, since), false },
		{ "maintainer.format", offsetof(struct gm_options, format), false },
	};
	int error = 0;

	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys) && !error; i++) {
		char *field = (char *)o + keys[i].offset;
		char *value = NULL;
		bool b;

		if (keys[i].is_bool) {
			error = gm_repo_config_bool(r, keys[i].key, &b);
			if (!error)
				*(int *)field = b;
		} else if (!(error = gm_repo_config_string(r, keys[i].key,
							   &value))) {
			free(*(char **)field);
			*(char **)field = value;
		}
		if (error == GM_ENOTFOUND)
			error = 0;
	}
	return error;
}

int gm_config_load(struct gm_options *opts, struct gm_repo *r, int argc,
		   const char **argv)
{
	struct gm_strvec words = GM_STRVEC_INIT;
	struct gm_buf conf = GM_BUF_INIT;
	int error;

	error = gm_config_read_file(r, ".get_maintainer.conf", &conf);
	if (error == 0)
		error = gm_config_words(&words, conf.ptr);
	if (error < 0)
		goto out;
	gm_options_release(opts);
	gm_options_init(opts);
	gm_treescript_load(opts, r);
	if ((error = config_apply_git(opts, r)) < 0 ||
	    (error = gm_options_parse(opts, (int)words.nr,
				      (const char **)words.v)) < 0 ||
	    (error = gm_options_parse(opts, argc, argv)) < 0)
		goto out;
	error = gm_options_finish(opts);
out:
	gm_strvec_release(&words);
	gm_buf_release(&conf);
	return error;
}
