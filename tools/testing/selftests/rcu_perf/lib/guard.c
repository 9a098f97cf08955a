// SPDX-License-Identifier: GPL-2.0
/*
 * The guard: a change is first recorded in the fsync'ed <state dir>/state.<pid>
 * and undone in reverse; flock on <state dir>/lock lets one program at a time
 * change knobs. The signal path uses only buffers built before the change; a
 * mutex orders changes and restores.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define RP_STATE_DIR_DEFAULT	"/run/rcu_perf"
/* The runner kills a program at 120 s (settings): wait a third of that. */
#define RP_LOCK_TIMEOUT_DEFAULT	40.0
#define RP_MAX_ENTRIES		128

struct rp_entry {
	int kind;
	int done;
	const char *tracer;	/* a tracer file's name: rp_tracer_file() */
	pid_t pgrp;		/* RP_ENT_PGRP: the group (its leader's pid) */
	char path[RP_PATH_LEN];
	char orig[RP_VAL_LEN + 1];	/* restore value, '\n'-terminated */
	size_t orig_len;
};

/*
 * A state file line: "<knob path>\t<value>", else "<tag>\t<path>"; what
 * a replay says it did; what an undo says it could not do.
 */
static const struct {
	const char *tag, *done, *undo;
} ents[] = {
	[RP_ENT_KNOB] = { NULL, NULL, "restore" },
	[RP_ENT_MOUNT] = { "@umount", "unmounted", "unmount" },
	[RP_ENT_TMPDIR] = { "@rmtree", "removed", "remove" },
	[RP_ENT_PGRP] = { "@kill", "killed process group", NULL },
};

/* false if the restore value did not fit */
static bool fill_entry(struct rp_entry *e, int kind, const char *path, const char *orig)
{
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	snprintf(e->path, sizeof(e->path), "%s", path);
	if (kind == RP_ENT_PGRP)
		e->pgrp = atoi(path);
	if (kind != RP_ENT_KNOB)
		return true;
	e->tracer = rp_tracer_file(path);
	e->orig_len = snprintf(e->orig, sizeof(e->orig), "%s\n", orig);
	return e->orig_len < sizeof(e->orig);
}

/*
 * Shared with the signal handler (__atomic): nr_entries (an entry is
 * complete before it is counted), restoring; closing (no change may
 * start), changing (one in flight: set before closing is read, so that the
 * signal path, which sets closing before it reads changing, refuses it or
 * waits for it); dying (a handler runs: the process ends of that signal).
 */
static struct rp_entry entries[RP_MAX_ENTRIES];
static int nr_entries, restoring, closing, changing, dying;
static pthread_mutex_t guard_mutex = PTHREAD_MUTEX_INITIALIZER;

static char state_dir[PATH_MAX - 64];
static char state_path[PATH_MAX];
static char private_tracefs[PATH_MAX];	/* restores when tracefs is gone */
static bool state_created;
static int lock_fd = -1;
static pid_t owner_pid;		/* whose changes we hold; 0: no guard yet */
static int guard_err;		/* why knob writes are refused, or 0 */
static int init_err;		/* the lock could not be taken */

/* Signal-safe: stpcpy() is, and the path is shorter than RP_PATH_LEN. */
static void report_restore_error(const char *what, const char *path, int err)
{
	char msg[RP_PATH_LEN + 96], num[12], *d = num + sizeof(num) - 1, *p;

	*d = '\0';
	do {	/* -err's digits, the last first */
		*--d = '0' - err % 10;
	} while (err /= 10);
	p = stpcpy(msg, "rcu_perf: guard: cannot ");
	p = stpcpy(stpcpy(stpcpy(p, what), " "), path);
	p = stpcpy(stpcpy(stpcpy(p, ": errno "), d), "\n");
	if (write(STDERR_FILENO, msg, p - msg) < 0)
		return;		/* nowhere to say it */
}

/*
 * A tracer file whose tracefs someone unmounted: restored through a mount
 * of our own in the state dir (tracefs is one instance wherever mounted).
 */
