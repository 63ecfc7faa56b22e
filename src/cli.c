/*
 * The command: the options, the pipeline in order (rules, inputs,
 * matches, history, ranking, output), and the exit status.
 */
#include "gm/cli.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gm/activity.h"
#include "gm/buf.h"
#include "gm/config.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/inputs.h"
#include "gm/keywords.h"
#include "gm/match.h"
#include "gm/options.h"
#include "gm/output.h"
#include "gm/patch.h"
#include "gm/rank.h"
#include "gm/repo.h"
#include "gm/rules.h"
#include "gm/selftest.h"
#include "gm/signers.h"
#include "gm/strvec.h"
#include "gm/trailer.h"
#include "gm/unowned.h"
#include "gm/walk.h"

/* One question: the inputs of the command line, or one --batch path. */
struct cli_query {
	struct gm_inputs inputs;
	struct gm_keywords keywords;
	struct gm_walk walk;
	struct gm_matches *matches;
	struct gm_match_ctx *match_ctx;	/* F:/X:/N:, --sections */
	struct gm_rank rank;
	struct gm_strvec file_emails;
	struct gm_signers_report *git;	/* --git, --git-fallback, --git-blame */
	FILE *out;			/* its answer, held back until success */
	char *out_buf;
	size_t out_len;
};

