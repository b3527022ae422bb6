#!/bin/sh
# A wrong command line gets one message with a did-you-mean hint and one
# usage line (exit 2), never the whole help; option values are checked.
qg="${QG_BUILDDIR:-.}/questgrid"
src="${QG_SRCDIR:-.}"
vault="$src/lib/des/questgrid_mini.des"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_usage.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
echo "1..14"

# expect DESCRIPTION TEXT COMMAND...: exit 2, TEXT on the first line of
# stderr, and stderr no longer than a message and one usage line.
expect() {
    what=$1 text=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    status=$?
    n=$((n + 1))
    if [ $status -eq 2 ] && head -1 "$tmp/err" | grep -qF -- "$text" &&
        [ "$(wc -l <"$tmp/err")" -le 2 ] && [ ! -s "$tmp/out" ]; then
        echo "ok $n - $what"
    else
        echo "not ok $n - $what (exit $status)"
        sed 's/^/# /' "$tmp/err"
    fi
}

expect "a misspelt command" "unknown command 'sohw'; did you mean 'show'?" "$qg" sohw x
expect "a misspelt option" "unknown option '--sede'; did you mean '--seed'?" \
    "$qg" show --sede 3 "$vault"
expect "an option of another command" "--jobs is not an option of this command" \
    "$qg" show --jobs 2 "$vault"
expect "a missing option value" "--seed needs a value" "$qg" show "$vault" --seed
expect "--place banana is rejected" "bad value 'banana' for --place" \
    "$qg" show --place banana "$vault"
expect "--place past the branch's levels is rejected" "D has levels 1 to 15" \
    "$qg" stats --place D:16 "$vault"
expect "a misspelt --place branch" "did you mean 'Lair'?" "$qg" place --place Liar:2 "$vault"
expect "a misspelt dialect" "did you mean 'hengband'?" "$qg" show --dialect hengbnad "$vault"
expect "a misspelt --to" "did you mean 'tmx'?" "$qg" convert "$vault" -o "$tmp/x" --to tmz
expect "a misspelt --color" "did you mean 'always'?" "$qg" show --color=allways "$vault"
expect "a misspelt --format" "did you mean 'json'?" "$qg" stats --format jsno "$vault"
expect "a misspelt cache action" "did you mean 'list'?" "$qg" cache lsit "$tmp/x.qgc"
expect "no file" "no file given" "$qg" show

"$qg" show --help >"$tmp/out" 2>&1
n=$((n + 1))
if [ $? -eq 0 ] && [ "$(wc -l <"$tmp/out")" -gt 5 ]; then
    echo "ok $n - --help still prints the whole help"
else
    echo "not ok $n - --help still prints the whole help"
fi