static int restore_private_tracefs(const struct rp_entry *e)
{
	char path[sizeof(private_tracefs) + 32];	/* "/current_tracer" */
	int err;

	if (!private_tracefs[0])
		return -ENOENT;
	if (mkdir(private_tracefs, 0700) && errno != EEXIST)
		return -errno;
	err = mount("nodev", private_tracefs, "tracefs",
		    MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) ? -errno : 0;
	if (!err) {
		stpcpy(stpcpy(stpcpy(path, private_tracefs), "/"), e->tracer);
		err = rp_write_value(path, e->orig, e->orig_len);
		umount2(private_tracefs, MNT_DETACH | UMOUNT_NOFOLLOW);
	}
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
		err = rp_rm_tree(e->path);
	} else if (e->kind == RP_ENT_MOUNT) {
		/* Lazy: our own tracepoint fds may still pin the mount. */
		err = umount2(e->path, MNT_DETACH) ? -errno : 0;
		if (err == -EINVAL)	/* not (or no longer) a mount point */
			return 1;
	} else {
		err = rp_write_value(e->path, e->orig, e->orig_len);
		if (err == -ENOENT && e->tracer)
			err = restore_private_tracefs(e);
	}
	if (err < 0)
		report_restore_error(ents[e->kind].undo, e->path, err);
	return err;
}

/* async-signal-safe */
static void do_restore(void)
{
	int i, failed = 0;

	if (syscall(SYS_getpid) != owner_pid ||
	    __atomic_exchange_n(&restoring, 1, __ATOMIC_ACQ_REL))
		return;
	for (i = __atomic_load_n(&nr_entries, __ATOMIC_ACQUIRE) - 1; i >= 0; i--) {
		if (!entries[i].done && undo_entry(&entries[i]) < 0)
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
	sigset_t set;
	int i;

	/* Another thread may be restoring (signals blocked): let it end first. */
	__atomic_store_n(&dying, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&closing, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < 5000 && (__atomic_load_n(&restoring, __ATOMIC_ACQUIRE) ||
				 __atomic_load_n(&changing, __ATOMIC_SEQ_CST)); i++)
		nanosleep(&ms, NULL);
	do_restore();
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

/*
 * Signals that end the program by default: restore, then die of them.
 * All but the faults (the last NR_FAULTS) are blocked while restoring.
 */
static const int guard_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2,
	SIGXCPU, SIGXFSZ,
	SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS,
};

#define NR_FAULTS	6
#define NR_BLOCKED	(ARRAY_SIZE(guard_signals) - NR_FAULTS)

void rp_guard_block_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < NR_BLOCKED; i++)
		sigaddset(&set, guard_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* No guard signal in a thread that holds the mutex: no self-deadlock. */
static void guard_lock(sigset_t *old)
{
	rp_guard_block_signals(old);
	pthread_mutex_lock(&guard_mutex);
}

static void guard_unlock(sigset_t *old)
{
	pthread_mutex_unlock(&guard_mutex);
	sigprocmask(SIG_SETMASK, old, NULL);
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
	int i;

	/* A handler in another thread restores and kills: let it. */
	for (i = 0; i < 10000 && syscall(SYS_getpid) == owner_pid &&
	     __atomic_load_n(&dying, __ATOMIC_SEQ_CST); i++)
		nanosleep(&ms, NULL);
	/* A change in flight ends before the restore; none starts after. */
	__atomic_store_n(&closing, 1, __ATOMIC_SEQ_CST);
	rp_guard_restore();
}

/* What restores a value read (cut in place): a choice list's "[word]" */
static const char *restore_value(char *read)
{
	char *lb = strchr(read, '['), *rb = lb ? strchr(lb, ']') : NULL;

	if (!rb || rb == lb + 1 || strchr(rb + 1, '['))
		return read;
	*rb = '\0';
	return lb + 1;
}

/* -EBUSY instead of waiting for the lock */
static bool lock_nowait;

void rp_guard_nowait(void)
{
	lock_nowait = true;
}

/*
 * Exclusive lock on <state dir>/lock: an fd, or -errno. 0600: any
 * descriptor can take flock(LOCK_EX), and another user holding root's lock
 * would make every root run SKIP.
 */
static int take_lock(void)
{
	const char *env = getenv("RCU_PERF_LOCK_TIMEOUT");
	char path[PATH_MAX + 8], holder[32] = "", *end;
	double timeout = RP_LOCK_TIMEOUT_DEFAULT, deadline;
	bool waited = false;
	struct stat st;
	int fd, err;

	if (env && *env) {
		errno = 0;
		timeout = strtod(env, &end);
		if (errno || *end || !(timeout >= 0) || timeout > 1e6) {
			fprintf(stderr,
				"rcu_perf: bad RCU_PERF_LOCK_TIMEOUT '%s' (seconds)\n", env);
			return -EINVAL;
		}
	}
	snprintf(path, sizeof(path), "%s/lock", state_dir);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	/* One made 0644 by an earlier version, or by a shell's ">>". */
	if (!fstat(fd, &st) && (st.st_mode & 077) && fchmod(fd, 0600)) {
		err = -errno;
		goto fail;
	}
	deadline = rp_now_ms() / 1e3 + timeout;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		err = errno == EWOULDBLOCK || errno == EINTR ? -EBUSY : -errno;
		if (err != -EBUSY || lock_nowait)
			goto fail;
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
			err = -ETIMEDOUT;
			goto fail;
		}
		usleep(50000);
	}
	/* Who holds it, for the "waiting" line of the next one. */
	snprintf(holder, sizeof(holder), "%d\n", (int)getpid());
	if (!ftruncate(fd, 0) && pwrite(fd, holder, strlen(holder), 0) < 0)
		holder[0] = '\0';	/* only informative */
	return fd;
