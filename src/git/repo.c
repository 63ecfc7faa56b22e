/*
 * Finding and opening the repository as git does, and reading it.
 *
 * The search is done here, not by libgit2: it runs before libgit2 is
 * initialised (which takes milliseconds), so that the prefetch can start
 * on the work tree it names; and libgit2 1.5 refuses GIT_WORK_TREE. What
 * is found is then opened by libgit2 exactly, with no search of its own.
 */
#include "repo_internal.h"

#include <git2/sys/repository.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/graph.h"
#include "gm/index.h"
#include "gm/objects.h"
#include "gm/pack.h"

/*
 * Where the repository is, as git finds it. Every path is absolute and
 * canonical, so that an opening does not depend on the current directory
 * any more. Written once by gm_repo_locate(), then only read, but for
 * `refs`: the repositories sharing it (gm_repo_location_free() frees it
 * with the last).
 */
struct gm_repo_location {
	atomic_int refs;	/* owners but one */
	char *open_path;	/* what libgit2 opens (a top or a git dir), or NULL */
	bool explicit_dir;	/* open_path is GIT_DIR */
	bool bare_guess;	/* found as a git dir with no work tree */
	char *worktree;		/* GIT_WORK_TREE, else the top found, or NULL */
	bool worktree_env;	/* worktree is GIT_WORK_TREE */
	char *cwd;		/* the current directory */
	char *object_dir;	/* GIT_OBJECT_DIRECTORY, or NULL */
	struct gm_strvec alternates;	/* GIT_ALTERNATE_OBJECT_DIRECTORIES */
	char *index_file;	/* GIT_INDEX_FILE, or NULL */
};

struct gm_repo {
	struct gm_repo_location *loc;	/* shared, counted */
	git_repository *repo;
	git_commit *commit;	/* HEAD's commit, or --rev's */
	git_tree *tree;		/* its tree */
	char *workdir;		/* work tree top with a final '/', NULL if bare */
	char *prefix;		/* cwd below the work tree top: "" or "a/b/" */
	struct gm_strmap dirs;	/* "a/b" -> its git_tree *, or NULL: none */
	struct gm_packs *packs;	/* opened on first use */
	struct gm_graph *graph;	/* read on first use, if graph_read */
	bool graph_read;
};

/* ==================== the location ==================== */

/* `path` absolute against `cwd` (NULL: it is), canonical if it exists. */
static char *location_absolute(const char *cwd, const char *path)
{
	struct gm_buf b = GM_BUF_INIT;
	char *real = realpath(path, NULL);

	if (real)
		return real;
	if (path[0] == '/' ? gm_buf_puts(&b, path) :
	    gm_buf_printf(&b, "%s/%s", cwd, path))
		return NULL;
	return gm_buf_detach(&b, NULL);
}

/* dir/name exists (as anything but a dangling link). */
static bool has(const char *dir, const char *name, bool want_dir)
{
	struct gm_buf b = GM_BUF_INIT;
	struct stat st;
	bool yes;

	yes = !gm_buf_printf(&b, "%s/%s", dir, name) && !stat(b.ptr, &st) &&
	      (want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
	gm_buf_release(&b);
	return yes;
}

/*
 * Whether `dir` is a git directory: HEAD, and objects/ and refs/ (or a
 * commondir file, as in a linked worktree's), as git asks.
 */
static bool is_git_dir(const char *dir, bool object_dir_env)
{
	return has(dir, "HEAD", false) &&
	       ((has(dir, "refs", true) &&
		 (object_dir_env || has(dir, "objects", true))) ||
		has(dir, "commondir", false));
}

/* Whether dir/.git is a git directory or a "gitdir: " file. */
static bool has_dot_git(const char *dir, bool object_dir_env)
{
	struct gm_buf b = GM_BUF_INIT, text = GM_BUF_INIT;
	struct stat st;
	bool yes = false;

	if (!gm_buf_printf(&b, "%s/.git", dir) && !stat(b.ptr, &st))
		yes = S_ISDIR(st.st_mode) ? is_git_dir(b.ptr, object_dir_env) :
		      S_ISREG(st.st_mode) && !gm_buf_read_file(&text, b.ptr) &&
		      !strncmp(text.ptr, "gitdir:", 7);
	gm_buf_release(&b);
	gm_buf_release(&text);
	return yes;
}

/*
 * Split a ':'-separated list of paths, each made absolute against `cwd`
 * (or, with no `cwd`, kept only if absolute: GIT_CEILING_DIRECTORIES).
 */
static int location_split(struct gm_strvec *out, const char *list,
			  const char *cwd)
{
	while (list && *list) {
		size_t len = strcspn(list, ":");
		char *one = strndup(list, len), *abs = NULL;
		int error = 0;

		if (!one)
			return gm_error_set(GM_ERROR, "out of memory");
		if (*one && (cwd || one[0] == '/')) {
			abs = location_absolute(cwd, one);
			error = abs ? gm_strvec_push(out, abs) :
				      gm_error_set(GM_ERROR, "out of memory");
		}
		free(one);
		free(abs);
		if (error)
			return error;
		list += len + (list[len] == ':');
	}
	return 0;
}

/* The parent of the canonical `dir`, in place; false at the root. */
static bool go_up(char *dir)
{
	char *slash = strrchr(dir, '/');

	if (!slash || !dir[1])
		return false;
	if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	return true;
}

/*
 * From the current directory up, the first directory holding a ".git",
 * or being a git directory itself: not into a ceiling directory, nor
 * across a file system unless GIT_DISCOVERY_ACROSS_FILESYSTEM says so.
 */
static int location_search(struct gm_repo_location *loc)
{
	const char *across = getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM");
	struct gm_strvec ceilings = GM_STRVEC_INIT;
	bool cross = across && (!strcmp(across, "1") ||
				!strcasecmp(across, "true") ||
				!strcasecmp(across, "yes"));
	bool objdir = loc->object_dir != NULL;
	char *dir = strdup(loc->cwd);
	struct stat st;
	dev_t dev = 0;
	int error = 0;

	if (!dir)
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = location_split(&ceilings,
				    getenv("GIT_CEILING_DIRECTORIES"), NULL)) < 0)
		goto out;
	if (!stat(dir, &st))
		dev = st.st_dev;
	for (;;) {
		if (has_dot_git(dir, objdir) || is_git_dir(dir, objdir)) {
			loc->bare_guess = !has_dot_git(dir, objdir);
			loc->open_path = dir;
			dir = NULL;
			break;
		}
		if (!go_up(dir) || gm_strvec_contains(&ceilings, dir) ||
		    (!cross && (stat(dir, &st) || st.st_dev != dev)))
			break;
	}
