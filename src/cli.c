#include "gm/cli.h"

#include <dirent.h>
#include <pthread.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gm/buf.h"
#include "gm/email.h"
#include "gm/date.h"
#include "gm/error.h"
#include "gm/history.h"
#include "gm/mailmap.h"
#include "gm/maintainers.h"
#include "gm/match.h"
#include "gm/options.h"
#include "gm/output.h"
#include "gm/patch.h"
#include "gm/pattern.h"
#include "gm/rank.h"
#include "gm/repo.h"
#include "gm/selftest.h"
#include "gm/strvec.h"
#include "gm/thread.h"

#define STDIN_NAME "&STDIN"

/* A patch kept for the keyword pass, which needs MAINTAINERS. */
struct cli_patch {
	struct gm_buf text;
	struct gm_patch patch;
};

/*
 * A job in a thread beside the main one. cli_job_wait() waits for its
 * outcome (the thread may still be freeing what it used), cli_job_join()
 * for its end; either reports its error.
 */
struct cli_job {
	pthread_t thread;
	bool running;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;		/* the outcome is in, under `lock` */
	bool waited;		/* cli_job_wait() has seen it */
	int error;
	char message[1024];	/* as long as gm_error_last() can be */
};

/* A -f file's content for the keyword pass, if it has one. */
struct cli_text {
	struct gm_repo_entry entry;	/* where it is in the tree */
	bool in_tree;			/* else in the work tree, if anywhere */
	struct gm_repo_text text;	/* its content */
	bool read;
};

/* Everything one run holds, freed in reverse pipeline order. */
struct cli {
	struct gm_options opts;
	struct gm_repo *repo;
	struct gm_maintainers *m;
	struct gm_mailmap *mailmap;
	struct gm_strvec files;		/* the file list of R-30 */
	struct gm_strvec walk_paths;	/* the paths as given, for history */
	struct gm_strvec fixes;		/* Fixes: ids, first occurrence kept */
	int series_depth;		/* inside a cover letter's series */
	struct gm_matches *keywords;	/* K: hits only */
	struct gm_strvec keyword_files;	/* -f files whose content K: sees */
	struct cli_text *keyword_texts;	/* theirs, read by `reader` */
	struct gm_repo *reader_repo;	/* where their blobs are */
	struct gm_prefetch *prefetch;	/* MAINTAINERS, perhaps, already */
	struct cli_job parser;		/* MAINTAINERS, when in parallel */
	struct cli_job reader;
	struct cli_job matcher;		/* the keyword pass, when in parallel */
	struct cli_patch *patches;	/* patches whose lines K: sees */
	size_t nr_patches;
	struct cli_job walker;		/* the history walk, when in parallel */
	struct gm_matches *matches;
	struct gm_rank rank;
	struct gm_strvec file_emails;
	struct gm_history *history;	/* with --history */
	int64_t since, until;		/* its window */
	git_mailmap *git_mailmap;
	int status;			/* the exit status of a success */
	FILE *out;			/* stdout, held back until success */
	char *out_buf;
	size_t out_len;
};

/* A message line on stderr, control characters shown as \xHH. */
static void say(const char *prefix, const char *msg)
{
	fputs(prefix, stderr);
	for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
		if (*p < ' ' || *p == 0x7f)
			fprintf(stderr, "\\x%02x", *p);
		else
			fputc(*p, stderr);
	}
	fputc('\n', stderr);
}

static void warn(const char *fmt, ...) GM_PRINTF(1, 2);

/* A one-line "warning: " message on stderr. */
static void warn(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	say("warning: ", msg);
}

/* ==================== configuration ==================== */

/* The first of the tree's, $HOME's and the tree's .scripts/ copy. */
static int cli_read_conf(struct cli *c, const char *name, struct gm_buf *out)
{
	const char *home = getenv("HOME");
	struct gm_buf path = GM_BUF_INIT;
	int error;

	error = gm_repo_read(c->repo, name, out);
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
	error = gm_repo_read(c->repo, path.ptr, out);
out:
	gm_buf_release(&path);
	return error == GM_ENOTFOUND || error == GM_EINVALID ? 1 : error;
}

/* The words of a .get_maintainer.conf text; '#' starts a comment word. */
static int conf_words(struct gm_strvec *words, const char *s)
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
			if (gm_strvec_pushn(words, w, (size_t)(p - w)) < 0)
				return GM_ERROR;
		}
		s = *end ? end + 1 : end;
	}
	return 0;
}

/* Defaults from git config: maintainer.<key>, overridden by the options. */
static int cli_apply_config(struct cli *c)
{
	static const struct {
		const char *key;
		size_t offset;
		bool is_bool;
	} keys[] = {
		{ "maintainer.history", offsetof(struct gm_options, history), true },
		{ "maintainer.rolestats", offsetof(struct gm_options, rolestats), true },
		{ "maintainer.since", offsetof(struct gm_options, since), false },
		{ "maintainer.format", offsetof(struct gm_options, format), false },
	};
	git_config *cfg = NULL;
	int error = 0;

	if (git_repository_config_snapshot(&cfg, c->repo->repo) < 0)
		return 0;
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys) && !error; i++) {
		char *field = (char *)&c->opts + keys[i].offset;
		const char *value;
		int b;

		if (keys[i].is_bool) {
			if (git_config_get_bool(&b, cfg, keys[i].key) == 0)
				*(int *)field = b;
		} else if (git_config_get_string(&value, cfg, keys[i].key) == 0) {
			free(*(char **)field);
			if (!(*(char **)field = strdup(value)))
				error = gm_error_set(GM_ERROR, "out of memory");
		}
	}
	git_config_free(cfg);
	return error;
}

