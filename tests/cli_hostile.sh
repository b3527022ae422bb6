#!/bin/sh
# The CLI on hostile input and failing output (TAP): every case ends in a
# diagnostic and a non-zero exit status, quickly.
bin=${QG_BUILDDIR:-.}/questgrid
data=${QG_SRCDIR:-.}/tests/data/fd
dir=$(mktemp -d "${TMPDIR:-/tmp}/cli_hostile.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
n=0
echo "1..17"

ok() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# expect STATUS TEXT COMMAND...: exit status and a line of stderr
expect() {
    want=$1 text=$2
    shift 2
    "$@" >"$dir/out" 2>"$dir/err"
    got=$?
    if [ "$got" = "$want" ] && grep -qF -- "$text" "$dir/err"; then
        ok 0 "$text (exit $want)"
    else
        sed 's/^/# /' "$dir/err" | head -5
        echo "# exit $got, wanted $want"
        ok 1 "$text (exit $want)"
    fi
}

if [ -w /dev/full ]; then
    "$bin" show --edit-dir "$data" "$data/good.txt" >/dev/full 2>"$dir/err"
    [ $? = 1 ] && grep -q "cannot write the output" "$dir/err"
    ok $? "show to a full device is an error"
    "$bin" version >/dev/full 2>"$dir/err"
    [ $? = 1 ] && grep -q "cannot write the output" "$dir/err"
    ok $? "version to a full device is an error"
else
    n=$((n + 2)); echo "ok $((n - 1)) # SKIP no /dev/full"; echo "ok $n # SKIP no /dev/full"
fi

mkfifo "$dir/fifo"
printf '%%:fifo\nF:.:1:8\nD:.\n' >"$dir/top.txt"
expect 1 "cannot read include '$dir/fifo': cannot read: not a regular file" \
    "$bin" check --edit-dir "$dir" "$dir/top.txt"
expect 1 "$dir/fifo: error: cannot read: not a regular file" "$bin" show "$dir/fifo"

: >"$dir/huge.txt"
truncate -s 65M "$dir/huge.txt"
expect 1 "file is larger than the 67108864 byte limit" "$bin" check --edit-dir "$dir" "$dir/huge.txt"

# a classic row is laid up to MAX_WID, as the games lay it (exit 1: the
# directory has no vocabulary); Angband 4's vault rows are read whole, and
# the cell limit refuses the level
printf 'F:.:1:8\nD:' >"$dir/wide.txt"
head -c 17000000 /dev/zero | tr '\0' '.' >>"$dir/wide.txt"
expect 1 "drops map columns 198-16999999" "$bin" show --edit-dir "$dir" "$dir/wide.txt"
printf 'name:wide\nD:' >"$dir/wide4.txt"
head -c 17000000 /dev/zero | tr '\0' '.' >>"$dir/wide4.txt"
expect 1 "more than the limit of 16777216" "$bin" show --dialect angband4 "$dir/wide4.txt"

# A map whose file-level Lua guards _G (issue 14's reproducer): the
# runtime's set-up of the map meets the guard; a diagnostic for the map,
# exit 1, no abort and no cache.
mkdir "$dir/r"
printf '{{ setmetatable(_G,{__newindex=function() error("x") end}) }}\nNAME: v\nMAP\nx.x\nENDMAP\n' \
    >"$dir/r/v.des"
expect 1 "v.des:1: x" "$bin" compile "$dir/r" -o "$dir/r.qgc"
[ ! -e "$dir/r.qgc" ]
ok $? "no cache written for the failed map"

# %: includes leave neither the edit directory nor the file's own
# directory: each escape is an error on the including line (file:line:col
# and a caret), no line of the file outside is shown; the option lets it.
mkdir -p "$dir/edit/sub" "$dir/away"
printf 'root:x:0:0 outside\n' >"$dir/away/secret.txt"
ln -s ../away/secret.txt "$dir/edit/link.txt"
printf 'F:#:1:8\n' >"$dir/edit/sub/walls.txt"
printf '%%:../away/secret.txt\n%%:/etc/passwd\n%%:/proc/self/environ\n%%:link.txt\n%%:sub/walls.txt\nF:.:1:8\nD:.#\n' \
    >"$dir/edit/top.txt"
"$bin" check --edit-dir "$dir/edit" "$dir/edit/top.txt" >"$dir/log" 2>&1
status=$?
[ $status = 1 ] &&
    [ "$(grep -c "error: include '.*' is outside the data root: it names /" "$dir/log")" = 4 ] &&
    grep -q "^$dir/edit/top.txt:4:3: error: include 'link.txt' is outside the data root: it names .*/away/secret.txt" "$dir/log" &&
    grep -qx '    \^' "$dir/log" && ! grep -q 'root:x:' "$dir/log"
ok $? "check refuses includes outside the data root and shows none of their lines"
"$bin" check --allow-include-outside --edit-dir "$dir/edit" "$dir/edit/top.txt" >"$dir/log" 2>&1
! grep -q 'outside the data root' "$dir/log" && grep -q 'secret.txt:1:.*error' "$dir/log"
ok $? "--allow-include-outside reads them"

# -o names a path: a symbolic link there is replaced, never followed to
# the file it names; --follow-symlinks is the old way. A new output gets
# the mode the umask gives, a replaced one keeps its own. compile -o
# link.qgc -> ../victim/victim.conf replaced the victim at 0644.
mkdir -p "$dir/victim" "$dir/outputs"
printf 'secret\n' >"$dir/victim/victim.conf"
chmod 600 "$dir/victim/victim.conf"
good=${QG_SRCDIR:-.}/lib/des
for cmd in "compile $good -q" "convert $data/good.txt --edit-dir $data" "render $data/good.txt --edit-dir $data"; do
    ext=qgc; case $cmd in convert*) ext=des;; render*) ext=svg;; esac
    ln -sf ../victim/victim.conf "$dir/outputs/link.$ext"
    (umask 077; $bin $cmd -o "$dir/outputs/link.$ext" >/dev/null 2>&1)
    [ -f "$dir/outputs/link.$ext" ] && [ ! -L "$dir/outputs/link.$ext" ] &&
        [ "$(cat "$dir/victim/victim.conf")" = secret ] &&
        [ "$(stat -c %a "$dir/outputs/link.$ext")" = 600 ] && [ "$(stat -c %a "$dir/victim/victim.conf")" = 600 ]
    ok $? "${cmd%% *} -o a link replaces the link, not its file; the umask gives the mode"
done
chmod 640 "$dir/outputs/link.qgc"
"$bin" compile "$good" -q -o "$dir/outputs/link.qgc" && [ "$(stat -c %a "$dir/outputs/link.qgc")" = 640 ]
ok $? "compile keeps the mode of the cache it replaces"
ln -sf ../victim/victim.conf "$dir/outputs/follow.des"
"$bin" convert "$data/good.txt" --edit-dir "$data" --follow-symlinks -o "$dir/outputs/follow.des" >/dev/null 2>&1
[ -L "$dir/outputs/follow.des" ] && grep -q '^NAME:' "$dir/victim/victim.conf" &&
    [ "$(stat -c %a "$dir/victim/victim.conf")" = 600 ]
ok $? "--follow-symlinks replaces the file the link names, keeping its mode"
# a temporary file a killed compile left behind goes at the next compile
printf 'half a cache' >"$dir/outputs/new.qgc.tmpK1ll3d"
"$bin" compile "$good" -q -o "$dir/outputs/new.qgc" && [ ! -e "$dir/outputs/new.qgc.tmpK1ll3d" ] &&
    [ "$(ls "$dir/outputs" | grep -c tmp)" = 0 ]
ok $? "the next compile removes the temporary file of a killed one"
