// SPDX-License-Identifier: GPL-2.0
/* Facts of the machine and the running kernel. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <perf/cpumap.h>

#include "internal.h"

static char *kconfig;		/* the whole config text, or NULL */
static bool kconfig_read;

/* The whole file; a .gz through gzip (everywhere a kernel builds: no zlib) */
static char *read_text_file(const char *path)
{
	size_t n = strlen(path);
	bool gz = n > 3 && !strcmp(path + n - 3, ".gz");
	char cmd[4200], *s;
	FILE *f;

	if (gz && (access(path, R_OK) || strchr(path, '\'')))
		return NULL;
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s' 2>/dev/null", path);
	f = gz ? popen(cmd, "r") : fopen(path, "r");
	if (!f)
		return NULL;
	s = rp_read_stream(f, SIZE_MAX);
	if (!gz) {
		fclose(f);
	} else if (pclose(f) != 0 || !s || !*s) {
		free(s);
		return NULL;
	}
	return s;
}

/* /proc/config.gz, /boot/config-$(uname -r) or RCU_PERF_KCONFIG=FILE */
static const char *kernel_config(void)
{
	const char *env = getenv("RCU_PERF_KCONFIG");
	struct utsname u;
	char path[512];

	if (kconfig_read)
		return kconfig;
	kconfig_read = true;
	kconfig = read_text_file(env && *env ? env : "/proc/config.gz");
	if (!kconfig && !(env && *env) && !uname(&u)) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		kconfig = read_text_file(path);
	}
	return kconfig;
}

/* After *pos: "CONFIG_X=v", or "# CONFIG_X is not set" as "n"; 0 at the end */
static int next_config(const char **pos, char *sym, size_t slen, char *val, size_t vlen)
{
	const char *s;

	for (s = *pos; s && *s; s = *pos) {
		size_t n = strcspn(s, "\n");
		const char *e;

		*pos = s + n + (s[n] == '\n');
		e = strncmp(s, "CONFIG_", 7) ? NULL : memchr(s, '=', n);
		if (e) {
			const char *v = e + 1;
			size_t vn = s + n - v;
			bool q = vn >= 2 && v[0] == '"' && v[vn - 1] == '"';

			snprintf(sym, slen, "%.*s", (int)(e - s), s);
			snprintf(val, vlen, "%.*s", (int)(vn - 2 * q), v + q);
			return 1;
		}
		if (!strncmp(s, "# CONFIG_", 9) && n > 13 &&
		    !strncmp(s + n - 11, " is not set", 11)) {
			snprintf(sym, slen, "%.*s", (int)(n - 13), s + 2);
			snprintf(val, vlen, "n");
			return 1;
		}
	}
	return 0;
}

int rp_kernel_config(const char *sym, char *buf, size_t len)
{
	const char *pos = kernel_config();
	char s[128], v[256], want[128];

	if (!pos || !sym || !len)
		return -1;
	snprintf(want, sizeof(want), "%s%s", strncmp(sym, "CONFIG_", 7) ? "CONFIG_" : "", sym);
	while (next_config(&pos, s, sizeof(s), v, sizeof(v)))
		if (!strcmp(s, want)) {
			snprintf(buf, len, "%s", v);
			return 0;
		}
	return -1;
}

int rp_hz(void)
{
	struct timespec res;

	/*
	 * The coarse clocks' resolution is the tick on every kernel (2.6.32
	 * on): LOW_RES_NSEC, TICK_NSEC, (NSEC_PER_SEC + HZ / 2) / HZ.
	 */
	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) || res.tv_sec ||
	    res.tv_nsec < 100000 || res.tv_nsec > 100000000)
		return 0;
	return (int)(1e9 / res.tv_nsec + 0.5);
}

/* The CPUs there may ever be ("0-3,8": 5) as libperf reads them, or 0. */
static int nr_possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	struct perf_cpu_map *map = f ? perf_cpu_map__read(f) : NULL;
	int n = map ? perf_cpu_map__nr(map) : 0;

	perf_cpu_map__put(map);
	if (f)
		fclose(f);
	return n;
}

int rp_default_fqs_jiffies(void)
{
	int hz = rp_hz();

	/* RCU_JIFFIES_TILL_FORCE_QS + nr_cpu_ids / RCU_JIFFIES_FQS_DIV */
	return hz ? 1 + (hz > 250) + (hz > 500) + nr_possible_cpus() / 256 : 0;
}

