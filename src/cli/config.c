#include "gm/config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gm/date.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/output.h"
#include "gm/pattern.h"
#include "gm/strvec.h"
#include "gm/treescript.h"

int gm_config_read_file(struct gm_repo *r, const char *name,
			struct gm_buf *out)
{
	const char *home = getenv("HOME");
	struct gm_buf path = GM_BUF_INIT;
	int error = gm_repo_read(r, name, out);

	if (error == GM_ENOTFOUND &&
	    !(error = gm_buf_printf(&path, "%s/%s", home ? home : "", name)) &&
	    (error = gm_buf_read_file(out, path.ptr)) == GM_ENOTFOUND) {
		gm_buf_reset(&path);
		if (!(error = gm_buf_printf(&path, ".scripts/%s", name)))
			error = gm_repo_read(r, path.ptr, out);
	}
	gm_buf_release(&path);
	return error == GM_ENOTFOUND || error == GM_EINVALID ? 1 : error;
}

int gm_config_words(struct gm_strvec *out, const char *s)
{
	while (*s) {
		const char *w;

		while (gm_email_isspace((unsigned char)*s))
			s++;
		if (*s == '#') {	/* a comment to the end of the line */
			s += strcspn(s, "\n");
			continue;
		}
		for (w = s; *s && !gm_email_isspace((unsigned char)*s); s++)
			;
		if (w < s && gm_strvec_pushn(out, w, (size_t)(s - w)) < 0)
			return GM_ERROR;
	}
	return 0;
}

/*
 * A bad value names the key, the value and what would be accepted, as
 * one fatal line (no usage text: the command line is not at fault).
 */
static int config_bad(const char *key, const char *value,
		      const char *accepted)
{
	return gm_error_set(GM_EINVALID,
			    "bad value '%s' for git config %s: %s", value,
			    key, accepted);
}

/* The switch maintainer.<key> into the option `name`. */
static int config_bool(struct gm_options *o, struct gm_repo *r,
		       const char *key, const char *name)
{
	char *value = NULL;
	bool b;
	int error = gm_repo_config_bool(r, key, &b);

	if (!error)
		gm_options_set(o, name, b);
	else if (error != GM_ENOTFOUND) {
		gm_repo_config_string(r, key, &value);
		error = config_bad(key, value ? value : "",
				   "a boolean is expected (true, false, yes, no, on, off, 1, 0)");
		free(value);
	}
	return error;
}

/* The number maintainer.<key> into the option `name`. */
static int config_int(struct gm_options *o, struct gm_repo *r,
		      const char *key, const char *name)
{
	char *value = NULL, *end;
	long v;
	int error = gm_repo_config_string(r, key, &value);

	if (!error) {
		v = strtol(value, &end, 10);
		if (!*value || *end || v < 0 || v > 1000000)
			error = config_bad(key, value, "a number from 0 to 1000000");
		else
			gm_options_set(o, name, (int)v);
	}
	free(value);
	return error;
}

/* maintainer.since (a date) or maintainer.format (text or json). */
static int config_string(char **field, struct gm_repo *r, const char *key)
{
	char *value = NULL;
	int64_t when;
	int error = gm_repo_config_string(r, key, &value);

	if (error)
		return error;
	if (!strcmp(key, "maintainer.format") && strcmp(value, "text") &&
	    strcmp(value, "json"))
		error = config_bad(key, value, "the accepted values are text and json");
	else if (!strcmp(key, "maintainer.since"))
		error = gm_git_date(&when, value, "git config maintainer.since");
	if (error) {
		free(value);
		return error;
	}
	free(*field);
	*field = value;
	return 0;
}

/* "maintainer." and the option `name` in camel case ("gitFallback"). */
static void config_key(char *key, size_t size, const char *name)
{
	size_t n = (size_t)snprintf(key, size, "maintainer.");
	bool up = false;

	for (; *name && n + 1 < size; name++) {
		if (*name == '-') {
			up = true;
			continue;
		}
		key[n++] = up ? (char)toupper((unsigned char)*name) : *name;
		up = false;
	}
	key[n] = '\0';
}

/*
 * Defaults from git config: maintainer.<option in camel case>, for the
 * options named below, overridden by the command line.
 */
