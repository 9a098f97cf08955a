// SPDX-License-Identifier: GPL-2.0
/*
 * dcache_scaling: does path lookup scale with CPUs, as dcache_rcu (Linux
 * 2.5.62) made it? Each lookup workload is judged by its serial share
 * between a parallel and a serial (one global lock) control timed in the
 * same run. Lookups that all drop to ref-walk take a lockref per dentry:
 * their 1-CPU rates against a baseline show that cost.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <linux/magic.h>

#include "rcu_perf.h"

static struct rp_param p_serial_fraction_min =
	RP_MIN("serial_fraction_min", "ratio", 0.5,
	       "one global lock: ~1 (efficiency 1/N); lower, the harness runs nothing serially");
static struct rp_param p_stat_private_serial_max =
	RP_MAX("stat_private_serial_max", "share", 0.5,
	       "rcu-walk of private paths stores to nothing shared: ~0; halfway to one lock fails");
static struct rp_param p_stat_shared_serial_max =
	RP_MAX("stat_shared_serial_max", "share", 0.9,
	       "one lockref on the shared final dentry is a part of each op, not all of it");
static struct rp_param p_negative_serial_max =
	RP_MAX("negative_serial_max", "share", 0.5,
	       "rcu-walk finds cached negative dentries taking no reference: ~0");
static struct rp_param p_open_shared_serial_max =
	RP_MAX("open_shared_serial_max", "share", 0.9,
	       "lockref + struct file: a few bounced lines per op, not the whole op");
static struct rp_param p_dotdot_symlink_serial_max =
	RP_MAX("dotdot_symlink_serial_max", "share", 0.5,
	       "\"..\" and fast symlinks stay in rcu-walk: ~0");
static struct rp_param p_baseline_change =
	RP_BASELINE_CHANGE(10, "1-CPU lookup rates of repeat runs agree within ~5%");
static struct rp_param p_baseline_alpha = RP_BASELINE_ALPHA;
static struct rp_param p_parallel_efficiency_min = RP_PARALLEL_EFFICIENCY_MIN;
static struct rp_param p_serialize_lookups =
	RP_SETTING("serialize_lookups", "bool", 0,
		   "1: one global lock around each lookup, as dcache_lock did (proves the checks)");
static struct rp_param p_sample_ms =
	RP_SETTING("sample_ms", "ms", 150,
		   "one sample; x reps x 2 points x 7 workloads ~ 12 s on 2 CPUs; --quick: /proc/stat's 10 ms ticks need ~100",
		   RP_QUICK(100), RP_RANGE(1, 60000));
static struct rp_param p_reps =
	RP_SETTING("reps", "count", 5,
		   "samples per point (N=1: up to whole rounds of the CPUs); the best stands, interference only slows",
		   RP_QUICK(4), RP_RANGE(1, 1000));
static struct rp_param p_max_disturbance =
	RP_SETTING("max_disturbance", "ratio", 0.1,
		   "other tasks' share of the workers' CPUs above which a sample is re-taken");
static struct rp_param p_time_budget =
	RP_SETTING("time_budget", "s", 50,
		   "sampling stops after this; bounds a run on a busy machine below 120 s",
		   RP_QUICK(20));
static struct rp_param p_confirm_time =
	RP_SETTING("confirm_time", "s", 15,
		   "after the budget: re-measure a point before it FAILs (luck of the samples)");
static struct rp_param p_depth =
	RP_SETTING("depth", "dirs", 8,
		   "directories in each deep path (>= 6 for the .. and symlink walk)",
		   RP_RANGE(6, 64));
static struct rp_param p_max_cpus =
	RP_SETTING("max_cpus", "CPUs", 0, "largest N of the sweep; 0 = all online CPUs");
static struct rp_param p_dir =
	RP_PATH("dir", "DIR",
		"create the temporary tree under DIR (default $TMPDIR or /tmp)", RP_DIR);
static const char *control_ok(const char *name);
static struct rp_param p_control =
	RP_STRING("control", "WORKLOAD",
		  "put WORKLOAD in the serial control's place (to test the guard)",
		  RP_EACH(control_ok));

static struct rp_param *params[] = {
	&p_parallel_efficiency_min, &p_serial_fraction_min,
	&p_stat_private_serial_max, &p_stat_shared_serial_max,
	&p_negative_serial_max, &p_open_shared_serial_max,
	&p_dotdot_symlink_serial_max, &p_baseline_change, &p_baseline_alpha,
	&p_serialize_lookups, &p_sample_ms, &p_reps, &p_max_disturbance,
	&p_time_budget, &p_confirm_time, &p_depth, &p_max_cpus, &p_dir,
	&p_control, NULL
};

/* The lookup workloads' checks, in their order (W_STAT_PRIVATE on). */
static const char * const checks[] = {
	"stat_private_efficiency",
	"stat_shared_efficiency", "negative_efficiency",
	"open_shared_efficiency", "dotdot_symlink_efficiency", NULL
};

