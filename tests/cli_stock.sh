#!/bin/sh
# The games' own data, pointed at with no flag: Debian's crawl-common
# (Crawl 0.28, $QG_CRAWL_DAT or /usr/share/crawl/dat), current Crawl's
# .des files and the Angband-family lib/edit trees of the shared corpus
# ($QG_CORPUS or ../shared/corpus). Each part skips cleanly without its
# data.
qg="${QG_BUILDDIR:-.}/questgrid"
src="${QG_SRCDIR:-.}"
dat=${QG_CRAWL_DAT:-/usr/share/crawl/dat}
corpus=${QG_CORPUS:-$src/../shared/corpus}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_stock.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
echo "1..10"

result() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        grep -v '^  ' "$tmp/err" | head -20 | sed 's/^/# /'
    fi
}
skip() {
    n=$((n + 1))
    echo "ok $n # SKIP no such data here: $1"
}
run() {
    "$@" >"$tmp/out" 2>"$tmp/err"
}
has() {
    grep -qF -- "$1" "$tmp/err"
}

if [ -f "$dat/dlua/dungeon.lua" ] && [ -d "$dat/des" ]; then
    run "$qg" check --max-errors 0 "$dat/des"
    status=$?
    [ $status -le 1 ] && [ "$(grep -c 'note: Crawl data of crawl-0.28' "$tmp/err")" -eq 1 ] &&
        ! has "in crawl-master" && ! has "is not provided"
    result $? "check of Debian's crawl-common, no flag: crawl-0.28 and its dlua, said once"
    run "$qg" compile "$dat/des" -o "$tmp/crawl.qgc"
    [ $? -eq 0 ] && has "5283 maps from 140 files"
    result $? "compile of Debian's crawl-common, no flag: exit 0, 5,283 maps"
else
    skip "Debian's crawl-common ($dat)"
    skip "Debian's crawl-common ($dat)"
fi

master="$corpus/crawl/des"
if [ -d "$master" ]; then
    run "$qg" check --max-errors 0 "$master"
    [ $? -le 1 ] && [ "$(grep -c 'note: Crawl data of crawl-master' "$tmp/err")" -eq 1 ] &&
        has "no Lua library beside it (dlua/): maps that call one need --lua-path DIR"
    result $? "check of current Crawl's .des files: crawl-master, the missing dlua said"
    run "$qg" compile "$master" -o "$tmp/master.qgc"
    [ $? -ne 0 ] && has "give --lua-path DIR (Crawl's dat/dlua)" && [ ! -e "$tmp/master.qgc" ]
    result $? "compile of them without a Lua library: an error naming --lua-path"
else
    skip "the corpus ($master)"
    skip "the corpus ($master)"
fi

for tree in zangband-2.3.0 hengband-2.2.1 tome-2.4; do
    edit="$corpus/angband/$tree/lib/edit"
    if [ -d "$edit" ]; then
        run "$qg" compile "$edit" -o "$tmp/$tree.qgc"
        [ $? -eq 0 ] && has "maps from" && ! has "error"
        result $? "compile of $tree's whole lib/edit: exit 0"
        run "$qg" check "$edit"
        [ $? -le 1 ] && has "note: skipped" && ! has "not a level:" &&
            ! grep -q '_info.txt:[0-9]*:[0-9]*: \(error\|warning\)' "$tmp/err"
        result $? "check of $tree's whole lib/edit: its data skipped with a note, never read as a level"
    else
        skip "the corpus ($edit)"
        skip "the corpus ($edit)"
    fi
done
