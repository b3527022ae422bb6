#!/bin/sh
# The game's branch table (lib/des/vocab/<game>/branches.txt, issue 15)
# through the command line: an encompass map is held to the stone stairs
# every level its DEPTH and PLACE hold has after dungeon.cc
# _fixup_stone_stairs (three up, one on a branch's first level and in a
# hell; three down, one in a hell, none on a branch's last level; none in a
# portal, none fixed in the Tomb nor the tutorial) and to one up stair that
# walks to a down one (_fixup_interlevel_connectivity); the branches of
# DEPTH and PLACE are checked as mapdef.cc level_range::set does, and
# --place is checked against --game's table. Then, on the real maps when
# they are there: no stairs warning on current Crawl's (../shared/corpus)
# nor on Debian crawl 0.28's. Prints TAP.
srcdir=${QG_SRCDIR:-.}
builddir=${QG_BUILDDIR:-.}
qg="$builddir/questgrid"
data="$srcdir/tests/data/des/branches"
vault="$srcdir/lib/des/questgrid_mini.des"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_des_branches.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
fails=0
echo "1..19"

ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() {
    n=$((n + 1)); echo "not ok $n - $1"; fails=$((fails + 1))
    [ -f "$tmp/err" ] && sed 's/^/# /' "$tmp/err" | head -20
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP: $2"; }
has() { grep -qF -- "$1" "$tmp/err"; }
stairs_said() { grep -F "encompass map '$1'" "$tmp/err"; }

"$qg" check --verbose "$data/levels.des" >"$tmp/out" 2>"$tmp/err"
st=$?
if [ $st -eq 0 ] && [ -z "$(stairs_said temple_like)" ]; then
    ok "a one-level branch (the Temple) needs only its up stair, the exit"
else notok "a one-level branch (the Temple) needs only its up stair, the exit"; fi
if [ -z "$(stairs_said zot_end)" ]; then
    ok "a branch's last level (Zot:\$) has no down stairs to place"
else notok "a branch's last level (Zot:\$) has no down stairs to place"; fi
if [ -z "$(stairs_said coc_middle)" ]; then
    ok "a hell's level has one stone stair each way"
else notok "a hell's level has one stone stair each way"; fi
if has "levels.des:78: warning: encompass map 'd_middle' has 1 of the 3 stone stairs down all 13 levels its DEPTH and PLACE hold in crawl-master have: Crawl puts the other 2 on random floor cells of the map"; then
    ok "a D map with one stair down of three: Crawl adds two at random"
else notok "a D map with one stair down of three: Crawl adds two at random"; fi
if has "levels.des:100: warning: encompass map 'd_no_down' has no stone stair down, which the level its DEPTH and PLACE hold in crawl-master needs: Crawl adds none"; then
    ok "a D map with no stair down: the level is thrown away"
else notok "a D map with no stair down: the level is thrown away"; fi
if has "levels.des:122: warning: encompass map 'd_apart': no stone stair up can be walked to a stone stair down" &&
   [ -z "$(stairs_said d_corner)" ]; then
    ok "no up stair walks to a down stair; cells touching at a corner are joined"
else notok "no up stair walks to a down stair; cells touching at a corner are joined"; fi
if [ -z "$(stairs_said bazaar_like)" ] && [ -z "$(stairs_said tomb_like)" ] &&
   [ -z "$(stairs_said layout_like)" ] && [ -z "$(stairs_said tutorial_like)" ]; then
    ok "a portal, the Tomb, an overwritable layout and a tutorial map need none"
else notok "a portal, the Tomb, an overwritable layout and a tutorial map need none"; fi
if has "levels.des:260: note: encompass map 'tag_only' has 1 stone stair up and 0 down; its DEPTH and PLACE hold no level of crawl-master"; then
    ok "a map whose levels are not known gets a note, not a warning"
else notok "a map whose levels are not known gets a note, not a warning"; fi

"$qg" check "$data/levels.des" >"$tmp/out" 2>"$tmp/err"
if ! has "encompass map 'tag_only'" && grep -q "levels.des: [0-9]* maps, [0-9]* errors, 1 note hidden" "$tmp/out" &&
   grep -q "^1 note hidden (--verbose prints them): 0 maps with no MAP, .*; 1 encompass map whose DEPTH and PLACE hold no level" "$tmp/out"; then
    ok "without --verbose that note is counted, on the file's line and at the end"
else notok "without --verbose that note is counted, on the file's line and at the end"; fi

"$qg" check "$data/places.des" >"$tmp/out" 2>"$tmp/err"
st=$?
if [ $st -eq 1 ] && has "places.des:6:15: error: DEPTH: unknown branch 'Liar' in crawl-master; did you mean 'Lair'?" &&
   has "  DEPTH: D:2-4, Liar:2" && has "                ^"; then
    ok "an unknown branch in DEPTH: file:line:col, caret, did you mean"
else notok "an unknown branch in DEPTH: file:line:col, caret, did you mean"; fi
if has "places.des:18:8: warning: DEPTH: Lair has 5 levels in crawl-master, so 'Lair:6' holds none" &&
   ! has "Crucible"; then
    ok "current Crawl: Lair has 5 levels and the Crucible is a branch"
else notok "current Crawl: Lair has 5 levels and the Crucible is a branch"; fi
"$qg" check --game crawl-0.28 "$data/places.des" >"$tmp/out" 2>"$tmp/err"
if has "places.des:12:8: error: PLACE: unknown branch 'Crucible' in crawl-0.28" && ! has "Lair:6"; then
    ok "Crawl 0.28: no Crucible, and Lair has 6 levels"
else notok "Crawl 0.28: no Crucible, and Lair has 6 levels"; fi

"$qg" show --game crawl-0.28 --place Lair:6 --seed 1 "$vault" >"$tmp/out" 2>"$tmp/err"
st=$?
"$qg" show --place Lair:6 --seed 1 "$vault" >"$tmp/out" 2>"$tmp/err"
st2=$?
if [ $st -eq 0 ] && [ $st2 -eq 2 ] &&
   has "bad value 'Lair:6' for --place: bad depth in place 'Lair:6': Lair has levels 1 to 5 in crawl-master"; then
    ok "--place is checked against --game's branches"
else notok "--place is checked against --game's branches"; fi
"$qg" stats --game crawl-0.28 --place Gulch -n 1 "$vault" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 2 ] && has "unknown branch 'Gulch' in place 'Gulch' (crawl-0.28"; then
    ok "a branch only current Crawl has is refused for Crawl 0.28"
