/*
 * The command: the options, the pipeline in order (rules, inputs,
 * matches, history, ranking, output), and the exit status.
 */
#include "gm/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gm/activity.h"
#include "gm/batch.h"
#include "gm/buf.h"
#include "gm/check_run.h"
#include "gm/config.h"
#include "gm/error.h"
#include "gm/inputs.h"
#include "gm/options.h"
#include "gm/output.h"
#include "gm/progress.h"
#include "gm/query.h"
#include "gm/repo.h"
#include "gm/report.h"
#include "gm/rules.h"
#include "gm/rules_read.h"
#include "gm/selftest.h"
#include "gm/strmap.h"
#include "gm/strvec.h"
#include "gm/unowned.h"

/* Everything one run holds, freed in reverse pipeline order. */
struct cli {
	struct gm_options opts;
	const struct gm_repo_location *loc;
	struct gm_prefetch *prefetch;	/* MAINTAINERS, perhaps, already */
	struct gm_repo *repo;
	struct gm_rules rules;
	struct gm_rules_read rules_read;	/* the texts of `rules` */
	struct gm_query_env env;
	struct gm_query_worker worker;	/* the command line's question */
	struct gm_query q;
	int status;			/* the exit status of a success */
	struct gm_options cmdline;	/* the defaults and argv alone */
	struct gm_strmap said;		/* warnings written: each once a run */
};

/* Each line not said before in this run (out of memory: said again). */
static void say_all(struct cli *c, const char *prefix,
		    const struct gm_strvec *lines)
{
	for (size_t i = 0; i < lines->nr; i++) {
		const char *w = lines->v[i];

		if (gm_strmap_get(&c->said, w, strlen(w), NULL))
			continue;
		gm_strmap_put(&c->said, w, strlen(w), NULL);
		gm_output_message(stderr, prefix, w);
	}
}

/* A progress line for a mode that counts nothing: what it does, the time. */
static struct gm_progress *cli_progress(struct cli *c, const char *title)
{
	struct gm_progress *p;

