#!/bin/sh
# Golden test of the .des command line: dump-lua, list, check and show
# through questgrid, on the fixtures
# in tests/data/des (outputs compared byte for byte). Prints TAP.
srcdir=${QG_SRCDIR:-.}
builddir=${QG_BUILDDIR:-.}
qg="$builddir/questgrid"

data="$srcdir/tests/data/des"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_des.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
fails=0
echo "1..11"

# run NAME EXPECTED_STATUS EXPECTED_STDOUT EXPECTED_STDERR COMMAND...
run() {
    name=$1 want_status=$2 want_out=$3 want_err=$4
    shift 4
    n=$((n + 1))
    (cd "$data" && "$@") >"$tmp/out" 2>"$tmp/err"
    status=$?
    ok=1
    [ "$status" -eq "$want_status" ] || ok=0
    if [ -n "$want_out" ]; then cmp -s "$tmp/out" "$data/$want_out" || ok=0; fi
    if [ -n "$want_err" ]; then
        cmp -s "$tmp/err" "$data/$want_err" || ok=0
    else
        [ -s "$tmp/err" ] && ok=0
    fi
    if [ $ok -eq 1 ]; then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name (status $status)"
        fails=$((fails + 1))
        diff "$tmp/out" "$data/$want_out" 2>/dev/null | sed 's/^/# /' | head -20
        sed 's/^/# stderr: /' "$tmp/err" | head -20
    fi
}

run "dump-lua prints Crawl's -dump-maps format" 0 good.dump "" "$qg" dump-lua good.des
run "list shows name, orient, size, tags, depth" 0 good.list "" "$qg" list good.des
run "show prints the first map with its legend" 0 good.show "" "$qg" show good.des
run "show --map picks a map" 0 pool.show "" "$qg" show --map fixture_pool good.des
run "check reports every error with line, column and caret" 1 check.out check.err \
    "$qg" check good.des dup.des bad.des
run "check resolves each map and reports its placement problems" 1 unpadded.out unpadded.err \
    "$qg" check unpadded.des
run "check --legacy holds the map to the seed documents' 6 rows of padding" 0 \
    unpadded_legacy.out unpadded_legacy.err "$qg" check --legacy unpadded.des
run "check of a clean file: no error, a note that its Lua library was not given" 0 "" clean.err \
    "$qg" check good.des

n=$((n + 1))
(cd "$data" && "$qg" show --map no_such good.des) >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "no map named 'no_such'" "$tmp/err"; then
    echo "ok $n - show of a missing map fails"
else
    echo "not ok $n - show of a missing map fails"; fails=$((fails + 1))
fi

n=$((n + 1))
(cd "$data" && "$qg" dump-lua missing.des) >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "missing.des" "$tmp/err"; then
    echo "ok $n - dump-lua of a missing file fails with a diagnostic"
else
    echo "not ok $n - dump-lua of a missing file fails with a diagnostic"; fails=$((fails + 1))
fi

n=$((n + 1))
(cd "$data" && "$qg" dump-lua good.des dup.des) >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "already defined at good.des:36" "$tmp/err"; then
    echo "ok $n - map names must be unique across the files of a run"
else
    echo "not ok $n - map names must be unique across the files of a run"; fails=$((fails + 1))
fi

[ $fails -eq 0 ]