fail:
	close(fd);
	return err;
}

/* Its writer gone: the start time in its header tells a recycled pid */
static bool state_is_stale(const char *path, pid_t pid)
{
	unsigned long long start, recorded;
	char line[128] = "";

	if (pid == owner_pid && state_created)
		return false;			/* our own, live */
	if (pid == getpid())
		return true;			/* an earlier holder of our pid */
	start = rp_proc_start(pid);
	if (!start)
		return true;			/* gone */
	rp_knob_read(path, line, sizeof(line));	/* its header line first */
	return sscanf(line, "# rcu_perf guard pid %*d start %llu",
		      &recorded) == 1 && recorded && recorded != start;
}

/* A replay removes only what rp_tmpdir() makes, not any tree a line names */
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
	char line[RP_PATH_LEN + RP_VAL_LEN + 16], id[16], *arg, *nl;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	int n = 0, restored = 0, kind, pgrp, err;
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	struct rp_entry *list = NULL, *e;
	unsigned long long start;

	if (!f) {
		if (fd >= 0)
			close(fd);
		unlink(path);	/* a symlink: not ours */
		return 0;
	}
	/* up to a torn last line of a killed writer */
	while (fgets(line, sizeof(line), f) && (nl = strchr(line, '\n'))) {
		*nl = '\0';
		arg = strchr(line, '\t');
		if (line[0] == '#' || !arg)
			continue;
		*arg++ = '\0';
		for (kind = RP_ENT_PGRP; kind && strcmp(line, ents[kind].tag); kind--)
			;
		if (kind == RP_ENT_PGRP) {
			/* Only if its leader is still the process we forked. */
			if (sscanf(arg, "%d %llu", &pgrp, &start) != 2 ||
			    pgrp <= 1 || !start || rp_proc_start(pgrp) != start)
				continue;
			snprintf(id, sizeof(id), "%d", pgrp);
			arg = id;
		} else if (kind == RP_ENT_KNOB) {
			err = rp_knob_check(line);
			/* tracefs unmounted since: a private mount */
			if (err && (err != -ENOENT || !rp_tracer_file(line)))
				continue;
		} else if (kind == RP_ENT_MOUNT ? !rp_knob_mount_allowed(arg) :
			   !made_by_tmpdir(arg)) {
			continue;
		}
		list = rp_xgrow(list, n, sizeof(*list));
		n += fill_entry(&list[n], kind, kind ? arg : line, arg);
	}
	fclose(f);
	while (n-- > 0) {
		e = &list[n];
		if (undo_entry(e))
			continue;	/* failed (said so) or nothing to do */
		if (e->kind != RP_ENT_KNOB) {
			printf("# repaired: %s %s (left by pid %d)\n",
			       ents[e->kind].done, e->path, (int)pid);
			continue;
		}
		e->orig[e->orig_len - 1] = '\0';
		printf("# repaired %s = %s (left by pid %d)\n", e->path, e->orig, (int)pid);
		restored++;
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
		int pid, end = 0;

		if (sscanf(d->d_name, "state.%d%n", &pid, &end) != 1 || d->d_name[end] || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", state_dir, d->d_name);
		if (!state_is_stale(path, pid))
			continue;
		count += replay(path, pid);
		/* Killed inside restore_private_tracefs(): its mount point, or mount */
		snprintf(path, sizeof(path), "%s/tracefs.%d", state_dir, pid);
		umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW);
		rmdir(path);
	}
	closedir(dir);
	return count;
}

