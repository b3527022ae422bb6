#!/bin/sh
# The dialects from the command line (TAP): each fixture's edit directory
# tells its dialect, every quest shows, F:/D: goes through .des and TMX
# and back to the same `show`, a level wider than Crawl's 80 columns needs
# --oversize, and check reports indices and tags the vocabulary lacks.
qg="${QG_BUILDDIR:-.}/questgrid"
data="${QG_SRCDIR:-.}/tests/data/fd/dialects"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
result() {
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
echo 1..47

# shows DIR HUB N: show prints the level with no error
shows() {
    "$qg" show "$data/$1/$2" --quest "$3" >"$tmp/show" 2>"$tmp/err" && [ -s "$tmp/show" ]
}
shows hengband3 QuestDefinitionList.txt 1 && grep -q '^The Cellar (7x4)$' "$tmp/show"
result $? "hengband3: QuestDefinitionList.txt, quests/ and an include with a trailing space"
# a quest with no map by design is said to be what it is, as every
# batch says it (core/outcome.h): not a failure
"$qg" show "$data/poschengband/q_info.txt" --quest 2 >"$tmp/show" 2>"$tmp/err" &&
    grep -q 'no level of its own: quest 2 (The Wolf) has no map: it is a kill-level quest' \
        "$tmp/show" &&
    grep -q 'note: quest 2 (The Wolf) has no map: it is a kill-level quest (type 1)' "$tmp/err"
result $? "poschengband: a quest of English Q: records only has no map, and says why"
shows poschengband q_info.txt 3 && grep -q 'monster: wolf, NO_GROUP' "$tmp/show"
result $? "poschengband: room letters beside D: rows"
shows frogcomposband q_info.txt 1 && grep -q 'formation member 1 of r +2' "$tmp/show" &&
    grep -q 'player start: row 1, column 1' "$tmp/show"
result $? "frogcomposband: a q_info.txt record and its room template"
"$qg" show "$data/hengband3/QuestDefinitionList.txt" --quest 41 >"$tmp/show" 2>"$tmp/err" &&
    grep -q 'no level of its own: quest 41' "$tmp/show" &&
    grep -q 'note: quest 41 (Random Quest) has no map: it is a random quest (type 7), and the dungeon generator makes its level, at dungeon level 33' "$tmp/err"
result $? "hengband3: a random quest is read as the game reads it, with \$QUEST_NUMBER at 40"
"$qg" show "$data/hengband3/QuestDefinitionList.txt" --quest 42 >"$tmp/show" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q 'error: no quest 42 in this hub' "$tmp/err"
result $? "hengband3: a random quest no record names is not defined"
shows angband4 vault.txt 2 && grep -q '^Moat (5x3)$' "$tmp/show"
result $? "angband4: the second vault of vault.txt"
shows zangband235 q_info.txt 1 && grep -q 'reads no P: lines' "$tmp/err"
result $? "zangband235: P: is warned as the game ignores it"
"$qg" show --dialect klingon "$data/tome/grove.map" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'hengband3' "$tmp/err"
result $? "an unknown dialect lists the dialects"

# every dialect's JSON: the player start and the ways the game turns the
# level (transform.choices), and the one --seed applied
json_turns() {
    "$qg" show "$@" --format json 2>/dev/null | tr -d ' \n' |
        grep -o '"player_start":\(null\|{[^}]*}\),"transform":{[^}]*}'
}
while read -r dir hub q want; do
    [ "$(json_turns "$data/$dir/$hub" --quest "$q")" = "$want" ]
    result $? "show --format json: $dir's player start and turns"
done <<EOF_JSON
zangband235 q_info.txt 1 "player_start":null,"transform":{"choices":[0],"applied":null}
hengband3 QuestDefinitionList.txt 1 "player_start":{"x":1,"y":1},"transform":{"choices":[0],"applied":null}
poschengband q_info.txt 3 "player_start":null,"transform":{"choices":[0],"applied":null}
frogcomposband q_info.txt 1 "player_start":{"x":1,"y":1},"transform":{"choices":[0,2,4,6],"applied":null}
poschengband7 q_info.txt 1 "player_start":null,"transform":{"choices":[0,2,4,6],"applied":null}
angband4 vault.txt 1 "player_start":null,"transform":{"choices":[0,1,2,3,4,5,6,7],"applied":null}
angband4 room_template.txt 1 "player_start":null,"transform":{"choices":[0,1,2,3,4,5,6,7],"applied":null}
EOF_JSON
[ "$(json_turns "$data/tome/grove.map")" = '"player_start":{"x":2,"y":1},"transform":{"choices":[0],"applied":null}' ]
result $? "show --format json: tome's player start and turns"
[ "$(json_turns "$data/frogcomposband/q_info.txt" --quest 1 --seed 3)" = '"player_start":{"x":5,"y":1},"transform":{"choices":[0,2,4,6],"applied":4}' ] &&
    "$qg" show "$data/frogcomposband/q_info.txt" --quest 1 --seed 3 | grep -q '^turns: the game turns it by one of transforms 0 2 4 6; shown turned by 4 (--seed)$'
result $? "show --seed: a room template turned by the seed's draw, and said so"

# round DIR HUB N EXT: hub quest N to EXT and back, shown the same
round() {
    dir="$data/$1"
    "$qg" show "$dir/$2" --quest "$3" >"$tmp/a" 2>/dev/null &&
        "$qg" convert "$dir/$2" --quest "$3" -o "$tmp/x.$4" 2>/dev/null &&
        "$qg" convert "$tmp/x.$4" --edit-dir "$dir" -o "$tmp/$2" 2>/dev/null &&
        "$qg" show "$tmp/$2" --edit-dir "$dir" >"$tmp/b" 2>/dev/null &&
        sed -i "1s/.*/name/" "$tmp/a" "$tmp/b" && cmp -s "$tmp/a" "$tmp/b"
}
round hengband3 QuestDefinitionList.txt 1 des && grep -q '^#qg:prop :quest_text' "$tmp/x.des"
result $? "hengband3 quest to .des and back: the same level, its records in #qg: lines"
round frogcomposband q_info.txt 1 des
result $? "frogcomposband quest to .des and back: the same level"
round poschengband q_info.txt 3 tmx
result $? "poschengband quest to TMX and back: the same level"
round angband4 vault.txt 1 des && grep -q '^name:Tiny box$' "$tmp/vault.txt"
result $? "angband4 vault to .des and back, written as a vault.txt record"

shows poschengband7 q_info.txt 31 && grep -q 'monster: Old Man Willow (4)' "$tmp/show"
result $? "poschengband7: a q_info.txt record's room-template file"
round poschengband7 q_info.txt 1 des
result $? "poschengband7 quest to .des and back: the same level"

# two player glyphs and a P: line (PosChengband reading a Hengband quest
# file): the start is the P: line's, the other '@' cells stay glyphs
printf 'Q:7:N:Two starts\nF:#:PERMANENT:8\nF:.:FLOOR:8\nD:#####\nD:#@.@#\nD:#####\nP:1:2\n' >"$tmp/q_at.txt"
for ext in des tmx; do
    "$qg" show "$tmp/q_at.txt" --edit-dir "$data/poschengband" >"$tmp/a" 2>/dev/null &&
        grep -q 'player start: row 1, column 2' "$tmp/a" &&
        "$qg" convert "$tmp/q_at.txt" --edit-dir "$data/poschengband" -o "$tmp/at.$ext" 2>/dev/null &&
        "$qg" convert "$tmp/at.$ext" --edit-dir "$data/poschengband" -o "$tmp/at_back.txt" 2>/dev/null &&
        "$qg" show "$tmp/at_back.txt" --edit-dir "$data/poschengband" >"$tmp/b" 2>/dev/null &&
        cmp -s "$tmp/a" "$tmp/b"
    result $? "poschengband: player glyphs beside a P: line, to $ext and back"
done

# ':' and '/' name room letters (L:::x, L:/:x): they are bytes of an L:
# line, split off by no tokenizer, so the writer keeps them as they are
printf 'T:QUEST:NORMAL\nL:#:PERMANENT\nL:.:FLOOR\nL:::GRANITE\nL:/:OBJ(dagger)\nM:#####\nM:#.:/#\nM:#####\n' >"$tmp/q_colon.txt"
for ext in des tmx; do
    "$qg" show "$tmp/q_colon.txt" --edit-dir "$data/frogcomposband" >"$tmp/a" 2>/dev/null &&
        "$qg" convert "$tmp/q_colon.txt" --edit-dir "$data/frogcomposband" -o "$tmp/colon.$ext" 2>/dev/null &&
        "$qg" convert "$tmp/colon.$ext" --edit-dir "$data/frogcomposband" -o "$tmp/colon_back.txt" 2>/dev/null &&
        grep -q '^L:::GRANITE$' "$tmp/colon_back.txt" && grep -q '^L:/:' "$tmp/colon_back.txt" &&
        "$qg" show "$tmp/colon_back.txt" --edit-dir "$data/frogcomposband" >"$tmp/b" 2>/dev/null &&
        sed -i "1s/.*/name/" "$tmp/a" "$tmp/b" && cmp -s "$tmp/a" "$tmp/b"
    result $? "frogcomposband: ':' and '/' room letters to $ext and back, kept as letters"
done

# a Crawl map (no #qg: lines) to a dialect naming features by tag: the
# edit directory's dialect and its tags, read back without an error
printf 'NAME: crawl_room\nMAP\nxxxx\nx..x\nxxxx\nENDMAP\n' >"$tmp/crawl.des"
"$qg" convert "$tmp/crawl.des" --edit-dir "$data/frogcomposband" -o "$tmp/crawl.txt" 2>/dev/null &&
    grep -q '(frogcomposband)$' "$tmp/crawl.txt" && grep -q '^L:x:GRANITE$' "$tmp/crawl.txt" &&
    "$qg" show "$tmp/crawl.txt" --edit-dir "$data/frogcomposband" >/dev/null 2>&1
result $? "a Crawl map to F:/D: takes the edit directory's dialect and tags"

# a map wider than Crawl's 80 columns
mkdir "$tmp/wide"
wide="$tmp/wide/wide.txt"
{ printf 'Q:1:N:Wide\nF:#:61:8\nF:.:1:8\n'
  printf 'D:%090d\n' 0 | tr 0 '#'
  printf 'D:#%088d#\n' 0 | tr 0 .
  printf 'D:%090d\n' 0 | tr 0 '#'; } >"$wide"
"$qg" convert "$wide" --dialect zangband -o "$tmp/wide/wide.des" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -e "$tmp/wide/wide.des" ] && grep -q "larger than Crawl's 80 x 70" "$tmp/err"
result $? "a map over 80 columns is refused, saying why, without --oversize"
"$qg" convert "$wide" --dialect zangband --oversize -o "$tmp/wide/wide.des" 2>/dev/null &&
    "$qg" convert "$tmp/wide/wide.des" -o "$tmp/wide/back.txt" 2>/dev/null &&
    "$qg" show "$tmp/wide/back.txt" >"$tmp/b" 2>/dev/null && "$qg" show "$wide" >"$tmp/a" 2>/dev/null &&
    cmp -s "$tmp/a" "$tmp/b"
