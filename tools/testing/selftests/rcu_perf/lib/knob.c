// SPDX-License-Identifier: GPL-2.0
/*
 * The guard: every sysfs, tracefs and CPU-hotplug change of rcu_perf goes
 * through here so that the kernel is left as it was found, whatever way the
 * program ends.
 *
 * - One rcu_perf program at a time changes knobs and measures: an exclusive
 *   flock on <state dir>/lock, waited for with a bounded timeout.
 * - The first change of a path saves the original value in memory and in
 *   <state dir>/state.<pid>, fsync'ed before the new value is written, so
 *   that a run killed by SIGKILL is repaired by the next one (the state dir
 *   is on tmpfs: after a reboot the knobs are back to defaults anyway).
 * - Originals are restored in reverse order of first change at exit(), on
 *   SIGINT/SIGTERM/SIGHUP and the other fatal signals, crashes included
 *   (then the signal is re-raised so that the exit status shows it), and
 *   from rp_fatal()/rp_finish(). Only SIGKILL needs the next run's repair.
 *
 * Temporary directories (rp_tmpdir()) are guarded the same way: removed
 * with their contents on every exit path, and by the next run after a
 * SIGKILL. So are child process groups (rp_guard_fork()): killed.
 *
 * tracefs unmounted by someone else mid-run does not stop a restore: the
 * tracer files are then written through a private tracefs mount in the
 * state dir, made and unmounted for the purpose.
 *
 * The signal path only uses buffers built before the change (open, write,
 * close, umount2, unlink, getdents64): no malloc and no stdio.
 *
 * Threads (gp_throttle's watchdog restores while the measuring thread may
 * change a knob): a mutex orders changes and restores, and once the exit
 * has begun (atexit or a signal) no change starts; the signal path takes
 * no lock but waits for a change in flight.
 *
 * Only the files of rp_knob_allowed() can be changed, whoever asks (--knob,
 * the programs, a state file left in the state dir), and never through a
 * symlink: the suite runs as root and must not become a way to write
 * arbitrary files.
 *
 * Values are written like "echo VALUE > PATH" (O_TRUNC, trailing newline).
 * Files that read back a choice list such as "a [b] c" are restored with the
 * selected word. Multi-line files cannot be guarded (-EINVAL).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <api/fs/fs.h>
#include <perf/cpumap.h>

#include "rcu_perf.h"

#define RP_STATE_DIR_DEFAULT	"/run/rcu_perf"
/* The runner kills a program at 120 s (settings): wait a third of that. */
#define RP_LOCK_TIMEOUT_DEFAULT	40.0
#define RP_MAX_ENTRIES		128
#define RP_PATH_LEN		512
#define RP_VAL_LEN		1024
/* State file line of a mount made by the guard; knob lines start with '/'. */
#define RP_UMOUNT_TAG		"@umount"
#define RP_RMTREE_TAG		"@rmtree"
#define RP_KILL_TAG		"@kill"
#define RP_RMTREE_DEPTH		64

enum rp_entry_kind { RP_ENT_KNOB, RP_ENT_MOUNT, RP_ENT_TMPDIR, RP_ENT_PGRP };

struct rp_entry {
	int kind;
	int done;
	int tracefs;		/* a tracer file: 1 + its tracefs_files[] index */
	pid_t pgrp;		/* RP_ENT_PGRP: the group (its leader's pid) */
	char path[RP_PATH_LEN];
	char orig[RP_VAL_LEN + 1];	/* restore value, '\n'-terminated */
	size_t orig_len;
};

/*
 * nr_entries and restoring are shared with the signal handler: accessed
 * with __atomic builtins; an entry is complete before it is counted.
 */
static struct rp_entry entries[RP_MAX_ENTRIES];
static int nr_entries;
static int restoring;
/*
 * closing: the exit began, no change may start; changing: a change is in
 * flight (set before closing is read, so that the signal path, which sets
 * closing before it reads changing, either refuses it or waits for it).
 */
static int closing, changing;
/*
 * dying: a guard signal's handler runs, in some thread; the process ends
 * of that signal once the handler has restored, never by a normal exit
 * another thread reaches meanwhile (exit 1 for a SIGINT).
 */
static int dying;
static pthread_mutex_t guard_mutex = PTHREAD_MUTEX_INITIALIZER;

static char state_dir[PATH_MAX - 64];
static char state_path[PATH_MAX];
static char private_tracefs[PATH_MAX];	/* restores when tracefs is gone */
static bool state_created;
static int lock_fd = -1;
static pid_t owner_pid;		/* the process whose changes we hold */
static int guard_err;		/* why knob writes are refused, or 0 */
static int init_err;		/* the lock could not be taken */
static bool guard_ready;
static bool handlers_done;
static char tracefs_dir[RP_PATH_LEN + 16];
static bool tracefs_looked;

/* The tracefs files the suite may change (in any tracefs mount). */
static const char * const tracefs_files[] = {
	"current_tracer", "tracing_on",
};

/* ------------------------------------------------------------------ */
/* Async-signal-safe helpers                                           */
/* ------------------------------------------------------------------ */

static pid_t raw_getpid(void)
{
	return (pid_t)syscall(SYS_getpid);
}

static size_t put_str(char *buf, size_t pos, size_t len, const char *s)
{
	while (*s && pos + 1 < len)
		buf[pos++] = *s++;
	buf[pos] = '\0';
	return pos;
}

static size_t put_int(char *buf, size_t pos, size_t len, long v)
{
	char tmp[24];
	int i = 0;

	if (v < 0) {
		pos = put_str(buf, pos, len, "-");
		v = -v;
	}
	do {
		tmp[i++] = '0' + v % 10;
		v /= 10;
	} while (v && i < (int)sizeof(tmp) - 1);
	while (i > 0 && pos + 1 < len)
		buf[pos++] = tmp[--i];
	buf[pos] = '\0';
	return pos;
}

static void say(const char *msg)
{
	ssize_t r = write(STDERR_FILENO, msg, strlen(msg));

	(void)r;
}

