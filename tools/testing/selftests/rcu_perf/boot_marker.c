// SPDX-License-Identifier: GPL-2.0
/*
 * boot_marker: how long did this boot take to reach user space? Expediting
 * grace periods during boot cut it by 18%. How long a boot should take
 * depends on the machine, so the one check is against earlier boots
 * (--baseline); without them it SKIPs and the JSON keeps the time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rcu_perf.h"

static struct rp_param p_baseline_change =
	RP_BASELINE_CHANGE(1,
			   "boots unexpedited cost the small 6.12 kernel +3.4%; icount boots repeat exactly");
static struct rp_param p_baseline_alpha = RP_BASELINE_ALPHA;
static struct rp_param p_log =
	RP_PATH("log", "FILE",
		"parse FILE instead of this boot's log: dmesg text,\n"
		"/dev/kmsg records or a serial capture (- for stdin)");
static struct rp_param p_parse =
	RP_FLAG("parse",
		"only print \"<seconds> <marker>\" and exit 0 (with --log\n"
		"FILE alone); exit 4 when no marker (reason on stderr), 1\n"
		"when the log is unreadable or malformed; no KTAP, no JSON");

static struct rp_param *params[] = {
	&p_baseline_change, &p_baseline_alpha, &p_log,
	&p_parse, NULL
};

/* The library's --baseline check; without a baseline, planned here to SKIP. */
#define CHECK	"boot_time_to_user_vs_baseline"

static const char * const check_names[] = { CHECK, NULL };
static const char * const baseline_metrics[] = { "boot.time_to_user", NULL };

static struct rp_test test = {
	.name = "boot_marker",
	.summary = "time from kernel start to user space in this boot's log vs earlier boots",
	.params = params,
	.nr_checks = 1,
	.checks = check_names,
	.reads_only = true,
	.baseline = baseline_metrics,
	.baseline_per_boot = true,
	.extra_usage =
	"Markers, preferred first: Write protecting the kernel read-only data (x86_64),\n"
	"  ...kernel text and read-only data (x86_32), Write protected\n"
	"  read-only-after-init data (s390), Write protecting the kernel text (old),\n"
	"  Freeing unused kernel image (initmem) memory, Freeing unused kernel image\n"
	"  memory, Freeing unused kernel memory (arm64), Run %s as init process.\n",
};

/*
 * --log's, else this boot's log, where it came from and its marker: 0,
 * -1 (none) or -2 (malformed) with why in @err; -3: unreadable (errno).
 */
static int find_marker(char **log, const char **src, struct rp_marker *m, char *err, size_t len)
{
	*log = p_log.str ? rp_read_log(p_log.str) : rp_read_kmsg();
	*src = p_log.str ?: "/dev/kmsg";
	return *log ? rp_find_boot_marker(*log, m, err, len) : -3;
}

/* --parse: for scripts, before rp_init() so that nothing else is printed. */
static int parse_only(void)
{
	char err[512], *log;
	struct rp_marker m;
	const char *src;
	int r;

	if (rp_opts.nr_given > 1 + !!p_log.str) {
		fprintf(stderr, "boot_marker: --parse takes only --log FILE\n");
		return KSFT_FAIL;
	}
	r = find_marker(&log, &src, &m, err, sizeof(err));
	if (r == -3)
		fprintf(stderr, "boot_marker: cannot read %s: %s\n", src, strerror(errno));
	else if (r)
		fprintf(stderr, "boot_marker: %s: %s\n", src, err);
	else
		printf("%.6f %s\n", m.t, m.name);
	free(log);
	return r == -1 ? KSFT_SKIP : r ? KSFT_FAIL : 0;
}

/* The RCU boot parameters: the log's command line, else this boot's. */
static void report_rcu_params(const char *log)
{
	static const char * const announce[] = {
		"All grace periods are expedited",
		"No expedited grace period",
	};
	static const char * const knob[] = { "rcu_expedited", "rcu_normal" };
	char cmdline[4096], rcu[2048], path[64];
	const char *p;
	size_t i;

	if (rp_log_cmdline(log, cmdline, sizeof(cmdline)) &&
	    (p_log.str || rp_knob_read("/proc/cmdline", cmdline, sizeof(cmdline)) < 0))
		p = "unknown (no command line in the log)";
	else
		p = rp_rcu_params(cmdline, rcu, sizeof(rcu)) ? rcu : "none";
	rp_info("rcu_boot_params", "%s", p);
	/* rcupdate_announce_bootup_oddness(): what RCU made of them */
	for (i = 0; i < ARRAY_SIZE(announce); i++) {
		p = strstr(log, announce[i]);
		if (p)
			rp_info("rcu_boot_announce", "%.*s", (int)strcspn(p, "\r\n"), p);
	}
	for (i = 0; !p_log.str && i < ARRAY_SIZE(knob); i++) {
		snprintf(path, sizeof(path), "/sys/kernel/%s", knob[i]);
		if (rp_knob_read(path, rcu, sizeof(rcu)) >= 0)
			rp_info(knob[i], "%s", rcu);
	}
}

int main(int argc, char **argv)
{
	char err[512], *log;
	struct rp_marker m;
	const char *src;
	int r;

	/* rp_init() parses again, for the KTAP run */
	if (rp_parse(&test, argc, argv))
		return KSFT_FAIL;
	if (p_parse.value && !rp_opts.help)
		return parse_only();
	if (rp_opts.baseline) {
		test.nr_checks = 0;
		test.checks = NULL;
	}
	rp_init(&test, argc, argv);
	r = find_marker(&log, &src, &m, err, sizeof(err));
	if (r == -3 && p_log.str)
		rp_check_skip(CHECK, "cannot read %s: %s", src, strerror(errno));
	else if (r == -3)
		rp_exit_skip("cannot read the kernel log (/dev/kmsg): %s", strerror(errno));
	else
		rp_info("log_source", "%s", src);
	if (r == -1)
		rp_exit_skip("%s: %s", src, err);
	else if (r == -2)
		rp_check_skip(CHECK, "%s: %s", src, err);
	if (!r) {
		rp_info("marker", "%s", m.name);
		rp_info("marker_time_s", "%.6f", m.t);
		report_rcu_params(log);
		rp_metric_add("boot.time_to_user", "s", &m.t, 1);
		if (!rp_opts.baseline)
			rp_check_skip(CHECK,
				      "no baseline: judged against earlier boots (--baseline DIR)");
	}
	free(log);
	return rp_finish();
}
