#!/bin/sh
# questgrid convert on small files: F:/D: through TMX and .xp and back,
# dialect conversion, --strict, and no partial output on failure.
qg="${QG_BUILDDIR:-.}/questgrid"
src="${QG_SRCDIR:-.}/tests/convert"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
result() {
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
echo 1..22

"$qg" show --var CLASS=Warrior "$src/quest.txt" >"$tmp/orig.show" 2>/dev/null
grep -q 'monster: stone sentinel (44)' "$tmp/orig.show"
result $? "the fixture resolves"

"$qg" convert --var CLASS=Warrior "$src/quest.txt" -o "$tmp/q.tmx" 2>"$tmp/err" &&
    [ -s "$tmp/q.tmx" ] && [ -s "$tmp/questgrid-cp437.png" ]
result $? "F:/D: to TMX writes the map and its tileset image"

"$qg" convert "$tmp/q.tmx" -o "$tmp/back.txt" 2>"$tmp/err" &&
    "$qg" show "$tmp/back.txt" >"$tmp/back.show" 2>/dev/null &&
    diff "$tmp/orig.show" "$tmp/back.show" >/dev/null
result $? "TMX back to F:/D: shows the same level"

"$qg" convert "$src/quest.txt" --var CLASS=Warrior -o "$tmp/q.xp" 2>"$tmp/err" &&
    grep -q "does not carry feature indices" "$tmp/err"
result $? ".xp output says what it cannot carry"

"$qg" convert "$src/quest.txt" --var CLASS=Warrior -o "$tmp/strict.xp" --strict 2>/dev/null
[ $? -eq 1 ] && [ ! -e "$tmp/strict.xp" ]
result $? "--strict turns those warnings into a failure and writes nothing"

"$qg" convert "$src/quest.txt" -o "$tmp/same.txt" 2>"$tmp/err" &&
    grep -q '^?:\[EQU \$CLASS Warrior\]$' "$tmp/same.txt" &&
    "$qg" show --var CLASS=Mage "$tmp/same.txt" >"$tmp/a" 2>/dev/null &&
    "$qg" show --var CLASS=Mage "$src/quest.txt" >"$tmp/b" 2>/dev/null && diff "$tmp/a" "$tmp/b" >/dev/null
result $? "F:/D: to F:/D: keeps the ?: conditions"

"$qg" convert "$src/quest.txt" --dialect zangband:tome -o "$tmp/tome.map" 2>"$tmp/err" &&
    grep -q "tome has no trap field" "$tmp/err" && grep -q '^F:!:1:8:0:\*2$' "$tmp/tome.map"
result $? "dialect conversion warns what the output dialect lacks"

printf 'F:a:1:8\nD:aa\nD:a\200\n' >"$tmp/bad.txt"
"$qg" convert "$tmp/bad.txt" -o "$tmp/bad.tmx" 2>/dev/null
[ $? -eq 1 ] && [ ! -e "$tmp/bad.tmx" ]
result $? "an input with errors leaves no output file"

"$qg" convert "$src/quest.txt" -o "$tmp/x.unknown" 2>/dev/null
[ $? -eq 2 ]
result $? "an output format that cannot be told is a usage error"

printf '<?xml version="1.0"?>\n<!DOCTYPE map [<!ENTITY e "x">]>\n<map width="1" height="1"/>\n' >"$tmp/evil.tmx"
"$qg" convert "$tmp/evil.tmx" -o "$tmp/evil.txt" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "evil.tmx:2:.*DOCTYPE" "$tmp/err"
result $? "a TMX file with a DOCTYPE is refused with its line"

"$qg" convert "$src/levels.txt" -o "$tmp/levels.des" 2>"$tmp/err" &&
    grep -q '^: if (qg_fd_call("LEQ", qg_fd_var("LEVEL"), "10")) ~= "0" then$' "$tmp/levels.des" &&
    grep -q '^KMONS: o = rat$' "$tmp/levels.des" && grep -q '^MAP$' "$tmp/levels.des"
result $? "F:/D: to .des keeps ?: conditions as Lua"

des="${QG_SRCDIR:-.}/lib/des/questgrid_mini.des"
"$qg" convert "$des" --seed 3 -o "$tmp/mini.txt" 2>"$tmp/err" &&
    grep -q '^F:c:57$' "$tmp/mini.txt" && grep -q '^D:\.ccccc+ccc\.$' "$tmp/mini.txt" &&
    grep -q 'no record for 2 level properties' "$tmp/err"
result $? ".des resolved by seed to F:/D:, Crawl names mapped to indices, losses warned"

"$qg" convert "$des" --seed 3 -o "$tmp/a.tmx" 2>/dev/null &&
    "$qg" convert "$des" --seed 3 -o "$tmp/b.tmx" 2>/dev/null &&
    cmp -s "$tmp/a.tmx" "$tmp/b.tmx" &&
    "$qg" convert "$tmp/a.tmx" -o "$tmp/a.des" 2>/dev/null && grep -q '^MONS: ' "$tmp/a.des"
result $? ".des to TMX is the same for the same seed, and TMX goes back to .des"

"$qg" convert "$des" --map questgrid_reading_room -o "$tmp/one.des" 2>/dev/null &&
    head -1 "$tmp/one.des" | grep -q '^NAME: *questgrid_reading_room' &&
    [ "$(grep -c '^NAME:' "$tmp/one.des")" -eq 1 ]
result $? ".des to .des without --seed copies one map as written"

# issue 27: a conversion keeps the meaning of each cell or refuses
printf 'NAME: qg_issue27_home\nTAGS: no_rotate\nDEPTH: D:1\nKFEAT: m = clear_rock_wall\nKFEAT: V = dry_fountain\nKMONS: P = bush\nMAP\nxxxxxxx\nxm.V.Px\nx.. ..x\nxxxxxxx\nENDMAP\n' >"$tmp/home.des"
"$qg" convert "$tmp/home.des" --seed 1 --dialect zangband235 -o "$tmp/home.txt" 2>"$tmp/err" &&
    ! grep -q '^F:[mV]:0$' "$tmp/home.txt" && grep -q '^F:m:5[0-9]$' "$tmp/home.txt" &&
    grep -q '^F:V:114$' "$tmp/home.txt" && grep -q '^F:P:1:0:[1-9][0-9]*$' "$tmp/home.txt" &&
    grep -q "zangband235 has no feature 'clear_rock_wall': 'granite wall' (56) is taken, the nearest of its class, wall" "$tmp/err" &&
    grep -q "zangband235 has no monster 'bush': '.*' ([0-9]*) is taken, the nearest of its class, plant" "$tmp/err"
result $? "a wall stays a wall, a fountain a fountain, a bush a plant, each pick warned with both names"

"$qg" convert "$tmp/home.txt" --dialect zangband235 -o "$tmp/home_back.des" 2>"$tmp/err" &&
    grep -q '^KFEAT: m = rock_wall$' "$tmp/home_back.des" && grep -q '^MONS: ' "$tmp/home_back.des" &&
    grep -q "has no monster '.*' (monster [0-9]*): '.*' is taken, the nearest of its class, plant" "$tmp/err"
result $? "and back to .des: the same classes, the hole between cells read back (written as floor)"

"$qg" convert "$tmp/home.des" --seed 1 --dialect poschengband -o "$tmp/pos.txt" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -e "$tmp/pos.txt" ] &&
    grep -q "1 thing has nothing of its class in poschengband; nothing is written" "$tmp/err" &&
    grep -q "^  feature 'dry_fountain' (fountain)" "$tmp/err"
