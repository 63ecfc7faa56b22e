#include "gm/blame.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/objects.h"
#include "gm/repo.h"
#include "gm/signers.h"
#include "gm/thread.h"

/* ==================== git blame --porcelain, read ==================== */

static size_t hex_len(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && ((s[i] >= '0' && s[i] <= '9') ||
			 (s[i] >= 'a' && s[i] <= 'f')))
		i++;
	return i;
}

/*
 * Whether `s` (`n` bytes) is " <n> <n>" or " <n> <n> <n>"; `*final` is
 * the second number.
 */
static bool is_line_numbers(const char *s, size_t n, long *final)
{
	size_t fields = 0, i = 0;

	*final = 0;
	while (i < n) {
		size_t d;

		if (s[i++] != ' ')
			return false;
		for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			if (fields == 1)
				*final = *final > (LONG_MAX - 9) / 10 ? LONG_MAX :
					 *final * 10 + (s[i] - '0');
		if (i == d)
			return false;
		fields++;
	}
	return fields == 2 || fields == 3;
}

/* The lines of `git blame --porcelain` output, in its order. */
struct porcelain {
	struct gm_strvec ids;		/* per line: its commit */
	long *finals;			/* per line: its number in the file */
	size_t alloc_finals;
	struct gm_strvec boundary;	/* the commits marked "boundary", whose
					   lines the script's ^([0-9a-f]+)
					   does not take */
};

#define PORCELAIN_INIT { GM_STRVEC_INIT, NULL, 0, GM_STRVEC_INIT }

static void porcelain_release(struct porcelain *pl)
{
	gm_strvec_release(&pl->ids);
	gm_strvec_release(&pl->boundary);
	free(pl->finals);
}

/*
 * The output is a group per line: "<id> <line> <final line>[ <lines>]",
 * the commit's headers ("author ...", "boundary", ...) the first time
 * the commit is met, and the line itself after a tab.
 */
static int porcelain_read(struct porcelain *pl, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	bool in_group = false;
	int error = 0;

	while (p < end && !error) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t h = hex_len(p, n);
		long final;

		if (!in_group) {
			if ((h != 40 && h != 64) ||	/* SHA-1 or SHA-256 */
			    !is_line_numbers(p + h, n - h, &final))
				error = gm_error_set(GM_EINVALID, "git blame "
						     "--porcelain: not a line's"
						     " commit: %.*s", (int)n, p);
			else if (GM_ARRAY_GROW(pl->finals, pl->ids.nr,
					       pl->alloc_finals) < 0)
				error = GM_ERROR;
			else
				pl->finals[pl->ids.nr] = final;
			if (!error)
				error = gm_strvec_pushn(&pl->ids, p, h);
			in_group = true;
		} else if (n && *p == '\t') {
			in_group = false;
		} else if (n == 8 && !memcmp(p, "boundary", 8)) {
			error = gm_strvec_push(&pl->boundary,
					       pl->ids.v[pl->ids.nr - 1]);
		}
		p += n + 1;
	}
	if (!error && in_group)
		error = gm_error_set(GM_EINVALID, "git blame --porcelain: "
				     "cut short");
	return error;
}

/*
 * Append to `out` the id (hex) of every line of `git blame --porcelain`
 * output (`len` bytes at `buf`), but for boundary lines: those of a
 * commit marked "boundary" (a root commit, unless blame.showRoot), which
 * the script's ^([0-9a-f]+) does not take from `git blame -l`. With no
 * ranges (`nr` 0), in the output's order; else range after range, as one
 * run a range prints them: each range's lines in order (lines past the
 * end are not there), a line in two ranges twice.
 * @return 0, GM_EINVALID (with a message) for what git does not print,
 * or GM_ERROR.
 */