static int cli_parse_options(struct cli *c, int argc, const char **argv)
{
	struct gm_strvec words = GM_STRVEC_INIT;
	struct gm_buf conf = GM_BUF_INIT;
	int error;

	error = cli_read_conf(c, ".get_maintainer.conf", &conf);
	if (error == 0)
		error = conf_words(&words, conf.ptr);
	if (error < 0)
		goto out;
	gm_options_release(&c->opts);
	gm_options_init(&c->opts);
	if ((error = cli_apply_config(c)) < 0 ||
	    (error = gm_options_parse(&c->opts, (int)words.nr,
				      (const char **)words.v)) < 0 ||
	    (error = gm_options_parse(&c->opts, argc, argv)) < 0)
		goto out;
	error = gm_options_finish(&c->opts);
out:
	gm_strvec_release(&words);
	gm_buf_release(&conf);
	return error;
}

static int cli_check_tree(struct cli *c)
{
	static const char *const files[] = { "COPYING", "CREDITS", "Kbuild",
					     "Makefile", "README" };
	static const char *const dirs[] = { "Documentation", "arch", "include",
					    "drivers", "fs", "init", "ipc",
					    "kernel", "lib", "scripts" };

	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++)
		if (gm_repo_kind(c->repo, files[i]) != GM_REPO_BLOB)
			goto fail;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++)
		if (gm_repo_kind(c->repo, dirs[i]) != GM_REPO_TREE)
			goto fail;
	if (gm_repo_kind(c->repo, "MAINTAINERS") != GM_REPO_NONE)
		return 0;
fail:
	return gm_error_set(GM_EINVALID,
			    "the tree does not appear to be a linux kernel source tree");
}

/* ==================== jobs beside the main thread ==================== */

/* Start fn(arg) in a thread; if none can be had, the job is not running. */
static void cli_job_start(struct cli_job *j, void *(*fn)(void *), void *arg)
{
	if (pthread_mutex_init(&j->lock, NULL))
		return;
	if (pthread_cond_init(&j->cond, NULL)) {
		pthread_mutex_destroy(&j->lock);
		return;
	}
	j->running = gm_thread_start(&j->thread, fn, arg) == 0;
	if (!j->running) {
		pthread_cond_destroy(&j->cond);
		pthread_mutex_destroy(&j->lock);
	}
}

/* In the job's thread: the outcome, with the message of an error. */
static void cli_job_done(struct cli_job *j, int error)
{
	pthread_mutex_lock(&j->lock);
	j->error = error;
	if (error)
		snprintf(j->message, sizeof(j->message), "%s", gm_error_last());
	j->done = true;
	pthread_cond_signal(&j->cond);
	pthread_mutex_unlock(&j->lock);
}

/*
 * In a job's thread: fn(c, r) on an opening of the repository of the
 * thread's own, reported before that is freed.
 */
static void cli_job_run(struct cli *c, struct cli_job *j,
			int (*fn)(struct cli *, struct gm_repo *))
{
	struct gm_repo *r = NULL;
	int error = gm_repo_reopen(&r, c->repo);

	if (!error)
		error = fn(c, r);
	cli_job_done(j, error);
	gm_repo_free(r);
	gm_pattern_release_thread();
}

static int cli_job_report(struct cli_job *j)
{
	if (j->error)
		gm_error_set(j->error, "%s", j->message);
	return j->error;
}

/* Wait for the job's outcome: its error message set in this thread. */
static int cli_job_wait(struct cli_job *j)
{
	if (!j->running)
		return 0;
	pthread_mutex_lock(&j->lock);
	while (!j->done)
		pthread_cond_wait(&j->cond, &j->lock);
	pthread_mutex_unlock(&j->lock);
	j->waited = true;
	return cli_job_report(j);
}

/* Wait for the job's end: the same, and its thread is gone. */
static int cli_job_join(struct cli_job *j)
{
	if (!j->running)
		return 0;
	pthread_join(j->thread, NULL);
	pthread_cond_destroy(&j->cond);
	pthread_mutex_destroy(&j->lock);
	j->running = false;
	return cli_job_report(j);
}

/* ==================== MAINTAINERS, .mailmap ==================== */

static bool cli_isdir(const char *path, void *payload)
{
	struct cli *c = payload;

	return gm_repo_kind(c->repo, path) == GM_REPO_TREE;
}

/* The --mpath value as a path from the top: no "./", no final '/'. */
static int mpath_normalize(struct gm_buf *out, const char *mpath)
{
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

static int cli_no_maintainers(const char *dir)
{
	return gm_error_set(GM_ENOTFOUND, "no MAINTAINERS files found in '%s'",
			    *dir ? dir : ".");
}

/* The file `mpath`, or the files of the directory `mpath`. */
static int cli_read_listed(struct cli *c, struct gm_repo *r, const char *mpath,
			   bool dir)
{
	struct gm_strvec paths = GM_STRVEC_INIT;
	struct gm_repo_text *texts = NULL;
	const char **bufs = NULL;
	size_t *lens = NULL;
	int error = dir ? gm_repo_list(r, mpath, &paths) :
			  gm_strvec_push(&paths, mpath);

	if (!error && !paths.nr)
		error = cli_no_maintainers(mpath);
	if (error)
		goto out;
	texts = malloc(paths.nr * sizeof(*texts));
	bufs = calloc(paths.nr, sizeof(*bufs));
	lens = calloc(paths.nr, sizeof(*lens));
	if (!texts || !bufs || !lens) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < paths.nr; i++)
		texts[i] = (struct gm_repo_text)GM_REPO_TEXT_INIT;
	for (size_t i = 0; i < paths.nr && !error; i++) {
		/* a directory reads as empty */
		if (paths.v[i][strlen(paths.v[i]) - 1] != '/')
			error = gm_repo_text(r, paths.v[i], NULL, &texts[i]);
		bufs[i] = texts[i].ptr;
		lens[i] = texts[i].len;
	}
	if (!error)
		error = gm_maintainers_parse(&c->m, bufs, lens, paths.nr,
					     cli_isdir, c);
out:
	for (size_t i = 0; texts && i < paths.nr; i++)
		gm_repo_text_release(&texts[i]);
	free(texts);
	free(bufs);
	free(lens);
	gm_strvec_release(&paths);
	return error;
}