/*
 * Open for writing without following a symlink anywhere in the path
 * (openat2() RESOLVE_NO_SYMLINKS; before Linux 5.6 only the last component
 * is checked, the rest by rp_knob_allowed()'s realpath()).
 */
static int open_nofollow(const char *path, int flags)
{
	struct open_how how = {
		.flags = flags | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
	/* ELOOP: a symlink; any other error may be a kernel without it. */
	if (fd < 0 && errno != ELOOP)
		fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC);
	return fd;
}

/* "echo VALUE > PATH": 0 or -errno. */
static int write_value(const char *path, const char *val, size_t len)
{
	int fd, err = 0;
	ssize_t r;

	fd = open_nofollow(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	r = write(fd, val, len);
	if (r < 0)
		err = -errno;
	else if ((size_t)r != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static void report_restore_error(const char *what, const char *path, int err)
{
	char msg[RP_PATH_LEN + 96];
	size_t p = 0;

	p = put_str(msg, p, sizeof(msg), "rcu_perf: guard: cannot ");
	p = put_str(msg, p, sizeof(msg), what);
	p = put_str(msg, p, sizeof(msg), " ");
	p = put_str(msg, p, sizeof(msg), path);
	p = put_str(msg, p, sizeof(msg), ": errno ");
	p = put_int(msg, p, sizeof(msg), -err);
	put_str(msg, p, sizeof(msg), "\n");
	say(msg);
}

struct rp_dirent64 {
	__u64 d_ino;
	__s64 d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * Remove name (relative to dfd) and everything below it, without following
 * symlinks; async-signal-safe. 0, 1 if it did not exist, or -errno.
 */
static int rm_tree_at(int dfd, const char *name, int depth)
{
	char buf[4096];
	int fd, err = 0;
	bool removed;
	long n, off;

	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		if (errno != ENOTDIR && errno != ELOOP)
			return -errno;
		return unlinkat(dfd, name, 0) ? -errno : 0;
	}
	/* Entries removed while reading may hide others: rescan until empty. */
	do {
		removed = false;
		lseek(fd, 0, SEEK_SET);
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
			for (off = 0; off < n;) {
				struct rp_dirent64 *d = (void *)(buf + off);
				const char *dn = d->d_name;

				off += d->d_reclen;
				if (dn[0] == '.' && (!dn[1] ||
						     (dn[1] == '.' && !dn[2])))
					continue;
				if (d->d_type == DT_DIR ||
				    (unlinkat(fd, dn, 0) && errno == EISDIR))
					err = depth < RP_RMTREE_DEPTH ?
					      rm_tree_at(fd, dn, depth + 1) :
					      -ELOOP;
				removed = true;
			}
		}
	} while (removed && !err);
	close(fd);
	if (err < 0)
		return err;
	return unlinkat(dfd, name, AT_REMOVEDIR) ? -errno : 0;
}

/*
 * Restore a tracer file when the tracefs it was changed through has been
 * unmounted (by someone else): through a tracefs mount of our own in the
 * state dir (root's alone), unmounted again. tracefs is one instance
 * wherever it is mounted. Async-signal-safe. 0 or -errno.
 */
static int restore_private_tracefs(const struct rp_entry *e)
{
	char path[sizeof(private_tracefs) + 32];
	size_t p;
	int err;

	if (!private_tracefs[0] || !e->tracefs)
		return -ENOENT;
	if (mkdir(private_tracefs, 0700) && errno != EEXIST)
		return -errno;
	if (mount("nodev", private_tracefs, "tracefs",
		  MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		err = -errno;
		rmdir(private_tracefs);
		return err;
	}
	p = put_str(path, 0, sizeof(path), private_tracefs);
	p = put_str(path, p, sizeof(path), "/");
	put_str(path, p, sizeof(path), tracefs_files[e->tracefs - 1]);
	err = write_value(path, e->orig, e->orig_len);
	umount2(private_tracefs, MNT_DETACH | UMOUNT_NOFOLLOW);
	rmdir(private_tracefs);
	return err;
}

/* 0 undone, 1 nothing to undo, -errno failed (and said so). */
static int undo_entry(struct rp_entry *e)
{
	int err;

	if (e->kind == RP_ENT_PGRP) {
		/* Kill the whole group: a build's compilers, not just make. */
		if (e->pgrp <= 1 || !kill(-e->pgrp, SIGKILL))
			return e->pgrp <= 1;
		return errno == ESRCH ? 1 : -errno;
	}

	if (e->kind == RP_ENT_TMPDIR) {
		err = rm_tree_at(AT_FDCWD, e->path, 0);
		if (err < 0)
			report_restore_error("remove", e->path, err);
		return err;
	}
	if (e->kind == RP_ENT_MOUNT) {
		/* Lazy: our own tracepoint fds may still pin the mount. */
		err = umount2(e->path, MNT_DETACH) ? -errno : 0;
		if (err == -EINVAL)	/* not (or no longer) a mount point */
			return 1;
		if (err)
			report_restore_error("unmount", e->path, err);
		return err;
	}
	err = write_value(e->path, e->orig, e->orig_len);
	if (err == -ENOENT && e->tracefs)
		err = restore_private_tracefs(e);
	if (err)
		report_restore_error("restore", e->path, err);
	return err;
}

/* The restore itself; async-signal-safe. */
static void do_restore(void)
{
	int i, failed = 0;

	if (raw_getpid() != owner_pid ||
	    __atomic_exchange_n(&restoring, 1, __ATOMIC_ACQ_REL))
		return;
	for (i = __atomic_load_n(&nr_entries, __ATOMIC_ACQUIRE) - 1; i >= 0;
	     i--) {
		if (entries[i].done)
			continue;
		if (undo_entry(&entries[i]) < 0)
			failed++;
		entries[i].done = 1;
	}
	__atomic_store_n(&nr_entries, 0, __ATOMIC_RELEASE);
	/* Keep the state file after a failure: the next run retries once. */
	if (state_created && !failed) {
		unlink(state_path);
		state_created = false;
	}
	__atomic_store_n(&restoring, 0, __ATOMIC_RELEASE);
}

static void guard_signal(int sig)
{
	struct timespec ms = { 0, 1000000 };
	struct sigaction sa;
	sigset_t set;
	int i;

	/*
	 * Another thread (signals are blocked in a restoring thread) may be
	 * restoring: let it finish before the process dies.
	 */
	__atomic_store_n(&dying, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&closing, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < 5000 && (__atomic_load_n(&restoring, __ATOMIC_ACQUIRE) ||
				 __atomic_load_n(&changing, __ATOMIC_SEQ_CST));
	     i++)
		nanosleep(&ms, NULL);
	do_restore();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

/*
 * Signals that end the program by default: restore, then die of them.
 * SIGINT/SIGTERM/SIGHUP (kselftest's timeout sends SIGTERM) and the like
 * are blocked while restoring; faults cannot be blocked, and a crashing
 * test should not leave RCU slowed down either.
 */
static const int guard_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2,
	SIGXCPU, SIGXFSZ,
};

static const int fault_signals[] = {
	SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS,
};

static void block_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(guard_signals); i++)
		sigaddset(&set, guard_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* No guard signal in a thread that holds the mutex: no self-deadlock. */
static void guard_lock(sigset_t *old)
{
	block_signals(old);
	pthread_mutex_lock(&guard_mutex);
}

static void guard_unlock(sigset_t *old)
{
	pthread_mutex_unlock(&guard_mutex);
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* Under the mutex: may a change start? Ends with change_end(). */
static int change_begin(void)
{
	__atomic_store_n(&changing, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&closing, __ATOMIC_SEQ_CST))
		return 0;
	__atomic_store_n(&changing, 0, __ATOMIC_SEQ_CST);
	return -ESHUTDOWN;
}

static void change_end(void)
{
	__atomic_store_n(&changing, 0, __ATOMIC_SEQ_CST);
}

void rp_guard_restore(void)
{
	sigset_t old;

	guard_lock(&old);
	do_restore();
	guard_unlock(&old);
}

/* The last restore: another thread changes nothing after it. */
static void guard_atexit(void)
{
	struct timespec ms = { 0, 1000000 };
	sigset_t old;
	int i;

	/*
	 * A signal's handler in another thread waits for a change in flight
	 * (a tracer switch takes a GP), then restores and kills the process:
	 * let it, for at most its own wait and a margin.
	 */
	for (i = 0; i < 10000 && raw_getpid() == owner_pid &&
	     __atomic_load_n(&dying, __ATOMIC_SEQ_CST); i++)
		nanosleep(&ms, NULL);
	guard_lock(&old);
	__atomic_store_n(&closing, 1, __ATOMIC_SEQ_CST);
	do_restore();
	guard_unlock(&old);
}

/* ------------------------------------------------------------------ */
/* Reading knobs                                                       */
/* ------------------------------------------------------------------ */

int rp_knob_read(const char *path, char *buf, size_t len)
{
	ssize_t r;
	size_t n = 0;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (n + 1 < len) {
		r = read(fd, buf + n, len - 1 - n);
		if (r < 0) {
			int err = -errno;

			close(fd);
			buf[0] = '\0';
			return err;
		}
		if (!r)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ' ||
		     buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return (int)n;
}

int rp_knob_exists(const char *path)
{
	return path && access(path, F_OK) == 0;
}

/*
 * The value that restores what was read: the selected word of a choice list
 * "a [b] c", else the value itself. -EINVAL for what cannot be written back.
 */
static int restore_value(const char *read, char *out, size_t len)
{
	const char *lb = strchr(read, '['), *rb;

	if (strchr(read, '\n') || strchr(read, '\t'))
		return -EINVAL;
	if (lb) {
		rb = strchr(lb, ']');
		if (rb && rb > lb + 1 && !strchr(rb + 1, '[')) {
			if ((size_t)(rb - lb) >= len)
				return -E2BIG;
			memcpy(out, lb + 1, rb - lb - 1);
			out[rb - lb - 1] = '\0';
			return 0;
		}
	}
	if ((size_t)snprintf(out, len, "%s", read) >= len)
		return -E2BIG;
	return 0;
}

/* ------------------------------------------------------------------ */
/* The files rcu_perf may change                                       */
/* ------------------------------------------------------------------ */

/*
 * Everything the programs change, and all that --knob may name: RCU's
 * sysfs switches and module parameters, the tracer, CPU hotplug (the list
 * is in Documentation/dev-tools/rcu_perf.rst, "Files the suite changes").
 */
static const char * const allowed_files[] = {
	"/sys/kernel/rcu_expedited",
	"/sys/kernel/rcu_normal",
};

/* Any file directly in these directories. */
static const char * const allowed_dirs[] = {
	"/sys/module/rcutree/parameters",
	"/sys/module/rcupdate/parameters",
};

/* The top of tracefs, also where debugfs auto-mounts it on old kernels. */
static const char * const tracefs_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

#define CPU_DIR		"/sys/devices/system/cpu/cpu"

enum { KNOB_SYSFS = 1, KNOB_TRACEFS, KNOB_TRACEFS_ROOT, KNOB_TEST };

static char test_dir[RP_PATH_LEN];	/* rp_knob_allow_dir() */

/* One path component: not empty, not "." or "..", no '/'. */
static bool plain_name(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..");
}

/* The name of path's file if path is "dir/name", else NULL. */
static const char *in_dir(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!n || strncmp(path, dir, n) || path[n] != '/' ||
	    !plain_name(path + n + 1))
		return NULL;
	return path + n + 1;
}

/* /sys/devices/system/cpu/cpuN/online, N in decimal without leading 0. */
static bool cpu_online_file(const char *path)
{
	const char *p = path + strlen(CPU_DIR);
	size_t digits;

	if (strncmp(path, CPU_DIR, strlen(CPU_DIR)))
		return false;
	digits = strspn(p, "0123456789");
	if (!digits || digits > 6 || (p[0] == '0' && digits > 1))
		return false;
	return !strcmp(p + digits, "/online");
}

/*
 * Which kind of allowed file path names (by its spelling), or 0. With
 * any_tracefs, a tracer file in any directory is KNOB_TRACEFS_ROOT: the
 * top of a tracefs mounted elsewhere, checked on the filesystem.
 */
static int knob_kind(const char *path, bool any_tracefs)
{
	const char *name;
	size_t i, j;

	if (!path || path[0] != '/' || strlen(path) >= RP_PATH_LEN)
		return 0;
	for (i = 0; i < ARRAY_SIZE(allowed_files); i++)
		if (!strcmp(path, allowed_files[i]))
			return KNOB_SYSFS;
	for (i = 0; i < ARRAY_SIZE(allowed_dirs); i++)
		if (in_dir(path, allowed_dirs[i]))
			return KNOB_SYSFS;
	if (cpu_online_file(path))
		return KNOB_SYSFS;
	for (i = 0; i <= ARRAY_SIZE(tracefs_dirs); i++) {
		/* The last one: where rp_tracefs() found tracefs. */
		name = in_dir(path, i < ARRAY_SIZE(tracefs_dirs) ?
			      tracefs_dirs[i] : tracefs_dir);
		for (j = 0; name && j < ARRAY_SIZE(tracefs_files); j++)
			if (!strcmp(name, tracefs_files[j]))
				return KNOB_TRACEFS;
	}
	if (in_dir(path, test_dir))
		return KNOB_TEST;
	name = strrchr(path, '/');
	for (j = 0; any_tracefs && j < ARRAY_SIZE(tracefs_files); j++)
		if (name > path && !strcmp(name + 1, tracefs_files[j]) &&
		    plain_name(name + 1) && !strstr(path, "/./") &&
		    !strstr(path, "/../") && !strstr(path, "//"))
			return KNOB_TRACEFS_ROOT;
	return 0;
}

/* 1 + the tracefs_files[] index of the tracer file path names, else 0. */
static int tracefs_index(const char *path)
{
	int kind = knob_kind(path, true);
	size_t j;

	if (kind != KNOB_TRACEFS && kind != KNOB_TRACEFS_ROOT)
		return 0;
	for (j = 0; j < ARRAY_SIZE(tracefs_files); j++)
		if (!strcmp(strrchr(path, '/') + 1, tracefs_files[j]))
			return j + 1;
	return 0;
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

	snprintf(dir, sizeof(dir), "%.*s/..", (int)(strrchr(path, '/') - path),
		 path);
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

/*
 * Before the first change of a file: it is on the list as it is, not
 * through a symlink or "..", and on the filesystem its name says.
 */
static int knob_check(const char *path)
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
	/* Where a program or a killed run found tracefs mounted. */
	if (kind == KNOB_TRACEFS_ROOT)
		return tracefs_root(path) ? 0 : -EPERM;
	if (statfs(path, &sfs))
		return -errno;
	if (sfs.f_type != (kind == KNOB_SYSFS ? SYSFS_MAGIC : TRACEFS_MAGIC))
		return -EPERM;
	return 0;
}

const char *rp_knob_refusal(int err)
{
	switch (err) {
	case -EPERM:
		return "not a file rcu_perf may change (see --help)";
	case -ELOOP:
		return "the path goes through a symlink or '..'";
	default:
		return strerror(-err);
	}
}

/* ------------------------------------------------------------------ */
/* The lock and the state files                                        */
/* ------------------------------------------------------------------ */

static int lock_timeout(double *out)
{
	const char *s = getenv("RCU_PERF_LOCK_TIMEOUT");
	char *end;

	*out = RP_LOCK_TIMEOUT_DEFAULT;
	if (!s || !*s)
		return 0;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end || !(*out >= 0) || *out > 1e6) {
		fprintf(stderr,
			"rcu_perf: bad RCU_PERF_LOCK_TIMEOUT '%s' (seconds)\n",
			s);
		return -EINVAL;
	}
	return 0;
}

/* rp_guard_nowait(): do not wait for the lock (-EBUSY instead). */
static bool lock_nowait;

void rp_guard_nowait(void)
{
	lock_nowait = true;
}

/*
 * Exclusive lock on <state dir>/lock: an fd, or -errno. The file is 0600
 * and only opened for writing: any descriptor can take flock(LOCK_EX), and
 * another user holding root's lock would make every root run wait and
 * SKIP. A run that cannot open it could not change anything anyway
 * (-EACCES): it goes on without the lock.
 */
static int take_lock(void)
{
	char path[PATH_MAX + 8], holder[32] = "";
	double timeout, deadline;
	bool waited = false;
	struct stat st;
	int fd, err;

	err = lock_timeout(&timeout);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/lock", state_dir);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	/* One made 0644 by an earlier version, or by a shell's ">>". */
	if (!fstat(fd, &st) && (st.st_mode & 077) && fchmod(fd, 0600)) {
		err = -errno;
		close(fd);
		return err;
	}
	deadline = rp_now_ms() / 1e3 + timeout;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			err = -errno;
			close(fd);
			return err;
		}
		if (lock_nowait) {
			close(fd);
			return -EBUSY;
		}
		if (!waited) {
			if (pread(fd, holder, sizeof(holder) - 1, 0) < 0)
				holder[0] = '\0';
			holder[strcspn(holder, "\n")] = '\0';
			printf("# waiting for %s (held by pid %s), up to %g s\n",
			       path, holder[0] ? holder : "?", timeout);
			fflush(stdout);
			waited = true;
		}
		if (rp_now_ms() / 1e3 >= deadline) {
			fprintf(stderr,
				"rcu_perf: timed out after %g s waiting for %s (held by pid %s)\n",
				timeout, path, holder[0] ? holder : "?");
			close(fd);
			return -ETIMEDOUT;
		}
		usleep(50000);
	}
	/* Who holds it, for the "waiting" line of the next one. */
	snprintf(holder, sizeof(holder), "%d\n", (int)getpid());
	if (!ftruncate(fd, 0) && pwrite(fd, holder, strlen(holder), 0) < 0)
		holder[0] = '\0';	/* only informative */
	return fd;
}

