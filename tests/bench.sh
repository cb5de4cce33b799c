#!/bin/sh
# Benchmarks (not tests): perft 11 and 12 from the start, five runs each, median rate.
set -eu
engine=${1:-src/octuple}
for depth in 11 12; do
    rates=""
    for run in 1 2 3 4 5; do
        line=$("$engine" --perft "$depth" | tail -n 1)
        echo "run $run: $line"
        rates="$rates $(echo "$line" | awk '{print $7}')"
    done
    median=$(printf '%s\n' $rates | sort -n | sed -n 3p)
    echo "perft $depth median: $median leaves/s"
done