/* Every file named MAINTAINERS below `dir` (--find-maintainer-files). */
static int cli_read_found(struct cli *c, struct gm_repo *r, const char *dir)
{
	struct gm_repo_file *files = NULL;
	const char **bufs = NULL;
	size_t *lens = NULL, nr = 0;
	int error = gm_repo_find(r, dir, "MAINTAINERS", &files, &nr);

	if (!error && !nr)
		error = cli_no_maintainers(dir);
	if (error)
		goto out;
	bufs = calloc(nr, sizeof(*bufs));
	lens = calloc(nr, sizeof(*lens));
	if (!bufs || !lens) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		bufs[i] = files[i].text.ptr;
		lens[i] = files[i].text.len;
	}
	error = gm_maintainers_parse(&c->m, bufs, lens, nr, cli_isdir, c);
out:
	gm_repo_files_free(files, nr);
	free(bufs);
	free(lens);
	return error;
}

/*
 * The MAINTAINERS files, through `r`, parsed in order into c->m (R-10;
 * sorted, Q-29). Its directory test is the main thread's.
 */
static int cli_read_maintainers(struct cli *c, struct gm_repo *r)
{
	struct gm_buf mpath = GM_BUF_INIT;
	enum gm_repo_kind kind = GM_REPO_TREE;
	int error;

	error = mpath_normalize(&mpath, c->opts.maintainer_path ?
					 c->opts.maintainer_path : "MAINTAINERS");
	if (error)
		goto out;
	if (*mpath.ptr)
		kind = gm_repo_kind(r, mpath.ptr);
	if (kind == GM_REPO_NONE)
		error = gm_error_set(GM_ENOTFOUND, "no %s at %s", mpath.ptr,
				     c->opts.rev ? c->opts.rev : "HEAD");
	else if (kind == GM_REPO_TREE && c->opts.find_maintainer_files)
		error = cli_read_found(c, r, mpath.ptr);
	else
		error = cli_read_listed(c, r, mpath.ptr, kind == GM_REPO_TREE);
out:
	gm_buf_release(&mpath);
	return error;
}

static void *cli_parser(void *payload)
{
	struct cli *c = payload;

	cli_job_run(c, &c->parser, cli_read_maintainers);
	return NULL;
}

/*
 * The prefetched MAINTAINERS, if it is the one that would be read: the
 * default path, the blob of this commit, from this work tree.
 */
static void cli_take_prefetch(struct cli *c)
{
	struct gm_buf mpath = GM_BUF_INIT;
	struct gm_repo_entry e;

	if (!c->prefetch || c->opts.find_maintainer_files ||
	    mpath_normalize(&mpath, c->opts.maintainer_path ?
			    c->opts.maintainer_path : "MAINTAINERS") < 0 ||
	    strcmp(mpath.ptr, "MAINTAINERS") ||
	    gm_repo_lookup(c->repo, "MAINTAINERS", &e) < 0 ||
	    e.type != GIT_OBJECT_BLOB || e.mode == GIT_FILEMODE_LINK)
		goto out;
	gm_prefetch_take(c->prefetch, c->repo->workdir, &e.id, &c->m);
	if (c->m) {
		c->m->isdir = cli_isdir;
		c->m->isdir_payload = c;
	}
out:
	gm_buf_release(&mpath);
}

/*
 * MAINTAINERS, unless prefetched, is read and parsed in a second thread,
 * on a repository of its own, while the main one reads the inputs, the
 * ignore list and the .mailmap. Until cli_finish_parser(), c->m is its.
 */
static void cli_start_parser(struct cli *c)
{
	cli_take_prefetch(c);
	if (!c->m)
		cli_job_start(&c->parser, cli_parser, c);
}

static int cli_finish_parser(struct cli *c)
{
	if (c->parser.running)
		return cli_job_join(&c->parser);
	return c->m ? 0 : cli_read_maintainers(c, c->repo);
}

static int cli_read_mailmap(struct cli *c)
{
	struct gm_buf text = GM_BUF_INIT;
	int error;

	if (!c->opts.mailmap)
		return 0;
	error = gm_repo_read(c->repo, ".mailmap", &text);
	if (error == GM_ENOTFOUND || error == GM_EINVALID)
		error = 0;
	else if (!error)
		error = gm_mailmap_from_buffer(&c->mailmap, text.ptr, text.len);
	gm_buf_release(&text);
	return error;
}

/* The .mailmap, then MAINTAINERS once parsed; an error of the latter first. */
static int cli_read_rules(struct cli *c)
{
	char message[sizeof(c->parser.message)] = "";
	int mailmap_error = cli_read_mailmap(c), error;

	if (mailmap_error)
		snprintf(message, sizeof(message), "%s", gm_error_last());
	error = cli_finish_parser(c);
	if (!error && mailmap_error)
		error = gm_error_set(mailmap_error, "%s", message);
	return error;
}

static int cli_read_ignore(struct cli *c)
{
	struct gm_buf text = GM_BUF_INIT;
	int error = cli_read_conf(c, ".get_maintainer.ignore", &text);

	if (error == 0)
		error = gm_rank_load_ignore(&c->rank, text.ptr, text.len);
	gm_buf_release(&text);
	return error < 0 ? error : 0;
}

/* ==================== inputs ==================== */

/* A file of the work tree: 0, GM_ENOTFOUND (none, or no work tree). */
static int cli_read_worktree(struct gm_repo *r, const char *path,
			     struct gm_buf *out)
{
	struct gm_buf full = GM_BUF_INIT;
	struct stat st;
	int error;

