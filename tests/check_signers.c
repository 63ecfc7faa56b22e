/*
 * The script's per-file history (spec §9, R-72..R-76): the walk against
 * git log --follow on small repositories built here, and the roles of
 * with their quirks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gm/blame.h"
#include "gm/commits.h"
#include "gm/follow.h"
#include "gm/graph.h"
#include "gm/options.h"
#include "gm/pack.h"
#include "gm/query.h"
#include "gm/rank_git.h"
#include "gm/repo.h"
#include "gm/signers.h"
#include "gm/thread.h"
#include "gm_testutil.h"
#include "gm_tests.h"

/* ==================== building a history ==================== */

/* One file of a commit; `content` NULL deletes it. */
struct tfile {
	const char *path;
	const char *content;
};

struct tcommit {
	const char *author;	/* "Name <addr>" */
	const char *message;
	git_time_t time;
	struct tfile files[4];	/* changes to the previous tree */
};

struct trepo {
	char *dir;
	git_repository *repo;
	git_oid head;
};

static void trepo_build(struct trepo *r, const struct tcommit *c, size_t nr)
{
	git_index *index = NULL;
	git_oid parent;
	bool have_parent = false;

	r->dir = gm_test_tmpdir();
	ck_assert_ptr_nonnull(r->dir);
	ck_assert_int_eq(git_repository_init(&r->repo, r->dir, 0), 0);
	ck_assert_int_eq(git_repository_index(&index, r->repo), 0);
	for (size_t i = 0; i < nr; i++) {
		git_signature *who = NULL, *committer = NULL;
		char name[128], mail[128];
		git_tree *tree = NULL;
		git_commit *p = NULL;
		git_oid tid;

		ck_assert_int_eq(sscanf(c[i].author, "%127[^<]<%127[^>]>", name,
					mail), 2);
		name[strlen(name) - 1] = '\0';
		for (size_t k = 0; k < 4 && c[i].files[k].path; k++) {
			const struct tfile *f = &c[i].files[k];
			git_index_entry e;

			if (!f->content) {
				ck_assert_int_eq(git_index_remove_bypath(index,
									 f->path), 0);
				continue;
			}
			memset(&e, 0, sizeof(e));
			e.path = f->path;
			e.mode = GIT_FILEMODE_BLOB;
			ck_assert_int_eq(git_index_add_from_buffer(index, &e,
				f->content, strlen(f->content)), 0);
		}
		ck_assert_int_eq(git_index_write_tree(&tid, index), 0);
		ck_assert_int_eq(git_tree_lookup(&tree, r->repo, &tid), 0);
		ck_assert_int_eq(git_signature_new(&who, name, mail, c[i].time,
						   0), 0);
		ck_assert_int_eq(git_signature_new(&committer, "Committer",
						   "committer@example.com",
						   c[i].time, 0), 0);
		if (have_parent)
			ck_assert_int_eq(git_commit_lookup(&p, r->repo, &parent),
					 0);
		ck_assert_int_eq(git_commit_create_v(&parent, r->repo, "HEAD",
						     who, committer, NULL,
						     c[i].message, tree,
						     have_parent ? 1 : 0, p), 0);
		have_parent = true;
		git_commit_free(p);
		git_tree_free(tree);
		git_signature_free(who);
		git_signature_free(committer);
	}
	git_oid_cpy(&r->head, &parent);
	git_index_free(index);
}

static void trepo_free(struct trepo *r)
{
	git_repository_free(r->repo);
	gm_test_rmtree(r->dir);
}

/* What `git log --follow --no-merges --since=@S --format=%H -- PATH` says. */
static char *git_log_follow(const struct trepo *r, long since,
			    const char *path)
{
	char cmd[1024];
	char *out = calloc(1, 65536);
	size_t n;
	FILE *p;

	ck_assert_ptr_nonnull(out);
	snprintf(cmd, sizeof(cmd),
		 "git -C '%s' log --follow --no-merges --since=@%ld "
		 "--format=%%H -- '%s' 2>/dev/null", r->dir, since, path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	n = fread(out, 1, 65535, p);
	out[n] = '\0';
	pclose(p);
	return out;
}

/* Our commits of file `f`, one hex id per line, as git log prints them. */
static char *our_log(const struct gm_signers *s, size_t f)
{
	char *out = calloc(1, 65536);
	size_t len = 0;

	ck_assert_ptr_nonnull(out);
	for (size_t i = 0; i < s->files[f].nr_touches; i++) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex),
			      &s->commits[s->files[f].touches[i].commit].id);
		len += (size_t)snprintf(out + len, 65536 - len, "%s\n", hex);
	}
	return out;
}

/* Whether two walks found the same commits, touches and renames. */
/* What a test asks of a walk: gm_signers_request's fields for it. */
struct walk_options {
	int64_t since;
	bool all_signature_types;
	const struct gm_packs *packs;
	const struct gm_graph *graph;
	const struct gm_repo *reopen;
	bool serial;
};

/* The --git walk of `files` from `start`, through gm_signers_collect(). */
static int walk_files(struct gm_signers **out, git_repository *repo,
		      const git_oid *start, const struct gm_strvec *files,
		      const struct walk_options *so)
{
	struct gm_signers_request req = {
		.repo = repo, .start = start, .files = files,
		.packs = so->packs, .graph = so->graph, .reopen = so->reopen,
		.git = true, .all_signature_types = so->all_signature_types,
		.serial = so->serial, .since_at = &so->since,
	};
	struct gm_signers_report *r = NULL;
	int error = gm_signers_collect(&r, &req);

	*out = NULL;
	if (r) {
		*out = r->walk;
		r->walk = NULL;
	}
	gm_signers_report_free(r);
	return error;
}

static void assert_same_walk(const struct gm_signers *a,
			     const struct gm_signers *b)
{
	ck_assert_uint_eq(a->nr_commits, b->nr_commits);
	ck_assert_uint_eq(a->walked, b->walked);
	for (size_t i = 0; i < a->nr_commits; i++)
		ck_assert(git_oid_equal(&a->commits[i].id, &b->commits[i].id));
	for (size_t f = 0; f < a->nr_files; f++) {
		const struct gm_signers_file *x = &a->files[f], *y = &b->files[f];

		ck_assert_uint_eq(x->nr_touches, y->nr_touches);
		for (size_t k = 0; k < x->nr_touches; k++) {
			ck_assert_uint_eq(x->touches[k].commit,
					  y->touches[k].commit);
			ck_assert_int_eq(x->touches[k].added,
					 y->touches[k].added);
			ck_assert_int_eq(x->touches[k].deleted,
					 y->touches[k].deleted);
			ck_assert_int_eq(!x->touches[k].path,
					 !y->touches[k].path);
		}
		ck_assert_uint_eq(x->renamed_from.nr, y->renamed_from.nr);
		for (size_t k = 0; k < x->renamed_from.nr; k++)
			ck_assert_str_eq(x->renamed_from.v[k],
					 y->renamed_from.v[k]);
	}
}

/* The jobs the last walk_ahead() saw give their outcome. */
static size_t ahead_jobs;