result $? "with --oversize it is written and read back the same"

# check against the variant's own vocabulary
printf 'F:a:9999:8\nF:b:1:8:99999\nD:ab\n' >"$tmp/bad.txt"
"$qg" check --edit-dir "$data/zangband235" "$tmp/bad.txt" >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q 'bad.txt:1:5: error: feature 9999 is not in f_info.txt' "$tmp/out" &&
    grep -q '^      \^$' "$tmp/out"
result $? "check: an F: feature index f_info.txt lacks, with its column and caret"
grep -q 'bad.txt:2:9: error: monster 99999 is not in r_info.txt' "$tmp/out"
result $? "check: a monster index r_info.txt lacks"
printf 'F:a:GRAS:8\nD:a\n' >"$tmp/tag.txt"
"$qg" check --edit-dir "$data/hengband3" "$tmp/tag.txt" >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q "unknown terrain tag 'GRAS' (not an N: tag of TerrainDefinitions.txt); did you mean GRASS?" "$tmp/out"
result $? "check: a tag with a did-you-mean from Hengband 3's TerrainDefinitions.txt"
printf 'L:a:FLOR(ROOM)\nM:a\n' >"$tmp/room.txt"
"$qg" check --edit-dir "$data/frogcomposband" "$tmp/room.txt" >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q "unknown feature 'FLOR' (not a tag of f_info.txt; the game stops reading the file here); did you mean FLOOR?" "$tmp/out"
result $? "check: a room letter's feature with a did-you-mean"
printf 'L:a:FLOOR\nM:a:a\n' >"$tmp/colon.txt"
"$qg" check --edit-dir "$data/frogcomposband" "$tmp/colon.txt" >"$tmp/out" 2>&1
[ $? -eq 0 ] && grep -q "colon.txt:2:4: warning: letter ':' is defined by no L: line of this file or its includes" "$tmp/out"
result $? "check: a letter no L: line defines, named by the record that would"
"$qg" show --edit-dir "$data/frogcomposband" "$tmp/colon.txt" >"$tmp/out" 2>&1
[ $? -eq 0 ] && grep -q "^  :  FLOOR (1), cave_info 8 (ROOM)$" "$tmp/out"
result $? "show: what the game makes of a letter no L: line defines (rooms.c: the room's floor)"