static int porcelain_lines(struct gm_strvec *out, const char *buf,
			   size_t len, const struct gm_patch_range *const *r,
			   size_t nr)
{
	struct porcelain pl = PORCELAIN_INIT;
	size_t *at = NULL, last = 0;	/* at[line]: its index + 1 */
	int error = porcelain_read(&pl, buf, len);

	for (size_t i = 0; i < pl.ids.nr && !error && !nr; i++)
		if (!gm_strvec_contains(&pl.boundary, pl.ids.v[i]))
			error = gm_strvec_push(out, pl.ids.v[i]);
	for (size_t i = 0; i < pl.ids.nr && nr; i++)
		if (pl.finals[i] > 0 && (size_t)pl.finals[i] > last)
			last = (size_t)pl.finals[i];
	if (!error && nr && !(at = calloc(last + 1, sizeof(*at))))
		error = gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < pl.ids.nr && !error && nr; i++)
		if (pl.finals[i] > 0)
			at[pl.finals[i]] = i + 1;
	for (size_t k = 0; k < nr && !error; k++)
		for (long l = r[k]->start; l > 0 && (size_t)l <= last &&
		     l - r[k]->start < r[k]->len && !error; l++)
			if (at[l] && !gm_strvec_contains(&pl.boundary,
							 pl.ids.v[at[l] - 1]))
				error = gm_strvec_push(out, pl.ids.v[at[l] - 1]);
	free(at);
	porcelain_release(&pl);
	return error;
}

/* ==================== git blame, run ==================== */

/* One `git blame` to run: its arguments, then its output and status. */
struct blame_job {
	size_t file;		/* the index of its file */
	const struct gm_patch_range **ranges;	/* its -L, in order */
	size_t nr_ranges;	/* 0: the whole file */
	bool owns_ranges;	/* `ranges` is the job's to free */
	struct gm_strvec argv;
	struct gm_buf out;
	int status;		/* its exit status (0: ok); -1: it could not run */
};

#define WIDTH_MAX 16

/* The jobs a thread runs, taken in turn with the others. */
struct jobs {
	struct blame_job *v;
	size_t nr;
	atomic_size_t next;
};

/*
 * Run the jobs not yet taken; git's messages to stderr but for a job of
 * several ranges (retried a range at a time if refused).
 */
static void *jobs_take(void *arg)
{
	struct jobs *js = arg;
	size_t i;

	while ((i = atomic_fetch_add(&js->next, 1)) < js->nr) {
		struct blame_job *j = &js->v[i];
		struct gm_buf err = GM_BUF_INIT;

		j->status = gm_git_run((const char *const *)j->argv.v, NULL,
				       &j->out, j->nr_ranges > 1 ? NULL : &err);
		fwrite(err.ptr, 1, err.len, stderr);
		gm_buf_release(&err);
	}
	return NULL;
}

