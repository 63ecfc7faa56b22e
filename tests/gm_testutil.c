#include "gm_testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "gm/blame.h"
#include "gm/buf.h"

/* ==================== fixture A (spec §16) ==================== */

const char gm_test_fixture_a[] =
	"List of maintainers\n"
	"===================\n"
	"\n"
	"\tM: *Mail* patches to: FullName <address@domain>\n"
	"\tF: *Files* and directories wildcard patterns.\n"
	"\n"
	"Maintainers List\n"
	"----------------\n"
	"\n"
	"ALPHA SUBSYSTEM WITH A VERY LONG NAME THAT EXCEEDS FIFTY CHARACTERS\n"
	"M:\tAlice Example <alice@example.com>\n"
	"R:\tRob Reviewer <rob@example.com>\n"
	"L:\talpha@lists.example.com\n"
	"S:\tSupported\n"
	"F:\tdrivers/net/foo/\n"
	"\n"
	"BETA DRIVER\n"
	"M:\tBob O'Neil <bob@example.com>\n"
	"M:\t\"Carol, Jr.\" <carol@example.com>\n"
	"L:\tbeta@lists.example.com (moderated for non-subscribers)\n"
	"L:\tbeta-sub@lists.example.com (subscribers-only)\n"
	"S:\tOdd Fixes\n"
	"F:\tdrivers/net/foo/a.c\n"
	"K:\t\\bbeta_magic\\b\n"
	"\n"
	"GAMMA\n"
	"M:\tAlice Example <alice2@example.com>\n"
	"M:\talice@example.com\n"
	"L:\tgamma@lists.example.com\n"
	"S:\tOrphan\n"
	"F:\tdrivers/net/\n"
	"X:\tdrivers/net/bar/\n"
	"N:\tgpio\n"
	"\n"
	"EXT4\n"
	"M:\tTed <ted@example.com>\n"
	"S:\tMaintained\n"
	"F:\tfs/ext4\n"
	"W:\thttps://ext4.example.com\n"
	"B:\thttps://bugs.example.com\n"
	"T:\tgit git://example.com/ext4.git\n"
	"\n"
	"NOSTATUS\n"
	"M:\tNobody <nobody@example.com>\n"
	"F:\tinclude/linux/foo.h\n"
	"\n"
	"THE REST\n"
	"M:\tLinus Torvalds <torvalds@linux-foundation.org>\n"
	"L:\tlinux-kernel@vger.kernel.org\n"
	"S:\tBuried alive in reporters\n"
	"T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/torvalds/"
	"linux.git\n"
	"F:\t*\n"
	"F:\t*/\n";

const char *const gm_test_fixture_a_dirs[] = {
	"drivers", "drivers/net", "drivers/net/foo", "drivers/net/bar",
	"drivers/gpio", "include", "include/linux", "fs", "fs/ext4",
	"fs/ext4/sub", NULL
};

const char gm_test_mailmap_e21[] =
	"Theodore Tso <ted@example.com>\n"
	"<newbob@example.com> <bob@example.com>\n"
	"Alice Real <alice@real.com> <alice@example.com>\n"
	"Rob Renamed <rob@new.com> Rob Reviewer <rob@example.com>\n";

bool gm_test_isdir(const char *path, void *payload)
{
	struct gm_test_dirs *d = payload;
	size_t i;

	d->calls++;
	snprintf(d->last, sizeof(d->last), "%s", path);
	for (i = 0; d->dirs && d->dirs[i]; i++)
		if (!strcmp(d->dirs[i], path))
			return true;
	return false;
}

struct gm_maintainers *gm_test_parse(const char *text)
{
	struct gm_maintainers *m = NULL;
	const char *bufs[1];
	size_t lens[1];

	bufs[0] = text;
	lens[0] = strlen(text);
	ck_assert_int_eq(gm_maintainers_parse(&m, bufs, lens, 1), 0);
	ck_assert_ptr_nonnull(m);
	return m;
}

