#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh against a hostile guest (a fake QEMU): what comes back on the
# data channel is data. A block named to climb out of its directory, an
# archive with a symlink, a "../" member or a setuid file, and a block
# over the size cap: the host's files stay as they were, nothing but
# plain files is left in the outdir, and the cell is an "error" that says
# why. Seconds, no root needed (as root: no owner kept either).
source "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "TAP version 13"
echo "1..9"

fake=$tmp/fake
mkdir -p "$fake/bin" "$tmp/tmpdir"
printf '#!/bin/sh\nexit 0\n' >"$fake/bin/gp_throttle"
chmod +x "$fake/bin/gp_throttle"
cp "$fake/bin/gp_throttle" "$fake/busybox"
echo "not a kernel" >"$fake/bzImage"
echo untouched >"$tmp/victim"
# where "../../victim" leads from guest.sh's block directory
echo untouched >"$tmp/tmpdir/victim.b64"

cat >"$fake/qemu" <<'EOF'
#!/bin/bash
serial=()
while [ $# -gt 0 ]; do
	[ "$1" = -serial ] && serial+=("${2#file:}")
	[ "$1" = -initrd ] && cpio -i --quiet --to-stdout init <"$2" >"$FAKE_DIR/init" &&
		cpio -t --quiet <"$2" >"$FAKE_DIR/initrd.list"
	shift
done
con=${serial[0]} data=${serial[1]}
printf '[    1.0] Run /init\n@@RCU_PERF_BOOTED@@ 1.0\n# selftests: rcu_perf: ./gp_throttle\n' >"$con"
r=$FAKE_DIR/res
# block NAME TAR-ARGS...: one data-channel block, that archive.
block() {
	local name=$1
	shift
	echo "@@RCU_PERF_FILES $name@@"
	tar -c "$@" | gzip | base64
	echo "@@RCU_PERF_END $name@@"
}
{
	echo "@@RCU_PERF_BOOTED@@ 1.0"
	case $FAKE in
	ok)	block gp_throttle -C "$r" . ;;
	climb)	block ../../victim -C "$r" . ;;
	symlink) block gp_throttle -C "$r/../link" . ;;
	dotdot)	block gp_throttle -P -C "$r" ./gp_throttle.rc ../victim ;;
	setuid)	block gp_throttle -C "$r/../suid" . ;;
	huge)	block gp_throttle -C "$r/../huge" . ;;
	esac
	echo "@@RCU_PERF_DONE@@"
} >"$data"
echo "@@RCU_PERF_DONE@@" >>"$con"
EOF
chmod +x "$fake/qemu"
mkdir -p "$fake/res" "$fake/link" "$fake/suid" "$fake/huge"
printf 'TAP version 13\n1..1\nok 1 tracer_idle_mean\n' >"$fake/res/gp_throttle.ktap"
echo 0 >"$fake/res/gp_throttle.rc"
echo '{"checks": []}' >"$fake/res/gp_throttle.json"
cp "$fake/res/gp_throttle.ktap" "$fake/link/"
ln -s "$tmp/victim" "$fake/link/status"
echo hostile >"$fake/victim"
cp "$fake/res/gp_throttle.json" "$fake/suid/"
chmod 4755 "$fake/suid/gp_throttle.json"
head -c $((20 << 20)) /dev/zero >"$fake/huge/gp_throttle.json"

# hostile MODE: runs guest.sh against it; prints exit and status.
hostile() {
	FAKE=$1 FAKE_DIR=$fake TMPDIR=$tmp/tmpdir "$RP_TOP/qemu/guest.sh" \
		--kernel "$fake/bzImage" --outdir "$tmp/out-$1" --bindir "$fake/bin" \
		--busybox "$fake/busybox" --qemu "$fake/qemu" --timeout 10 \
		-- gp_throttle >"$tmp/$1.log" 2>&1
	echo $? "$(head -n 1 "$tmp/out-$1/status" 2>/dev/null)"
}
# untouched MODE: the host's files as they were, only plain files kept.
untouched() {
	[ "$(cat "$tmp/victim")" = untouched ] &&
		[ "$(cat "$tmp/tmpdir/victim.b64")" = untouched ] &&
		[ -z "$(find "$tmp/out-$1" ! -type f ! -type d)" ] &&
		[ -z "$(find "$tmp/out-$1" -perm /6000)" ]
}

got=$(hostile ok)
t_check "a well-behaved guest: ok, its results back ($got)" eval \
	'test "$got" = "0 ok" && cmp -s "$fake/res/gp_throttle.json" "$tmp/out-ok/gp_throttle.json"'