/* Everything one run holds, freed in reverse pipeline order. */
struct cli {
	struct gm_options opts;
	const struct gm_repo_location *loc;
	struct gm_prefetch *prefetch;	/* MAINTAINERS, perhaps, already */
	struct gm_repo *repo;
	struct gm_rules rules;
	struct gm_match_ctx *match_ctx;	/* --batch: one for all paths */
	struct gm_match_ctx *keyword_ctx;
	struct gm_buf ignore;		/* .get_maintainer.ignore, once read */
	int ignore_found;		/* 0 read, 1 none, -1 not yet asked */
	struct cli_query q;
	int status;			/* the exit status of a success */
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

static void say_all(const char *prefix, const struct gm_strvec *lines)
{
	for (size_t i = 0; i < lines->nr; i++)
		say(prefix, lines->v[i]);
}

/* --tree: the files and directories of a kernel source tree. */
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

/* The directory test of R-12, in the main thread's repository. */
static bool cli_isdir(const char *path, void *payload)
{
	struct cli *c = payload;

	return gm_repo_kind(c->repo, path) == GM_REPO_TREE;
}

/* The ignore list, read once for all the questions of a run. */
static int cli_read_ignore(struct cli *c, struct cli_query *q)
{
	if (c->ignore_found < 0)
		c->ignore_found = gm_config_read_file(c->repo,
						      ".get_maintainer.ignore",
						      &c->ignore);
	if (c->ignore_found < 0)
		return c->ignore_found;
	if (c->ignore_found > 0)
		return 0;
	return gm_rank_load_ignore(&q->rank, c->ignore.ptr, c->ignore.len);
}

/* The addresses written in a file: the tree's, else the work tree's. */
static int cli_scan_file_emails(struct cli *c, struct cli_query *q,
				const char *path)
{
	struct gm_buf text = GM_BUF_INIT;
	size_t len = strlen(path);
	int error;

	if (gm_inputs_is_maintainers_r47(path) ||
	    (!c->opts.file_emails && (len < 5 || strcmp(path + len - 5, ".yaml"))))
		return 0;
	error = gm_repo_read(c->repo, path, &text);
	if (error == GM_ENOTFOUND)
		error = gm_repo_worktree_read(c->repo, path, &text);
	if (error == GM_ENOTFOUND || error == GM_EINVALID)
		error = 0;
	else if (!error)
		error = gm_email_scan_text(&q->file_emails, text.ptr, text.len,
					   c->opts.usename);
	gm_buf_release(&text);
	return error;
}

/* Signers of each Fixes: commit get "blamed_fixes". */
static int cli_add_fixes(struct cli *c, struct cli_query *q)
{
	const struct gm_strvec *fixes = &q->inputs.fixes;
	struct gm_buf body = GM_BUF_INIT;
	int error = 0;

	for (size_t i = 0; i < fixes->nr && !error; i++) {
		struct gm_strvec signers = GM_STRVEC_INIT;

		gm_buf_reset(&body);
		error = gm_repo_commit_body(c->repo, fixes->v[i], &body);
		if (error == GM_ENOTFOUND) {
			warn("Fixes: commit '%s' not found", fixes->v[i]);
			error = 0;
			continue;
		}
		if (!error)
			error = gm_rank_signers(&q->rank, &signers, body.ptr,
						body.len);
		if (!error)
			error = gm_rank_add_signers(&q->rank, "blamed_fixes", 1,
						    &signers);
		gm_strvec_release(&signers);
	}
	gm_buf_release(&body);
	return error;
}

/* Finish the walk (or do it now) and merge its people in. */
static int cli_add_history(struct cli_query *q)
{
	const struct gm_history *h;
	int error = gm_walk_finish(&q->walk, q->matches);

	if (error || !(h = q->walk.history))
		return error;
	if (h->shallow)
		warn("history stops at the shallow clone boundary");
	if (h->unreadable)
		warn("%zu objects of the history could not be read",
		     h->unreadable);
	if (!h->commits)
		warn("no commits in the window touch these paths");
	return gm_rank_add_history(&q->rank, h);
}

/* The sections of the file rules, then of the keywords. */
static int cli_add_sections(struct cli *c, struct cli_query *q)
{
	struct gm_maintainers *m = c->rules.m;
	const struct gm_matches *kw;
	int error;
	struct gm_match_ctx *ctx = c->match_ctx;

	error = ctx ? 0 : gm_match_ctx_new(&q->match_ctx, m, cli_isdir, c);
	if (!ctx)
		ctx = q->match_ctx;
	if (!error)
		error = gm_match_files(&q->matches, m, ctx, &q->inputs.files,
				       c->opts.pattern_depth);
	for (size_t i = 0; !error && i < q->matches->nr_files; i++) {
		const struct gm_match_file *f = &q->matches->files[i];

		for (size_t k = 0; k < f->nr_sections && !error; k++)
			error = gm_rank_add_section(&q->rank, m, f->sections[k]);
		if (!error && c->opts.sections)
			error = gm_output_sections(q->out, m, ctx, f,
						   c->opts.letters);
		if (!error)
			error = cli_scan_file_emails(c, q, f->path);
	}
	if (!error)
		error = gm_keywords_finish(&q->keywords);
	kw = q->keywords.hits;
	for (size_t i = 0; !error && c->opts.keywords && i < kw->nr_keywords; i++)
		error = gm_rank_add_section(&q->rank, m,
					    m->section_of[kw->keywords[i]]);
	return error;
}

/* The script's history of each file, its roles merged in (R-71..R-78). */
static int cli_add_git(struct cli *c, struct cli_query *q)
{
	struct gm_signers_request req = {
		gm_repo_git(c->repo), gm_repo_commit_id(c->repo),
		gm_repo_workdir(c->repo), &q->inputs.files, q->matches,
		q->inputs.ranges, q->inputs.nr_ranges,
	};

	if (!c->opts.email ||
	    (!c->opts.git && !c->opts.git_fallback && !c->opts.git_blame))
		return 0;
	return gm_signers_collect(&q->git, &q->rank, &req);
}

/* Once the rules are read: the sections, the history, the ranking. */
static int cli_collect(struct cli *c, struct cli_query *q)
{
	int error;

	q->rank.mailmap = c->rules.mailmap;
	if ((error = gm_keywords_start(&q->keywords, c->rules.m)) < 0 ||
	    (error = cli_add_sections(c, q)) < 0 ||
	    (error = gm_rank_normalize(&q->rank)) < 0 ||
	    (error = cli_add_git(c, q)) < 0 ||
	    (error = gm_rank_finish(&q->rank, &q->file_emails)) < 0 ||
	    (error = cli_add_fixes(c, q)) < 0 ||
	    (error = cli_add_history(q)) < 0 ||
	    (error = gm_rank_sanitize(&q->rank)) < 0)
		return error;
	return 0;
}

/* The answer, text or JSON, into q->out; `json_line` for --batch. */
static int cli_output(struct cli *c, struct cli_query *q)
{
	char rev[GM_REPO_HEX_SIZE];
	struct gm_output_report r = {
		rev, &q->inputs.files, c->rules.m, q->matches, &q->rank,
		q->walk.history, q->walk.since, q->walk.until, q->git,
	};

	if (!c->opts.format || strcmp(c->opts.format, "json"))
		return gm_output_write(q->out, &q->rank, &c->opts);
	gm_repo_commit_hex(c->repo, rev);
	return gm_output_json(q->out, &r);
}

/* A question's state, before its inputs are read. */
static int cli_query_init(struct cli *c, struct cli_query *q, bool serial)
{
	memset(q, 0, sizeof(*q));
	q->keywords.serial = q->walk.serial = serial;
	q->keywords.shared_ctx = c->keyword_ctx;
	gm_rank_init(&q->rank, &c->opts, NULL);
	if (!(q->out = open_memstream(&q->out_buf, &q->out_len)))
		return gm_error_set(GM_ERROR, "out of memory");
	return 0;
}

/* Once its inputs are read: the jobs that need no MAINTAINERS. */
static int cli_query_start(struct cli *c, struct cli_query *q)
{
	int error;

	if ((error = gm_walk_start(&q->walk, c->repo, &c->opts,
				   &q->inputs)) < 0 ||
	    (error = gm_keywords_start_reader(&q->keywords, c->repo,
					      &q->inputs, c->opts.keywords,
					      c->prefetch)) < 0)
		return error;
	return cli_read_ignore(c, q);
}

static int cli_query_flush(struct cli_query *q)
{
	if (fflush(q->out) || ferror(q->out))
		return gm_error_set(GM_ERROR, "out of memory");
	return 0;
}

static void cli_query_release(struct cli_query *q)
{
	if (!q->walk.job.waited)	/* else it only frees its own */
		gm_job_join(&q->walk.job);
	gm_keywords_release(&q->keywords);
	gm_rank_release(&q->rank);
	gm_signers_report_free(q->git);
	gm_strvec_release(&q->file_emails);
	gm_matches_free(q->matches);
	gm_match_ctx_free(q->match_ctx);
	gm_inputs_release(&q->inputs);
	gm_walk_release(&q->walk);
	if (q->out)
		fclose(q->out);
	free(q->out_buf);
	memset(q, 0, sizeof(*q));
}

static int cli_write(const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, stdout) != n)
		return gm_error_set(GM_ERROR, "write error on standard output");
	return 0;
}

