#!/bin/sh
# Per map, never per run (issue 27): render, check, show and compile over
# many maps resolve each where it belongs, make a map that fails an entry
# saying why (the same line in each: core/outcome.h), say what a map with
# no level of its own is, and write the rest; check reports as errors, at
# their lines, what any command fails on. Fixtures are written here.
# Prints TAP.
qg=${QG_BUILDDIR:-.}/questgrid
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_batch.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
echo "1..36"

check() {
    n=$((n + 1))
    if sh -c "$2"; then
        echo "ok $n - $1"
    else
        echo "not ok $n - $1"
        fails=$((fails + 1))
        sed 's/^/# /' "$tmp/err" | head -10
    fi
}

cd "$tmp" || exit 1
cat >mix.des <<'DES'
NAME: mix_plain
TAGS: transparent
MAP
x.x
ENDMAP

NAME: mix_deep
DEPTH: D:14
validate {{ return you.depth() >= 10 }}
MAP
xx.xx
ENDMAP

NAME: mix_bad
: os.execute("true")
MAP
.
ENDMAP

NAME: mix_last
MAP
.
ENDMAP
DES

"$qg" render mix.des -o mix.html 2>err
check "render: one map failing fails the run (exit 1) but the page is written" \
  "[ $? -eq 1 ] && [ -s mix.html ] && grep -q '4 maps: 3 drawn, 1 failed' err"
check "the failed map is a card saying why, the others are drawn" \
  "[ \$(grep -c '<section id=\"map-' mix.html) -eq 4 ] &&
   grep -q '<section id=\"map-3\" class=\"failed\">' mix.html &&
   grep -q 'class=\"why\">not drawn: mix.des:15 (map mix_bad)' mix.html &&
   grep -q '<h2>mix_last</h2>' mix.html"
check "a map is resolved at its own DEPTH, and says so" \
  "grep -q 'resolved at: D:14' mix.html && ! grep -q 'mix.des:9' err"
"$qg" render --place D:1 mix.des -o d1.html 2>err
check "--place still decides where: at D:1 the deep map's validate fails, the page is written" \
  "[ $? -eq 1 ] && grep -q '4 maps: 2 drawn, 2 failed' err && [ -s d1.html ]"

"$qg" compile mix.des -o mix.qgc --keep-going 2>err
check "compile --keep-going: a skipped entry in the cache saying why" \
  "[ $? -eq 1 ] && \"$qg\" cache list mix.qgc | grep -q '^mix_bad.*skipped'"
"$qg" render mix.qgc -o cache.html 2>err
check "render of the cache: every map, the skipped one a card saying why" \
  "[ $? -eq 1 ] && [ \$(grep -c '<section id=\"map-' cache.html) -eq 4 ] &&
   grep -q 'mix_bad' cache.html && grep -q 'global .os.' cache.html &&
   grep -q 'resolved at: D:14' cache.html"

"$qg" check mix.des >out 2>err
check "check: the failing map is an error at its line, the deep one none" \
  "[ $? -eq 1 ] && grep -q '^mix.des:15: error: .*global .os.' err &&
   ! grep -q 'mix.des:9' err && grep -q 'mix.des: 4 maps, 1 error' out"

# check is the strictest reader: what any command fails on is its error
strict() {
    printf '%b' "$2" >"$1.des"
    "$qg" check "$1.des" >out 2>err
    check "check $1: $4" "[ $? -eq 1 ] && grep -q '^$1.des:$3: error: .*$4' err"
}
rows=$(i=0; while [ $i -lt 70 ]; do printf '.\\n'; i=$((i + 1)); done)
strict tall "NAME: tall\nMAP\n${rows}ENDMAP\n" 1 "too large: 1x70"
strict syntax "NAME: syntax\n: if true then\nMAP\n.\nENDMAP\n" 2 ".end. expected near"
strict osexec "NAME: osexec\n: os.execute('true')\nMAP\n.\nENDMAP\n" 2 "nil value (global .os.)"
strict budget "NAME: budget\n: while true do end\nMAP\n.\nENDMAP\n" 2 \
  "instruction budget exceeded"
strict memory "NAME: memory\n: local s = ('x'):rep(1 << 20) for i = 1, 10 do s = s .. s end\nMAP\n.\nENDMAP\n" \
  2 "memory budget exceeded"
strict selfsub "NAME: selfsub\nTAGS: sv_self\nSUBVAULT: X : sv_self\nMAP\nXX\nXX\nENDMAP\n" \
  "3:11" "a cycle of subvaults (selfsub -> selfsub)"