/*
 * The walk `so` of `files` again with its threads (the commits found
 * ahead through a repository opened again), which must agree with `s`;
 * the threads forced on, and each seen to run.
 */
static void walk_ahead(const struct trepo *r, const struct gm_strvec *files,
		       struct walk_options *so, const struct gm_signers *s)
{
	struct gm_signers *ahead = NULL;
	struct gm_repo *repo = NULL;
	char cwd[4096];
	size_t jobs = gm_thread_jobs_done();

	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	ck_assert_int_eq(chdir(r->dir), 0);
	ck_assert_int_eq(gm_test_repo_open(&repo, NULL), 0);
	ck_assert_int_eq(chdir(cwd), 0);
	so->reopen = repo;
	gm_thread_cpus_force(2);	/* the threads on, even on one CPU */
	ck_assert_int_eq(walk_files(&ahead, r->repo, &r->head, files, so),
			 0);
	gm_thread_cpus_force(0);
	/* the walk ahead's thread at least gave its outcome */
	ahead_jobs = gm_thread_jobs_done() - jobs;
	ck_assert_uint_ge(ahead_jobs, 1);
	so->reopen = NULL;
	assert_same_walk(s, ahead);
	ck_assert_int_eq(ahead->shallow, s->shallow);
	gm_signers_free(ahead);
	gm_repo_free(repo);
}

/*
 * The walk of `paths`, through libgit2 alone; and the same again with
 * all but the newest commit packed (read through pack.c, the loose one
 * through libgit2), with the repository packed, and then with a
 * commit-graph (graph.c) giving parents and trees, and on threads
 * (walk_ahead()) with and without it, which must all agree.
 */