/* Start time of a process (clock ticks since boot), 0 if it is gone. */
static unsigned long long proc_start(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	int i, n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	n = rp_knob_read(path, buf, sizeof(buf));
	if (n <= 0)
		return 0;
	p = strrchr(buf, ')');	/* comm may contain spaces */
	if (!p)
		return 0;
	/* field 22 (starttime); p points at the end of field 2 */
	for (i = 2; i < 22 && p; i++)
		p = strchr(p + 1, ' ');
	if (p)
		start = strtoull(p + 1, NULL, 10);
	return start;
}

/*
 * A state file is stale when its process is gone; the start time in its
 * header line tells a recycled pid from the writer.
 */
static bool state_is_stale(const char *path, pid_t pid)
{
	unsigned long long start, recorded = 0;
	char line[128];
	FILE *f;

	if (pid == owner_pid && state_created)
		return false;			/* our own, live */
	if (pid == getpid())
		return true;			/* an earlier holder of our pid */
	if (kill(pid, 0) && errno == ESRCH)
		return true;
	start = proc_start(pid);
	if (!start)
		return true;
	f = fopen(path, "re");
	if (f) {
		if (fgets(line, sizeof(line), f))
			sscanf(line, "# rcu_perf guard pid %*d start %llu",
			       &recorded);
		fclose(f);
	}
	return recorded && recorded != start;
}