/* Run the jobs, as many at a time as there are CPUs (at most WIDTH_MAX). */
static int jobs_run(struct blame_job *v, size_t nr)
{
	struct jobs js = { v, nr, 0 };
	size_t width = (size_t)gm_thread_cpus(), started = 0;
	pthread_t t[WIDTH_MAX];

	width = width > WIDTH_MAX ? WIDTH_MAX : width > nr ? nr : width;
	while (started + 1 < width &&
	       !gm_thread_start(&t[started], jobs_take, &js))
		started++;
	jobs_take(&js);
	for (size_t i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	for (size_t i = 0; i < nr; i++)
		if (v[i].status < 0)
			return gm_error_set(GM_ERROR, "cannot run git blame");
	return 0;
}

/* ==================== a run's blames ==================== */

struct gm_blame {
	struct gm_blame_file *files;	/* per file: its lines' commits */
	size_t nr_files;
};

/* Whether the file is a regular one in the work tree (the tree's, if none). */
static bool is_regular(const struct gm_blame_request *req, const char *path)
{
	struct gm_buf full = GM_BUF_INIT;
	struct stat st;
	bool reg = false;

	if (req->workdir) {
		if (gm_buf_printf(&full, "%s%s", req->workdir, path) == 0)
			reg = !stat(full.ptr, &st) && S_ISREG(st.st_mode);
		gm_buf_release(&full);
		return reg;
	}
	return gm_repo_git_is_blob(req->repo, req->newest, path);
}

/*
 * One more job, the blame of `path`, file `f`: all of it with no
 * `ranges`, else their lines (the script's -L start,+len, which git may
 * refuse; `ranges` must outlive the job, which owns them if `owns`: freed
 * here if it cannot be added), in the work tree at its top when there is
 * one and req->newest is HEAD, else of commit req->newest.
 */
static int job_add(struct blame_job **v, size_t *nr, size_t *alloc,
		   const struct gm_blame_request *req, const char *path,
		   size_t f, const struct gm_patch_range **ranges, size_t n,
		   bool owns)
{
	char hex[GIT_OID_HEXSZ + 1];
	bool work = req->workdir && gm_repo_git_is_head(req->repo, req->newest);
	struct blame_job *j;
	struct gm_strvec *a;
	int error;

	if (GM_ARRAY_GROW(*v, *nr, *alloc) < 0) {
		if (owns)
			free(ranges);
		return GM_ERROR;
	}
	j = &(*v)[(*nr)++];
	*j = (struct blame_job){ f, ranges, n, owns, GM_STRVEC_INIT,
				 GM_BUF_INIT, 0 };
	a = &j->argv;
	error = gm_strvec_push(a, "git");
	if (!error && work && !(error = gm_strvec_push(a, "-C")) &&
	    !(error = gm_strvec_push(a, req->workdir)))
		error = gm_strvec_pushf(a, "--work-tree=%s", req->workdir);
	if (!error && !(error = gm_strvec_pushf(a, "--git-dir=%s",
						gm_repo_git_dir(req->repo))) &&
	    !(error = gm_strvec_push(a, "blame")))
		error = gm_strvec_push(a, "--porcelain");
	for (size_t i = 0; i < n && !error; i++)
		error = gm_strvec_pushf(a, "-L%ld,+%ld", ranges[i]->start,
					ranges[i]->len);
	if (!error && !work)
		error = gm_strvec_push(a, gm_oid_hex(hex, req->newest));
	if (!error && !(error = gm_strvec_push(a, "--")))
		error = gm_strvec_push(a, path);
	return error;
}

/*
 * How many of the -L arguments of `r[0..n)` one git blame takes: as many
 * as fill a quarter of the room the system gives arguments (each counted
 * as its string and its pointer), at least one.
 */
static size_t ranges_fit(const struct gm_patch_range *const *r, size_t n)
{
	long max = sysconf(_SC_ARG_MAX);
	size_t room = max > 0 ? (size_t)max / 4 : 32768, used = 0, k;

	for (k = 0; k < n; k++) {
		used += (size_t)snprintf(NULL, 0, "-L%ld,+%ld", r[k]->start,
					 r[k]->len) + 1 + sizeof(char *);
		if (used > room && k)
			break;
	}
	return k;
}

/*
 * vcs_blame()'s runs for `path`, file `f`: the whole file with no ranges
 * at all, else its ranges, in order, as few runs as the system's room
 * for arguments allows (git blame takes several -L; ranges_fit()),
 * quiet when there are several: if git refuses one, each of that run's
 * is run again on its own for the script's output and messages. The
 * first job owns the list of the ranges.
 */
static int jobs_add(struct blame_job **v, size_t *nr, size_t *alloc,
		    const struct gm_blame_request *req, const char *path,
		    size_t f)
{
	const struct gm_patch_range **r;
	size_t n = 0, at = 0, fit;
	int error = 0;

	if (!(r = calloc(req->nr_ranges + 1, sizeof(*r))))
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < req->nr_ranges; i++)
		if (!strcmp(req->ranges[i].file, path))
			r[n++] = &req->ranges[i];
	if (req->nr_ranges && !n) {
		free(r);
		return 0;
	}
	do {
		fit = ranges_fit(r + at, n - at);
		error = job_add(v, nr, alloc, req, path, f, r + at, fit, !at);
		at += fit;
	} while (!error && at < n);
	return error;
}

/*
 * Every file's jobs run, those git refused run again a range at a time,
 * and each file's lines read from them in order.
 */
