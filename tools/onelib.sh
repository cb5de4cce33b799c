#!/bin/sh
# The archiver of src/liboctuple.a, the library for programs that embed the engine: the
# objects (the API) and what they reach in the archives (the engine and core libraries,
# searched as a linker searches them: a member only when it defines a name still needed) are
# linked into one relocatable object whose only global symbols are the public API's
# (octuple_*, src/engine/octuple.h), and that object alone is archived. A program linking
# the library then keeps every other name free for itself (its own board_init, say), and
# cannot reach the engine's internals by accident.
# Usage: onelib.sh CC OBJCOPY NM AR ARCHIVE OBJECT... [LIBRARY.a...]
set -eu
cc=$1 objcopy=$2 nm=$3 ar=$4 archive=$5
shift 5
combined=${archive%.a}-all.o
trap 'rm -f "$combined" "$combined.tmp"' EXIT
# shellcheck disable=SC2086 # CC may carry its own options ("gcc -std=gnu17")
$cc -r -nostdlib -o "$combined.tmp" -Wl,--start-group "$@" -Wl,--end-group
$objcopy --wildcard --keep-global-symbol='octuple_*' "$combined.tmp" "$combined"
# what is left global must be the API, and all of it
leaked=$($nm -g --defined-only "$combined" | awk 'NF >= 3 && $3 !~ /^octuple_/ { print $3 }')
if [ -n "$leaked" ]; then
    echo "onelib.sh: symbols other than octuple_* stay global: $leaked" >&2
    exit 1
fi
if ! $nm -g --defined-only "$combined" | grep -q ' octuple_open$'; then
    echo "onelib.sh: octuple_open is missing from $archive" >&2
    exit 1
fi
rm -f "$archive"
$ar cr "$archive" "$combined"