/* The state files say what to write where: as root, root's alone. */
static int setup_state_dir(void)
{
	const char *d = getenv("RCU_PERF_STATE_DIR");
	struct stat st;

	if (!d || !*d)
		d = RP_STATE_DIR_DEFAULT;
	if ((size_t)snprintf(state_dir, sizeof(state_dir), "%s", d) >= sizeof(state_dir))
		return -ENAMETOOLONG;
	if ((mkdir(state_dir, 0755) && errno != EEXIST) || lstat(state_dir, &st))
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

/* rp_guard_init()'s repair, counted, in a process without the guard */
int rp_guard_repair(void)
{
	int fd = setup_state_dir() ?: take_lock(), count = 0;

	if (fd >= 0) {
		count = repair_locked();
		close(fd);
	}
	return count;
}

static void install_handlers(void)
{
	struct sigaction sa = { .sa_handler = guard_signal }, old;
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NR_BLOCKED; i++)
		sigaddset(&sa.sa_mask, guard_signals[i]);
	/* Leave alone what the program (or nohup) already decided. */
	for (i = 0; i < ARRAY_SIZE(guard_signals); i++)
		if (!sigaction(guard_signals[i], NULL, &old) &&
		    old.sa_handler == SIG_DFL && !(old.sa_flags & SA_SIGINFO))
			sigaction(guard_signals[i], &sa, NULL);
	atexit(guard_atexit);
}

/*
 * The guard is this process's: a forked child's entries are its parent's
 * to restore, and its mutex may have been copied locked.
 */
static void new_owner(void)
{
	pid_t self = getpid();

	__atomic_store_n(&nr_entries, 0, __ATOMIC_RELEASE);
	pthread_mutex_init(&guard_mutex, NULL);
	state_created = false;
	snprintf(state_path, sizeof(state_path), "%s/state.%d", state_dir, (int)self);
	snprintf(private_tracefs, sizeof(private_tracefs), "%s/tracefs.%d", state_dir, (int)self);
	owner_pid = self;
}

int rp_guard_init(void)
{
	int err;

	if (owner_pid == getpid())
		return init_err;
	if (owner_pid) {
		/* A forked child: it shares the parent's lock (same file). */
		new_owner();
		return guard_err;
	}
	install_handlers();	/* once: owner_pid is set below */
	err = setup_state_dir();
	if (err) {
		/* Not root: nothing can be changed anyway; say why once. */
		printf("# guard: cannot use state dir %s: %s\n", state_dir, strerror(-err));
	} else {
		lock_fd = take_lock();
		err = lock_fd < 0 ? lock_fd : 0;
		/* A timeout or a bad RCU_PERF_LOCK_TIMEOUT: the caller's. */
		if (err == -ETIMEDOUT || err == -EINVAL)
			init_err = err;
		else if (err == -EBUSY)	/* a reader beside the holder, which repaired */
			printf("# guard: %s\n",
			       "another run holds the lock: not waiting, changing nothing");
		else if (err && err != -EACCES)
			printf("# guard: cannot lock %s: %s\n", state_dir, strerror(-err));
	}
	guard_err = err;
	new_owner();	/* set up: rp_guard_get() answers now */
	if (!err)
		repair_locked();
	return init_err;
}

int rp_guard_get(void)
{
	return (owner_pid != getpid() ? rp_guard_init() : 0) ?: guard_err;
}

