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

#include "gm/buf.h"
#include "gm/config.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/inputs.h"
#include "gm/keywords.h"
#include "gm/match.h"
#include "gm/options.h"
#include "gm/output.h"
#include "gm/rank.h"
#include "gm/repo.h"
#include "gm/rules.h"
#include "gm/strvec.h"
#include "gm/trailer.h"
#include "gm/walk.h"

/* Everything one run holds, freed in reverse pipeline order. */
struct cli {
	struct gm_options opts;
	const struct gm_repo_location *loc;
	struct gm_prefetch *prefetch;	/* MAINTAINERS, perhaps, already */
	struct gm_repo *repo;
	struct gm_rules rules;
	struct gm_inputs inputs;
	struct gm_keywords keywords;
	struct gm_walk walk;
	struct gm_matches *matches;
	struct gm_rank rank;
	struct gm_strvec file_emails;
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

/* The inputs, with their warnings said as they were found. */
static int cli_read_inputs(struct cli *c)
{
	int error = gm_inputs_read(&c->inputs, c->repo, &c->opts);

	say_all("warning: ", &c->inputs.warnings);
	return error;
}

static int cli_read_ignore(struct cli *c)
{
	struct gm_buf text = GM_BUF_INIT;
	int error = gm_config_read_file(c->repo, ".get_maintainer.ignore",
					&text);

	if (error == 0)
		error = gm_rank_load_ignore(&c->rank, text.ptr, text.len);
	gm_buf_release(&text);
	return error < 0 ? error : 0;
}

/* The addresses written in a file: the tree's, else the work tree's. */
static int cli_scan_file_emails(struct cli *c, const char *path)
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
		error = gm_email_scan_text(&c->file_emails, text.ptr, text.len,
					   c->opts.usename);
	gm_buf_release(&text);
	return error;
}

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
	const struct gm_strvec *fixes = &c->inputs.fixes;
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
			error = fixes_signers(c, body.ptr, &signers);
		if (!error)
			error = gm_rank_add_signers(&c->rank, "blamed_fixes", 1,
						    &signers);
		gm_strvec_release(&signers);
	}
	gm_buf_release(&body);
	return error;
}

/* Finish the walk (or do it now) and merge its people in. */
static int cli_add_history(struct cli *c)
{
	const struct gm_history *h;
	int error = gm_walk_finish(&c->walk, c->matches);

	if (error || !(h = c->walk.history))
		return error;
	if (h->shallow)
		warn("history stops at the shallow clone boundary");
	if (h->unreadable)
		warn("%zu objects of the history could not be read",
		     h->unreadable);
	if (!h->commits)
		warn("no commits in the window touch these paths");
	return gm_rank_add_history(&c->rank, h);
}

/* The sections of the file rules, then of the keywords. */
static int cli_add_sections(struct cli *c)
{
	struct gm_maintainers *m = c->rules.m;
	const struct gm_matches *kw;
	int error;

	error = gm_match_files(&c->matches, m, &c->inputs.files,
			       c->opts.pattern_depth);
	for (size_t i = 0; !error && i < c->matches->nr_files; i++) {
		const struct gm_match_file *f = &c->matches->files[i];

		for (size_t k = 0; k < f->nr_sections && !error; k++)
			error = gm_rank_add_section(&c->rank, m, f->sections[k]);
		if (!error && c->opts.sections)
			error = gm_output_sections(c->out, m, f, c->opts.letters);
		if (!error)
			error = cli_scan_file_emails(c, f->path);
	}
	if (!error)
		error = gm_keywords_finish(&c->keywords);
	kw = c->keywords.hits;
	for (size_t i = 0; !error && c->opts.keywords && i < kw->nr_keywords; i++)
		error = gm_rank_add_section(&c->rank, m,
					    m->section_of[kw->keywords[i]]);
	return error;
}

static int cli_collect(struct cli *c)
{
	int error;

	if ((error = cli_add_sections(c)) < 0 ||
	    (error = gm_rank_normalize(&c->rank)) < 0 ||
	    (error = gm_rank_finish(&c->rank, &c->file_emails)) < 0 ||
	    (error = cli_add_fixes(c)) < 0)
		return error;
	return cli_add_history(c);
}

static int cli_output(struct cli *c)
{
	char rev[GM_REPO_HEX_SIZE];
	struct gm_output_report r = {
		rev, &c->inputs.files, c->rules.m, c->matches, &c->rank,
		c->walk.history, c->walk.since, c->walk.until,
	};

	if (!c->opts.format || strcmp(c->opts.format, "json"))
		return gm_output_write(c->out, &c->rank, &c->opts);
	gm_repo_commit_hex(c->repo, rev);
	return gm_output_json(c->out, &r);
}

/*
 * The pipeline. MAINTAINERS is read in a thread of its own while the
 * inputs, the ignore list and the .mailmap are read, and the history is
 * walked in another; the keyword pass runs beside the file rules.
 */
static int cli_execute(struct cli *c, int argc, const char **argv)
{
	int error;

	if ((error = gm_repo_open(&c->repo, c->loc, c->opts.rev)) < 0 ||
	    (error = gm_config_load(&c->opts, c->repo, argc, argv)) < 0 ||
	    (c->opts.tree && (error = cli_check_tree(c)) < 0))
		return error;
	gm_rank_init(&c->rank, &c->opts, NULL);
	gm_rules_start(&c->rules, c->repo, &c->opts, c->prefetch, cli_isdir, c);
	if ((error = cli_read_inputs(c)) < 0 ||
	    (error = gm_walk_start(&c->walk, c->repo, &c->opts,
				   &c->inputs)) < 0 ||
	    (error = gm_keywords_start_reader(&c->keywords, c->repo,
					      &c->inputs, c->opts.keywords,
					      c->prefetch)) < 0 ||
	    (error = cli_read_ignore(c)) < 0 ||
	    (error = gm_rules_finish(&c->rules)) < 0 ||
	    (error = gm_keywords_start(&c->keywords, c->rules.m)) < 0)
		return error;
	c->rank.mailmap = c->rules.mailmap;
	if ((error = cli_collect(c)) < 0 ||
	    (error = gm_rank_sanitize(&c->rank)) < 0)
		return error;
	return cli_output(c);
}

static void cli_release(struct cli *c)
{
	if (!c->walk.job.waited)	/* else it only frees its own */
		gm_job_join(&c->walk.job);
	gm_keywords_release(&c->keywords);
	gm_rules_release(&c->rules);
	gm_rank_release(&c->rank);
	gm_strvec_release(&c->file_emails);
	gm_matches_free(c->matches);
	gm_inputs_release(&c->inputs);
	gm_walk_release(&c->walk);
	gm_repo_free(c->repo);
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

int gm_cli_run(int argc, const char **argv,
	       const struct gm_repo_location *loc, struct gm_prefetch *prefetch)
{
	struct cli c;
	int status = 0, error;

	memset(&c, 0, sizeof(c));
	c.loc = loc;
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
	if (error == GM_EUSAGE) {
		say("error: ", gm_error_last());
		fprintf(stderr, "\n%s", gm_options_usage());
		status = 129;
	} else if (error < 0) {
		say("fatal: ", gm_error_last());
		status = 128;
	}
	say_all("warning: ", &c.rank.warnings);
out:
	cli_release(&c);
	return status;
}