/* With --baseline: each lookup's rate on one CPU, present on every machine. */
static const char * const baseline_metrics[] = {
	"stat_private.n1.ops", "stat_shared.n1.ops", "negative.n1.ops",
	"open_shared.n1.ops", "dotdot_symlink.n1.ops", NULL
};

static const struct rp_test test = {
	.name = "dcache_scaling",
	.baseline = baseline_metrics,
	/* a host drifting in memory speed moves every one-CPU rate */
	.baseline_shared_drift = true,
	/* a busy host slows the control's loop and fstat(); slower lookups do not */
	.baseline_control = "parallel.n1.ops",
	.summary = "path lookup throughput on 1, 2, 4, ... CPUs: rcu-walk must scale",
	.params = params,
	.nr_checks = ARRAY_SIZE(checks) - 1,
	.checks = checks,
};

#define NR_NEG_NAMES	64	/* negative: the missing names it cycles through */
#define CONTROL_STEPS	64	/* the controls' multiply-adds per fstat() */
#define WARMUP_MS	20
#define MAX_ATTEMPTS	4

struct worker {
	unsigned long ops;	/* __atomic: the worker writes, main reads */
	pthread_t thread;
	clockid_t clock;	/* its CPU time */
	pid_t tid;
	int cpu;
	int err;		/* first unexpected error, -errno */
	int k;			/* negative: which missing name */
	int fd;			/* controls: the worker's own open file */
	unsigned long x;	/* controls: the user-space work's state */
	bool moved;		/* lost its CPU (hotplug) during the sample */
	double cpu_s, delay_s;	/* CPU and run-queue time (thread_times()) */
	char path[PATH_MAX];	/* keeps the workers' ops cache lines apart */
};

struct workload {
	const char *name;
	/* serial share limit; NULL: a control, unlocked by serialize_lookups */
	const struct rp_param *limit;
	int (*op)(struct worker *w);
	const char *leaf;	/* in the shared tree; NULL: the worker's file */
	bool walk;		/* through ".." and the symlink */
	bool serial;		/* one global lock around each op */
};

/* Sizes that keep every path below PATH_MAX. */
static char root[1024];		/* the private temporary directory */
static char deep[1024];		/* d0/d1/.../d<depth-1> */
static char walk[1024];		/* the same through ".." and a symlink */

static int op_stat(struct worker *w)
{
	struct stat st;

	return stat(w->path, &st) ? -errno : 0;
}

static int op_negative(struct worker *w)
{
	size_t len = strlen(w->path);
	struct stat st;

	w->k = (w->k + 1) % NR_NEG_NAMES;
	w->path[len - 2] = '0' + w->k / 10;
	w->path[len - 1] = '0' + w->k % 10;
	if (!stat(w->path, &st))
		return -EEXIST;
	return errno == ENOENT ? 0 : -errno;
}