/* "key\tval\n" (the header first) appended and fsync'ed; no symlink: 0, -errno */
static int state_append(const char *key, const char *val)
{
	char line[96 + RP_PATH_LEN + RP_VAL_LEN + 16];
	int fd, err = 0, hdr = 0, n;

	fd = open(state_path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW |
		  (state_created ? 0 : O_CREAT | O_EXCL), 0600);
	if (fd < 0)
		return -errno;
	if (!state_created)
		hdr = snprintf(line, sizeof(line),
			       "# rcu_perf guard pid %d start %llu\n",
			       (int)owner_pid, rp_proc_start(owner_pid));
	state_created = true;
	n = hdr + snprintf(line + hdr, sizeof(line) - hdr, "%s\t%s\n", key, val);
	if (write(fd, line, n) != n)	/* the header's failure: -EIO */
		err = errno && !hdr ? -errno : -EIO;
	if (!err && fsync(fd))
		err = -errno;
	close(fd);
	return err;
}

/*
 * In the state file first, then published. A path with a newline or a tab
 * (a TMPDIR) would add a line that the next run replays: refused.
 */
static int record(int kind, const char *path, const char *orig)
{
	int err;

	if (!rp_one_line(path))
		return -EINVAL;
	if (nr_entries >= RP_MAX_ENTRIES)
		return -ENOSPC;
	fill_entry(&entries[nr_entries], kind, path, orig);
	err = state_append(kind ? ents[kind].tag : path, kind ? path : orig);
	if (err)
		return err;
	__atomic_store_n(&nr_entries, nr_entries + 1, __ATOMIC_RELEASE);
	return 0;
}

static int knob_write_locked(const char *path, const char *value)
{
	char cur[RP_VAL_LEN + 2], buf[RP_VAL_LEN + 1];
	size_t len = strlen(value);
	int err, i;

	for (i = 0; i < nr_entries; i++)
		if (!entries[i].done && !strcmp(entries[i].path, path))
			break;
	if (i == nr_entries) {
		err = rp_knob_check(path) ?: rp_knob_read(path, cur, sizeof(cur));
		/* -EINVAL: a value that cannot be written back */
		if (err >= 0)
			err = err >= (int)sizeof(cur) - 1 ? -E2BIG :
			      cur[strcspn(cur, "\n\t")] ? -EINVAL :
			      record(RP_ENT_KNOB, path, restore_value(cur));
		if (err)
			return err;
	}
	memcpy(buf, value, len);
	if (!len || value[len - 1] != '\n')
		buf[len++] = '\n';
	return rp_write_value(path, buf, len);
}

/* A knob write, or record() of a change of its own: unless closing. */
static int change(int kind, const char *path, const char *value)
{
	sigset_t old;
	int err = -ESHUTDOWN;

	guard_lock(&old);
	__atomic_store_n(&changing, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&closing, __ATOMIC_SEQ_CST))
		err = kind == RP_ENT_KNOB ? knob_write_locked(path, value) :
		      record(kind, path, NULL);
	__atomic_store_n(&changing, 0, __ATOMIC_SEQ_CST);
	guard_unlock(&old);
	return err;
}

int rp_knob_write(const char *path, const char *value)
{
	if (!path || !value || path[0] != '/')
		return -EINVAL;
	if (strlen(path) >= RP_PATH_LEN || strlen(value) >= RP_VAL_LEN)
		return -ENAMETOOLONG;
	return rp_guard_get() ?: change(RP_ENT_KNOB, path, value);
}

int rp_guard_record(int kind, const char *path)
{
	return change(kind, path, NULL);
}

void rp_guard_forget(int kind, const char *path, pid_t pgrp)
{
	int i, n;
	sigset_t old;

	guard_lock(&old);
	n = __atomic_load_n(&nr_entries, __ATOMIC_ACQUIRE);
	for (i = 0; i < n; i++)
		if (entries[i].kind == kind &&
		    (path ? !strcmp(entries[i].path, path) : entries[i].pgrp == pgrp))
			entries[i].done = 1;
	/* Free the slots of finished children at the end (most runs). */
	while (n && entries[n - 1].done && entries[n - 1].kind == RP_ENT_PGRP)
		__atomic_store_n(&nr_entries, --n, __ATOMIC_RELEASE);
	guard_unlock(&old);
}

/* In a child of rp_guard_fork(): it neither changes nor locks. */
void rp_guard_disown(void)
{
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
	new_owner();
	guard_err = -EPERM;
}
