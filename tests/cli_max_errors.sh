#!/bin/sh
# The diagnostic cap (TAP): a file of a million bad lines gives --max-errors
# errors and one "too many errors" line, the count runs across the files of
# a run, 0 lifts the cap, and -q leaves the errors only.
bin=${QG_BUILDDIR:-.}/questgrid
data=${QG_SRCDIR:-.}/tests/data/fd
dir=$(mktemp -d "${TMPDIR:-/tmp}/cli_max_errors.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
n=0
echo "1..9"

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
