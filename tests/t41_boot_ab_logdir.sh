#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot_ab --logdir DIR runs as root and writes the initramfs, QEMU's logs
# and serial captures there: a DIR that others can write is bad input
# (exit 1, one line), and a symlink planted in an existing DIR is never
# written through. No boot: it stops before QEMU starts. A private state
# dir: no lock shared with a live run.
source "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ab=$RP_BIN/boot_ab
export RCU_PERF_STATE_DIR=$tmp/state
unset RCU_PERF_QUICK KERNEL QEMU
echo "TAP version 13"
echo "1..3"
echo "not a kernel" >"$tmp/vmlinuz"
echo untouched >"$tmp/victim"

mkdir -m 0777 "$tmp/shared"
chmod 0777 "$tmp/shared"
t_usage_error 1 "--logdir that others can write" "boot_ab: " "$ab" \
	--kernel "$tmp/vmlinuz" --logdir "$tmp/shared"
bb=$(command -v busybox)
if [ -z "$bb" ] || ldd "$bb" >/dev/null 2>&1 || ! command -v qemu-system-x86_64 >/dev/null; then
	t_skip "a planted symlink in --logdir is not written through" "no static busybox or QEMU"
	t_skip "the symlink's target untouched" "no static busybox or QEMU"
	exit 0
fi
mkdir "$tmp/logs"
ln -s "$tmp/victim" "$tmp/logs/initramfs.cpio"
t_run "$tmp/planted.log" "$ab" --kernel "$tmp/vmlinuz" --logdir "$tmp/logs" --set runs=1
t_check "a planted symlink in --logdir is not written through (exit $T_RC)" eval \
	'test "$T_RC" = 4 && grep -q "error: cannot write the initramfs $tmp/logs/initramfs.cpio: Too many levels of symbolic links" "$tmp/planted.log"'
t_check "the symlink's target untouched" test "$(cat "$tmp/victim")" = untouched