result $? "what has nothing of its class in the target is refused, listed, nothing written"

"$qg" convert "$tmp/home.des" --seed 1 --dialect poschengband --lossy -o "$tmp/pos.txt" 2>"$tmp/err" &&
    grep -q '^F:\.:FLOOR$' "$tmp/pos.txt" && grep -q '^F:m:GLASS_WALL$' "$tmp/pos.txt" &&
    ! grep -q '^L:' "$tmp/pos.txt" && ! grep -q '^F:.:[a-z]' "$tmp/pos.txt" &&
    grep -q "the nearest thing in --lossy" "$tmp/err" &&
    "$qg" check --dialect poschengband "$tmp/pos.txt" >/dev/null 2>&1
result $? "--lossy writes it anyway, in PosChengband's own tags, and check --dialect takes it"

printf 'F:.:floor\nF:#:GRANITE\nD:#.#\n' >"$tmp/lower.txt"
"$qg" check --dialect poschengband "$tmp/lower.txt" >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q "lower.txt:1:5: error: unknown terrain tag 'floor'.*did you mean FLOOR" "$tmp/out"
result $? "check --dialect poschengband refuses a tag the game does not have (its tags, byte for byte)"

"$qg" convert "${QG_SRCDIR:-.}/lib/edit/q_info.txt" --quest 3 --var QUEST1=4 --game crawl-0.28 -o "$tmp/q3.des" 2>"$tmp/err" &&
    ! grep -q 'big kobold' "$tmp/q3.des" && "$qg" check --game crawl-0.28 "$tmp/q3.des" >/dev/null 2>&1
result $? "--game crawl-0.28 writes that version's names (no 'big kobold')"

"$qg" convert "${QG_SRCDIR:-.}/lib/edit/q_info.txt" --quest 3 --var QUEST1=4 --game crawl-master -o "$tmp/q3m.des" 2>/dev/null &&
    "$qg" check --game crawl-master "$tmp/q3m.des" >/dev/null 2>&1
result $? "--game crawl-master is checked against master's names"

printf 'NAME: qg_bad\nTAGS: no_rotate\nDEPTH: D:1\nKFEAT: A = altar_zin\nMAP\nxxx\nxAx\nxxx\nENDMAP\n' >"$tmp/altar.des"
"$qg" convert "$tmp/altar.des" --seed 1 --dialect zangband235 -o "$tmp/altar.txt" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -e "$tmp/altar.txt" ] && grep -q "feature 'altar_zin' (altar)" "$tmp/err" &&
    "$qg" convert "$tmp/altar.des" --seed 1 --dialect zangband235 --lossy -o "$tmp/altar.txt" 2>/dev/null &&
    ! grep -q '^F:A:0$' "$tmp/altar.txt"
result $? "never feature 0 for a real feature: refused, or with --lossy a wall"
