#!/bin/sh
# Plots what `octuple-train regress` printed: the learning curves (train and validation loss
# by epoch) and the final loss by move number (train, validation, test), as PNG files made by
# gnuplot; and from what `octuple-train error` printed, the mean absolute error against exact
# scores by empties (static and each search depth). The logs are read, not the weights, so any
# saved run can be drawn again.
#
#   octuple-train regress ... --optimizer adam ... 2>&1 | tee fit.log
#   tools/plot-fit.sh fit.log plots/      # writes plots/learning.png and plots/moves.png
#   octuple-train error --weights new.ow --positions test.opos > error.txt
#   tools/plot-fit.sh error.txt plots/    # writes plots/error.png
#
# Several logs may be given before the directory: their curves share one plot each, named by
# the log file, to compare runs.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 LOG [LOG ...] OUTDIR" >&2
    exit 2
fi
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "$0: gnuplot is needed (Debian: apt-get install gnuplot-nox)" >&2
    exit 1
fi
eval "outdir=\${$#}"
mkdir -p "$outdir"
work=$(mktemp -d "${TMPDIR:-/tmp}/plot-fit.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

learning=""
moves=""
errors=""
n=0
for log in "$@"; do
    [ "$log" = "$outdir" ] && break
    n=$((n + 1))
    if [ ! -r "$log" ]; then
        echo "$0: cannot read $log" >&2
        exit 1
    fi
    title=$(basename "$log" | sed 's/[_"]/ /g')
    # "epoch 12: step 0.2000, train loss 117.755, validation loss 130.337 (best ...)"
    awk '/^epoch [0-9]+: / {
            sub(":", "", $2); train = ""; valid = ""
            for (i = 3; i < NF; ++i) {
                if ($i == "train" && $(i + 1) == "loss") train = $(i + 2)
                if ($i == "validation" && $(i + 1) == "loss") valid = $(i + 2)
            }
            gsub(",", "", train); gsub(",", "", valid)
            if (train != "") print $2, train, (valid == "" ? "NaN" : valid)
         }' "$log" > "$work/epochs-$n.dat"
    # the table after "move train validation test", one row per move number
    awk '/^move train validation test$/ { table = 1; next }
         table && NF == 4 && $1 ~ /^[0-9]+$/ { print; next }
         table { table = 0 }' "$log" > "$work/moves-$n.dat"
    # "empties positions  static  1 ply ..." then one row per count of empties
    awk '/^empties positions +static/ { table = 1; next }
         table && $1 ~ /^[0-9]+$/ { print; next }
         table { table = 0 }' "$log" > "$work/errors-$n.dat"
    if [ -s "$work/errors-$n.dat" ]; then
        columns=$(awk '{ print NF; exit }' "$work/errors-$n.dat")
        c=3
        while [ "$c" -le "$columns" ]; do
            if [ "$c" -eq 3 ]; then label=static; else label="$((c - 3)) ply"; fi
            errors="$errors${errors:+, }'$work/errors-$n.dat' using 1:$c with linespoints title '$title $label'"
            c=$((c + 1))
        done
    fi
    if [ -s "$work/epochs-$n.dat" ]; then
        learning="$learning${learning:+, }'$work/epochs-$n.dat' using 1:2 with lines title '$title train', '$work/epochs-$n.dat' using 1:3 with lines title '$title validation'"
    fi
    if [ -s "$work/moves-$n.dat" ]; then
        moves="$moves${moves:+, }'$work/moves-$n.dat' using 1:2 with lines title '$title train', '$work/moves-$n.dat' using 1:3 with lines title '$title validation', '$work/moves-$n.dat' using 1:4 with lines title '$title test'"
    fi
done
if [ -z "$learning" ] && [ -z "$moves" ] && [ -z "$errors" ]; then
    echo "$0: no epoch lines, loss-by-move or error-by-empties table found in the logs" >&2
    exit 1
fi

{
    echo "set terminal pngcairo size 900,560 noenhanced"
    echo "set grid"
    echo "set key top right"
    if [ -n "$learning" ]; then
        echo "set output '$outdir/learning.png'"
        echo "set title 'Learning curves: mean squared error (discs^2) by epoch'"
        echo "set xlabel 'epoch'; set ylabel 'loss (discs^2)'"
        echo "plot $learning"
    fi
    if [ -n "$moves" ]; then
        echo "set output '$outdir/moves.png'"
        echo "set title 'Loss of the saved weights by move number'"
        echo "set xlabel 'move number (discs on the board - 4)'; set ylabel 'loss (discs^2)'"
        echo "plot $moves"
    fi
    if [ -n "$errors" ]; then
        echo "set key top left"
        echo "set output '$outdir/error.png'"
        echo "set title 'Mean absolute error against exact scores by empties'"
        echo "set xlabel 'empty squares'; set ylabel 'error (discs)'"
        echo "plot $errors"
    fi
} > "$work/plot.gp"
if ! gnuplot "$work/plot.gp" 2> "$work/gnuplot.err"; then
    # pngcairo is missing from some builds: fall back to the plain png terminal
    sed 's/^set terminal pngcairo/set terminal png/' "$work/plot.gp" > "$work/plot2.gp"
    gnuplot "$work/plot2.gp"
fi
[ -n "$learning" ] && echo "wrote $outdir/learning.png"
[ -n "$moves" ] && echo "wrote $outdir/moves.png"
[ -n "$errors" ] && echo "wrote $outdir/error.png"
exit 0
