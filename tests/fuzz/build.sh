#!/bin/sh
# Builds the libFuzzer harnesses (`make fuzz`): the core, engine and front-end sources
# compiled once more with clang, libFuzzer's coverage, AddressSanitizer and UBSan, into an
# archive, then each tests/fuzz/fuzz_*.c linked against it as tests/fuzz/fuzz_NAME.
#   build.sh CC SRCDIR BUILDDIR 'CPPFLAGS' 'LIBS'
set -eu
cc=$1 srcdir=$2 builddir=$3 cppflags=$4 libs=$5
out=$builddir/tests/fuzz
obj=$out/obj
mkdir -p "$obj"
# the engine's data paths (src/engine/paths.h) lead nowhere: the harnesses load no data
cppflags="$cppflags -D_GNU_SOURCE -I$srcdir/src -I$builddir"
for name in PKGDATADIR SRCDIR BUILDDIR; do
    cppflags="$cppflags -DOCTUPLE_$name=\"/nonexistent/octuple-fuzz\""
done
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
# a header newer than an object: rebuild everything (the harnesses are few and the sources
# small; exact dependencies would be make's job)
newest=$(ls -t "$srcdir"/src/*/*.h "$srcdir"/tests/fuzz/*.h | head -n 1)
objects=
for source in "$srcdir"/src/core/*.c "$srcdir"/src/engine/engine.c \
              "$srcdir"/src/engine/settings.c "$srcdir"/src/engine/paths.c \
              "$srcdir"/src/cli/*.c; do
    case $source in */cli/main.c) continue ;; esac
    dir=$(basename "$(dirname "$source")")
    object=$obj/$dir-$(basename "$source" .c).o
    objects="$objects $object"
    if [ ! -f "$object" ] || [ "$source" -nt "$object" ] || [ "$newest" -nt "$object" ]; then
        echo "  FUZZCC   $dir/$(basename "$source")"
        $cc $flags -fsanitize=fuzzer-no-link $cppflags -c "$source" -o "$object"
    fi
done
rm -f "$out/libfuzzed.a"
ar rcs "$out/libfuzzed.a" $objects
for harness in "$srcdir"/tests/fuzz/fuzz_*.c; do
    name=$(basename "$harness" .c)
    echo "  FUZZLD   tests/fuzz/$name"
    $cc $flags -fsanitize=fuzzer $cppflags -I"$srcdir/tests/fuzz" "$harness" \
        "$out/libfuzzed.a" $libs -o "$out/$name"
done