/*
 * Only what rp_tmpdir() makes is removed by a replay: an absolute path
 * ending in <name>.XXXXXX (mkdtemp()), no "." or ".." on the way, a
 * directory of ours and no symlink; not a tree a state line names.
 */
static bool made_by_tmpdir(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot = base ? strrchr(base, '.') : NULL;
	struct stat st;

	return path[0] == '/' && dot && dot > base + 1 &&
	       strspn(base + 1, "abcdefghijklmnopqrstuvwxyz_-0123456789") ==
	       (size_t)(dot - base - 1) && strlen(dot + 1) == 6 &&
	       !strstr(path, "/./") && !strstr(path, "/../") &&
	       !strstr(path, "//") && !lstat(path, &st) &&
	       S_ISDIR(st.st_mode) && st.st_uid == geteuid();
}

/* Replay one dead process's state file in reverse; returns knobs restored. */
static int replay(const char *path, pid_t pid)
{
	struct rp_entry *list = NULL, *e;
	int n = 0, cap = 0, restored = 0, i;
	char line[RP_PATH_LEN + RP_VAL_LEN + 16];
	unsigned long long start;
	FILE *f = NULL;
	int fd, pgrp;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		f = fdopen(fd, "r");
	if (!f) {
		if (fd >= 0)
			close(fd);
		unlink(path);	/* a symlink: not ours */
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		char *tab, *nl = strchr(line, '\n');

		if (!nl)	/* torn last line of a killed writer */
			break;
		*nl = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab = '\0';
		if (n == cap) {
			void *p;

			cap = cap ? cap * 2 : 16;
			p = realloc(list, cap * sizeof(*list));
			if (!p)
				break;
			list = p;
		}
		e = &list[n];
		memset(e, 0, sizeof(*e));
		if (!strcmp(line, RP_UMOUNT_TAG) &&
		    (!strcmp(tab + 1, tracefs_dirs[0]) ||
		     in_dir(tab + 1, test_dir))) {
			e->kind = RP_ENT_MOUNT;
			snprintf(e->path, sizeof(e->path), "%s", tab + 1);
		} else if (!strcmp(line, RP_RMTREE_TAG) &&
			   made_by_tmpdir(tab + 1)) {
			e->kind = RP_ENT_TMPDIR;
			snprintf(e->path, sizeof(e->path), "%s", tab + 1);
		} else if (!strcmp(line, RP_KILL_TAG)) {
			/* Only if its leader is still the process we forked. */
			if (sscanf(tab + 1, "%d %llu", &pgrp, &start) != 2 ||
			    pgrp <= 1 || !start || proc_start(pgrp) != start)
				continue;
			e->kind = RP_ENT_PGRP;
			e->pgrp = pgrp;
		} else if (line[0] == '/' &&
			   (!knob_check(line) ||
			    /* tracefs unmounted since: a private mount */
			    (knob_check(line) == -ENOENT &&
			     tracefs_index(line)))) {
			e->kind = RP_ENT_KNOB;
			e->tracefs = tracefs_index(line);
			memcpy(e->path, line, strlen(line) + 1);
			e->orig_len = snprintf(e->orig, sizeof(e->orig),
					       "%s\n", tab + 1);
			if (e->orig_len >= sizeof(e->orig))
				continue;
		} else {
			continue;
		}
		n++;
	}
	fclose(f);
	for (i = n - 1; i >= 0; i--) {
		e = &list[i];
		if (undo_entry(e))
			continue;	/* failed (said so) or nothing to do */
		if (e->kind == RP_ENT_MOUNT) {
			printf("# repaired: unmounted %s (left by pid %d)\n",
			       e->path, (int)pid);
		} else if (e->kind == RP_ENT_PGRP) {
			printf("# repaired: killed process group %d (left by pid %d)\n",
			       (int)e->pgrp, (int)pid);
		} else if (e->kind == RP_ENT_TMPDIR) {
			printf("# repaired: removed %s (left by pid %d)\n",
			       e->path, (int)pid);
		} else {
			e->orig[e->orig_len - 1] = '\0';
			printf("# repaired %s = %s (left by pid %d)\n",
			       e->path, e->orig, (int)pid);
			restored++;
		}
	}
	fflush(stdout);
	free(list);
	unlink(path);
	return restored;
}

