#!/bin/sh
# questgrid render draws what the game draws (issue 27): each monster and
# object with its game's character and colour, a legend in SVG and PNG as
# in HTML, a PNG of --cell pixels a cell (16 by default), and no picture of
# a level larger than the games build.
qg="${QG_BUILDDIR:-.}/questgrid"
src="${QG_SRCDIR:-.}"
quest="$src/lib/edit/q_info.txt"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_render.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
echo "1..6"
result() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{print $3*65536+$4, $7*65536+$8}'; }

# quest 1's letter 'f' is a giant frog, which r_info draws 'R'; 'X' is
# inner bedrock, which f_info draws '#'
"$qg" render "$quest" --quest 1 -o "$tmp/q.html" 2>/dev/null &&
    grep -q '<td class="g" style="color:#00ff00">R</td><td>[^<]*giant frog' "$tmp/q.html" &&
    ! grep -q '>f</text>' "$tmp/q.html" && grep -q '>#</text>' "$tmp/q.html"
result $? "the game's characters: a monster as r_info draws it, a wall as f_info does"

"$qg" render "$quest" --quest 1 -o "$tmp/q.svg" 2>/dev/null &&
    grep -q 'class="legend"[^>]*>[^<]*giant frog' "$tmp/q.svg"
result $? "the SVG has a legend"

"$qg" render "$quest" --quest 1 -o "$tmp/q.png" 2>/dev/null
if [ ! -s "$tmp/q.png" ]; then
    n=$((n + 2))
    echo "ok $((n - 1)) # SKIP questgrid was built without libpng"
    echo "ok $n # SKIP questgrid was built without libpng"
else
    set -- $(png_size "$tmp/q.png")
    [ $(($1 % 16)) -eq 0 ] && [ $(($2 % 16)) -eq 0 ] && [ "$1" -ge $((32 * 16)) ]
    result $? "a PNG of 16 pixels a cell by default, legend below the map"
    "$qg" render "$quest" --quest 1 --cell 24 -o "$tmp/q24.png" 2>/dev/null
    set -- $(png_size "$tmp/q24.png")
    [ $(($1 % 24)) -eq 0 ] && [ $(($2 % 24)) -eq 0 ] && [ "$1" -ge $((32 * 24)) ]
    result $? "--cell 24: 24 pixels a cell"
fi

"$qg" render "$quest" --quest 1 --cell 3 -o "$tmp/q3.png" 2>/dev/null
[ $? -eq 2 ] && [ ! -e "$tmp/q3.png" ]
result $? "--cell outside 8 to 64 is a usage error"

# Angband 4's vault rows are read whole (the classic loaders stop at
# MAX_WID, which bounds theirs)
{ printf 'name:wide\nD:'; head -c 2000000 /dev/zero | tr '\0' '#'; printf '\n'; } >"$tmp/wide.txt"
"$qg" render --dialect angband4 "$tmp/wide.txt" -o "$tmp/wide.svg" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -e "$tmp/wide.svg" ] &&
    grep -q "is 2000000 x 1, larger than any level the games build (198 x 70): not drawn" "$tmp/err"
result $? "a level larger than the games build is refused, not drawn"
