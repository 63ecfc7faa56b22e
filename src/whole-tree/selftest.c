#include "gm/selftest.h"

#include "gm/pattern.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gm/buf.h"
#include "gm/email.h"
#include "gm/error.h"
#include "gm/net.h"
#include "gm/progress.h"
#include "gm/rules.h"
#include "gm/strmap.h"
#include "gm/unowned.h"

/*
 * The regexes get_maintainer.pl applies to a T: value, run as PCRE2
 * patterns: their \s and \S are Perl's.
 */
enum { T_WELL_FORMED, T_GIT, T_QUILT_HG, NR_T };
static const char *const t_sources[NR_T] = {
	"^(?:git|quilt|hg)\\s+\\S",
	"^git\\s+(\\S+)(\\s+([^\\(]+\\S+))?",
	"^(?:quilt|hg)\\s+(https?:\\S+)",
};

/* Characters that keep a F:/X: value from being a plain glob. */
#define PATTERN_REGEX_CHARS "[](){}+^$|\\\n"

/* One physical line of a MAINTAINERS file, without its newline. */
struct st_line {
	const struct gm_repo_file *file;
	size_t nr;		/* 1-based */
	const char *s;
	size_t len;
};

enum st_job_kind { JOB_HTTP, JOB_GIT, JOB_OFFLINE };

/* A reachability check, done once per value (the script's cache). */
struct st_job {
	enum st_job_kind kind;
	size_t line;		/* where the script makes it */
	struct gm_strvec patterns; /* branch words, for JOB_GIT */
	struct gm_net_link link;	/* url and, once checked, the answer */
};

/* Where a header out of alphabetical order belongs: 1 + a header's line. */
struct st_place {
	size_t before;		/* the header it belongs before, or 0 */
	size_t after;		/* else the one it belongs after */
};

struct st {
	const struct gm_selftest_input *in;
	unsigned checks;
	FILE *out, *err;
	size_t warnings;
	struct st_line *lines;
	size_t nr_lines;
	struct st_job *jobs;
	size_t nr_jobs, alloc_jobs;
	struct gm_strmap job_of;	/* value -> job index + 1 */
	_Atomic size_t next_job;	/* the next for the workers to take */
	bool unreachable;		/* no link could reach its server */
	size_t *headers, nr_headers;	/* the section headers seen */
	struct st_place *places;	/* per line; NULL: no order check */
	struct gm_strmap names;		/* lower-case address -> line + 1 */
	pcre2_code *t[NR_T];	/* t_sources[], compiled */
	pcre2_match_data *md;
};

/* ==================== checks by name ==================== */

/* The checks' names, check_words[i] for the check 1 << i. */
static const char *const check_words[] = {
	"sections", "patterns", "links", "scm", "addresses", "order",
};

#define WORD_CHARS \
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

int gm_selftest_parse_checks(unsigned *out, const char *words)
{
	const char *p = words ? words : "";

	*out = 0;
	while (*p) {
		size_t len, i;

		p += strcspn(p, WORD_CHARS);
		len = strspn(p, WORD_CHARS);
		if (!len)
			break;
		for (i = 0; i < sizeof(check_words) / sizeof(*check_words); i++)
			if (strlen(check_words[i]) == len &&
			    !strncmp(check_words[i], p, len))
				break;
		if (i == sizeof(check_words) / sizeof(*check_words))
			return gm_error_set(GM_EUSAGE,
					    "unknown --self-test check '%.*s' (sections, patterns, links, scm, addresses, order)",
					    (int)len, p);
		*out |= 1u << i;
		p += len;
	}
	if (!*out)
		*out = GM_SELFTEST_SCRIPT;
	return 0;
}

/* ==================== loading ==================== */

/*
 * The script's `-d` on the work tree: a directory, or a submodule, whose
 * directory a checkout always makes (empty when not initialised), while
 * `git ls-files` lists it without a slash: "F: sub" of a submodule then
 * matches no file.
 */
static bool selftest_isdir(const char *path, void *payload)
{
	struct gm_repo_entry e;

	if (gm_repo_lookup(payload, path, &e) < 0)
		return false;
	return e.type == GIT_OBJECT_TREE || e.type == GIT_OBJECT_COMMIT;
}

static int add_file(struct gm_selftest_input *in, struct gm_repo *r,
		    const char *path, const char *name)
{
	struct gm_repo_file *f;
	size_t len = strlen(path);

	f = realloc(in->files, (in->nr_files + 1) * sizeof(*f));
	if (!f)
		return gm_error_set(GM_ERROR, "out of memory");
	in->files = f;
	f = &in->files[in->nr_files];
	f->text = (struct gm_buf)GM_BUF_INIT;
	if (!(f->path = strdup(name)))
		return gm_error_set(GM_ERROR, "out of memory");
	in->nr_files++;
	/* a directory reads as empty, as the script's open() of one does */
	if (len && path[len - 1] == '/')
		return 0;
	return gm_repo_read(r, path, &f->text);
}

/*
 * The files of the directory `dir` (a path from the top), or every
 * MAINTAINERS below it with `find`, named below `label`.
 */
