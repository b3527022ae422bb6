#!/bin/sh
# render of the Angband-family games' own trees (issue 27): every hub and
# every lib/edit drawn whole, each quest a card; nothing fails but what is
# wrong in the game's data (FrogComposband 7.2's q_smug.txt and
# q_anambar_docks_1.txt, named in cli_edit_trees.sh). The trees are where
# $QG_VARIANTS points and the shared corpus ($QG_CORPUS or
# ../shared/corpus); each skips cleanly when absent. Prints TAP.
qg="${QG_BUILDDIR:-.}/questgrid"
src="${QG_SRCDIR:-.}"
variants=${QG_VARIANTS:-}
corpus=${QG_CORPUS:-$src/../shared/corpus}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_render_trees.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
echo "1..14"

result() {
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        fails=$((fails + 1))
        grep 'questgrid render\|: error:' "$tmp/err" | head -10 | sed 's/^/# /'
    fi
}

# render NAME PATH STATUS TALLY: render's exit status and its count line
render() {
    if [ ! -e "$2" ]; then
        n=$((n + 1))
        echo "ok $n # SKIP no such data here: $1 ($2)"
        return
    fi
    "$qg" render "$2" -o "$tmp/page.html" >"$tmp/out" 2>"$tmp/err"
    status=$?
    [ $status -eq "$3" ] && [ -s "$tmp/page.html" ] &&
        grep -q "^questgrid render: $4\$" "$tmp/err"
    result $? "$1: $4"
}

variant() { echo "${variants:-/nonexistent}/$1/lib/edit"; }

render "Zangband 2.3.5's q_info.txt" "$(variant zangband-2.3.5)/q_info.txt" 0 \
    "81 maps: 28 drawn, 53 without a level of their own (said what they are)"
render "Hengband 3.0.2.2's QuestDefinitionList.txt" \
    "$(variant hengband-3.0.2.2)/QuestDefinitionList.txt" 0 \
    "43 maps: 30 drawn, 13 without a level of their own (said what they are)"
render "PosChengband 3.4.5's q_info.txt" "$(variant poschengband-3.4.5)/q_info.txt" 0 \
    "79 maps: 27 drawn, 52 without a level of their own (said what they are)"
render "FrogComposband 7.2's q_info.txt (q_smug.txt real)" \
    "$(variant frogcomposband-7.2)/q_info.txt" 1 \
    "92 maps: 67 drawn, 24 without a level of their own (said what they are), 1 failed (each said why)"
# ToME 2.4 has no quest hub: its levels are the .map files and towns the
# code loads; t_d_lori.txt's 199-column row loses its last cell, as in
# the game
render "ToME 2.4's lib/edit" "$(variant tome-2.4)" 0 "42 maps: 42 drawn"
render "Zangband 2.3.5's lib/edit" "$(variant zangband-2.3.5)" 0 "28 maps: 28 drawn"
render "Hengband 3.0.2.2's lib/edit" "$(variant hengband-3.0.2.2)" 0 "38 maps: 38 drawn"
render "PosChengband 3.4.5's lib/edit" "$(variant poschengband-3.4.5)" 0 "36 maps: 36 drawn"
render "FrogComposband 7.2's lib/edit (q_smug.txt, q_anambar_docks_1.txt real)" \
    "$(variant frogcomposband-7.2)" 1 "81 maps: 79 drawn, 2 failed (each said why)"
# the corpus: Zangband 2.3.0's t0000005.txt and Hengband 2.2.1's
# t0000006.txt, whose rows lie only under quest 17's states, drawn
render "Zangband 2.3.0 (corpus)" "$corpus/angband/zangband-2.3.0/lib/edit" 0 "30 maps: 30 drawn"
render "Hengband 2.2.1 (corpus)" "$corpus/angband/hengband-2.2.1/lib/edit" 0 "37 maps: 37 drawn"
render "ToME 2.4 (corpus)" "$corpus/angband/tome-2.4/lib/edit" 0 "42 maps: 42 drawn"

town="$corpus/angband/zangband-2.3.0/lib/edit/t0000005.txt"
if [ -f "$town" ]; then
    "$qg" render "$town" -o "$tmp/town.svg" >"$tmp/out" 2>"$tmp/err"
    [ $? -eq 0 ] && grep -q 't0000005.txt: note: .*drawn with \$QUEST17 = 0' "$tmp/err"
    result $? "Zangband 2.3.0's t0000005.txt: drawn as a new game finds it, and said"
else
    n=$((n + 1)); echo "ok $n # SKIP no such data here: $town"
fi
lori="$(variant tome-2.4)/t_d_lori.txt"
[ -f "$lori" ] || lori="$corpus/angband/tome-2.4/lib/edit/t_d_lori.txt"
if [ -f "$lori" ]; then
    "$qg" check "$lori" >"$tmp/out" 2>"$tmp/err"
    [ $? -eq 0 ] && grep -q 't_d_lori.txt:31:201: warning: row of 199 columns: ToME 2 .* drops map column 198,' "$tmp/err"
    result $? "ToME 2.4's t_d_lori.txt: check says which column the game drops"
else
    n=$((n + 1)); echo "ok $n # SKIP no such data here: t_d_lori.txt"
fi
[ $fails -eq 0 ]