static struct gm_signers *walk(const struct trepo *r, long since,
			       const char *const *paths)
{
	struct walk_options so = { since, false, NULL, NULL, NULL, false };
	struct gm_strvec files = GM_STRVEC_INIT;
	struct gm_signers *s = NULL, *packed = NULL;
	struct gm_packs *ps = NULL;
	struct gm_graph *graph = NULL;
	char cmd[1024], objects[1024];
	const char *dirs[] = { objects };

	for (size_t i = 0; paths[i]; i++)
		ck_assert_int_eq(gm_strvec_push(&files, paths[i]), 0);
	ck_assert_int_eq(walk_files(&s, r->repo, &r->head, &files, &so),
			 0);
	ck_assert_uint_eq(s->nr_files, files.nr);
	snprintf(objects, sizeof(objects), "%s/.git/objects", r->dir);
	/* the newest commit alone loose: read through libgit2 */
	snprintf(cmd, sizeof(cmd), "cd '%s' && git rev-parse -q --verify "
		 "HEAD^ >/dev/null && git rev-list --objects HEAD^ | "
		 "git pack-objects -q .git/objects/pack/pack >/dev/null 2>&1",
		 r->dir);
	if (system(cmd) == 0) {
		ck_assert_int_eq(gm_packs_open(&ps, dirs, 1), 0);
		ck_assert_uint_ge(gm_packs_count(ps), 1);
		so.packs = ps;
		ck_assert_int_eq(walk_files(&packed, r->repo, &r->head,
						 &files, &so), 0);
		assert_same_walk(s, packed);
		gm_signers_free(packed);
		gm_packs_free(ps);
	}
	snprintf(cmd, sizeof(cmd), "git -C '%s' repack -adq --depth=20 "
		 ">/dev/null 2>&1", r->dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(gm_packs_open(&ps, dirs, 1), 0);
	ck_assert_uint_eq(gm_packs_count(ps), 1);
	so.packs = ps;
	ck_assert_int_eq(walk_files(&packed, r->repo, &r->head, &files,
					 &so), 0);
	assert_same_walk(s, packed);
	gm_signers_free(packed);
	snprintf(cmd, sizeof(cmd), "git -C '%s' commit-graph write --reachable "
		 "--changed-paths >/dev/null 2>&1", r->dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(gm_graph_open(&graph, dirs, 1, -1), 0);
	ck_assert_ptr_nonnull(graph);
	so.graph = graph;
	ck_assert_int_eq(walk_files(&packed, r->repo, &r->head, &files,
					 &so), 0);
	assert_same_walk(s, packed);
	gm_signers_free(packed);
	walk_ahead(r, &files, &so, s);
	gm_graph_free(graph);
	snprintf(cmd, sizeof(cmd), "rm -f '%s/.git/objects/info/commit-graph'",
		 r->dir);
	ck_assert_int_eq(system(cmd), 0);
	so.graph = NULL;
	walk_ahead(r, &files, &so, s);
	gm_packs_free(ps);
	gm_strvec_release(&files);
	return s;
}

static void assert_same_as_git(const struct trepo *r, long since,
			       const struct gm_signers *s, size_t f)
{
	char *want = git_log_follow(r, since, s->files[f].path);
	char *got = our_log(s, f);

	ck_assert_str_eq(got, want);
	free(want);
	free(got);
}

/* Files [0, n) of `s` as git log --follow has them, f copied from from[f]. */
static void assert_copied_from(const struct trepo *r, long since,
			       const struct gm_signers *s,
			       const char *const *from, size_t n)
{
	for (size_t f = 0; f < n; f++) {
		assert_same_as_git(r, since, s, f);
		ck_assert_uint_eq(s->files[f].renamed_from.nr, 1);
		ck_assert_str_eq(s->files[f].renamed_from.v[0], from[f]);
	}
}

/* The person entries of a rank as "addr (role)" lines. */
static char *people(const struct gm_rank *rk)
{
	struct gm_buf roles = GM_BUF_INIT;
	char *out = calloc(1, 8192);
	size_t len = 0;

	ck_assert_ptr_nonnull(out);
	for (size_t i = 0; i < rk->people.nr; i++) {
		ck_assert_int_eq(gm_rank_roles(&roles, &rk->people.v[i]), 0);
		len += (size_t)snprintf(out + len, 8192 - len, "%s (%s)\n",
					rk->people.v[i].addr, roles.ptr);
	}
	gm_buf_release(&roles);
	return out;
}

/* The roles the script gives file `f` of `s`, with default thresholds. */
static char *assign(const struct gm_signers *s, size_t f,
		    struct gm_options *o, struct gm_strvec *warnings)
{
	struct gm_signers_report *r = calloc(1, sizeof(*r));
	struct gm_rank_settings set;
	struct gm_rank rk;
	char *out;

	/* a report of file `f`'s signoffs alone, as gm_signers_collect() */
	ck_assert_ptr_nonnull(r);
	r->walk = (struct gm_signers *)s;
	r->steps = calloc(1, sizeof(*r->steps));
	r->facts = calloc(f + 1, sizeof(*r->facts));
	ck_assert(r->steps && r->facts);
	r->steps[0].walked = f;
	r->nr_steps = 1;
	o->rolestats = o->roles = 1;
	gm_query_rank_settings(&set, o);
	gm_rank_init(&rk, &set, NULL);
	ck_assert_int_eq(gm_rank_add_git(&rk, r), 0);
	r->walk = NULL;		/* the caller's */
	gm_signers_report_free(r);
	out = people(&rk);
	for (size_t i = 0; warnings && i < rk.warnings.nr; i++)
		gm_strvec_push(warnings, rk.warnings.v[i]);
	gm_rank_release(&rk);
	return out;
}

#define T0 1700000000
#define DAY 86400

/* ==================== the line readers ==================== */

/* ==================== the walk and the roles ==================== */

/*
 * The similarity fingerprint's chunks (R-72's copy search), as git's
 * diffcore-delta.c defines them one byte at a time: two 32-bit
 * accumulators shifted by 7 and crossed, the byte added to the first; a
 * chunk ends at a LF or at its 64th byte counted; in text a CR right
 * before a LF is not seen. gm_follow_chunk() finds the LF with memchr()
 * and hashes a chunk in one pass: the same chunks, hashes and lengths on
 * random buffers full of CRs and LFs, most of them near the 64th byte.
 */
struct ref_chunk {
	uint32_t hash, bytes;
};

static size_t ref_chunks(const unsigned char *buf, size_t len, bool text,
			 struct ref_chunk *out)
{
	uint32_t a1 = 0, a2 = 0, k = 0;
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		uint32_t c = buf[i], old = a1;

		if (text && c == '\r' && i + 1 < len && buf[i + 1] == '\n')
			continue;
		a1 = (a1 << 7) ^ (a2 >> 25);
		a2 = (a2 << 7) ^ (old >> 25);
		a1 += c;
		if (++k < 64 && c != '\n')
			continue;
		out[n++] = (struct ref_chunk){ (a1 + a2 * 0x61) % 107927, k };
		a1 = a2 = k = 0;
	}
	if (k)
		out[n++] = (struct ref_chunk){ (a1 + a2 * 0x61) % 107927, k };
	return n;
}

START_TEST(test_follow_chunk_as_defined)
{
	static unsigned char buf[400];
	static struct ref_chunk want[400];
	unsigned seed = 12345;

	for (int round = 0; round < 20000; round++) {
		size_t len = 1 + (seed = seed * 1103515245u + 12345u) % 300;
		bool text = round & 1;
		size_t nr, got = 0;

		for (size_t i = 0; i < len; i++) {
			unsigned r = (seed = seed * 1103515245u + 12345u) >> 16;

			buf[i] = r % 7 == 0 ? '\r' : r % 11 == 0 ? '\n' :
				 (unsigned char)(r >> 3);
		}
		if (len > 70 && round % 3 == 0) {	/* CR LF across byte 64 */
			size_t at = (seed >> 8) % 2 ? 63 : 62;

			memset(buf, 'x', at);
			buf[at] = '\r';
			buf[at + 1] = '\n';
		}
		nr = ref_chunks(buf, len, text, want);
		for (size_t i = 0; i < len; got++) {
			uint32_t h, k;

			ck_assert_uint_lt(got, nr);
			i += gm_follow_chunk((const char *)buf + i, len - i, text,
					     &h, &k);
			ck_assert_uint_eq(h, want[got].hash);
			ck_assert_uint_eq(k, want[got].bytes);
		}
		ck_assert_uint_eq(got, nr);
	}
}
END_TEST

/*
 * A shallow clone, packed: its boundary commit is a root, as git log
 * shows it (adding the file). The same through libgit2 alone and through
 * the packs, and as git log --follow, both saying shallow.
 */
START_TEST(test_signers_shallow_packed)
{
	static const struct tcommit c[] = {
		{ "Ann <ann@x.org>", "add\n\nSigned-off-by: Ann <ann@x.org>\n",
		  T0, { { "f.c", "1\n" } } },
		{ "Bob <bob@x.org>", "two\n\nSigned-off-by: Bob <bob@x.org>\n",
		  T0 + DAY, { { "f.c", "1\n2\n" } } },
		{ "Cy <cy@x.org>", "three\n\nSigned-off-by: Cy <cy@x.org>\n",
		  T0 + 2 * DAY, { { "f.c", "1\n2\n3\n" } } },
		{ "Dee <dee@x.org>", "four\n\nSigned-off-by: Dee <dee@x.org>\n",
		  T0 + 3 * DAY, { { "f.c", "1\n2\n3\n4\n" } } },
	};
	struct walk_options so = { T0 - DAY, false, NULL, NULL, NULL, false };
	struct gm_strvec files = GM_STRVEC_INIT;
	struct gm_signers *alone = NULL, *packed = NULL;
	struct gm_packs *ps = NULL;
	git_repository *clone = NULL;
	git_oid head;
	struct trepo r;
	char cmd[2048], dir[1024], objects[1100];
	const char *dirs[] = { objects };

	trepo_build(&r, c, ARRAY_SIZE(c));
	snprintf(dir, sizeof(dir), "%s/shallow", r.dir);
	snprintf(cmd, sizeof(cmd), "git clone -q --depth 2 'file://%s' '%s' "
		 ">/dev/null 2>&1", r.dir, dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(git_repository_open(&clone, dir), 0);
	ck_assert_int_eq(git_reference_name_to_id(&head, clone, "HEAD"), 0);
	ck_assert_int_eq(gm_strvec_push(&files, "f.c"), 0);
	ck_assert_int_eq(walk_files(&alone, clone, &head, &files, &so),
			 0);
	snprintf(objects, sizeof(objects), "%s/.git/objects", dir);
	ck_assert_int_eq(gm_packs_open(&ps, dirs, 1), 0);
	ck_assert_uint_ge(gm_packs_count(ps), 1);
	so.packs = ps;
	ck_assert_int_eq(walk_files(&packed, clone, &head, &files, &so),
			 0);
	assert_same_walk(alone, packed);
	ck_assert(alone->shallow);
	ck_assert(packed->shallow);
	ck_assert_uint_eq(alone->walked, 2);
	ck_assert_uint_eq(packed->walked, 2);
	ck_assert_uint_eq(packed->files[0].nr_touches, 2);
	{
		struct trepo cl = { dir, clone, head };

		assert_same_as_git(&cl, T0 - DAY, packed, 0);
	}
	gm_signers_free(alone);
	gm_signers_free(packed);
	gm_packs_free(ps);
	gm_strvec_release(&files);
	git_repository_free(clone);
	trepo_free(&r);
}
END_TEST

/* a rename inside the window is followed, as git log --follow. */
START_TEST(test_signers_rename_followed)
{
	static const struct tcommit c[] = {
		{ "Ann <ann@x.org>", "add\n\nSigned-off-by: Ann <ann@x.org>\n",
		  T0, { { "a/old.c", "1\n2\n3\n4\n5\n6\n7\n8\n" } } },
		{ "Bob <bob@x.org>", "change\n\nSigned-off-by: Bob <bob@x.org>\n",
		  T0 + DAY, { { "a/old.c", "1\n2\n3\n4\n5\n6\n7\n8\n9\n" },
			      { "other.c", "x\n" } } },
		{ "Cy <cy@x.org>", "move\n\nSigned-off-by: Cy <cy@x.org>\n",
		  T0 + 2 * DAY, { { "a/old.c", NULL },
				  { "b/new.c", "1\n2\n3\n4\n5\n6\n7\n8\n9\n" } } },
		{ "Dee <dee@x.org>", "edit\n\nSigned-off-by: Dee <dee@x.org>\n",
		  T0 + 3 * DAY, { { "b/new.c", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n" } } },
	};
	static const char *const paths[] = { "b/new.c", "other.c", NULL };
	struct gm_options o;
	struct trepo r;
	struct gm_signers *s;
	char *got;

	trepo_build(&r, c, ARRAY_SIZE(c));
	s = walk(&r, T0 - DAY, paths);
	ck_assert_uint_eq(s->files[0].nr_touches, 4);
	ck_assert_uint_eq(s->files[0].renamed_from.nr, 1);
	ck_assert_str_eq(s->files[0].renamed_from.v[0], "a/old.c");
	ck_assert_ptr_null(s->files[0].touches[1].path);	/* "a => b" */
	assert_same_as_git(&r, T0 - DAY, s, 0);
	assert_same_as_git(&r, T0 - DAY, s, 1);
	/* a rename's numstat line never matches: no line roles */
	gm_options_init(&o);
	got = assign(s, 0, &o, NULL);
	ck_assert_str_eq(got,
		"Ann <ann@x.org> (commit_signer:1/4=25%,authored:1/4=25%)\n"
		"Bob <bob@x.org> (commit_signer:1/4=25%,authored:1/4=25%)\n"
		"Cy <cy@x.org> (commit_signer:1/4=25%,authored:1/4=25%)\n"
		"Dee <dee@x.org> (commit_signer:1/4=25%,authored:1/4=25%)\n");
	free(got);
	gm_options_release(&o);
	gm_signers_free(s);
	trepo_free(&r);
}
END_TEST

/* a file added in the window; numstat counts, percentages. */
/*
 * A file renamed into a path that sorts before a directory walked with
 * it, from under that directory: once followed, its old path sorts after
 * the directory's, and every comparison at the paths (on threads or
 * not) must see them in that order.
 */
START_TEST(test_signers_rename_under_dir)
{
	static const struct tcommit c[] = {
		{ "Ann <ann@x.org>", "add\n\nSigned-off-by: Ann <ann@x.org>\n",
		  T0, { { "z/old.c", "1\n2\n3\n4\n5\n6\n7\n8\n" },
			{ "z/keep.c", "k\n" } } },
		{ "Bob <bob@x.org>", "keep\n\nSigned-off-by: Bob <bob@x.org>\n",
		  T0 + DAY, { { "z/keep.c", "k\nk\n" } } },
		{ "Cy <cy@x.org>", "move\n\nSigned-off-by: Cy <cy@x.org>\n",
		  T0 + 2 * DAY, { { "z/old.c", NULL },
				  { "a/new.c", "1\n2\n3\n4\n5\n6\n7\n8\n" } } },
		{ "Dee <dee@x.org>", "edit\n\nSigned-off-by: Dee <dee@x.org>\n",
		  T0 + 3 * DAY, { { "a/new.c", "1\n2\n3\n4\n5\n6\n7\n8\n9\n" } } },
		{ "Eve <eve@x.org>", "keep\n\nSigned-off-by: Eve <eve@x.org>\n",
		  T0 + 4 * DAY, { { "z/keep.c", "k\nk\nk\n" },
				  { "a/new.c", "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n" } } },
	};
	static const char *const paths[] = { "a/new.c", "z/", NULL };
	struct trepo r;
	struct gm_signers *s;

	trepo_build(&r, c, ARRAY_SIZE(c));
	s = walk(&r, T0 - DAY, paths);
	ck_assert_uint_eq(s->files[0].nr_touches, 4);
	ck_assert_uint_eq(s->files[0].renamed_from.nr, 1);
	ck_assert_str_eq(s->files[0].renamed_from.v[0], "z/old.c");
	assert_same_as_git(&r, T0 - DAY, s, 0);
	ck_assert_uint_eq(s->files[1].nr_touches, 4);	/* 0, 1, 2 and 4 */
	gm_signers_free(s);
	trepo_free(&r);
}
END_TEST

START_TEST(test_signers_added_in_window)
{
	static const struct tcommit c[] = {
		{ "Old <old@x.org>", "old\n\nSigned-off-by: Old <old@x.org>\n",
		  T0, { { "keep.c", "k\n" } } },
		{ "Ann <ann@x.org>", "add\n\nSigned-off-by: Ann <ann@x.org>\n",
		  T0 + 10 * DAY, { { "d/f.c", "1\n2\n3\n" } } },
		{ "Bob <bob@x.org>",
		  "grow\n\nReviewed-by: Ann <ann@x.org>\n"
		  "Signed-off-by: Bob <bob@x.org>\n",
		  T0 + 11 * DAY, { { "d/f.c", "1\n2\nthree\n4\n" } } },
	};
	static const char *const paths[] = { "d/f.c", "keep.c", NULL };
	struct gm_options o;
	struct trepo r;
	struct gm_signers *s;
	char *got;

	trepo_build(&r, c, ARRAY_SIZE(c));
	s = walk(&r, T0 + DAY, paths);
	assert_same_as_git(&r, T0 + DAY, s, 0);
	assert_same_as_git(&r, T0 + DAY, s, 1);
	ck_assert_uint_eq(s->files[1].nr_touches, 0);	/* before the window */
	ck_assert_int_eq(s->files[0].touches[0].added, 2);	/* Bob's */
	ck_assert_int_eq(s->files[0].touches[0].deleted, 1);
	ck_assert_int_eq(s->files[0].touches[1].added, 3);	/* Ann's */
	gm_options_init(&o);
	got = assign(s, 0, &o, NULL);
	ck_assert_str_eq(got,
		"Ann <ann@x.org> (commit_signer:2/2=100%,authored:1/2=50%,"
		"added_lines:3/5=60%)\n"
		"Bob <bob@x.org> (commit_signer:1/2=50%,authored:1/2=50%,"
		"added_lines:2/5=40%,removed_lines:1/1=100%)\n");
	free(got);
	/* the thresholds, each role on its own */
	o.git_min_percent = 55;
	got = assign(s, 0, &o, NULL);
	ck_assert_str_eq(got,
		"Ann <ann@x.org> (commit_signer:2/2=100%,added_lines:3/5=60%)\n"
		"Bob <bob@x.org> (removed_lines:1/1=100%)\n");
	free(got);
	gm_options_release(&o);
	gm_signers_free(s);
	trepo_free(&r);
}
END_TEST

#define SRC "alpha one\nbeta two\ngamma three\ndelta four\nepsilon five\n" \
	"zeta six\neta seven\ntheta eight\niota nine\nkappa ten\n"
#define OTHER "apples\npears\nplums\ncherries\ngrapes\nlemons\n" \
	"limes\nfigs\ndates\nmelons\nkiwis\n"

/*
 * files created in the window by copies (the sources stay) are
 * followed to their sources among every file of the parent, as git log
 * --follow finds them (find_copies_harder), whether the parent's trees
 * and the blobs' fingerprints were read by an earlier search of the same
 * walk (a warm cache) or not (a walk of one file).
 */
START_TEST(test_signers_copy_followed_cache)
{
	static const struct tcommit c[] = {
		{ "Ann <ann@x.org>", "add\n\nSigned-off-by: Ann <ann@x.org>\n",
		  T0, { { "a/src.c", SRC }, { "b/other.c", OTHER },
			{ "b/empty.c", "" }, { "j/b.c", "twin\n" } } },
		{ "Bob <bob@x.org>", "edit\n\nSigned-off-by: Bob <bob@x.org>\n",
		  T0 + DAY, { { "a/src.c", SRC "lambda eleven\n" },
			      { "b/other.c", OTHER "oranges\n" } } },
		{ "Cy <cy@x.org>", "copy\n\nSigned-off-by: Cy <cy@x.org>\n",
		  T0 + 2 * DAY, { { "c/copy.c", SRC "lambda 11\n" },
				  { "d/copy2.c", OTHER "oranges\nnuts\n" } } },
		{ "Dee <dee@x.org>", "more\n\nSigned-off-by: Dee <dee@x.org>\n",
		  T0 + 3 * DAY, { { "c/copy.c", SRC "lambda 11\nmu\n" },
				  { "b/other.c", OTHER "oranges\npeaches\n" } } },
		{ "Eve <eve@x.org>", "again\n\nSigned-off-by: Eve <eve@x.org>\n",
		  T0 + 4 * DAY, { { "e/copy3.c", "ALPHA\n" SRC "lambda eleven\n" } } },
		{ "Fay <fay@x.org>", "touch\n\nSigned-off-by: Fay <fay@x.org>\n",
		  T0 + 5 * DAY, { { "e/copy3.c", "ALPHA\n" SRC "lambda 12\n" },
				  { "d/copy2.c", OTHER "oranges\nnuts\nrye\n" } } },
		{ "Gus <gus@x.org>", "twin\n\nSigned-off-by: Gus <gus@x.org>\n",
		  T0 + 6 * DAY, { { "i/a.c", "twin\n" } } },
		{ "Hal <hal@x.org>", "move\n\nSigned-off-by: Hal <hal@x.org>\n",
		  T0 + 7 * DAY, { { "i/a.c", NULL }, { "g/twin.c", "twin\n" } } },
	};
	static const char *const warm[] = {
		"c/copy.c", "d/copy2.c", "e/copy3.c", "g/twin.c", NULL
	};
	static const char *const cold[][2] = {
		{ "c/copy.c", NULL }, { "d/copy2.c", NULL }, { "e/copy3.c", NULL }
	};
	static const char *const from[] = { "a/src.c", "b/other.c", "a/src.c" };
	struct trepo r;
	struct gm_signers *s;

	trepo_build(&r, c, ARRAY_SIZE(c));
	s = walk(&r, T0 - DAY, warm);
	assert_copied_from(&r, T0 - DAY, s, from, 3);
	ck_assert_uint_eq(s->files[0].nr_touches, 4);	/* Dee, Cy, Bob, Ann */
	ck_assert_uint_eq(s->files[2].nr_touches, 4);	/* Fay, Eve, Bob, Ann */
	/*
	 * Identical sources: the one the commit deleted (i/a.c) before the
	 * one it kept in a tree it did not change (j/b.c), which i/a.c
	 * itself was copied from.
	 */
	assert_same_as_git(&r, T0 - DAY, s, 3);
	ck_assert_uint_eq(s->files[3].renamed_from.nr, 2);
	ck_assert_str_eq(s->files[3].renamed_from.v[0], "i/a.c");
	ck_assert_str_eq(s->files[3].renamed_from.v[1], "j/b.c");
	for (size_t f = 0; f < 3; f++) {
		struct gm_signers *one = walk(&r, T0 - DAY, cold[f]);
		char *a = our_log(s, f), *b = our_log(one, 0);

		ck_assert_str_eq(b, a);
		ck_assert_uint_eq(one->files[0].renamed_from.nr, 1);
		ck_assert_str_eq(one->files[0].renamed_from.v[0], from[f]);
		free(a);
		free(b);
		gm_signers_free(one);
	}
	gm_signers_free(s);
	trepo_free(&r);
}
END_TEST

/*
 * numstat's "-" for a file git shows as binary by the -diff
 * attribute, which git log reads from the work tree's .gitattributes and
 * never from the index (which it does not load): a .gitattributes only in
 * the index and the commits leaves the lines counted.
 */
START_TEST(test_signers_diff_attribute_work_tree)
{
	static const struct tcommit c[] = {
		{ "Ann <ann@x.org>", "add\n\nSigned-off-by: Ann <ann@x.org>\n",
		  T0, { { ".gitattributes", "*.c -diff\n" },
			{ "f.c", "1\n2\n" } } },
		{ "Bob <bob@x.org>", "grow\n\nSigned-off-by: Bob <bob@x.org>\n",
		  T0 + DAY, { { "f.c", "1\n2\n3\n" } } },
	};
	static const char *const paths[] = { "f.c", NULL };
	struct trepo r;
	struct gm_signers *s;

	trepo_build(&r, c, ARRAY_SIZE(c));
	s = walk(&r, T0 - DAY, paths);	/* not in the work tree */
	ck_assert_uint_eq(s->files[0].nr_touches, 2);
	ck_assert_int_eq(s->files[0].touches[0].added, 1);
	ck_assert_int_eq(s->files[0].touches[0].deleted, 0);
	gm_signers_free(s);
	ck_assert_int_eq(gm_test_write_file(r.dir, ".gitattributes",
					    "*.c -diff\n"), 0);
	s = walk(&r, T0 - DAY, paths);	/* in the work tree: "-\t-" */
	ck_assert_int_eq(s->files[0].touches[0].added, -1);
	ck_assert_int_eq(s->files[0].touches[1].added, -1);
	gm_signers_free(s);
	trepo_free(&r);
}
END_TEST

/* no signer line in any commit: raw author lines, divisor 0. */
START_TEST(test_signers_no_signer_lines)
{
	static const struct tcommit c[] = {
		{ "No Sob <nosob@x.org>", "plain\n\nno trailers here\n",
		  T0, { { "f.c", "a\nb\n" } } },
	};
	static const char *const paths[] = { "f.c", NULL };
	struct gm_strvec warnings = GM_STRVEC_INIT;
	struct gm_options o;
	struct trepo r;
	struct gm_signers *s;
	char *got;

	trepo_build(&r, c, ARRAY_SIZE(c));
	s = walk(&r, T0 - DAY, paths);
	assert_same_as_git(&r, T0 - DAY, s, 0);
	gm_options_init(&o);
	got = assign(s, 0, &o, &warnings);
	ck_assert_str_eq(got, "\"GitAuthor: No Sob\" <nosob@x.org> "
			      "(authored:1/1=100%,added_lines:2/2=100%)\n");
	ck_assert(gm_strvec_contains(&warnings,
				     "Bad divisor in main::vcs_assign: 0"));
	free(got);
	gm_strvec_release(&warnings);
	gm_options_release(&o);
	gm_signers_free(s);
	trepo_free(&r);
}
END_TEST

/* a signer twice in one commit counts twice, capped at 100%. */
START_TEST(test_signers_repeated_signer)
{
	static const struct tcommit c[] = {
		{ "Ann <ann@x.org>",
		  "one\n\nSigned-off-by: Ann <ann@x.org>\n"
		  "Signed-off-by: Ann <ann@x.org>\n"
		  "Acked-by: Bob <bob@x.org>\n",
		  T0, { { "f.c", "a\n" } } },
	};
	static const char *const paths[] = { "f.c", NULL };
	struct gm_options o;
	struct trepo r;
	struct gm_signers *s;
	char *got;

	trepo_build(&r, c, ARRAY_SIZE(c));
	s = walk(&r, T0 - DAY, paths);
	gm_options_init(&o);
	got = assign(s, 0, &o, NULL);
	ck_assert_str_eq(got,
		"Ann <ann@x.org> (commit_signer:2/1=100%,authored:1/1=100%,"
		"added_lines:1/1=100%)\n"
		"Bob <bob@x.org> (commit_signer:1/1=100%)\n");
	free(got);
	gm_options_release(&o);
	gm_signers_free(s);
	trepo_free(&r);
}
END_TEST

/* the chief penguin's signatures are dropped, not his authorship. */
START_TEST(test_signers_chief_penguin)
{
	static const struct tcommit c[] = {
		{ "Linus Torvalds <torvalds@linux-foundation.org>",
		  "merge window\n\nSigned-off-by: Linus Torvalds "
		  "<torvalds@linux-foundation.org>\n"
		  "Signed-off-by: Ann <ann@x.org>\n",
		  T0, { { "f.c", "a\n" } } },
	};
	static const char *const paths[] = { "f.c", NULL };
	struct gm_options o;
	struct trepo r;
	struct gm_signers *s;
	char *got;

	trepo_build(&r, c, ARRAY_SIZE(c));
	s = walk(&r, T0 - DAY, paths);
	gm_options_init(&o);
	got = assign(s, 0, &o, NULL);
	ck_assert_str_eq(got,
		"Ann <ann@x.org> (commit_signer:1/1=100%)\n"
		"Linus Torvalds <torvalds@linux-foundation.org> "
		"(authored:1/1=100%,added_lines:1/1=100%)\n");
	free(got);
	o.git_chief_penguins = 1;
	got = assign(s, 0, &o, NULL);
	ck_assert_str_eq(got,
		"Ann <ann@x.org> (commit_signer:1/1=100%)\n"
		"Linus Torvalds <torvalds@linux-foundation.org> "
		"(commit_signer:1/1=100%,authored:1/1=100%,added_lines:1/1=100%)\n");
	free(got);
	gm_options_release(&o);
	gm_signers_free(s);
	trepo_free(&r);
}
END_TEST

/* blame lines against git blame -l, boundary (root) lines left out. */
/* Our whole-file blame of `path` at HEAD: the ids, one a line; how many. */
static size_t blame_ids(const struct trepo *r, const char *path, char *got)
{
	struct gm_strvec lines = GM_STRVEC_INIT;
	size_t n;

	*got = '\0';
	ck_assert_int_eq(gm_test_blame_lines(&lines, r->repo, &r->head, NULL,
					     path, 0, 0), 0);
	for (size_t i = 0; i < lines.nr; i++) {
		strcat(got, lines.v[i]);
		strcat(got, "\n");
	}
	n = lines.nr;
	gm_strvec_release(&lines);
	return n;
}

/*
 * Whole-file blame of `path` at HEAD, ours against `git blame -l`: the
 * ids of the lines not the root's, one a line; how many lines ours gave.
 * Ours again with a commit-graph and its filters: the same.
 */
static size_t assert_blame_as_git(const struct trepo *r, const char *path)
{
	char cmd[2048], want[4096] = "", got[4096] = "";
	size_t n, nr;
	FILE *p;

	nr = blame_ids(r, path, got);
	snprintf(cmd, sizeof(cmd), "git -C '%s' blame -l HEAD -- %s | "
		 "grep -o '^[0-9a-f]* ' | tr -d ' '", r->dir, path);
	ck_assert_ptr_nonnull(p = popen(cmd, "r"));
	n = fread(want, 1, sizeof(want) - 1, p);
	want[n] = '\0';
	pclose(p);
	ck_assert_str_eq(got, want);
	snprintf(cmd, sizeof(cmd), "git -C '%s' commit-graph write --reachable "
		 "--changed-paths >/dev/null 2>&1", r->dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_uint_eq(blame_ids(r, path, got), nr);
	ck_assert_str_eq(got, want);
	snprintf(cmd, sizeof(cmd), "rm -f '%s/.git/objects/info/commit-graph'",
		 r->dir);
	ck_assert_int_eq(system(cmd), 0);
	return nr;
}

START_TEST(test_signers_blame_lines)
{
	static const struct tcommit c[] = {
		{ "Ann <ann@x.org>", "root\n\nSigned-off-by: Ann <ann@x.org>\n",
		  T0, { { "f.c", "1\n2\n3\n4\n" } } },
		{ "Bob <bob@x.org>", "two\n\nSigned-off-by: Bob <bob@x.org>\n",
		  T0 + DAY, { { "f.c", "1\nB\n3\n4\n5\n" } } },
		{ "Cy <cy@x.org>", "move\n\nSigned-off-by: Cy <cy@x.org>\n",
		  T0 + 2 * DAY, { { "f.c", NULL }, { "g.c", "1\nB\n3\n4\n5\n" } } },
	};
	struct gm_strvec lines = GM_STRVEC_INIT;
	struct trepo r;

	trepo_build(&r, c, ARRAY_SIZE(c));
	/* lines 1, 3, 4 are the root's */
	ck_assert_uint_eq(assert_blame_as_git(&r, "g.c"), 2);
	/* -L 2,+1 and a range running past the end */
	ck_assert_int_eq(gm_test_blame_lines(&lines, r.repo, &r.head, NULL,
					     "g.c", 5, 9), 0);
	ck_assert_uint_eq(lines.nr, 1);
	ck_assert_int_eq(gm_test_blame_lines(&lines, r.repo, &r.head, NULL,
					     "g.c", 6, 1), 0);
	ck_assert_uint_eq(lines.nr, 1);	/* past the end: nothing more */
	gm_strvec_release(&lines);
	trepo_free(&r);
}
END_TEST

/* `n` copies of `line`, then `unique` bytes of numbered lines (`tag`). */
static char *repeated_text(const char *line, size_t n, const char *tag,
			   size_t unique)
{
	size_t len = strlen(line), at = 0, cap = n * len + unique + 64;
	char *t = malloc(cap);

	ck_assert_ptr_nonnull(t);
	for (size_t k = 0; k < n; k++, at += len)
		memcpy(t + at, line, len);
	for (int k = 0; at < n * len + unique; k++)
		at += (size_t)snprintf(t + at, cap - at, "%05d %s\n", k, tag);
	t[at] = '\0';
	return t;
}

/*
 * a source whose similarity rests on one line repeated 20,000
 * times (40,000 bytes under one chunk hash, more than a fingerprint's
 * word holds beside the hash): 40,000 of 70,000 bytes copied, a 57%
 * match that git finds; counted short, it would fall under 50%.
 */
START_TEST(test_signers_copy_many_same_lines)
{
	char *src = repeated_text("x\n", 20000, "source line", 30000);
	char *dst = repeated_text("x\n", 20000, "copy line", 30000);
	static const char *const paths[] = { "n/copy.c", NULL };
	static const char *const from[] = { "a/many.c" };
	const struct tcommit c[] = {
		{ "Ann <ann@x.org>", "add\n\nSigned-off-by: Ann <ann@x.org>\n",
		  T0, { { "a/many.c", src }, { "b/other.c", OTHER } } },
		{ "Cy <cy@x.org>", "copy\n\nSigned-off-by: Cy <cy@x.org>\n",
		  T0 + DAY, { { "n/copy.c", dst } } },
	};
	struct trepo r;
	struct gm_signers *s;

	trepo_build(&r, c, ARRAY_SIZE(c));
	s = walk(&r, T0 - DAY, paths);
	assert_copied_from(&r, T0 - DAY, s, from, 1);
	ck_assert_uint_eq(s->files[0].nr_touches, 2);	/* Cy, Ann */
	gm_signers_free(s);
	trepo_free(&r);
	free(src);
	free(dst);
}
END_TEST

/*
 * two searches in turn list the same directory d/ of their parents,
 * the first against a commit that deleted d/f.c, the second against one
 * that left it: the first takes d/f.c, deleted, over c/g.c, identical;
 * the second sees d/f.c kept, and of two identical sources, both kept,
 * takes the first in path order, c/g.c, as git log --follow does (the
 * two have histories of their own: c/g.c became d/f.c's twin later).
 */
START_TEST(test_signers_copy_listing_reused)
{
	static const struct tcommit c[] = {
		{ "Ann <ann@x.org>", "add\n\nSigned-off-by: Ann <ann@x.org>\n",
		  T0, { { "d/f.c", SRC }, { "c/g.c", OTHER } } },
		{ "Zed <zed@x.org>", "same\n\nSigned-off-by: Zed <zed@x.org>\n",
		  T0 + DAY / 2, { { "c/g.c", SRC } } },
		{ "Bob <bob@x.org>", "copy\n\nSigned-off-by: Bob <bob@x.org>\n",
		  T0 + DAY, { { "n/new1.c", SRC } } },
		{ "Cy <cy@x.org>", "move\n\nSigned-off-by: Cy <cy@x.org>\n",
		  T0 + 2 * DAY, { { "d/f.c", NULL }, { "n/new2.c", SRC } } },
	};
	static const char *const paths[] = { "n/new1.c", "n/new2.c", NULL };
	static const char *const from[] = { "c/g.c", "d/f.c" };
	struct trepo r;
	struct gm_signers *s;

	trepo_build(&r, c, ARRAY_SIZE(c));
	s = walk(&r, T0 - DAY, paths);
	assert_copied_from(&r, T0 - DAY, s, from, 2);
	ck_assert_uint_eq(s->files[0].nr_touches, 3);	/* Bob, Zed, Ann */
	ck_assert_uint_eq(s->files[1].nr_touches, 2);	/* Cy, Ann */
	gm_signers_free(s);
	trepo_free(&r);
}
END_TEST

/*
 * a long history, 300 commits, a.c moved half way: every walk
 * (libgit2, packs, commit-graph) as git log --follow.
 */
START_TEST(test_signers_long_history_moved)
{
	enum { N = 300, MOVE = 150 };
	static const char *const paths[] = { "new/a.c", "c.c", NULL };
	struct tcommit *c = calloc(N, sizeof(*c));
	char (*text)[2][160] = calloc(N, sizeof(*text));
	static const char *const who[] = {
		"Ann <ann@x.org>", "Bob <bob@x.org>", "Cy <cy@x.org>",
	};
	struct trepo r;
	struct gm_signers *s;

	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(text);
	for (size_t i = 0; i < N; i++) {
		const char *a = i < MOVE ? "old/a.c" : "new/a.c";
		size_t k = 0;

		snprintf(text[i][0], sizeof(text[i][0]), "%s" "version %zu\n",
			 SRC, i / 2);
		snprintf(text[i][1], sizeof(text[i][1]), "c %zu\n", i);
		c[i].author = who[i % 3];
		c[i].message = "change\n\nSigned-off-by: Ann <ann@x.org>\n";
		c[i].time = T0 + (git_time_t)i * 3600;
		if (i == MOVE)
			c[i].files[k++] = (struct tfile){ "old/a.c", NULL };
		if (i % 2 == 0)
			c[i].files[k++] = (struct tfile){ a, text[i][0] };
		if (i % 3 == 0)
			c[i].files[k++] = (struct tfile){ "c.c", text[i][1] };
		if (!k)
			c[i].files[k++] = (struct tfile){ "z.c", text[i][1] };
	}
	trepo_build(&r, c, N);
	s = walk(&r, T0 - DAY, paths);
	assert_same_as_git(&r, T0 - DAY, s, 0);
	assert_same_as_git(&r, T0 - DAY, s, 1);
	ck_assert_uint_eq(s->files[0].renamed_from.nr, 1);
	ck_assert_str_eq(s->files[0].renamed_from.v[0], "old/a.c");
	ck_assert_uint_eq(s->files[0].nr_touches, N / 2);
	ck_assert_uint_eq(s->files[1].nr_touches, N / 3);
	gm_signers_free(s);
	trepo_free(&r);
	free(text);
	free(c);
}
END_TEST

/*
 * A copy found among forty files of its size, in four directories, from
 * libgit2 and from the packs (walk() walks again packed), with the same
 * answer as git log --follow.
 */
START_TEST(test_signers_copy_among_many)
{
	enum { FILES = 40, LINES = 20 };
	static char names[FILES][32], texts[FILES + 2][LINES * 40 + 16];
	struct tcommit c[FILES / 4 + 3];
	static const char *const paths[] = { "n/copy.c", NULL };
	struct trepo r;
	struct gm_signers *s;
	size_t nr = 0;

	memset(c, 0, sizeof(c));
	for (int i = 0; i < FILES; i++) {
		size_t len = 0;

		snprintf(names[i], sizeof(names[i]), "m/d%d/f%02d.c", i % 4, i);
		for (int k = 0; k < LINES; k++)
			len += (size_t)snprintf(texts[i] + len,
						sizeof(texts[i]) - len,
						"%02d: line %d of the many\n",
						i, k);
		if (i % 4 == 0) {
			c[nr].author = "Ann <ann@x.org>";
			c[nr].message = "add\n\nSigned-off-by: Ann <ann@x.org>\n";
			c[nr].time = T0 + (git_time_t)nr;
			nr++;
		}
		c[nr - 1].files[i % 4].path = names[i];
		c[nr - 1].files[i % 4].content = texts[i];
	}
	strcpy(texts[FILES], texts[7]);
	memcpy(strstr(texts[FILES], "line 3 "), "LINE", 4);
	strcpy(texts[FILES + 1], texts[FILES]);
	strcat(texts[FILES + 1], "and one\n");
	c[nr++] = (struct tcommit){ "Cy <cy@x.org>",
		"copy\n\nSigned-off-by: Cy <cy@x.org>\n", T0 + DAY,
		{ { "n/copy.c", texts[FILES] } } };
	c[nr++] = (struct tcommit){ "Dee <dee@x.org>",
		"more\n\nSigned-off-by: Dee <dee@x.org>\n", T0 + 2 * DAY,
		{ { "n/copy.c", texts[FILES + 1] } } };
	trepo_build(&r, c, nr);
	s = walk(&r, T0 - DAY, paths);
	assert_same_as_git(&r, T0 - DAY, s, 0);
	ck_assert_uint_eq(s->files[0].renamed_from.nr, 1);
	ck_assert_str_eq(s->files[0].renamed_from.v[0], "m/d3/f07.c");
	ck_assert_uint_eq(s->files[0].nr_touches, 3);	/* Dee, Cy, Ann */
	/* the walk ahead, and the copy search's second reader at least once */
	ck_assert_uint_ge(ahead_jobs, 2);
	gm_signers_free(s);
	trepo_free(&r);
}
END_TEST

/*
 * Blame across a rename with an edit in the same commit: the old file is
 * found by git's similarity estimate (75% with the same base name, else
 * 50%), as git blame finds it.
 */
START_TEST(test_signers_blame_inexact_rename)
{
	static const struct tcommit c[] = {
		{ "Ann <ann@x.org>", "root\n", T0,
		  { { "a/f.c", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n" } } },
		{ "Bob <bob@x.org>", "two\n", T0 + DAY,
		  { { "a/f.c", "l1\nB2\nl3\nl4\nl5\nl6\nl7\nl8\n" } } },
		{ "Cy <cy@x.org>", "move and edit\n", T0 + 2 * DAY,
		  { { "a/f.c", NULL },
		    { "b/f.c", "l1\nB2\nl3\nl4\nC5\nl6\nl7\nl8\n" } } },
		{ "Di <di@x.org>", "rename to g, edit\n", T0 + 3 * DAY,
		  { { "b/f.c", NULL },
		    { "b/g.c", "l1\nB2\nl3\nD4\nC5\nl6\nl7\nl8\nl9\n" } } },
	};
	struct trepo r;

	trepo_build(&r, c, ARRAY_SIZE(c));
	/* B2 (Bob), D4 and l9 (Di), C5 (Cy): the root's lines left out */
	ck_assert_uint_eq(assert_blame_as_git(&r, "b/g.c"), 4);
	trepo_free(&r);
}
END_TEST

/*
 * The one walk (gm_commits_walk): under GM_COMMITS_FULL every commit of
 * the window, newest first, each parent queued, the older ones passed
 * over; under GM_COMMITS_SIMPLIFY only what the caller queues, a commit
 * queued twice walked once.
 */
START_TEST(test_signers_commits_walk_modes)
{
	static const struct tcommit c[] = {
		{ "Ann <ann@x.org>", "one\n", T0, { { "a", "1\n" } } },
		{ "Bob <bob@x.org>", "two\n", T0 + DAY, { { "a", "2\n" } } },
		{ "Cy <cy@x.org>", "three\n", T0 + 2 * DAY, { { "b", "3\n" } } },
	};
	struct gm_commits src;
	struct gm_commits_walk w;
	struct gm_commits_item it;
	struct gm_commits_parents p;
	git_commit *head = NULL;
	struct trepo r;
	git_oid seen[3];
	size_t n = 0;
	int rc;

	trepo_build(&r, c, 3);
	ck_assert_int_eq(git_commit_lookup(&head, r.repo, &r.head), 0);
	memset(&src, 0, sizeof(src));
	ck_assert_int_eq(gm_commits_open(&src, r.repo, NULL, NULL, NULL), 0);
	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(gm_commits_walk_start(&w, &src, GM_COMMITS_FULL,
					       &r.head, T0 + DAY, false), 0);
	while ((rc = gm_commits_walk_next(&w, &it, &p)) > 0) {
		ck_assert_uint_lt(n, 3);
		ck_assert_uint_eq(p.nr, git_oid_equal(&it.id, &r.head) ||
					n == 1 ? 1 : 0);
		seen[n++] = it.id;
		gm_commits_parents_release(&p);
		gm_commits_item_release(&it);
	}
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(n, 2);	/* the first commit is before `since` */
	ck_assert(git_oid_equal(&seen[0], &r.head));
	ck_assert(git_oid_equal(&seen[1], git_commit_parent_id(head, 0)));
	gm_commits_walk_release(&w);

	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(gm_commits_walk_start(&w, &src, GM_COMMITS_SIMPLIFY,
					       &r.head, 0, false), 0);
	ck_assert_int_eq(gm_commits_walk_next(&w, &it, NULL), 1);
	ck_assert(git_oid_equal(&it.id, &r.head));
	ck_assert_int_eq(gm_commits_parents(&src, &it, &p), 0);
	ck_assert_uint_eq(p.nr, 1);
	seen[0] = p.v[0].id;
	ck_assert_int_eq(gm_commits_walk_push(&w, &p.v[0]), 0);
	gm_commits_parents_release(&p);
	ck_assert_int_eq(gm_commits_parents(&src, &it, &p), 0);
	ck_assert_int_eq(gm_commits_walk_push(&w, &p.v[0]), 0);
	gm_commits_parents_release(&p);
	gm_commits_item_release(&it);
	ck_assert_int_eq(gm_commits_walk_next(&w, &it, NULL), 1);
	ck_assert(git_oid_equal(&it.id, &seen[0]));
	gm_commits_item_release(&it);
	ck_assert_int_eq(gm_commits_walk_next(&w, &it, NULL), 0);
	gm_commits_walk_release(&w);
	gm_commits_close(&src);
	git_commit_free(head);
	trepo_free(&r);
}
END_TEST

Suite *signers_suite(void)
{
	Suite *s = suite_create("signers");
	TCase *tc = tcase_create("signers");

	gm_test_hermetic_env();
	tcase_add_test(tc, test_signers_commits_walk_modes);
	tcase_add_test(tc, test_signers_rename_followed);
	tcase_add_test(tc, test_signers_rename_under_dir);
	tcase_add_test(tc, test_signers_long_history_moved);
	tcase_add_test(tc, test_signers_shallow_packed);
	tcase_add_test(tc, test_signers_added_in_window);
	tcase_add_test(tc, test_signers_copy_followed_cache);
	tcase_add_test(tc, test_signers_diff_attribute_work_tree);
	tcase_add_test(tc, test_signers_no_signer_lines);
	tcase_add_test(tc, test_signers_repeated_signer);
	tcase_add_test(tc, test_signers_chief_penguin);
	tcase_add_test(tc, test_signers_copy_among_many);
	tcase_add_test(tc, test_signers_copy_many_same_lines);
	tcase_add_test(tc, test_signers_copy_listing_reused);
	tcase_add_test(tc, test_signers_blame_lines);
	tcase_add_test(tc, test_signers_blame_inexact_rename);
	tcase_add_test(tc, test_follow_chunk_as_defined);
	suite_add_tcase(s, tc);
	return s;
}
