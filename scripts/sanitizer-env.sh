# Sourced by scripts/test-sanitizers.sh and scripts/fuzz.sh: the runtime
# settings of the sanitizer build (docs/robustness.md), one place for both.
# Needs LLVM_PREFIX.
#
# ASan with an uninstrumented libMLIR.so: the project's code is linked
# statically into each executable, and libMLIR.so's calls to malloc and
# operator new/delete resolve to ASan's interceptors, so memory crossing the
# library boundary is tracked on both sides. Checked on the whole suite: no
# alloc-dealloc-mismatch, ODR or leak report comes from that boundary, so
# those checks stay on (spelled out, so that turning one off shows here).
# One boundary effect is off: LLVM's BumpPtrAllocator is inline code that
# poisons a new slab in the instrumented project code, and the same
# allocator (an MLIRContext's storage uniquer) then hands out pieces of that
# slab from libMLIR.so without unpoisoning them, a false use-after-poison
# (allow_user_poisoning=0).
# UBSan stops at the first report (-fno-sanitize-recover at build time,
# halt_on_error for the runtime).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:alloc_dealloc_mismatch=1:detect_odr_violation=2:allow_user_poisoning=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export ASAN_SYMBOLIZER_PATH="$LLVM_PREFIX/bin/llvm-symbolizer"