out:
	free(dir);
	gm_strvec_release(&ceilings);
	return error;
}

static int location_from_env(struct gm_repo_location *loc)
{
	const char *gitdir = getenv("GIT_DIR");
	const char *worktree = getenv("GIT_WORK_TREE");
	const char *objdir = getenv("GIT_OBJECT_DIRECTORY");
	const char *index = getenv("GIT_INDEX_FILE");

	if ((gitdir && *gitdir &&
	     !(loc->open_path = location_absolute(loc->cwd, gitdir))) ||
	    (worktree && *worktree &&
	     !(loc->worktree = location_absolute(loc->cwd, worktree))) ||
	    (objdir && *objdir &&
	     !(loc->object_dir = location_absolute(loc->cwd, objdir))) ||
	    (index && *index &&
	     !(loc->index_file = location_absolute(loc->cwd, index))) ||
	    location_split(&loc->alternates,
			   getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES"),
			   loc->cwd) < 0)
		return gm_error_set(GM_ERROR, "out of memory");
	loc->worktree_env = loc->worktree != NULL;
	loc->explicit_dir = loc->open_path != NULL;
	return 0;
}

int gm_repo_locate(struct gm_repo_location **out)
{
	struct gm_repo_location *loc = calloc(1, sizeof(*loc));
	int error = 0;

	*out = NULL;
	if (!loc)
		return gm_error_set(GM_ERROR, "out of memory");
	/* a current directory that is gone is in no repository */
	if (!(loc->cwd = realpath(".", NULL)) && errno != ENOENT)
		error = gm_error_set(GM_ERROR, "cannot read the current directory: %s",
				     strerror(errno));
	if (!error && loc->cwd)
		error = location_from_env(loc);
	if (!error && loc->cwd && !loc->open_path)
		error = location_search(loc);
	if (!error && loc->open_path && !loc->explicit_dir && !loc->bare_guess &&
	    !loc->worktree && !(loc->worktree = strdup(loc->open_path)))
		error = gm_error_set(GM_ERROR, "out of memory");
	if (error) {
		gm_repo_location_free(loc);
		return error;
	}
	*out = loc;
	return 0;
}

void gm_repo_location_free(struct gm_repo_location *loc)
{
	if (!loc || atomic_fetch_sub(&loc->refs, 1) > 0)
		return;
	free(loc->open_path);
	free(loc->worktree);
	free(loc->cwd);
	free(loc->object_dir);
	free(loc->index_file);
	gm_strvec_release(&loc->alternates);
	free(loc);
}

const char *gm_repo_location_worktree(const struct gm_repo_location *loc)
{
	return loc && loc->open_path ? loc->worktree : NULL;
}

/* ==================== opening ==================== */

static char *path_with_slash(const char *p)
{
	struct gm_buf b = GM_BUF_INIT;
	size_t len = strlen(p);

	if (gm_buf_printf(&b, "%s%s", p, len && p[len - 1] == '/' ? "" : "/"))
		return NULL;
	return gm_buf_detach(&b, NULL);
}

/*
 * The work tree as git picks it: GIT_WORK_TREE; else none for a bare
 * repository (core.bare, or a git directory found as such); else
 * core.worktree (libgit2 reads it); else, with GIT_DIR, the current
 * directory; else the top found.
 */
static const char *repo_pick_worktree(struct gm_repo *r)
{
	const struct gm_repo_location *loc = r->loc;
	bool bare = false;
	char *set = NULL;

	if (loc->worktree_env)
		return loc->worktree;
	if (gm_repo_config_bool(r, "core.bare", &bare) == 0 && bare)
		return NULL;
	if (gm_repo_config_string(r, "core.worktree", &set) == 0) {
		free(set);
		return git_repository_workdir(r->repo);
	}
	if (loc->bare_guess)
		return NULL;
	return loc->explicit_dir ? loc->cwd : git_repository_workdir(r->repo);
}

/* GIT_OBJECT_DIRECTORY and GIT_ALTERNATE_OBJECT_DIRECTORIES, as git reads them. */
static int repo_set_objects(struct gm_repo *r)
{
	const struct gm_repo_location *loc = r->loc;
	git_odb *odb = NULL;
	int error;

	if (!loc->object_dir && !loc->alternates.nr)
		return 0;
	error = loc->object_dir ? git_odb_open(&odb, loc->object_dir) :
				  git_repository_odb(&odb, r->repo);
	for (size_t i = 0; !error && i < loc->alternates.nr; i++)
		error = git_odb_add_disk_alternate(odb, loc->alternates.v[i]);
	if (!error && loc->object_dir)
		git_repository_set_odb(r->repo, odb);
	git_odb_free(odb);
	return error < 0 ? gm_error_from_git(error, "cannot open the object directory") :
			   0;
}