# refused MODE DESC REASON: the cell is an error that gives REASON.
refused() {
	local got
	got=$(hostile "$1")
	if [ "$got" = "1 error" ] && grep -q "^# results refused: $3" "$tmp/out-$1/status" &&
	   untouched "$1"; then
		t_ok "$2"
	else
		t_note "exit/status $got"
		t_show "$tmp/$1.log"
		t_show "$tmp/out-$1/status"
		find "$tmp/out-$1" -ls | t_show /dev/stdin
		t_fail "$2"
	fi
}
refused climb "a block named ../../victim: refused, nothing written outside" \
	"a block named '..?..?victim'"
refused symlink "a symlink in the archive: refused, nothing written through it" \
	"gp_throttle's block holds a file of type/mode lrwxrwxrwx"
refused dotdot "a ../ member in the archive: refused" \
	"gp_throttle's block holds '../victim'"
refused setuid "a setuid file in the archive: refused, no setuid file kept" \
	"gp_throttle's block holds a file of type/mode -rwsr-xr-x"
refused huge "a block over 16 MiB: refused" \
	"gp_throttle's block is over 16 MiB"
printf 'cpus: 2\n' >"$tmp/scen"
mkdir -p "$tmp/scens" && mv "$tmp/scen" "$tmp/scens/two"
FAKE=symlink FAKE_DIR=$fake TMPDIR=$tmp/tmpdir "$RP_TOP/qemu/matrix.sh" \
	--scenarios "$tmp/scens" --kernel "k=$fake/bzImage" --results "$tmp/m" \
	--bindir "$fake/bin" --busybox "$fake/busybox" --qemu "$fake/qemu" \
	-- gp_throttle >"$tmp/m.log" 2>&1
rc=$?
t_check "matrix.sh: that cell is an ERROR with the reason, exit $rc" eval \
	'test $rc = 1 && grep -q "^ERROR k/two:" "$tmp/m.log" &&
	 grep -q "results refused: gp_throttle.s block holds" "$tmp/m.log" &&
	 test "$(cat "$tmp/victim")" = untouched'

# kernbench in a guest builds with the host's toolchain: guest.sh puts it
# in the initramfs, where it is on the host, and /usr/bin first in PATH;
# a guest without kernbench gets none of it.
cp "$fake/bin/gp_throttle" "$fake/bin/kernbench"
FAKE=ok FAKE_DIR=$fake TMPDIR=$tmp/tmpdir "$RP_TOP/qemu/guest.sh" \
	--kernel "$fake/bzImage" --outdir "$tmp/out-kb" --bindir "$fake/bin" \
	--busybox "$fake/busybox" --qemu "$fake/qemu" --timeout 10 \
	-- kernbench >"$tmp/kb.log" 2>&1
tc_ok=1
for f in "$(command -v make)" "$(command -v cc)" "$(command -v ar)" \
	 "$(command -v as)" "$(cc -print-prog-name=cc1)" \
	 /usr/include/stdio.h; do
	grep -qxF "${f#/}" "$fake/initrd.list" || { t_note "not in the initramfs: $f"; tc_ok=0; }
done
grep -qx 'export PATH=/usr/bin:/bin' "$fake/init" || tc_ok=0
hostile ok >/dev/null
grep -q '^usr/bin/make$' "$fake/initrd.list" && tc_ok=0
t_check "kernbench's guest: make, cc, cc1, as, ar, headers; no other guest" \
	test $tc_ok = 1

# --disk: ext2 on the kernel's RAM disk at /disk, the programs' TMPDIR.
FAKE=ok FAKE_DIR=$fake TMPDIR=$tmp/tmpdir "$RP_TOP/qemu/guest.sh" --disk \
	--kernel "$fake/bzImage" --outdir "$tmp/out-disk" --bindir "$fake/bin" \
	--busybox "$fake/busybox" --qemu "$fake/qemu" --timeout 10 \
	-- gp_throttle >"$tmp/disk.log" 2>&1
disk_ok=0
grep -q 'mount -t ext2 /dev/ram0 /disk; then' "$fake/init" &&
	grep -qx 'export TMPDIR=/disk' "$fake/init" && disk_ok=1
hostile ok >/dev/null
grep -q 'TMPDIR=/disk' "$fake/init" && disk_ok=0
t_check "--disk: ext2 on /dev/ram0 at /disk, the programs' TMPDIR; not without it" \
	test $disk_ok = 1
