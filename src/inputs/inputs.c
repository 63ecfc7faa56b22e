#include "gm/inputs.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gm/error.h"

bool gm_inputs_is_maintainers_r47(const char *path)
{
	size_t len = strlen(path);
	char before;

	if (len < 11 || strcmp(path + len - 11, "MAINTAINERS"))
		return false;
	before = len > 11 ? path[len - 12] : ' ';
	return !(before == '_' || (before >= '0' && before <= '9') ||
		 ((before | 0x20) >= 'a' && (before | 0x20) <= 'z'));
}

bool gm_inputs_is_maintainers_r71(const char *path)
{
	size_t len = strlen(path);

	return len >= 11 && !strcmp(path + len - 11, "MAINTAINERS");
}

/* What `path` is: 2 a directory, 1 a file, 0 nothing (tree, then work tree). */
static int inputs_path_kind(struct gm_inputs *in, const char *path,
			    bool *tracked)
{
	enum gm_repo_kind k = gm_repo_kind(in->repo, path);

	*tracked = k != GM_REPO_NONE;
	if (!*path || k == GM_REPO_TREE)
		return 2;
	if (k == GM_REPO_BLOB)
		return 1;
	k = gm_repo_worktree_kind(in->repo, path);
	return k == GM_REPO_TREE ? 2 : k == GM_REPO_BLOB;
}

static int inputs_add_patch(struct gm_inputs *in, const char *arg,
			    bool from_stdin);

/* Keep the patch (taking over `text` and `p`) for the keyword pass. */
static int inputs_keep_patch(struct gm_inputs *in, struct gm_buf *text,
			     struct gm_patch *p)
{
	if (GM_ARRAY_GROW(in->patches, in->nr_patches, in->alloc_patches) < 0)
		return GM_ERROR;
	in->patches[in->nr_patches].text = *text;
	in->patches[in->nr_patches++].patch = *p;
	gm_buf_init(text);
	memset(p, 0, sizeof(*p));
	return 0;
}

/* Every patch of the format-patch series in `dir`, but the cover letter. */
static int inputs_add_series(struct gm_inputs *in, const char *dir)
{
	struct gm_strvec names = GM_STRVEC_INIT;
	struct gm_buf path = GM_BUF_INIT;
	struct dirent *de;
	DIR *d = opendir(dir);
	int error = 0;

	if (!d)
		return gm_error_set(GM_ENOTFOUND, "cannot open '%s': %s", dir,
				    strerror(errno));
	while (!error && (de = readdir(d)))
		if (gm_patch_is_series_name(de->d_name, false))
			error = gm_strvec_push(&names, de->d_name);
	closedir(d);
	gm_strvec_sort_uniq(&names);
	for (size_t i = 0; i < names.nr && !error; i++) {
		gm_buf_reset(&path);
		if (!(error = gm_buf_printf(&path, "%s/%s", dir, names.v[i])))
			error = inputs_add_patch(in, path.ptr, false);
	}
	gm_strvec_release(&names);
	gm_buf_release(&path);
	return error;
}

/*
 * A cover letter stands for its series: the other patches beside it.
 * @return 1 if `arg` was one, 0 if not, or an error.
 */
static int inputs_add_cover(struct gm_inputs *in, const char *arg,
			    const char *text)
{
	const char *slash = strrchr(arg, '/');
	const char *base = slash ? slash + 1 : arg;
	struct gm_buf dir = GM_BUF_INIT;
	int error;

	if (!gm_patch_is_series_name(base, true) &&
	    !gm_patch_is_cover_subject(text))
		return 0;
	if ((error = gm_buf_put(&dir, arg, slash ? (size_t)(slash - arg) : 1)) < 0)
		return error;
	if (!slash)
		dir.ptr[0] = '.';
	error = inputs_add_series(in, dir.ptr);
	gm_buf_release(&dir);
	return error < 0 ? error : 1;
}