static int blame_all(struct gm_blame *b, const struct gm_blame_request *req,
		     const struct gm_strvec *files)
{
	struct blame_job *v = NULL;
	size_t nr = 0, alloc = 0, first;
	int error = 0;

	for (size_t f = 0; f < files->nr && !error; f++)
		if (strcmp(files->v[f], "&STDIN") &&
		    is_regular(req, files->v[f]))
			error = jobs_add(&v, &nr, &alloc, req, files->v[f], f);
	if (!error)
		error = jobs_run(v, nr);
	first = nr;
	for (size_t k = 0; k < first && !error; k++)
		for (size_t i = 0; v[k].status && v[k].nr_ranges > 1 &&
		     i < v[k].nr_ranges && !error; i++)
			error = job_add(&v, &nr, &alloc, req,
					files->v[v[k].file], v[k].file,
					&v[k].ranges[i], 1, false);
	if (!error)
		error = jobs_run(v + first, nr - first);
	/* in the ranges' order: a refused job's retries in its place */
	for (size_t k = 0, again = first; k < first && !error; k++) {
		size_t from = k, to = k + 1;

		if (v[k].status && v[k].nr_ranges > 1) {
			from = again;
			to = again += v[k].nr_ranges;
		}
		for (size_t i = from; i < to && !error; i++)
			if (!v[i].status)
				error = porcelain_lines(
					&b->files[v[i].file].lines,
					v[i].out.ptr, v[i].out.len,
					v[i].ranges, v[i].nr_ranges);
	}
	for (size_t k = 0; k < nr; k++) {
		if (v[k].owns_ranges)
			free(v[k].ranges);
		gm_strvec_release(&v[k].argv);
		gm_buf_release(&v[k].out);
	}
	free(v);
	return error;
}

/* The commits of every file's lines, each read once (git log -1). */
static int read_commits(struct gm_blame *b, const struct gm_blame_request *req)
{
	struct gm_objects o;
	int error = gm_objects_open(&o, req->repo, NULL, NULL);

	for (size_t i = 0; i < b->nr_files && !error; i++) {
		struct gm_blame_file *f = &b->files[i];

		for (size_t l = 0; l < f->lines.nr && !error; l++)
			if (!gm_strvec_contains(&f->ids, f->lines.v[l]))
				error = gm_strvec_push(&f->ids, f->lines.v[l]);
		if (!error && f->ids.nr &&
		    !(f->commits = calloc(f->ids.nr, sizeof(*f->commits))))
			error = gm_error_set(GM_ERROR, "out of memory");
		for (size_t k = 0; k < f->ids.nr && !error; k++) {
			char *text = NULL;
			size_t len;
			git_oid id;

			if (!gm_oid_fromhex(&id, f->ids.v[k]) ||
			    !gm_objects_read(&o, &id, GIT_OBJECT_COMMIT, &text,
					     &len))
				continue;	/* git log fails: nothing */
			error = gm_signers_commit_read(&f->commits[k], &id, text,
						       req->all_signature_types);
			free(text);
		}
	}
	gm_objects_close(&o);
	return error;
}

int gm_blame_run(struct gm_blame **out, const struct gm_blame_request *req,
		 const struct gm_strvec *files)
{
	struct gm_blame *b = calloc(1, sizeof(*b));
	int error;

	*out = NULL;
	if (!b || !(b->files = calloc(files->nr + 1, sizeof(*b->files)))) {
		free(b);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	b->nr_files = files->nr;
	if ((error = blame_all(b, req, files)) < 0 ||
	    (error = read_commits(b, req)) < 0)
		gm_blame_free(b);
	else
		*out = b;
	return error;
}

const struct gm_blame_file *gm_blame_file_at(const struct gm_blame *b,
					     size_t file)
{
	return &b->files[file];
}

void gm_blame_free(struct gm_blame *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nr_files; i++) {
		struct gm_blame_file *f = &b->files[i];

		for (size_t k = 0; f->commits && k < f->ids.nr; k++)
			gm_signers_commit_release(&f->commits[k]);
		free(f->commits);
		gm_strvec_release(&f->ids);
		gm_strvec_release(&f->lines);
	}
	free(b->files);
	free(b);
}
