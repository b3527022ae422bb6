#!/bin/sh
# The Angband-family games' own lib/edit trees checked and compiled whole,
# with no flag (TAP): every error is a real defect of the game's data, named
# below with why; under 100 warnings a tree; compile exits 0. The trees are
# where $QG_VARIANTS points (the README's layout, each with its lib/edit):
#   zangband-2.3.5      museoa/zangband @da902550, its zangband/ directory
#   hengband-3.0.2.2    hengband/hengband @004f147f
#   poschengband-3.4.5  NickMcConnell/poschengband @cdace5ed
#   frogcomposband-7.2  HermiG/frogcomposband @31c63f5d
#   tome-2.4            tome2/tome2
# and the shared corpus's Zangband 2.3.0, Hengband 2.2.1 and ToME 2.4
# ($QG_CORPUS or ../shared/corpus). Each tree skips cleanly when absent.
qg="${QG_BUILDDIR:-.}/questgrid"
src="${QG_SRCDIR:-.}"
variants=${QG_VARIANTS:-}
corpus=${QG_CORPUS:-$src/../shared/corpus}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_edit_trees.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
echo "1..28"
result() {
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        grep ': error:\|: warning:' "$tmp/err" | head -20 | sed 's/^/# /'
    fi
}
skip() {
    i=0
    while [ $i -lt "$1" ]; do
        n=$((n + 1)) i=$((i + 1))
        echo "ok $n # SKIP no such data here: $2"
    done
}

# The errors of a check, as file:line, sorted.
errors() {
    sed -n 's|^.*/\([^/:]*:[0-9]*\):[0-9]*: error: .*|\1|p' "$tmp/err" | sort -u | tr '\n' ' '
}

# tree NAME DIR STATUS "ERRORS" REAL...: check and compile of the tree,
# then one test for each real error (a grep pattern of the check's output
# and why the error is real).
tree() {
    name=$1 edit=$2 want=$3 want_errors=$4
    shift 4
    tests=$((3 + $# / 2))
    if [ ! -d "$edit" ]; then
        skip $tests "$name ($edit)"
        return
    fi
    "$qg" check --max-errors 0 "$edit" >"$tmp/out" 2>"$tmp/err"
    status=$?
    warnings=$(grep -c ': warning:' "$tmp/err")
    cp "$tmp/err" "$tmp/check"
    [ $status -eq "$want" ] && [ "$(errors)" = "$want_errors" ]
    result $? "$name: check errors only where the data is wrong (${want_errors:-none})"
    [ "$warnings" -lt 100 ]
    result $? "$name: $warnings warnings, under 100"
    "$qg" compile "$edit" -o "$tmp/$name.qgc" >"$tmp/out" 2>"$tmp/err"
    [ $? -eq 0 ] && grep -q 'maps from' "$tmp/err"
    result $? "$name: compile of the whole lib/edit exits 0"
    while [ $# -ge 2 ]; do
        grep -q -- "$1" "$tmp/check"
        result $? "$name: real: $2"
        shift 2
    done
}

# variant NAME: the lib/edit of $QG_VARIANTS/NAME, or why there is none
variant() {
    if [ -n "$variants" ]; then
        echo "$variants/$1/lib/edit"
    else
        echo "QG_VARIANTS is not set"
    fi
}
tree zangband-2.3.5 "$(variant zangband-2.3.5)" 0 ""
tree hengband-3.0.2.2 "$(variant hengband-3.0.2.2)" 0 ""
tree poschengband-3.4.5 "$(variant poschengband-3.4.5)" 0 ""
tree frogcomposband-7.2 "$(variant frogcomposband-7.2)" 1 \
    "q_anambar_docks_1.txt:40 q_anambar_docks_1.txt:41 q_anambar_docks_1.txt:42 q_anambar_docks_1.txt:43 q_anambar_docks_1.txt:44 q_anambar_docks_1.txt:45 q_anambar_docks_1.txt:46 q_anambar_docks_1.txt:47 q_anambar_docks_1.txt:48 q_smug.txt:68 q_smug.txt:69 q_smug.txt:70 q_smug.txt:71 q_smug.txt:72 q_smug.txt:74 " \
    "q_anambar_docks_1.txt:40:9: error: no object of k_info.txt is named 'PARCHMENT'" \
    "OBJ(PARCHMENT) is no object type of init1.c's _object_types and no k_info.txt name (_lookup_kind matches lower-case names): the game's parser stops with \"Invalid object\"" \
    "q_smug.txt:68:21: error: no object of k_info.txt is named 'mushroom of fast recovery'" \
    "7.2's k_info.txt renamed its mushrooms (Veil Fungus, Dreadcap, ...) and has no 'fast recovery', 'confusion', 'hallucination', 'weakness', 'naivety' or 'stupidity' mushroom (the last two are potions now): the quest q_info.txt names (F:q_smug.txt) stops loading with \"Invalid object\""
tome_why="maeglin.map (q_invas.cc's process_dungeon_file(\"maeglin.map\")) puts monster 251 at 's', and r_info.txt has no N:251: entry: place_monster_one (monster2.cc) places no race without a name, so nothing stands there"
tree tome-2.4 "$(variant tome-2.4)" 1 "maeglin.map:29 " \
    "maeglin.map:29:10: error: monster 251 is not in r_info.txt" "$tome_why"
tree zangband-2.3.0 "$corpus/angband/zangband-2.3.0/lib/edit" 0 ""
tree hengband-2.2.1 "$corpus/angband/hengband-2.2.1/lib/edit" 0 ""
tree "tome-2.4 (corpus)" "$corpus/angband/tome-2.4/lib/edit" 1 "maeglin.map:29 " \
    "maeglin.map:29:10: error: monster 251 is not in r_info.txt" "$tome_why"
