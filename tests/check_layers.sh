#!/bin/sh
# The layers of src/ (doc/architecture.md): a file may include headers of its own layer and
# of lower ones, never of a higher one.
#   folders:  core < engine < cli, train, match (the last three never include each other)
#   in core:  base < rules < formats < model < evaluation < search (the table below; every
#             file of src/core must be in it, so that a new one is given its level)
#   facade:   the model, evaluation and search levels (but scale.h, the score unit) are
#             behind the engine: src/cli does not include them, nor do engine's headers
# Includes are written "folder/name.h" from src/; a bare "name.h" is the file's own folder's
# (or config.h). Prints each offending include and fails when there is one.
set -u
src=${srcdir:-.}/src
if [ ! -d "$src/core" ]; then
    echo "check_layers: no $src/core (run from the build tree with srcdir set)" >&2
    exit 99
fi

# The level of a core module (its file name without .c/.h).
core_level() {
    case $1 in
    error | parse | optable | fileio | rng | pool | timing) echo 1 ;;
    board | movegen | game | notation | perft) echo 2 ;;
    obf | ggf | gameclock | wthor | logbook | gamelist | book) echo 3 ;;
    ntuple | shapes | shapefile | scale | probcut | model | modeldump | weights | league) echo 4 ;;
    eval | wpc) echo 5 ;;
    tt | stability | endgame | search | bench | book_eval) echo 6 ;;
    *) echo 0 ;;
    esac
}
level_name() {
    case $1 in
    1) echo base ;; 2) echo rules ;; 3) echo formats ;; 4) echo model ;;
    5) echo evaluation ;; 6) echo search ;;
    esac
}
folder_rank() {
    case $1 in
    core) echo 0 ;;
    engine) echo 1 ;;
    cli | train | match) echo 2 ;;
    *) echo -1 ;;
    esac
}

bad=0
files=0
for file in "$src"/*/*.c "$src"/*/*.h; do
    [ -f "$file" ] || continue
    files=$((files + 1))
    folder=$(basename "$(dirname "$file")")
    name=$(basename "$file")
    module=${name%.*}
    rank=$(folder_rank "$folder")
    if [ "$rank" -lt 0 ]; then
        echo "$file: a folder the layers do not name (add it to tests/check_layers.sh)"
        bad=1
        continue
    fi
    if [ "$folder" = core ] && [ "$(core_level "$module")" = 0 ]; then
        echo "$file: a core module without a level (add it to tests/check_layers.sh)"
        bad=1
    fi
    line=0
    while IFS= read -r text; do
        line=$((line + 1))
        case $text in
        *'#'*include*'"'*) ;;
        *) continue ;;
        esac
        header=$(printf '%s\n' "$text" | sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p')
        [ -n "$header" ] || continue
        case $header in
        */*)
            target_folder=${header%%/*}
            target=${header#*/}
            ;;
        config.h) continue ;;
        *)
            target_folder=$folder
            target=$header
            ;;
        esac
        target_rank=$(folder_rank "$target_folder")
        where="$file:$line: includes \"$header\""
        if [ "$target_rank" -lt 0 ]; then
            echo "$where: not a folder of src/"
            bad=1
        elif [ "$target_rank" -gt "$rank" ]; then
            echo "$where: $target_folder is a higher layer than $folder"
            bad=1
        elif [ "$target_rank" -eq 2 ] && [ "$target_folder" != "$folder" ]; then
            echo "$where: $folder and $target_folder are separate programs"
            bad=1
        elif [ "$target_folder" = core ] && [ "$target" != scale.h ] \
            && [ "$(core_level "${target%.h}")" -gt 3 ] \
            && { [ "$folder" = cli ] \
                || { [ "$folder" = engine ] && [ "${name%.h}" != "$name" ]; }; }; then
            theirs=$(level_name "$(core_level "${target%.h}")")
            echo "$where: core's $theirs level is behind the engine facade (front ends see" \
                "engine/engine.h's opaque types and reports)"
            bad=1
        elif [ "$folder" = core ] && [ "$target_folder" = core ]; then
            own=$(core_level "$module")
            theirs=$(core_level "${target%.h}")
            if [ "$theirs" -gt "$own" ]; then
                echo "$where: core's $(level_name "$theirs") level is above $(level_name "$own")"
                bad=1
            fi
        fi
    done <"$file"
done
if [ "$files" -eq 0 ]; then
    echo "check_layers: no source files under $src" >&2
    exit 99
fi
if [ "$bad" -ne 0 ]; then
    echo "check_layers: includes against the layers (doc/architecture.md)"
    exit 1
fi
echo "check_layers: $files files, every include within the layers"
