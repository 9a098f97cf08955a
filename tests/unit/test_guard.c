// SPDX-License-Identifier: GPL-2.0
/*
 * The guard (lib/guard.c) and its allow-list of knobs (lib/allow.c), on
 * temporary files only: the "knobs" are regular files in each test's
 * temporary directory, beside RCU_PERF_STATE_DIR.
 * Every way a guarded program can end is played by a child process (this
 * binary re-executed with "child MODE"), then the test checks the files.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/file.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>

#include "unit.h"

#define READY_FD	3

static char k1[300], k2[300], k3[300], statedir[300];

/* A file the test cannot write leaves nothing to check: fail at once. */
static void set_file(const char *path, const char *s)
{
	if (unit_write(path, s)) {
		fprintf(stderr, "# cannot write %s: %s\n", path,
			strerror(errno));
		exit(KSFT_FAIL);
	}
}

static bool file_is(const char *path, const char *want)
{
	char buf[256];

	if (rp_knob_read(path, buf, sizeof(buf)) < 0)
		return false;
	if (strcmp(buf, want)) {
		ksft_print_msg("%s is '%s', expected '%s'\n", path, buf, want);
		return false;
	}
	return true;
}

static void reset_files(void)
{
	set_file(k1, "orig1\n");
	set_file(k2, "orig2\n");
	set_file(k3, "a [b] c\n");
}

/*
 * k3 reads as a choice list "a [b] c" (like many sysfs files) and is
 * restored by writing the selected word, as a sysfs file expects.
 */
static bool originals(void)
{
	char buf[64];

	if (rp_knob_read(k3, buf, sizeof(buf)) < 0 ||
	    (strcmp(buf, "a [b] c") && strcmp(buf, "b"))) {
		ksft_print_msg("%s is '%s', expected 'b'\n", k3, buf);
		return false;
	}
	return file_is(k1, "orig1") && file_is(k2, "orig2");
}