# an edit directory without a monster list: the indices go unchecked, said
mkdir "$tmp/terrain"
cp "$data/hengband3/TerrainDefinitions.txt" "$tmp/terrain/"
printf '%%:q.txt\n' >"$tmp/terrain/QuestDefinitionList.txt"
printf 'Q:$1:N:Two rats\nF:r:FLOOR:8:99999\nD:rr\n' >"$tmp/terrain/q.txt"
"$qg" check "$tmp/terrain/QuestDefinitionList.txt" >"$tmp/out" 2>&1
[ $? -eq 0 ] && grep -q 'q.txt:2:13: note: monster indices are not checked: MonraceDefinitions.jsonc or MonsterRaceDefinitions.txt is not in the edit directory' "$tmp/out" &&
    [ "$(grep -c 'not checked' "$tmp/out")" -eq 1 ]
result $? "check says which indices go unchecked for want of a vocabulary file"

# the kind of level: from the records, never the file name; --kind sets it
printf 'F:#:1:8\nF:.:1:8\nD:###\nD:#.#\nD:###\nP:1:1\n' >"$tmp/t0000009.txt"
"$qg" convert "$tmp/t0000009.txt" --dialect zangband -o "$tmp/k.des" 2>"$tmp/err" &&
    grep -q 'no record tells what kind of level this is' "$tmp/err" && ! grep -q ORIENT "$tmp/k.des" &&
    "$qg" convert "$tmp/t0000009.txt" --dialect zangband --kind town -o "$tmp/k.des" 2>"$tmp/err" &&
    ! grep -q 'kind of level' "$tmp/err" && grep -q '^ORIENT: encompass$' "$tmp/k.des"
