// SPDX-License-Identifier: GPL-2.0
/*
 * The files rcu_perf may change, whoever asks, never through a symlink:
 * run as root, the suite must not become a way to write arbitrary files.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

/* The rst's "Files the suite changes"; ending in '/': any file in it. */
static const char * const allowed[] = {
	"/sys/kernel/rcu_expedited",
	"/sys/kernel/rcu_normal",
	"/sys/module/rcutree/parameters/",
	"/sys/module/rcupdate/parameters/",
};

#define STD_TRACEFS	"/sys/kernel/tracing"

/* The tracefs files the suite may change (in any tracefs mount). */
static const char * const tracefs_files[] = {
	"current_tracer", "tracing_on",
};

#define CPU_DIR		"/sys/devices/system/cpu/cpu"

enum { KNOB_SYSFS = 1, KNOB_TRACEFS, KNOB_TEST };

static char test_dir[RP_PATH_LEN];	/* rp_knob_allow_dir() */

/* One path component: not empty, not "." or "..", no '/'. */
static bool plain_name(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

/* The name of path's file if path is "dir/name", else NULL. */
static const char *in_dir(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!n || strncmp(path, dir, n) || path[n] != '/' || !plain_name(path + n + 1))
		return NULL;
	return path + n + 1;
}

/* /sys/devices/system/cpu/cpuN/online, N in decimal without leading 0. */
static bool cpu_online_file(const char *path)
{
	size_t d;

	if (strncmp(path, CPU_DIR, strlen(CPU_DIR)))
		return false;
	path += strlen(CPU_DIR);
	d = strspn(path, "0123456789");
	return d && d <= 6 && (path[0] != '0' || d == 1) && !strcmp(path + d, "/online");
}

/* Its tracefs_files[] entry if name (or NULL) is one, else NULL. */
static const char *tracer_file(const char *name)
{
	size_t j;

	for (j = 0; name && j < ARRAY_SIZE(tracefs_files); j++)
		if (!strcmp(name, tracefs_files[j]))
			return tracefs_files[j];
	return NULL;
}

/*
 * Which kind of allowed file path names (by its spelling), or 0. With
 * any_tracefs, a tracer file anywhere: a tracefs mounted elsewhere (or by
 * debugfs' automount), which rp_knob_check() then checks.
 */
static int knob_kind(const char *path, bool any_tracefs)
{
	const char *name;
	size_t i, n;

	if (!path || path[0] != '/' || strlen(path) >= RP_PATH_LEN)
		return 0;
	for (i = 0; i < ARRAY_SIZE(allowed); i++) {
		n = strlen(allowed[i]);
		if (allowed[i][n - 1] == '/' ?
		    !strncmp(path, allowed[i], n) && plain_name(path + n) :
		    !strcmp(path, allowed[i]))
			return KNOB_SYSFS;
	}
	if (cpu_online_file(path))
		return KNOB_SYSFS;
	if (tracer_file(in_dir(path, STD_TRACEFS)))
		return KNOB_TRACEFS;
	if (in_dir(path, test_dir))
		return KNOB_TEST;
	name = strrchr(path, '/');
	if (any_tracefs && name > path && tracer_file(name + 1) &&
	    !strstr(path, "/./") && !strstr(path, "/../") && !strstr(path, "//"))
		return KNOB_TRACEFS;
	return 0;
}

const char *rp_tracer_file(const char *path)
{
	return knob_kind(path, true) == KNOB_TRACEFS ? tracer_file(strrchr(path, '/') + 1) : NULL;
}

int rp_knob_allowed(const char *path)
{
	return knob_kind(path, false) ? 0 : -EPERM;
}

/* Is the directory of path the root of a tracefs mount? */
static bool tracefs_root(const char *path)
{
	char dir[RP_PATH_LEN + 4];
	struct stat st, up;
	struct statfs sfs;

	snprintf(dir, sizeof(dir), "%.*s/..", (int)(strrchr(path, '/') - path), path);
	if (stat(dir, &up))
		return false;
	dir[strlen(dir) - 3] = '\0';
	return !statfs(dir, &sfs) && sfs.f_type == TRACEFS_MAGIC &&
	       !stat(dir, &st) && st.st_dev != up.st_dev;
}

void rp_knob_allow_dir(const char *dir)
{
	char real[PATH_MAX];

	if (dir && realpath(dir, real) && strlen(real) < sizeof(test_dir))
		memcpy(test_dir, real, strlen(real) + 1);
	else
		test_dir[0] = '\0';
}

/* On the list as it is, not through a symlink or "..", on its fs. */
int rp_knob_check(const char *path)
{
	int kind = knob_kind(path, true);
	char real[PATH_MAX];
	struct statfs sfs;

	if (!kind)
		return -EPERM;
	if (!realpath(path, real))
		return -errno;
	if (strcmp(real, path))
		return -ELOOP;
	if (kind == KNOB_TEST)
		return 0;
	/* Wherever a program or a killed run found tracefs mounted */
	if (kind == KNOB_TRACEFS)
		return tracefs_root(path) ? 0 : -EPERM;
	if (statfs(path, &sfs))
		return -errno;
	return sfs.f_type == SYSFS_MAGIC ? 0 : -EPERM;
}

const char *rp_knob_refusal(int err)
{
	if (err == -EPERM)
		return "not a file rcu_perf may change (see --help)";
	return err == -ELOOP ? "the path goes through a symlink or '..'" : strerror(-err);
}

bool rp_knob_mount_allowed(const char *path)
{
	return !strcmp(path, STD_TRACEFS) || in_dir(path, test_dir);
}

int rp_write_value(const char *path, const char *val, size_t len)
{
	/* No symlink anywhere (before Linux 5.6: the last one; realpath() did) */
	struct open_how how = {
		.flags = O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd, err = 0;
	ssize_t r;

	fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
	/* ELOOP: a symlink; any other error may be a kernel without it. */
	if (fd < 0 && errno != ELOOP)
		fd = open(path, how.flags);
	if (fd < 0)
		return -errno;
	r = write(fd, val, len);
	err = r < 0 ? -errno : (size_t)r != len ? -EIO : 0;
	if (close(fd) && !err)
		err = -errno;
	return err;
}