static int op_open(struct worker *w)
{
	int fd = open(w->path, O_RDONLY);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * The controls' op: a dependent chain of multiply-adds in user space
 * (~100 ns) and fstat() of the worker's own open file. With a private fd
 * table fdget() takes no reference, and file, dentry and inode are the
 * worker's: nothing is shared with the other workers.
 */
static int op_control(struct worker *w)
{
	unsigned long x = w->x;
	struct stat st;
	int i;

	for (i = 0; i < CONTROL_STEPS; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	w->x = x;
	return fstat(w->fd, &st) ? -errno : 0;
}

enum { W_PARALLEL, W_SERIAL, W_STAT_PRIVATE, W_STAT_SHARED, W_NEGATIVE,
	W_OPEN_SHARED, W_DOTDOT_SYMLINK, NR_WORKLOADS };

#define LOOKUP(n, fn, ...) \
	{ .name = #n, .limit = &p_##n##_serial_max, .op = (fn), __VA_ARGS__ }

/* Indexed by the enum; the serial slot may be replaced (--control). */
static struct workload wls[NR_WORKLOADS] = {
	[W_PARALLEL] = { .name = "parallel", .op = op_control },
	[W_SERIAL] = { .name = "serial", .op = op_control, .serial = true },
	[W_STAT_PRIVATE] = LOOKUP(stat_private, op_stat),
	[W_STAT_SHARED] = LOOKUP(stat_shared, op_stat, .leaf = "file"),
	[W_NEGATIVE] = LOOKUP(negative, op_negative, .leaf = "missing-00"),
	[W_OPEN_SHARED] = LOOKUP(open_shared, op_open, .leaf = "file"),
	[W_DOTDOT_SYMLINK] = LOOKUP(dotdot_symlink, op_stat, .walk = true),
};

static const char *control_ok(const char *name)
{
	int w;

	for (w = 0; w < NR_WORKLOADS; w++)
		if (!strcmp(name, wls[w].name))
			return NULL;
	return "no such workload";
}

/*
 * <root>/<sub>/d0/.../d<depth-1>/file, and in d2 a symlink "l3" -> "d3":
 * the walk path "d0/d1/../d1/d2/l3/d4/../d4/d5/..." reaches the same file.
 */
static int make_deep(const char *sub)
{
	char p[PATH_MAX], *s;
	int fd;

	snprintf(p, sizeof(p), "%s/%s/%s/", root, sub, deep);
	for (s = strchr(p + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(p, 0700))
			return -errno;
		*s = '/';
	}
	snprintf(p, sizeof(p), "%s/%s/d0/d1/d2/l3", root, sub);
	if (symlink("d3", p))
		return -errno;
	snprintf(p, sizeof(p), "%s/%s/%s/file", root, sub, deep);
	fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0600);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static void remove_tree(void)
{
	rp_workdir_remove(root);
}

/*
 * p0 .. p<nworkers - 1>, one a worker, and s, the shared one. Returns the
 * reason negative lookups cannot be judged here, or NULL.
 */
static const char *make_tree(int nworkers)
{
	static const struct { long magic; const char *name; } fs[] = {
		{ EXT4_SUPER_MAGIC, "ext2/3/4" }, { XFS_SUPER_MAGIC, "xfs" },
		{ BTRFS_SUPER_MAGIC, "btrfs" }, { TMPFS_MAGIC, "tmpfs" },
		{ RAMFS_MAGIC, "ramfs" }, { OVERLAYFS_SUPER_MAGIC, "overlayfs" },
		{ NFS_SUPER_MAGIC, "nfs" }, { 0, "other" },
	};
	static char why[160];
	int i, d = 0, k = 0, err = 0;
	struct statfs sfs;
	char sub[16];

	rp_workdir(p_dir.str, "dcache_scaling", root, sizeof(root));
	atexit(remove_tree);
	for (i = 0; i < (int)p_depth.value; i++) {
		d += snprintf(deep + d, sizeof(deep) - d, "%sd%d", i ? "/" : "", i);
		/* d1, d4: down, up, down again; l3: through the symlink */
		if (i == 1 || i == 4)
			k += snprintf(walk + k, sizeof(walk) - k, "/d%d/..", i);
		k += snprintf(walk + k, sizeof(walk) - k, "%s%c%d",
			      i ? "/" : "", i == 3 ? 'l' : 'd', i);
	}
	for (i = 0; i <= nworkers && !err; i++) {
		snprintf(sub, sizeof(sub), "p%d", i);
		err = make_deep(i < nworkers ? sub : "s");
	}
	if (err)
		rp_fatal("cannot create the tree in %s: %s", root, strerror(-err));

	if (statfs(root, &sfs))
		rp_fatal("statfs %s: %s", root, strerror(errno));
	for (i = 0; fs[i].magic && fs[i].magic != sfs.f_type; i++)
		;
	rp_info("tree", "%s (%s)", root, fs[i].name);
	if (sfs.f_type == TMPFS_MAGIC || sfs.f_type == RAMFS_MAGIC)
		return rp_why(why, sizeof(why),
			      "%s does not keep negative dentries (every miss takes the directory lock): use --dir on a disk filesystem",
			      fs[i].name);
	return NULL;
}

/* One point (N = sw.pts[p] workers) of one workload. */
struct point {
	struct rp_samples rate;	/* ops/s of each accepted sample */
	struct rp_samples turn;	/* and the repetition it was */
	double best;		/* the best of them */
	double ops, secs;	/* totals over the accepted samples */
	double user, sys;	/* CPU seconds, totals */
	int rejected;
	double least_busy;	/* lowest disturbance of a rejected sample */
};

static struct point res[NR_WORKLOADS][RP_SWEEP_POINTS];
static struct worker *workers;
static int stop_flag;		/* __atomic */
static pthread_barrier_t start_barrier;
static const struct workload *cur_wl;
static struct rp_sweep sw;	/* the CPUs of the sweep, in order of use */
/* Per CPU id: CPU time before and after a sample. */
static struct rp_cpu_time *ct0, *ct1;
static int nr_cpu_ids, reps;
static double deadline_ms;
/* The serial control's lock, and the lookups' with serialize_lookups=1. */
static pthread_spinlock_t big_lock;

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct workload *wl = cur_wl;
	bool lock = wl->serial || (p_serialize_lookups.value && wl->limit);
	int err = rp_pin_self(w->cpu);
	cpu_set_t set;

	/* Offline (someone else's hotplug): a spoiled sample, not an error. */
	w->moved = err == -EINVAL || (!err && sched_getcpu() != w->cpu);
	if (w->moved)
		err = 0;
	/* A private fd table: open/close must not meet on files->file_lock. */
	if (!err && unshare(CLONE_FILES))
		err = -errno;
	w->fd = -1;
	if (!err && wl->op == op_control) {
		w->fd = open(w->path, O_RDONLY | O_CLOEXEC);
		if (w->fd < 0)
			err = -errno;
	}
	w->tid = syscall(SYS_gettid);
	pthread_barrier_wait(&start_barrier);
	while (!err && !w->moved && !__atomic_load_n(&stop_flag, __ATOMIC_RELAXED)) {
		if (lock)
			pthread_spin_lock(&big_lock);
		err = wl->op(w);
		if (lock)
			pthread_spin_unlock(&big_lock);
		if (!err)
			__atomic_store_n(&w->ops, w->ops + 1, __ATOMIC_RELAXED);
	}
	w->err = err;
	if (w->fd >= 0)
		close(w->fd);
	/* Someone else's CPU hotplug breaks the pinning: not our sample. */
	if (!err && !w->moved)
		w->moved = sched_getcpu() != w->cpu ||
			   pthread_getaffinity_np(pthread_self(), sizeof(set), &set) ||
			   CPU_COUNT(&set) != 1 || !CPU_ISSET(w->cpu, &set);
	return NULL;
}

/*
 * Each worker's CPU time and its wait on a run queue (schedstat,
 * CONFIG_SCHED_INFO; NAN where the kernel does not tell): now, or with
 * @since those of the last call subtracted.
 */
static void thread_times(int n, bool since)
{
	unsigned long long run, delay;
	char path[64], buf[128];
	struct timespec ts;
	struct worker *w;
	double c, d;

	for (w = workers; w < workers + n; w++) {
		c = clock_gettime(w->clock, &ts) ? NAN : ts.tv_sec + ts.tv_nsec / 1e9;
		snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)w->tid);
		d = rp_knob_read(path, buf, sizeof(buf)) < 0 ||
		    sscanf(buf, "%llu %llu", &run, &delay) != 2 ? NAN : delay / 1e9;
		w->cpu_s = since ? c - w->cpu_s : c;
		w->delay_s = since ? d - w->delay_s : d;
	}
}

