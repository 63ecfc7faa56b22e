/*
 * Finding and opening the repository as git does.
 *
 * The search is done here, not by libgit2: it runs before libgit2 is
 * initialised (which takes milliseconds), so that the prefetch can start
 * on the work tree it names; and libgit2 1.5 refuses GIT_WORK_TREE. What
 * is found is then opened by libgit2 exactly, with no search of its own.
 */
#include "repo_internal.h"

#include <git2/sys/repository.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gm/buf.h"
#include "gm/error.h"
#include "gm/graph.h"
#include "gm/pack.h"

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