static int repair_locked(void)
{
	char path[PATH_MAX + 300];
	struct dirent *d;
	int count = 0;
	DIR *dir;

	dir = opendir(state_dir);
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		char *end;
		long pid;

		if (strncmp(d->d_name, "state.", 6))
			continue;
		pid = strtol(d->d_name + 6, &end, 10);
		if (*end || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", state_dir, d->d_name);
		if (state_is_stale(path, (pid_t)pid))
			count += replay(path, (pid_t)pid);
	}
	closedir(dir);
	return count;
}

/*
 * The state files say what to write where when a killed run is repaired:
 * as root, their directory must be root's alone (not a symlink, not
 * writable by group or others).
 */
static int check_state_dir(void)
{
	struct stat st;

	if (lstat(state_dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (geteuid() == 0 && (st.st_uid != 0 || (st.st_mode & 022))) {
		printf("# guard: state dir %s is not root's alone (owner %d, mode %04o)\n",
		       state_dir, (int)st.st_uid, (int)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

static int setup_state_dir(void)
{
	const char *d = getenv("RCU_PERF_STATE_DIR");

	if (!d || !*d)
		d = RP_STATE_DIR_DEFAULT;
	if ((size_t)snprintf(state_dir, sizeof(state_dir), "%s", d) >=
	    sizeof(state_dir))
		return -ENAMETOOLONG;
	if (mkdir(state_dir, 0755) && errno != EEXIST)
		return -errno;
	return check_state_dir();
}

int rp_guard_repair(void)
{
	int fd = lock_fd, count;

	if (!state_dir[0] && setup_state_dir())
		return 0;
	if (fd < 0) {
		fd = take_lock();
		if (fd < 0)
			return 0;
	}
	count = guard_err ? 0 : repair_locked();
	if (fd != lock_fd)
		close(fd);
	return count;
}

static void install_one(int sig, const struct sigaction *sa)
{
	struct sigaction old;

	/* Leave alone what the program (or nohup) already decided. */
	if (!sigaction(sig, NULL, &old) && old.sa_handler == SIG_DFL &&
	    !(old.sa_flags & SA_SIGINFO))
		sigaction(sig, sa, NULL);
}

static void install_handlers(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = guard_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(guard_signals); i++)
		sigaddset(&sa.sa_mask, guard_signals[i]);
	for (i = 0; i < ARRAY_SIZE(guard_signals); i++)
		install_one(guard_signals[i], &sa);
	for (i = 0; i < ARRAY_SIZE(fault_signals); i++)
		install_one(fault_signals[i], &sa);
	atexit(guard_atexit);
}

/* Our state file, and where a restore may mount tracefs privately. */
static void set_paths(pid_t self)
{
	snprintf(state_path, sizeof(state_path), "%s/state.%d", state_dir,
		 (int)self);
	snprintf(private_tracefs, sizeof(private_tracefs), "%s/tracefs.%d",
		 state_dir, (int)self);
}

int rp_guard_init(void)
{
	pid_t self = getpid();
	int err;

	if (guard_ready && owner_pid == self)
		return init_err;
	if (guard_ready) {
		/*
		 * A forked child: the changes so far are its parent's to
		 * restore; it shares the parent's lock (same open file).
		 */
		__atomic_store_n(&nr_entries, 0, __ATOMIC_RELEASE);
		/* Another thread may have held it at the fork: not ours. */
		pthread_mutex_init(&guard_mutex, NULL);
		state_created = false;
		owner_pid = self;
		tracefs_looked = false;
		tracefs_dir[0] = '\0';
		set_paths(self);
		return guard_err;
	}
	owner_pid = self;
	if (!handlers_done) {
		install_handlers();
		handlers_done = true;
	}
	err = setup_state_dir();
	if (err) {
		/* Not root: nothing can be changed anyway; say why once. */
		printf("# guard: cannot use state dir %s: %s\n",
		       state_dir[0] ? state_dir : RP_STATE_DIR_DEFAULT,
		       strerror(-err));
		guard_err = err;
		guard_ready = true;
		return 0;
	}
	set_paths(self);
	if (lock_fd < 0) {
		lock_fd = take_lock();
		if (lock_fd == -ETIMEDOUT || lock_fd == -EINVAL) {
			/* An error for the caller; knob writes refused. */
			guard_err = lock_fd;
			init_err = lock_fd;
			lock_fd = -1;
			guard_ready = true;
			return init_err;
		}
		if (lock_fd == -EACCES) {
			/* Not root: another user's lock, nothing to change. */
		} else if (lock_fd == -EBUSY) {
			/* A reader beside the holder, which repaired at start. */
			printf("# guard: %s\n",
			       "another run holds the lock: not waiting, changing nothing");
		} else if (lock_fd < 0) {
			printf("# guard: cannot lock %s: %s\n", state_dir,
			       strerror(-lock_fd));
		}
		if (lock_fd < 0) {
			guard_err = lock_fd;
			lock_fd = -1;
			guard_ready = true;
			return 0;
		}
	}
	guard_ready = true;
	guard_err = 0;
	repair_locked();
	return 0;
}

/* Make the guard usable by this process: 0 or -errno. */
static int guard_get(void)
{
	int err;

	if (!guard_ready || owner_pid != getpid()) {
		err = rp_guard_init();
		if (err)
			return err;
	}
	return guard_err;
}

/* Append a line to our state file and fsync it: 0 or -errno. */
static int state_append(const char *line)
{
	char hdr[96];
	int fd, err = 0;
	size_t len;

	/* Our own file: a symlink or someone else's file there is refused. */
	fd = open(state_path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW |
		  (state_created ? 0 : O_CREAT | O_EXCL), 0600);
	if (fd < 0)
		return -errno;
	if (!state_created) {
		snprintf(hdr, sizeof(hdr), "# rcu_perf guard pid %d start %llu\n",
			 (int)owner_pid, proc_start(owner_pid));
		if (write(fd, hdr, strlen(hdr)) != (ssize_t)strlen(hdr))
			err = -EIO;
		state_created = true;
	}
	len = strlen(line);
	if (!err && write(fd, line, len) != (ssize_t)len)
		err = errno ? -errno : -EIO;
	if (!err && fsync(fd))
		err = -errno;
	close(fd);
	return err;
}

static struct rp_entry *find_entry(const char *path)
{
	int i;

	for (i = 0; i < nr_entries; i++)
		if (!entries[i].done && !strcmp(entries[i].path, path))
			return &entries[i];
	return NULL;
}

/* A name without control characters: it cannot plant a state line. */
static bool one_line(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/*
 * Record an entry (in the state file first), then publish it. A path with
 * a newline or a tab (a TMPDIR) would add a line that the next run
 * replays: refused.
 */
static int record(int kind, const char *path, const char *orig)
{
	char line[RP_PATH_LEN + RP_VAL_LEN + 16];
	struct rp_entry *e;
	int err;

	if (!one_line(path))
		return -EINVAL;
	if (nr_entries >= RP_MAX_ENTRIES)
		return -ENOSPC;
	e = &entries[nr_entries];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	snprintf(e->path, sizeof(e->path), "%s", path);
	if (kind == RP_ENT_KNOB) {
		e->orig_len = snprintf(e->orig, sizeof(e->orig), "%s\n", orig);
		e->tracefs = tracefs_index(path);
		snprintf(line, sizeof(line), "%s\t%s\n", path, orig);
	} else {
		if (kind == RP_ENT_PGRP)
			e->pgrp = atoi(path);
		snprintf(line, sizeof(line), "%s\t%s\n",
			 kind == RP_ENT_MOUNT ? RP_UMOUNT_TAG :
			 kind == RP_ENT_PGRP ? RP_KILL_TAG : RP_RMTREE_TAG,
			 path);
	}
	err = state_append(line);
	if (err)
		return err;
	__atomic_store_n(&nr_entries, nr_entries + 1, __ATOMIC_RELEASE);
	return 0;
}

static int knob_write_locked(const char *path, const char *value)
{
	char cur[RP_VAL_LEN + 2], orig[RP_VAL_LEN + 1], *buf;
	size_t len;
	int err;

	if (!find_entry(path)) {
		err = knob_check(path);
		if (err)
			return err;
		err = rp_knob_read(path, cur, sizeof(cur));
		if (err < 0)
			return err;
		if ((size_t)err >= sizeof(cur) - 1)
			return -E2BIG;
		err = restore_value(cur, orig, sizeof(orig));
		if (err)
			return err;
		err = record(RP_ENT_KNOB, path, orig);
		if (err)
			return err;
	}
	len = strlen(value);
	buf = malloc(len + 2);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, value, len);
	if (!len || value[len - 1] != '\n')
		buf[len++] = '\n';
	err = write_value(path, buf, len);
	free(buf);
	return err;
}

int rp_knob_write(const char *path, const char *value)
{
	sigset_t old;
	int err;

	if (!path || !value || path[0] != '/')
		return -EINVAL;
	if (strlen(path) >= RP_PATH_LEN || strlen(value) >= RP_VAL_LEN)
		return -ENAMETOOLONG;
	err = guard_get();
	if (err)
		return err;
	guard_lock(&old);
	err = change_begin();
	if (!err) {
		err = knob_write_locked(path, value);
		change_end();
	}
	guard_unlock(&old);
	return err;
}

/* record() by a change of its own (a directory, a mount, a child). */
static int record_change(int kind, const char *path)
{
	sigset_t old;
	int err;

	guard_lock(&old);
	err = change_begin();
	if (!err) {
		err = record(kind, path, NULL);
		change_end();
	}
	guard_unlock(&old);
	return err;
}

int rp_tmpdir(const char *parent, const char *name, char *buf, size_t len)
{
	char path[RP_PATH_LEN];
	int err;

	if (!parent || !*parent)
		parent = getenv("TMPDIR");
	if (!parent || !*parent)
		parent = "/tmp";
	if (!one_line(parent))
		return -EINVAL;
	if (snprintf(path, sizeof(path), "%s/%s.XXXXXX", parent, name) >=
	    (int)sizeof(path) || strlen(path) >= len)
		return -ENAMETOOLONG;
	if (!mkdtemp(path))
		return -errno;
	/* Without the guard (not root), the caller's own cleanup is all. */
	if (!guard_get()) {
		err = record_change(RP_ENT_TMPDIR, path);
		if (err) {
			rmdir(path);
			return err;
		}
	}
	memcpy(buf, path, strlen(path) + 1);
	return 0;
}

int rp_tmpdir_remove(const char *path)
{
	int err = rm_tree_at(AT_FDCWD, path, 0);

	if (err < 0)
		return err;
	rp_tmpdir_keep(path);	/* nothing left to remove */
	return 0;
}

void rp_tmpdir_keep(const char *path)
{
	struct rp_entry *e;
	sigset_t old;

	guard_lock(&old);
	e = find_entry(path);
	if (e && e->kind == RP_ENT_TMPDIR)
		e->done = 1;
	guard_unlock(&old);
}

pid_t rp_guard_fork(void)
{
	/* Without the guard (not root), a plain fork(): the terminal's ^C. */
	bool guarded = !guard_get();
	char id[48];
	sigset_t old;
	pid_t pid;
	int err;

	/* No signal between the fork and the record: the group is known. */
	block_signals(&old);
	pid = fork();
	if (!pid) {
		if (guarded)
			setpgid(0, 0);
		/*
		 * A helper to be killed changes no knobs, and must not keep
		 * the lock (an open file shared with us) after we die: the
		 * next run could not take it to kill the helper.
		 */
		if (lock_fd >= 0)
			close(lock_fd);
		lock_fd = -1;
		__atomic_store_n(&nr_entries, 0, __ATOMIC_RELEASE);
		pthread_mutex_init(&guard_mutex, NULL);
		state_created = false;
		owner_pid = getpid();
		guard_err = -EPERM;
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 0;
	}
	if (pid > 0 && guarded) {
		/* Also here: which of parent and child runs first is open. */
		setpgid(pid, pid);
		snprintf(id, sizeof(id), "%d %llu", (int)pid, proc_start(pid));
		err = record_change(RP_ENT_PGRP, id);
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
	int i, n;
	sigset_t old;

	guard_lock(&old);
	n = __atomic_load_n(&nr_entries, __ATOMIC_ACQUIRE);
	for (i = 0; i < n; i++)
		if (entries[i].kind == RP_ENT_PGRP && entries[i].pgrp == pid)
			entries[i].done = 1;
	/* Free the slots of finished children at the end (most runs). */
	while (n && entries[n - 1].done && entries[n - 1].kind == RP_ENT_PGRP)
		__atomic_store_n(&nr_entries, --n, __ATOMIC_RELEASE);
	guard_unlock(&old);
}

/* ------------------------------------------------------------------ */
/* tracefs                                                             */
/* ------------------------------------------------------------------ */

/*
 * Mount point of tracefs in /proc/mounts, or "".
 *
 * Not libapi's tracefs__mountpoint(): it statfs()es its list of usual
 * places, /sys/kernel/debug/tracing among them, and that lookup makes
 * debugfs automount tracefs there whenever tracefs is not mounted at
 * /sys/kernel/tracing: a mount made behind the guard, which can then
 * neither undo it nor mount its own private tracefs at /sys/kernel/tracing
 * (when tracefs was unmounted under a running program). Its
 * tracefs__mount() mounts without the guard recording it first, so a
 * SIGKILL would leave it. Reading /proc/mounts changes nothing.
 */
static void find_tracefs(char *out, size_t len)
{
	char dev[256], dir[RP_PATH_LEN], type[64];
	char line[1024];
	FILE *f = fopen("/proc/mounts", "re");

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %511s %63s", dev, dir, type) != 3)
			continue;
		if (strcmp(type, "tracefs"))
			continue;
		/* prefer the standard place if it is mounted twice */
		if (!out[0] || !strcmp(dir, "/sys/kernel/tracing"))
			snprintf(out, len, "%s", dir);
	}
	fclose(f);
}

const char *rp_tracefs(void)
{
	static const char std[] = "/sys/kernel/tracing";
	char dir[RP_PATH_LEN], probe[RP_PATH_LEN + 16];
	const char *debugfs;
	struct stat st;

	if (tracefs_looked)
		return tracefs_dir[0] ? tracefs_dir : NULL;
	find_tracefs(dir, sizeof(dir));
	if (dir[0]) {
		snprintf(tracefs_dir, sizeof(tracefs_dir), "%s", dir);
		tracefs_looked = true;
		return tracefs_dir;
	}
	if (!stat(std, &st) && S_ISDIR(st.st_mode) && !guard_get() &&
	    !record_change(RP_ENT_MOUNT, std)) {
		if (!mount("nodev", std, "tracefs", 0, NULL)) {
			snprintf(tracefs_dir, sizeof(tracefs_dir), "%s", std);
			tracefs_looked = true;
			return tracefs_dir;
		}
		/* Not mounted: nothing to undo (the umount is harmless). */
		entries[nr_entries - 1].done = 1;
	}
	/*
	 * Old kernels: tracing under debugfs. libapi's debugfs__mountpoint()
	 * only looks (statfs() of debugfs' usual places, then /proc/mounts).
	 */
	debugfs = debugfs__mountpoint();
	if (debugfs) {
		snprintf(probe, sizeof(probe), "%s/tracing/trace", debugfs);
		if (!access(probe, F_OK)) {
			snprintf(tracefs_dir, sizeof(tracefs_dir),
				 "%s/tracing", debugfs);
			tracefs_looked = true;
			return tracefs_dir;
		}
	}
	tracefs_looked = true;
	return NULL;
}

/* ------------------------------------------------------------------ */
/* CPUs                                                                */
/* ------------------------------------------------------------------ */

int rp_cpu_set_online(int cpu, bool online)
{
	char path[96];

	if (cpu < 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	if (!rp_knob_exists(path))
		return -ENOENT;	/* not hot-pluggable (often CPU 0) */
	return rp_knob_write(path, online ? "1" : "0");
}

static bool can_offline(int cpu)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	return rp_knob_exists(path);
}

int rp_cpus_fixed_first(int *cpus, int nr)
{
	int i, j, fixed = 0, tmp;

	/* A stable partition: rotate each fixed CPU to the front part. */
	for (i = 0; i < nr; i++) {
		if (can_offline(cpus[i]))
			continue;
		tmp = cpus[i];
		for (j = i; j > fixed; j--)
			cpus[j] = cpus[j - 1];
		cpus[fixed++] = tmp;
	}
	return fixed;
}

int rp_cpus_set_online(const int *cpus, int n, int nr)
{
	int i, err;

	for (i = 0; i < n; i++) {
		err = rp_cpu_set_online(cpus[i], true);
		if (err && err != -ENOENT)
			return err;
	}
	for (i = nr - 1; i >= n; i--) {
		err = rp_cpu_set_online(cpus[i], false);
		if (err)
			return err;
	}
	return 0;
}

/*
 * libperf's map of /sys/devices/system/cpu/online, read afresh (CPUs come
 * and go with the hotplug sweeps): the CPUs the tracepoint counters are
 * opened on (lib/counters.c). Without sysfs, libperf counts CPUs 0..N-1 of
 * sysconf(_SC_NPROCESSORS_ONLN); NULL only when that fails too.
 */
int rp_online_cpus(int *cpus, int max)
{
	struct perf_cpu_map *map = perf_cpu_map__new_online_cpus();
	int n, i;

	if (!map)
		return -ENOMEM;
	n = perf_cpu_map__nr(map);
	for (i = 0; cpus && i < n && i < max; i++)
		cpus[i] = perf_cpu_map__cpu(map, i).cpu;
	perf_cpu_map__put(map);
	return cpus && n > max ? max : n;
}

int rp_nr_online_cpus(void)
{
	return rp_online_cpus(NULL, 0);
}