else notok "a branch only current Crawl has is refused for Crawl 0.28"; fi
"$qg" render --game crawl-0.82 --place D:2 -o "$tmp/x.svg" "$vault" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 2 ] && has "no branch table for game 'crawl-0.82'; did you mean 'crawl-0.28'?"; then
    ok "an unknown --game is said, with a hint"
else notok "an unknown --game is said, with a hint"; fi
"$qg" show --place dungeon:3 --seed 1 "$vault" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ]; then
    ok "--place takes a branch's other names, any case"
else notok "--place takes a branch's other names, any case"; fi

corpus=${QG_CORPUS:-$srcdir/../shared/corpus}
if [ -d "$corpus/crawl/des" ]; then
    "$qg" check --max-errors 0 "$corpus"/crawl/des/*/*.des >"$tmp/out" 2>"$tmp/err"
    warned=$(grep -c "warning: encompass map" "$tmp/err")
    if [ "$warned" -eq 0 ] && grep -q "geh_lava_maze.des: [0-9]* maps\?, 0 errors" "$tmp/out"; then
        ok "current Crawl's corpus: no stairs warning (its hell maps have a stair each way)"
    else notok "current Crawl's corpus: no stairs warning ($warned)"; fi
else
    skip "current Crawl's corpus: no stairs warning" "no $corpus/crawl/des"
fi
crawl=${QG_CRAWL_DAT:-/usr/share/crawl/dat}
if [ -d "$crawl/des" ] && [ -d "$crawl/dlua" ]; then
    find "$crawl/des" -name '*.des' | sort >"$tmp/files"
    xargs "$qg" check --verbose --max-errors 0 --game crawl-0.28 --lua-path "$crawl/dlua" <"$tmp/files" >"$tmp/out" 2>"$tmp/err"
    grep "warning: encompass map" "$tmp/err" >"$tmp/wrong"
    if [ ! -s "$tmp/wrong" ] && has "note: encompass map 'linesprint' has 1 stone stair up and 0 down"; then
        ok "crawl 0.28's maps: no stairs warning"
    else sed 's/^/# /' "$tmp/wrong" | head; notok "crawl 0.28's maps: no stairs warning"; fi
    "$qg" check --verbose --max-errors 0 "$crawl/des" >"$tmp/out" 2>"$tmp/err"
    told=$(grep -c ": note: " "$tmp/err")
    "$qg" check --max-errors 0 "$crawl/des" >"$tmp/out" 2>"$tmp/err"
    hidden=$(sed -n 's/^\([0-9]*\) notes hidden (--verbose prints them): .*/\1/p' "$tmp/out")
    if [ "$(grep -c ': note: ' "$tmp/err")" -eq 1 ] && has "note: Crawl data of crawl-0.28" &&
       [ "$hidden" -eq $((told - 1)) ]; then
        ok "crawl 0.28's des: its notes of no MAP and unknown stairs only with --verbose ($hidden counted)"
    else notok "crawl 0.28's des: its notes of no MAP and unknown stairs only with --verbose"; fi
else
    skip "crawl 0.28's maps: no stairs warning" "no $crawl/des (crawl-common)"
    skip "crawl 0.28's des: notes only with --verbose" "no $crawl/des (crawl-common)"
fi
exit $((fails > 0))