	if (!r->workdir)
		return GM_ENOTFOUND;
	if ((error = gm_buf_printf(&full, "%s%s", r->workdir, path)) < 0)
		goto out;
	if (stat(full.ptr, &st) || !S_ISREG(st.st_mode))
		error = GM_ENOTFOUND;
	else
		error = gm_buf_read_file(out, full.ptr);
out:
	gm_buf_release(&full);
	return error;
}

/* A file's content: from the tree, else from the work tree. */
static int cli_read_file(struct gm_repo *r, const char *path,
			 struct gm_buf *out)
{
	int error = gm_repo_read(r, path, out);

	return error == GM_ENOTFOUND ? cli_read_worktree(r, path, out) : error;
}

/* What `path` is: 2 a directory, 1 a file, 0 nothing (tree, then work tree). */
static int cli_path_kind(struct cli *c, const char *path, bool *tracked)
{
	struct gm_buf full = GM_BUF_INIT;
	enum gm_repo_kind k = gm_repo_kind(c->repo, path);
	struct stat st;
	int kind = 0;

	*tracked = k != GM_REPO_NONE;
	if (!*path || k == GM_REPO_TREE)
		return 2;
	if (k == GM_REPO_BLOB)
		return 1;
	if (c->repo->workdir &&
	    gm_buf_printf(&full, "%s%s", c->repo->workdir, path) == 0 &&
	    !stat(full.ptr, &st))
		kind = S_ISDIR(st.st_mode) ? 2 : 1;
	gm_buf_release(&full);
	return kind;
}

/* Source-file mode of R-30: the path itself, and K: on its content. */
static int cli_add_source(struct cli *c, const char *path, int kind)
{
	struct gm_buf name = GM_BUF_INIT, text = GM_BUF_INIT;
	int error;

	if ((error = gm_buf_puts(&name, path)) < 0 ||
	    (kind == 2 && *path && (error = gm_buf_putc(&name, '/')) < 0) ||
	    (error = gm_strvec_push(&c->files, name.ptr)) < 0)
		goto out;
	if (kind == 1 && c->opts.keywords && c->opts.keywords_in_file &&
	    strcmp(path, "MAINTAINERS"))
		error = gm_strvec_push(&c->keyword_files, path);
out:
	gm_buf_release(&name);
	gm_buf_release(&text);
	return error;
}

static int cli_add_patch(struct cli *c, const char *arg, bool from_stdin);

/* Keep the patch (taking over `text` and `p`) for the keyword pass. */
static int cli_keep_patch(struct cli *c, struct gm_buf *text,
			  struct gm_patch *p)
{
	struct cli_patch *v = realloc(c->patches,
				      (c->nr_patches + 1) * sizeof(*v));

	if (!v)
		return gm_error_set(GM_ERROR, "out of memory");
	c->patches = v;
	v[c->nr_patches].text = *text;
	v[c->nr_patches].patch = *p;
	c->nr_patches++;
	gm_buf_init(text);
	memset(p, 0, sizeof(*p));
	return 0;
}

/* A format-patch file name: "NNNN-*.patch" (NNNN not 0000 unless `cover`). */
static bool is_series_name(const char *name, bool cover)
{
	size_t len = strlen(name);

	for (int i = 0; i < 4; i++)
		if (name[i] < '0' || name[i] > '9')
			return false;
	if (name[4] != '-' || len < 11 || strcmp(name + len - 6, ".patch"))
		return false;
	return cover == !strncmp(name, "0000", 4);
}

/* A cover letter's Subject: "[PATCH 0/N]", "[PATCH v2 00/N]", "[RFC 0/N]". */
static bool is_cover_subject(const char *text)
{
	const char *s = strstr(text, "\nSubject: [");

	if (!strncmp(text, "Subject: [", 10))
		s = text - 1;
	if (!s)
		return false;
	for (s += 11; *s && *s != ']' && *s != '\n'; s++) {
		const char *z = s;

		if (s[-1] != ' ' && s[-1] != '[')
			continue;
		while (*z == '0')
			z++;
		if (z > s && *z == '/')
			return true;
	}
	return false;
}

/* Every patch of the format-patch series in `dir`, but the cover letter. */
static int cli_add_series(struct cli *c, const char *dir)
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
		if (is_series_name(de->d_name, false))
			error = gm_strvec_push(&names, de->d_name);
	closedir(d);
	gm_strvec_sort_uniq(&names);
	for (size_t i = 0; i < names.nr && !error; i++) {
		gm_buf_reset(&path);
		if (!(error = gm_buf_printf(&path, "%s/%s", dir, names.v[i])))
			error = cli_add_patch(c, path.ptr, false);
	}
	gm_strvec_release(&names);
	gm_buf_release(&path);
	return error;
}

/*
 * A cover letter stands for its series: the other patches beside it.
 * @return 1 if `arg` was one, 0 if not, or an error.
 */
static int cli_add_cover(struct cli *c, const char *arg, const char *text)
{
	const char *slash = strrchr(arg, '/');
	const char *base = slash ? slash + 1 : arg;
	struct gm_buf dir = GM_BUF_INIT;
	int error;

	if (!is_series_name(base, true) && !is_cover_subject(text))
		return 0;
	if ((error = gm_buf_put(&dir, arg, slash ? (size_t)(slash - arg) : 1)) < 0)
		return error;
	if (!slash)
		dir.ptr[0] = '.';
	error = cli_add_series(c, dir.ptr);
	gm_buf_release(&dir);
	return error < 0 ? error : 1;
}