static int add_dir(struct gm_selftest_input *in, struct gm_repo *r,
		   const char *dir, const char *label, bool find)
{
	struct gm_repo_file *found = NULL;
	struct gm_strvec list = GM_STRVEC_INIT;
	struct gm_buf name = GM_BUF_INIT;
	size_t nr = 0, skip = *dir ? strlen(dir) + 1 : 0;
	int error;

	error = find ? gm_repo_find(r, dir, "MAINTAINERS", &found, &nr) :
		       gm_repo_list(r, dir, &list);
	if (!error && !(find ? nr : list.nr))
		error = gm_error_set(GM_ENOTFOUND,
				     "no MAINTAINER files found in '%s'", label);
	for (size_t i = 0; !error && i < (find ? nr : list.nr); i++) {
		const char *path = find ? found[i].path : list.v[i];
		size_t len = strlen(path + skip);

		if (!find && len && path[skip + len - 1] == '/')
			len--;
		gm_buf_reset(&name);
		if ((error = gm_buf_printf(&name, "%s/%.*s", label, (int)len,
					   path + skip)) == 0)
			error = add_file(in, r, path, name.ptr);
	}
	gm_repo_files_free(found, nr);
	gm_strvec_release(&list);
	gm_buf_release(&name);
	return error;
}

static int load_maintainers(struct gm_selftest_input *in, struct gm_repo *r,
			    const char *mpath, bool find)
{
	struct gm_rules_settings set = { .maintainer_path = mpath };
	struct gm_buf path = GM_BUF_INIT, label = GM_BUF_INIT;
	enum gm_repo_kind kind = GM_REPO_TREE;
	int error;

	if ((error = gm_rules_path(&set, &path)) < 0 ||
	    (error = gm_buf_puts(&label, mpath ? mpath : "./MAINTAINERS")) < 0)
		goto out;
	while (label.len > 1 && label.ptr[label.len - 1] == '/')
		label.ptr[--label.len] = '\0';
	if (path.len)
		kind = gm_repo_kind(r, path.ptr);
	if (kind == GM_REPO_NONE)
		error = gm_error_set(GM_ENOTFOUND,
				     "MAINTAINER file not found '%s'", label.ptr);
	else if (kind == GM_REPO_TREE)
		error = add_dir(in, r, path.ptr, label.ptr, find);
	else
		error = add_file(in, r, path.ptr, label.ptr);
out:
	gm_buf_release(&path);
	gm_buf_release(&label);
	return error;
}

/*
 * The tree's files as the script sees them: `git ls-files` output, with
 * each line's leading white space taken off (git_execute_cmd), sorted.
 */
static int load_paths(struct gm_selftest_input *in, struct gm_repo *r)
{
	struct gm_strvec raw = GM_STRVEC_INIT;
	struct gm_buf q = GM_BUF_INIT;
	bool high = true;
	int error = gm_repo_files(r, &raw);

	if (!error && gm_repo_config_bool(r, "core.quotePath", &high) < 0)
		high = true;
	for (size_t i = 0; !error && i < raw.nr; i++) {
		const char *p;

		gm_buf_reset(&q);
		if ((error = gm_buf_put_path(&q, raw.v[i], high)) < 0)
			break;
		p = q.ptr + strspn(q.ptr, " ");
		error = gm_strvec_push(&in->paths, p);
	}
	if (!error)
		gm_strvec_sort_uniq(&in->paths);
	gm_strvec_release(&raw);
	gm_buf_release(&q);
	return error;
}

static int load_mailmap(struct gm_selftest_input *in, struct gm_repo *r)
{
	struct gm_buf text = GM_BUF_INIT;
	int error = gm_repo_read(r, ".mailmap", &text);

	if (error == GM_ENOTFOUND || error == GM_EINVALID)
		error = 0;
	else if (!error)
		error = gm_mailmap_from_buffer(&in->mailmap, text.ptr,
					       text.len);
	gm_buf_release(&text);
	return error;
}

int gm_selftest_load(struct gm_selftest_input *in, struct gm_repo *r,
		     unsigned checks, const char *mpath, bool find,
		     bool mailmap)
{
	int error;

	in->isdir = selftest_isdir;
	in->isdir_payload = r;
	if ((error = load_maintainers(in, r, mpath, find)) < 0 ||
	    ((checks & GM_SELFTEST_PATTERNS) &&
	     (error = load_paths(in, r)) < 0) ||
	    (mailmap && (checks & GM_SELFTEST_ADDRESSES) &&
	     (error = load_mailmap(in, r)) < 0))
		gm_selftest_release(in);
	return error;
}

void gm_selftest_release(struct gm_selftest_input *in)
{
	gm_repo_files_free(in->files, in->nr_files);
	in->files = NULL;
	in->nr_files = 0;
	gm_strvec_release(&in->paths);
	gm_mailmap_free(in->mailmap);
	in->mailmap = NULL;
}

/* ==================== lines ==================== */

