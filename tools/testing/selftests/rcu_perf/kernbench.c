// SPDX-License-Identifier: GPL-2.0
/*
 * kernbench: time a parallel build at each CPU count, as the evidence of
 * dcache_rcu did (Linux 2.5.62: "make -j" on UP, 2, 4 and 16 CPUs, printed
 * as "Elapsed: ... User: ... System: ... CPU: ...%"). A build's kernel
 * part is mostly path lookups: the compiler searches every -I directory
 * for every #include. "make -jN" of a generated header-heavy tree (or a
 * kernel tree, --tree) runs on N CPUs under GNU time beside a parallel
 * control of private work on the same CPUs; the check is the build's
 * Karp-Flatt serial fraction, its speedup taken relative to the
 * control's. System time is kept for a baseline, not judged. Too long for
 * the default run: "make kernbench".
 *
 * Checks and settings: Documentation/dev-tools/rcu_perf.rst; each limit
 * with its reason: --list.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest.h"
#include "rcu_perf.h"

#define MAX_RUNS	100
#define HDRS_PER_DIR	16

static struct rp_param p_parallel_efficiency_min =
	RP_MIN("parallel_efficiency_min", "ratio", 0.75,
	       "private work on N CPUs ~1; SMT siblings ~0.6, a 1-CPU quota 1/N: that N skips");
static struct rp_param p_serial_fraction_max =
	RP_MAX("serial_fraction_max", "ratio", 0.5,
	       "independent compiles: make's and ar's steps only (~0.1); -j1 everywhere gives 1");
static struct rp_param p_control_ms =
	RP_SETTING("control_ms", "ms", 200,
		   "the parallel control's work on one CPU; it runs after every timed build",
		   RP_RANGE(10, 10000));
static struct rp_param p_runs =
	RP_SETTING("runs", "count", 3, "timed builds per CPU count (the seed: 5)",
		   RP_QUICK(2), RP_RANGE(1, MAX_RUNS));
static struct rp_param p_files =
	RP_SETTING("files", "count", 600,
		   "C files of the generated tree: ~30 s per build on 1 CPU (--quick: ~3 s), minutes in all",
		   RP_QUICK(60), RP_RANGE(1, 100000));
static struct rp_param p_include_dirs =
	RP_SETTING("include_dirs", "count", 32,
		   "-I directories: each #include misses in ~half of them",
		   RP_RANGE(1, 1000));
static struct rp_param p_includes =
	RP_SETTING("includes", "count", 64,
		   "project headers included by each C file; at most include_dirs x 16",
		   RP_RANGE(1, 1000 * HDRS_PER_DIR));
static struct rp_param p_jobs =
	RP_SETTING("jobs", "count", 0,
		   "make -j value; 0 = the CPU count of the point");
static struct rp_param p_warmup =
	RP_SETTING("warmup", "count", 1,
		   "untimed builds first: page cache and dentries warm",
		   RP_RANGE(0, 100));
static struct rp_param p_max_cpus =
	RP_SETTING("max_cpus", "CPUs", 0, "largest CPU count; 0 = all online CPUs");
static struct rp_param p_hotplug =
	RP_SETTING("hotplug", "bool", 0,
		   "1: offline the CPUs beyond N (guarded) instead of restricting affinity");
static struct rp_param p_max_disturbance =
	RP_SETTING("max_disturbance", "ratio", 0.15,
		   "share of the build's CPUs that other tasks and I/O waits took, above which a run is left out");
static struct rp_param p_baseline_change =
	RP_BASELINE_CHANGE(5,
			   "the seed's dcache regression: +10% system time; builds repeat to ~2%");
static struct rp_param p_baseline_alpha = RP_BASELINE_ALPHA;
static struct rp_param p_tree =
	RP_PATH("tree", "DIR", "build the kernel tree DIR (also KBUILD_TREE=DIR)",
		RP_DIR);
static struct rp_param p_workdir =
	RP_PATH("workdir", "DIR",
		"where the generated tree or kernel objects go (default $TMPDIR or /tmp)",
		RP_DIR);
static struct rp_param p_keep = RP_FLAG("keep", "keep the work directory");

static struct rp_param *params[] = {
	&p_parallel_efficiency_min, &p_serial_fraction_max, &p_control_ms,
	&p_runs, &p_files, &p_include_dirs, &p_includes, &p_jobs, &p_warmup,
	&p_max_cpus, &p_hotplug, &p_max_disturbance, &p_baseline_change,
	&p_baseline_alpha, &p_tree, &p_workdir, &p_keep, NULL
};

static const char * const checks[] = {
	"kernbench_speedup", NULL
};

/*
 * With --baseline: the one-CPU build, present on every machine, per second
 * of the compiler's user time. The compiler does the same work in every
 * run, so its user time is this run's control of the machine's speed: a
 * VM's host moved whole runs here by up to 25% (user time with them) and
 * a healthy run FAILed elapsed time at +14.5%, user +13%. Per user second
 * (the elapsed time less what other tasks and the disk took) healthy runs
 * repeat to ~2% (elapsed) and ~10% (system); every tracepoint enabled, a
 * cost in the kernel, gives +26-28% and +100-120%.
 */