static int cli_add_patch(struct cli *c, const char *arg, bool from_stdin)
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
	if (!p.files.nr && !from_stdin && c->series_depth == 0) {
		c->series_depth++;
		error = cli_add_cover(c, arg, text.ptr);
		c->series_depth--;
		if (error < 0)
			goto out;
	}
	if (!p.files.nr && error == 0)
		warn("file '%s' doesn't appear to be a patch; add -f to options?",
		     from_stdin ? "-" : arg);
	error = 0;
	for (size_t i = 0; i < p.files.nr && !error; i++)
		if (!(error = gm_strvec_push(&c->files, p.files.v[i])))
			error = gm_strvec_push(&c->walk_paths, p.files.v[i]);
	for (size_t i = 0; i < p.fixes.nr && !error; i++)
		if (c->opts.fixes && !gm_strvec_contains(&c->fixes, p.fixes.v[i]))
			error = gm_strvec_push(&c->fixes, p.fixes.v[i]);
	if (!error && c->opts.keywords)
		error = cli_keep_patch(c, &text, &p);
	gm_strvec_sort_uniq(&c->files);
out:
	gm_patch_release(&p);
	gm_buf_release(&text);
	return error;
}

/* ==================== the keyword pass ==================== */

/*
 * The -f files' contents, through `r`, but for those prefetched; a file
 * that is none is skipped.
 */
static int cli_read_keyword_files(struct cli *c, struct gm_repo *r)
{
	for (size_t i = 0; i < c->keyword_files.nr; i++) {
		struct cli_text *t = &c->keyword_texts[i];
		const char *path = c->keyword_files.v[i];
		int error;

		if (t->read)
			continue;
		error = t->in_tree ? gm_repo_text(r, path, &t->entry, &t->text) :
				     cli_read_worktree(r, path, &t->text.buf);
		if (error && error != GM_ENOTFOUND && error != GM_EINVALID)
			return error;
		if (!t->in_tree) {
			t->text.ptr = t->text.buf.ptr;
			t->text.len = t->text.buf.len;
		}
		t->read = !error;
	}
	return 0;
}

static void *cli_reader(void *payload)
{
	struct cli *c = payload;
	int error = gm_repo_reopen(&c->reader_repo, c->repo);

	if (!error)
		error = cli_read_keyword_files(c, c->reader_repo);
	cli_job_done(&c->reader, error);
	return NULL;
}

/* The prefetched bytes of the tree's regular file `t`, if they are its. */
static bool cli_take_prefetched_text(struct cli *c, const char *path,
				     struct cli_text *t)
{
	if (!t->in_tree || t->entry.type != GIT_OBJECT_BLOB ||
	    t->entry.mode == GIT_FILEMODE_LINK ||
	    !gm_prefetch_take_text(c->prefetch, c->repo->workdir, path,
				   &t->entry.id, &t->text.buf))
		return false;
	t->text.ptr = t->text.buf.ptr;
	t->text.len = t->text.buf.len;
	t->text.pad = GM_BUF_PAD;
	t->read = true;
	return true;
}

/*
 * The -f files are known before MAINTAINERS is read: those not
 * prefetched are read in a second thread, on a repository of its own,
 * while the rules are read. Until the keyword pass, keyword_files and
 * keyword_texts are its.
 */
static int cli_start_reader(struct cli *c)
{
	size_t n = c->keyword_files.nr, taken = 0;

	if (!c->opts.keywords || !n)
		return 0;
	if (!(c->keyword_texts = calloc(n, sizeof(*c->keyword_texts))))
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < n; i++) {	/* the trees are this thread's */
		struct cli_text *t = &c->keyword_texts[i];

		t->text = (struct gm_repo_text)GM_REPO_TEXT_INIT;
		t->in_tree = gm_repo_lookup(c->repo, c->keyword_files.v[i],
					    &t->entry) == 0;
		taken += cli_take_prefetched_text(c, c->keyword_files.v[i], t);
	}
	if (taken < n)
		cli_job_start(&c->reader, cli_reader, c);
	return 0;
}

/* The keyword pass: over the -f files and the patches. */
static int cli_match_keywords(struct cli *c)
{
	int error = cli_job_join(&c->reader);

	for (size_t i = 0; c->keyword_texts && i < c->keyword_files.nr &&
	     !error; i++) {
		struct cli_text *t = &c->keyword_texts[i];

		if (t->read)
			error = gm_match_keywords_text(c->keywords, c->m,
						       t->text.ptr,
						       t->text.len,
						       t->text.pad);
	}
	for (size_t i = 0; i < c->nr_patches && !error; i++)
		error = gm_match_keywords_patch(c->keywords, c->m,
						c->patches[i].text.ptr,
						&c->patches[i].patch);
	return error;
}

static void *cli_matcher(void *payload)
{
	struct cli *c = payload;

	cli_job_done(&c->matcher, cli_match_keywords(c));
	gm_pattern_release_thread();
	return NULL;
}

/*
 * Once MAINTAINERS is read: the keyword pass, in a second thread while
 * the main one matches the file rules. Until cli_finish_keywords(), the
 * reader, c->keywords and the K: regexes are its.
 */
static int cli_start_keywords(struct cli *c)
{
	int error = 0;

	if (!c->opts.keywords || (!c->keyword_texts && !c->nr_patches))
		return 0;
	if (c->keyword_texts && !c->reader.running)	/* no reader thread */
		error = cli_read_keyword_files(c, c->repo);
	if (!error)
		cli_job_start(&c->matcher, cli_matcher, c);
	return error;
}

static int cli_finish_keywords(struct cli *c)
{
	return c->matcher.running ? cli_job_join(&c->matcher) :
		cli_match_keywords(c);
}

/* A -f path for the history walk: "dir/" only if typed so (git's rule). */
static int cli_add_walk_path(struct cli *c, const char *rel, const char *arg)
{
	struct gm_buf path = GM_BUF_INIT;
	size_t len = strlen(arg);
	int error;

	if (!(error = gm_buf_puts(&path, rel)) && *rel && len &&
	    arg[len - 1] == '/')
		error = gm_buf_putc(&path, '/');
	if (!error)
		error = gm_strvec_push(&c->walk_paths, path.ptr);
	gm_buf_release(&path);
	return error;
}

