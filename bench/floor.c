/*
 * gm-floor: the least work any MAINTAINERS lookup through libgit2 must do.
 *
 * Initialise libgit2, find the repository from the current directory, peel
 * HEAD to its tree, read the MAINTAINERS blob and walk its bytes once.  The
 * time this takes is the floor that git-maintainer is measured against.
 *
 * usage: gm-floor [--no-verify]
 *   --no-verify  turn off libgit2's strict object hash verification first
 */
#include <stdio.h>
#include <string.h>

#include <git2.h>

static int fail(const char *what)
{
	const git_error *e = git_error_last();

	fprintf(stderr, "gm-floor: %s: %s\n", what,
		e && e->message ? e->message : "unknown error");
	git_libgit2_shutdown();
	return 1;
}

int main(int argc, char **argv)
{
	git_repository *repo = NULL;
	git_oid head;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_tree_entry *entry = NULL;
	git_blob *blob = NULL;
	const char *p, *end;
	git_object_size_t size;
	unsigned long lines = 0;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--no-verify") != 0) {
			fprintf(stderr, "usage: gm-floor [--no-verify]\n");
			return 2;
		}
	}

	git_libgit2_init();
	if (argc > 1 &&
	    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0) < 0)
		return fail("disabling hash verification");
	if (git_repository_open_ext(&repo, ".", 0, NULL) < 0)
		return fail("opening the repository");
	if (git_reference_name_to_id(&head, repo, "HEAD") < 0 ||
	    git_commit_lookup(&commit, repo, &head) < 0)
		return fail("reading HEAD");
	if (git_commit_tree(&tree, commit) < 0)
		return fail("reading HEAD's tree");
	if (git_tree_entry_bypath(&entry, tree, "MAINTAINERS") < 0)
		return fail("finding MAINTAINERS");
	if (git_blob_lookup(&blob, repo, git_tree_entry_id(entry)) < 0)
		return fail("reading MAINTAINERS");

	p = git_blob_rawcontent(blob);
	size = git_blob_rawsize(blob);
	for (end = p + size; p < end; p++)
		lines += *p == '\n';
	printf("%lu\n", lines);

	git_blob_free(blob);
	git_tree_entry_free(entry);
	git_tree_free(tree);
	git_commit_free(commit);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return 0;
}