/* The value of the mail header "From: " of `text`, if it has one. */
static int inputs_take_author(struct gm_inputs *in, const char *text)
{
	for (const char *s = text; *s && *s != '\n'; s = strchr(s, '\n') + 1) {
		size_t len = strcspn(s, "\n");

		if (!strncmp(s, "From: ", 6)) {
			in->author = strndup(s + 6, len - 6);
			return in->author ? 0 :
				gm_error_set(GM_ERROR, "out of memory");
		}
		if (!s[len] || !strncmp(s, "diff ", 5) || !strncmp(s, "---", 3))
			break;
	}
	return 0;
}

/* The files of a patch, its Fixes: ids, and the patch kept for K:. */
static int inputs_take_patch(struct gm_inputs *in, struct gm_buf *text,
			     struct gm_patch *p)
{
	int error = in->author || !text->ptr ? 0 :
		    inputs_take_author(in, text->ptr);

	for (size_t i = 0; i < p->files.nr && !error; i++) {
		/* --no-patch-dev-null: a new or deleted file's other side */
		if (!in->set.patch_dev_null &&
		    !strcmp(p->files.v[i], "dev/null"))
			continue;
		if (!(error = gm_strvec_push(&in->files, p->files.v[i])))
			error = gm_strvec_push(&in->walk_paths, p->files.v[i]);
	}
	for (size_t i = 0; i < p->fixes.nr && !error; i++)
		if (in->set.fixes &&
		    !gm_strvec_contains(&in->fixes, p->fixes.v[i]))
			error = gm_strvec_push(&in->fixes, p->fixes.v[i]);
	for (size_t i = 0; i < p->nr_ranges; i++) {	/* taken over */
		if (!error && !(error = GM_ARRAY_GROW(in->ranges, in->nr_ranges,
						      in->alloc_ranges)))
			in->ranges[in->nr_ranges++] = p->ranges[i];
		else
			free(p->ranges[i].file);
	}
	p->nr_ranges = 0;
	if (!error && in->set.keywords)
		error = inputs_keep_patch(in, text, p);
	gm_strvec_sort_uniq(&in->files);
	return error;
}

static int inputs_add_patch(struct gm_inputs *in, const char *arg,
			    bool from_stdin)
{
	struct gm_patch p = GM_PATCH_INIT;
	struct gm_buf text = GM_BUF_INIT;
	int error;

	error = from_stdin ? gm_buf_read_fd(&text, 0, "standard input") :
			     gm_buf_read_file(&text, arg);
	if (error < 0)
		goto out;
	if ((error = gm_patch_parse(&p, text.ptr, text.len)) < 0)
		goto out;
	if (!p.files.nr && !from_stdin && in->series_depth == 0) {
		in->series_depth++;
		error = inputs_add_cover(in, arg, text.ptr);
		in->series_depth--;
		if (error < 0)
			goto out;
	}
	if (!p.files.nr && error == 0 &&
	    (error = gm_strvec_pushf(&in->warnings,
				     "file '%s' doesn't appear to be a patch; add -f to options?",
				     from_stdin ? "-" : arg)) < 0)
		goto out;
	error = inputs_take_patch(in, &text, &p);
out:
	gm_patch_release(&p);
	gm_buf_release(&text);
	return error;
}

/*
 * A path argument: a source file or directory of the tree, K: on
 * a file's content, and the path for the history walk ("dir/" only if
 * typed so, git's rule).
 */
static int inputs_add_path(struct gm_inputs *in, const char *arg,
			   const char *rel, int kind, bool tracked)
{
	size_t len = strlen(arg);
	int error = 0;

	if (!kind)
		return gm_error_set(GM_ENOTFOUND, "file '%s' not found", arg);
	if (!tracked)
		error = gm_strvec_pushf(&in->warnings,
					"file '%s' not found in version control",
					arg);
	if (!error)
		error = gm_strvec_pushf(&in->files, "%s%s", rel,
					kind == 2 && *rel ? "/" : "");
	/* K: does not see the content of exactly "MAINTAINERS" */
	if (!error && kind == 1 && in->set.keywords &&
	    in->set.keywords_in_file && strcmp(rel, "MAINTAINERS"))
		error = gm_strvec_push(&in->keyword_files, rel);
	if (!error)
		error = gm_strvec_pushf(&in->walk_paths, "%s%s", rel,
					*rel && len && arg[len - 1] == '/' ?
					"/" : "");
	return error;
}

