# SPDX-License-Identifier: GPL-2.0
#
# One synthetic rcu_perf results file (schema rcu_perf-results, version 1,
# as written by lib/report.c) on stdout, for the tests of rcu_perf_compare
# and bisect.sh: n normal samples of mean and sd (Box-Muller, seeded, so a
# test always sees the same numbers) for each metric named in "metrics"
# (space-separated; every one gets the same distribution). mawk and gawk
# draw different numbers from the same seed: tests must hold for any draw,
# or give the exact values with -v samples="1.5 2 ...".
#
#   awk -f synth_results.awk -v test=T -v metrics="a.latency b.latency" \
#	-v better=lower -v unit=ms -v n=20 -v mean=10 -v sd=0.5 -v seed=1
BEGIN {
	if (better == "")
		better = "lower"
	if (unit == "")
		unit = "ms"
	srand(seed)
	nm = split(metrics, names, " ")
	printf "{\n  \"schema\": \"rcu_perf-results\",\n  \"version\": 1,\n"
	printf "  \"test\": \"%s\",\n", test
	printf "  \"timestamp\": \"2025-01-31T12:00:00Z\",\n  \"duration_s\": 1.5,\n"
	printf "  \"system\": { \"kernel_release\": \"6.18.0-synthetic\" },\n"
	printf "  \"metrics\": ["
	for (m = 1; m <= nm; m++) {
		printf "%s\n    { \"name\": \"%s\", \"unit\": \"%s\", ", (m > 1 ? "," : ""), names[m], unit
		printf "\"better\": \"%s\", \"samples\": [", better
		if (samples != "") {
			ns = split(samples, v, " ")
			for (i = 1; i <= ns; i++)
				printf "%s%s", (i > 1 ? ", " : " "), v[i]
			printf " ] }"
			continue
		}
		for (i = 0; i < n; i++) {
			u1 = rand()
			u2 = rand()
			if (u1 < 1e-12)
				u1 = 1e-12
			x = mean + sd * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2)
			printf "%s%.6f", i ? ", " : " ", x
		}
		printf " ] }"
	}
	printf "\n  ],\n  \"checks\": [\n"
	printf "    { \"name\": \"synthetic_check\", \"verdict\": \"pass\", "
	printf "\"measured\": %.6f, \"unit\": \"%s\" }\n  ]\n}\n", mean, unit
}