int rp_cpu_times(struct rp_cpu_time *per_cpu, int max, struct rp_cpu_time *all)
{
	double tick = 1.0 / sysconf(_SC_CLK_TCK);
	unsigned long long v[8];
	struct rp_cpu_time *t;
	char line[512];
	int id, n, off, err = -EINVAL;
	FILE *f = fopen("/proc/stat", "re");

	if (!f)
		return -errno;
	/* The cpu lines come first: "cpu" the sum, then "cpuN". */
	while (fgets(line, sizeof(line), f) && !strncmp(line, "cpu", 3)) {
		off = 0;
		if (line[3] != ' ' && sscanf(line + 3, "%d%n", &id, &off) != 1)
			continue;
		memset(v, 0, sizeof(v));
		n = sscanf(line + 3 + off, "%llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		if (!off)
			err = n >= 5 ? 0 : -EINVAL;
		t = !off ? all : n >= 5 && id >= 0 && id < max ? &per_cpu[id] : NULL;
		if (!t)
			continue;
		t->busy = (v[0] + v[1] + v[2] + v[5] + v[6]) * tick;
		t->idle = (v[3] + v[4]) * tick;
		t->steal = v[7] * tick;
		t->iowait = v[4] * tick;
	}
	fclose(f);
	return err;
}

void rp_cpu_time_sum(const int *cpus, int n, struct rp_cpu_time *sum)
{
	static struct rp_cpu_time t[1024];
	int i, err = rp_cpu_times(t, ARRAY_SIZE(t), NULL);

	*sum = err ? (struct rp_cpu_time){ NAN, NAN, NAN, NAN } :
		     (struct rp_cpu_time){ 0 };
	for (i = 0; !err && i < n; i++) {
		if (cpus[i] >= (int)ARRAY_SIZE(t))
			continue;
		sum->busy += t[cpus[i]].busy;
		sum->idle += t[cpus[i]].idle;
		sum->steal += t[cpus[i]].steal;
		sum->iowait += t[cpus[i]].iowait;
	}
}

/* Stolen time counts as busy: the hypervisor ran something else. */
double rp_cpu_elapsed(const struct rp_cpu_time *t0, const struct rp_cpu_time *t1)
{
	return t1->busy + t1->steal + t1->idle - (t0->busy + t0->steal + t0->idle);
}

double rp_cpu_others(const struct rp_cpu_time *t0,
		     const struct rp_cpu_time *t1, double own_s, double delay_s, double capacity_s)
{
	double o = t1->busy - t0->busy - own_s;

	if (o < 0)
		o = 0;
	if (delay_s < o)	/* false for NAN: CPU use alone then */
		o = delay_s;
	return (o + t1->steal - t0->steal) / capacity_s;
}

/* Config symbols that shape RCU performance. */
static const char * const config_pfx[] = {
	"CONFIG_HZ", "CONFIG_PREEMPT", "CONFIG_NO_HZ", "CONFIG_RCU",
	"CONFIG_TREE_RCU", "CONFIG_TINY_RCU", "CONFIG_TASKS_",
	"CONFIG_SRCU", "CONFIG_TREE_SRCU", "CONFIG_NR_CPUS",
	"CONFIG_SMP", "CONFIG_HOTPLUG_CPU", "CONFIG_PROVE_",
	"CONFIG_DEBUG_LOCK_ALLOC", "CONFIG_LOCKDEP", "CONFIG_KASAN",
	"CONFIG_KCSAN", "CONFIG_DEBUG_OBJECTS_RCU_HEAD",
	"CONFIG_CONTEXT_TRACKING", "CONFIG_VIRT_CPU_ACCOUNTING",
	"CONFIG_IRQ_FORCED_THREADING", "CONFIG_CPU_ISOLATION",
};

/* RCU runtime knobs, as the run started (after --knob). */
static const char * const rcu_sysfs[] = {
	"/sys/kernel/rcu_expedited",
	"/sys/kernel/rcu_normal",
	"/sys/module/rcutree/parameters/jiffies_till_first_fqs",
	"/sys/module/rcutree/parameters/jiffies_till_next_fqs",
	"/sys/module/rcutree/parameters/jiffies_till_sched_qs",
	"/sys/module/rcutree/parameters/rcu_kick_kthreads",
	"/sys/module/rcutree/parameters/rcu_normal_wake_from_gp",
	"/sys/module/rcupdate/parameters/rcu_expedited",
	"/sys/module/rcupdate/parameters/rcu_normal",
};

static char rcu_sysfs_val[ARRAY_SIZE(rcu_sysfs)][32];	/* "": unreadable */

/* Before the program changes them: it restores its own changes early. */
void rp_system_snapshot(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rcu_sysfs); i++)
		rp_knob_read(rcu_sysfs[i], rcu_sysfs_val[i], sizeof(rcu_sysfs_val[i]));
}

/*
 * The CPU's model as /proc/cpuinfo names it: "model name" (x86), "cpu
 * model" (MIPS), "Processor"/"Model" (Arm), "cpu" (POWER), "uarch"
 * (RISC-V); NULL if none. Malloc'd.
 */
static char *cpu_model(void)
{
	static const char * const keys[] = {
		"model name", "cpu model", "Processor", "Model", "cpu", "uarch",
	};
	char *text = read_text_file("/proc/cpuinfo"), *found = NULL;
	char *line, *end, *v;
	size_t k, n;

	for (k = 0; text && !found && k < ARRAY_SIZE(keys); k++) {
		n = strlen(keys[k]);
		for (line = text; line && !found; line = end ? end + 1 : NULL) {
			end = strchr(line, '\n');
			v = strchr(line, ':');
			if (strncmp(line, keys[k], n) || !v || (end && v > end) ||
			    (line[n] != '\t' && line[n] != ' ' && line[n] != ':'))
				continue;
			v += 1 + strspn(v + 1, " \t");
			if (*v && *v != '\n')
				found = strndup(v, strcspn(v, "\n"));
		}
	}
	free(text);
	return found;
}

