#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot one kernel image in one QEMU configuration with a busybox initramfs
# that holds the suite's statically linked programs, run them there as
# run_kselftest.sh would (each under its own timeout), and bring back what
# they wrote: their KTAP, their JSON results and their exit codes.
#
#   guest.sh --kernel IMAGE --outdir DIR [options] [--] [CMD...]
#
# Each CMD is one program with its arguments ("gp_throttle --quick");
# without any, the kselftest set runs: gp_throttle gp_expedited boot_marker
# dcache_scaling. Options:
#
#   --kernel IMAGE      bzImage to boot (required)
#   --outdir DIR        where the results go (required; created)
#   --mode wall|icount  wall: -accel tcg,thread=multi -smp CPUS (default);
#                       icount: -accel tcg -icount shift=0,sleep=off -smp
#                       CPUS -seed 1, virtual time that counts instructions:
#                       with one vCPU a boot repeats to the nanosecond, with
#                       two (taking turns on one host thread) grace periods
#                       repeat to 0.1% and the boot to ~0.5% (for A/B runs
#                       and baselines)
#   --cpus N            vCPUs (default: 2 for wall, 1 for icount)
#   --mem MB            guest memory (default 512)
#   --append ARGS       extra kernel command line
#   --args ARGS         appended to every CMD (e.g. --quick)
#   --disk              make an ext2 file system on the kernel's RAM disk
#                       (/dev/ram0: make kernels' kernels have one), mount
#                       it at /disk and make it the programs' TMPDIR (tmpfs
#                       keeps no negative dentries); without a RAM disk
#                       the programs stay on tmpfs and say so
#   --settle S          sleep S seconds after boot before the first CMD,
#                       so that the boot's last work is done (in icount
#                       mode a sleep costs no host time; default 0)
#   --baseline DIR      earlier results for the programs' checks against a
#                       baseline: copied into the guest, RCU_PERF_BASELINE
#                       there (e.g. DIR/run-N/ of earlier guests' --outdir)
#   --bindir DIR        the static programs and rcu_perf.conf (default: the
#                       directory of this script: make static copies it
#                       beside them)
#   --prog-timeout S    per-program timeout inside the guest (default: the
#                       suite's kselftest "settings", else 120)
#   --timeout S         hard host-side limit for the whole guest (default:
#                       boot allowance + the per-program timeouts)
#   --busybox FILE      static busybox (default: busybox in $PATH)
#   --qemu PROG         QEMU (default: $QEMU, else qemu-system-x86_64)
#
# DIR receives console.log (the serial console), <prog>.ktap, <prog>.rc,
# <prog>.wall (seconds in the guest), the <test>.json each program wrote
# (RCU_PERF_OUTDIR inside the guest), cmdline, wall (seconds of the whole
# guest on the host; a program the guest did not finish has the KTAP it
# printed on the console) and status: its first line is one of
#   ok        every program ran to its end
#   warn      so did they, but the kernel complained: a BUG (a soft
#             lockup...), a WARNING or an RCU stall
#   timeout   a program hit its timeout, or the guest the host's limit
#   panic     the guest kernel panicked or oopsed
#   no-boot   user space never started
#   error     the host refused what the guest sent back: a block not of
#             a program asked for, over 16 MiB, or holding anything but
#             the programs' results as plain files
# and, unless ok, the reason and the tail of the console.
# Exit status: 0 ok, 1 warn/timeout/panic/no-boot/error, 2 bad usage, 4 cannot run
# (no QEMU, no static busybox).

set -u -o pipefail
me=guest.sh
die() { echo "$me: $*" >&2; exit 2; }
skip() { echo "$me: SKIP: $*" >&2; exit 4; }

kernel="" outdir="" mode=wall cpus="" mem=512 append="" args="" settle=0 disk=""
bindir=$(cd "$(dirname "$0")" && pwd)
prog_timeout="" timeout="" busybox="" qemu=${QEMU:-qemu-system-x86_64}
baseline=""
cmds=()