static const char * const baseline_metrics[] = {
	"kernbench.n1.elapsed_per_user", "kernbench.n1.system_per_user", NULL
};

static const char *check_input(void);

static const struct rp_test test = {
	.name = "kernbench",
	.baseline = baseline_metrics,
	.summary = "make -jN at each CPU count under GNU time, in the dcache_rcu evidence's format",
	.params = params,
	.nr_checks = 1,
	.checks = checks,
	.check_params = check_input,
};

#define GNU_TIME	"/usr/bin/time"
#define MAX_POINTS	RP_SWEEP_POINTS

/*
 * Bad input beyond the parameters' ranges: rp_parse() prints the reason
 * as one line and rp_init() exits 1 before anything is changed.
 */
static const char *check_input(void)
{
	static char why[2 * PATH_MAX + 128];
	const char *tree = p_tree.str ? p_tree.str : getenv("KBUILD_TREE");
	char kbuild[PATH_MAX], r[PATH_MAX + 96];
	struct stat st;

	if (tree && *tree) {
		snprintf(kbuild, sizeof(kbuild), "%s/Kbuild", tree);
		if (stat(kbuild, &st)) {
			snprintf(why, sizeof(why),
				 "%s is not a kernel source tree (no Kbuild)",
				 tree);
			return why;
		}
		/* Its Makefiles run as us: as root, no one else's tree. */
		snprintf(kbuild, sizeof(kbuild), "%s/Makefile", tree);
		if (rp_check_dir(tree, false, r, sizeof(r)) ||
		    rp_check_trusted(kbuild, -1, r, sizeof(r))) {
			snprintf(why, sizeof(why), "--tree %s: %s", tree, r);
			return why;
		}
	}
	/* Where the work directory goes: no one else may swap it. */
	if (p_workdir.str && rp_check_dir(p_workdir.str, false, r, sizeof(r))) {
		snprintf(why, sizeof(why), "--workdir %s: %s", p_workdir.str, r);
		return why;
	}
	if (p_includes.value > p_include_dirs.value * HDRS_PER_DIR)
		return "includes must be 1..include_dirs * 16";
	return NULL;
}

static char workdir[900];	/* ours: removed at the end unless --keep */
static char srcdir[1024];	/* what "make -C" builds */
static char outdir[1200];	/* kernel tree: O= directory */
static char logpath[1200];	/* make's output */
static char timepath[1200];	/* GNU time's report */
static bool kernel_tree;

static unsigned long long lcg = 88172645463325252ULL;

static unsigned int rnd(unsigned int n)
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(lcg >> 33) % n;
}

static __printf(1, 2) FILE *new_file(const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "we");
	if (!f)
		rp_fatal("cannot create %s: %s", path, strerror(errno));
	return f;
}

static void finish_file(FILE *f)
{
	if (ferror(f) | fclose(f))
		rp_fatal("cannot write the generated tree: %s", strerror(errno));
}

static __printf(1, 2) void make_dir(const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (mkdir(path, 0755) && errno != EEXIST)
		rp_fatal("cannot create %s: %s", path, strerror(errno));
}

static void gen_header(FILE *f, int d, int h)
{
	int k;

	fprintf(f, "#ifndef KB_H%03d_%02d\n#define KB_H%03d_%02d\n", d, h, d, h);
	for (k = 0; k < 4; k++) {
		fprintf(f, "struct kb%03d_%02d_s%d { int a; long b; char c[%d]; };\n",
			d, h, k, k + 4);
		fprintf(f, "static inline int kb%03d_%02d_f%d(int x)\n"
			"{\n\treturn x * %d + %d;\n}\n", d, h, k, k + 3, h);
	}
	fprintf(f, "#endif\n");
}