strict pair "NAME: pair_a\nTAGS: ta\nSUBVAULT: X : tb\nMAP\nX\nENDMAP\n\nNAME: pair_b\nTAGS: tb\nSUBVAULT: X : ta\nMAP\nX\nENDMAP\n" \
  "3:11" "a cycle of subvaults (pair_a -> pair_b -> pair_a)"
check "and the other map of the pair at its own line" \
  "grep -q '^pair.des:10:11: error: .*(pair_b -> pair_a -> pair_b)' err"

{ printf 'F:#:2:8\nF:.:1:8\n'; i=0; while [ $i -lt 70 ]; do echo 'D:#.#'; i=$((i + 1)); done; } >tall.txt
"$qg" show tall.txt >out 2>err
check "show refuses a 70-row D: map" "[ $? -eq 1 ] && grep -q 'more than 66 rows' err"
"$qg" check tall.txt >out 2>err
check "and check reports it as an error at its line" \
  "[ $? -eq 1 ] && grep -q '^tall.txt:69:1: error: more than 66 rows' err"

# show follows the same rule
cat >rule.des <<'DES'
NAME: rule_host
TAGS: transparent
SUBVAULT: X : rule_part
MAP
xx.xx
xXXXx
xxxxx
ENDMAP

NAME: rule_inner
TAGS: rule_part
{{
if is_subvault() then
  map(".+.")
end
}}

NAME: rule_deep
DEPTH: D:14
validate {{ return you.depth() >= 10 }}
MAP
xx.xx
ENDMAP

NAME: rule_dummy
TAGS: dummy

NAME: rule_bad
: os.execute("true")
MAP
.
ENDMAP
DES

"$qg" show rule.des --map rule_inner --seed 1 >out 2>err
check "show: a map shaped by the SUBVAULT that places it is shown inside its user" \
  "[ $? -eq 0 ] && grep -q '^x\\.+\\.x\$' out &&
   grep -q '^resolved inside rule_host, whose SUBVAULT places it\$' out"
"$qg" show rule.des --map rule_deep --seed 1 >out 2>err
check "show: a map is resolved at its own DEPTH (its validate needs D:10 or deeper)" \
  "[ $? -eq 0 ] && grep -q '^xx\\.xx\$' out && grep -q '^resolved at D:14' out"
"$qg" show rule.des --map rule_dummy --seed 1 >out 2>err
check "show: a dummy is said to be one, not a failure" \
  "[ $? -eq 0 ] && grep -q '^rule_dummy: no level of its own: a dummy (TAGS: dummy)' out &&
   ! grep -q error err"
"$qg" show rule.des --map rule_dumy --seed 1 >out 2>err
check "show: an unknown --map names the file's maps and the closest" \
  "[ $? -eq 1 ] && grep -q \"no map named 'rule_dumy'; did you mean 'rule_dummy'? (5 maps:\" err"

why="rule.des:29 (map rule_bad): attempt to index a nil value (global 'os')"
"$qg" show rule.des --map rule_bad --seed 1 >out 2>err
check "show: a map that fails is an error, exit 1" \
  "[ $? -eq 1 ] && [ ! -s out ] && grep -qF \"rule.des:29: error: $why\" err"
"$qg" check rule.des >out 2>check.err
"$qg" render rule.des -o rule.html 2>err
"$qg" compile rule.des -o rule.qgc --keep-going 2>err
"$qg" cache list rule.qgc >list 2>err
check "the same reason in check, render's card and the cache's skipped entry" \
  "grep -qF \"rule.des:29: error: $why\" check.err &&
   grep -qF \"class=\\\"why\\\">not drawn: $why<\" rule.html &&
   grep -qF \"# skipped rule_bad: $why\" list"
"$qg" show rule.qgc --map rule_inner --seed 1 >out 2>err
check "show: a map of a compiled cache, inside its user too" \
  "[ $? -eq 0 ] && grep -q '^x\\.+\\.x\$' out && grep -q 'resolved inside rule_host' out"
"$qg" render rule.des -o rule.html 2>err
check "render of the same file: 3 drawn, the dummy said what it is, 1 failed" \
  "[ $? -eq 1 ] &&
   grep -q '5 maps: 3 drawn, 1 without a level of their own (said what they are), 1 failed' err"

# A row wider than MAX_WID: the classic loaders lay a row while x < xmax
# (198) and drop the rest; the level is drawn 198 wide, the loss a warning.
{ printf 'F:#:1:3\nF:.:1:3\nD:'; i=0; while [ $i -lt 198 ]; do printf '#'; i=$((i + 1)); done
  printf '.\nD:'; i=0; while [ $i -lt 381 ]; do printf '.'; i=$((i + 1)); done; echo; } >wide.txt