/* Split every file into lines, as Perl's <> reads them, chomped. */
static int split_lines(struct st *st)
{
	size_t alloc = 0;

	for (size_t f = 0; f < st->in->nr_files; f++) {
		const struct gm_repo_file *file = &st->in->files[f];
		const char *p = file->text.ptr, *end = p + file->text.len;

		for (size_t nr = 1; p < end; nr++) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			struct st_line *l;

			if (GM_ARRAY_GROW(st->lines, st->nr_lines, alloc) < 0)
				return GM_ERROR;
			l = &st->lines[st->nr_lines++];
			l->file = file;
			l->nr = nr;
			l->s = p;
			l->len = (size_t)((nl ? nl : end) - p);
			p = nl ? nl + 1 : end;
		}
	}
	return 0;
}

/* /^([A-Z]):\s*(.*)/: the tag and its value (`*v`, `*vlen`), else 0, "". */
static char line_tag(const struct st_line *l, const char **v, size_t *vlen)
{
	size_t i = 2;

	*v = l->s;
	*vlen = 0;
	if (l->len < 2 || l->s[0] < 'A' || l->s[0] > 'Z' || l->s[1] != ':')
		return 0;
	while (i < l->len && gm_email_isspace((unsigned char)l->s[i]))
		i++;
	*v = l->s + i;
	*vlen = l->len - i;
	return l->s[0];
}

/* A section header: /^\S[^:]/, and the next line /^([A-Z]):\s*\S/. */
static bool line_is_header(const struct st *st, size_t i)
{
	const struct st_line *l = &st->lines[i];
	const char *v;
	size_t vlen;

	return l->len >= 2 && !gm_email_isspace((unsigned char)l->s[0]) &&
	       l->s[1] != ':' && i + 1 < st->nr_lines &&
	       line_tag(&st->lines[i + 1], &v, &vlen) && vlen;
}

/*
 * One warning line about line `i`; its file's name (a directory of the
 * tree's with --find-maintainer-files) C-quoted if it must be.
 */
static GM_PRINTF(3, 4) int warn(struct st *st, size_t i, const char *fmt, ...)
{
	const struct st_line *l = &st->lines[i];
	struct gm_buf name = GM_BUF_INIT;
	va_list ap;

	if (gm_buf_put_path(&name, l->file->path, false) < 0)
		return GM_ERROR;
	fprintf(st->out, "%s:%zu: warning: ", name.ptr, l->nr);
	gm_buf_release(&name);
	va_start(ap, fmt);
	vfprintf(st->out, fmt, ap);
	va_end(ap);
	fputc('\t', st->out);
	fwrite(l->s, 1, l->len, st->out);
	fputc('\n', st->out);
	st->warnings++;
	return ferror(st->out) ? gm_error_set(GM_ERROR, "write error") : 0;
}

/* Whether s[0..len) holds `word` (lower case), ignoring ASCII case. */
static bool contains_ci(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word);

	for (size_t i = 0; i + n <= len; i++)
		if (!strncasecmp(s + i, word, n))
			return true;
	return false;
}

/* ==================== sections ==================== */

static int check_section(struct st *st, size_t i)
{
	const struct st_line *l = &st->lines[i];
	bool has_s = false, has_f = false, has_ml = false, seen = false;
	const char *status = "";
	size_t status_len = 0;
	int error = 0;

	/* an earlier header that starts with this one: the script's test */
	for (size_t k = 0; k < st->nr_headers && !seen; k++) {
		const struct st_line *h = &st->lines[st->headers[k]];

		seen = h->len >= l->len && !memcmp(h->s, l->s, l->len);
	}
	if (seen)
		error = warn(st, i, "duplicate section header");
	else
		st->headers[st->nr_headers++] = i;
	for (size_t j = i + 1; j < st->nr_lines; j++) {
		const char *v;
		size_t vlen;
		char tag = line_tag(&st->lines[j], &v, &vlen);

		if (!tag || !vlen)
			break;
		if (tag == 'S') {
			has_s = true;
			status = v;
			status_len = vlen;
		}
		has_f |= tag == 'F' || tag == 'N';
		has_ml |= tag == 'M' || tag == 'R' || tag == 'L';
	}
	if (!error && !has_ml && !contains_ci(status, status_len, "orphan") &&
	    !contains_ci(status, status_len, "obsolete"))
		error = warn(st, i, "section without email address");
	if (!error && !has_s)
		error = warn(st, i, "section without status ");
	if (!error && !has_f)
		error = warn(st, i, "section without file pattern");
	return error;
}

/* ==================== patterns ==================== */

static bool regex_match(struct st *st, pcre2_code *code, const char *s,
			size_t len)
{
	return pcre2_match(code, (PCRE2_SPTR)s, len, 0, 0, st->md,
			   gm_pattern_match_context()) >= 0;
}

/*
 * The literal text every path a value's regex matches starts with: up to
 * the first wildcard or regex character; nothing with an alternation.
 */
static size_t literal_prefix(const char *v, size_t vlen)
{
	size_t n = 0;

	if (memchr(v, '|', vlen))
		return 0;
	while (n < vlen && !strchr("*?" PATTERN_REGEX_CHARS, v[n]))
		n++;
	/* a {n,m} after a character may make it optional */
	if (n && n < vlen && v[n] == '{')
		n--;
	return n;
}

