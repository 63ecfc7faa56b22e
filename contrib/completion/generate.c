/*
 * Writes the bash completion with its option list taken from the
 * parser's own table, so that every option the program accepts is
 * offered: the input file is copied to the output, with the lines of
 * the `__git_maintainer_options="..."` assignment replaced.
 *
 * usage: generate <git-maintainer.bash> <output>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/options.h"

#define OPTIONS_START "__git_maintainer_options=\""

/* Whether the option is offered: long, and one the program implements. */
static int offered(const struct gm_option_info *o)
{
	return o->supported && strlen(o->name) > 1 &&
	       strcmp(o->name, "usage") != 0;
}

/*
 * The list: every option (with '=' when it takes a value; an optional
 * value gives both forms), then after "--" the negated forms, which
 * git's __gitcomp offers once "--no" has been typed.
 */
static void write_options(FILE *out)
{
	struct gm_option_info o;

	fputs(OPTIONS_START "\n", out);
	for (size_t i = 0; gm_options_at(i, &o); i++) {
		if (!offered(&o))
			continue;
		if (!o.takes_value || o.optional_value)
			fprintf(out, "\t--%s\n", o.name);
		if (o.takes_value)
			fprintf(out, "\t--%s=\n", o.name);
	}
	fputs("\t--\n", out);
	for (size_t i = 0; gm_options_at(i, &o); i++)
		if (offered(&o) && o.negatable)
			fprintf(out, "\t--no-%s\n", o.name);
	fputs("\"\n", out);
}

int main(int argc, char **argv)
{
	FILE *in, *out;
	char line[4096];
	int state = 0;	/* 0 before the list, 1 in it, 2 after */

	if (argc != 3) {
		fprintf(stderr, "usage: %s <git-maintainer.bash> <output>\n",
			argv[0]);
		return 2;
	}
	if (!(in = fopen(argv[1], "r")) || !(out = fopen(argv[2], "w"))) {
		perror(in ? argv[2] : argv[1]);
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		if (state == 0 && !strncmp(line, OPTIONS_START,
					   strlen(OPTIONS_START))) {
			write_options(out);
			state = 1;
		} else if (state == 1) {
			if (!strcmp(line, "\"\n"))
				state = 2;
		} else {
			fputs(line, out);
		}
	}
	fclose(in);
	if (state != 2 || fclose(out)) {
		fprintf(stderr, "%s: no complete %s...\" list\n", argv[1],
			OPTIONS_START);
		remove(argv[2]);
		return 1;
	}
	return 0;
}
