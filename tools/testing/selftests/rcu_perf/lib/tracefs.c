// SPDX-License-Identifier: GPL-2.0
/*
 * Where tracefs is: found in /proc/mounts, else mounted at
 * /sys/kernel/tracing under the guard (unmounted on every exit path). No
 * tracing under debugfs: tracefs and its mount point are there since 4.1.
 */
#include <mntent.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define STD_TRACEFS	"/sys/kernel/tracing"

static char tracefs_dir[RP_PATH_LEN + 16];
static pid_t looked;		/* the process that looked, or 0 */

/*
 * Tracefs as /proc/mounts lists it (the standard place if mounted twice),
 * which changes nothing. Not libapi's tracefs__mountpoint(): its statfs()
 * of /sys/kernel/debug/tracing makes debugfs automount tracefs there,
 * behind the guard; its tracefs__mount() mounts before the guard records it.
 */
const char *rp_tracefs(void)
{
	FILE *f;
	struct mntent m;
	struct stat st;
	char buf[1024];

	/* A forked child looks again: its parent's mount is not its own. */
	if (looked == getpid())
		return tracefs_dir[0] ? tracefs_dir : NULL;
	looked = getpid();
	tracefs_dir[0] = '\0';
	f = setmntent("/proc/mounts", "re");
	while (f && getmntent_r(f, &m, buf, sizeof(buf)))
		if (!strcmp(m.mnt_type, "tracefs") &&
		    (!tracefs_dir[0] || !strcmp(m.mnt_dir, STD_TRACEFS)))
			snprintf(tracefs_dir, sizeof(tracefs_dir), "%s", m.mnt_dir);
	if (f)
		endmntent(f);
	if (!tracefs_dir[0] && !stat(STD_TRACEFS, &st) && S_ISDIR(st.st_mode) &&
	    !rp_guard_get() && !rp_guard_record(RP_ENT_MOUNT, STD_TRACEFS)) {
		if (!mount("nodev", STD_TRACEFS, "tracefs", 0, NULL))
			snprintf(tracefs_dir, sizeof(tracefs_dir), STD_TRACEFS);
		else	/* not mounted: nothing to undo */
			rp_guard_forget(RP_ENT_MOUNT, STD_TRACEFS, 0);
	}
	return tracefs_dir[0] ? tracefs_dir : NULL;
}
