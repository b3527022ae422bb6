#!/bin/sh
# Every command takes what compile takes: files and directories, each file
# told its kind once (tests/data/inputs: a small lib/edit with a hub, two
# quests, shared letters, a vocabulary, misc.txt, a readme and a makefile;
# a Hengband 3 directory with its *.jsonc and *Definitions.txt data).
# Game data is a note, never an error; a hub lists its quests; an unknown
# quest, map, variable or game gets a hint and the list of what exists;
# `help CMD` is `CMD --help`; markers are one line a kind.
qg="${QG_BUILDDIR:-.}/questgrid"
src="${QG_SRCDIR:-.}"
data="$src/tests/data/inputs"
edit="$data/edit"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_inputs.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
echo "1..32"

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

# ---- file kinds and directories -------------------------------------------
run "$qg" check "$edit"
[ $? -eq 0 ] && has "edit: note: skipped 2 game data files, not levels: f_info.txt, misc.txt" &&
    ! has "error" && ! has "readme" && ! has "makefile.zb"
result $? "check DIR: game data is one note; a readme and a makefile found there are left alone"

[ "$(grep -c 'note: read as' "$tmp/err")" -eq 1 ] &&
    has "edit: note: read as Zangband 2.3.0's edit directory (it holds q_info.txt, f_info.txt (N:1:open...)); --dialect and --edit-dir choose otherwise"
result $? "the variant the directory was read as: one note, saying how to choose otherwise"
run "$qg" check --dialect zangband "$edit"
[ $? -eq 0 ] && ! has "read as"
result $? "no such note when --dialect says it"

run "$qg" check "$edit/f_info.txt" "$edit/misc.txt"
[ $? -eq 0 ] && has "f_info.txt: note: skipped: a lib/edit vocabulary (3 N:index:name entries)" &&
    has "misc.txt: note: skipped: game data Zangband 2.3.0 reads with its own parser"
result $? "check of a vocabulary and misc.txt named: notes, exit 0"

run "$qg" check "$edit/readme.txt" "$edit/makefile.zb" "$edit/q0000012.txt"
[ $? -eq 1 ] && has "readme.txt: error: not a level" && has "makefile.zb: error: not a level" &&
    [ "$(grep -c error "$tmp/err")" -eq 2 ]
result $? "check of files that are nothing questgrid reads: one error each, the level still checked"

run "$qg" check "$data/heng3"
[ $? -eq 0 ] && has "skipped 2 game data files, not levels: ClassSkillDefinitions.txt, MonraceDefinitions.jsonc"
result $? "Hengband 3: its *.jsonc and *Definitions.txt are game data"

run "$qg" compile "$edit" -o "$tmp/edit.qgc"
[ $? -eq 0 ] && has "2 maps from 2 files" && has "skipped 2 game data files"
result $? "compile DIR: the two quests, the data skipped with a note"

run "$qg" compile "$edit/misc.txt" "$edit/q0000001.txt" -o "$tmp/named.qgc" --keep-going
[ $? -eq 0 ] && has "1 maps from 1 files" && has "misc.txt: note: skipped"
result $? "compile of misc.txt named: a note, not an error"

run "$qg" check "$tmp/edit.qgc"
[ $? -eq 0 ] && ! has "error"
result $? "check of a compiled cache verifies it"
mkdir "$tmp/damaged"
cp "$tmp/edit.qgc" "$tmp/damaged/edit.qgc"
printf 'not a cache' | dd of="$tmp/damaged/edit.qgc" bs=1 seek=80 conv=notrunc 2>/dev/null
run "$qg" check "$tmp/damaged/edit.qgc"
[ $? -eq 1 ] && has "error"
result $? "check of a damaged cache is an error"

# ---- list -------------------------------------------------------------------
run "$qg" list "$edit"
[ $? -eq 0 ] && grep -q "q_info.txt	quest 1	Rat Cellar	q0000001.txt" "$tmp/out" &&
    grep -q "q_info.txt	quest 12	Bat Loft	q0000012.txt" "$tmp/out" &&
    grep -q "q0000012.txt	an F:/D: level" "$tmp/out" && ! has "error"
result $? "list DIR: a hub's quests, one line per level file, never a hub read as .des"

printf '\001\002\377\376\000garbage\033[2J' >"$tmp/garbage.des"
run "$qg" list "$tmp/garbage.des"
[ $? -eq 1 ] && has "garbage.des: error: not a level" && ! grep -q '\\x' "$tmp/err" &&
    [ "$(wc -l <"$tmp/err")" -eq 1 ]
result $? "list of a binary file: one error, no bytes dumped"

run "$qg" dump-lua "$src/lib/des"
[ $? -eq 0 ] && grep -q "questgrid_candle_crypt" "$tmp/out" && grep -q "questgrid_reading_room" "$tmp/out"
result $? "dump-lua DIR reads every .des file below it"