static int nr_state_files(void)
{
	char cmd[400];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls %s | grep -c '^state\\.'", statedir);
	p = popen(cmd, "r");
	if (p) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* Children                                                            */
/* ------------------------------------------------------------------ */

static void ready(void)
{
	if (write(READY_FD, "r", 1) != 1)
		exit(90);
	close(READY_FD);
}

/* Change all three files; exit code 10+ on a failed expectation. */
static void change_all(void)
{
	if (rp_knob_write(k1, "new1") || rp_knob_write(k2, "new2") ||
	    rp_knob_write(k3, "c"))
		exit(10);
	if (!file_is(k1, "new1") || !file_is(k2, "new2") || !file_is(k3, "c"))
		exit(11);
	if (nr_state_files() != 1)
		exit(12);
}

static char tmp_path[400];

/*
 * A guarded child that forks a grandchild, both asleep; their pids go to
 * <dir>/group.pids.
 */
static void group_children(void)
{
	pid_t child, gc;
	char p[300];
	int pfd[2];
	FILE *f;

	if (pipe(pfd))
		exit(80);
	child = rp_guard_fork();
	if (child < 0)
		exit(81);
	if (!child) {
		gc = fork();
		if (!gc) {
			for (;;)
				pause();
		}
		if (write(pfd[1], &gc, sizeof(gc)) != sizeof(gc))
			_exit(1);
		for (;;)
			pause();
	}
	snprintf(p, sizeof(p), "%s/group.pids", unit_dir);
	f = fopen(p, "w");
	if (!f || read(pfd[0], &gc, sizeof(gc)) != sizeof(gc))
		exit(82);
	fprintf(f, "%d %d\n", (int)child, (int)gc);
	fclose(f);
}

/*
 * A guarded temporary directory with a subtree and a symlink to k3, which
 * must survive its removal; its path goes to <dir>/tmp.path.
 */
static void make_tmp_tree(void)
{
	char p[600];

	if (rp_tmpdir(unit_dir, "tmp", tmp_path, sizeof(tmp_path)))
		exit(60);
	snprintf(p, sizeof(p), "%s/a", tmp_path);
	if (mkdir(p, 0700))
		exit(61);
	snprintf(p, sizeof(p), "%s/a/b", tmp_path);
	if (mkdir(p, 0700))
		exit(62);
	snprintf(p, sizeof(p), "%s/a/b/f", tmp_path);
	set_file(p, "x\n");
	snprintf(p, sizeof(p), "%s/a/k3", tmp_path);
	if (symlink(k3, p))
		exit(63);
	snprintf(p, sizeof(p), "%s/tmp.path", unit_dir);
	set_file(p, tmp_path);
}

/* A thread that changes k1 until the process ends. */
static void *writer(void *arg)
{
	for (;;)
		rp_knob_write(k1, arg);
	return NULL;
}

static int child(const char *mode)
{
	if (!strcmp(mode, "symlink_state")) {	/* RP_T_ARG: the target */
		char path[400];

		snprintf(path, sizeof(path), "%s/state.%d", statedir,
			 (int)getpid());
		if (rp_guard_init() || symlink(getenv("RP_T_ARG"), path))
			exit(60);
		if (rp_knob_write(k1, "x") >= 0 || !file_is(k1, "orig1"))
			exit(61);
		unlink(path);
		return 0;
	}
	if (!strcmp(mode, "refused")) {	/* the guard refuses every change */
		if (rp_knob_write(k1, "x") >= 0 || !file_is(k1, "orig1"))
			exit(62);
		return 0;
	}
	if (!strcmp(mode, "return")) {
		change_all();
		return 0;
	}
	if (!strcmp(mode, "exit")) {
		change_all();
		exit(7);
	}
	if (!strcmp(mode, "wait")) {	/* killed by the parent */
		change_all();
		ready();
		for (;;)
			pause();
	}
	if (!strcmp(mode, "abort")) {	/* a crashing program */
		change_all();
		abort();
	}
	if (!strcmp(mode, "twice")) {
		/* k2 changed first, then k1 twice: k1's original survives */
		if (rp_knob_write(k2, "x") || rp_knob_write(k1, "y") ||
		    rp_knob_write(k1, "z") || rp_knob_write(k2, "w"))
			exit(10);
		if (!file_is(k1, "z") || !file_is(k2, "w"))
			exit(11);
		return 0;
	}
	if (!strcmp(mode, "idempotent")) {
		change_all();
		rp_guard_restore();
		if (!originals() || nr_state_files() != 0)
			exit(20);
		/* A second restore must not write the originals again. */
		set_file(k1, "other");
		rp_guard_restore();
		rp_guard_restore();
		if (!file_is(k1, "other"))
			exit(21);
		/* Guarding again after a restore works (restored at exit). */
		if (rp_guard_init() || rp_guard_init())
			exit(22);
		if (rp_knob_write(k2, "again") || !file_is(k2, "again"))
			exit(23);
		return 0;
	}
	if (!strcmp(mode, "bad")) {
		char sub[400];

		char link[400];

		/* Not on the list, or not there: refused before any change. */
		if (rp_knob_write("/nonexistent/rcu_perf/knob", "1") != -EPERM ||
		    rp_knob_write("/etc/passwd", "x") != -EPERM)
			exit(30);
		snprintf(sub, sizeof(sub), "%s/absent", unit_dir);
		if (rp_knob_write(sub, "1") != -ENOENT)
			exit(37);
		/* Allowed names reached through a symlink are refused. */
		snprintf(link, sizeof(link), "%s/link", unit_dir);
		if (symlink(k1, link) || rp_knob_write(link, "x") != -ELOOP ||
		    !file_is(k1, "orig1"))
			exit(38);
		snprintf(link, sizeof(link), "%s/dirlink", unit_dir);
		snprintf(sub, sizeof(sub), "%s/dirlink/k1", unit_dir);
		if (symlink(unit_dir, link) || rp_knob_write(sub, "x") != -EPERM)
			exit(39);
		if (rp_knob_write("relative/path", "1") != -EINVAL)
			exit(31);
		if (rp_knob_write(NULL, "1") != -EINVAL ||
		    rp_knob_write(k1, NULL) != -EINVAL)
			exit(32);
		if (rp_knob_write(unit_dir, "1") >= 0)	/* a directory */
			exit(33);
		snprintf(sub, sizeof(sub), "%s/multi", unit_dir);
		set_file(sub, "line1\nline2\n");	/* cannot be restored */
		if (rp_knob_write(sub, "x") != -EINVAL || !file_is(sub, "line1\nline2"))
			exit(34);
		if (rp_knob_read("/nonexistent/rcu_perf", sub, sizeof(sub)) != -ENOENT)
			exit(35);
		/* Nothing was changed, so nothing is recorded. */
		if (nr_state_files() != 0)
			exit(36);
		return 0;
	}
	if (!strcmp(mode, "fork")) {
		pid_t pid;
		int st;

		change_all();
		/* A forked child's exit must not restore its parent's knobs. */
		pid = fork();
		if (!pid)
			exit(0);
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
			exit(40);
		if (!file_is(k1, "new1") || nr_state_files() != 1)
			exit(41);
		/* Nor a child's guarded change the parent's: its own. */
		pid = fork();
		if (!pid) {
			if (rp_knob_write(k1, "grandchild"))
				_exit(1);
			exit(0);	/* restores k1 to "new1" */
		}
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			exit(42);
		if (!file_is(k1, "new1") || nr_state_files() != 1)
			exit(43);
		return 0;
	}
	if (!strcmp(mode, "group")) {	/* children that must die with us */
		group_children();
		ready();
		for (;;)
			pause();
	}
	if (!strcmp(mode, "reaped")) {	/* waited-for children free slots */
		int i, st;

		for (i = 0; i < 300; i++) {
			pid_t pid = rp_guard_fork();

			if (pid < 0)
				exit(70);
			if (!pid)
				_exit(0);
			if (waitpid(pid, &st, 0) != pid)
				exit(71);
			rp_guard_child_done(pid);
		}
		return 0;
	}
	if (!strcmp(mode, "hold")) {	/* hold the lock until killed */
		if (rp_guard_init())
			exit(50);
		ready();
		for (;;)
			pause();
	}
	if (!strcmp(mode, "lock")) {	/* try to get the lock */
		return rp_guard_init() ? 1 : 0;
	}
	if (!strcmp(mode, "threads")) {	/* exit while a thread writes */
		pthread_t t;

		if (rp_knob_write(k1, "main") ||
		    pthread_create(&t, NULL, writer, "thread"))
			exit(67);
		usleep(20000);
		exit(0);
	}
	if (!strcmp(mode, "tmpenv")) {	/* rp_tmpdir() in $TMPDIR, then dies */
		char p[1400];

		if (rp_guard_init())
			exit(65);
		/* _exit(): no restore, as after a SIGKILL */
		_exit(rp_tmpdir(NULL, "tmp", p, sizeof(p)) == -EINVAL ? 0 : 66);
	}
	if (!strncmp(mode, "tmp", 3)) {	/* a guarded temporary tree */
		make_tmp_tree();
		if (!strcmp(mode, "tmpkeep"))
			rp_tmpdir_keep(tmp_path);
		if (!strcmp(mode, "tmpremove") &&
		    (rp_tmpdir_remove(tmp_path) || !access(tmp_path, F_OK) ||
		     access(k3, F_OK)))
			exit(64);
		if (!strcmp(mode, "tmpwait")) {
			ready();
			for (;;)
				pause();
		}
		return 0;
	}
	return 99;
}

/* ------------------------------------------------------------------ */
/* Parent                                                              */
/* ------------------------------------------------------------------ */

/*
 * Run "this child MODE" with the extra environment assignment env (or
 * NULL) and stdout to out (or inherited). When wait_ready, return once it
 * said ready. -1 if it could not start.
 */
static pid_t spawn(const char *mode, const char *env, const char *out,
		   bool wait_ready)
{
	struct rlimit nocore = { 0, 0 };
	int pfd[2];
	char c;
	pid_t pid;

	if (pipe(pfd))
		return -1;
	pid = unit_fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(pfd[0]);
		if (dup2(pfd[1], READY_FD) < 0)
			_exit(91);
		/* SIGQUIT and SIGABRT dump core by default: not here */
		setrlimit(RLIMIT_CORE, &nocore);
		/*
		 * The guard leaves an inherited SIG_IGN alone (nohup), and a
		 * shell ignores SIGINT and SIGQUIT in its background jobs:
		 * the child must see the defaults a program normally starts
		 * with, whoever started make check.
		 */
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (env)
			putenv((char *)env);
		if (out) {
			int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
				_exit(92);
		}
		execl("/proc/self/exe", "test_knob", "child", mode, NULL);
		_exit(93);
	}
	close(pfd[1]);
	if (wait_ready && read(pfd[0], &c, 1) != 1)
		ksft_print_msg("child %s did not get ready\n", mode);
	close(pfd[0]);
	return pid;
}