	gm_progress_start(&p, gm_progress_wanted(c->opts.progress), stderr,
			  title, NULL, 0);
	return p;
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

/* An answer held in memory until it is whole, then written. */
struct held {
	FILE *f;
	char *buf;
	size_t len;
};

static int held_open(struct held *h)
{
	memset(h, 0, sizeof(*h));
	if (!(h->f = open_memstream(&h->buf, &h->len)))
		return gm_error_set(GM_ERROR, "out of memory");
	return 0;
}

static int held_write(struct held *h)
{
	if (fflush(h->f) || ferror(h->f))
		return gm_error_set(GM_ERROR, "out of memory");
	return gm_error_write_records(stdout, h->buf, h->len);
}

static void held_release(struct held *h)
{
	if (h->f)
		fclose(h->f);
	free(h->buf);
}

/* ==================== the modes ==================== */

/* The checks of MAINTAINERS itself: status 1 if they find anything. */
static int cli_self_test(struct cli *c)
{
	struct gm_selftest_input in = GM_SELFTEST_INPUT_INIT;
	struct gm_progress *progress = NULL;
	struct held out, notes;	/* notes: for stderr, once progress ends */
	unsigned checks;
	size_t found = 0;
	int error;

	if (c->opts.args.nr)
		return gm_error_set(GM_EUSAGE, "--self-test takes no arguments");
	if ((error = gm_selftest_parse_checks(&checks, c->opts.self_test)) < 0 ||
	    (error = held_open(&out)) < 0)
		return error;
	in.net.insecure = c->opts.links_insecure;
	if ((error = held_open(&notes)) < 0)
		goto out;
	gm_progress_start(&progress, gm_progress_wanted(c->opts.progress),
			  stderr, "Checking MAINTAINERS: links", "checked", 0);
	in.net.progress = progress;
	if (!(error = gm_selftest_load(&in, c->repo, checks,
				       c->opts.maintainer_path,
				       c->opts.find_maintainer_files,
				       c->opts.mailmap)))
		error = gm_selftest_run(&in, checks, out.f, notes.f, &found);
	gm_progress_stop(progress);
	gm_selftest_release(&in);
	if (!fflush(notes.f) && notes.len)
		fwrite(notes.buf, 1, notes.len, stderr);
	c->status = found ? 1 : 0;
	if (!error)
		error = held_write(&out);
out:
	held_release(&notes);
	held_release(&out);
	return error;
}

/* Whether the answer is JSON (--format=json). */
static bool cli_json(const struct gm_options *o)
{
	return o->format && !strcmp(o->format, "json");
}

/* The page of --report=<file>, held in `out`, into that file. */
static int cli_write_file(const char *name, struct held *out)
{
	FILE *f = NULL;
	int error = 0;

	if (fflush(out->f) || !(f = fopen(name, "w")) ||
	    fwrite(out->buf, 1, out->len, f) != out->len)
		error = gm_error_set(GM_ERROR, "cannot write '%s': %s", name,
				     strerror(errno));
	if (f && fclose(f) && !error)
		error = gm_error_set(GM_ERROR, "cannot write '%s': %s", name,
				     strerror(errno));
	return error;
}

/*
 * --unowned, --activity, --check (status 1 if anything is missing),
 * --report (the page, to the file named or to stdout): the answer held
 * until it is whole.
 */
static int cli_tree_mode(struct cli *c)
{
	const struct gm_options *o = &c->opts;
	bool check = o->check && !o->unowned && !o->activity;
	struct gm_strvec warnings = GM_STRVEC_INIT;
	struct gm_progress *progress = NULL;
	struct gm_unowned_settings us = { &o->args, o->pattern_depth,
		cli_json(o) ? GM_UNOWNED_JSON : o->format &&
		!strcmp(o->format, "list") ? GM_UNOWNED_LIST : GM_UNOWNED_TABLE };
	struct gm_activity_settings as = { &o->args, o->since, o->until,
					   o->pattern_depth, o->mailmap,
					   cli_json(o) };
	struct gm_report_settings rs = { o->since, o->until, o->pattern_depth,
					 o->mailmap, o->maintainer_path,
					 o->find_maintainer_files };
	size_t missing = 0;
	struct held out;
	int error;

	if ((check && ((error = gm_query_env_load(&c->env, c->repo)) < 0 ||
		       (error = gm_walk_dates(&c->env.dates, o)) < 0)) ||
	    (error = gm_rules_read_finish(&c->rules_read)) < 0 ||
	    (error = held_open(&out)) < 0)
		return error;
	if (!check)
		progress = cli_progress(c, o->unowned ?
			"Finding the files no section claims" : o->activity ?
			"Counting the commits of each section" :
			"Writing the MAINTAINERS health page");
	if (o->unowned)
		error = gm_unowned_run(out.f, c->repo, c->rules.m, &us);
	else if (o->activity)
		error = gm_activity_run(out.f, &warnings, c->repo, c->rules.m,
					&as);
	else if (check)
		error = gm_check_run(out.f, &warnings, &c->env, c->repo,
				     &missing);
	else
		error = gm_report_run(out.f, &warnings, c->repo, c->rules.m,
				      &rs);
	gm_progress_stop(progress);
	say_all(c, "warning: ", &warnings);
	gm_strvec_release(&warnings);
	if (check)
		c->status = missing ? 1 : 0;
	if (!error && !check && o->report && *o->report)
		error = cli_write_file(o->report, &out);
	else if (!error)
		error = held_write(&out);
	held_release(&out);
	return error;
}

/* --batch: every path of stdin, as -f PATH. */
static int cli_batch(struct cli *c)
{
	const struct gm_options *o = &c->opts;
	struct gm_batch_settings s = {
		o->jobs, o->nul, cli_json(o),
		gm_progress_wanted(o->progress),
	};
	struct gm_batch_answerer a;
	int error = gm_rules_read_finish(&c->rules_read);
	size_t unanswered = 0;

	gm_query_batch_answerer(&a, &c->env);
	if (!error)
		error = gm_walk_dates(&c->env.dates, o);
	if (!error)
		error = gm_batch_run(&s, &a, c->repo, stdin, stdout, stderr,
				     &unanswered);
	if (unanswered)
		c->status = 1;	/* some paths got a warning, not an answer */
	return error;
}

/*
 * The question of the command line. MAINTAINERS is read in a thread of
 * its own while the inputs, the ignore list and the .mailmap are read,
 * and the history is walked in another.
 */
static int cli_query(struct cli *c)
{
	struct gm_query *q = &c->q;
	const struct gm_options *o = &c->opts;
	struct gm_progress *progress = NULL;
	int error;

	c->worker = (struct gm_query_worker){ .env = &c->env,
					      .repo = c->repo };
	if ((error = gm_query_init(q, &c->worker, false)) < 0)
		return error;
	error = gm_inputs_read(&q->inputs, c->repo, &c->env.inputs);
	say_all(c, "warning: ", &q->inputs.warnings);
	if (error < 0)
		return error;
	if (o->git || o->git_blame || o->git_fallback || o->history) {
		char title[96];

		snprintf(title, sizeof(title), "Reading the history of %zu file%s",
			 q->inputs.files.nr, q->inputs.files.nr == 1 ? "" : "s");
		progress = cli_progress(c, title);
	}
	if ((error = gm_query_start(q)) < 0 ||
	    (error = gm_query_env_load(&c->env, c->repo)) < 0 ||
	    (error = gm_rules_read_finish(&c->rules_read)) < 0)
		goto out;
	error = gm_query_run(q);
	gm_progress_stop(progress);
	progress = NULL;
	say_all(c, "warning: ", &q->warnings);
	if (error >= 0)
		error = gm_error_write_records(stdout, q->out_buf,
					       q->out_len);
out:
	gm_progress_stop(progress);
	return error;
}

/* The history options a --batch run may get from elsewhere than argv. */
static const struct {
	const char *name;
	size_t field;
} costly[] = {
	{ "--git", offsetof(struct gm_options, git) },
	{ "--git-blame", offsetof(struct gm_options, git_blame) },
	{ "--git-fallback", offsetof(struct gm_options, git_fallback) },
};

static int field_of(const struct gm_options *o, size_t field)
{
	return *(const int *)((const char *)o + field);
}

/*
 * Which of the places below the command line set `field` on: the words
 * of .get_maintainer.conf, the tree's script, else git config (which
 * gm_config_load() reads between those two). The caller frees it.
 */
static char *setting_source(struct gm_repo *r, size_t field)
{
	struct gm_strvec words = GM_STRVEC_INIT;
	struct gm_buf conf = GM_BUF_INIT, msg = GM_BUF_INIT;
	struct gm_options o;
	bool named, on;
	char *script;

	gm_options_init(&o);
	on = !gm_config_read_file(r, ".get_maintainer.conf", &conf) &&
	     !gm_config_words(&words, conf.ptr) &&
	     !gm_options_parse(&o, (int)words.nr, (const char **)words.v) &&
	     field_of(&o, field);
	gm_options_release(&o);
	gm_options_init(&o);
	if (on) {
		gm_buf_puts(&msg, ".get_maintainer.conf");
	} else if (gm_config_treescript(&o, r, NULL) && field_of(&o, field) &&
		   (script = gm_config_treescript_path(r, &named))) {
		gm_buf_printf(&msg, "the tree's %s", script);
		free(script);
	} else {
		gm_buf_puts(&msg, "git config");
	}
	gm_error_clear();
	gm_options_release(&o);
	gm_strvec_release(&words);
	gm_buf_release(&conf);
	return gm_buf_detach(&msg, NULL);
}

/*
 * A --batch run that reads every path's history (--git and its kin) for
 * a reason not on the command line is slow for a reason the user did not
 * give: say so once, naming the place that turned it on.
 */
static void cli_note_conf(const struct cli *c)
{
	const char *what = NULL;
	char *source = NULL;

	for (size_t i = 0; c->opts.batch && !what &&
	     i < sizeof(costly) / sizeof(*costly); i++)
		if (field_of(&c->opts, costly[i].field) &&
		    !field_of(&c->cmdline, costly[i].field)) {
			what = costly[i].name;
			source = setting_source(c->repo, costly[i].field);
		}
	if (what && source)
		fprintf(stderr, "note: %s turns on %s: every path's history is "
			"read (--no%s on the command line turns it off)\n",
			source, what, what + 2);
	free(source);
}

static int cli_execute(struct cli *c, int argc, const char **argv)
{
	const struct gm_options *o = &c->opts;
	const char *since = c->cmdline.since, *until = c->cmdline.until;
	int error;

	if ((error = gm_repo_open(&c->repo, c->loc, c->cmdline.rev)) < 0 ||
	    (error = gm_config_load(&c->opts, c->repo, argc, argv)) < 0)
		return error;
	if ((since || until) && !o->history && !o->activity && !o->report)
		return gm_error_set(GM_EUSAGE, "--%s is read by --history, "
				    "--activity and --report only (--git's "
				    "window is --git-since)",
				    since ? "since" : "until");
	cli_note_conf(c);
	/*
	 * --check reads the history (costly, and only advice) when the
	 * command line asks for it, or with --check-history, not by
	 * configuration.
	 */
	if (o->check && !o->check_history) {
		c->opts.git = c->cmdline.git;
		c->opts.git_fallback = c->cmdline.git_fallback;
		c->opts.git_blame = c->cmdline.git_blame;
		c->opts.history = c->cmdline.history;
	}
	if (o->self_test)
		return cli_self_test(c);
	if (o->tree && (error = cli_check_tree(c)) < 0)
		return error;
	gm_rules_read_start(&c->rules_read, &c->rules, c->repo, o, c->prefetch);
	c->env.opts = o;
	/* --history: a path of the tree is a path, whatever the script says */
	c->env.inputs = (struct gm_inputs_settings){
		&o->args, o->series, o->from_filename,
		o->tracked_paths || o->history, o->patch_dev_null, o->fixes,
		o->keywords, o->keywords_in_file,
	};
	c->env.output = (struct gm_output_settings){
		o->email, o->lists, o->roles, o->to, o->cc, o->headers,
		o->multiline, o->separator, o->scm, o->substatus, o->status,
		o->subsystem, o->web, o->bug,
	};
	gm_query_rank_settings(&c->env.rank, o);
	c->env.rules = &c->rules;
	if (o->unowned || o->activity || o->check || o->report)
		return cli_tree_mode(c);
	if (o->batch)
		return (error = gm_query_env_load(&c->env, c->repo)) < 0 ?
		       error : cli_batch(c);
	c->env.prefetch = c->prefetch;
	return cli_query(c);
}

static void cli_release(struct cli *c)
{
	gm_query_release(&c->q);
	gm_query_worker_release(&c->worker);
	gm_strvec_release(&c->env.ignore);
	gm_rules_read_release(&c->rules_read);
	gm_rules_release(&c->rules);
	gm_repo_free(c->repo);
	gm_options_release(&c->opts);
	gm_options_release(&c->cmdline);
	gm_strmap_release(&c->said);
}
/* -h, --help, --version, and usage errors of argv alone. */
static int cli_early(struct cli *c, int argc, const char **argv, int *status)
{
	int error = gm_options_parse(&c->cmdline, argc, argv);

	if (error == 0 && c->cmdline.help) {
		gm_options_usage_write(stdout);
		*status = c->cmdline.help == 2 ? 129 : 0;
		return 1;
	}
	if (error == 0 && c->cmdline.version) {
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
	gm_options_init(&c.cmdline);
	error = cli_early(&c, argc - 1, argv + 1, &status);
	if (error > 0)
		goto out;
	if (!error)
		error = cli_execute(&c, argc - 1, argv + 1);
	if (!error)
		status = c.status;
	if (error == GM_EUSAGE && !strncmp(gm_error_last(), "unknown option",
					    14)) {
		gm_output_message(stderr, "error: ", gm_error_last());
		fputs("See 'git maintainer -h' for the options.\n", stderr);
		status = 129;
	} else if (error == GM_EUSAGE) {
		gm_output_message(stderr, "error: ", gm_error_last());
		fputc('\n', stderr);
		gm_options_usage_write(stderr);
		status = 129;
	} else if (error < 0) {
		gm_output_message(stderr, "fatal: ", gm_error_last());
		status = 128;
	}
	say_all(&c, "warning: ", &c.q.rank.warnings);
out:
	cli_release(&c);
	return status;
}
