#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kernels.sh builds every test kernel in one object directory, so
# a rebuild must not keep an object compiled with another kernel's patch.
# A stand-in kernel tree whose "bzImage" is its one object, copied from
# kernel/rcu/tree.c with make's date rules as kbuild has them: healthy and
# a variant that patches tree.c, then a fragment change rebuilds both.
# Without the copy of the last patch's files after the sync, healthy came
# out patched: the sync had linked tree.c back with the tree's older date.
# The stamps make OUT reusable by another clone (make keeps it outside
# one): a fresh copy of the tree reuses both kernels, a changed file of the
# same kernel version rebuilds them.
source "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "TAP version 13"
echo "1..5"

tree=$tmp/tree out=$tmp/out
mkdir -p "$tree/kernel/rcu" "$tree/scripts/kconfig" "$tmp/patches"
echo healthy >"$tree/kernel/rcu/tree.c"
touch -d @1704067200 "$tree/.unpacked"
touch -d @1704067200 "$tree/kernel/rcu/tree.c"
cat >"$tree/Makefile" <<'EOF'
kernelversion:
	@echo 6.12.0
tinyconfig:
	@mkdir -p $(O) && echo CONFIG_TINY=y >$(O)/.config
$(O)/kernel/rcu/tree.o: kernel/rcu/tree.c
	@mkdir -p $(dir $@) && cp $< $@
bzImage: $(O)/kernel/rcu/tree.o
	@mkdir -p $(O)/arch/x86/boot && cp $< $(O)/arch/x86/boot/bzImage
EOF
# merge_config.sh -n -O OBJ CONFIG FRAGMENT
cat >"$tree/scripts/kconfig/merge_config.sh" <<'EOF'
#!/bin/sh
cat "$4" "$5" | grep '^CONFIG_' >"$3/.config.new" && mv "$3/.config.new" "$4"
EOF
chmod +x "$tree/scripts/kconfig/merge_config.sh"
echo CONFIG_A=y >"$tmp/frag"
cat >"$tmp/patches/0001-variant.patch" <<'EOF'
Subject: [INJECTED] a variant

expect: gp_throttle * fail
---
diff --git a/kernel/rcu/tree.c b/kernel/rcu/tree.c
--- a/kernel/rcu/tree.c
+++ b/kernel/rcu/tree.c
@@ -1 +1 @@
-healthy
+patched
EOF

build() {
	"$RP_TOP/scripts/kernels.sh" "${1:-$tree}" "$out" "$tmp/frag" "$tmp/patches" \
		>"$tmp/build.log" 2>&1
}
images() {
	echo "$(cat "$out/healthy/bzImage" 2>/dev/null)" \
		"$(cat "$out/variant/bzImage" 2>/dev/null)"
}
build
t_check "first build: healthy and the variant ($(images))" \
	test "$(images)" = "healthy patched"
echo CONFIG_B=y >>"$tmp/frag"
build
got=$(images)
t_check "after a fragment change: healthy rebuilt unpatched ($got)" \
	test "$got" = "healthy patched"
t_check "the tree's file as it was" \
	test "$(cat "$tree/kernel/rcu/tree.c")" = healthy
# A fresh unpack has the tarball's dates, and the Makefile's mark of it
# (.unpacked) the unpack's own.
cp -a "$tree" "$tmp/tree2"
touch "$tmp/tree2/.unpacked"
build "$tmp/tree2"
t_check "a fresh copy of the tree, marked unpacked anew, reuses both kernels" \
	test "$(grep -c '^  UPTODATE' "$tmp/build.log")" = 2
touch "$tmp/tree2/kernel/rcu/tree.c"
build "$tmp/tree2"
t_check "a file of the tree changed, the version the same: both rebuilt ($(images))" \
	test "$(grep -c '^  BUILD ' "$tmp/build.log")" = 2 -a "$(images)" = "healthy patched"