static int inputs_add_arg(struct gm_inputs *in, const char *arg)
{
	bool from_filename = in->set.from_filename, tracked = false;
	struct gm_buf rel = GM_BUF_INIT;
	int kind = 0, error;

	if (!strcmp(arg, GM_INPUTS_STDIN) ||
	    (!from_filename && !strcmp(arg, "-"))) {
		if (from_filename)
			return gm_strvec_push(&in->files, GM_INPUTS_STDIN);
		return inputs_add_patch(in, arg, true);
	}
	if ((error = gm_repo_relative(in->repo, arg, &rel)) == 0)
		kind = inputs_path_kind(in, rel.ptr, &tracked);
	else if (from_filename)
		goto out;
	/* --no-tracked-paths: without -f, every argument is a patch */
	if (from_filename || (tracked && in->set.tracked_paths))
		error = inputs_add_path(in, arg, rel.ptr, kind, tracked);
	else if (access(arg, R_OK))
		error = gm_error_set(GM_ENOTFOUND, "file '%s' not found", arg);
	else
		error = inputs_add_patch(in, arg, false);
out:
	gm_buf_release(&rel);
	return error;
}

int gm_inputs_read(struct gm_inputs *in, struct gm_repo *r,
		   const struct gm_inputs_settings *s)
{
	const struct gm_strvec *args = s->args;
	int error = 0;

	in->repo = r;
	in->set = *s;
	if (s->series && (error = inputs_add_series(in, s->series)) < 0)
		return error;
	if (!args->nr && s->series)
		return 0;
	if (!args->nr) {
		if (isatty(0))
			return gm_error_set(GM_EUSAGE,
					    "missing patchfile or -f file");
		return inputs_add_arg(in, GM_INPUTS_STDIN);
	}
	for (size_t i = 0; i < args->nr && !error; i++)
		error = inputs_add_arg(in, args->v[i]);
	return error;
}

int gm_inputs_read_path(struct gm_inputs *in, struct gm_repo *r,
			const struct gm_inputs_settings *s, const char *path)
{
	in->repo = r;
	in->set = *s;
	return inputs_add_arg(in, path);
}

int gm_inputs_read_text(struct gm_inputs *in, struct gm_repo *r,
			const struct gm_inputs_settings *s, const char *text,
			size_t len)
{
	struct gm_patch p = GM_PATCH_INIT;
	struct gm_buf copy = GM_BUF_INIT;
	int error;

	in->repo = r;
	in->set = *s;
	if (!(error = gm_buf_put(&copy, text, len)) &&
	    !(error = gm_patch_parse(&p, copy.ptr, copy.len)))
		error = inputs_take_patch(in, &copy, &p);
	gm_patch_release(&p);
	gm_buf_release(&copy);
	return error;
}

void gm_inputs_release(struct gm_inputs *in)
{
	for (size_t i = 0; i < in->nr_patches; i++) {
		gm_buf_release(&in->patches[i].text);
		gm_patch_release(&in->patches[i].patch);
	}
	free(in->patches);
	gm_strvec_release(&in->fixes);
	for (size_t i = 0; i < in->nr_ranges; i++)
		free(in->ranges[i].file);
	free(in->ranges);
	free(in->author);
	gm_strvec_release(&in->files);
	gm_strvec_release(&in->walk_paths);
	gm_strvec_release(&in->keyword_files);
	gm_strvec_release(&in->warnings);
	memset(in, 0, sizeof(*in));
}