/* The script's conversion of a F:/X: value, directory slash included. */
static int pattern_convert(struct st *st, struct gm_buf *re, const char *v,
			   size_t vlen, bool *slash)
{
	size_t start = re->len;	/* after the caller's '^' */
	int error = 0;

	*slash = false;
	for (size_t i = 0; i < vlen && !error; i++) {
		if (v[i] == '.')
			error = gm_buf_puts(re, "\\.");
		else if (v[i] == '*')
			error = gm_buf_puts(re, ".*");
		else
			error = gm_buf_putc(re, v[i] == '?' ? '.' : v[i]);
	}
	/* the test is on the converted value alone, as the script's -d */
	if (!error && re->len > start && re->ptr[re->len - 1] != '/' &&
	    strlen(re->ptr) == re->len && st->in->isdir &&
	    st->in->isdir(re->ptr + start, st->in->isdir_payload)) {
		*slash = true;
		error = gm_buf_putc(re, '/');
	}
	return error;
}

/*
 * Whether some file of the tree matches /^<converted value>/, as the
 * script's grep of `git ls-files` asks. Only the paths that start with
 * the value's literal prefix are tried.
 */
static int pattern_matches(struct st *st, const char *v, size_t vlen,
			   bool *found)
{
	const struct gm_strvec *paths = &st->in->paths;
	struct gm_buf re = GM_BUF_INIT, glob = GM_BUF_INIT;
	bool plain = true, slash;
	pcre2_code *code = NULL;
	size_t lit, from;
	int error, rc;

	for (size_t i = 0; i < vlen && plain; i++)
		plain = !strchr(PATTERN_REGEX_CHARS, v[i]) && v[i];
	*found = false;
	if ((error = gm_buf_putc(&re, '^')) < 0 ||
	    (error = pattern_convert(st, &re, v, vlen, &slash)) < 0 ||
	    (error = gm_buf_put(&glob, v, vlen)) < 0 ||
	    (slash && (error = gm_buf_putc(&glob, '/')) < 0))
		goto out;
	lit = literal_prefix(glob.ptr, glob.len);
	if (!plain &&
	    !(code = pcre2_compile((PCRE2_SPTR)re.ptr, re.len, 0, &rc,
				   &(PCRE2_SIZE){ 0 }, NULL)))
		goto out;	/* the script dies; here it matches nothing */
	from = gm_unowned_lower_bound((const char *const *)paths->v, paths->nr,
				      glob.ptr, lit);
	for (size_t i = from; i < paths->nr && !*found; i++) {
		const char *s = paths->v[i];
		size_t slen = strlen(s);

		if (slen < lit || memcmp(s, glob.ptr, lit))
			break;
		if (plain)
			*found = gm_pattern_prefix_match(glob.ptr + lit,
						   glob.len - lit, s + lit,
						   slen - lit);
		else
			*found = regex_match(st, code, s, slen);
	}
out:
	pcre2_code_free(code);
	gm_buf_release(&re);
	gm_buf_release(&glob);
	return error;
}

/* ==================== links and scm: what to check ==================== */

/* /^https?:/ */
static bool is_http(const char *v, size_t vlen)
{
	return (vlen >= 5 && !memcmp(v, "http:", 5)) ||
	       (vlen >= 6 && !memcmp(v, "https:", 6));
}

/* The length of the first word of v[0..vlen): what wget gets as the URL. */
static size_t first_word(const char *v, size_t vlen)
{
	size_t n = 0;

	while (n < vlen && !gm_email_isspace((unsigned char)v[n]))
		n++;
	return n;
}

/* Group `n` of the last match, if it took part: in `*g`, `*glen`. */
static bool regex_group(struct st *st, const char *s, int n, const char **g,
			size_t *glen)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(st->md);

	if (ov[2 * n] == PCRE2_UNSET)
		return false;
	*g = s + ov[2 * n];
	*glen = ov[2 * n + 1] - ov[2 * n];
	return true;
}

/* The words of s[0..len) split as a shell splits an unquoted $var. */
static int split_words(struct gm_strvec *out, const char *s, size_t len)
{
	size_t i = 0;
	int error = 0;

	while (i < len && !error) {
		size_t n = 0;

		while (i < len && strchr(" \t\n", s[i]))
			i++;
		while (i + n < len && !strchr(" \t\n", s[i + n]))
			n++;
		if (n)
			error = gm_strvec_pushn(out, s + i, n);
		i += n;
	}
	return error;
}

/* A job for `value`, the last of st->jobs. */
static int add_job(struct st *st, size_t line, const char *value,
		   size_t vlen, enum st_job_kind kind, const char *url,
		   size_t ulen)
{
	struct st_job *job;

	if (GM_ARRAY_GROW(st->jobs, st->nr_jobs, st->alloc_jobs) < 0)
		return GM_ERROR;
	job = &st->jobs[st->nr_jobs];
	memset(job, 0, sizeof(*job));
	job->kind = kind;
	job->line = line;
	if (!(job->link.url = strndup(url, ulen)))
		return gm_error_set(GM_ERROR, "out of memory");
	st->nr_jobs++;
	return gm_strmap_put(&st->job_of, value, vlen,
			     (void *)(uintptr_t)st->nr_jobs);
}