/* Wait for pid; returns its status, or -1. */
static int reap(pid_t pid)
{
	int st = -1;

	if (pid <= 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

/* Run "this child MODE" to its end; its status. */
static int spawn_reap(const char *mode)
{
	return reap(spawn(mode, NULL, NULL, false));
}

static bool exited(int st, int code)
{
	if (WIFEXITED(st) && WEXITSTATUS(st) == code)
		return true;
	if (WIFEXITED(st))
		ksft_print_msg("child exit code %d, expected %d\n",
			       WEXITSTATUS(st), code);
	else if (WIFSIGNALED(st))
		ksft_print_msg("child died of signal %d\n", WTERMSIG(st));
	return false;
}

static bool killed_by(int st, int sig)
{
	if (WIFSIGNALED(st) && WTERMSIG(st) == sig)
		return true;
	ksft_print_msg("child status 0x%x, expected death by signal %d\n",
		       st, sig);
	return false;
}

/* Does the last child's temporary directory exist? */
static bool tmp_exists(void)
{
	char p[300], path[400] = "";
	FILE *f;

	snprintf(p, sizeof(p), "%s/tmp.path", unit_dir);
	f = fopen(p, "r");
	if (!f || !fgets(path, sizeof(path), f))
		ksft_print_msg("no %s\n", p);
	if (f)
		fclose(f);
	return path[0] && !access(path, F_OK);
}

/* Is pid alive (not gone, not a zombie), within a second? */
static bool alive(pid_t pid)
{
	char p[64], buf[256], *c;
	int i;

	for (i = 0; i < 100; i++) {
		snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
		if (rp_knob_read(p, buf, sizeof(buf)) <= 0)
			return false;
		c = strrchr(buf, ')');
		if (c && c[1] == ' ' && c[2] == 'Z')
			return false;
		usleep(10000);
	}
	return true;
}

/* The two pids group_children() wrote, both alive. */
static bool group_alive(pid_t *pids)
{
	char p[300];
	int a = 0, b = 0;
	FILE *f;

	snprintf(p, sizeof(p), "%s/group.pids", unit_dir);
	f = fopen(p, "r");
	if (!f || fscanf(f, "%d %d", &a, &b) != 2)
		a = 0;
	if (f)
		fclose(f);
	pids[0] = a;
	pids[1] = b;
	return a > 1 && b > 1 && alive(a) && alive(b);
}

static void set_paths(void)
{
	snprintf(k1, sizeof(k1), "%s/k1", unit_dir);
	snprintf(k2, sizeof(k2), "%s/k2", unit_dir);
	snprintf(k3, sizeof(k3), "%s/k3", unit_dir);
	snprintf(statedir, sizeof(statedir), "%s/state", unit_dir);
	rp_knob_allow_dir(unit_dir);
}

FIXTURE(guard) {
};

FIXTURE_SETUP(guard)
{
	ASSERT_EQ(0, unit_setup("rp_test_guard"));
	set_paths();
	setenv("RP_T_DIR", unit_dir, 1);
	setenv("RCU_PERF_STATE_DIR", statedir, 1);
	setenv("RCU_PERF_LOCK_TIMEOUT", "10", 1);
	ASSERT_EQ(0, mkdir(statedir, 0755));
	reset_files();
}

FIXTURE_TEARDOWN(guard)
{
	unit_teardown();
	EXPECT_EQ(0, unit_leaks());
}

TEST_F(guard, restore_on_return_from_main)
{
	EXPECT_TRUE(exited(spawn_reap("return"), 0));
	EXPECT_TRUE(originals());
	EXPECT_TRUE(file_is(k3, "b"));
	EXPECT_EQ(0, nr_state_files());
}

TEST_F(guard, restore_on_exit)
{
	EXPECT_TRUE(exited(spawn_reap("exit"), 7));
	EXPECT_TRUE(originals());
	EXPECT_EQ(0, nr_state_files());
}

/* Restore on the signal, then die of it. */
static void signal_restores(struct __test_metadata *_metadata, int sig)
{
	pid_t pid = spawn("wait", NULL, NULL, true);

	ASSERT_LT(0, pid);
	EXPECT_TRUE(file_is(k1, "new1"));	/* really changed while it ran */
	kill(pid, sig);
	EXPECT_TRUE(killed_by(reap(pid), sig));
	EXPECT_TRUE(originals());
	EXPECT_EQ(0, nr_state_files());
}

TEST_F(guard, restore_on_sigterm)
{
	signal_restores(_metadata, SIGTERM);
}

TEST_F(guard, restore_on_sigint)
{
	signal_restores(_metadata, SIGINT);
}

TEST_F(guard, restore_on_sighup)
{
	signal_restores(_metadata, SIGHUP);
}

TEST_F(guard, restore_on_sigquit)
{
	signal_restores(_metadata, SIGQUIT);
}

TEST_F(guard, restore_on_abort)
{
	EXPECT_TRUE(killed_by(spawn_reap("abort"), SIGABRT));
	EXPECT_TRUE(originals());
	EXPECT_EQ(0, nr_state_files());
}

/* A guarded child killed by SIGKILL: no handler ran. */
static void sigkill_child(struct __test_metadata *_metadata)
{
	pid_t pid = spawn("wait", NULL, NULL, true);

	ASSERT_LT(0, pid);
	kill(pid, SIGKILL);
	ASSERT_TRUE(killed_by(reap(pid), SIGKILL));
}

TEST_F(guard, sigkill_leaves_changes_and_state_file)
{
	sigkill_child(_metadata);
	EXPECT_TRUE(file_is(k1, "new1"));
	EXPECT_TRUE(file_is(k2, "new2"));
	EXPECT_EQ(1, nr_state_files());
}

/* rp_guard_repair() restores them and removes the state file. */
TEST_F(guard, repair_after_sigkill)
{
	sigkill_child(_metadata);
	EXPECT_EQ(3, rp_guard_repair());
	EXPECT_TRUE(originals());
	EXPECT_EQ(0, nr_state_files());
}

/* A run killed while it restored through a private tracefs (t23). */
TEST_F(guard, repair_removes_a_private_tracefs_left)
{
	pid_t pid = spawn("wait", NULL, NULL, true);
	char dir[400];

	ASSERT_LT(0, pid);
	snprintf(dir, sizeof(dir), "%s/tracefs.%d", statedir, (int)pid);
	ASSERT_EQ(0, mkdir(dir, 0700));
	kill(pid, SIGKILL);
	ASSERT_TRUE(killed_by(reap(pid), SIGKILL));
	EXPECT_EQ(3, rp_guard_repair());
	EXPECT_NE(0, access(dir, F_OK));
	EXPECT_EQ(0, nr_state_files());
}

TEST_F(guard, second_repair_finds_nothing)
{
	sigkill_child(_metadata);
	rp_guard_repair();
	EXPECT_EQ(0, rp_guard_repair());
	EXPECT_TRUE(originals());
}

/* Same file written twice: its first original restored. */
TEST_F(guard, written_twice)
{
	EXPECT_TRUE(exited(spawn_reap("twice"), 0));
	EXPECT_TRUE(originals());
	EXPECT_EQ(0, nr_state_files());
}

/* Restore is idempotent, init safe to call twice. */
TEST_F(guard, idempotent)
{
	EXPECT_TRUE(exited(spawn_reap("idempotent"), 0));
	EXPECT_TRUE(file_is(k1, "other"));
	EXPECT_TRUE(file_is(k2, "orig2"));
	EXPECT_EQ(0, nr_state_files());
}

/* Bad paths and unguardable files: errors, no change. */
TEST_F(guard, bad_paths)
{
	EXPECT_TRUE(exited(spawn_reap("bad"), 0));
	EXPECT_TRUE(originals());
}

/* Forked children restore only their own changes. */
TEST_F(guard, fork)
{
	EXPECT_TRUE(exited(spawn_reap("fork"), 0));
	EXPECT_TRUE(originals());
	EXPECT_EQ(0, nr_state_files());
}

static bool file_has(const char *path, const char *needle)
{
	char buf[4096];

	return rp_knob_read(path, buf, sizeof(buf)) >= 0 &&
	       strstr(buf, needle);
}

/* Lock held: a second program times out. */
TEST_F(guard, lock_held_times_out)
{
	char out[300];
	pid_t holder;

	snprintf(out, sizeof(out), "%s/lock.out", unit_dir);
	holder = spawn("hold", NULL, NULL, true);
	ASSERT_LT(0, holder);
	EXPECT_TRUE(exited(reap(spawn("lock", "RCU_PERF_LOCK_TIMEOUT=0.3", out,
				      false)), 1));
	EXPECT_TRUE(file_has(out, "# waiting for "));
	kill(holder, SIGTERM);
	reap(holder);
}

/* A waiter gets the lock when the holder ends. */
TEST_F(guard, lock_waiter_proceeds_once_holder_dies)
{
	char out[300];
	pid_t holder, waiter;

	snprintf(out, sizeof(out), "%s/lock.out", unit_dir);
	holder = spawn("hold", NULL, NULL, true);
	ASSERT_LT(0, holder);
	waiter = spawn("lock", "RCU_PERF_LOCK_TIMEOUT=60", out, false);
	usleep(300000);
	kill(holder, SIGTERM);
	EXPECT_TRUE(killed_by(reap(holder), SIGTERM));
	EXPECT_TRUE(exited(reap(waiter), 0));
}

/*
 * Another user cannot hold root's lock (0600, even one made 0644 before):
 * the root run goes on without waiting.
 */
TEST_F(guard, lock_not_held_by_another_user)
{
	char lock[400], out[300];
	struct stat st;
	pid_t pid;
	int fd;

	if (geteuid())
		SKIP(return, "another user's flock (not root)");
	snprintf(lock, sizeof(lock), "%s/lock", statedir);
	snprintf(out, sizeof(out), "%s/lock.out", unit_dir);
	set_file(lock, "");
	ASSERT_EQ(0, chmod(lock, 0644));
	ASSERT_EQ(0, chmod(unit_dir, 0755));	/* nobody reaches the lock */
	EXPECT_TRUE(exited(spawn_reap("lock"), 0));
	ASSERT_EQ(0, stat(lock, &st));
	EXPECT_EQ(0600U, st.st_mode & 0777);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (setgid(65534) || setuid(65534))
			_exit(1);
		fd = open(lock, O_RDONLY);
		if (fd < 0)
			_exit(errno == EACCES ? 0 : 2);
		if (!flock(fd, LOCK_EX))
			pause();	/* holds it: the root run would wait */
		_exit(3);
	}
	usleep(200000);
	EXPECT_TRUE(exited(reap(spawn("lock", "RCU_PERF_LOCK_TIMEOUT=0.3", out,
				      false)), 0));
	EXPECT_FALSE(file_has(out, "# waiting for "));
	kill(pid, SIGKILL);
	EXPECT_TRUE(exited(reap(pid), 0));
}

TEST_F(guard, bad_lock_timeout_is_an_error)
{
	char out[300];

	snprintf(out, sizeof(out), "%s/lock.out", unit_dir);
	EXPECT_TRUE(exited(reap(spawn("lock", "RCU_PERF_LOCK_TIMEOUT=abc", out,
				      false)), 1));
}

/* A dead process's state file: pid of a reaped child. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	reap(pid);
	return pid;
}

/* The start time of pid 1 (field 22 of its stat). */
static unsigned long long init_start(void)
{
	unsigned long long start = 0;
	FILE *f = fopen("/proc/1/stat", "r");

	if (f) {
		char buf[1024], *p = NULL;
		int i;

		if (fgets(buf, sizeof(buf), f))
			p = strrchr(buf, ')');
		for (i = 2; p && i < 22; i++)	/* field 22: starttime */
			p = strchr(p + 1, ' ');
		if (p)
			start = strtoull(p + 1, NULL, 10);
		fclose(f);
	}
	return start;
}

/* pid 1 is alive but started at another time: a recycled pid. */
TEST_F(guard, state_of_recycled_pid_repaired)
{
	char path[400], line[1400];

	snprintf(path, sizeof(path), "%s/state.1", statedir);
	snprintf(line, sizeof(line), "# rcu_perf guard pid 1 start %llu\n%s\tlive\n",
		 init_start() + 1, k1);
	set_file(path, line);
	EXPECT_EQ(1, rp_guard_repair());
	EXPECT_TRUE(file_is(k1, "live"));
	EXPECT_EQ(0, nr_state_files());
}

/* pid 1 with its real start time is a live owner: left alone. */
TEST_F(guard, state_of_live_process_left_alone)
{
	char path[400], line[1400];

	snprintf(path, sizeof(path), "%s/state.1", statedir);
	snprintf(line, sizeof(line), "# rcu_perf guard pid 1 start %llu\n%s\tnot\n",
		 init_start(), k1);
	set_file(path, line);
	EXPECT_EQ(0, rp_guard_repair());
	EXPECT_TRUE(file_is(k1, "orig1"));
	EXPECT_EQ(1, nr_state_files());
	unlink(path);
}

/*
 * A dead owner's state file that also records a mount (of tracefs in
 * mnt, if that could be mounted here); repaired. Replay order: reverse;
 * a torn last line is ignored.
 */
static int replay_state(const char *mnt, bool *mounted)
{
	char path[400], line[1400];

	mkdir(mnt, 0755);
	*mounted = !mount("nodev", mnt, "tracefs", 0, NULL);
	snprintf(path, sizeof(path), "%s/state.%d", statedir, (int)dead_pid());
	snprintf(line, sizeof(line),
		 "# rcu_perf guard pid 0 start 0\n@umount\t%s\n%s\tfirst\n%s\tsecond\n%s\ttorn",
		 mnt, k2, k2, k1);
	set_file(path, line);
	return rp_guard_repair();
}

TEST_F(guard, replay_in_reverse_torn_line_ignored)
{
	char mnt[300];
	bool mounted;

	snprintf(mnt, sizeof(mnt), "%s/mnt", unit_dir);
	EXPECT_EQ(2, replay_state(mnt, &mounted));
	EXPECT_TRUE(file_is(k2, "first"));
	EXPECT_TRUE(file_is(k1, "orig1"));
	EXPECT_EQ(0, nr_state_files());
	if (mounted)
		umount2(mnt, MNT_DETACH);
}

/* A state line can name only a directory rp_tmpdir() made for removal. */
TEST_F(guard, replay_removes_only_tmpdirs)
{
	char victim[400], path[400], line[1400];

	snprintf(victim, sizeof(victim), "%s/victim", unit_dir);
	ASSERT_EQ(0, mkdir(victim, 0700));
	snprintf(path, sizeof(path), "%s/state.%d", statedir, (int)dead_pid());
	snprintf(line, sizeof(line),
		 "# rcu_perf guard pid 0 start 0\n@rmtree\t%s\n@rmtree\t%s/../victim.abcdef\n",
		 victim, victim);
	set_file(path, line);
	rp_guard_repair();
	EXPECT_EQ(0, access(victim, F_OK));
	EXPECT_EQ(0, nr_state_files());
}

/*
 * A newline in TMPDIR would plant "@rmtree\t<victim>" in the state file
 * for the next run to replay: refused, nothing replayed.
 */
TEST_F(guard, tmpdir_newline_refused)
{
	char victim[400], evil[1000], env[1100], *p;

	snprintf(victim, sizeof(victim), "%s/victim", unit_dir);
	ASSERT_EQ(0, mkdir(victim, 0700));
	snprintf(evil, sizeof(evil), "%s/x\n@rmtree\t%s\n#", unit_dir, victim);
	for (p = evil + strlen(unit_dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(evil, 0700);
		*p = '/';
	}
	ASSERT_EQ(0, mkdir(evil, 0700));
	snprintf(env, sizeof(env), "TMPDIR=%s", evil);
	EXPECT_TRUE(exited(reap(spawn("tmpenv", env, NULL, false)), 0));
	rp_guard_repair();
	EXPECT_EQ(0, access(victim, F_OK));
	EXPECT_EQ(0, nr_state_files());
}

TEST_F(guard, repair_unmounts_a_recorded_mount)
{
	struct stat a, b;
	char mnt[300];
	bool mounted;

	snprintf(mnt, sizeof(mnt), "%s/mnt", unit_dir);
	replay_state(mnt, &mounted);
	if (!mounted)
		SKIP(return, "repair unmounts (cannot mount tracefs here)");
	/* Unmounted: the directory is on the same device as its parent. */
	ASSERT_EQ(0, stat(mnt, &a));
	ASSERT_EQ(0, stat(unit_dir, &b));
	EXPECT_EQ(a.st_dev, b.st_dev);
	umount2(mnt, MNT_DETACH);
}

/* The exit's restore is the last word: no thread changes a knob after it. */
TEST_F(guard, restore_at_exit_while_a_thread_writes)
{
	int i;

	for (i = 0; i < 20; i++) {
		EXPECT_TRUE(exited(spawn_reap("threads"), 0));
		EXPECT_TRUE(file_is(k1, "orig1"));
		EXPECT_EQ(0, nr_state_files());
	}
}

/* rp_tmpdir: removed with its contents at exit, symlinks not followed. */
TEST_F(guard, tmpdir_removed_at_exit)
{
	EXPECT_TRUE(exited(spawn_reap("tmpdir"), 0));
	EXPECT_FALSE(tmp_exists());
	EXPECT_TRUE(file_is(k3, "a [b] c"));
	EXPECT_EQ(0, nr_state_files());
}

TEST_F(guard, tmpdir_left_by_sigkill_removed_by_next_run)
{
	pid_t pid = spawn("tmpwait", NULL, NULL, true);

	ASSERT_LT(0, pid);
	kill(pid, SIGKILL);
	EXPECT_TRUE(killed_by(reap(pid), SIGKILL));
	EXPECT_TRUE(tmp_exists());
	rp_guard_repair();
	EXPECT_FALSE(tmp_exists());
	EXPECT_EQ(0, nr_state_files());
}

/* rp_tmpdir_remove: gone at once, nothing left to restore. */
TEST_F(guard, tmpdir_remove)
{
	EXPECT_TRUE(exited(spawn_reap("tmpremove"), 0));
	EXPECT_FALSE(tmp_exists());
	EXPECT_EQ(0, nr_state_files());
}

TEST_F(guard, tmpdir_keep)
{
	EXPECT_TRUE(exited(spawn_reap("tmpkeep"), 0));
	EXPECT_TRUE(tmp_exists());
}

/* rp_guard_fork: child and grandchild killed on SIGTERM. */
TEST_F(guard, guard_fork_group_killed_on_sigterm)
{
	pid_t pid = spawn("group", NULL, NULL, true), pids[2];

	ASSERT_LT(0, pid);
	EXPECT_TRUE(group_alive(pids));
	kill(pid, SIGTERM);
	EXPECT_TRUE(killed_by(reap(pid), SIGTERM));
	EXPECT_FALSE(alive(pids[0]));
	EXPECT_FALSE(alive(pids[1]));
	EXPECT_EQ(0, nr_state_files());
}

/* rp_guard_fork: left by SIGKILL, killed by the next run. */
TEST_F(guard, guard_fork_group_killed_by_next_run)
{
	pid_t pid = spawn("group", NULL, NULL, true), pids[2];

	ASSERT_LT(0, pid);
	kill(pid, SIGKILL);
	EXPECT_TRUE(killed_by(reap(pid), SIGKILL));
	EXPECT_TRUE(group_alive(pids));
	rp_guard_repair();
	EXPECT_FALSE(alive(pids[0]));
	EXPECT_FALSE(alive(pids[1]));
	EXPECT_EQ(0, nr_state_files());
}

/* rp_guard_fork: 300 children waited for, no slot left used. */
TEST_F(guard, guard_fork_reaped_children_free_slots)
{
	EXPECT_TRUE(exited(spawn_reap("reaped"), 0));
	EXPECT_EQ(0, nr_state_files());
}

/* Only the RCU, tracing and hotplug files, by their spelling. */
TEST_F(guard, allowlist)
{
	static const char * const yes[] = {
		"/sys/kernel/rcu_expedited",
		"/sys/kernel/rcu_normal",
		"/sys/module/rcutree/parameters/jiffies_till_first_fqs",
		"/sys/module/rcupdate/parameters/rcu_expedited",
		"/sys/kernel/tracing/current_tracer",
		"/sys/devices/system/cpu/cpu0/online",
		"/sys/devices/system/cpu/cpu127/online",
	};
	static const char * const no[] = {
		"", "/", "/etc/passwd", "sys/kernel/rcu_normal",
		"/sys/kernel/rcu_normal/", "/sys/kernel//rcu_normal",
		"/sys/kernel/rcu_expedited2", "/sys/kernel/./rcu_normal",
		"/sys/module/rcutree/parameters/",
		"/sys/module/rcutree/parameters/..",
		"/sys/module/rcutree/parameters/../../../etc/passwd",
		"/sys/module/rcutree/parameters/x/y",
		"/sys/module/rcutorture/parameters/torture_type",
		"/sys/kernel/tracing/trace", "/sys/kernel/tracing/set_event",
		"/sys/kernel/tracing/instances/x/current_tracer",
		"/sys/kernel/debug/tracing/tracing_on",
		"/sys/devices/system/cpu/cpu/online",
		"/sys/devices/system/cpu/cpu01/online",
		"/sys/devices/system/cpu/cpu1/online/x",
		"/sys/devices/system/cpu/cpu1/../cpu2/online",
		"/sys/devices/system/cpu/cpu-1/online",
		"/proc/sys/kernel/core_pattern",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		EXPECT_EQ(0, rp_knob_allowed(yes[i]))
			TH_LOG("refused: %s", yes[i]);
	}
	for (i = 0; i < ARRAY_SIZE(no); i++) {
		EXPECT_EQ(-EPERM, rp_knob_allowed(no[i]))
			TH_LOG("allowed: '%s'", no[i]);
	}
	EXPECT_EQ(-EPERM, rp_knob_allowed(NULL));
}

/* State files: private, never through a symlink; a shared dir refused. */
TEST_F(guard, state_files_private)
{
	char path[400];
	struct stat st;
	pid_t pid;

	pid = spawn("wait", NULL, NULL, true);
	ASSERT_LT(0, pid);
	snprintf(path, sizeof(path), "%s/state.%d", statedir, (int)pid);
	EXPECT_EQ(0, stat(path, &st));
	EXPECT_EQ(0600U, st.st_mode & 0777);
	kill(pid, SIGKILL);
	reap(pid);
	rp_guard_repair();
	EXPECT_TRUE(originals());
}

TEST_F(guard, symlink_at_state_file_not_followed)
{
	char target[400], env[420];

	snprintf(target, sizeof(target), "%s/target", unit_dir);
	set_file(target, "untouched\n");
	snprintf(env, sizeof(env), "RP_T_ARG=%s", target);
	EXPECT_TRUE(exited(reap(spawn("symlink_state", env, NULL, false)), 0));
	EXPECT_TRUE(file_is(target, "untouched"));
	EXPECT_TRUE(originals());
}

TEST_F(guard, shared_state_dir_refused_as_root)
{
	if (geteuid())
		SKIP(return, "shared state dir refused (not root)");
	chmod(statedir, 0777);
	EXPECT_TRUE(exited(spawn_reap("refused"), 0));
	chmod(statedir, 0755);
	EXPECT_TRUE(originals());
	EXPECT_EQ(0, nr_state_files());
}

TEST_F(guard, online_cpus)
{
	int cpus[1024], n, i;

	n = rp_online_cpus(cpus, 1024);
	TH_LOG("online CPUs: %d", n);
	EXPECT_EQ(rp_nr_online_cpus(), n);
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_ONLN), n);
	for (i = 1; i < n; i++)
		EXPECT_GT(cpus[i], cpus[i - 1]);
}