struct gm_maintainers *gm_test_parse_fixture_a(struct gm_test_dirs *dirs)
{
	memset(dirs, 0, sizeof(*dirs));
	dirs->dirs = gm_test_fixture_a_dirs;
	return gm_test_parse(gm_test_fixture_a);
}

struct gm_match_ctx *gm_test_match_ctx(const struct gm_maintainers *m,
				       struct gm_test_dirs *dirs)
{
	struct gm_match_ctx *ctx = NULL;

	ck_assert_int_eq(gm_match_ctx_new(&ctx, m, dirs ? gm_test_isdir : NULL,
					  dirs), 0);
	ck_assert_ptr_nonnull(ctx);
	return ctx;
}

size_t gm_test_section(const struct gm_maintainers *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nr_sections; i++)
		if (!strcmp(m->sections[i].name, name))
			return i;
	ck_abort_msg("no section named '%s'", name);
	return 0;
}

char *gm_test_join(const struct gm_strvec *sv, const char *sep)
{
	struct gm_buf b = GM_BUF_INIT;
	size_t i;

	for (i = 0; i < sv->nr; i++) {
		if (i)
			gm_buf_puts(&b, sep);
		gm_buf_puts(&b, sv->v[i]);
	}
	return gm_buf_detach(&b, NULL);
}

/* ==================== directories ==================== */

pid_t gm_test_fork(void)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		ck_abort_msg("fork: %s", strerror(errno));
	return pid;
}

char *gm_test_tmpdir(void)
{
	char tmpl[] = "/tmp/gm-test-XXXXXX";

	if (!mkdtemp(tmpl))
		return NULL;
	return realpath(tmpl, NULL);
}

static int rmtree_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

