#!/bin/sh
# The Crawl of a data tree told from the data itself (tests/data/crawltree,
# lib/des/vocab/<game>/markers.txt): check, compile, show, render and
# place need no flag; one note says what was detected and how to choose
# otherwise; a tree no one game matches is an error naming --game; .des
# files with no Lua library beside them get a note, and an error naming
# --lua-path when a map calls the library.
qg="${QG_BUILDDIR:-.}/questgrid"
src="${QG_SRCDIR:-.}"
trees="$src/tests/data/crawltree"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_game.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
echo "1..16"

result() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        sed 's/^/# /' "$tmp/err" | head -20
    fi
}
run() {
    "$@" >"$tmp/out" 2>"$tmp/err"
}
has() {
    grep -qF -- "$1" "$tmp/err"
}
notes() {
    grep -c "note: Crawl data of" "$tmp/err"
}

old="$trees/old/dat"
new="$trees/new/dat"

run "$qg" check "$old/des"
[ $? -eq 0 ] && [ "$(notes)" -eq 1 ] &&
    has "old/dat: note: Crawl data of crawl-0.28 (des/portals/arena.des, no des/serial/demonic.des); its Lua library" &&
    has "old/dat/dlua is used; --game and --lua-path choose otherwise" && ! has "orc skeleton"
result $? "check of a 0.28 tree: crawl-0.28 and its dlua, said once; 0.28's names pass"

run "$qg" check "$old/des/portals/arena.des"
[ $? -eq 0 ] && [ "$(notes)" -eq 1 ] && has "Crawl data of crawl-0.28"
result $? "a file of the tree is enough"

run "$qg" check "$new/des"
[ $? -eq 0 ] && [ "$(notes)" -eq 1 ] &&
    has "new/dat: note: Crawl data of crawl-master (des/serial/demonic.des" && ! has "orc draugr"
result $? "check of a current tree: crawl-master, whose names pass"

run "$qg" check --game crawl-0.28 "$new/des"
[ $? -eq 1 ] && has "unknown monster 'orc draugr' in crawl-0.28" &&
    has "its Lua library" && has "--lua-path chooses another" && ! has "Crawl data of"
result $? "--game overrides the detection; the tree's library is still used"

run "$qg" compile "$old/des" -o "$tmp/old.qgc"
[ $? -eq 0 ] && has "1 maps from 3 files" && [ "$(notes)" -eq 1 ]
result $? "compile of a tree: its library runs the maps' Lua, no flag"
run "$qg" cache list "$tmp/old.qgc"
grep -q "tree_old" "$tmp/out"
result $? "the maps' tags come from the tree's own library"

run "$qg" show "$old/des/portals/arena.des" --seed 3 --color=never
[ $? -eq 0 ] && grep -q "tree_old_arena" "$tmp/out" && [ "$(notes)" -eq 1 ]
result $? "show --seed resolves a map with the tree's library"

run "$qg" render "$new/des" -o "$tmp/new.html"
[ $? -eq 0 ] && grep -q "tree_new_demonic" "$tmp/new.html" && [ "$(notes)" -eq 1 ]
result $? "render of a tree's directory: a gallery, no flag"

run "$qg" place --seed 4 --color=never "$new/des/serial/demonic.des"
[ $? -eq 0 ] && grep -q "tree_new_demonic:" "$tmp/out" && [ "$(notes)" -eq 1 ]
result $? "place of a tree's map, no flag"

run "$qg" check "$trees/between/dat"
[ $? -eq 2 ] &&
    has "between/dat: error: cannot tell which Crawl this data is of: its markers disagree:" &&
    has "give --game (crawl-0.28, crawl-master)"
result $? "a release between the games: an error naming --game"

run "$qg" check --game crawl-0.28 "$trees/between/dat"
[ $? -eq 0 ] && ! has "error"
result $? "--game settles it"

run "$qg" check "$old/des" "$new/des"
[ $? -eq 2 ] && has "this data is of crawl-master" && has "read them in separate runs, or give --game"
result $? "two trees of two games in one run: an error"

run "$qg" check "$trees/desonly/des"
[ $? -eq 0 ] && has "desonly/des: note: Crawl data of crawl-master" &&
    has "no Lua library beside it (dlua/): maps that call one need --lua-path DIR"
result $? ".des files without their dlua: the game detected, the missing library said"

run "$qg" compile "$trees/desonly/des" -o "$tmp/desonly.qgc"
[ $? -eq 1 ] && has "function 'fixture_tree_setup' is not provided" &&
    has "give --lua-path DIR (Crawl's dat/dlua)"
result $? "a map calling the absent library: an error naming --lua-path"

run "$qg" compile "$trees/desonly/des" --lua-path "$new/dlua" -o "$tmp/desonly.qgc"
[ $? -eq 0 ] && has "Crawl data of crawl-master" && has "--game chooses another"
result $? "--lua-path gives the library; the game is still detected"

run "$qg" check "$trees/own/des"
[ $? -eq 0 ] && ! has "Crawl data" && ! has "error"
result $? "a designer's own des/ directory is no Crawl tree: no note"