static int cli_add_arg(struct cli *c, const char *arg)
{
	struct gm_buf rel = GM_BUF_INIT;
	bool tracked;
	int kind, error;

	if (!strcmp(arg, STDIN_NAME) || (!c->opts.from_filename &&
					 !strcmp(arg, "-"))) {
		if (c->opts.from_filename)
			return gm_strvec_push(&c->files, STDIN_NAME);
		return cli_add_patch(c, arg, true);
	}
	if ((error = gm_repo_relative(c->repo, arg, &rel)) < 0) {
		if (c->opts.from_filename)
			goto out;
		error = 0;
		kind = 0;
		tracked = false;
	} else {
		kind = cli_path_kind(c, rel.ptr, &tracked);
	}
	if (c->opts.from_filename || tracked) {
		if (!kind)
			error = gm_error_set(GM_ENOTFOUND, "file '%s' not found",
					     arg);
		else if (!tracked)
			warn("file '%s' not found in version control", arg);
		if (kind)
			error = cli_add_source(c, rel.ptr, kind);
		if (kind && !error)
			error = cli_add_walk_path(c, rel.ptr, arg);
		goto out;
	}
	if (access(arg, R_OK))
		error = gm_error_set(GM_ENOTFOUND, "file '%s' not found", arg);
	else
		error = cli_add_patch(c, arg, false);
out:
	gm_buf_release(&rel);
	return error;
}

static int cli_add_inputs(struct cli *c)
{
	const struct gm_strvec *args = &c->opts.args;
	int error = 0;

	if (!(c->keywords = calloc(1, sizeof(*c->keywords))))
		return gm_error_set(GM_ERROR, "out of memory");
	if (c->opts.series && (error = cli_add_series(c, c->opts.series)) < 0)
		return error;
	if (!args->nr && c->opts.series)
		return 0;
	if (!args->nr) {
		if (isatty(0))
			return gm_error_set(GM_EUSAGE,
					    "missing patchfile or -f file");
		return cli_add_arg(c, STDIN_NAME);
	}
	for (size_t i = 0; i < args->nr && !error; i++)
		error = cli_add_arg(c, args->v[i]);
	return error;
}

/* ==================== Fixes: ==================== */

/* The value after the last ':' of a signature line, as R-73 cuts it. */
static const char *signature_value(const char *line)
{
	const char *colon = strrchr(line, ':');
	const char *v;

	if (!colon)
		return line;
	for (v = colon + 1; gm_email_isspace((unsigned char)*v); v++)
		;
	return *v ? v : line;
}

static bool is_signature_line(const char *s, bool all_types)
{
	static const char *const tags[] = { "Signed-off-by:", "Reviewed-by:",
					    "Acked-by:" };
	const char *rest = NULL;

	if (all_types) {
		for (const char *p = s + 1; *p && !rest; p++)
			if ((p[0] | 0x20) == 'b' && (p[1] | 0x20) == 'y' &&
			    p[1] && p[2] == ':')
				rest = p + 3;
	}
	for (size_t i = 0; !all_types && i < sizeof(tags) / sizeof(*tags); i++)
		if (!strncmp(s, tags[i], strlen(tags[i])))
			rest = s + strlen(tags[i]);
	return rest && strchr(rest, '@');
}

static bool has_chief_name(const char *s)
{
	static const char name[] = "linus torvalds";

	for (; *s; s++) {
		size_t i = 0;

		while (name[i] && s[i] && ((s[i] | 0x20) == name[i] ||
					   (name[i] == ' ' && s[i] == ' ')))
			i++;
		if (!name[i])
			return true;
	}
	return false;
}

/* The signers of `body`, each normalised twice as the script does. */
static int fixes_signers(struct cli *c, const char *body,
			 struct gm_strvec *out)
{
	struct gm_buf line = GM_BUF_INIT, once = GM_BUF_INIT, twice = GM_BUF_INIT;
	int error = 0;

	while (*body && !error) {
		size_t eol = strcspn(body, "\n");
		const char *s = body;

		body += eol + (body[eol] == '\n');
		while (gm_email_isspace((unsigned char)*s) && s < body)
			s++;
		gm_buf_reset(&line);
		if (s >= body || gm_buf_put(&line, s, (size_t)(body - s)) < 0)
			continue;
		while (line.len && line.ptr[line.len - 1] == '\n')
			line.ptr[--line.len] = '\0';
		if (!is_signature_line(line.ptr, c->opts.git_all_signature_types) ||
		    (!c->opts.git_chief_penguins && has_chief_name(line.ptr)))
			continue;
		if (!(error = gm_rank_dedup(&c->rank, &once,
					    signature_value(line.ptr))) &&
		    !(error = gm_rank_dedup(&c->rank, &twice, once.ptr)))
			error = gm_strvec_push(out, twice.ptr);
	}
	gm_buf_release(&line);
	gm_buf_release(&once);
	gm_buf_release(&twice);
	return error;
}

/* Signers of each Fixes: commit get "blamed_fixes". */
static int cli_add_fixes(struct cli *c)
{
	int error = 0;

	for (size_t i = 0; i < c->fixes.nr && !error; i++) {
		struct gm_strvec signers = GM_STRVEC_INIT;
		git_object *obj = NULL;
		const char *body;

		if (git_revparse_single(&obj, c->repo->repo, c->fixes.v[i]) < 0 ||
		    git_object_type(obj) != GIT_OBJECT_COMMIT) {
			warn("Fixes: commit '%s' not found", c->fixes.v[i]);
			git_object_free(obj);
			continue;
		}
		body = git_commit_body((git_commit *)obj);
		error = fixes_signers(c, body ? body : "", &signers);
		if (!error)
			error = gm_rank_add_signers(&c->rank, "blamed_fixes", 1,
						    &signers);
		gm_strvec_release(&signers);
		git_object_free(obj);
	}
	return error;
}

