#!/bin/sh
# --format json of show, check, stats and cache list: each document is
# valid against its schema in doc/schema (the schema doc/json.md
# describes) and says what the text output says.
qg="${QG_BUILDDIR:-.}/questgrid"
valid="${QG_BUILDDIR:-.}/tests/json_valid"
src="${QG_SRCDIR:-.}"
schema="$src/doc/schema"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/json_output.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
echo "1..10"
result() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; sed 's/^/# /' "$tmp/why" 2>/dev/null; fi
}
# valid SCHEMA COMMAND...: the command's output follows the schema
valid() {
    s=$1
    shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    "$valid" "$schema/$s.json" <"$tmp/out" >"$tmp/why"
}

valid level "$qg" show --format json "$src/lib/edit/q_info.txt" --quest 1
result $? "show of a quest follows doc/schema/level.json"
grep -q '"name": "The Smugglers' "$tmp/out" && grep -q '"monsters": \[' "$tmp/out" &&
    [ "$(grep -c '"x":' "$tmp/out")" -gt 300 ]
result $? "show gives the quest's cells and monsters"
valid level "$qg" show --format json "$src/lib/des/questgrid_vaults.des" --seed 3
result $? "show of a .des map follows doc/schema/level.json"
grep -q '"spec"\|"markers": \[\]' "$tmp/out" && grep -q '"format": "des"' "$tmp/out"
result $? "show of a .des map gives its markers"
printf 'NAME: nothing_here\nTAGS: dummy\n' >"$tmp/dummy.des"
valid level "$qg" show --format json "$tmp/dummy.des" --seed 1 &&
    grep -q '"what": "a dummy (TAGS: dummy)' "$tmp/out" && grep -q '"width": 0' "$tmp/out"
result $? "show of a dummy: the level document, empty, saying what the map is"
valid check "$qg" check --format json "$src/lib/edit/a_info.txt" "$src/lib/edit/q0000002.txt" \
    "$src/COPYING"
result $? "check follows doc/schema/check.json"
grep -q '"message": "not a level' "$tmp/out" && grep -q '"errors": 1$' "$tmp/out" &&
    [ ! -s "$tmp/err" ]
result $? "check gives every diagnostic in the document, none on stderr"
valid stats "$qg" stats --format json "$src/tests/data/random_test.des" -n 40
result $? "stats follows doc/schema/stats.json"
"$qg" compile -q "$src/lib/edit" "$src/lib/des" -o "$tmp/b.qgc" 2>"$tmp/why" &&
    valid cache-list "$qg" cache list --format json "$tmp/b.qgc"
result $? "cache list follows doc/schema/cache-list.json"
printf '{"schema": "questgrid-level/1", "width": "wide"}' | "$valid" "$schema/level.json" >"$tmp/why"
[ $? -eq 1 ] && grep -q 'missing member' "$tmp/why" && grep -q '.width: wrong type' "$tmp/why"
result $? "the checker itself finds what is wrong"