/* Real ids (sysfs has them), and a short array gets the first. */
TEST_F(guard, online_cpu_ids_in_sysfs_lists_truncate)
{
	int cpus[1024], one[1] = { -1 }, n, i;
	char p[96];

	n = rp_online_cpus(cpus, 1024);
	ASSERT_LT(0, n);
	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d",
			 cpus[i]);
		EXPECT_EQ(0, access(p, F_OK)) TH_LOG("%s: %s", p,
						     strerror(errno));
	}
	EXPECT_EQ(1, rp_online_cpus(one, 1));
	EXPECT_EQ(cpus[0], one[0]);
}

/* Is tracefs in /proc/mounts (at /sys/kernel/tracing: *std)? */
static bool tracefs_mounted(bool *std)
{
	char dev[256], dir[512], type[64], line[1024];
	FILE *f = fopen("/proc/mounts", "re");
	bool any = false;

	*std = false;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %511s %63s", dev, dir, type) != 3 ||
		    strcmp(type, "tracefs"))
			continue;
		any = true;
		*std |= !strcmp(dir, "/sys/kernel/tracing");
	}
	if (f)
		fclose(f);
	return any;
}

/*
 * Where tracefs is mounted, rp_tracefs() finds it (the standard place
 * first) and mounts nothing; with none mounted it would mount one at
 * /sys/kernel/tracing through the guard, which t23_tracefs_gone.sh tests
 * live: here the test mounts one of its own in its directory instead,
 * in a mount namespace of the test's process alone: on a shared machine
 * another program's rp_tracefs() would find it too, and lose it at the
 * umount. Each test runs in a process of its own, so rp_tracefs() has not
 * looked yet. No ASSERT: the mount is undone before the teardown, which
 * does not go into mounts.
 */