/* The repository's object directories: its own, then its alternates. */
static int repo_object_dirs(struct gm_repo *r, struct gm_strvec *dirs)
{
	const struct gm_repo_location *loc = r->loc;
	int error = loc->object_dir ?
		gm_strvec_push(dirs, loc->object_dir) :
		gm_strvec_pushf(dirs, "%sobjects",
				git_repository_commondir(r->repo));

	for (size_t i = 0; !error && i < loc->alternates.nr; i++)
		error = gm_strvec_push(dirs, loc->alternates.v[i]);
	return error;
}

/*
 * The work tree's top with a final '/' (ours alone: nothing read through
 * libgit2 depends on its own idea), and the current directory below it,
 * "" or "a/b/".
 */
static int repo_set_worktree(struct gm_repo *r)
{
	const char *cwd = r->loc->cwd, *wt = repo_pick_worktree(r);
	char *top;
	size_t len;

	if (wt && !(r->workdir = path_with_slash(wt)))
		return gm_error_set(GM_ERROR, "out of memory");
	top = r->workdir ? realpath(r->workdir, NULL) : NULL;
	len = top ? strlen(top) : 0;
	if (top && !strncmp(cwd, top, len) && cwd[len] == '/')
		r->prefix = path_with_slash(cwd + len + 1);
	else
		r->prefix = strdup("");
	free(top);
	return r->prefix ? 0 : gm_error_set(GM_ERROR, "out of memory");
}

static int repo_resolve(struct gm_repo *r, const char *rev)
{
	git_reference *head = NULL;
	git_object *obj = NULL;
	int error;

	if (rev) {
		error = git_revparse_single(&obj, r->repo, rev);
		if (error < 0)
			return gm_error_set(GM_ENOTFOUND, "invalid revision '%s'",
					    rev);
	} else {
		error = git_repository_head(&head, r->repo);
		if (error == GIT_EUNBORNBRANCH || error == GIT_ENOTFOUND)
			return gm_error_set(GM_ENOTFOUND,
					    "HEAD does not point to a commit yet");
		if (error < 0)
			return gm_error_from_git(error, "cannot read HEAD");
		error = git_reference_peel(&obj, head, GIT_OBJECT_COMMIT);
		git_reference_free(head);
		if (error < 0)
			return gm_error_from_git(error, "cannot read HEAD");
	}
	error = git_object_peel((git_object **)&r->commit, obj,
				GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (error < 0)
		return gm_error_set(GM_ENOTFOUND, "'%s' is not a commit",
				    rev ? rev : "HEAD");
	return 0;
}

/*
 * Whether the repository keeps SHA-256 object names (its own
 * configuration's extensions.objectformat, read by git from format
 * version 1 on), which libgit2 1.5 cannot read: it opens it only as
 * gm_repo_init() lets it, for this question.
 */
static bool repo_is_sha256(git_repository *repo)
{
	git_config *cfg = NULL, *local = NULL;
	const char *format;
	int32_t version = 0;
	bool yes;

	yes = git_repository_config_snapshot(&cfg, repo) == 0 &&
	      git_config_open_level(&local, cfg, GIT_CONFIG_LEVEL_LOCAL) == 0 &&
	      git_config_get_int32(&version, local,
				   "core.repositoryformatversion") == 0 &&
	      version >= 1 &&
	      git_config_get_string(&format, local,
				    "extensions.objectformat") == 0 &&
	      !strcasecmp(format, "sha256");
	git_config_free(local);
	git_config_free(cfg);
	return yes;
}

/* Open what `r->loc` names, with no search, and set it up as git would. */
static int repo_open_location(struct gm_repo *r)
{
	const struct gm_repo_location *loc = r->loc;
	unsigned flags = GIT_REPOSITORY_OPEN_NO_SEARCH;
	int error;

	if (!loc->open_path)
		return gm_error_set(GM_ENOTFOUND,
				    "not a git repository (or any of the parent directories)");
	if (loc->explicit_dir)
		flags |= GIT_REPOSITORY_OPEN_NO_DOTGIT;
	if (loc->bare_guess)
		flags |= GIT_REPOSITORY_OPEN_BARE;
	error = git_repository_open_ext(&r->repo, loc->open_path, flags, NULL);
	if (error == GIT_ENOTFOUND)
		return gm_error_set(GM_ENOTFOUND, "not a git repository: '%s'",
				    loc->open_path);
	if (error < 0)
		return gm_error_from_git(error, "cannot open the repository");
	if (repo_is_sha256(r->repo))
		return gm_error_set(GM_ERROR, "%.*s: SHA-256 repositories "
				    "(extensions.objectformat=sha256) are not "
				    "supported",
				    (int)strlen(git_repository_path(r->repo)) - 1,
				    git_repository_path(r->repo));
	if ((error = gm_repo_config_env_add(r->repo)) < 0 ||
	    (error = repo_set_objects(r)) < 0 ||
	    (error = gm_repo_promisor_attach(r->repo, loc->object_dir)) < 0)
		return error;
	return repo_set_worktree(r);
}

int gm_repo_open(struct gm_repo **out, const struct gm_repo_location *loc,
		 const char *rev)
{
	struct gm_repo *r = NULL;
	int error;

	*out = NULL;
	if (!loc)
		return gm_error_set(GM_ERROR, "no repository location");
	if (!(r = calloc(1, sizeof(*r))))
		return gm_error_set(GM_ERROR, "out of memory");
	r->loc = (struct gm_repo_location *)loc;	/* its count alone changes */
	atomic_fetch_add(&r->loc->refs, 1);
	if ((error = repo_open_location(r)) < 0 ||
	    (error = repo_resolve(r, rev)) < 0)
		goto fail;
	if ((error = git_commit_tree(&r->tree, r->commit)) < 0) {
		error = gm_error_from_git(error, "cannot read the commit's tree");
		goto fail;
	}
	*out = r;
	return 0;
fail:
	gm_repo_free(r);
	return error;
}

int gm_repo_reopen(struct gm_repo **out, const struct gm_repo *r)
{
	char hex[GM_REPO_HEX_SIZE];

	gm_repo_commit_hex(r, hex);
	return gm_repo_open(out, r->loc, hex);
}

void gm_repo_free(struct gm_repo *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->dirs.alloc; i++)
		git_tree_free(r->dirs.slots[i].value);
	gm_strmap_release(&r->dirs);
	gm_packs_free(r->packs);
	gm_graph_free(r->graph);
	git_tree_free(r->tree);
	git_commit_free(r->commit);
	git_repository_free(r->repo);
	free(r->workdir);
	free(r->prefix);
	gm_repo_location_free(r->loc);
	free(r);
}

