#!/bin/sh
# make sanitize-check: the unit tests once more, built with AddressSanitizer and
# UndefinedBehaviorSanitizer (or, with SANITIZE=thread, ThreadSanitizer). The release's
# sources (make distdir) are configured in a temporary directory, so the tree's own build
# stays as it is; any out-of-bounds access, use after free, leak, undefined behaviour or data
# race, in a test or in an engine process a test starts, fails its test.
# Usage (from a configured build tree): tools/sanitize-check.sh [MAKE [address|thread]]
set -eu
make=${1:-make}
kind=${2:-address}
case $kind in
address) flags='-fsanitize=address,undefined -fno-sanitize-recover=undefined' ;;
thread) flags='-fsanitize=thread' ;;
*)
    echo "sanitize-check: SANITIZE is address or thread, not '$kind'" >&2
    exit 2
    ;;
esac
work=$(mktemp -d "${TMPDIR:-/tmp}/octuple-sanitize.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
"$make" distdir distdir="$work/src" >/dev/null
# the inner build is a fresh one: neither the outer make's -j (its jobserver) nor its
# command-line variables (CFLAGS=...) carry over
unset MAKEFLAGS MFLAGS
cd "$work/src"
./configure --with-cpu=native CFLAGS="-O1 -g -fno-omit-frame-pointer $flags" \
    LDFLAGS="$flags" >"$work/configure.log" || {
    tail -n 20 "$work/configure.log" >&2
    exit 1
}
# abort_on_error off: an error ends the process with a status the test reports, rather than
# a core dump; the full stacks name libedit's frames too
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0
export UBSAN_OPTIONS=print_stacktrace=1
# a race report ends the process with this status once it finishes, which fails the test
export TSAN_OPTIONS=exitcode=66
# the instrumented code runs several times slower (ThreadSanitizer more): Check's per-test
# limits grow to match
if [ "$kind" = thread ]; then
    export CK_TIMEOUT_MULTIPLIER=10
else
    export CK_TIMEOUT_MULTIPLIER=5
fi
"$make" -j2 >"$work/make.log" 2>&1 || {
    tail -n 40 "$work/make.log" >&2
    exit 1
}
if grep -n -E '^[^ :]+:[0-9]+:[0-9]+: warning:' "$work/make.log" >&2; then
    echo "sanitize-check: the sanitized build (-O1) has warnings" >&2
    exit 1
fi
if ! "$make" -j2 check; then
    for log in tests/*.log; do
        grep -q -E 'Sanitizer|runtime error|FAIL|Early exit' "$log" && sed -n '1,80p' "$log" >&2
    done
    exit 1
fi
if [ "$kind" = thread ]; then
    echo "sanitize-check: every unit test passed under ThreadSanitizer"
else
    echo "sanitize-check: every unit test passed under AddressSanitizer and UBSan"
fi
