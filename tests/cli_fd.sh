#!/bin/sh
# CLI golden tests of check and show on small F:/D: fixtures (TAP).
bin=${QG_BUILDDIR:-.}/questgrid
data=${QG_SRCDIR:-.}/tests/data/fd
out=${TMPDIR:-/tmp}/cli_fd.$$
n=0
fail=0
echo "1..12"

ok() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}

# expect NAME STATUS COMMAND...: exit status and output against NAME.out
expect() {
    name=$1 want=$2
    shift 2
    "$@" >"$out" 2>&1
    got=$?
    sed "s|$data/||g" "$out" >"$out.x"
    if [ "$got" = "$want" ] && diff -u "$data/$name.out" "$out.x" >&2; then
        ok 0 "$name (exit $want)"
    else
        echo "# exit $got, wanted $want" >&2
        ok 1 "$name (exit $want)"
    fi
}

expect check-good 0 "$bin" check --edit-dir "$data" "$data/good.txt"
expect check-bad 1 "$bin" check --edit-dir "$data" "$data/bad.txt"
expect check-cycle 1 "$bin" check --edit-dir "$data" "$data/cycle_a.txt"
expect show-good 0 "$bin" show --edit-dir "$data" "$data/good.txt"
expect show-quest 0 "$bin" show --edit-dir "$data" --quest 2 "$data/hub.txt"
expect show-var 0 "$bin" show --edit-dir "$data" --var LEVEL=10 "$data/good.txt"
expect show-missing-quest 1 "$bin" show --edit-dir "$data" --quest 9 "$data/hub.txt"
expect show-undefined 0 "$bin" show --edit-dir "$data" "$data/undefined.txt"
"$bin" check --help >"$out" 2>&1
ok $? "check --help"
"$bin" show --dialect klingon "$data/good.txt" >"$out" 2>&1
[ $? = 2 ]
ok $? "show --dialect klingon is a usage error"
# One run over many files reads each vocabulary once, yet every file's
# report still says what reading it found; the same file checked alone
# and third in a run reports the same.
"$bin" check --edit-dir "$data" "$data/bad.txt" >"$out" 2>&1
"$bin" check --edit-dir "$data" "$data/good.txt" "$data/hub.txt" "$data/bad.txt" 2>&1 |
    tail -n "$(wc -l <"$out")" | diff - "$out" >&2
ok $? "check of several files reports each as checked alone"
mkdir -p "$out.d"
printf 'F:.:1:8\nD:.\n' >"$out.d/a.txt"
cp "$out.d/a.txt" "$out.d/b.txt"
[ "$("$bin" check --edit-dir "$out.d" "$out.d/a.txt" "$out.d/b.txt" 2>&1 |
    grep -c "none of f_info.txt, r_info.txt, k_info.txt, a_info.txt is here")" = 2 ]
ok $? "an edit directory without a vocabulary is reported for each file"
rm -rf "$out" "$out.x" "$out.d"
exit 0