/* ==================== what it holds ==================== */

int gm_repo_packs(const struct gm_packs **out, struct gm_repo *r)
{
	struct gm_strvec dirs = GM_STRVEC_INIT;
	int error = 0;

	if (!r->packs) {
		error = repo_object_dirs(r, &dirs);
		if (!error)
			error = gm_packs_open(&r->packs,
					      (const char *const *)dirs.v,
					      dirs.nr);
		gm_strvec_release(&dirs);
	}
	*out = r->packs;
	return error;
}

/*
 * Whether git reads a commit-graph here (core.commitGraph, and neither
 * shallow nor grafted), and the version of the Bloom filters it reads:
 * commitGraph.changedPathsVersion, else commitGraph.readChangedPaths
 * (false: 0, none), else -1, any.
 */
static bool repo_graph_version(struct gm_repo *r, int *version)
{
	const char *common = git_repository_commondir(r->repo);
	struct gm_buf path = GM_BUF_INIT;
	bool on = true, grafted;
	char *v = NULL, *end;
	long n;

	grafted = gm_buf_printf(&path, "%sshallow", common) < 0 ||
		  !access(path.ptr, F_OK);
	gm_buf_reset(&path);
	grafted = grafted || gm_buf_printf(&path, "%sinfo/grafts", common) < 0 ||
		  !access(path.ptr, F_OK);
	gm_buf_release(&path);
	if (grafted || (gm_repo_config_bool(r, "core.commitGraph", &on) == 0 &&
			!on))
		return false;
	*version = -1;
	if (gm_repo_config_string(r, "commitGraph.changedPathsVersion",
				  &v) == 0) {
		n = strtol(v, &end, 10);
		*version = *end || n < -1 || n > 2 ? 0 : (int)n;
		free(v);
	} else if (gm_repo_config_bool(r, "commitGraph.readChangedPaths",
				       &on) == 0 && !on) {
		*version = 0;
	}
	return true;
}

int gm_repo_graph(const struct gm_graph **out, struct gm_repo *r)
{
	struct gm_strvec dirs = GM_STRVEC_INIT;
	int error = 0, version;

	if (!r->graph_read) {
		r->graph_read = true;
		if (repo_graph_version(r, &version) &&
		    !(error = repo_object_dirs(r, &dirs)))
			error = gm_graph_open(&r->graph,
					      (const char *const *)dirs.v,
					      dirs.nr, version);
		gm_strvec_release(&dirs);
	}
	*out = r->graph;
	return error;
}

const char *gm_repo_workdir(const struct gm_repo *r)
{
	return r->workdir;
}

const git_oid *gm_repo_commit_id(const struct gm_repo *r)
{
	return git_commit_id(r->commit);
}

void gm_repo_commit_hex(const struct gm_repo *r, char out[GM_REPO_HEX_SIZE])
{
	git_oid_tostr(out, GM_REPO_HEX_SIZE, git_commit_id(r->commit));
}

git_repository *gm_repo_git(struct gm_repo *r)
{
	return r->repo;
}

git_tree *gm_repo_tree(struct gm_repo *r)
{
	return r->tree;
}

int gm_repo_config_bool(struct gm_repo *r, const char *key, bool *out)
{
	git_config *cfg = NULL;
	int value = 0, error;

	if (git_repository_config_snapshot(&cfg, r->repo) < 0)
		return GM_ENOTFOUND;
	error = git_config_get_bool(&value, cfg, key);
	git_config_free(cfg);
	if (error == GIT_ENOTFOUND)
		return GM_ENOTFOUND;
	if (error < 0)
		return gm_error_set(GM_EINVALID, "bad boolean config value for '%s'",
				    key);
	*out = value;
	return 0;
}

int gm_repo_config_string(struct gm_repo *r, const char *key, char **out)
{
	git_config *cfg = NULL;
	const char *value;
	int error;

	*out = NULL;
	if (git_repository_config_snapshot(&cfg, r->repo) < 0)
		return GM_ENOTFOUND;
	error = git_config_get_string(&value, cfg, key);
	if (!error && !(*out = strdup(value)))
		error = gm_error_set(GM_ERROR, "out of memory");
	else if (error < 0)
		error = GM_ENOTFOUND;
	git_config_free(cfg);
	return error;
}

int gm_repo_commit_body(struct gm_repo *r, const char *rev,
			struct gm_buf *out)
{
	git_object *obj = NULL;
	int error = GM_ENOTFOUND;

	if (git_revparse_single(&obj, r->repo, rev) == 0 &&
	    git_object_type(obj) == GIT_OBJECT_COMMIT)
		error = gm_buf_puts(out, git_commit_body((git_commit *)obj) ?
				    git_commit_body((git_commit *)obj) : "");
	git_object_free(obj);
	return error;
}