/* The check the script makes of the T: value at line `i`, if any. */
static int plan_scm(struct st *st, size_t i, const char *v, size_t vlen)
{
	const char *url = "", *branch = "";
	size_t ulen = 0, blen = 0;
	int error = 0;

	if (!regex_match(st, st->t[T_WELL_FORMED], v, vlen))
		return 0;
	if (regex_match(st, st->t[T_GIT], v, vlen)) {
		regex_group(st, v, 1, &url, &ulen);
		if (!regex_group(st, v, 3, &branch, &blen) ||
		    (blen == 1 && *branch == '0'))	/* "if $3" */
			blen = 0;
		if ((error = add_job(st, i, v, vlen, JOB_GIT, url, ulen)) == 0)
			error = split_words(&st->jobs[st->nr_jobs - 1].patterns,
					    branch, blen);
	} else if (regex_match(st, st->t[T_QUILT_HG], v, vlen)) {
		regex_group(st, v, 1, &url, &ulen);
		error = add_job(st, i, v, vlen, JOB_HTTP, url, ulen);
	}
	return error;
}

/*
 * The reachability checks the script would make, in its order: one per
 * value (its good/bad lists are one cache for links and scm alike).
 */
static int plan_jobs(struct st *st)
{
	int error = 0;

	for (size_t i = 0; i < st->nr_lines && !error; i++) {
		const char *v;
		size_t vlen;
		char tag = line_tag(&st->lines[i], &v, &vlen);

		if (!tag || gm_strmap_get(&st->job_of, v, vlen, NULL))
			continue;
		if ((tag == 'W' || tag == 'Q' || tag == 'B') &&
		    (st->checks & GM_SELFTEST_LINKS) && is_http(v, vlen))
			error = add_job(st, i, v, vlen, JOB_HTTP, v,
					first_word(v, vlen));
		else if (tag == 'T' && (st->checks & GM_SELFTEST_SCM))
			error = plan_scm(st, i, v, vlen);
	}
	return error;
}

/* ==================== links and scm: checking ==================== */

/* The git checks, one at a time, until none is left. */
static void *worker(void *payload)
{
	struct st *st = payload;
	size_t k;

	while ((k = atomic_fetch_add(&st->next_job, 1)) < st->nr_jobs)
		if (st->jobs[k].kind == JOB_GIT)
			gm_net_git_check(&st->jobs[k].link,
					 &st->jobs[k].patterns, &st->in->net);
	return NULL;
}

/*
 * Whether no link could reach its server (and one tried): then the
 * network is out of reach, not the links bad. Says so once on `err`.
 */
static void judge_network(struct st *st)
{
	const struct gm_net_link *first = NULL;

	for (size_t k = 0; k < st->nr_jobs; k++) {
		const struct gm_net_link *l = &st->jobs[k].link;

		if (l->network && !l->unreached)
			return;
		if (l->network && !first)
			first = l;
	}
	if (!first)
		return;
	st->unreachable = true;
	if (st->err)
		fprintf(st->err,
			"warning: network unreachable: links not checked (%s)\n",
			first->why);
}

/*
 * Before any check: when the network is out of reach (gm_net_offline()
 * on links[0..st->nr_jobs)), the jobs that would go out are marked
 * unreached (JOB_OFFLINE), for judge_network() to say so once, and are
 * not run.
 */
static void skip_offline(struct st *st, struct gm_net_link *const *links)
{
	char why[GM_NET_WHY_SIZE];

	if (!gm_net_offline(links, st->nr_jobs, why))
		return;
	for (size_t k = 0; k < st->nr_jobs; k++) {
		struct st_job *job = &st->jobs[k];

		if (!gm_net_remote(job->link.url))
			continue;
		job->kind = JOB_OFFLINE;
		job->link.network = job->link.unreached = true;
		job->link.result = GM_ENOTFOUND;
		snprintf(job->link.why, sizeof(job->link.why), "%s", why);
		gm_progress_add(st->in->net.progress, 1);
	}
}

/*
 * Run the jobs: the HTTP ones in->net.parallel at a time in this thread,
 * beside them the git ones on as many threads; wait for all.
 */