need() { [ $# -ge 2 ] || die "option $1 needs a value"; }
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) need "$@"; kernel=$2; shift 2 ;;
	--outdir) need "$@"; outdir=$2; shift 2 ;;
	--mode) need "$@"; mode=$2; shift 2 ;;
	--cpus) need "$@"; cpus=$2; shift 2 ;;
	--mem) need "$@"; mem=$2; shift 2 ;;
	--append) need "$@"; append=$2; shift 2 ;;
	--args) need "$@"; args=$2; shift 2 ;;
	--settle) need "$@"; settle=$2; shift 2 ;;
	--disk) disk=1; shift ;;
	--bindir) need "$@"; bindir=$2; shift 2 ;;
	--baseline) need "$@"; baseline=$2; shift 2 ;;
	--prog-timeout) need "$@"; prog_timeout=$2; shift 2 ;;
	--timeout) need "$@"; timeout=$2; shift 2 ;;
	--busybox) need "$@"; busybox=$2; shift 2 ;;
	--qemu) need "$@"; qemu=$2; shift 2 ;;
	-h|--help) sed -n '4,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	--) shift; cmds+=("$@"); break ;;
	-*) die "unknown option $1 (--help)" ;;
	*) cmds+=("$1"); shift ;;
	esac
done

isnum() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }
[ -n "$kernel" ] || die "--kernel IMAGE is required"
{ [ -r "$kernel" ] && [ -f "$kernel" ]; } || die "--kernel '$kernel': not a readable file"
[ -n "$outdir" ] || die "--outdir DIR is required"
[ -z "$baseline" ] || [ -d "$baseline" ] || die "--baseline '$baseline': not a directory"
case $mode in wall|icount) ;; *) die "--mode '$mode': wall or icount" ;; esac
[ -n "$cpus" ] || { cpus=2; [ "$mode" = wall ] || cpus=1; }
isnum "$cpus" || die "--cpus '$cpus': not a positive number"
isnum "$mem" || die "--mem '$mem': not a positive number (MB)"
[[ $settle =~ ^[0-9]+$ ]] || die "--settle '$settle': not a whole number of seconds"
[[ $append$args != *[$'\n\'"']* ]] ||
	die "--append/--args: no newlines or quotes, please"