result $? "convert: a level no record gives a kind is said so; --kind town gives it one"
"$qg" convert "$tmp/k.des" --kind room -o "$tmp/k.txt" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q -- '--kind sets the kind of an F:/D: file' "$tmp/err" && [ ! -e "$tmp/k.txt" ]
result $? "convert: --kind on a .des file is an error"

# a hub outside any variant's edit directory: its includes are looked for
# beside it, never in the bundled lib/edit (another game's files)
mkdir "$tmp/lone"
printf '?:[EQU $QUEST_NUMBER 3]\n%%:q0000003.txt\n' >"$tmp/lone/q_info.txt"
"$qg" show "$tmp/lone/q_info.txt" --quest 3 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "cannot find include 'q0000003.txt' (looked for $tmp/lone/q0000003.txt)" "$tmp/err"
result $? "includes of a hub in no edit directory are not taken from the bundled lib/edit"

# FrogComposband's town files (t_lite.txt's forms): its ?: variables and
# NEQ (init1.c process_dungeon_file_expr), B: buildings (shop.c
# _parse_town), a number among an L: feature's flags its special
# (_parse_room_grid_feature), a record parse_room_line does not read
# skipped, not the end of the file; PosChengband 7 lacks $SPEED,
# $DUNGEONn and NEQ
town="$data/frogcomposband/t_town.txt"
"$qg" check "$town" >"$tmp/out" 2>&1
[ $? -eq 0 ] && [ "$(grep -c 'warning\|error' "$tmp/out")" -eq 1 ] &&
    grep -q "t_town.txt:19:1: warning: unknown record 'P:': the game skips the line" "$tmp/out"