/* Function j of file i: a loop over an inline function of header h. */
static void gen_function(FILE *f, int i, int j, int h)
{
	fprintf(f, "int g%d_%d(int x)\n{\n\tint s = 0;\n\n"
		"\tfor (int k = 0; k < x; k++)\n"
		"\t\ts += kb%03d_%02d_f%d(k) ^ (s << 1);\n"
		"\treturn s;\n}\n", i, j, h / HDRS_PER_DIR, h % HDRS_PER_DIR,
		j % 4);
	if (j == 0)
		fprintf(f, "void p%d(void)\n{\n"
			"\tprintf(\"%%d\\n\", (int)strlen(getenv(\"HOME\")));\n}\n",
			i);
}

/*
 * inc/dNN/hNN_MM.h: structs and static inline functions; src/fNNNN.c
 * includes a few system headers and "includes" project headers spread over
 * all directories, so that the preprocessor misses in about half of the
 * -I directories for each of them. Deterministic: the same tree each time.
 */
static void generate(int files, int dirs, int includes)
{
	int d, h, i, j, k, nh = dirs * HDRS_PER_DIR;
	int *pick;
	FILE *f;

	if (files < 1 || files > 100000 || dirs < 1 || dirs > 1000 ||
	    includes < 1 || includes > nh)
		rp_fatal("generated tree: files 1..100000, include_dirs 1..1000, includes 1..%d",
			 nh);
	pick = calloc(nh, sizeof(*pick));
	if (!pick)
		rp_fatal("out of memory");
	make_dir("%s/inc", srcdir);
	make_dir("%s/src", srcdir);
	for (d = 0; d < dirs; d++) {
		make_dir("%s/inc/d%03d", srcdir, d);
		for (h = 0; h < HDRS_PER_DIR; h++) {
			f = new_file("%s/inc/d%03d/h%03d_%02d.h", srcdir, d, d, h);
			gen_header(f, d, h);
			finish_file(f);
		}
	}
	for (i = 0; i < files; i++) {
		f = new_file("%s/src/f%05d.c", srcdir, i);
		fprintf(f, "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n");
		/* A partial Fisher-Yates shuffle: distinct headers. */
		for (j = 0; j < nh; j++)
			pick[j] = j;
		for (j = 0; j < includes; j++) {
			k = j + rnd(nh - j);
			h = pick[k];
			pick[k] = pick[j];
			pick[j] = h;
			fprintf(f, "#include \"h%03d_%02d.h\"\n",
				h / HDRS_PER_DIR, h % HDRS_PER_DIR);
		}
		for (j = 0; j < 8; j++)
			gen_function(f, i, j, pick[j]);
		finish_file(f);
	}
	free(pick);
	f = new_file("%s/Makefile", srcdir);
	fprintf(f, "# Generated by kernbench: a header-heavy build.\n"
		   "INC := $(addprefix -I,$(sort $(wildcard inc/d*)))\n"
		   "OBJS := $(patsubst %%.c,%%.o,$(sort $(wildcard src/*.c)))\n"
		   "all: libkb.a\n"
		   "libkb.a: $(OBJS)\n\t$(AR) rcs $@ $^\n"
		   "%%.o: %%.c\n\t$(CC) -O2 $(INC) -c $< -o $@\n"
		   "clean:\n\trm -f $(OBJS) libkb.a\n"
		   ".PHONY: all clean\n");
	finish_file(f);
}

static void remove_workdir(void)
{
	if (workdir[0] && p_keep.value) {
		printf("# kept %s\n", workdir);
		workdir[0] = '\0';
	}
	rp_workdir_remove(workdir);
}

#define ONLINE	"/sys/devices/system/cpu/online"

static struct rp_sweep sw;
static char online_at_start[256];	/* the online CPU list at the start */

/* The first CPU of the sweep that the current run uses (rp_sweep_first()). */
static int first_cpu;