/* ==================== history ==================== */

static int cli_history_window(struct cli *c)
{
	const struct gm_options *o = &c->opts;
	time_t now = time(NULL);
	int error;

	c->until = INT64_MAX;
	if ((error = gm_date_parse(&c->since, o->since ? o->since :
					      "6.months.ago", now)) < 0 ||
	    (o->until && (error = gm_date_parse(&c->until, o->until, now)) < 0))
		return gm_error_set(GM_EUSAGE, "%s", gm_error_last());
	return 0;
}

/*
 * The paths to walk: with --history every file; with only --git-fallback
 * those no maintained section claims exactly.
 */
static int cli_history_paths(struct cli *c, struct gm_strvec *paths)
{
	const struct gm_strvec *files = c->opts.history ? &c->walk_paths :
							  &c->files;
	int error = 0;

	for (size_t i = 0; i < files->nr && !error; i++) {
		const char *path = files->v[i];
		size_t len = strlen(path);

		if (!strcmp(path, STDIN_NAME))
			continue;
		if (!c->opts.history &&
		    ((c->matches && c->matches->files[i].exact) ||
		     (len >= 11 && !strcmp(path + len - 11, "MAINTAINERS"))))
			continue;
		error = gm_strvec_push(paths, path);
	}
	return error;
}

/* The walk itself, on `repo` (the run's own, or a second one for a thread). */
static int cli_walk(struct cli *c, struct gm_repo *r)
{
	struct gm_history_options ho = GM_HISTORY_OPTIONS_INIT;
	struct gm_strvec paths = GM_STRVEC_INIT;
	int error;

	ho.since = c->since;
	ho.until = c->until;
	if ((error = cli_history_paths(c, &paths)) < 0)
		goto out;
	if (c->opts.mailmap &&
	    (error = gm_history_mailmap(&c->git_mailmap, r->repo, r->tree)) < 0)
		goto out;
	ho.mailmap = c->git_mailmap;
	error = gm_history_walk(&c->history, r->repo, git_commit_id(r->commit),
				&paths, &ho);
out:
	gm_strvec_release(&paths);
	return error;
}

static void *cli_walker(void *payload)
{
	struct cli *c = payload;

	cli_job_run(c, &c->walker, cli_walk);
	return NULL;
}

/*
 * With --history the paths are known before MAINTAINERS is read: walk in
 * a second thread, on a repository of its own, while the rules are read.
 */
static int cli_start_history(struct cli *c)
{
	int error;

	if (!c->opts.email || (!c->opts.history && !c->opts.git_fallback))
		return 0;
	if ((error = cli_history_window(c)) < 0 || !c->opts.history)
		return error;
	cli_job_start(&c->walker, cli_walker, c);
	return 0;
}

/* Finish the walk (or do it now) and merge its people in. */
static int cli_add_history(struct cli *c)
{
	int error;

	error = c->walker.running ? cli_job_wait(&c->walker) :
		cli_walk(c, c->repo);
	if (error)
		return error;
	if (c->history->shallow)
		warn("history stops at the shallow clone boundary");
	if (c->history->unreadable)
		warn("%zu objects of the history could not be read",
		     c->history->unreadable);
	if (!c->history->commits)
		warn("no commits in the window touch these paths");
	return gm_rank_add_history(&c->rank, c->history);
}

/* ==================== --self-test ==================== */

/* The checks of MAINTAINERS itself: status 1 if they find anything. */
static int cli_self_test(struct cli *c)
{
	struct gm_selftest_input in = GM_SELFTEST_INPUT_INIT;
	unsigned checks;
	size_t found = 0;
	int error;

	if (c->opts.args.nr)
		return gm_error_set(GM_EUSAGE, "--self-test takes no arguments");
	if ((error = gm_selftest_parse_checks(&checks, c->opts.self_test)) < 0 ||
	    (error = gm_selftest_load(&in, c->repo, c->opts.maintainer_path,
				      c->opts.find_maintainer_files,
				      c->opts.mailmap)) < 0)
		return error;
	error = gm_selftest_run(&in, checks, c->out, stderr, &found);
	gm_selftest_release(&in);
	c->status = found ? 1 : 0;
	return error;
}

/* ==================== the pipeline ==================== */

static int cli_scan_file_emails(struct cli *c, const char *path)
{
	struct gm_buf text = GM_BUF_INIT;
	size_t len = strlen(path);
	int error;

	if ((len >= 11 && !strcmp(path + len - 11, "MAINTAINERS") &&
	     (len == 11 || path[len - 12] == '/' || path[len - 12] == '-' ||
	      path[len - 12] == '.')) ||
	    (!c->opts.file_emails && (len < 5 || strcmp(path + len - 5, ".yaml"))))
		return 0;
	error = cli_read_file(c->repo, path, &text);
	if (error == GM_ENOTFOUND || error == GM_EINVALID)
		error = 0;
	else if (!error)
		error = gm_email_scan_text(&c->file_emails, text.ptr, text.len,
					   c->opts.usename);
	gm_buf_release(&text);
	return error;
}

