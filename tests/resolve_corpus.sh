#!/bin/sh
# tools/resolve_corpus on a corpus of the tests' own (tests/data/
# resolve_corpus with the minimal dlua): the figures, the places a DEPTH
# names less those it excludes, the maps that fail grouped by reason with
# their file:line, -m, -g, -q, -v, -p, -i and the exit status.
srcdir=${QG_SRCDIR:-.}
builddir=${QG_BUILDDIR:-.}
rc="$builddir/tools/resolve_corpus"
tmp=$(mktemp -d /tmp/qgrc.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
echo "1..13"
n=0
check() {
  n=$((n + 1))
  if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}

mkdir "$tmp/dat"
ln -s "$srcdir/tests/data/dlua/minimal/dlua" "$tmp/dat/dlua"
ln -s "$srcdir/tests/data/resolve_corpus" "$tmp/dat/des"
des="$tmp/dat/des"

"$rc" "$tmp/dat" >"$tmp/out" 2>"$tmp/err"
check "exit 1 when a map fails" "[ $? -eq 1 ]"
check "the figures" \
  "grep -q '^files: 2 (0 with load errors), maps: 6\$' '$tmp/out' &&
   grep -q '^compile-time run: 5/6\$' '$tmp/out' &&
   grep -q '^maps resolving at one of their own places at least: 2/5 ' '$tmp/out'"
check "a map that does not compile, with its reason and file:line" \
  "grep -A1 '^      1  broken at load\$' '$tmp/out' | grep -q '^           $des/sub/load.des:3 broken_at_load\$'"
check "two vetoed maps grouped under one reason" \
  "grep -A2 '^      2  map MAP was vetoed by its veto chunk\$' '$tmp/out' >'$tmp/veto' &&
   grep -q '^           $des/reasons.des:16 refused_one\$' '$tmp/veto' &&
   grep -q '^           $des/reasons.des:22 refused_two\$' '$tmp/veto'"
check "a dummy says so" \
  "grep -q '^      1  map MAP has no grid to resolve: it is a dummy' '$tmp/out'"
check "maps that resolve are not listed" \
  "! grep -q 'anywhere_vault\\|deep_vault' '$tmp/out'"

for game in crawl-0.28 crawl-master; do
  "$rc" -g $game -m deep_vault "$tmp/dat" >"$tmp/deep" 2>&1
  check "-m, -g $game: the levels DEPTH names less those it excludes (D:13, D:14, not D:15)" \
    "grep -q '^at their own places (3 seeds each; 0 maps .*): 6/6 tries resolve' '$tmp/deep'"
done

"$rc" -m anywhere "$tmp/dat" >/dev/null 2>&1
check "-m: the run still fails while a map of the corpus does not compile" "[ $? -eq 1 ]"

"$rc" -q "$tmp/dat" >"$tmp/quiet" 2>&1
check "-q leaves out the per-map lists" \
  "grep -q 'map MAP was vetoed' '$tmp/quiet' && ! grep -q 'refused_one' '$tmp/quiet'"

"$rc" -v -m refused_two "$tmp/dat" >"$tmp/verbose" 2>&1
check "-v gives each map's whole message at its veto chunk" \
  "grep -q '^$des/reasons.des:24: map refused_two was vetoed by its veto chunk\$' '$tmp/verbose'"

"$rc" -p -s 1 -m anywhere "$tmp/dat" >"$tmp/levels" 2>&1
check "-p prints the levels" \
  "grep -q '^anywhere_vault at D:5, seed 1:\$' '$tmp/levels' && grep -q 'x\\.x' '$tmp/levels'"

"$rc" -q -i 100 "$tmp/dat" >/dev/null 2>"$tmp/budget"
# the chunk's 100, or the operation's 4 x 100 that the library's files
# before it spent together
check "-i sets the chunk budget (100 instructions: the library cannot load)" \
  "[ $? -eq 1 ] && grep -q 'loadmaps.lua:2: instruction budget.* exceeded ([14]00 instructions)' '$tmp/budget'"
