// SPDX-License-Identifier: GPL-2.0
/*
 * What the programs' measurement loops share. Nothing here is timed: the
 * programs keep what they time, in their order, in their code.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "internal.h"

void rp_sample(struct rp_samples *s, double x)
{
	if (rp_samples_add(s, x))
		rp_fatal("out of memory");
}

bool rp_bounds_settled(const struct rp_bound *b, int nr)
{
	int i;

	for (i = 0; i < nr && rp_bound_settled(&b[i]); i++)
		;
	return i == nr;
}

void rp_workdir(const char *parent, const char *name, char *buf, size_t len)
{
	int err = rp_tmpdir(parent, name, buf, len);

	if (err) {
		buf[0] = '\0';
		rp_fatal("cannot create a directory under %s: %s",
			 parent ? parent : "$TMPDIR or /tmp", strerror(-err));
	}
}

void rp_workdir_remove(char *path)
{
	int err = path[0] ? rp_tmpdir_remove(path) : 0;

	if (err)
		printf("# warning: cannot remove %s: %s\n", path, strerror(-err));
	path[0] = '\0';
}

bool rp_find_prog(const char *prog, char *out, size_t len)
{
	const char *path = getenv("PATH");
	const char *p, *e;
	struct stat st;

	if (strchr(prog, '/')) {
		snprintf(out, len, "%s", prog);
		return !access(out, X_OK);
	}
	for (p = path ? path : "/usr/bin:/bin"; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, ':');
		if ((size_t)snprintf(out, len, "%.*s/%s", (int)(e - p), p,
				     prog) < len && !stat(out, &st) &&
		    S_ISREG(st.st_mode) && !access(out, R_OK | X_OK))
			return true;
	}
	return false;
}