static int cli_collect(struct cli *c)
{
	int error;

	error = gm_match_files(&c->matches, c->m, &c->files,
			       c->opts.pattern_depth);
	for (size_t i = 0; !error && i < c->matches->nr_files; i++) {
		const struct gm_match_file *f = &c->matches->files[i];

		for (size_t k = 0; k < f->nr_sections && !error; k++)
			error = gm_rank_add_section(&c->rank, c->m, f->sections[k]);
		if (!error && c->opts.sections)
			error = gm_output_sections(c->out, c->m, f, c->opts.letters);
		if (!error)
			error = cli_scan_file_emails(c, f->path);
	}
	if (!error)
		error = cli_finish_keywords(c);
	if (!error && c->opts.keywords) {
		gm_match_keywords_finish(c->keywords);
		for (size_t i = 0; i < c->keywords->nr_keywords && !error; i++)
			error = gm_rank_add_section(&c->rank, c->m,
				c->m->section_of[c->keywords->keywords[i]]);
	}
	if (!error)
		error = gm_rank_normalize(&c->rank);
	if (!error)
		error = gm_rank_finish(&c->rank, &c->file_emails);
	if (!error)
		error = cli_add_fixes(c);
	if (!error && (c->opts.history || c->opts.git_fallback) &&
	    c->opts.email)
		error = cli_add_history(c);
	return error;
}

static int cli_output_json(struct cli *c)
{
	char rev[GIT_OID_HEXSZ + 1];
	struct gm_output_report r = {
		rev, &c->files, c->m, c->matches, &c->rank, c->history,
		c->since, c->until,
	};

	git_oid_tostr(rev, sizeof(rev), git_commit_id(c->repo->commit));
	return gm_output_json(c->out, &r);
}

static int cli_execute(struct cli *c, int argc, const char **argv)
{
	int error;

	if ((error = gm_repo_open(&c->repo, c->opts.rev)) < 0 ||
	    (error = cli_parse_options(c, argc, argv)) < 0)
		return error;
	if (c->opts.self_test)
		return cli_self_test(c);
	if (c->opts.tree && (error = cli_check_tree(c)) < 0)
		return error;
	gm_rank_init(&c->rank, &c->opts, NULL);
	cli_start_parser(c);
	if ((error = cli_add_inputs(c)) < 0 ||
	    (error = cli_start_history(c)) < 0 ||
	    (error = cli_start_reader(c)) < 0 ||
	    (error = cli_read_ignore(c)) < 0 ||
	    (error = cli_read_rules(c)) < 0 ||
	    (error = cli_start_keywords(c)) < 0)
		return error;
	c->rank.mailmap = c->mailmap;
	if ((error = cli_collect(c)) < 0 ||
	    (error = gm_rank_sanitize(&c->rank)) < 0)
		return error;
	if (c->opts.format && !strcmp(c->opts.format, "json"))
		return cli_output_json(c);
	return gm_output_write(c->out, &c->rank, &c->opts);
}

static void cli_release(struct cli *c)
{
	if (!c->walker.waited)	/* else it only frees its own */
		cli_job_join(&c->walker);
	cli_job_join(&c->parser);
	cli_job_join(&c->matcher);	/* which may join the reader */
	cli_job_join(&c->reader);
	gm_rank_release(&c->rank);
	gm_history_free(c->history);
	git_mailmap_free(c->git_mailmap);
	gm_strvec_release(&c->file_emails);
	gm_matches_free(c->matches);
	gm_matches_free(c->keywords);
	for (size_t i = 0; c->keyword_texts && i < c->keyword_files.nr; i++)
		gm_repo_text_release(&c->keyword_texts[i].text);
	free(c->keyword_texts);
	gm_repo_free(c->reader_repo);
	gm_strvec_release(&c->keyword_files);
	for (size_t i = 0; i < c->nr_patches; i++) {
		gm_buf_release(&c->patches[i].text);
		gm_patch_release(&c->patches[i].patch);
	}
	free(c->patches);
	gm_strvec_release(&c->fixes);
	gm_strvec_release(&c->files);
	gm_strvec_release(&c->walk_paths);
	gm_mailmap_free(c->mailmap);
	gm_maintainers_free(c->m);
	gm_repo_free(c->repo);
	cli_job_join(&c->walker);
	gm_options_release(&c->opts);
	if (c->out)
		fclose(c->out);
	free(c->out_buf);
}

static int cli_flush(struct cli *c)
{
	if (fflush(c->out) || ferror(c->out))
		return gm_error_set(GM_ERROR, "out of memory");
	if (c->out_len && fwrite(c->out_buf, 1, c->out_len, stdout) != c->out_len)
		return gm_error_set(GM_ERROR, "write error on standard output");
	if (fflush(stdout) || ferror(stdout))
		return gm_error_set(GM_ERROR, "write error on standard output");
	return 0;
}

/* -h, --help, --version, and usage errors of argv alone. */
static int cli_early(struct cli *c, int argc, const char **argv, int *status)
{
	int error = gm_options_parse(&c->opts, argc, argv);

	if (error == 0 && c->opts.help) {
		fputs(gm_options_usage(), stdout);
		*status = c->opts.help == 2 ? 129 : 0;
		return 1;
	}
	if (error == 0 && c->opts.version) {
		printf("git-maintainer version %s\n", GM_VERSION);
		*status = 0;
		return 1;
	}
	return error;
}

int gm_cli_run(int argc, const char **argv, struct gm_prefetch *prefetch)
{
	struct cli c;
	int status = 0, error;

	memset(&c, 0, sizeof(c));
	c.prefetch = prefetch;
	gm_options_init(&c.opts);
	error = cli_early(&c, argc - 1, argv + 1, &status);
	if (error > 0)
		goto out;
	if (!error && !(c.out = open_memstream(&c.out_buf, &c.out_len)))
		error = gm_error_set(GM_ERROR, "out of memory");
	if (!error)
		error = cli_execute(&c, argc - 1, argv + 1);
	if (!error)
		error = cli_flush(&c);
	if (!error)
		status = c.status;
	if (error == GM_EUSAGE) {
		say("error: ", gm_error_last());
		fprintf(stderr, "\n%s", gm_options_usage());
		status = 129;
	} else if (error < 0) {
		say("fatal: ", gm_error_last());
		status = 128;
	}
	for (size_t i = 0; i < c.rank.warnings.nr; i++)
		say("warning: ", c.rank.warnings.v[i]);
out:
	cli_release(&c);
	return status;
}
