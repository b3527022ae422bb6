#!/bin/sh
# One rule for every command over many maps (core/outcome.h): show
# resolves a .des map where it belongs as render and check do (a subvault
# inside the map that uses it, a map at its own DEPTH), says what a map
# with no level of its own is instead of failing, and a map that fails
# gives the same one-line reason in show, check, render's card and
# compile --keep-going's skipped entry. Fixtures are written here. TAP.
qg=${QG_BUILDDIR:-.}/questgrid
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_show_rule.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
echo "1..8"

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

[ $fails -eq 0 ]