# ---- hubs and quests --------------------------------------------------------
run "$qg" show "$edit/q_info.txt"
[ $? -eq 1 ] && has "a quest hub: give --quest N to load one of its 2 quests (1 Rat Cellar, 12 Bat Loft)"
result $? "show of a hub without --quest lists its quests"

run "$qg" show "$edit/q_info.txt" --quest 102
[ $? -eq 1 ] && has "no quest 102 in this hub; did you mean 12? (its 2 quests: 1 Rat Cellar, 12 Bat Loft)"
result $? "an unknown quest: a hint and the quests there are"

run "$qg" show "$edit" --quest 12 --color=never
[ $? -eq 0 ] && grep -q "Bat Loft" "$tmp/out"
result $? "show DIR --quest N loads the quest through the directory's hub"

run "$qg" show "$edit"
[ $? -eq 1 ] && has "files given hold levels; one is read at a time" && has "--quest N"
result $? "show DIR with several levels says how to pick one"

run "$qg" convert "$edit/q_info.txt" --quest 12 -o "$tmp/loft.tmx"
[ $? -eq 0 ] && [ -s "$tmp/loft.tmx" ]
result $? "convert through a hub"

rm -rf "$tmp/damaged"
run "$qg" check "$tmp"
[ $? -eq 0 ] && ! has "error"
result $? "check DIR reads the Tiled map and the caches found there"

# ---- names that do not exist ------------------------------------------------
run "$qg" show "$edit/q_info.txt" --quest 1 --var CLAS=Priest --color=never
[ $? -eq 0 ] && has "warning: --var CLAS: Zangband 2.3.0 gives ?: lines no variable \$CLAS; did you mean CLASS?" &&
    has "(its variables: SYS, GRAF" && has "QUEST<n>"
result $? "an unknown --var: a hint and the game's variables"

run "$qg" show "$edit/q_info.txt" --quest 1 --var CLASS=Priest --color=never
[ $? -eq 0 ] && ! has "warning"
result $? "a known --var is taken silently"

run "$qg" show "$src/lib/des/questgrid_vaults.des" --map questgrid_candle_cript
[ $? -eq 1 ] && has "no map named 'questgrid_candle_cript'; did you mean 'questgrid_candle_crypt'?" &&
    has "maps: questgrid_"
result $? "an unknown --map: a hint and the file's maps"

run "$qg" show "$src/lib/des/questgrid_vaults.des" --map questgrid_candle_cript --seed 1
[ $? -eq 1 ] && has "did you mean 'questgrid_candle_crypt'?"
result $? "the same when the map is resolved"

run "$qg" show "$src/lib/des" --map questgrid_reading_room --color=never
[ $? -eq 0 ] && grep -q "map: questgrid_reading_room" "$tmp/out"
result $? "show DIR --map NAME finds the .des file that defines the map"

run "$qg" show "$src/lib/des" --map questgrid_reading_rom
[ $? -eq 1 ] && has "did you mean 'questgrid_reading_room'?"
result $? "an unknown --map among a directory's maps: a hint"

run "$qg" check --game crawl-0.82 "$src/lib/des/questgrid_mini.des"
[ $? -eq 2 ] && has "bad value 'crawl-0.82' for --game" && has "did you mean 'crawl-0.28'?" &&
    has "known: crawl-0.28, crawl-master"
result $? "an unknown --game: a hint and the games there are"

# ---- help ---------------------------------------------------------------------
"$qg" show --help >"$tmp/want" 2>&1
run "$qg" help show
[ $? -eq 0 ] && cmp -s "$tmp/out" "$tmp/want"
result $? "questgrid help show is questgrid show --help"
run "$qg" help sohw
[ $? -eq 2 ] && has "did you mean 'show'?"
result $? "questgrid help of a misspelt command: a hint"

# ---- markers, one line a kind -------------------------------------------------
run "$qg" show "$data/markers.des" --seed 1 --color=never
[ $? -eq 0 ] && grep -q "^marker kprop:no_tele_into: 15 cells, the first at row 0, column 0$" "$tmp/out" &&
    grep -q "^marker colour:red: 15 cells" "$tmp/out" && [ "$(grep -c '^marker' "$tmp/out")" -eq 2 ]
result $? "show --seed: one line a kind of marker, with its count"

run "$qg" show "$data/markers.des" --seed 1 --color=never --verbose
[ $? -eq 0 ] && [ "$(grep -c '^marker at row' "$tmp/out")" -eq 30 ]
result $? "show --verbose: a line for every marker's cell"

run "$qg" place --seed 2 --color=never "$data/markers.des"
[ $? -eq 0 ] && grep -q "^  marker kprop:no_tele_into: 15 cells, the first at" "$tmp/out" &&
    [ "$(grep -c '^  marker' "$tmp/out")" -eq 2 ]
result $? "place: one line a kind of marker"

run "$qg" place --seed 2 --color=never --verbose "$data/markers.des"
[ $? -eq 0 ] && [ "$(grep -c '^  marker at' "$tmp/out")" -eq 30 ]
result $? "place --verbose: a line for every marker's cell"
