#!/bin/sh
# The Lua-resolved .des command line: `questgrid stats` and
# `questgrid show --seed` on the random_test map of Crawl's design guide.
# Prints TAP.
srcdir=${QG_SRCDIR:-.}
builddir=${QG_BUILDDIR:-.}
qg="$builddir/questgrid"
map="$srcdir/tests/data/random_test.des"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_lua.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "1..8"

result() {
    if [ "$1" -eq 1 ]; then echo "ok $2 - $3"; else echo "not ok $2 - $3"; fi
}

"$qg" stats "$map" --map random_test -n 2000 >"$tmp/stats" 2>"$tmp/err"
status=$?
cells=$(grep -c '^  [0-9]*,2:' "$tmp/stats")
result $([ $status -eq 0 ] && [ "$cells" -eq 3 ] && echo 1 || echo 0) 1 "stats: exactly A, B and C vary"

# B is rock 3/8 of the time: never when A and C are both rock
b=$(sed -n "s/^  9,2: .*'x' \([0-9.]*\)%.*/\1/p" "$tmp/stats")
ok=$(awk -v b="$b" 'BEGIN { print (b > 33 && b < 42) ? 1 : 0 }')
result "$ok" 2 "stats: B is rock about 37.5% of the time ($b%)"

"$qg" stats "$map" --map nosuch -n 5 >/dev/null 2>"$tmp/err"
status=$?
result $([ $status -eq 1 ] && grep -q "no map named 'nosuch'" "$tmp/err" && echo 1 || echo 0) 3 \
    "stats: an unknown map is an error"

"$qg" show --map random_test --seed 5 "$map" >"$tmp/show1" 2>"$tmp/err"
status=$?
result $([ $status -eq 0 ] && grep -q 'x\.\.\.\.\.\.\.\.{\.\.\.\.\.\.\.\.x' "$tmp/show1" && echo 1 || echo 0) 4 \
    "show: the resolved grid is printed"

"$qg" show --map random_test --seed 5 "$map" >"$tmp/show2" 2>/dev/null
result $(cmp -s "$tmp/show1" "$tmp/show2" && echo 1 || echo 0) 5 "show: the same seed gives the same level"

differs=0
for s in 1 2 3 4 6 7 8 9; do
    "$qg" show --map random_test --seed $s "$map" >"$tmp/show3" 2>/dev/null
    cmp -s "$tmp/show1" "$tmp/show3" || differs=1
done
result $differs 6 "show: other seeds give other levels"

# A SUBVAULT picks its map by a tag the map's own Lua gives at compile
# time, and the subvault's blank cells keep the parent's glyph (Crawl's
# merge_subvault): the parent's NSUBST then finds the A left there.
cat >"$tmp/sub.des" <<'DES'
NAME: keeps_its_glyph
SUBVAULT: A : blank_middle
NSUBST: A = 1=} / .
MAP
xAAAx
ENDMAP

NAME: blank_middle_map
: tags("blank_middle")
CLEAR: _
MAP
c_c
ENDMAP
DES
"$qg" show --map keeps_its_glyph --seed 1 "$tmp/sub.des" >"$tmp/sub" 2>"$tmp/err"
result $([ $? -eq 0 ] && grep -q '^xc}cx$' "$tmp/sub" && echo 1 || echo 0) 7 \
    "show: a subvault found by its compile-time tag, its blank cell the parent's"
"$qg" check "$tmp/sub.des" >"$tmp/check" 2>&1
result $(! grep -q 'not resolved' "$tmp/check" && echo 1 || echo 0) 8 \
    "check: the file's maps compiled before any is resolved"
