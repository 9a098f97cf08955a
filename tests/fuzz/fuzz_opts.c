// SPDX-License-Identifier: GPL-2.0
/*
 * Everything rp_parse() reads from outside: the command line (one argument
 * per input line: options, --set, --knob paths), the environment
 * (RCU_PERF_<NAME>) and a config file. The input's first byte picks which:
 * 'a' argv, 'e' environment ("NAME=VALUE" lines), 'c' config file; the
 * rest is the text. Nothing is written to the kernel: rp_parse() only
 * parses.
 */
#include <stdio.h>
#include <unistd.h>

#include "rcu_perf.h"
#include "fuzz.h"

#define MAX_ARGS	64

static struct rp_param p_max_ratio = RP_MAX("max_ratio", "ratio", 1.5, "fuzz");
static struct rp_param p_min_rate = RP_MIN("min_rate", "ops/s", 10, "fuzz");
static struct rp_param p_samples =
	RP_SETTING("samples", "count", 30, "fuzz", RP_QUICK(5), RP_RANGE(1, 100));
static struct rp_param p_enable = RP_SETTING("enable", "bool", 0, "fuzz");

static struct rp_param *params[] = {
	&p_max_ratio, &p_min_rate, &p_samples, &p_enable, NULL
};

/* A rule between parameters, so that the fuzzer reaches the hook too. */
static const char *check_params(void)
{
	return p_samples.value > 10 * p_max_ratio.value + 20 ?
	       "samples must be at most 10 x max_ratio + 20" : NULL;
}

static const struct rp_test test = {
	.name = "fuzz",
	.params = params,
	.check_params = check_params,
};

static char conf_path[64];
static char *env_set[MAX_ARGS];
static int nr_env;

/* At exit: the config file goes, so runs leave nothing in /tmp. */
static void remove_conf(void)
{
	unlink(conf_path);
}

int FUZZ_INITIALIZE(int *argc, char ***argv)
{
	int fd;

	snprintf(conf_path, sizeof(conf_path), "/tmp/rp_fuzz_conf.XXXXXX");
	fd = mkstemp(conf_path);
	if (fd < 0)
		abort();
	close(fd);
	atexit(remove_conf);
	setenv("RCU_PERF_CONFIG", "", 1);
	return 0;
}

static void clear_env(void)
{
	while (nr_env > 0) {
		unsetenv(env_set[--nr_env]);
		free(env_set[nr_env]);
	}
}

int FUZZ_ONE_INPUT(const unsigned char *data, size_t size)
{
	char *s, *line, *save, *argv[MAX_ARGS + 2];
	int argc = 1;
	FILE *f;

	if (!size)
		return 0;
	s = fuzz_str(data + 1, size - 1);
	argv[0] = "fuzz";
	switch (data[0]) {
	case 'c':
		f = fopen(conf_path, "w");
		if (!f)
			abort();
		fwrite(s, 1, strlen(s), f);
		fclose(f);
		argv[argc++] = "--config";
		argv[argc++] = conf_path;
		break;
	case 'e':
		for (line = strtok_r(s, "\n", &save); line && nr_env < MAX_ARGS;
		     line = strtok_r(NULL, "\n", &save)) {
			char *eq = strchr(line, '=');
			char var[160];

			if (!eq || eq == line || eq - line > 100)
				continue;
			snprintf(var, sizeof(var), "RCU_PERF_%.*s",
				 (int)(eq - line), line);
			if (setenv(var, eq + 1, 1))
				continue;
			env_set[nr_env++] = strdup(var);
		}
		break;
	default:
		for (line = strtok_r(s, "\n", &save); line && argc < MAX_ARGS;
		     line = strtok_r(NULL, "\n", &save))
			argv[argc++] = line;
	}
	argv[argc] = NULL;
	rp_parse(&test, argc, argv);
	clear_env();
	free(s);
	return 0;
}
