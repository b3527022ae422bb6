#!/bin/sh
# The .des meanings and checks through questgrid (issue 15): "Must define
# map.", a validate chunk that never succeeds, LFLAGS/BFLAGS in show and
# stats, the seed-era legend. Prints TAP.
srcdir=${QG_SRCDIR:-.}
builddir=${QG_BUILDDIR:-.}
qg="$builddir/questgrid"
data="$srcdir/tests/data/des/semantics"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_des_sem.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
fails=0
echo "1..8"

# expect NAME STATUS FILE(out|err) TEXT COMMAND...: the status, and TEXT in
# the command's stdout or stderr.
expect() {
    name=$1 want_status=$2 stream=$3 text=$4
    shift 4
    n=$((n + 1))
    "$@" >"$tmp/out" 2>"$tmp/err"
    status=$?
    if [ "$status" -eq "$want_status" ] && grep -qF -- "$text" "$tmp/$stream"; then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name (status $status)"
        fails=$((fails + 1))
        sed 's/^/# /' "$tmp/out" "$tmp/err" | head -20
    fi
}

expect "check --legacy: a map without MAP is 'Must define map.' (0.4.5/0.5.2 levcomp.ypp)" 1 err \
    "nomap.des:4: error: map 'fixture_nomap': Must define map." "$qg" check -q --legacy "$data/nomap.des"
expect "check --verbose: Crawl 0.28 loads a map without MAP (crawl -builddb accepts it)" 0 err \
    "Crawl 0.28 loads it as a map with no grid" "$qg" check --verbose "$data/nomap.des"
expect "check: that note is counted, not printed, without --verbose" 0 out \
    "1 note hidden (--verbose prints them): 1 map with no MAP" "$qg" check "$data/nomap.des"
expect "check: a validate chunk that never succeeds is an error" 1 err \
    "its validate chunk never succeeds" "$qg" check -q "$data/validate_never.des"
expect "show: LFLAGS are shown" 0 out "lflags: no_tele_control" "$qg" show --legacy "$data/flags.des"
expect "show: BFLAGS are shown" 0 out "bflags: islanded" "$qg" show --legacy "$data/flags.des"
expect "stats: LFLAGS and BFLAGS are shown" 0 out "bflags: islanded" \
    "$qg" stats --legacy -n 2 "$data/flags.des"
expect "show --legacy: the legend gives the seed meaning of O" 0 out \
    "'O'  the branch entrance of a *_entry vault, else an appropriate rune" \
    "$qg" show --legacy "$data/seed_glyphs.des"

[ $fails -eq 0 ]
