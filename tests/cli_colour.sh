#!/bin/sh
# show and place colour a terminal in the game's colours, never a pipe;
# --color=always and never decide; NO_COLOR and TERM=dumb turn auto off.
qg="${QG_BUILDDIR:-.}/questgrid"
src="${QG_SRCDIR:-.}"
quest="$src/lib/edit/q_info.txt"
esc=$(printf '\033')
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_colour.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
echo "1..8"
result() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
coloured() { grep -q "$esc\[" "$1"; }

"$qg" show "$quest" --quest 1 >"$tmp/pipe"
! coloured "$tmp/pipe"
result $? "a pipe is not coloured"
"$qg" show "$quest" --quest 1 --color=always >"$tmp/always"
coloured "$tmp/always" && grep -q "$esc\[97mXXXX" "$tmp/always"
result $? "--color=always colours, permanent walls in f_info's white"
NO_COLOR=1 "$qg" show "$quest" --quest 1 --color=always >"$tmp/explicit"
coloured "$tmp/explicit"
result $? "--color=always wins over NO_COLOR"
"$qg" place --seed 7 --color=always "$src/lib/des/questgrid_mini.des:questgrid_reading_room" \
    >"$tmp/place"
coloured "$tmp/place"
result $? "place --color=always colours the dungeon"
sed "s/$esc\[[0-9;]*m//g" "$tmp/always" | cmp -s - "$tmp/pipe"
result $? "the colours change nothing else"

# auto on a terminal: script(1) gives the program one
if command -v script >/dev/null 2>&1; then
    TERM=xterm script -qec "'$qg' show '$quest' --quest 1" /dev/null >"$tmp/tty" 2>&1
    coloured "$tmp/tty"
    result $? "auto colours a terminal"
    NO_COLOR=1 TERM=xterm script -qec "'$qg' show '$quest' --quest 1" /dev/null >"$tmp/tty" 2>&1
    ! coloured "$tmp/tty"
    result $? "NO_COLOR turns auto off"
    TERM=dumb script -qec "'$qg' show '$quest' --quest 1" /dev/null >"$tmp/tty" 2>&1
    ! coloured "$tmp/tty"
    result $? "TERM=dumb turns auto off"
else
    for what in "auto colours a terminal" "NO_COLOR turns auto off" "TERM=dumb turns auto off"; do
        n=$((n + 1)); echo "ok $n # SKIP script(1) is not installed to give a terminal: $what"
    done
fi