static int config_apply_git(struct gm_options *o, struct gm_repo *r)
{
	static const char *const names[] = {
		"history", "links-insecure", "git-fallback",
		"drop-the-rest-supporter", "brace-patterns", "reviewer-section",
		"named-lists", "patch-dev-null", "git-author-roles",
		"tracked-paths", "keywords-in-file", "rolestats", "since",
		"format", "maintainer-roles", "keyword-roles",
		"unicode-file-emails", "section-name-max",
		"git-fallback-maintainers",
	};
	char key[64];
	int error = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(*names) && !error; i++) {
		config_key(key, sizeof(key), names[i]);
		if (!strcmp(names[i], "since"))
			error = config_string(&o->since, r, key);
		else if (!strcmp(names[i], "format"))
			error = config_string(&o->format, r, key);
		else if (!strcmp(names[i], "section-name-max"))
			error = config_int(o, r, key, names[i]);
		else
			error = config_bool(o, r, key, names[i]);
		if (error == GM_ENOTFOUND)
			error = 0;
	}
	return error;
}

/* The largest script read (Linux's is under 100 KiB). */
#define TREESCRIPT_MAX ((size_t)4 << 20)

/*
 * `path` into `out` as `git config --path` expands it: a leading "~/"
 * or "~user/" made that home directory. @return 0, GM_ENOTFOUND (with
 * a message) or GM_ERROR.
 */
static int expand_home(struct gm_buf *out, const char *path)
{
	const char *slash = path + strcspn(path, "/"), *home = NULL;
	struct gm_buf user = GM_BUF_INIT;
	struct passwd *pw;

	if (path[0] != '~')
		return gm_buf_puts(out, path);
	if (slash == path + 1) {
		home = getenv("HOME");
	} else if (!gm_buf_put(&user, path + 1, (size_t)(slash - path - 1))) {
		pw = getpwnam(user.ptr);
		home = pw ? pw->pw_dir : NULL;
	}
	gm_buf_release(&user);
	if (!home)
		return gm_error_set(GM_ENOTFOUND, "no home directory for it");
	return gm_buf_printf(out, "%s%s", home, slash);
}

/*
 * The regular file at `path`, of TREESCRIPT_MAX bytes at most, into
 * `out`; opened without waiting (a FIFO or a device is refused).
 * @return 0, or GM_ENOTFOUND or GM_EINVALID with a message saying why.
 */
static int treescript_file(struct gm_buf *out, const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), error;
	struct stat st;

	if (fd < 0)
		return gm_error_set(GM_ENOTFOUND, "%s", strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		error = gm_error_set(GM_EINVALID, "not a regular file");
	else if ((uintmax_t)st.st_size > TREESCRIPT_MAX)
		error = gm_error_set(GM_EINVALID, "larger than %zu MiB",
				     TREESCRIPT_MAX >> 20);
	else if ((error = gm_buf_read_fd(out, fd, path)) < 0)
		error = GM_ENOTFOUND;
	close(fd);
	return error;
}

/*
 * The script's text: at `path` in the commit's tree; else, for a path
 * git config named (`named`), the file at `path` (`~` expanded).
 * @return 0, GM_ENOTFOUND (none), or GM_EINVALID (one that cannot be
 * read), with a message saying why.
 */
static int treescript_read(struct gm_repo *r, const char *path, bool named,
			   struct gm_buf *out)
{
	struct gm_repo_text t = GM_REPO_TEXT_INIT;
	struct gm_buf file = GM_BUF_INIT;
	int error = named ? expand_home(&file, path) : gm_buf_puts(&file, path);

	if (!error && !(error = gm_repo_text(r, file.ptr, NULL, &t)))
		error = t.len > TREESCRIPT_MAX ?
			gm_error_set(GM_EINVALID, "larger than %zu MiB",
				     TREESCRIPT_MAX >> 20) :
			gm_buf_put(out, t.ptr, t.len);
	else if (named && file.len)
		error = treescript_file(out, file.ptr);
	gm_repo_text_release(&t);
	gm_buf_release(&file);
	return error;
}

int gm_config_treescript_apply(struct gm_options *opts,
			       const struct gm_treescript *ts)
{
	struct gm_strvec penguins = GM_STRVEC_INIT;
	int changed = 0;

	for (size_t i = 0; i < ts->nr_settings; i++)
		changed += gm_options_set(opts, ts->settings[i].option,
					  ts->settings[i].value);
	for (size_t i = 0; i < ts->penguins.nr; i++) {
		if (gm_strvec_push(&penguins, ts->penguins.v[i]) < 0) {
			gm_strvec_release(&penguins);
			return changed;	/* out of memory: 6.1's penguins */
		}
	}
	if (penguins.nr) {
		gm_strvec_release(&opts->penguins);
		opts->penguins = penguins;
	}
	return changed;
}

