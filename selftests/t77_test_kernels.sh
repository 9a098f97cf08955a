#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every test kernel of `make kernels` boots in make check and gets the
# verdicts its patch's expect lines name. This test boots the ones no
# other proof boots, each once in the scenario that judges it, against
# the healthy reference booted twice in the same run (matrix.sh): icount2
# (2 vCPUs, instruction-counted: grace periods) for needs-cpu-throttle,
# needs-cpu-ready-only, exp-falls-back-normal and gp-end-late (t75 boots
# it too, but judges it with make ab, not its <metric>_vs_baseline
# checks); icount (1 vCPU: lookups and the boot) for ref-walk-only and
# boot-unexpedited. t30 boots exp-select-slow and exp-wait-first, t75
# lookup-slower. A cell that misses its expectations fails its line here.
# Ten guests, two at a time: ~2-3 minutes.
source "$(dirname "$0")/../tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
small=$RP_BUILD/kernels
echo "TAP version 13"
echo "1..2"

# cells DESC SCENARIO KERNEL...: matrix.sh over the kernels, healthy first.
cells() {
	local d=$1 s=$2 k args=() missing want
	shift 2
	want=$(($# + 2))	# and the reference's second boot
	missing=$(t_qemu_missing "$small/healthy/bzImage")
	for k in healthy "$@"; do
		[ -f "$small/$k/bzImage" ] || missing=${missing:-"no $small/$k (make kernels)"}
		args+=(--kernel "$small/$k")
	done
	if [ -n "$missing" ]; then
		t_skip "$d" "$missing"
		return
	fi
	t_run "$tmp/$s.log" nice -n 10 "$RP_STATIC/matrix.sh" \
		--scenarios "$RP_TOP_CONFIG/matrix" --results "$tmp/$s" \
		--only "$s" --jobs 2 "${args[@]}"
	t_note "$(grep -E '^[0-9]+ cells: ' "$tmp/$s.log")"
	t_check "$d: every cell met its expectations" eval \
		'test "$T_RC" = 0 && grep -qE "^$want cells: $want met" "$tmp/$s.log"'
}

cells "icount2: needs-cpu-throttle, needs-cpu-ready-only, exp-falls-back-normal, gp-end-late" \
	icount2 needs-cpu-throttle needs-cpu-ready-only exp-falls-back-normal gp-end-late
cells "icount: ref-walk-only, boot-unexpedited" \
	icount ref-walk-only boot-unexpedited
