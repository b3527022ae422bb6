#!/bin/sh
# The game's branch table (lib/des/vocab/<game>/branches.txt, issue 15)
# through the command line: an encompass map must place the stairs every
# level its DEPTH and PLACE hold has -- seed 000 section D ("you must place
# all except the extra stairs"), with dungeon.cc _fixup_stone_stairs saying
# which a level has (three up, one on a branch's first level; three down,
# none on its last; none in a portal) -- the branches of DEPTH and PLACE
# are checked as mapdef.cc level_range::set does, and --place is checked
# against --game's table. Then, on the real maps when they are there:
# current Crawl's (../shared/corpus) get one stairs warning, and Debian
# crawl 0.28's none on a Temple, portal, Tomb, Zot or layout map. Prints TAP.
srcdir=${QG_SRCDIR:-.}
builddir=${QG_BUILDDIR:-.}
qg="$builddir/questgrid"
data="$srcdir/tests/data/des/branches"
vault="$srcdir/lib/des/questgrid_mini.des"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_des_branches.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
fails=0
echo "1..14"

ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() {
    n=$((n + 1)); echo "not ok $n - $1"; fails=$((fails + 1))
    [ -f "$tmp/err" ] && sed 's/^/# /' "$tmp/err" | head -20
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP: $2"; }
has() { grep -qF -- "$1" "$tmp/err"; }
stairs_said() { grep -F "encompass map '$1'" "$tmp/err"; }

"$qg" check "$data/levels.des" >"$tmp/out" 2>"$tmp/err"
st=$?
if [ $st -eq 0 ] && [ -z "$(stairs_said temple_like)" ]; then
    ok "a one-level branch (the Temple) needs only its up stair, the exit"
else notok "a one-level branch (the Temple) needs only its up stair, the exit"; fi
if [ -z "$(stairs_said zot_end)" ]; then
    ok "a branch's last level (Zot:\$) has no down stairs to place"
else notok "a branch's last level (Zot:\$) has no down stairs to place"; fi
if has "levels.des:51: warning: encompass map 'coc_middle' lacks the stairs )], which all 5 levels its DEPTH and PLACE hold in crawl-master have"; then
    ok "a mid-branch map that lacks two down stairs is still warned"
else notok "a mid-branch map that lacks two down stairs is still warned"; fi
if [ -z "$(stairs_said bazaar_like)" ] && [ -z "$(stairs_said tomb_like)" ] &&
   [ -z "$(stairs_said layout_like)" ]; then
    ok "a portal, an islanded Tomb level on hatches and an overwritable layout need none"
else notok "a portal, an islanded Tomb level on hatches and an overwritable layout need none"; fi
if has "levels.des:141: note: encompass map 'tag_only' lacks the stairs ([})]; its DEPTH and PLACE hold no level of crawl-master"; then
    ok "a map whose levels are not known gets a note, not a warning"
else notok "a map whose levels are not known gets a note, not a warning"; fi

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
    if [ "$warned" -eq 1 ] && has "geh_lava_maze.des:32: warning: encompass map 'nicolae_geh_i_lava_good_maze' lacks the stairs ([)]"; then
        ok "current Crawl's corpus: one stairs warning, a Geh:2-6 map with one stair each way"
    else notok "current Crawl's corpus: one stairs warning, a Geh:2-6 map with one stair each way ($warned)"; fi
else
    skip "current Crawl's corpus: one stairs warning" "no $corpus/crawl/des"
fi
crawl=${QG_CRAWL_DAT:-/usr/share/crawl/dat}
if [ -d "$crawl/des" ] && [ -d "$crawl/dlua" ]; then
    find "$crawl/des" -name '*.des' | sort >"$tmp/files"
    xargs "$qg" check --max-errors 0 --game crawl-0.28 --lua-path "$crawl/dlua" <"$tmp/files" >"$tmp/out" 2>"$tmp/err"
    grep "warning: encompass map" "$tmp/err" |
        grep -E "/(temple|temple_compat|tomb|zot|layout[a-z_]*)\.des:|/portals/" >"$tmp/wrong"
    if [ ! -s "$tmp/wrong" ] && has "warning: encompass map 'coc_dpeg' lacks the stairs (["; then
        ok "crawl 0.28's maps: no stairs warning on a Temple, portal, Tomb, Zot or layout map"
    else sed 's/^/# /' "$tmp/wrong" | head; notok "crawl 0.28's maps: no stairs warning on a Temple, portal, Tomb, Zot or layout map"; fi
else
    skip "crawl 0.28's maps: no stairs warning on a Temple, portal, Tomb, Zot or layout map" "no $crawl/des (crawl-common)"
fi
exit $((fails > 0))