TEST_F(guard, tracefs_finds_the_mounted_tracefs)
{
	char mnt[UNIT_DIR_MAX + 8];
	bool std, ours = false;
	struct statfs sfs;
	const char *t;

	if (!tracefs_mounted(&std)) {
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
			SKIP(return, "rp_tracefs: none mounted, no mount namespace");
		snprintf(mnt, sizeof(mnt), "%s/tfs", unit_dir);
		mkdir(mnt, 0755);
		ours = !mount("nodev", mnt, "tracefs", 0, NULL);
	}
	if (!tracefs_mounted(&std))
		SKIP(return, "rp_tracefs: none mounted, cannot mount one");
	t = rp_tracefs();
	TH_LOG("rp_tracefs: %s", t ? t : "(none)");
	EXPECT_TRUE(t && t == rp_tracefs());
	if (t) {
		EXPECT_EQ(0, statfs(t, &sfs));
		EXPECT_EQ((long)TRACEFS_MAGIC, (long)sfs.f_type);
		/* mounted elsewhere only: any tracefs will do */
		EXPECT_STREQ(std ? "/sys/kernel/tracing" : ours ? mnt : t, t);
	}
	if (ours)
		umount2(mnt, MNT_DETACH);
}

/* "child MODE": play one of the guarded programs above, in the test's dir. */
int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "child")) {
		const char *d = getenv("RP_T_DIR");

		snprintf(unit_dir, UNIT_DIR_MAX, "%s",
			 d ? d : "/nonexistent");
		set_paths();
		return child(argv[2]);
	}
	return test_harness_run(argc, argv);
}