void gm_repo_init(void)
{
	static const char *extensions[] = { "partialclone", "objectformat" };

	git_libgit2_init();
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/*
	 * What is read again is kept where it is used (the trees of looked-up
	 * directories in gm_repo, the history walk's memo). libgit2's cache
	 * would hold every commit and tree read until its repository is
	 * freed, which took 5-10 ms at the end of a U-Boot walk.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
	git_libgit2_opts(GIT_OPT_SET_EXTENSIONS, extensions, (size_t)2);
}

void gm_repo_shutdown(void)
{
	git_libgit2_shutdown();
}

/* ==================== lookups ==================== */

/*
 * The tree of the directory dir[0..len) ("" for the top), or NULL if
 * there is none: looked up once, then kept in r->dirs.
 */
static int repo_dir_tree(struct gm_repo *r, const char *dir, size_t len,
			 git_tree **out)
{
	struct gm_buf name = GM_BUF_INIT;
	const git_tree_entry *e;
	git_tree *parent = NULL, *tree = NULL;
	size_t plen = len;
	void *v;
	int error;

	*out = r->tree;
	if (!len)
		return 0;
	if (gm_strmap_get(&r->dirs, dir, len, &v)) {
		*out = v;
		return 0;
	}
	while (plen && dir[plen - 1] != '/')
		plen--;
	error = repo_dir_tree(r, dir, plen ? plen - 1 : 0, &parent);
	if (!error && parent &&
	    !(error = gm_buf_put(&name, dir + plen, len - plen)) &&
	    (e = git_tree_entry_byname(parent, name.ptr)) &&
	    git_tree_entry_type(e) == GIT_OBJECT_TREE &&
	    git_tree_lookup(&tree, r->repo, git_tree_entry_id(e)) < 0)
		tree = NULL;	/* unreadable: as if absent */
	if (!error && (error = gm_strmap_put(&r->dirs, dir, len, tree)) < 0)
		git_tree_free(tree);
	gm_buf_release(&name);
	*out = error ? NULL : tree;
	return error;
}

int gm_repo_lookup(struct gm_repo *r, const char *path,
		   struct gm_repo_entry *out)
{
	const char *base = strrchr(path, '/');
	size_t dlen = base ? (size_t)(base - path) : 0;
	const git_tree_entry *e;
	git_tree *dir;

	base = base ? base + 1 : path;
	if (!*path || repo_dir_tree(r, path, dlen, &dir) < 0 || !dir ||
	    !(e = git_tree_entry_byname(dir, base)))
		return GM_ENOTFOUND;
	git_oid_cpy(&out->id, git_tree_entry_id(e));
	out->type = git_tree_entry_type(e);
	out->mode = git_tree_entry_filemode(e);
	return 0;
}

enum gm_repo_kind gm_repo_kind(struct gm_repo *r, const char *path)
{
	struct gm_repo_entry e;

	if (gm_repo_lookup(r, path, &e) < 0)
		return GM_REPO_NONE;
	if (e.type == GIT_OBJECT_TREE)
		return GM_REPO_TREE;
	return e.type == GIT_OBJECT_BLOB || e.type == GIT_OBJECT_COMMIT ?
	       GM_REPO_BLOB : GM_REPO_NONE;
}

/* The blob of the file at `path` (entry `e`, or NULL), as gm_repo_text(). */
static int repo_blob(struct gm_repo *r, const char *path,
		     const struct gm_repo_entry *e, git_blob **out)
{
	struct gm_repo_entry found;
	char hex[GIT_OID_HEXSZ + 1];

	if (!e && gm_repo_lookup(r, path, &found) < 0)
		return gm_error_set(GM_ENOTFOUND, "'%s' is not in the tree", path);
	if (!e)
		e = &found;
	if (e->type != GIT_OBJECT_BLOB || e->mode == GIT_FILEMODE_LINK)
		return gm_error_set(GM_EINVALID, "'%s' is not a regular file",
				    path);
	if (git_blob_lookup(out, r->repo, &e->id) == 0)
		return 0;
	git_oid_tostr(hex, sizeof(hex), &e->id);
	return gm_error_set(GM_ERROR,
			    "cannot read '%s' (blob %s): not in the object database (a partial clone?)",
			    path, hex);
}

/* ==================== the work tree ==================== */

int gm_repo_worktree_read_at(const char *top, const char *path,
			     struct gm_buf *out)
{
	struct gm_buf full = GM_BUF_INIT;
	int error = gm_buf_printf(&full, "%s/%s", top, path);

	if (!error)
		error = gm_buf_read_regular(out, full.ptr, GM_BUF_MAX_READ - 1);
	gm_buf_release(&full);
	return error;
}

int gm_repo_worktree_read(struct gm_repo *r, const char *path,
			  struct gm_buf *out)
{
	if (!r->workdir)
		return GM_ENOTFOUND;
	return gm_repo_worktree_read_at(r->workdir, path, out);
}

enum gm_repo_kind gm_repo_worktree_kind(struct gm_repo *r, const char *path)
{
	struct gm_buf full = GM_BUF_INIT;
	enum gm_repo_kind kind = GM_REPO_NONE;
	struct stat st;

	if (r->workdir && !gm_buf_printf(&full, "%s%s", r->workdir, path) &&
	    !stat(full.ptr, &st))
		kind = S_ISDIR(st.st_mode) ? GM_REPO_TREE : GM_REPO_BLOB;
	gm_buf_release(&full);
	return kind;
}

int gm_repo_text(struct gm_repo *r, const char *path,
		 const struct gm_repo_entry *e, struct gm_repo_text *out)
{
	int error = repo_blob(r, path, e, &out->blob);

	if (error < 0)
		return error;
	out->ptr = git_blob_rawcontent(out->blob);
	out->len = (size_t)git_blob_rawsize(out->blob);
	if (!out->ptr)
		out->ptr = "";
	return 0;
}

void gm_repo_text_release(struct gm_repo_text *t)
{
	git_blob_free(t->blob);
	gm_buf_release(&t->buf);
	*t = (struct gm_repo_text)GM_REPO_TEXT_INIT;
}

int gm_repo_read(struct gm_repo *r, const char *path, struct gm_buf *out)
{
	struct gm_repo_text text = GM_REPO_TEXT_INIT;
	int error = gm_repo_text(r, path, NULL, &text);

	if (!error)
		error = gm_buf_put(out, text.ptr, text.len);
	gm_repo_text_release(&text);
	return error;
}

int gm_repo_list(struct gm_repo *r, const char *dir, struct gm_strvec *out)
{
	git_tree *tree = NULL;
	git_oid *blobs = NULL;	/* a partial clone's, fetched at once */
	size_t nr = 0;
	int error = repo_dir_tree(r, dir, strlen(dir), &tree);

	if (!error && !tree)
		return gm_error_set(GM_ENOTFOUND, "'%s' is not a directory",
				    dir);
	if (!error &&
	    !(blobs = calloc(git_tree_entrycount(tree) + 1, sizeof(*blobs))))
		error = gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; !error && i < git_tree_entrycount(tree); i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(e);

		if (name[0] == '.')
			continue;
		if (git_tree_entry_type(e) == GIT_OBJECT_BLOB)
			git_oid_cpy(&blobs[nr++], git_tree_entry_id(e));
		error = gm_strvec_pushf(out, "%s%s%s%s", dir, *dir ? "/" : "",
					name, git_tree_entry_type(e) ==
					GIT_OBJECT_TREE ? "/" : "");
	}
	if (!error)
		gm_strvec_sort_uniq(out);
	if (!error)
		error = gm_repo_git_fetch_missing(r->repo, blobs, nr, "a file");
	free(blobs);
	return error;
}