/* In a child: run on ncpus CPUs from first_cpu on (0: no restriction). */
static int restrict_cpus(int ncpus)
{
	cpu_set_t set;
	int i;

	if (ncpus <= 0)
		return 0;
	CPU_ZERO(&set);
	for (i = 0; i < ncpus; i++)
		CPU_SET(sw.cpus[first_cpu + i], &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Run argv with its output appended to the log, on cpus[0..ncpus) (0: no
 * restriction). The make of "make kernbench" must not hand its jobserver
 * to ours. Returns the exit status, 128 + signal, or -errno.
 */
static int run(char *const argv[], int ncpus)
{
	int status, fd;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	/* time, make and the compilers die with us, even by SIGKILL. */
	pid = rp_guard_fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (restrict_cpus(ncpus))
			_exit(126);
		fd = open(logpath, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
			  O_CLOEXEC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			dup2(fd, 0);
		/* The compilers' temporary files go with the tree. */
		setenv("TMPDIR", workdir, 1);
		unsetenv("MAKEFLAGS");
		unsetenv("MFLAGS");
		unsetenv("MAKELEVEL");
		unsetenv("MAKEOVERRIDES");
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;	/* still guarded: killed at exit */
	rp_guard_child_done(pid);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/*
 * The last lines of make's log, as diagnostics, before giving up; the work
 * directory stays for a look at the rest.
 */
static void show_log_tail(void)
{
	char line[512], *lines[20] = { };
	int n = 0, i;
	FILE *f = fopen(logpath, "re");

	p_keep.value = 1;
	rp_tmpdir_keep(workdir);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		free(lines[n % 20]);
		lines[n % 20] = strdup(line);
		n++;
	}
	fclose(f);
	for (i = n > 20 ? n - 20 : 0; i < n; i++) {
		printf("# | %s", lines[i % 20] ? lines[i % 20] : "\n");
		free(lines[i % 20]);
	}
}

/* "make [-C tree O=out | -C srcdir] [args...]" */
static void make_argv(char **argv, char *bufs, const char *a1,
		      const char *a2)
{
	int n = 0;

	argv[n++] = "make";
	argv[n++] = "-s";
	argv[n++] = "-C";
	argv[n++] = srcdir;
	if (kernel_tree) {
		snprintf(bufs, 1300, "O=%s", outdir);
		argv[n++] = bufs;
	}
	if (a1)
		argv[n++] = (char *)a1;
	if (a2)
		argv[n++] = (char *)a2;
	argv[n] = NULL;
}

static void make_untimed(const char *target, int ncpus)
{
	char *argv[16], obuf[1300];
	int r;

	make_argv(argv, obuf, target, NULL);
	r = run(argv, ncpus);
	if (r) {
		show_log_tail();
		rp_fatal("make %s failed (%d); log: %s", target ? target : "",
			 r, logpath);
	}
}

/* One timed build with -j @jobs on @ncpus CPUs. */
static void timed_build(int jobs, int ncpus, struct rp_time *t)
{
	char *argv[24], obuf[1300], jbuf[32], err[160];
	char *margv[16], *text;
	int r, i, n = 0;
	size_t len;
	FILE *f;

	snprintf(jbuf, sizeof(jbuf), "-j%d", jobs);
	make_argv(margv, obuf, jbuf, kernel_tree ? "vmlinux" : NULL);
	argv[n++] = GNU_TIME;
	argv[n++] = "-o";
	argv[n++] = timepath;
	for (i = 0; margv[i]; i++)
		argv[n++] = margv[i];
	argv[n] = NULL;
	r = run(argv, ncpus);
	f = fopen(timepath, "re");
	text = NULL;
	len = 0;
	if (f) {
		text = calloc(1, 4096);
		if (text)
			len = fread(text, 1, 4095, f);
		fclose(f);
	}
	if (!text || !len || rp_time_parse(text, t, err, sizeof(err))) {
		show_log_tail();
		rp_fatal("no GNU time report of the build (%s): %s", timepath,
			 text && len ? err : "empty");
	}
	free(text);
	if (r || t->status) {
		show_log_tail();
		rp_fatal("the build failed (status %d); log: %s",
			 t->status ? t->status : r, logpath);
	}
}

/* CPU time of the run's ncpus CPUs; NAN if unknown. */
static void cpu_time(int ncpus, struct rp_cpu_time *sum)
{
	static struct rp_cpu_time t[RP_SWEEP_CPUS];
	int i;

	*sum = (struct rp_cpu_time){ 0 };
	if (rp_cpu_times(t, ARRAY_SIZE(t), NULL)) {
		*sum = (struct rp_cpu_time){ NAN, NAN, NAN, NAN };
		return;
	}
	for (i = first_cpu; i < first_cpu + ncpus; i++)
		rp_cpu_time_add(sum, &t[sw.cpus[i]]);
}

struct point {
	int n, jobs;
	struct rp_time run[MAX_RUNS];
	double others[MAX_RUNS];	/* share of the CPUs others took */
	double iowait[MAX_RUNS];	/* share spent waiting for I/O */
	char busy_why[160];		/* its metrics' rp_metric.disturbed */
	int nr;
	struct rp_time avg;
	double clean_elapsed;		/* the best undisturbed run */
	double ctl_best;		/* the parallel control's best time */
	double ctl_eff;			/* its efficiency at n */
};

static struct point pt[MAX_POINTS];
static int nr_pts;

/* The share of run @r's CPUs the build did not get: others', the disk's. */
static bool run_disturbed(const struct point *p, int r)
{
	return p->others[r] + (p->iowait[r] > 0 ? p->iowait[r] : 0) >
	       p_max_disturbance.value;
}

/*
 * Run @r's times into slot @i: elapsed, user, system, and the share of
 * the build's CPUs neither other tasks nor I/O waits took.
 */
static void run_times(const struct point *p, int r, int i, double *e,
		      double *u, double *s, double *w)
{
	double d = p->others[r] + (p->iowait[r] > 0 ? p->iowait[r] : 0);

	e[i] = p->run[r].elapsed;
	u[i] = p->run[r].user;
	s[i] = p->run[r].sys;
	w[i] = d < 1 ? 1 - d : 0;
}

static bool exe_ok(const char *name)
{
	char path[PATH_MAX];

	return rp_find_prog(name, path, sizeof(path));
}

/* The compiler make will run: $(CC), the first word of $CC, or cc. */
static const char *cc_name(void)
{
	static char buf[256];
	const char *cc = getenv("CC");

	if (!cc || !*cc)
		return "cc";
	snprintf(buf, sizeof(buf), "%s", cc);
	buf[strcspn(buf, " \t")] = '\0';
	return buf;
}

static void setup_tree(void)
{
	const char *tree = p_tree.str ? p_tree.str : getenv("KBUILD_TREE");

	rp_workdir(p_workdir.str, "kernbench", workdir, sizeof(workdir));
	if (p_keep.value)
		rp_tmpdir_keep(workdir);
	atexit(remove_workdir);
	snprintf(logpath, sizeof(logpath), "%s/make.log", workdir);
	snprintf(timepath, sizeof(timepath), "%s/time.out", workdir);

	if (tree && *tree) {
		kernel_tree = true;
		snprintf(srcdir, sizeof(srcdir), "%s", tree);
		snprintf(outdir, sizeof(outdir), "%s/obj", workdir);
		make_dir("%s", outdir);
		rp_info("tree", "%s (kernel, defconfig, make vmlinux, O=%s)",
			srcdir, outdir);
		fprintf(stderr, "kernbench: make defconfig in %s\n", outdir);
		make_untimed("defconfig", 0);
		return;
	}
	snprintf(srcdir, sizeof(srcdir), "%s/tree", workdir);
	make_dir("%s", srcdir);
	generate((int)p_files.value,
		 (int)p_include_dirs.value, (int)p_includes.value);
	rp_info("tree", "generated: %d C files, %d -I directories, %d includes each (%s)",
		(int)p_files.value,
		(int)p_include_dirs.value, (int)p_includes.value, srcdir);
}

static void timed_run(struct point *p, int idx, int total)
{
	bool hotplug = sw.hotplug;
	struct rp_time *t = &p->run[p->nr];
	struct rp_cpu_time c0, c1;
	double wall;
	char line[160], on0[256], on1[256];
	int used;

	make_untimed("clean", 0);
	fprintf(stderr, "kernbench: %d CPU(s), make -j%d, run %d/%d (%d of %d)\n",
		p->n, p->jobs, p->nr + 1, (int)p_runs.value,
		idx, total);
	rp_knob_read(ONLINE, on0, sizeof(on0));
	first_cpu = rp_sweep_first(&sw, p->n, p->nr);
	cpu_time(p->n, &c0);
	wall = rp_now_ms();
	timed_build(p->jobs, hotplug ? 0 : p->n, t);
	wall = (rp_now_ms() - wall) / 1000;
	cpu_time(p->n, &c1);
	first_cpu = 0;
	rp_knob_read(ONLINE, on1, sizeof(on1));
	/*
	 * GNU time's user + sys are the build's, the rest other tasks'.
	 * With fewer jobs than CPUs, the CPUs the build cannot use are free
	 * for them: only what exceeds those slowed the build.
	 */
	used = p->jobs < p->n ? p->jobs : p->n;
	p->others[p->nr] = rp_cpu_others(&c0, &c1, t->user + t->sys +
					 (p->n - used) * wall, NAN, used * wall);
	/*
	 * A build that waited for the disk (its CPUs idle in iowait) timed
	 * the storage, not the kernel's CPU cost: healthy builds here waited
	 * 0-34% of their time, elapsed +19% in one run of three. The share
	 * counts as a disturbance like other tasks' CPU use.
	 */
	p->iowait[p->nr] = (c1.iowait - c0.iowait) / (used * wall);
	/* Someone else's CPU hotplug during the build: not our run. */
	if (strcmp(on0, on1) || (!hotplug && strcmp(on1, online_at_start)))
		p->others[p->nr] = 1;
	rp_time_format_run(line, sizeof(line), t);
	printf("# %d CPU(s) run %d: %s, other tasks %.0f%%, I/O wait %.0f%%\n",
	       p->n, p->nr + 1, line, 100 * p->others[p->nr],
	       100 * p->iowait[p->nr]);
	fflush(stdout);
	p->nr++;
}

#define CONTROL_STEPS	256	/* multiply-adds per getppid() */

static unsigned long ctl_iters;	/* the control's work per process */

static unsigned long control_work(unsigned long iters)
{
	unsigned long x = iters, i;
	int k;

	for (i = 0; i < iters; i++) {
		for (k = 0; k < CONTROL_STEPS; k++)
			x = x * 6364136223846793005UL + 1442695040888963407UL;
		x += getppid();
		/* The result is not used: keep the compiler from eliding it. */
		__asm__ __volatile__("" : "+r" (x));
	}
	return x;
}

/*
 * Seconds for n processes, each doing ctl_iters of control_work(), on
 * cpus[0..ncpus) (0: anywhere); NAN if a process could not run.
 */
static double control_run(int n, int ncpus)
{
	double t0 = rp_now_ms();
	int i, status, bad = 0;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0) {
			bad = 1;
			break;
		}
		if (pid)
			continue;
		if (restrict_cpus(ncpus))
			_exit(126);
		control_work(ctl_iters);
		_exit(0);
	}
	for (;;) {
		pid = wait(&status);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			break;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	}
	return bad ? NAN : (rp_now_ms() - t0) / 1000;
}

/* Work that takes about control_ms on one CPU, the best of three tries. */
static void control_calibrate(void)
{
	double t, best = INFINITY, want = p_control_ms.value / 1000;
	int i;

	for (ctl_iters = 1000; ctl_iters < (1UL << 40); ctl_iters *= 2) {
		t = control_run(1, 1);
		if (isnan(t))
			rp_fatal("cannot fork the parallel control: %s",
				 strerror(errno));
		if (t > want / 8)
			break;
	}
	for (i = 0; i < 3; i++) {
		t = control_run(1, 1);
		if (t < best)
			best = t;
	}
	ctl_iters = (unsigned long)(ctl_iters * want / best) + 1;
}

/* One control run at p's CPU count; interference can only slow it. */
static void control_point(struct point *p)
{
	double t;

	first_cpu = rp_sweep_first(&sw, p->n, p->nr - 1);
	t = control_run(p->n, sw.hotplug ? 0 : p->n);
	first_cpu = 0;
	if (t < p->ctl_best)	/* false for NAN */
		p->ctl_best = t;
}

static struct rp_metric *add_metric(int n, const char *what,
				    const char *unit, const double *v, int nr)
{
	char name[64];

	snprintf(name, sizeof(name), "kernbench.n%d.%s", n, what);
	return rp_metric_add(name, unit, v, nr);
}

/* The control's efficiency per CPU count; where it is too low, why. */
static char ctl_why[200];

static void control_report(void)
{
	double v = INFINITY, min = p_parallel_efficiency_min.value;
	int p, at = 0;

	for (p = 0; p < nr_pts; p++) {
		/* n processes do n times the work of one. */
		pt[p].ctl_eff = rp_efficiency(pt[p].n / pt[p].ctl_best,
					      1 / pt[0].ctl_best, pt[p].n);
		printf("# parallel control at %d CPU(s): best %.3fs, efficiency %.3f\n",
		       pt[p].n, pt[p].ctl_best, pt[p].ctl_eff);
		add_metric(pt[p].n, "control_efficiency", "ratio",
			   &pt[p].ctl_eff, 1);
		if (p && !(pt[p].ctl_eff >= v)) {
			v = pt[p].ctl_eff;
			at = pt[p].n;
		}
		if (p && !(pt[p].ctl_eff >= min) && !ctl_why[0])
			snprintf(ctl_why, sizeof(ctl_why),
				 "at %d CPUs the parallel control reached efficiency %.2f < %.2f: this machine cannot run %d jobs at once (CPU quota, overcommitted vCPUs, SMT siblings or other load)",
				 pt[p].n, pt[p].ctl_eff, min, pt[p].n);
	}
	printf("# parallel control: lowest efficiency %.3f at %d CPUs", v, at);
	printf(" vs parallel_efficiency_min %.2f%s\n", min,
	       ctl_why[0] ? ": those CPU counts are not judged" : "");
}

/*
 * Per CPU count: the best undisturbed run (other tasks can only slow a
 * build; at one CPU, the fastest CPU's).
 */
static const char *clean_times(char *why, size_t len)
{
	const char *disturbed = NULL;
	int p, r, ok;

	for (p = 0; p < nr_pts; p++) {
		pt[p].clean_elapsed = INFINITY;
		for (r = ok = 0; r < pt[p].nr; r++) {
			if (run_disturbed(&pt[p], r))
				continue;
			if (pt[p].run[r].elapsed < pt[p].clean_elapsed)
				pt[p].clean_elapsed = pt[p].run[r].elapsed;
			ok++;
		}
		if (!ok)
			pt[p].clean_elapsed = NAN;
		if (!ok && !disturbed) {
			snprintf(why, len,
				 "machine busy: other tasks or I/O waits took more than %.0f%% of the CPUs in every %d-CPU build (max_disturbance); run it on a quiet machine",
				 100 * p_max_disturbance.value, pt[p].n);
			disturbed = why;
		}
		if (ok < pt[p].nr)
			printf("# %d CPU(s): %d/%d run(s) disturbed: not in the speedup\n",
			       pt[p].n, pt[p].nr - ok, pt[p].nr);
	}
	return disturbed;
}

/*
 * The build's serial fraction at each CPU count the control allows, its
 * speedup taken relative to the control's; the highest is judged.
 */
static void speedup_check(void)
{
	double v = NAN, speedup, rel, e, min = p_parallel_efficiency_min.value;
	const char *disturbed;
	char why[200];
	int p, at = 0;

	disturbed = clean_times(why, sizeof(why));
	if (disturbed) {
		rp_check_skip("kernbench_speedup", "%s", disturbed);
		return;
	}
	for (p = 1; p < nr_pts; p++) {
		speedup = pt[0].clean_elapsed / pt[p].clean_elapsed;
		rel = speedup / (pt[p].n * pt[p].ctl_eff);
		e = rp_serial_fraction(rel * pt[p].n, pt[p].n);
		printf("# speedup at %d CPUs: %.2fx (%.2f per CPU, %.2f of the control's),",
		       pt[p].n, speedup, speedup / pt[p].n, rel);
		printf(" serial fraction %.3f%s\n", e,
		       pt[p].ctl_eff >= min ? "" : " (not judged)");
		if (!(pt[p].ctl_eff >= min))
			continue;
		add_metric(pt[p].n, "serial_fraction", "ratio", &e, 1);
		if (isnan(v) || e > v) {
			v = e;
			at = pt[p].n;
		}
	}
	if (isnan(v)) {
		rp_check_skip("kernbench_speedup", "not judged: %s", ctl_why);
		return;
	}
	printf("# highest serial fraction at %d CPUs\n", at);
	rp_check("kernbench_speedup", v, &p_serial_fraction_max);
}

int main(int argc, char **argv)
{
	int runs, jobs, i, r, p, total, idx = 0;
	char line[160];
	bool hotplug;

	rp_init(&test, argc, argv);
	runs = (int)p_runs.value;
	jobs = (int)p_jobs.value;
	hotplug = p_hotplug.value != 0;
	if (!exe_ok(GNU_TIME))
		rp_exit_skip("%s not found (Debian package \"time\")", GNU_TIME);
	if (!exe_ok("make") || !exe_ok(cc_name()))
		rp_exit_skip("make or a C compiler (%s) not found", cc_name());

	rp_knob_read(ONLINE, online_at_start, sizeof(online_at_start));
	rp_sweep_plan(&sw, p_max_cpus.value, hotplug, "hotplug");
	nr_pts = sw.nr_pts;
	for (p = 0; p < nr_pts; p++) {
		pt[p].n = sw.pts[p];
		pt[p].jobs = jobs ? jobs : sw.pts[p];
		pt[p].ctl_best = INFINITY;
	}
	printf("# CPU counts:");
	for (p = 0; p < nr_pts; p++)
		printf(" %d (-j%d)", pt[p].n, pt[p].jobs);
	printf(" by %s; %d run(s) each\n", hotplug ? "hotplug" : "affinity",
	       runs);

	setup_tree();
	for (i = 0; i < (int)p_warmup.value; i++) {
		struct rp_time t;

		fprintf(stderr, "kernbench: warm-up build %d\n", i + 1);
		make_untimed("clean", 0);
		timed_build(pt[nr_pts - 1].jobs, hotplug ? 0 : sw.max, &t);
	}

	control_calibrate();
	total = runs * nr_pts;
	if (hotplug) {
		for (p = 0; p < nr_pts; p++) {
			rp_sweep_online(&sw, pt[p].n);
			for (r = 0; r < runs; r++) {
				timed_run(&pt[p], ++idx, total);
				control_point(&pt[p]);
			}
		}
		rp_sweep_online(&sw, sw.max);
	} else {
		for (r = 0; r < runs; r++)
			for (p = 0; p < nr_pts; p++) {
				timed_run(&pt[p], ++idx, total);
				control_point(&pt[p]);
			}
	}
	remove_workdir();

	/* The seed's report, one line per CPU count. */
	for (p = 0; p < nr_pts; p++) {
		double e[MAX_RUNS], u[MAX_RUNS], s[MAX_RUNS], w[MAX_RUNS];
		const char *busy;
		int nr, k;

		rp_time_average(pt[p].run, pt[p].nr, &pt[p].avg);
		rp_time_format(line, sizeof(line), &pt[p].avg);
		printf("# %d CPU(s): %s [average of %d]\n", pt[p].n, line,
		       pt[p].nr);
		printf("# %d CPU(s): system share %.3f of the CPU time\n",
		       pt[p].n, rp_time_system_share(&pt[p].avg));
		/*
		 * The times of the runs other tasks left alone: a busy
		 * machine stretches a build's elapsed time and, through
		 * the caches, its system time too, and a baseline check
		 * must not take that for the kernel. With none left, all
		 * runs are kept (the numbers stay in the JSON) and marked:
		 * the checks against a baseline SKIP.
		 */
		for (r = nr = 0; r < pt[p].nr; r++)
			if (!run_disturbed(&pt[p], r))
				run_times(&pt[p], r, nr++, e, u, s, w);
		busy = NULL;
		if (!nr) {
			for (r = 0; r < pt[p].nr; r++)
				run_times(&pt[p], r, r, e, u, s, w);
			nr = pt[p].nr;
			snprintf(pt[p].busy_why, sizeof(pt[p].busy_why),
				 "machine busy: other tasks or I/O waits took more than %.0f%% of the CPUs in every %d-CPU build (max_disturbance)",
				 100 * p_max_disturbance.value, pt[p].n);
			busy = pt[p].busy_why;
		}
		add_metric(pt[p].n, "elapsed", "s", e, nr)->disturbed = busy;
		add_metric(pt[p].n, "user", "s", u, nr)->disturbed = busy;
		add_metric(pt[p].n, "system", "s", s, nr)->disturbed = busy;
		/*
		 * Per second of the compiler's user time, the same work in
		 * every run (see baseline_metrics); the elapsed time less
		 * what other tasks and the disk took of it, which vary by
		 * up to max_disturbance from run to run: 5% waits more in
		 * a healthy run FAILed elapsed per user second at +7.9%.
		 */
		for (r = k = 0; r < nr; r++) {
			if (!(u[r] > 0))
				continue;
			e[k] = e[r] * w[r] / u[r];
			s[k++] = s[r] / u[r];
		}
		add_metric(pt[p].n, "elapsed_per_user", "ratio", e, k)->disturbed = busy;
		add_metric(pt[p].n, "system_per_user", "ratio", s, k)->disturbed = busy;
	}

	if (nr_pts < 2) {
		rp_check_skip("kernbench_speedup", RP_SWEEP_ONE_CPU);
		return rp_finish();
	}
	control_report();
	speedup_check();
	return rp_finish();
}
