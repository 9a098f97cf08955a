#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Each libFuzzer harness of tests/fuzz/ (built by "make fuzz-build" into
# $RP_FUZZ) runs briefly from the seed corpus, which holds every input
# that once crashed: no crash, no sanitizer report. "make fuzz" is the
# long form (FUZZ_TIME=60 s each).
source "$(dirname "$0")/lib.sh"

: "${RP_FUZZ:?run through make check}"
exec nice -n 10 "$(dirname "$0")/fuzz/run.sh" "$RP_FUZZ" "${FUZZ_TIME:-5}" --tap