static int cli_flush_stdout(void)
{
	if (fflush(stdout) || ferror(stdout))
		return gm_error_set(GM_ERROR, "write error on standard output");
	return 0;
}

/* ==================== --batch ==================== */

/* One path of --batch: its answer, or a warning if it has none. */
static int cli_batch_one(struct cli *c, const char *path)
{
	struct cli_query *q = &c->q;
	int error;

	if ((error = cli_query_init(c, q, true)) < 0)
		goto out;
	error = gm_inputs_read_path(&q->inputs, c->repo, &c->opts, path);
	say_all("warning: ", &q->inputs.warnings);
	if (error == GM_ENOTFOUND) {
		say("warning: ", gm_error_last());
		error = 0;
		goto out;
	}
	if (error < 0 || (error = cli_query_start(c, q)) < 0 ||
	    (error = cli_collect(c, q)) < 0 ||
	    (error = cli_output(c, q)) < 0 ||
	    (error = cli_query_flush(q)) < 0)
		goto out;
	if (c->opts.format && !strcmp(c->opts.format, "json"))
		error = gm_output_batch_json(stdout, path, q->out_buf,
					     q->out_len);
	else
		error = gm_output_batch_text(stdout, path, q->out_buf,
					     q->out_len, c->opts.nul);
	say_all("warning: ", &q->rank.warnings);
out:
	cli_query_release(q);
	return error;
}