/* ==================== every file ==================== */

/*
 * Every entry of `tree` (at `path`, "" or "a/b/") and below that is not a
 * tree, to `leaf` with its path, depth first in tree order; subtrees
 * named `skip` (or none, NULL) are not entered.
 */
static int tree_walk(struct gm_repo *r, const git_tree *tree,
		     struct gm_buf *path, const char *skip,
		     int (*leaf)(void *arg, const struct gm_buf *path,
				 const git_tree_entry *e),
		     void *arg)
{
	size_t len = path->len;
	int error = 0;

	for (size_t i = 0; !error && i < git_tree_entrycount(tree); i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(e);
		bool dir = git_tree_entry_type(e) == GIT_OBJECT_TREE;
		git_tree *sub = NULL;

		if (dir && skip && !strcmp(name, skip))
			continue;
		if ((error = gm_buf_puts(path, name)) < 0)
			break;
		if (!dir)
			error = leaf(arg, path, e);
		else if (git_tree_lookup(&sub, r->repo, git_tree_entry_id(e)) < 0)
			error = gm_error_set(GM_ERROR, "cannot read '%s'",
					     path->ptr);
		else if (!(error = gm_buf_putc(path, '/')))
			error = tree_walk(r, sub, path, skip, leaf, arg);
		git_tree_free(sub);
		path->len = len;
		path->ptr[len] = '\0';
	}
	return error;
}

static int files_leaf(void *out, const struct gm_buf *path,
		      const git_tree_entry *e)
{
	(void)e;
	return gm_strvec_pushn(out, path->ptr, path->len);
}

int gm_repo_files(struct gm_repo *r, struct gm_strvec *out)
{
	struct gm_buf path = GM_BUF_INIT;
	int error = tree_walk(r, r->tree, &path, NULL, files_leaf, out);

	if (!error)
		gm_strvec_sort_uniq(out);	/* tree order, unless the tree is bad */
	gm_buf_release(&path);
	return error;
}

/* ==================== finding files by name ==================== */

#define FIND_CACHE ((size_t)4 << 20)	/* delta bases of the files found */

struct find {
	struct gm_repo *r;
	const char *name;
	struct gm_repo_file *files;
	size_t nr, alloc;
	struct gm_objects objs;		/* the packs first, if any */
};

