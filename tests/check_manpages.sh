#!/bin/sh
# Every help fits in 80 columns, and every option and command of each program's table is
# in its man page: the options of
# `octuple --help`, the console's commands and their aliases (`help`), every command of
# `octuple-train --help` with the options of its `--help`, and the options of
# `octuple-match --help` (each help is printed from its program's table). An option or a
# command counts as documented when it is the tag of a man page's list entry (.TP), or for
# the trainer's commands a subsection (.SS). Prints each one missing and fails when any is.
set -u -f # no globbing: the words read include '?'
man=${srcdir:-.}/man
bin=./src
for program in octuple octuple-train octuple-match; do
    if [ ! -x "$bin/$program" ] || [ ! -f "$man/$program.6" ]; then
        echo "check_manpages: no $bin/$program or $man/$program.6" >&2
        exit 99
    fi
done
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

# The words of a man page's list tags (the line after each .TP) and subsection titles, one
# a line, troff's font changes and escaped dashes undone.
tags() {
    sed -n '/^\.TP/{n;p;}; /^\.SS /p' "$1" \
        | sed 's/\\f[BIRP]//g; s/\\-/-/g; s/^\.[A-Z]*//' \
        | tr ' ",|[]' '\n\n\n\n\n\n' | sed '/^$/d' | sort -u
}
# The options of a help text: "  --name ..." lines.
options() {
    sed -n 's/^  --\([a-z0-9][a-z0-9-]*\).*/--\1/p'
}

missing=0
# check PAGE WHAT NAMES...: each name must be a tag word of PAGE
check() {
    page=$1
    what=$2
    shift 2
    tags "$man/$page.6" >"$tmp/tags"
    for name in "$@"; do
        if ! grep -qxF -- "$name" "$tmp/tags"; then
            echo "man/$page.6: $what $name is not documented"
            missing=$((missing + 1))
        fi
    done
}

# wide LABEL COMMAND...: a line of the command's help wider than 79 columns
wide() {
    label=$1
    shift
    "$@" >"$tmp/help" 2>/dev/null </dev/null
    if ! awk -v label="$label" 'length > 79 { print label ": a line of " length " columns: " $0;
                                              bad = 1 } END { exit bad }' "$tmp/help"; then
        missing=$((missing + 1))
    fi
}
wide "octuple --help" "$bin/octuple" --help
printf 'help\n' >"$tmp/script"
wide "octuple's help" sh -c '"$1" < "$2"' sh "$bin/octuple" "$tmp/script"
wide "octuple-train --help" "$bin/octuple-train" --help
wide "octuple-match --help" "$bin/octuple-match" --help

count=0
# octuple: its options and the console's commands (name and aliases, before the arguments)
set -- $("$bin/octuple" --help | options)
count=$((count + $#))
check octuple option "$@"
# (a line "  NAME, ALIAS ARGUMENTS  help": the words before two blanks that are not
# arguments, which are in capitals or brackets; the last line, on bare moves, is no command)
set -- $(printf 'help\n' | "$bin/octuple" 2>/dev/null \
    | sed -n 's/^  \([a-z?][^ ]*\( [^ ]\{1,\}\)*\)  .*/\1/p' | grep -v '^f5, ' \
    | tr ', ' '\n\n' | grep -v '^$' | grep -v '^\[' | grep -v '^[A-Z0-9]')
count=$((count + $#))
check octuple command "$@"

# octuple-train: each command, and the options of each
commands=$("$bin/octuple-train" --help | sed -n 's/^  \([a-z][a-z]*\)\( .*\)\{0,1\}$/\1/p')
set -- $commands
count=$((count + $#))
check octuple-train command "$@"
for command in $commands; do
    wide "octuple-train $command --help" "$bin/octuple-train" "$command" --help
    set -- $("$bin/octuple-train" "$command" --help | options)
    count=$((count + $#))
    check octuple-train "option of $command" "$@"
done

# octuple-match
set -- $("$bin/octuple-match" --help | options)
count=$((count + $#))
check octuple-match option "$@"

if [ "$count" -lt 100 ]; then
    echo "check_manpages: only $count options and commands read from the helps" >&2
    exit 99
fi
if [ "$missing" -ne 0 ]; then
    echo "check_manpages: $missing faults (of $count options and commands)"
    exit 1
fi
echo "check_manpages: $count options and commands, each in its man page"