char *gm_config_treescript_path(struct gm_repo *r, bool *named)
{
	struct gm_strvec files = GM_STRVEC_INIT;
	char *path = NULL;
	size_t best = SIZE_MAX;

	*named = !gm_repo_config_string(r, "maintainer.script", &path) && path;
	gm_error_clear();
	if (*named || gm_repo_kind(r, GM_TREESCRIPT_PATH) == GM_REPO_BLOB ||
	    gm_repo_files(r, &files) < 0)
		goto out;
	for (size_t i = 0; i < files.nr; i++) {	/* in path order */
		const char *base = strrchr(files.v[i], '/');
		size_t depth = gm_pattern_slashes(files.v[i],
						  strlen(files.v[i]));

		if (!strcmp(base ? base + 1 : files.v[i], "get_maintainer.pl") &&
		    depth < best) {
			best = depth;
			free(path);
			path = strdup(files.v[i]);
		}
	}
out:
	gm_error_clear();
	gm_strvec_release(&files);
	return path ? path : strdup(GM_TREESCRIPT_PATH);
}

int gm_config_treescript(struct gm_options *opts, struct gm_repo *r,
			 struct gm_strvec *notes)
{
	struct gm_treescript ts = GM_TREESCRIPT_INIT;
	struct gm_buf text = GM_BUF_INIT;
	bool named;
	char *path = gm_config_treescript_path(r, &named);
	int changed = 0, error;

	if (!path)
		return 0;
	if (notes && !named && strcmp(path, GM_TREESCRIPT_PATH))
		gm_strvec_pushf(notes, "%s: the tree's script (no %s: the "
				"shallowest get_maintainer.pl of the tree)",
				path, GM_TREESCRIPT_PATH);
	/* a missing blob (a partial clone, say) is no script either */
	if ((error = treescript_read(r, path, named, &text)) < 0) {
		/* one named, or one too large, is said even without -v */
		gm_buf_reset(&text);
		if ((named || error == GM_EINVALID) &&
		    !gm_buf_printf(&text, "%s'%s' cannot be used (%s): Linux "
				   "6.1's defaults", named ?
				   "maintainer.script " : "", path,
				   *gm_error_last() ? gm_error_last() :
				   "not found"))
			gm_output_message(stderr, "warning: ", text.ptr);
		gm_error_clear();
		if (notes)
			gm_strvec_pushf(notes, "%s: no such script: Linux 6.1's "
					"defaults, --git-fallback off", path);
		goto out;
	}
	if (gm_treescript_read(&ts, text.ptr, text.len, path) < 0)
		gm_error_clear();	/* out of memory: 6.1's penguins */
	changed = gm_config_treescript_apply(opts, &ts);
	for (size_t i = 0; notes && i < ts.notes.nr; i++)
		gm_strvec_push(notes, ts.notes.v[i]);
out:
	gm_treescript_release(&ts);
	gm_buf_release(&text);
	free(path);
	return changed;
}

int gm_config_load(struct gm_options *opts, struct gm_repo *r, int argc,
		   const char **argv)
{
	struct gm_strvec words = GM_STRVEC_INIT, notes = GM_STRVEC_INIT;
	struct gm_buf conf = GM_BUF_INIT;
	int error;

	error = gm_config_read_file(r, ".get_maintainer.conf", &conf);
	if (error == 0)
		error = gm_config_words(&words, conf.ptr);
	if (error < 0)
		goto out;
	gm_options_release(opts);
	gm_options_init(opts);
	gm_config_treescript(opts, r, &notes);
	if ((error = config_apply_git(opts, r)) < 0 ||
	    (error = gm_options_parse(opts, (int)words.nr,
				      (const char **)words.v)) < 0 ||
	    (error = gm_options_parse(opts, argc, argv)) < 0)
		goto out;
	error = gm_options_finish(opts);
	for (size_t i = 0; opts->verbose && i < notes.nr; i++)
		gm_output_message(stderr, "git-maintainer: ", notes.v[i]);
out:
	gm_strvec_release(&notes);
	gm_strvec_release(&words);
	gm_buf_release(&conf);
	return error;
}