/* Whether answers go to a pipe or socket, where a reader may wait for each. */
static bool stdout_is_stream(void)
{
	struct stat st;

	return !fstat(1, &st) && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

/*
 * --batch: paths on stdin, one per line (C-quoted as git quotes them, or
 * NUL-terminated with -z), each answered as -f PATH would be.
 */
static int cli_batch(struct cli *c)
{
	struct gm_buf path = GM_BUF_INIT;
	bool stream = stdout_is_stream();
	char *line = NULL;
	size_t alloc = 0;
	ssize_t n;
	int error = 0;

	while (!error && (n = getdelim(&line, &alloc, c->opts.nul ? '\0' : '\n',
				       stdin)) > 0) {
		size_t len = (size_t)n;
		int quoted = 0;

		if (line[len - 1] == (c->opts.nul ? '\0' : '\n'))
			line[--len] = '\0';
		if (!c->opts.nul &&
		    (quoted = gm_patch_unquote(&path, line, len)) < 0)
			error = quoted;
		if (!error && !quoted) {
			gm_buf_reset(&path);
			error = gm_buf_put(&path, line, len);
		}
		if (!error && memchr(path.ptr, '\0', path.len))
			say("warning: ", "a path with a NUL byte is skipped");
		else if (!error && path.len)
			error = cli_batch_one(c, path.ptr);
		if (!error && stream)
			error = cli_flush_stdout();
	}
	if (!error && ferror(stdin))
		error = gm_error_set(GM_ERROR, "cannot read standard input");
	free(line);
	gm_buf_release(&path);
	return error ? error : cli_flush_stdout();
}

/* ==================== --self-test ==================== */

/* The checks of MAINTAINERS itself: status 1 if they find anything. */
static int cli_self_test(struct cli *c)
{
	struct gm_selftest_input in = GM_SELFTEST_INPUT_INIT;
	struct cli_query *q = &c->q;
	unsigned checks;
	size_t found = 0;
	int error;

	if (c->opts.args.nr)
		return gm_error_set(GM_EUSAGE, "--self-test takes no arguments");
	if ((error = cli_query_init(c, q, true)) < 0 ||
	    (error = gm_selftest_parse_checks(&checks, c->opts.self_test)) < 0 ||
	    (error = gm_selftest_load(&in, c->repo, checks,
				      c->opts.maintainer_path,
				      c->opts.find_maintainer_files,
				      c->opts.mailmap)) < 0)
		return error;
	error = gm_selftest_run(&in, checks, q->out, stderr, &found);
	gm_selftest_release(&in);
	c->status = found ? 1 : 0;
	if (error < 0 || (error = cli_query_flush(q)) < 0 ||
	    (error = cli_write(q->out_buf, q->out_len)) < 0)
		return error;
	return cli_flush_stdout();
}

/* ==================== the run ==================== */

/* --unowned, --activity: the whole tree against MAINTAINERS alone. */
static int cli_tree_mode(struct cli *c)
{
	struct gm_strvec warnings = GM_STRVEC_INIT;
	struct cli_query *q = &c->q;
	int error;

	if ((error = gm_rules_finish(&c->rules)) < 0 ||
	    (error = cli_query_init(c, q, true)) < 0)
		return error;
	if (c->opts.unowned)
		error = gm_unowned_run(q->out, c->repo, c->rules.m, &c->opts);
	else
		error = gm_activity_run(q->out, &warnings, c->repo, c->rules.m,
					&c->opts);
	say_all("warning: ", &warnings);
	gm_strvec_release(&warnings);
	if (error < 0 || (error = cli_query_flush(q)) < 0 ||
	    (error = cli_write(q->out_buf, q->out_len)) < 0)
		return error;
	return cli_flush_stdout();
}

/*
 * The pipeline. MAINTAINERS is read in a thread of its own while the
 * inputs, the ignore list and the .mailmap are read, and the history is
 * walked in another; the keyword pass runs beside the file rules.
 */
static int cli_execute(struct cli *c, int argc, const char **argv)
{
	struct cli_query *q = &c->q;
	int error;

	if ((error = gm_repo_open(&c->repo, c->loc, c->opts.rev)) < 0 ||
	    (error = gm_config_load(&c->opts, c->repo, argc, argv)) < 0)
		return error;
	if (c->opts.self_test)
		return cli_self_test(c);
	if (c->opts.tree && (error = cli_check_tree(c)) < 0)
		return error;
	gm_rules_start(&c->rules, c->repo, &c->opts, c->prefetch);
	if (c->opts.unowned || c->opts.activity)
		return cli_tree_mode(c);
	if (c->opts.batch) {
		if ((error = gm_rules_finish(&c->rules)) < 0 ||
		    (error = gm_match_ctx_new(&c->match_ctx, c->rules.m,
					      cli_isdir, c)) < 0 ||
		    (error = gm_match_ctx_new(&c->keyword_ctx, c->rules.m,
					      NULL, NULL)) < 0)
			return error;
		return cli_batch(c);
	}
	if ((error = cli_query_init(c, q, false)) < 0)
		return error;
	error = gm_inputs_read(&q->inputs, c->repo, &c->opts);
	say_all("warning: ", &q->inputs.warnings);
	if (error < 0 ||
	    (error = cli_query_start(c, q)) < 0 ||
	    (error = gm_rules_finish(&c->rules)) < 0 ||
	    (error = cli_collect(c, q)) < 0 ||
	    (error = cli_output(c, q)) < 0 ||
	    (error = cli_query_flush(q)) < 0 ||
	    (error = cli_write(q->out_buf, q->out_len)) < 0)
		return error;
	return cli_flush_stdout();
}

static void cli_release(struct cli *c)
{
	cli_query_release(&c->q);
	gm_match_ctx_free(c->match_ctx);
	gm_match_ctx_free(c->keyword_ctx);
	gm_rules_release(&c->rules);
	gm_buf_release(&c->ignore);
	gm_repo_free(c->repo);
	gm_options_release(&c->opts);
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

int gm_cli_run(int argc, const char **argv,
	       const struct gm_repo_location *loc, struct gm_prefetch *prefetch)
{
	struct cli c;
	int status = 0, error;

	memset(&c, 0, sizeof(c));
	c.ignore = (struct gm_buf)GM_BUF_INIT;
	c.ignore_found = -1;
	c.loc = loc;
	c.prefetch = prefetch;
	gm_options_init(&c.opts);
	error = cli_early(&c, argc - 1, argv + 1, &status);
	if (error > 0)
		goto out;
	if (!error)
		error = cli_execute(&c, argc - 1, argv + 1);
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
	say_all("warning: ", &c.q.rank.warnings);
out:
	cli_release(&c);
	return status;
}