[ ${#cmds[@]} -gt 0 ] ||
	cmds=(gp_throttle gp_expedited boot_marker dcache_scaling)
if [ -z "$prog_timeout" ]; then
	prog_timeout=$(sed -n 's/^timeout=\([0-9]*\)$/\1/p' \
		"$bindir/settings" 2>/dev/null)
	prog_timeout=${prog_timeout:-120}
fi
isnum "$prog_timeout" || die "--prog-timeout '$prog_timeout': not a positive number"
# Booting a distribution kernel under TCG takes 10-60 s; programs that
# ignore SIGTERM get 10 s more before SIGKILL; the dump needs a little.
boot_allowance=180
[ -n "$timeout" ] ||
	timeout=$((boot_allowance + ${#cmds[@]} * (prog_timeout + 15)))
isnum "$timeout" || die "--timeout '$timeout': not a positive number"
for c in "${cmds[@]}"; do
	[[ $c != *[$'\n\'"']* ]] || die "'$c': no newlines or quotes, please"
	p=${c%% *}
	[[ $p =~ ^[A-Za-z0-9_.-]+$ ]] || die "'$p': not a program name"
	[ -x "$bindir/$p" ] || die "$bindir/$p: no such program (--bindir)"
	ldd "$bindir/$p" >/dev/null 2>&1 &&
		die "$bindir/$p is dynamically linked: build with LDFLAGS=-static"
done

command -v "$qemu" >/dev/null || skip "$qemu not found (apt install qemu-system-x86)"
[ -n "$busybox" ] || busybox=$(command -v busybox) ||
	skip "no busybox (apt install busybox-static)"
ldd "$busybox" >/dev/null 2>&1 &&
	skip "$busybox is dynamically linked (apt install busybox-static)"
command -v cpio >/dev/null || skip "no cpio (apt install cpio)"

mkdir -p "$outdir" || die "cannot create $outdir"
outdir=$(cd "$outdir" && pwd)
rm -f "$outdir"/{console.log,data.log,status,wall,cmdline} \
	"$outdir"/*.ktap "$outdir"/*.rc "$outdir"/*.wall "$outdir"/*.json
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rcu_perf-guest.XXXXXX") || die "no temporary directory"
qpid=""
cleanup() { [ -n "$qpid" ] && kill -9 "$qpid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# The initramfs: busybox, the programs beside their rcu_perf.conf, an init.
root=$tmp/root
mkdir -p "$root/bin" "$root/rcu_perf" "$root/dev"
cp "$busybox" "$root/bin/busybox"
for c in "${cmds[@]}"; do cp "$bindir/${c%% *}" "$root/rcu_perf/"; done
[ -f "$bindir/rcu_perf.conf" ] && cp "$bindir/rcu_perf.conf" "$root/rcu_perf/"
# kernbench builds its generated tree with make, cc and ar: the
# host's, each where it is on the host, with the libraries they load and
# the system headers the tree's files include at -O2 (kernbench.c:
# generate()). /usr/bin comes first in the guest's PATH: busybox's ar
# cannot create an archive.
toolchain=""
for c in "${cmds[@]}"; do [ "${c%% *}" = kernbench ] && toolchain=1; done
if [ -n "$toolchain" ]; then
	tools=()
	for t in make cc ar as; do
		t=$(command -v "$t") || skip "kernbench: no $t on the host"
		tools+=("$t")
	done
	cc1=$(cc -print-prog-name=cc1)
	[ -x "$cc1" ] || skip "kernbench: the host's cc has no cc1"
	mapfile -t files < <(
		ldd "${tools[@]}" "$cc1" 2>/dev/null | grep -o '/[^ :]*' | sort -u
		printf '#include <%s.h>\n' stdio stdlib string |
			cc -O2 -M -x c - 2>/dev/null | grep -o '/[^ ]*')
	for f in "${tools[@]}" "$cc1" "${files[@]}"; do
		mkdir -p "$root${f%/*}" && cp -L "$f" "$root$f" ||
			die "cannot copy $f into the initramfs"
	done
fi
# The baseline travels as a tar archive in a file of a fixed size, empty
# (zeros) without one: an instruction-counted boot diverges at the first
# instruction that differs (where the timer tick falls, then which task
# runs: the marker moves by whole jiffies), and the initramfs is unpacked
# before the marker, but copying a file's data costs the same whatever the
# data. So a boot with --baseline repeats the boots that made the baseline
# (when its archive fits in 1 MiB; a larger one takes whole MiB more).
blob=$root/rcu_perf/baseline.tar
if [ -n "$baseline" ]; then
	# only the results files: the rest of an --outdir is not needed
	(cd "$baseline" && find . -name '*.json' | LC_ALL=C sort |
		tar -c -f - --owner=0 --group=0 --mode=go-w --mtime=@1704067200 \
		-T -) >"$blob" || die "--baseline $baseline: cannot copy its results"
fi
mib=$(( ($(stat -c %s "$blob" 2>/dev/null || echo 0) + 1048575) / 1048576 ))
truncate -s $(( (mib > 1 ? mib : 1) * 1048576 )) "$blob" ||
	die "cannot write $blob"
# An instruction-counted boot repeats exactly, down to the kernel's random
# boot_id (see below): each guest gets an id of its own from the host, put
# in place of the kernel's after the boot, for the programs' records of
# which results are of one boot (lib/baseline.c counts a boot once).
[ "$mode" = icount ] && cat /proc/sys/kernel/random/uuid >"$root/rcu_perf/boot_id"
{
	cat <<-'EOF'
	#!/bin/busybox sh
	/bin/busybox --install -s /bin
	export PATH=/bin
	mount -t devtmpfs dev /dev
	exec </dev/console >/dev/console 2>&1
	mkdir -p /proc /sys /tmp /run
	mount -t proc none /proc
	mount -t sysfs sys /sys
	mount -t tmpfs tmp /tmp
	mount -t tmpfs run /run
	mount -t tracefs none /sys/kernel/tracing 2>/dev/null
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
	[ -f /rcu_perf/boot_id ] &&
		mount -o bind /rcu_perf/boot_id /proc/sys/kernel/random/boot_id
	# a baseline (an archive, else zeros): see guest.sh
	if [ -n "$(head -c 512 /rcu_perf/baseline.tar | tr -d '\0')" ]; then
		mkdir -p /rcu_perf/baseline
		tar -x -f /rcu_perf/baseline.tar -C /rcu_perf/baseline &&
			chmod -R go-w /rcu_perf/baseline &&
			export RCU_PERF_BASELINE=/rcu_perf/baseline
	fi
	# The second serial port carries the results, free of kernel messages.
	data=/dev/ttyS1
	stty -F $data raw -echo 2>/dev/null
	# On the console a kernel message can split the marker: on both.
	echo "@@RCU_PERF_BOOTED@@ $(cut -d' ' -f1 /proc/uptime)" | tee $data
	now() { cut -d' ' -f1 /proc/uptime; }
	# run NAME TIMEOUT CMD...: like run_kselftest.sh, one program under a
	# timeout; its KTAP on the console too; then everything it wrote
	# goes out as a gzipped tar in base64 between markers.
	run() {
		name=$1 t=$2
		shift 2
		d=/tmp/out/$name
		mkdir -p $d
		echo "# selftests: rcu_perf: $*"
		t0=$(now)
		{ RCU_PERF_OUTDIR=$d timeout -k 10 $t "$@" 2>&1; echo $? >$d/$name.rc; } |
			tee $d/$name.ktap
		t1=$(now)
		echo "$t0 $t1" | awk '{ printf "%.1f\n", $2 - $1 }' >$d/$name.wall
		echo "# $name: exit $(cat $d/$name.rc), $(cat $d/$name.wall) s"
		{
			echo "@@RCU_PERF_FILES $name@@"
			tar -C $d -c . | gzip | base64
			echo "@@RCU_PERF_END $name@@"
		} >$data
	}
	cd /rcu_perf
	EOF
	[ -z "$toolchain" ] || echo "export PATH=/usr/bin:/bin"
	[ -z "$disk" ] || cat <<-'EOF'
	if [ -b /dev/ram0 ] && mkdir -p /disk && mke2fs /dev/ram0 >/dev/null 2>&1 &&
	   mount -t ext2 /dev/ram0 /disk; then
		export TMPDIR=/disk
	else
		echo "# guest.sh --disk: no RAM disk (/dev/ram0): /tmp is tmpfs"
	fi
	EOF
	[ "$settle" = 0 ] || echo "sleep $settle"
	for c in "${cmds[@]}"; do
		echo "run ${c%% *} $prog_timeout ./$c $args"
	done
	cat <<-'EOF'
	echo "@@RCU_PERF_DONE@@" >$data
	echo "@@RCU_PERF_DONE@@"
	sync
	poweroff -f
	EOF
} >"$root/init"
chmod 755 "$root/init"
# The same files give the same archive, byte for byte: in name order, with
# one date (the guest's clock in icount mode) and no host inode numbers.
find "$root" -exec touch -h -d @1704067200 {} + ||
	die "cannot set the initramfs' dates"
(cd "$root" && find . | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --reproducible --quiet) >"$tmp/initrd" ||
	die "cpio failed"

# no_timer_check: on a loaded host a TCG guest can fail the boot-time
# IO-APIC timer check ("IO-APIC + timer doesn't work!") and panic.
cmdline="console=ttyS0 printk.time=1 panic=-1 no_timer_check $append"
echo "$cmdline" >"$outdir/cmdline"
qargs=(-nodefaults -no-user-config -display none -no-reboot
       -serial "file:$outdir/console.log" -serial "file:$tmp/data.log"
       -m "$mem" -kernel "$kernel" -initrd "$tmp/initrd" -append "$cmdline")
if [ "$mode" = icount ]; then
	# The host's time of day would change the boot path, and so would
	# random bytes from QEMU (an RNG seed in setup_data, in some
	# versions): a fixed -seed makes them the same in every boot.
	icount=shift=0,sleep=off rtc=base=2024-01-01T00:00:00,clock=vm
	qargs+=(-accel tcg -icount "$icount" -smp "$cpus" -rtc "$rtc" -seed 1)
else
	tcg=tcg,thread=multi
	qargs+=(-accel "$tcg" -smp "$cpus")
fi
echo "$qemu ${qargs[*]}" >"$tmp/qemu.cmd"

t0=$(date +%s.%N)
"$qemu" "${qargs[@]}" >"$tmp/qemu.log" 2>&1 &
qpid=$!
# The host's hard limit: a guest that hangs is killed and reported. So is
# one whose program outlived its timeout by far: SIGKILL cannot end a task
# blocked in the kernel, and the guest would wait for it until the limit.
hung=0 stuck="" started=0 since=$SECONDS
grace=$((prog_timeout + (prog_timeout < 30 ? prog_timeout : 30)))
while kill -0 "$qpid" 2>/dev/null; do
	if awk -v t0="$t0" -v now="$(date +%s.%N)" -v lim="$timeout" \
		'BEGIN { exit !(now - t0 > lim) }'; then
		hung=1
		kill -9 "$qpid" 2>/dev/null
		break
	fi
	n=$(grep -ac '^# selftests: rcu_perf: ' "$outdir/console.log" 2>/dev/null)
	[ "${n:-0}" = "$started" ] || { started=${n:-0}; since=$SECONDS; }
	ended=$(grep -acE '^# [A-Za-z0-9_.-]+: exit [0-9]+, ' "$outdir/console.log" 2>/dev/null)
	if [ "$started" -gt "${ended:-0}" ] && [ $((SECONDS - since)) -gt $grace ]; then
		hung=1 stuck=$grace
		kill -9 "$qpid" 2>/dev/null
		break
	fi
	sleep 1
done
wait "$qpid" 2>/dev/null
qrc=$?
qpid=""
awk -v t0="$t0" -v now="$(date +%s.%N)" 'BEGIN { printf "%.0f\n", now - t0 }' \
	>"$outdir/wall"
touch "$outdir/console.log"

# Unpack every complete block of the data channel. The guest's kernel is
# under test, buggy or hostile, and this runs as root: what it sends is
# data, never names or metadata the host acts on. A block counts only
# under the name of a program asked for and below a size cap; its archive
# only if it lists regular files of plain names (no path, link, device or
# setuid bit); its files are unpacked as the host's own into a directory
# of this run and copied to the outdir only under the names of a
# program's results. Anything else makes the cell an error, with why.
progs=()
for c in "${cmds[@]}"; do progs+=("${c%% *}"); done
max_block=$((16 << 20))
bad=()
mkdir -p "$tmp/blocks"
tr -d '\r' <"$tmp/data.log" 2>/dev/null | awk -v dir="$tmp/blocks" -v ok=" ${progs[*]} " '
	/^@@RCU_PERF_FILES [^@]*@@$/ {
		n = substr($0, 18, length($0) - 19); f = ""
		if (index(ok, " " n " ") && n != "")
			f = dir "/" n ".b64"
		else
			print substr(n, 1, 40) > (dir "/.names")
		next
	}
	/^@@RCU_PERF_END / { if (f != "") close(f); f = ""; next }
	f != "" { print > f }'
if [ -s "$tmp/blocks/.names" ]; then
	bad+=("a block named '$(head -n 1 "$tmp/blocks/.names" | tr -c 'A-Za-z0-9_.\n-' '?')'")
fi
for p in "${progs[@]}"; do
	b=$tmp/blocks/$p.b64 x=$tmp/blocks/$p
	[ -f "$b" ] || continue
	if ! base64 -d <"$b" 2>/dev/null | gzip -dc 2>/dev/null |
		head -c $((max_block + 1)) >"$x.tar"; then
		echo "$me: $p: truncated results" >&2
	fi
	if [ "$(stat -c %s "$x.tar")" -gt $max_block ]; then
		bad+=("$p's block is over $((max_block >> 20)) MiB")
		continue
	fi
	# Types and modes first (-tv: "-rw-r--r-- 0/0 ..."), then names.
	what=$(tar -tvf "$x.tar" 2>/dev/null | cut -c 1-10 | grep -vxE '[-d][-rwx]{9}' | head -n 1)
	name=$(tar -tf "$x.tar" 2>/dev/null | grep -vxE '\./|(\./)?[A-Za-z0-9_][A-Za-z0-9_.-]*' |
		head -n 1)
	[ -z "$what" ] || bad+=("$p's block holds a file of type/mode $what")
	[ -z "$name" ] || bad+=("$p's block holds '${name:0:40}'")
	[ -z "$what$name" ] || continue
	mkdir "$x" && tar -C "$x" --no-same-owner --no-same-permissions -xf "$x.tar" 2>/dev/null
	for f in "$x"/*; do
		n=${f##*/}
		[ -f "$f" ] && [ ! -L "$f" ] || continue
		case $n in
		"$p".ktap | "$p".rc | "$p".wall | *.json) ;;
		*) bad+=("$p's block holds '$n', no result"); continue ;;
		esac
		rm -f "$outdir/$n" && cp "$f" "$outdir/$n" && chmod 644 "$outdir/$n"
	done
done
# A program the guest did not finish (panic, hang) sent nothing: keep what
# it printed on the console, less the kernel's messages.
for c in "${cmds[@]}"; do
	p=${c%% *}
	[ -e "$outdir/$p.ktap" ] && continue
	tr -d '\r' <"$outdir/console.log" | awk -v p="./$p" '
		/^# selftests: rcu_perf: / { on = ($4 == p); next }
		/^@@RCU_PERF/ || /^# [A-Za-z0-9_.-]+: exit [0-9]+, / { on = 0 }
		on && !/^\[ *[0-9]+\.[0-9]+\]/' >"$tmp/partial"
	[ -s "$tmp/partial" ] && mv "$tmp/partial" "$outdir/$p.ktap"
done

# booted: user space started (its marker on the console or, whole, on the
# data channel: a kernel message printed in the middle of the console's
# copy once made a guest that ran everything look unbooted).
booted() {
	grep -q '@@RCU_PERF_BOOTED@@' "$outdir/console.log" ||
		grep -q '^@@RCU_PERF_BOOTED@@' "$tmp/data.log" 2>/dev/null
}

# Nothing but files and directories may be left for the host to write
# through (matrix.sh's checks and verdict, the cp of *.json).
odd=$(find "$outdir" -mindepth 1 ! -type f ! -type d -print -quit)
if [ -n "$odd" ]; then
	bad+=("${odd#"$outdir"/} is no regular file")
	find "$outdir" -mindepth 1 ! -type f ! -type d -delete
fi

status=ok reason=""
progs_timeout=""
for c in "${cmds[@]}"; do
	p=${c%% *}
	rc=$(cat "$outdir/$p.rc" 2>/dev/null)
	w=$(cat "$outdir/$p.wall" 2>/dev/null)
	# busybox timeout: the program dies by SIGTERM (143) or SIGKILL (137),
	# or exits on the suite's SIGTERM handler, at its limit.
	if [ -n "$w" ] && awk -v w="$w" -v t="$prog_timeout" 'BEGIN { exit !(w >= t) }'; then
		progs_timeout+=" $p (exit $rc after $w s)"
	fi
done
# Kernel messages only (printk.time=1), not what the programs print.
ts='^\[ *[0-9]+\.[0-9]+\] '
oops="$ts.*(Kernel panic|Oops|general protection fault|invalid opcode:|kernel BUG at)"
warn="$ts(.*BUG: |.*WARNING: |rcu: INFO: .*detected stalls)"
running=$(grep -a '^# selftests: rcu_perf: ' "$outdir/console.log" | tail -n 1 |
	  sed 's/^# selftests: rcu_perf: //')
if [ ${#bad[@]} -gt 0 ]; then
	status=error
	reason="results refused: ${bad[0]}"
	[ ${#bad[@]} = 1 ] || reason+=" (and $((${#bad[@]} - 1)) more)"
elif grep -aqE "$oops" "$outdir/console.log"; then
	status=panic
	reason=$(grep -a -m1 -E "$oops" "$outdir/console.log" | tr -d '\r')
	[ -z "$running" ] || reason+=" (while running $running)"
elif [ $hung = 1 ]; then
	status=timeout
	reason="guest killed after the host limit of $timeout s"
	[ -z "$stuck" ] ||
		reason="guest killed: its program ran $stuck s, past its timeout and SIGKILL"
	if booted; then
		reason+=", last program started: ${running:-none}"
	else
		reason+=" (user space never started)"
	fi
elif ! booted; then
	status=no-boot
	reason="user space never started (QEMU exit $qrc: $(tail -n 1 "$tmp/qemu.log"))"
elif [ -n "$progs_timeout" ]; then
	status=timeout
	reason="timeout ${prog_timeout} s:$progs_timeout"
elif ! grep -q '@@RCU_PERF_DONE@@' "$outdir/console.log"; then
	# A reset or a triple fault leaves no panic message.
	status=panic
	reason="the guest stopped during ${running:-its programs}"
	reason+=" (QEMU exit $qrc), no panic message"
elif grep -aqE "$warn" "$outdir/console.log"; then
	status=warn
	reason="$(grep -a -m1 -E "$warn" "$outdir/console.log" | tr -d '\r') ($(grep -acE "$warn" \
		"$outdir/console.log") such lines)"
fi
{
	echo "$status"
	if [ "$status" != ok ]; then
		echo "# $reason"
		echo "# console tail:"
		tail -n 25 "$outdir/console.log" | tr -d '\r' | sed 's/^/#   /'
	fi
} >"$outdir/status"
echo "$me: $status, $(cat "$outdir/wall") s${reason:+: $reason}" >&2
[ "$status" = ok ]
