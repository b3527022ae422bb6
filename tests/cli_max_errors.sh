#!/bin/sh
# The diagnostic cap (TAP): a file of a million bad lines gives --max-errors
# errors and one "too many errors" line, the count runs across the files of
# a run, 0 lifts the cap, and -q leaves the errors only.
bin=${QG_BUILDDIR:-.}/questgrid
data=${QG_SRCDIR:-.}/tests/data/fd
dir=$(mktemp -d "${TMPDIR:-/tmp}/cli_max_errors.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
n=0
echo "1..24"

ok() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# bad LINES FILE: LINES Q: lines, each an error (too few fields)
bad() {
    awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "Q:%d\n", i }' >"$2"
}

lines() { wc -l <"$1" | tr -d ' '; }
errors() { grep -c ': error: ' "$1"; }
stopped() { grep -c '^questgrid: too many errors (--max-errors [0-9]*), stopping$' "$1"; }

bad 1000000 "$dir/million.txt"
"$bin" check --edit-dir "$data" "$dir/million.txt" >"$dir/out" 2>"$dir/err"
status=$?
# each error: its line, the source line and the caret
[ "$status" = 1 ] && [ "$(errors "$dir/err")" = 50 ] && [ "$(stopped "$dir/err")" = 1 ] &&
    [ "$(lines "$dir/err")" = 151 ]
ok $? "1,000,000 bad lines: 50 errors, then one line (exit $status, $(lines "$dir/err") lines)"
[ "$(tail -n 1 "$dir/err" | cut -c1-26)" = "questgrid: too many errors" ]
ok $? "the 'too many errors' line comes last"

"$bin" check --max-errors 7 --edit-dir "$data" "$dir/million.txt" >"$dir/out" 2>"$dir/err"
[ $? = 1 ] && [ "$(errors "$dir/err")" = 7 ] && [ "$(stopped "$dir/err")" = 1 ]
ok $? "--max-errors 7 shows 7"

bad 200 "$dir/two_hundred.txt"
"$bin" check --max-errors 0 --edit-dir "$data" "$dir/two_hundred.txt" >"$dir/out" 2>"$dir/err"
[ $? = 1 ] && [ "$(errors "$dir/err")" = 200 ] && [ "$(stopped "$dir/err")" = 0 ]
ok $? "--max-errors 0 shows every error"

bad 30 "$dir/thirty.txt"
"$bin" check --max-errors 50 --edit-dir "$data" "$dir/thirty.txt" >"$dir/out" 2>"$dir/err"
[ $? = 1 ] && [ "$(errors "$dir/err")" = 30 ] && [ "$(stopped "$dir/err")" = 0 ]
ok $? "fewer errors than the cap: all of them, no 'too many' line"

# The cap is the run's: 30 + 30 errors over two files, 50 shown; a third
# file is not read once the run stopped.
cp "$dir/thirty.txt" "$dir/thirty2.txt"
printf 'Q:1\n' >"$dir/third.txt"
"$bin" check --edit-dir "$data" "$dir/thirty.txt" "$dir/thirty2.txt" "$dir/third.txt" \
    >"$dir/out" 2>"$dir/err"
[ $? = 1 ] && [ "$(errors "$dir/err")" = 50 ] && [ "$(stopped "$dir/err")" = 1 ] &&
    ! grep -q third.txt "$dir/err"
ok $? "the cap counts across the files of a run and stops it"

"$bin" check -q --edit-dir "$data" "$data/bad.txt" >"$dir/out" 2>"$dir/err"
[ $? = 1 ] && [ "$(errors "$dir/err")" -ge 1 ] && ! grep -q ': warning: ' "$dir/err" &&
    ! grep -q ': note: ' "$dir/err"
ok $? "-q: errors only"
"$bin" check --edit-dir "$data" "$data/bad.txt" >"$dir/out" 2>"$dir/err"
grep -q ': warning: ' "$dir/err"
ok $? "without -q the warnings are shown"

"$bin" check --max-errors -1 "$dir/thirty.txt" >"$dir/out" 2>"$dir/err"
[ $? = 2 ] && grep -q "bad value '-1' for --max-errors" "$dir/err"
ok $? "a negative --max-errors is a usage error"

# peak KB COMMAND...: the command's peak resident memory
peak() {
    /usr/bin/time -f %M -o "$dir/peak" "$@" >"$dir/out" 2>"$dir/err"
    tail -n 1 "$dir/peak"
}

# Every command takes --max-errors. list and dump-lua kept every
# diagnostic with a copy of its line: a 240 KB NSUBST line of 40,000 bad
# entries took 9.45 GB.
awk 'BEGIN { printf "NAME: x\nNSUBST: . = 1:x / "; for (i = 0; i < 40000; i++) printf "1:, / "; printf "\nMAP\nx\nENDMAP\n" }' \
    >"$dir/nsubst.des"
for cmd in list dump-lua check; do
    kb=$(peak "$bin" $cmd "$dir/nsubst.des")
    [ "$(errors "$dir/err")" = 50 ] && [ "$(stopped "$dir/err")" = 1 ] && [ "$kb" -lt 200000 ]
    ok $? "$cmd of 40,000 bad NSUBST entries: 50 errors, ${kb} KB (9.45 GB before)"
done
for cmd in "list" "dump-lua" "cache info" "demo" "place --seed 1" "render -o $dir/x.html" "stats -n 1" "show"; do
    "$bin" $cmd --max-errors 3 --help >/dev/null 2>&1
    ok $? "${cmd%% *} takes --max-errors"
done

# Warnings and notes are capped too: twenty times --max-errors, then one
# line says how many more there were.
awk 'BEGIN { printf "F:.:1:8\n"; for (i = 0; i < 5000; i++) printf "?:[AND 1\n"; printf "D:.\n" }' \
    >"$dir/warn.txt"
"$bin" check --max-errors 10 "$dir/warn.txt" >"$dir/out" 2>"$dir/err"
[ "$(grep -c ': warning: ' "$dir/err")" = 200 ] &&
    grep -q '^questgrid: 4800 more warnings and notes not shown (--max-errors 10)$' "$dir/err"
ok $? "warnings: 200 of 5,000 shown at --max-errors 10, and the count of the rest"
"$bin" check --max-errors 0 "$dir/warn.txt" >"$dir/out" 2>"$dir/err"
[ "$(grep -c ': warning: ' "$dir/err")" = 5000 ]
ok $? "--max-errors 0 shows every warning"

# Many small maps: list held every map of a file, 69 times its size (a
# 60 MB file of 2.44 M maps: 4.17 GB); it holds one map at a time now.
# (AddressSanitizer holds freed memory back: the bound is not checked.)
bound=170000
grep -q -- '-fsanitize=address' "${QG_BUILDDIR:-.}/Makefile" && bound=100000000
awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "NAME:m%d\nMAP\nx\nENDMAP\n", i }' >"$dir/small.des"
for cmd in list dump-lua; do
    kb=$(peak "$bin" $cmd "$dir/small.des")
    [ "$(wc -l <"$dir/out")" -ge 1000000 ] && [ "$kb" -lt "$bound" ]
    ok $? "$cmd of 1,000,000 small maps (25 MB): ${kb} KB (1.7 GB before)"
done