void gm_test_rmtree(char *dir)
{
	if (dir)
		nftw(dir, rmtree_one, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

/* Create the directories leading to `dir`/`path`. */
static int make_parents(const char *dir, const char *path)
{
	struct gm_buf p = GM_BUF_INIT;
	const char *slash;
	int error = 0;

	for (slash = strchr(path, '/'); slash && !error;
	     slash = strchr(slash + 1, '/')) {
		gm_buf_reset(&p);
		gm_buf_printf(&p, "%s/%.*s", dir, (int)(slash - path), path);
		if (mkdir(p.ptr, 0777) < 0 && errno != EEXIST)
			error = -1;
	}
	gm_buf_release(&p);
	return error;
}

int gm_test_write_file(const char *dir, const char *path, const char *content)
{
	struct gm_buf p = GM_BUF_INIT;
	FILE *f;
	int error = -1;

	if (make_parents(dir, path) < 0 ||
	    gm_buf_printf(&p, "%s/%s", dir, path) < 0)
		goto out;
	f = fopen(p.ptr, "w");
	if (!f)
		goto out;
	if (fputs(content, f) >= 0)
		error = 0;
	if (fclose(f))
		error = -1;
out:
	gm_buf_release(&p);
	return error;
}

void gm_test_hermetic_env(void)
{
	static const char *const vars[] = {
		"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE",
		"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
		"GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES",
		"GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_COMMON_DIR",
		"GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
		"GIT_CONFIG_COUNT", "POSIXLY_CORRECT",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vars); i++)
		unsetenv(vars[i]);
}

void gm_test_skip(const char *why)
{
	const char *path = getenv("GM_TEST_SKIPS");
	FILE *f;

	printf("SKIP: %s\n", why);
	fflush(stdout);
	if (path && (f = fopen(path, "a"))) {
		fprintf(f, "%s\n", why);
		fclose(f);
	}
}

/* ==================== repositories ==================== */

static int repo_commit(git_repository *repo, const struct gm_test_commit *c,
		       git_oid *out)
{
	git_index *index = NULL;
	git_tree *tree = NULL;
	git_signature *sig = NULL;
	git_reference *head = NULL;
	git_commit *parent = NULL;
	const git_commit *parents[1];
	git_oid tree_id;
	size_t i, nparents = 0;
	int error;

	if ((error = git_repository_index(&index, repo)) < 0 ||
	    (error = git_index_clear(index)) < 0)
		goto out;
	for (i = 0; i < c->nr_files; i++) {
		const struct gm_test_file *f = &c->files[i];
		git_index_entry e;

		memset(&e, 0, sizeof(e));
		e.path = f->path;
		e.mode = f->mode ? f->mode : GIT_FILEMODE_BLOB;
		if ((error = git_index_add_from_buffer(index, &e, f->content,
						       strlen(f->content))) < 0)
			goto out;
	}
	if ((error = git_index_write_tree(&tree_id, index)) < 0 ||
	    (error = git_index_write(index)) < 0 ||
	    (error = git_tree_lookup(&tree, repo, &tree_id)) < 0 ||
	    (error = git_signature_new(&sig, "Test Author",
				       "author@example.com", c->time, 0)) < 0)
		goto out;
	if (git_repository_head(&head, repo) == 0) {
		if ((error = git_reference_peel((git_object **)&parent, head,
						GIT_OBJECT_COMMIT)) < 0)
			goto out;
		parents[0] = parent;
		nparents = 1;
	}
	error = git_commit_create(out, repo, "HEAD", sig, sig, NULL, c->message,
				  tree, nparents, parents);
out:
	git_commit_free(parent);
	git_reference_free(head);
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(index);
	return error;
}

int gm_test_repo_create(char **dir, char head[GIT_OID_HEXSZ + 1],
			const struct gm_test_commit *commits, size_t nr)
{
	git_checkout_options co;
	git_repository *repo = NULL;
	git_oid id;
	size_t i;
	int error;

	*dir = gm_test_tmpdir();
	if (!*dir)
		return -1;
	if ((error = git_repository_init(&repo, *dir, 0)) < 0)
		goto out;
	for (i = 0; i < nr && !error; i++)
		error = repo_commit(repo, &commits[i], &id);
	if (!error && nr)
		error = git_checkout_options_init(&co,
						  GIT_CHECKOUT_OPTIONS_VERSION);
	if (!error && nr) {
		co.checkout_strategy = GIT_CHECKOUT_FORCE;
		error = git_checkout_head(repo, &co);
	}
	if (!error && head && nr)
		git_oid_tostr(head, GIT_OID_HEXSZ + 1, &id);
	else if (!error && head)
		head[0] = '\0';
out:
	git_repository_free(repo);
	if (error < 0) {
		gm_test_rmtree(*dir);
		*dir = NULL;
	}
	return error;
}

/* ==================== running the program ==================== */

static char *read_all(const char *path)
{
	struct gm_buf b = GM_BUF_INIT;

	if (gm_buf_read_file(&b, path) < 0) {
		gm_buf_release(&b);
		return NULL;
	}
	return gm_buf_detach(&b, NULL);
}

static void run_child(const char *cwd, const char *in, const char *out,
		      const char *err, char *const *argv, char *const *envp)
{
	int fd;

	if (chdir(cwd) < 0)
		_exit(126);
	if ((fd = open(in, O_RDONLY)) < 0 || dup2(fd, 0) < 0)
		_exit(126);
	close(fd);
	if ((fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0 ||
	    dup2(fd, 1) < 0)
		_exit(126);
	close(fd);
	if ((fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0 ||
	    dup2(fd, 2) < 0)
		_exit(126);
	close(fd);
	execve(GM_BINARY, argv, envp);
	_exit(127);
}

int gm_test_run_binary(struct gm_test_run *r, const char *cwd,
		       const char *home, const char *ceiling,
		       const char *stdin_text, const char *const *args)
{
	struct gm_buf in = GM_BUF_INIT, out = GM_BUF_INIT, err = GM_BUF_INIT;
	struct gm_buf env_home = GM_BUF_INIT, env_ceiling = GM_BUF_INIT;
	char *scratch = gm_test_tmpdir();
	char *argv[64], *envp[8];
	size_t n = 0, k = 0;
	int status, error = -1;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	if (!scratch)
		return -1;
	argv[n++] = (char *)"git-maintainer";
	while (*args && n + 1 < ARRAY_SIZE(argv))
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	gm_buf_printf(&env_home, "HOME=%s", home);
	envp[k++] = env_home.ptr;
	envp[k++] = (char *)"PATH=/usr/bin:/bin";
	envp[k++] = (char *)"LC_ALL=C";
	envp[k++] = (char *)"GIT_CONFIG_NOSYSTEM=1";
	if (ceiling) {
		gm_buf_printf(&env_ceiling, "GIT_CEILING_DIRECTORIES=%s",
			      ceiling);
		envp[k++] = env_ceiling.ptr;
	}
	envp[k] = NULL;
	gm_buf_printf(&out, "%s/out", scratch);
	gm_buf_printf(&err, "%s/err", scratch);
	if (stdin_text) {
		if (gm_test_write_file(scratch, "in", stdin_text) < 0)
			goto out;
		gm_buf_printf(&in, "%s/in", scratch);
	} else {
		gm_buf_puts(&in, "/dev/null");
	}
	pid = gm_test_fork();
	if (pid == 0)
		run_child(cwd, in.ptr, out.ptr, err.ptr, argv, envp);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			goto out;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	r->out = read_all(out.ptr);
	r->err = read_all(err.ptr);
	if (r->out && r->err)
		error = 0;
out:
	gm_buf_release(&in);
	gm_buf_release(&out);
	gm_buf_release(&err);
	gm_buf_release(&env_home);
	gm_buf_release(&env_ceiling);
	gm_test_rmtree(scratch);
	return error;
}

void gm_test_run_release(struct gm_test_run *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

int gm_test_repo_open(struct gm_repo **out, const char *rev)
{
	struct gm_repo_location *loc = NULL;
	int error = gm_repo_locate(&loc);

	if (!error)
		error = gm_repo_open(out, loc, rev);
	gm_repo_location_free(loc);
	return error;
}

struct gm_prefetch *gm_test_prefetch_start(int argc, const char **argv,
					   const struct gm_prefetch_digest *digest)
{
	struct gm_repo_location *loc = NULL;
	struct gm_prefetch *p = NULL;

	if (gm_repo_locate(&loc) == 0)
		p = gm_prefetch_start(loc, argc, argv, digest);
	gm_repo_location_free(loc);
	return p;
}

/*
 * The lines gm_blame_run() gives of `path` alone (all of it with `start`
 * and `len` 0, else -L start,+len), appended to `out`.
 */
int gm_test_blame_lines(struct gm_strvec *out, git_repository *repo,
			const git_oid *newest, const char *workdir,
			const char *path, long start, long len)
{
	struct gm_patch_range r = { (char *)path, start, len };
	struct gm_blame_request req = { repo, newest, workdir, &r,
					start || len ? 1 : 0, false };
	struct gm_strvec files = GM_STRVEC_INIT;
	struct gm_blame *b = NULL;
	int error = gm_strvec_push(&files, path);

	if (!error)
		error = gm_blame_run(&b, &req, &files);
	for (size_t i = 0; !error && i < gm_blame_file_at(b, 0)->lines.nr; i++)
		error = gm_strvec_push(out, gm_blame_file_at(b, 0)->lines.v[i]);
	gm_blame_free(b);
	gm_strvec_release(&files);
	return error;
}

bool gm_test_dropped_as_penguin(const struct gm_rank_settings *base,
				const char *entry, int usename)
{
	struct gm_rank_settings s = { .penguins = base ? base->penguins : NULL,
				      .email = true, .usename = usename };
	struct gm_rank rk;
	bool dropped;

	gm_rank_init(&rk, &s, NULL);
	rk.people.v = calloc(1, sizeof(*rk.people.v));
	ck_assert_ptr_nonnull(rk.people.v);
	rk.people.alloc = rk.people.nr = 1;
	ck_assert_ptr_nonnull(rk.people.v[0].addr = strdup(entry));
	ck_assert_int_eq(gm_rank_finish(&rk, NULL), 0);
	dropped = rk.people.nr == 0;
	gm_rank_release(&rk);
	return dropped;
}
