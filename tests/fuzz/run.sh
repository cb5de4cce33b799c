#!/bin/sh
# Runs every libFuzzer harness for SECONDS seconds (`make fuzz-run`, CI), each from its
# corpus (BUILDDIR/tests/fuzz/corpus/NAME, kept between runs) and the seeds that
# tests/fuzz/make_seeds writes. A crash, leak, hang or sanitizer report fails the run; its
# input is left as BUILDDIR/tests/fuzz/artifacts/NAME-*. Prints each harness's executions
# and the total.
#   run.sh BUILDDIR SECONDS NAME...
set -eu
builddir=$1 seconds=$2
shift 2
out=$builddir/tests/fuzz
"$builddir/tests/fuzz/make_seeds" "$out/seeds"
names=$*
mkdir -p "$out/artifacts"
total=0
status=0
for name in $names; do
    mkdir -p "$out/corpus/$name"
    log=$out/$name.log
    if "$out/fuzz_$name" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$out/artifacts/$name-" \
        "$out/corpus/$name" "$out/seeds/$name" > "$log" 2>&1; then
        result=ok
    else
        result=FAILED
        status=1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    runs=${runs:-0}
    total=$((total + runs))
    echo "fuzz $name: $runs executions in ${seconds} s: $result"
    if [ $result = FAILED ]; then
        grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -n 20 || true
    fi
done
echo "fuzz: $total executions in all"
exit $status
