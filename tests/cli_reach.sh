#!/bin/sh
# A level file of a game's edit directory is read as the game reads it
# (TAP): through the load the game's code starts that includes it, whose
# letters its rows see first (the games never clear their letter table
# between files: init1.c's static letter[]), with the ?: values that take
# the load to the file; a file no load reaches is a note, keeps its errors
# and loses its warnings; Zangband 2.3.5's towns are never read at all
# (dungeon.c's process_dungeon_file("t_info.txt") is inside #if 0).
qg="${QG_BUILDDIR:-.}/questgrid"
data="${QG_SRCDIR:-.}/tests/data/fd/reach"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_reach.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
echo "1..10"
result() {
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; sed 's/^/# /' "$tmp/err"; fi
}
count() {
    grep -c -- "$1" "$tmp/err"
}

"$qg" check --max-errors 0 "$data/zangband/q0000002.txt" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(count 'warning:')" -eq 0 ]
result $? "a quest file's letters come from the hub's prefix file, with the ?: values on the way to it"

"$qg" show "$data/zangband/q0000002.txt" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q '^  #  granite wall (56)' "$tmp/out" && grep -q '^  X  permanent wall (61)' "$tmp/out"
result $? "show lays out those letters as the game does"

"$qg" check --max-errors 0 "$data/zangband/q0000001.txt" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(count 'warning:')" -eq 2 ] &&
    grep -q "q0000001.txt:6:6: warning: letter '#' .* of what q_info.txt reads before it" "$tmp/err" &&
    grep -q "q0000001.txt:7:4: warning: letter ' '" "$tmp/err"
result $? "letters only another quest's way defines are warned: a fresh game places feature 0"

"$qg" check --max-errors 0 "$data/zangband/q_orphan.txt" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ "$(count 'warning:')" -eq 0 ] &&
    grep -q "q_orphan.txt: note: no file Zangband 2.3.0's code loads (q_info.txt t_info.txt w_info.txt) includes or names this file: the game never reads it" "$tmp/err" &&
    grep -q "q_orphan.txt:3:9: error: monster 999 is not in r_info.txt" "$tmp/err"
result $? "a file no load reaches: a note, its errors, none of its warnings"

"$qg" check --max-errors 0 "$data/zangband" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ "$(count 'error:')" -eq 1 ] && [ "$(count 'warning:')" -eq 2 ] &&
    [ "$(count 'never reads it')" -eq 1 ]
result $? "the whole directory: each diagnostic once"

"$qg" check --max-errors 0 "$data/zangband235" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(count 'warning:\|error:')" -eq 0 ] &&
    grep -q 'note: skipped 3 files Zangband 2.3.5 never reads: t0000001.txt, t_info.txt, t_pref.txt (dungeon.c.s one process_dungeon_file("t_info.txt") is inside #if 0' "$tmp/err"
result $? "Zangband 2.3.5's town files: one note, the game never reads them"

"$qg" check --max-errors 0 "$data/zangband235/t_info.txt" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q 't_info.txt: note: skipped: Zangband 2.3.5 never reads this file' "$tmp/err"
result $? "a town file named: the same note, not an error"

"$qg" compile "$data/zangband235" -o "$tmp/z.qgc" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q ': 1 maps from 1 files' "$tmp/err" &&
    "$qg" cache list "$tmp/z.qgc" >"$tmp/out" 2>"$tmp/err" && grep -q 'q0000001' "$tmp/out" &&
    ! grep -q 't0000001\|t_info' "$tmp/out"
result $? "compile of Zangband 2.3.5's directory: its quest, not its towns"

"$qg" check --max-errors 0 "$data/tome" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(count 'warning:')" -eq 0 ] && ! grep -q 'vault_rows.txt: note' "$tmp/err" &&
    grep -q "lone.txt: note: no file ToME 2's code loads (t_info.txt w_info.txt \*.map) includes or names this file" "$tmp/err"
result $? "ToME: a file a .map includes sees its letters; a file nothing includes is never read"

# Following the includes to each file is charged to one budget: 60,000
# includes of a 100-line file pass it, and a note says what is not checked.
# Laying the level out passes its own budget too, which check, the
# strictest reader, reports as show would refuse it.
i=0
: >"$tmp/a.txt"
while [ $i -lt 100 ]; do echo 'F:.:1:8' >>"$tmp/a.txt"; i=$((i + 1)); done
echo 'D:...' >"$tmp/b.txt"
awk 'BEGIN { for (i = 0; i < 60000; i++) print "%:a.txt"; print "%:b.txt" }' >"$tmp/hub.txt"
"$qg" check --max-errors 0 "$tmp/hub.txt" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] &&
    grep -q 'a.txt: note: the letters of this file and of the 1 after it are not checked: following the includes to them passes more than 4194304 lines' "$tmp/err" &&
    grep -q 'error: the includes would be read over and over' "$tmp/err"
result $? "the walks to a load's files are budgeted, and a note says what they did not check"
