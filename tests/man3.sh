#!/bin/sh
# A section-3 manual page for every public header, naming every function
# the header declares (so a new call cannot ship undocumented), and the
# questgrid(3) overview.
src="${QG_SRCDIR:-.}"
headers=$(ls "$src"/src/questgrid/*.h)
echo "1..$(( $(echo "$headers" | wc -l) + 1 ))"
n=1
if [ -s "$src/doc/man3/questgrid.3" ] && grep -q 'questgrid.h' "$src/doc/man3/questgrid.3"; then
    echo "ok 1 - questgrid(3) describes <questgrid.h>"
else
    echo "not ok 1 - questgrid(3) describes <questgrid.h>"
fi
for h in $headers; do
    n=$((n + 1))
    name=$(basename "$h" .h)
    page="$src/doc/man3/questgrid_$name.3"
    # every qg_ call the header declares (comments and macros aside)
    calls=$(sed -e 's|/\*.*\*/||g' -e '/^ *\*/d' -e '/^#/d' "$h" |
            grep -o 'qg_[a-z0-9_]*(' | tr -d '(' | sort -u)
    missing=
    for c in $calls; do
        grep -q "\\<$c\\>" "$page" 2>/dev/null || missing="$missing $c"
    done
    if [ -f "$page" ] && [ -z "$missing" ]; then
        echo "ok $n - questgrid_$name(3) names every call of <questgrid/$name.h>"
    else
        echo "not ok $n - questgrid_$name(3) names every call of <questgrid/$name.h>"
        echo "# missing:${missing:- the page}"
    fi
done
