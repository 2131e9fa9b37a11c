#!/bin/bash
# Packs the build tree's Weft, the libraries its compiler needs, clang's
# resource headers and the bench programs into device_payload/weft.tar.xz,
# for the lent 16-core machine (../shared/DEVICE.md), which has no LLVM.
# There: tar xJf weft.tar.xz -C / && source /tmp/weft-device/env.sh
# device_payload/ is ignored by git; name it in the device tool's `carry`.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=$(mktemp -d)
root=$stage/tmp/weft-device
mkdir -p "$root/lib" "$root/bin"
cp build/lib/libWeftOpenCL.so build/lib/libweft-compiler.so \
  build/lib/weft-builtins.bc "$root/lib/"
for lib in $(ldd build/lib/libweft-compiler.so build/lib/libWeftOpenCL.so |
  awk '/=> \//{print $3}' | sort -u |
  grep -v -E 'libc.so|libm.so|libstdc|libgcc_s'); do
  cp -L "$lib" "$root/lib/"
done
cp -L /lib/x86_64-linux-gnu/libOpenCL.so.1 "$root/lib/"
# CLBlast, for clblast_bench, when Debian's is installed.
if [ -e /usr/lib/x86_64-linux-gnu/libclblast.so.1 ]; then
  cp -L /usr/lib/x86_64-linux-gnu/libclblast.so.1 "$root/lib/"
fi
strip --strip-debug "$root"/lib/*.so* 2>/dev/null || true
# The compiler library looks up clang's headers at the path it was built with.
mkdir -p "$stage/usr/lib/llvm-19/lib/clang/19"
cp -r /usr/lib/llvm-19/lib/clang/19/include "$stage/usr/lib/llvm-19/lib/clang/19/"
# OpenCL C never includes other targets' intrinsics (about 2 MB packed).
rm -f "$stage"/usr/lib/llvm-19/lib/clang/19/include/{arm,riscv}_*.h
for program in fma_peak "$@"; do
  if [ -x "build/bin/$program" ]; then cp "build/bin/$program" "$root/bin/"
  elif command -v "$program" >/dev/null; then cp "$(command -v "$program")" "$root/bin/"
  fi
done
# WEFT_PACK_BEFORE=<a lib/ directory>: another build's compiler library and
# builtins too, in /tmp/weft-device/before/, for an A/B there (the driver
# library beside them finds them, as bench/compare_compilers.sh does).
if [ -n "${WEFT_PACK_BEFORE:-}" ]; then
  mkdir -p "$root/before"
  cp "$WEFT_PACK_BEFORE/libweft-compiler.so" "$WEFT_PACK_BEFORE/weft-builtins.bc" \
    "$root/before/"
  # Its own driver library when the directory has one (the compiler's
  # interface may have changed since).
  if [ -f "$WEFT_PACK_BEFORE/libWeftOpenCL.so" ]; then
    cp "$WEFT_PACK_BEFORE/libWeftOpenCL.so" "$root/before/"
  else
    cp build/lib/libWeftOpenCL.so "$root/before/"
  fi
  strip --strip-debug "$root"/before/*.so
fi
# The programs' debug information is most of their size (spec_tests: 26 of
# 27 MB) and the call's carry is 64 MiB with the checkout.
strip --strip-debug "$root"/bin/* 2>/dev/null || true
echo /tmp/weft-device/lib/libWeftOpenCL.so > "$root/weft.icd"
cat > "$root/env.sh" <<'ENV'
export LD_LIBRARY_PATH=/tmp/weft-device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/tmp/weft-device/bin:$PATH
export WEFT_CACHE_DIR=off
WEFT_ICD=/tmp/weft-device/weft.icd
POCL_ICD=$(ls /etc/OpenCL/vendors/*pocl*.icd 2>/dev/null | head -1)
ENV
mkdir -p device_payload
tar -C "$stage" -cf - tmp usr | xz -9e -T2 > device_payload/weft.tar.xz
rm -rf "$stage"
ls -la device_payload/weft.tar.xz