static unsigned long ops_now(int n)
{
	unsigned long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += __atomic_load_n(&workers[i].ops, __ATOMIC_RELAXED);
	return sum;
}

static double tv_s(const struct timeval *tv)
{
	return tv->tv_sec + tv->tv_usec / 1e6;
}

static void sleep_ms(double ms)
{
	struct timespec ts = { .tv_sec = (time_t)(ms / 1000) };

	ts.tv_nsec = (long)((ms - ts.tv_sec * 1000) * 1e6);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Returns false, recording only the rejection, when other tasks took more
 * than max_disturbance of the workers' CPUs. Time spent blocked, or
 * throttled with the CPU idle, is no disturbance: it is what is measured.
 */
static bool sample(int w, int p, int rep)
{
	const struct workload *wl = &wls[w];
	struct point *pt = &res[w][p];
	double t0, t1, rate, secs, others = 0;
	struct rusage r0, r1;
	unsigned long o0, o1;
	int i, n = sw.pts[p], err;

	cur_wl = wl;
	__atomic_store_n(&stop_flag, 0, __ATOMIC_RELAXED);
	if (pthread_barrier_init(&start_barrier, NULL, n + 1))
		rp_fatal("pthread_barrier_init failed");
	for (i = 0; i < n; i++) {
		struct worker *wk = &workers[i];

		/* N=1: each repetition on another CPU, whatever max_cpus */
		wk->cpu = sw.cpus[i + rep % rp_sweep_round(&sw, n)];
		wk->err = 0;
		wk->ops = 0;
		if (wl->leaf)
			snprintf(wk->path, sizeof(wk->path), "%s/s/%s/%s", root, deep, wl->leaf);
		else
			snprintf(wk->path, sizeof(wk->path), "%s/p%d/%s/file",
				 root, i, wl->walk ? walk : deep);
		wk->k = i;
		err = pthread_create(&wk->thread, NULL, worker_main, wk);
		if (!err)
			err = pthread_getcpuclockid(wk->thread, &wk->clock);
		if (err)
			rp_fatal("cannot start a worker: %s", strerror(err));
	}
	pthread_barrier_wait(&start_barrier);
	sleep_ms(WARMUP_MS);

	getrusage(RUSAGE_SELF, &r0);
	if (rp_cpu_times(ct0, nr_cpu_ids, NULL))
		rp_fatal("cannot read /proc/stat: %s", strerror(errno));
	thread_times(n, false);
	o0 = ops_now(n);
	t0 = rp_now_ms();
	sleep_ms(p_sample_ms.value);
	o1 = ops_now(n);
	t1 = rp_now_ms();
	thread_times(n, true);
	if (rp_cpu_times(ct1, nr_cpu_ids, NULL))
		rp_fatal("cannot read /proc/stat: %s", strerror(errno));
	getrusage(RUSAGE_SELF, &r1);

	__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
	for (i = 0; i < n; i++)
		pthread_join(workers[i].thread, NULL);
	pthread_barrier_destroy(&start_barrier);

	secs = (t1 - t0) / 1000;
	/*
	 * Per worker, what other tasks took of its CPU, bounded by its run
	 * delay (rp_cpu_others()); a lost CPU spoils the sample.
	 */
	for (i = 0; i < n; i++) {
		struct worker *wk = &workers[i];

		if (wk->err)
			rp_fatal("%s: worker on CPU %d: %s (%s)", wl->name,
				 wk->cpu, strerror(-wk->err), wk->path);
		others += rp_cpu_others(&ct0[wk->cpu], &ct1[wk->cpu], wk->cpu_s, wk->delay_s, 1);
		if (wk->moved)
			others += secs;
	}
	others /= n * secs;
	rate = (o1 - o0) / secs;
	if (rp_opts.verbose)
		fprintf(stderr, "dcache_scaling: %s N=%d rep %d: %.0f ops/s, others %.0f%%%s\n",
			wl->name, n, rep + 1, rate, 100 * others,
			others > p_max_disturbance.value ? " (rejected)" : "");
	if (others > p_max_disturbance.value) {
		if (!pt->rejected || others < pt->least_busy)
			pt->least_busy = others;
		pt->rejected++;
		return false;
	}
	rp_sample(&pt->rate, rate);
	rp_sample(&pt->turn, rep);
	pt->best = fmax(pt->best, rate);
	pt->ops += o1 - o0;
	pt->secs += secs;
	pt->user += tv_s(&r1.ru_utime) - tv_s(&r0.ru_utime);
	pt->sys += tv_s(&r1.ru_stime) - tv_s(&r0.ru_stime);
	return true;
}

/* A sample, re-taken while disturbed after a pause that lets a burst pass. */
static void sample_retry(int w, int p, int rep)
{
	int a;

	for (a = 0; a < MAX_ATTEMPTS; a++) {
		if (sample(w, p, rep) || rp_now_ms() > deadline_ms)
			break;
		sleep_ms(50 * (a + 1));
	}
}

/* A point's repetitions: reps, up to whole rounds of the CPUs (add_rate()) */
static int point_reps(int p)
{
	int span = rp_sweep_round(&sw, sw.pts[p]);

	return (reps + span - 1) / span * span;
}

static void measure(void)
{
	int w, r, p;

	/*
	 * Interleave workloads and points, repetition by repetition, so that
	 * drift and disturbances hit the controls and the workloads alike.
	 * After the first repetition the time budget bounds the run; after
	 * the last, points without a clean sample get MAX_ATTEMPTS more.
	 */
	for (r = 0; r < point_reps(0) + MAX_ATTEMPTS && (!r || rp_now_ms() < deadline_ms); r++)
		for (w = 0; w < NR_WORKLOADS; w++)
			for (p = 0; p < sw.nr_pts; p++)
				if (r < point_reps(p) || (!res[w][p].rate.n &&
							  rp_now_ms() < deadline_ms))
					sample_retry(w, p, r);
}

/* NAN where either point has no sample */
static double eff(int w, int p)
{
	return res[w][p].rate.n ? rp_efficiency(res[w][p].best, res[w][0].best, sw.pts[p]) : NAN;
}

static double serial_share(int w, int p)
{
	return rp_serial_share(sw.pts[p], eff(w, p), eff(W_PARALLEL, p), eff(W_SERIAL, p));
}

/*
 * Before a point FAILs, sample it again beside the parallel control: the
 * machine's capacity can drop for a whole sample (a VM whose host is busy
 * shows no steal time), and one unlucky best-of-reps must not make a
 * verdict. A real loss of scaling stays after any number of samples.
 */
static void confirm(void)
{
	double until = rp_now_ms() + 1000 * p_confirm_time.value;
	int w, p, round, left = 1, rep;

	for (round = 0; left && round < reps && rp_now_ms() < until; round++) {
		left = 0;
		rep = reps + MAX_ATTEMPTS + round;
		for (w = W_STAT_PRIVATE; w < NR_WORKLOADS; w++)
			for (p = 1; p < sw.nr_pts && rp_now_ms() < until; p++) {
				if (!(serial_share(w, p) > wls[w].limit->value))
					continue;
				if (!round)
					printf("# %s N=%d: past its limit: sampled again\n",
					       wls[w].name, sw.pts[p]);
				left++;
				sample_retry(W_PARALLEL, p, rep);
				sample_retry(w, p, rep);
			}
	}
}

static struct rp_metric *add_metric(int w, int p, const char *what,
				    const char *unit, const double *v,
				    size_t nr, bool higher_is_better)
{
	struct rp_metric *m;
	char name[96];

	snprintf(name, sizeof(name), "%s.n%d.%s", wls[w].name, sw.pts[p], what);
	m = rp_metric_add(name, unit, v, nr);
	m->higher_is_better = higher_is_better;
	return m;
}

/*
 * The ops/s metric of point @p: the mean of a round of samples, one on
 * each CPU in turn (rp_sweep_round()), is its sample; an incomplete round
 * is dropped. CPUs of unequal speed (vCPUs on busy host cores) split one
 * CPU's samples in two, and the spread within a run then says nothing of
 * its rate, which the rounds measure.
 */
static void add_rate(int w, int p)
{
	const struct point *pt = &res[w][p];
	int span = rp_sweep_round(&sw, sw.pts[p]);
	double *v = rp_xrealloc(NULL, (pt->rate.n + 1) * sizeof(*v));
	size_t i, j, n = 0;

	for (i = 0; i < pt->rate.n; i++) {
		int first = (int)pt->turn.v[i], got = 0;
		double sum = 0;

		/* once a round, at the sample of its first turn */
		if (first % span)
			continue;
		for (j = 0; j < pt->rate.n; j++)
			if (pt->turn.v[j] >= first && pt->turn.v[j] < first + span) {
				sum += pt->rate.v[j];
				got++;
			}
		if (got == span)
			v[n++] = sum / span;
	}
	add_metric(w, p, "ops", "ops/s", v, n, true);
	free(v);
}

/*
 * Per point: a diagnostic line and the metrics. Returns why the workload
 * cannot be judged (a point without an undisturbed sample), or NULL.
 */
static const char *summarize(int w, char *why, size_t len)
{
	const char *name = wls[w].name;
	double e, user, sys;
	int p;

	why[0] = '\0';
	for (p = 0; p < sw.nr_pts; p++) {
		struct point *pt = &res[w][p];

		if (pt->rejected)
			printf("# %s N=%d: %d sample(s) rejected, others used >= %.0f%%\n",
			       name, sw.pts[p], pt->rejected, 100 * pt->least_busy);
		add_rate(w, p);
		if (!pt->rate.n) {
			if (!why[0])
				snprintf(why, len,
					 "machine busy: at N=%d other tasks used >= %.0f%% of the workers' CPUs in every %s sample (max_disturbance %.0f%%); run it on a quiet machine",
					 sw.pts[p], 100 * pt->least_busy, name,
					 100 * p_max_disturbance.value);
			continue;
		}
		e = eff(w, p);
		user = 1e6 * pt->user / pt->ops;
		sys = 1e6 * pt->sys / pt->ops;
		printf("# %s N=%d: %.4g ops/s (best of %zu), efficiency %.3f,",
		       name, sw.pts[p], pt->best, pt->rate.n, e);
		printf(" user %.2f sys %.2f us/op, %.2f of %d CPUs busy\n", user,
		       sys, (pt->user + pt->sys) / pt->secs, sw.pts[p]);
		add_metric(w, p, "efficiency", "ratio", &e, 1, true);
		add_metric(w, p, "user_per_op", "us", &user, 1, false);
		add_metric(w, p, "sys_per_op", "us", &sys, 1, false);
	}
	return why[0] ? why : NULL;
}

/*
 * The controls at each N. Not checks: out of bounds, they say the machine
 * or the harness cannot judge that N (judged[p] false). Returns why no N
 * can be judged (the first N's reason, or @ctl: a control without a clean
 * sample), or NULL.
 */
static const char *judge_controls(const char *ctl, bool *judged)
{
	static char why[320];
	double par, ser;
	const char *r;
	char buf[320];
	int p, n, nr = 0;

	for (p = 1; p < sw.nr_pts; p++) {
		n = sw.pts[p];
		par = eff(W_PARALLEL, p);
		ser = eff(W_SERIAL, p);
		r = rp_controls_judge(n, par, ser,
				      p_parallel_efficiency_min.value,
				      p_serial_fraction_min.value, buf, sizeof(buf));
		printf("# controls N=%d: parallel efficiency %.3f, serial fraction %.3f%s%s\n",
		       n, par, rp_serial_fraction(n * ser / par, n),
		       r ? ": not judged: " : "", r ?: "");
		judged[p] = !r;
		nr += !r;
		if (r && !why[0])
			snprintf(why, sizeof(why), "not judged: %s", r);
	}
	if (ctl)
		snprintf(why, sizeof(why), "not judged: %s", ctl);
	return nr ? NULL : why;
}

/* The highest serial share over the N the controls allow, or SKIP @skip. */
static void workload_check(int w, const bool *judged, const char *skip)
{
	const char *check = checks[w - W_STAT_PRIVATE];
	const struct rp_param *lim = wls[w].limit;
	double v = NAN, share;
	int p;

	for (p = 1; p < sw.nr_pts && !skip; p++) {
		if (!judged[p])
			continue;
		share = serial_share(w, p);
		printf("# %s N=%d: efficiency %.3f, serial share %.3f (limit %.2f)\n",
		       wls[w].name, sw.pts[p], eff(w, p), share, lim->value);
		add_metric(w, p, "serial_share", "share", &share, 1, false);
		v = fmax(v, share);
	}
	if (skip)
		rp_check_skip(check, "%s", skip);
	else if (isnan(v))
		rp_check_skip(check, "no valid serial share (controls at their bounds)");
	else
		rp_check(check, v, lim);
}

/* The workloads and the sweep's CPUs. */
static void setup(void)
{
	int w;

	if (p_control.str) {
		for (w = 0; strcmp(p_control.str, wls[w].name); w++)
			;
		/* Unlocked, under the control's name (metrics stay unique). */
		wls[W_SERIAL] = (struct workload){ .name = "serial", .op = wls[w].op,
						   .leaf = wls[w].leaf, .walk = wls[w].walk };
		printf("# serial control replaced by %s, unlocked (--control)\n", p_control.str);
	}
	if (p_serialize_lookups.value)
		printf("# serialize_lookups=1: one global lock around each lookup (injected)\n");
	if (pthread_spin_init(&big_lock, PTHREAD_PROCESS_PRIVATE))
		rp_fatal("pthread_spin_init failed");
	reps = (int)p_reps.value;
	deadline_ms = rp_now_ms() + 1000 * p_time_budget.value;

	rp_sweep_plan(&sw, p_max_cpus.value);
	nr_cpu_ids = sw.cpus[sw.nr_online - 1] + 1;	/* in ascending order */
	workers = calloc(sw.nr_online, sizeof(*workers));
	ct0 = calloc(nr_cpu_ids, sizeof(*ct0));
	ct1 = calloc(nr_cpu_ids, sizeof(*ct1));
	if (!workers || !ct0 || !ct1)
		rp_fatal("out of memory");
}

int main(int argc, char **argv)
{
	const char *neg_skip, *disturbed[NR_WORKLOADS], *ctl, *skip;
	char pts[200], why[NR_WORKLOADS][320];
	bool judged[RP_SWEEP_POINTS] = { false };
	int w, i, at = 0;

	rp_init(&test, argc, argv);
	setup();
	for (i = 0; i < sw.nr_pts; i++)
		at += snprintf(pts + at, sizeof(pts) - at, " %d", sw.pts[i]);
	rp_info("sweep", "%s CPU(s) by affinity; %d x %.0f ms per point",
		pts + 1, reps, p_sample_ms.value);

	neg_skip = make_tree(sw.max);
	measure();
	confirm();
	for (w = 0; w < NR_WORKLOADS; w++)
		disturbed[w] = summarize(w, why[w], sizeof(why[w]));
	remove_tree();

	/* The controls first: the verdicts depend on them. */
	ctl = sw.nr_pts < 2 ? RP_SWEEP_ONE_CPU :
	      judge_controls(disturbed[W_PARALLEL] ?: disturbed[W_SERIAL], judged);
	for (w = W_STAT_PRIVATE; w < NR_WORKLOADS; w++) {
		/* The machine's limit first: it explains a disturbance too. */
		skip = sw.nr_pts >= 2 && w == W_NEGATIVE && neg_skip ?
		       neg_skip : ctl ?: disturbed[w];
		workload_check(w, judged, skip);
	}
	return rp_finish();
}
