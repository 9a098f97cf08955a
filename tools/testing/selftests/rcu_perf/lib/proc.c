// SPDX-License-Identifier: GPL-2.0
/* Temporary trees and child process groups, removed or killed at exit. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

int rp_tmpdir(const char *parent, const char *name, char *buf, size_t len)
{
	char path[RP_PATH_LEN];
	int err;

	if (!parent || !*parent)
		parent = getenv("TMPDIR");
	if (!parent || !*parent)
		parent = "/tmp";
	if (!rp_one_line(parent))
		return -EINVAL;
	if (snprintf(path, sizeof(path), "%s/%s.XXXXXX", parent, name) >=
	    (int)sizeof(path) || strlen(path) >= len)
		return -ENAMETOOLONG;
	if (!mkdtemp(path))
		return -errno;
	/* Without the guard (not root), the caller's own cleanup is all. */
	err = rp_guard_get() ? 0 : rp_guard_record(RP_ENT_TMPDIR, path);
	if (err) {
		rmdir(path);
		return err;
	}
	memcpy(buf, path, strlen(path) + 1);
	return 0;
}

int rp_tmpdir_remove(const char *path)
{
	int err = rp_rm_tree(path);

	if (err < 0)
		return err;
	rp_tmpdir_keep(path);	/* nothing left to remove */
	return 0;
}

void rp_tmpdir_keep(const char *path)
{
	rp_guard_forget(RP_ENT_TMPDIR, path, 0);
}

pid_t rp_guard_fork(void)
{
	/* Without the guard (not root), a plain fork(): the terminal's ^C. */
	bool guarded = !rp_guard_get();
	char id[48];
	sigset_t old;
	pid_t pid;
	int err;

	/* No signal between the fork and the record: the group is known. */
	rp_guard_block_signals(&old);
	pid = fork();
	if (!pid) {
		if (guarded)
			setpgid(0, 0);
		/* Not the lock: the next run could not take it to kill us. */
		rp_guard_disown();
	} else if (pid > 0 && guarded) {
		/* Also here: which of parent and child runs first is open. */
		setpgid(pid, pid);
		snprintf(id, sizeof(id), "%d %llu", (int)pid, rp_proc_start(pid));
		err = rp_guard_record(RP_ENT_PGRP, id);
		if (err) {
			kill(-pid, SIGKILL);
			waitpid(pid, NULL, 0);
			errno = -err;
			pid = -1;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

void rp_guard_child_done(pid_t pid)
{
	rp_guard_forget(RP_ENT_PGRP, NULL, pid);
}