"$qg" show --dialect tome wide.txt >out 2>err
check "show lays a D: row as ToME does: up to its 198th column" \
  "[ $? -eq 0 ] && head -1 out | grep -q '(198x2)' &&
   [ \$(sed -n 2p out | wc -c) -eq 199 ] && ! sed -n 2p out | grep -q '[.]'"
"$qg" check --dialect tome wide.txt >out 2>err
check "check names the columns dropped, at the first of them" \
  "[ $? -eq 0 ] && grep -q '^wide.txt:3:201: warning: row of 199 columns: ToME 2 .* drops map column 198,' err &&
   grep -q '^wide.txt:4:201: warning: row of 381 columns: .* drops map columns 198-380,' err"
"$qg" render --dialect tome wide.txt -o wide.svg 2>err
check "render draws the level" "[ $? -eq 0 ] && [ -s wide.svg ]"

# A town overlay: its rows lie only under lines on a quest's state, which
# the games always set ($QUEST17 is quest 17's status, 0 in a new game).
cat >overlay.txt <<'FD'
F:.:1:3
F:#:56:12
?:[EQU $QUEST17 1]
D:...
?:[IOR [EQU $QUEST17 0] [EQU $QUEST17 2] ]
D:###
FD
"$qg" show --dialect zangband overlay.txt >out 2>err
check "rows only under quest states: drawn as a new game finds them, and said" \
  "[ $? -eq 0 ] && sed -n 2p out | grep -q '^###$' &&
   grep -q 'overlay.txt: note: .*drawn with \$QUEST17 = 0 (a new game.s: not taken)' err"
"$qg" show --dialect zangband --var QUEST17=1 overlay.txt >out 2>err
check "--var chooses the state" "[ $? -eq 0 ] && sed -n 2p out | grep -q '^[.][.][.]$'"
printf 'F:.:1:3\n?:[EQU $QUEST3 9]\nD:...\n' >never.txt
"$qg" render --dialect zangband overlay.txt never.txt -o states.html 2>err
check "render: the overlay drawn with its state, rows no state opens a described card" \
  "[ $? -eq 0 ] && grep -q '2 maps: 1 drawn, 1 without a level of their own' err &&
   grep -q 'quest state: \$QUEST17 = 0' states.html &&
   grep -q 'never.txt: note: .*\$QUEST3 that no quest status (0 to 6) opens' err"
printf 'F:.:1:3\n?:[EQU $LEVEL 9]\nD:...\n' >nomap.txt
"$qg" render --dialect zangband nomap.txt -o nomap.html 2>err
check "rows under other conditions are still no map, an error" \
  "[ $? -eq 1 ] && grep -q 'nomap.txt: error: no map' err"
{ echo 'F:.:1:3'; i=0; while [ $i -lt 300 ]; do echo "?:[EQU \$QUEST$i 1]"; echo 'D:.'; i=$((i + 1)); done; } >many.txt
"$qg" show --dialect zangband many.txt >out 2>err
check "lines on more quests than the games' tables hold: no state is tried, no map" \
  "[ $? -eq 1 ] && grep -q 'many.txt: error: no map' err"

# A chain of subvaults (chain_k's SUBVAULT picks chain_k+1's tag) costs
# work linear in its maps: counted in map runs (--verbose), not timed.
chain() {
  awk -v n="$1" 'BEGIN { for (k = 0; k < n; k++) {
    printf "NAME: chain_%d\nTAGS: t%d\n", k, k
    if (k < n - 1) printf "SUBVAULT: X : t%d\nMAP\nX\nENDMAP\n\n", k + 1
    else printf "MAP\n.\nENDMAP\n" } }' >chain$1.des
  "$qg" check --verbose chain$1.des >out 2>err$1
  sed -n 's/.*check: \([0-9]*\) map runs.*/\1/p' err$1 >runs$1
}
chain 100; chain 200; chain 400
r1=$(cat runs100) r2=$(cat runs200) r4=$(cat runs400)
cp err400 err
check "a chain of 400 maps: each map's error is the nesting bound, not the time limit" \
  "grep -q '^chain400.des:3: error: SUBVAULT X : t1: .*nested deeper than 8' err && \
   ! grep -q 'time limit' err && grep -q 'chain400.des: 400 maps, 391 errors' out"
check "its work is linear in the maps: twice the maps, twice the added map runs" \
  "[ -n '$r1' ] && [ $((r4 - r2)) -eq $((2 * (r2 - r1))) ]"
check "and bounded per map: at most 10 map runs each ($r4 for 400)" \
  "[ -n '$r4' ] && [ $r4 -le 4000 ]"

[ $fails -eq 0 ]