void rp_system_write(struct rp_jw *w)
{
	char sym[128], val[256], id[64], cmd[4096] = "", rcu[4096];
	char *tok, *save, *cpu;
	const char *pos;
	struct utsname u;
	size_t i;

	rp_jw_obj_begin(w, "system");
	if (!uname(&u)) {
		rp_jw_str(w, "kernel_release", u.release);
		rp_jw_str(w, "kernel_version", u.version);
		rp_jw_str(w, "machine", u.machine);
	}
	cpu = cpu_model();
	if (cpu)
		rp_jw_str(w, "cpu_model", cpu);
	free(cpu);
	if (rp_knob_read("/proc/sys/kernel/random/boot_id", id, sizeof(id)) >= 0)
		rp_jw_str(w, "boot_id", id);
	rp_jw_int(w, "nr_cpus_online", sysconf(_SC_NPROCESSORS_ONLN));
	rp_jw_int(w, "nr_cpus_possible", nr_possible_cpus());
	rp_jw_int(w, "hz", rp_hz());

	rp_jw_obj_begin(w, "config");
	pos = kernel_config();
	while (pos && next_config(&pos, sym, sizeof(sym), val, sizeof(val)))
		if (rp_has_prefix(sym, config_pfx, ARRAY_SIZE(config_pfx)))
			rp_jw_str(w, sym, val);
	rp_jw_obj_end(w);

	rp_jw_arr_begin(w, "cmdline_rcu");
	rp_knob_read("/proc/cmdline", cmd, sizeof(cmd));
	rp_rcu_params(cmd, rcu, sizeof(rcu));
	for (tok = strtok_r(rcu, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		rp_jw_str(w, NULL, tok);
	rp_jw_arr_end(w);

	rp_jw_obj_begin(w, "rcu_sysfs");
	for (i = 0; i < ARRAY_SIZE(rcu_sysfs); i++)
		if (rcu_sysfs_val[i][0])
			rp_jw_str(w, rcu_sysfs[i], rcu_sysfs_val[i]);
	rp_jw_obj_end(w);
	rp_jw_obj_end(w);
}

struct rp_jval *rp_system_facts(void)
{
	struct rp_jval *doc = NULL;
	char *text = NULL, err[128];
	size_t len = 0;
	struct rp_jw w;
	FILE *f;

	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	rp_jw_init(&w, f);
	rp_jw_obj_begin(&w, NULL);
	rp_jw_int(&w, "suite_version", RP_SUITE_VERSION);
	rp_system_write(&w);
	rp_jw_obj_end(&w);
	if (!fclose(f))
		doc = rp_json_parse(text, err, sizeof(err));
	free(text);
	return doc;
}

static bool config_yes(const char *sym)
{
	char v[8];

	return !rp_kernel_config(sym, v, sizeof(v)) && !strcmp(v, "y");
}

/* The preemption model: the boot's preempt= choice, or the config's. */
static const char *preempt_model(void)
{
	static const char * const models[][2] = {
		{ "CONFIG_PREEMPT_RT", "rt" }, { "CONFIG_PREEMPT", "full" },
		{ "CONFIG_PREEMPT_VOLUNTARY", "voluntary" },
		{ "CONFIG_PREEMPT_NONE", "none" },
	};
	static char mode[32];
	char cmd[4096] = "", *p;
	size_t i;

	rp_knob_read("/proc/cmdline", cmd, sizeof(cmd));
	p = strstr(cmd, "preempt=");
	if (p && (p == cmd || p[-1] == ' ') && config_yes("CONFIG_PREEMPT_DYNAMIC")) {
		snprintf(mode, sizeof(mode), "%.*s", (int)strcspn(p + 8, " \t\n"), p + 8);
		return mode;
	}
	for (i = 0; i < ARRAY_SIZE(models); i++)
		if (config_yes(models[i][0]))
			return models[i][1];
	return "unknown";
}

int rp_machine_key(char *buf, size_t len)
{
	char *cpu = cpu_model(), *s, slug[64] = "";
	struct utsname u;
	size_t n = 0;

	/* the model's words in lower case, joined by '-': a path component */
	for (s = cpu; s && *s && n + 1 < sizeof(slug); s++) {
		if (isalnum((unsigned char)*s))
			slug[n++] = tolower((unsigned char)*s);
		else if (n && slug[n - 1] != '-')
			slug[n++] = '-';
	}
	while (n && slug[n - 1] == '-')
		n--;
	slug[n] = '\0';
	free(cpu);
	if (uname(&u))
		snprintf(u.machine, sizeof(u.machine), "unknown");
	n = snprintf(buf, len, "%s-%s-%ldcpu-%dhz-%s", u.machine,
		     *slug ? slug : "unknown-cpu", sysconf(_SC_NPROCESSORS_ONLN),
		     rp_hz(), preempt_model());
	return n < len ? 0 : -1;
}