result $? "frogcomposband town: its variables, NEQ, B: lines and numbered flags are the game's"
"$qg" check --dialect poschengband7 "$town" >"$tmp/out" 2>&1
grep -q 'unknown variable $SPEED' "$tmp/out" && grep -q 'unknown variable $DUNGEON3' "$tmp/out" &&
    grep -q 'unknown function NEQ in the poschengband7' "$tmp/out" &&
    ! grep -q 'unknown variable $SUBCLASS' "$tmp/out"
result $? "poschengband7: \$SUBCLASS yes, \$SPEED, \$DUNGEONn and NEQ no"
"$qg" show "$town" --format json 2>/dev/null | tr -d ' \n' >"$tmp/json"
grep -q '"x":3,"y":1,"glyph":"q","feature":74,"feature_name":"QUEST_ENTER","cave_info":2,"vault_mask":0,"special":22' "$tmp/json" &&
    grep -q '"x":2,"y":2,"glyph":"r","feature":74,"feature_name":"QUEST_ENTER","cave_info":2,"vault_mask":0,"special":5' "$tmp/json"
result $? "frogcomposband town: QUEST_ENTER(GLOW | 22) and QUEST_ENTER(GLOW, 5) give specials 22 and 5"

# a Hengband 3 town file under towns/ takes the edit directory above it,
# whose dialect has $IRONMAN_DOWNWARD (fixed-map-parser.cpp)
"$qg" check "$data/hengband3/towns/01_Outpost.txt" >"$tmp/out" 2>&1
[ $? -eq 0 ] && ! grep -q 'warning\|error' "$tmp/out"
result $? "hengband3: a town under towns/ is read in the dialect of the edit directory above it"

# Hengband 3.0.2 keeps monsters and base items in .jsonc lists (comments,
# trailing commas: main/info-initializer.cpp init_json): show names them,
# check checks indices against them
shows hengband302 QuestDefinitionList.txt 1 &&
    grep -q 'monster: Giant rat (2)' "$tmp/show" && grep -q 'object: Ration of Food (1)' "$tmp/show"
result $? "hengband3.0.2: monster and item names from MonraceDefinitions.jsonc, BaseitemDefinitions.jsonc"
printf 'F:a:FLOOR:8:99\nD:a\n' >"$tmp/jsonc.txt"
"$qg" check --edit-dir "$data/hengband302" "$tmp/jsonc.txt" >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q 'jsonc.txt:1:13: error: monster 99 is not in MonraceDefinitions.jsonc (its entries go up to 2)' "$tmp/out"
result $? "hengband3.0.2: check says a monster index MonraceDefinitions.jsonc lacks"