static int run_jobs(struct st *st)
{
	int parallel = st->in->net.parallel;
	size_t nr = parallel > 0 ? (size_t)parallel : 1, nr_git = 0;
	size_t nr_http = 0, started = 0;
	struct gm_net_link **links = NULL;
	pthread_t *threads = NULL;
	int error = 0;

	gm_progress_total(st->in->net.progress, st->nr_jobs);
	if (!st->nr_jobs)
		return 0;
	if (!(links = calloc(st->nr_jobs + 1, sizeof(*links))) ||
	    !(threads = calloc(nr + 1, sizeof(*threads)))) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	for (size_t k = 0; k < st->nr_jobs; k++)
		links[k] = &st->jobs[k].link;
	skip_offline(st, links);
	for (size_t k = 0; k < st->nr_jobs; k++) {
		nr_git += st->jobs[k].kind == JOB_GIT;
		if (st->jobs[k].kind == JOB_HTTP)
			links[nr_http++] = &st->jobs[k].link;
	}
	if (nr > nr_git)
		nr = nr_git;
	if ((error = gm_net_init()) < 0)
		goto out;
	while (started < nr &&
	       !pthread_create(&threads[started], NULL, worker, st))
		started++;
	error = gm_net_http_check(links, nr_http, &st->in->net);
	if (!started)
		worker(st);	/* no thread to be had: all of it here */
	for (size_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	if (!error)
		judge_network(st);
	gm_net_shutdown();
out:
	free(links);
	free(threads);
	return error;
}

static struct st_job *job_for(struct st *st, const char *v, size_t vlen)
{
	void *k;

	if (!gm_strmap_get(&st->job_of, v, vlen, &k))
		return NULL;
	return &st->jobs[(uintptr_t)k - 1];
}

/* A note on `err` for a link this program does not check. */
static void note_unchecked(struct st *st, size_t i, const struct st_job *job)
{
	const struct st_line *l = &st->lines[i];

	if (!st->err || job->link.result != GM_EINVALID || job->line != i)
		return;
	fprintf(st->err, "%s:%zu: note: %s\t%.*s\n", l->file->path, l->nr,
		job->link.why[0] ? job->link.why : "not checked", (int)l->len,
		l->s);
}

static int check_link(struct st *st, size_t i, const char *v, size_t vlen)
{
	struct st_job *job = job_for(st, v, vlen);

	if (!job)
		return 0;
	note_unchecked(st, i, job);
	if (st->unreachable && job->link.network)
		return 0;	/* not checked: said once */
	if (job->link.result && job->link.result != GM_EINVALID)
		return warn(st, i, "possible bad link");
	return 0;
}

static int check_scm(struct st *st, size_t i, const char *v, size_t vlen)
{
	struct st_job *job = job_for(st, v, vlen);

	/* a value checked at an earlier line: the script's cache */
	if ((!job || job->line >= i) &&
	    !regex_match(st, st->t[T_WELL_FORMED], v, vlen))
		return warn(st, i, "malformed entry");
	return check_link(st, i, v, vlen);
}

/* ==================== addresses ==================== */

/* The first word of a L: value: the list's address. */
static int check_list_address(struct st *st, size_t i, const char *v,
			      size_t vlen)
{
	struct gm_buf addr = GM_BUF_INIT;
	size_t n = first_word(v, vlen);
	int error;

	if ((error = gm_buf_put(&addr, v, n)) == 0 &&
	    (!n || !strchr(addr.ptr, '@') || strlen(addr.ptr) != n ||
	     !gm_email_rfc822_valid(addr.ptr) ||
	     !gm_email_address_valid(addr.ptr)))
		error = warn(st, i, "invalid email address");
	gm_buf_release(&addr);
	return error;
}

/* The M:/R: value v[0..vlen) without its trailing blanks, and its parts. */
static int parse_value(struct gm_buf *value, struct gm_buf *name,
		       struct gm_buf *addr, const char *v, size_t vlen)
{
	int error;

	while (vlen && gm_email_isspace((unsigned char)v[vlen - 1]))
		vlen--;
	if ((error = gm_buf_put(value, v, vlen)) < 0)
		return error;
	return gm_email_parse(name, addr, value->ptr);
}

/* The name the M:/R: line `l` gives its address. */
static int name_of(struct gm_buf *name, const struct st_line *l)
{
	struct gm_buf value = GM_BUF_INIT, addr = GM_BUF_INIT;
	const char *v;
	size_t vlen;
	int error;

	line_tag(l, &v, &vlen);
	error = parse_value(&value, name, &addr, v, vlen);
	gm_buf_release(&value);
	gm_buf_release(&addr);
	return error;
}

/*
 * The address given another name at an earlier line: the first line that
 * names it (addresses compared ignoring ASCII case) is the reference.
 */
static int check_name(struct st *st, size_t i, const char *name,
		      const char *addr)
{
	struct gm_buf key = GM_BUF_INIT, other = GM_BUF_INIT;
	const struct st_line *l;
	void *first;
	int error;

	if (!*name)
		return 0;
	if ((error = gm_buf_set_lower(&key, addr)) < 0)
		goto out;
	if (!gm_strmap_get(&st->names, key.ptr, key.len, &first)) {
		error = gm_strmap_put(&st->names, key.ptr, key.len,
				      (void *)(uintptr_t)(i + 1));
		goto out;
	}
	l = &st->lines[(uintptr_t)first - 1];
	if ((error = name_of(&other, l)) == 0 && strcmp(other.ptr, name))
		error = warn(st, i, "name differs from %s:%zu", l->file->path,
			     l->nr);
out:
	gm_buf_release(&key);
	gm_buf_release(&other);
	return error;
}

/* Where the .mailmap sends the address, if elsewhere. */
static int check_mailmap(struct st *st, size_t i, const char *value,
			 const char *addr)
{
	struct gm_buf mapped = GM_BUF_INIT, name = GM_BUF_INIT;
	struct gm_buf to = GM_BUF_INIT;
	int error;

	if (!st->in->mailmap)
		return 0;
	if ((error = gm_mailmap_apply(&mapped, st->in->mailmap, value)) == 0 &&
	    (error = gm_email_parse(&name, &to, mapped.ptr)) == 0 &&
	    strcasecmp(to.ptr, addr))
		error = warn(st, i, ".mailmap maps the address to %s", to.ptr);
	gm_buf_release(&mapped);
	gm_buf_release(&name);
	gm_buf_release(&to);
	return error;
}

/* Whether s is blank but for RFC 822 comments: "(...)", nested. */
static bool only_comments(const char *s)
{
	int depth = 0;

	for (; *s; s++) {
		if (*s == '\\' && depth && s[1])
			s++;
		else if (*s == '(')
			depth++;
		else if (*s == ')' && depth)
			depth--;
		else if (!depth && !gm_email_isspace((unsigned char)*s))
			return false;
	}
	return !depth;
}

/*
 * Whether the M:/R: value `value` is one address the output can carry:
 * split as the script splits it, its address one a header can
 * hold, its name no control characters, the two as printed an RFC 822
 * address, and nothing but comments after the '>' of a "Name <addr>".
 */
static int address_valid(const char *value, const struct gm_buf *name,
			 const struct gm_buf *addr, bool *valid)
{
	struct gm_buf shown = GM_BUF_INIT;
	const char *gt = strrchr(value, '>');
	int error;

	*valid = false;
	if (!addr->len || !gm_email_address_valid(addr->ptr) ||
	    !gm_email_name_valid(name->ptr))
		return 0;
	if (strchr(value, '<') && (!gt || !only_comments(gt + 1)))
		return 0;
	if ((error = gm_email_format(&shown, name->ptr, addr->ptr, 1)) == 0)
		*valid = gm_email_rfc822_valid(shown.ptr);
	gm_buf_release(&shown);
	return error;
}

static int check_address(struct st *st, size_t i, char tag, const char *v,
			 size_t vlen)
{
	struct gm_buf value = GM_BUF_INIT, name = GM_BUF_INIT;
	struct gm_buf addr = GM_BUF_INIT;
	bool valid;
	int error;

	if (tag == 'L')
		return check_list_address(st, i, v, vlen);
	if ((error = parse_value(&value, &name, &addr, v, vlen)) < 0 ||
	    (error = address_valid(value.ptr, &name, &addr, &valid)) < 0)
		goto out;
	if (!valid || strlen(value.ptr) != value.len) {
		error = warn(st, i, "invalid email address");
		goto out;
	}
	if ((error = check_name(st, i, name.ptr, addr.ptr)) == 0)
		error = check_mailmap(st, i, value.ptr, addr.ptr);
out:
	gm_buf_release(&value);
	gm_buf_release(&name);
	gm_buf_release(&addr);
	return error;
}

/* ==================== order ==================== */

/*
 * The key scripts/parse-maintainers.pl sorts sections by: the name in
 * upper case, "THE REST" in it as "ZZZZZZ", so that it sorts last.
 */
static int order_key(struct gm_buf *out, const struct st_line *l)
{
	int error = 0;

	gm_buf_reset(out);
	for (size_t k = 0; k < l->len && !error; k++) {
		if (k + 8 <= l->len && !strncasecmp(l->s + k, "THE REST", 8)) {
			error = gm_buf_puts(out, "ZZZZZZ");
			k += 7;
		} else if (l->s[k] >= 'a' && l->s[k] <= 'z') {
			error = gm_buf_putc(out, (char)(l->s[k] - 'a' + 'A'));
		} else {
			error = gm_buf_putc(out, l->s[k]);
		}
	}
	return error;
}

static int key_cmp(const struct gm_buf *a, const struct gm_buf *b)
{
	int c = memcmp(a->ptr, b->ptr, a->len < b->len ? a->len : b->len);

	if (c)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

/*
 * Which headers of one file keep their place: the longest run of them
 * already in order (a longest non-decreasing subsequence), the one of
 * the earliest headers where there are several. `len[k]` is the length
 * of the longest run starting at header k, found from the end; the run
 * is then taken greedily from the start.
 */
static int order_keep(const struct gm_buf *keys, size_t n, unsigned char *keep)
{
	size_t *len = calloc(n + 1, sizeof(*len));
	size_t need = 0, cur = SIZE_MAX;

	if (!len)
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t k = n; k-- > 0;) {
		for (size_t j = k + 1; j < n; j++)
			if (len[j] > len[k] && key_cmp(&keys[j], &keys[k]) >= 0)
				len[k] = len[j];
		if (++len[k] > need)
			need = len[k];
	}
	for (size_t k = 0; k < n && need; k++)
		if (len[k] == need &&
		    (cur == SIZE_MAX || key_cmp(&keys[k], &keys[cur]) >= 0)) {
			keep[k] = 1;
			cur = k;
			need--;
		}
	free(len);
	return 0;
}

/*
 * The headers `h` of one file, with their keys: each that is not kept is
 * out of order, and belongs before the first kept one above it.
 */
static int order_file(struct st *st, const size_t *h, size_t n,
		      struct gm_buf *keys)
{
	unsigned char *keep = calloc(n + 1, 1);
	int error;

	if (!keep)
		return gm_error_set(GM_ERROR, "out of memory");
	error = order_keep(keys, n, keep);
	for (size_t k = 0; k < n && !error; k++) {
		struct st_place *p = &st->places[h[k]];

		for (size_t j = 0; !keep[k] && j < n && !p->before; j++)
			if (keep[j] && key_cmp(&keys[j], &keys[k]) > 0)
				p->before = h[j] + 1;
			else if (keep[j])
				p->after = h[j] + 1;
	}
	free(keep);
	return error;
}

/* Mark the headers that are out of alphabetical order in their file. */
static int plan_order(struct st *st)
{
	size_t *h = calloc(st->nr_lines + 1, sizeof(*h));
	struct gm_buf *keys = calloc(st->nr_lines + 1, sizeof(*keys));
	int error = 0;

	st->places = calloc(st->nr_lines + 1, sizeof(*st->places));
	if (!h || !keys || !st->places) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	for (size_t k = 0; k <= st->nr_lines; k++)
		keys[k] = (struct gm_buf)GM_BUF_INIT;
	for (size_t i = 0, n = 0; i <= st->nr_lines && !error; i++) {
		if (n && (i == st->nr_lines ||
			  st->lines[i].file != st->lines[h[0]].file)) {
			error = order_file(st, h, n, keys);
			n = 0;
		}
		if (i < st->nr_lines && !error && line_is_header(st, i)) {
			error = order_key(&keys[n], &st->lines[i]);
			h[n++] = i;
		}
	}
out:
	for (size_t k = 0; keys && k <= st->nr_lines; k++)
		gm_buf_release(&keys[k]);	/* alloc 0 if never set */
	free(h);
	free(keys);
	return error;
}

static int check_order(struct st *st, size_t i)
{
	const struct st_place *p = &st->places[i];
	const struct st_line *l;

	if (!p->before && !p->after)
		return 0;
	l = &st->lines[(p->before ? p->before : p->after) - 1];
	return warn(st, i, "section out of alphabetical order, belongs %s %.*s",
		    p->before ? "before" : "after", (int)l->len, l->s);
}

/* ==================== the run ==================== */

static int check_line(struct st *st, size_t i)
{
	const char *v;
	size_t vlen;
	char tag;
	bool found;
	int error = 0;

	if ((st->checks & (GM_SELFTEST_SECTIONS | GM_SELFTEST_ORDER)) &&
	    line_is_header(st, i)) {
		if (st->checks & GM_SELFTEST_SECTIONS)
			error = check_section(st, i);
		if (!error && st->places)
			error = check_order(st, i);
	}
	if (error || !(tag = line_tag(&st->lines[i], &v, &vlen)))
		return error;
	if ((tag == 'F' || tag == 'X') && (st->checks & GM_SELFTEST_PATTERNS)) {
		if ((error = pattern_matches(st, v, vlen, &found)) == 0 &&
		    !found)
			error = warn(st, i, "no file matches");
	} else if (tag == 'W' || tag == 'Q' || tag == 'B') {
		if ((st->checks & GM_SELFTEST_LINKS) && is_http(v, vlen))
			error = check_link(st, i, v, vlen);
	} else if (tag == 'T') {
		if (st->checks & GM_SELFTEST_SCM)
			error = check_scm(st, i, v, vlen);
	}
	if (!error && (tag == 'M' || tag == 'R' || tag == 'L') &&
	    (st->checks & GM_SELFTEST_ADDRESSES))
		error = check_address(st, i, tag, v, vlen);
	return error;
}

static int compile_t_regexes(struct st *st)
{
	PCRE2_SIZE off;
	int rc;

	for (int k = 0; k < NR_T; k++)
		if (!(st->t[k] = pcre2_compile((PCRE2_SPTR)t_sources[k],
					       PCRE2_ZERO_TERMINATED, 0, &rc,
					       &off, NULL)))
			return gm_error_set(GM_ERROR, "out of memory");
	if (!(st->md = pcre2_match_data_create(4, NULL)))
		return gm_error_set(GM_ERROR, "out of memory");
	return 0;
}

int gm_selftest_run(const struct gm_selftest_input *in, unsigned checks,
		    FILE *out, FILE *err, size_t *nr)
{
	struct st st;
	int error;

	memset(&st, 0, sizeof(st));
	st.in = in;
	st.checks = checks;
	st.out = out;
	st.err = err;
	*nr = 0;
	if ((error = compile_t_regexes(&st)) < 0 ||
	    (error = split_lines(&st)) < 0)
		goto out;
	if (!(st.headers = calloc(st.nr_lines + 1, sizeof(*st.headers)))) {
		error = gm_error_set(GM_ERROR, "out of memory");
		goto out;
	}
	if (((checks & GM_SELFTEST_ORDER) && (error = plan_order(&st)) < 0) ||
	    ((checks & (GM_SELFTEST_LINKS | GM_SELFTEST_SCM)) &&
	     ((error = plan_jobs(&st)) < 0 || (error = run_jobs(&st)) < 0)))
		goto out;
	for (size_t i = 0; i < st.nr_lines && !error; i++)
		error = check_line(&st, i);
	*nr = st.warnings;
out:
	for (size_t k = 0; k < st.nr_jobs; k++) {
		free((char *)st.jobs[k].link.url);
		gm_strvec_release(&st.jobs[k].patterns);
	}
	free(st.jobs);
	gm_strmap_release(&st.job_of);
	gm_strmap_release(&st.names);
	free(st.places);
	free(st.lines);
	free(st.headers);
	for (int k = 0; k < NR_T; k++)
		pcre2_code_free(st.t[k]);
	pcre2_match_data_free(st.md);
	return error;
}
