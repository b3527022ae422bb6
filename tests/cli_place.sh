#!/bin/sh
# questgrid place on the bundled data: a .des minivault and an F:/D: quest
# placed into the seeded host; the output is deterministic by seed, maps
# and exits are reported, and bad arguments give exit status 2. Prints TAP.
srcdir=${QG_SRCDIR:-.}
builddir=${QG_BUILDDIR:-.}
qg="$builddir/questgrid"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_place.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
vault="$srcdir/lib/des/questgrid_mini.des:questgrid_reading_room"
quest="$srcdir/lib/edit/q_info.txt:1"

n=0
fails=0
echo "1..7"
check() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        fails=$((fails + 1))
    fi
}

"$qg" place --seed 7 --size 80x70 "$vault" >"$tmp/a" 2>"$tmp/a.err"
check $? "a vault is placed (exit 0)"
"$qg" place --seed 7 --size 80x70 "$vault" >"$tmp/b" 2>/dev/null
cmp -s "$tmp/a" "$tmp/b"
check $? "the same seed gives the same output"
"$qg" place --seed 8 --size 80x70 "$vault" >"$tmp/c" 2>/dev/null
! cmp -s "$tmp/a" "$tmp/c"
check $? "another seed gives another dungeon"
grep -q '^questgrid_reading_room: minivault at [0-9]*,[0-9]*, [0-9]*x[0-9]*.*exits joined' "$tmp/a" &&
    grep -q '^Legend:' "$tmp/a" && [ "$(grep -c '^X' "$tmp/a")" -ge 2 ]
check $? "the placement, the grid and the legend are printed"
"$qg" place --seed 3 --size 100x40 "$quest" >"$tmp/q" 2>"$tmp/q.err"
status=$?
[ $status -eq 0 ] && grep -q '^.*: fixed at 0,0, ' "$tmp/q" &&
    [ "$(sed -n '/^$/,$p' "$tmp/q" | grep -c '^.\{100\}$')" -eq 40 ]
check $? "an F:/D: quest is placed at 0,0 in a 100x40 dungeon"
"$qg" place --seed 1 "$srcdir/lib/des/questgrid_mini.des:no_such_map" >/dev/null 2>"$tmp/e"
[ $? -eq 1 ] && grep -q "no map named 'no_such_map'" "$tmp/e"
check $? "an unknown map is an error"
"$qg" place --seed 1 --size 0x3 "$vault" >/dev/null 2>&1
[ $? -eq 2 ]
check $? "a bad --size is a usage error"
[ $fails -eq 0 ]