/* Keep the file `entry` found at `path`, with its content. */
static int find_keep(struct gm_repo *r, struct find *f, const char *path,
		     const struct gm_repo_entry *entry)
{
	struct gm_repo_file *file;
	git_blob *blob = NULL;
	char *data = NULL;
	size_t len = 0;
	int error = 0;

	if (GM_ARRAY_GROW(f->files, f->nr, f->alloc) < 0)
		return gm_error_set(GM_ERROR, "out of memory");
	file = &f->files[f->nr];
	memset(file, 0, sizeof(*file));
	if (!(file->path = strdup(path)))
		return gm_error_set(GM_ERROR, "out of memory");
	f->nr++;
	if (entry->type == GIT_OBJECT_BLOB && entry->mode != GIT_FILEMODE_LINK &&
	    gm_objects_read(&f->objs, &entry->id, GIT_OBJECT_BLOB, &data,
			    &len)) {
		error = gm_buf_put(&file->text, data, len);
		free(data);
		return error;
	}
	if ((error = repo_blob(r, path, entry, &blob)) == 0)
		error = gm_buf_put(&file->text, git_blob_rawcontent(blob),
				   (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return error;
}

/* A file named f->name, kept; anything else, passed over. */
static int find_leaf(void *arg, const struct gm_buf *path,
		     const git_tree_entry *e)
{
	struct find *f = arg;
	struct gm_repo_entry entry;

	if (strcmp(git_tree_entry_name(e), f->name))
		return 0;
	git_oid_cpy(&entry.id, git_tree_entry_id(e));
	entry.type = git_tree_entry_type(e);
	entry.mode = git_tree_entry_filemode(e);
	return find_keep(f->r, f, path->ptr, &entry);
}

static int find_cmp(const void *a, const void *b)
{
	return strcmp(((const struct gm_repo_file *)a)->path,
		      ((const struct gm_repo_file *)b)->path);
}

/* Whether `path` has a component ".git", which gm_repo_find() does not enter. */
static bool path_in_dot_git(const char *path)
{
	for (const char *p = path; (p = strstr(p, ".git/")); p++)
		if (p == path || p[-1] == '/')
			return true;
	return false;
}

/* In a partial clone, fetch the blobs of `found` at once. */
static int find_fetch_blobs(struct gm_repo *r,
			    const struct gm_index_file *found, size_t nr)
{
	size_t n = 0;
	git_oid *ids;
	int error;

	if (!(ids = calloc(nr + 1, sizeof(*ids))))
		return gm_error_set(GM_ERROR, "out of memory");
	for (size_t i = 0; i < nr; i++)
		if (found[i].mode != GIT_FILEMODE_COMMIT)	/* no submodule */
			git_oid_cpy(&ids[n++], &found[i].id);
	error = gm_repo_git_fetch_missing(r->repo, ids, n, "a file");
	free(ids);
	return error;
}

/*
 * The files of the index named f->name below `prefix` ("" or "a/b/"),
 * if the index stands for the whole tree (gm_index_find()): no tree is
 * read. GM_ENOTFOUND, nothing kept, if it does not, or there is none.
 */
static int find_in_index(struct gm_repo *r, struct find *f,
			 const char *prefix)
{
	struct gm_index_file *found = NULL;
	struct gm_buf index = GM_BUF_INIT;
	size_t nr = 0, plen = strlen(prefix), len;
	const unsigned char *map;
	bool mapped;
	int error;

	/* a bare repository's index is not read */
	mapped = r->workdir && !(r->loc->index_file ?
				 gm_buf_puts(&index, r->loc->index_file) :
				 gm_buf_printf(&index, "%sindex",
					       git_repository_path(r->repo))) &&
		 gm_map_file(index.ptr, &map, &len);
	gm_buf_release(&index);
	if (!mapped)
		return GM_ENOTFOUND;
	error = gm_index_find(map, len, git_tree_id(r->tree), f->name, &found,
			      &nr);
	if (!error)
		error = find_fetch_blobs(r, found, nr);
	for (size_t i = 0; i < nr && !error; i++) {
		struct gm_repo_entry e = { found[i].id, GIT_OBJECT_BLOB,
					   (git_filemode_t)found[i].mode };

		if (e.mode == GIT_FILEMODE_COMMIT)
			e.type = GIT_OBJECT_COMMIT;
		if (!strncmp(found[i].path, prefix, plen) &&
		    !path_in_dot_git(found[i].path))
			error = find_keep(r, f, found[i].path, &e);
	}
	gm_index_files_free(found, nr);
	munmap((void *)map, len);
	return error;
}

int gm_repo_find(struct gm_repo *r, const char *dir, const char *name,
		 struct gm_repo_file **out, size_t *nr)
{
	struct find f = { r, name, NULL, 0, 0, { NULL, NULL, NULL, r->repo } };
	struct gm_buf path = GM_BUF_INIT;
	const struct gm_packs *packs;
	git_tree *top = NULL;
	int error;

	*out = NULL;
	*nr = 0;
	if ((error = repo_dir_tree(r, dir, strlen(dir), &top)) < 0)
		return error;
	if (!top)
		return gm_error_set(GM_ENOTFOUND, "'%s' is not a directory",
				    dir);
	if ((error = gm_repo_packs(&packs, r)) < 0 ||
	    (error = gm_pack_reader_new(&f.objs.pack, packs, FIND_CACHE)) < 0)
		return error;
	error = gm_buf_printf(&path, "%s%s", dir, *dir ? "/" : "");
	if (!error && (error = find_in_index(r, &f, path.ptr)) == GM_ENOTFOUND)
		error = tree_walk(r, top, &path, ".git", find_leaf, &f);
	gm_buf_release(&path);
	gm_pack_reader_free(f.objs.pack);
	if (error) {
		gm_repo_files_free(f.files, f.nr);
		return error;
	}
	if (f.nr)
		qsort(f.files, f.nr, sizeof(*f.files), find_cmp);
	*out = f.files;
	*nr = f.nr;
	return 0;
}

void gm_repo_files_free(struct gm_repo_file *files, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(files[i].path);
		gm_buf_release(&files[i].text);
	}
	free(files);
}

/* Append one path component, resolving "." and "..". */
static int relative_push(struct gm_buf *out, const char *c, size_t len)
{
	if (!len || (len == 1 && c[0] == '.'))
		return 0;
	if (len == 2 && c[0] == '.' && c[1] == '.') {
		char *slash;

		if (!out->len)
			return GM_EINVALID;
		slash = strrchr(out->ptr, '/');
		out->len = slash ? (size_t)(slash - out->ptr) : 0;
		out->ptr[out->len] = '\0';
		return 0;
	}
	if (out->len && gm_buf_putc(out, '/') < 0)
		return GM_ERROR;
	return gm_buf_put(out, c, len);
}

static int relative_push_all(struct gm_buf *out, const char *path)
{
	while (*path) {
		size_t len = strcspn(path, "/");
		int error = relative_push(out, path, len);

		if (error < 0)
			return error;
		path += len;
		path += *path == '/';
	}
	return 0;
}

/* `abs` below the work tree top (as given, or with symlinks resolved). */
static const char *relative_strip_top(struct gm_repo *r, const char *abs,
				      char **resolved)
{
	size_t len;

	if (!r->workdir)
		return NULL;
	len = strlen(r->workdir);
	if (!strncmp(abs, r->workdir, len))
		return abs + len;
	if (!strncmp(abs, r->workdir, len - 1) && !abs[len - 1])
		return "";
	*resolved = realpath(r->workdir, NULL);
	if (!*resolved)
		return NULL;
	len = strlen(*resolved);
	if (!strncmp(abs, *resolved, len) && (abs[len] == '/' || !abs[len]))
		return abs + len + (abs[len] == '/');
	return NULL;
}

int gm_repo_relative(struct gm_repo *r, const char *arg, struct gm_buf *out)
{
	char *resolved = NULL;
	const char *rest = arg;
	int error;

	gm_buf_reset(out);
	if (arg[0] == '/') {
		rest = relative_strip_top(r, arg, &resolved);
		error = rest ? relative_push_all(out, rest) : GM_EINVALID;
	} else {
		error = relative_push_all(out, r->prefix);
		if (!error)
			error = relative_push_all(out, arg);
	}
	free(resolved);
	if (error == GM_EINVALID)
		return gm_error_set(GM_EINVALID, "'%s' is outside the repository",
				    arg);
	return error;
}

/* ==================== for the stages above ==================== */

bool gm_repo_git_is_head(git_repository *repo, const git_oid *id)
{
	git_oid head;

	return git_reference_name_to_id(&head, repo, "HEAD") == 0 &&
	       git_oid_equal(&head, id);
}

const char *gm_repo_git_dir(git_repository *repo)
{
	return git_repository_path(repo);
}

bool gm_repo_git_is_blob(git_repository *repo, const git_oid *id,
			 const char *path)
{
	git_commit *c = NULL;
	git_tree *t = NULL;
	git_tree_entry *e = NULL;
	bool blob = git_commit_lookup(&c, repo, id) == 0 &&
		    git_commit_tree(&t, c) == 0 &&
		    git_tree_entry_bypath(&e, t, path) == 0 &&
		    git_tree_entry_type(e) == GIT_OBJECT_BLOB;

	git_tree_entry_free(e);
	git_tree_free(t);
	git_commit_free(c);
	return blob;
}

/* ==================== numstat ==================== */

struct gm_repo_numstat {
	struct gm_repo *own;	/* `r` opened again, or NULL */
	git_repository *again;	/* `repo` opened again, or NULL */
	git_repository *repo;	/* the one counted on */
};

/* `repo` opened again as it is, with a partial clone's fetch: NULL if not. */
static git_repository *numstat_open_git(git_repository *repo)
{
	const char *wd = git_repository_workdir(repo), *wd2;
	git_repository *again = NULL;

	if (!wd || git_repository_open(&again, git_repository_path(repo)) < 0)
		return NULL;
	if (gm_repo_promisor_attach(again, NULL) < 0 ||
	    !(wd2 = git_repository_workdir(again)) || strcmp(wd, wd2)) {
		git_repository_free(again);
		return NULL;
	}
	return again;
}

int gm_repo_numstat_new(struct gm_repo_numstat **out,
			const struct gm_repo *r, git_repository *repo)
{
	struct gm_repo_numstat *n = calloc(1, sizeof(*n));
	git_index *index = NULL;

	if (!(*out = n))
		return gm_error_set(GM_ERROR, "out of memory");
	n->repo = repo;
	if (r && r->workdir && gm_repo_reopen(&n->own, r) == 0)
		n->repo = n->own->repo;
	else if (!r && (n->again = numstat_open_git(repo)))
		n->repo = n->again;
	if (n->repo != repo && (git_index_new(&index) < 0 ||
				git_repository_set_index(n->repo, index) < 0))
		n->repo = repo;
	git_index_free(index);
	gm_error_clear();	/* not opened again: `repo` counts */
	return 0;
}

void gm_repo_numstat_free(struct gm_repo_numstat *n)
{
	if (!n)
		return;
	gm_repo_free(n->own);
	git_repository_free(n->again);
	free(n);
}

/* Whether git shows `path` as binary by its -diff attribute. */
static bool numstat_attr_binary(git_repository *repo, const char *path)
{
	const char *v = NULL;

	if (git_attr_get(&v, repo, GIT_ATTR_CHECK_FILE_THEN_INDEX, path,
			 "diff") < 0)
		return false;
	return GIT_ATTR_IS_FALSE(v);
}

/* Blob `id` (NULL: none) into `*out`; false if unreadable or binary. */
static bool numstat_text(git_blob **out, git_repository *repo,
			 const git_oid *id)
{
	*out = NULL;
	return !id || (git_blob_lookup(out, repo, id) == 0 &&
		       !gm_objects_binary(git_blob_rawcontent(*out),
					  (size_t)git_blob_rawsize(*out)));
}

void gm_repo_numstat(struct gm_repo_numstat *n, const git_oid *a,
		     const git_oid *b, const char *path, long *added,
		     long *deleted)
{
	git_diff_options o;
	git_blob *ba = NULL, *bb = NULL;
	git_patch *patch = NULL;
	size_t adds = 0, dels = 0;

	*added = *deleted = -1;
	/* from n->repo: the diff of blobs asks it for their attributes */
	if (!numstat_text(&ba, n->repo, a) || !numstat_text(&bb, n->repo, b) ||
	    numstat_attr_binary(n->repo, path))
		goto out;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.flags = GIT_DIFF_FORCE_TEXT;
	o.context_lines = 0;
	if (git_patch_from_blobs(&patch, ba, NULL, bb, NULL, &o) == 0 &&
	    git_patch_line_stats(NULL, &adds, &dels, patch) == 0) {
		*added = (long)adds;
		*deleted = (long)dels;
	}
out:
	git_patch_free(patch);
	git_blob_free(ba);
	git_blob_free(bb);
}
