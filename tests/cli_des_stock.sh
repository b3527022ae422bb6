#!/bin/sh
# The games' own maps get no false diagnostic (issue 25): every error is a
# defect the game shows too, and a warning fires only for what misbehaves
# in the game the maps are of, under one per twenty maps.
# - Debian crawl 0.28 (crawl-common, $QG_CRAWL_DAT or /usr/share/crawl/dat)
#   checked as crawl-0.28 with its own dlua: exactly the four misspelt items
#   of lair.des's due_jungle_book (each refused by crawl -builddb in a probe
#   map of its own: "Bad item name"), fewer than 265 warnings (5,283 maps);
# - current Crawl's maps ($QG_CORPUS or ../shared/corpus, crawl/des): no
#   error, fewer than 314 warnings (6,264 maps);
# - Crawl 0.4.5's and 0.5.2's maps with --legacy (the dat directories named
#   in $QG_CRAWL_SEED_DES, e.g. extracted with `git archive 0.4.5
#   crawl-ref/source/dat` from crawl/crawl): no error.
# Each part skips, saying why, when its data is not there. Prints TAP.
srcdir=${QG_SRCDIR:-.}
builddir=${QG_BUILDDIR:-.}
qg="$builddir/questgrid"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_des_stock.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
fails=0
echo "1..5"
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() {
    n=$((n + 1)); echo "not ok $n - $1"; fails=$((fails + 1))
    grep -E ': (error|warning):' "$tmp/err" | sed 's/^/# /' | head -20
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP: $2"; }
count() { grep -c ": $1:" "$tmp/err"; }

crawl=${QG_CRAWL_DAT:-/usr/share/crawl/dat}
if [ -d "$crawl/des" ] && [ -d "$crawl/dlua" ]; then
    find "$crawl/des" -name '*.des' | sort >"$tmp/files"
    maps=0
    xargs "$qg" check --max-errors 0 --game crawl-0.28 --lua-path "$crawl/dlua" <"$tmp/files" \
        >"$tmp/out" 2>"$tmp/err"
    maps=$(sed -n 's/^.*: \([0-9]*\) maps\{0,1\}, [0-9]* errors\{0,1\}\(, [0-9]* notes\{0,1\} hidden\)\{0,1\}$/\1/p' "$tmp/out" |
           awk '{ s += $1 } END { print s + 0 }')
    grep ': error:' "$tmp/err" | sed 's/: error: .*unknown item \(.*\) in crawl-0.28.*/ \1/' |
        sed "s|^$crawl/des/||" >"$tmp/errors"
    printf '%s\n' "branches/lair.des:2982:12 'quickblade'" \
        "branches/lair.des:2982:38 'quickblade'" \
        "branches/lair.des:2983:39 'sword of zonguldruk'" \
        "branches/lair.des:2986:39 'scetpre of torment'" >"$tmp/want"
    if cmp -s "$tmp/errors" "$tmp/want"; then
        ok "crawl 0.28: the errors are the four misspelt items of due_jungle_book"
    else
        diff "$tmp/errors" "$tmp/want" | sed 's/^/# /'
        notok "crawl 0.28: the errors are the four misspelt items of due_jungle_book"
    fi
    warnings=$(count warning)
    if [ "$maps" -ge 5000 ] && [ $((warnings * 20)) -lt "$maps" ]; then
        ok "crawl 0.28: $warnings warnings on $maps maps, under one in twenty"
    else notok "crawl 0.28: $warnings warnings on $maps maps, under one in twenty"; fi
else
    why="crawl-common is not installed ($crawl/des or $crawl/dlua is absent)"
    skip "crawl 0.28: the errors are the four misspelt items of due_jungle_book" "$why"
    skip "crawl 0.28: warnings under one in twenty maps" "$why"
fi

corpus=${QG_CORPUS:-$srcdir/../shared/corpus}
if [ -d "$corpus/crawl/des" ]; then
    find "$corpus/crawl/des" -name '*.des' | sort >"$tmp/files"
    xargs "$qg" check --max-errors 0 --game crawl-master <"$tmp/files" >"$tmp/out" 2>"$tmp/err"
    st=$?
    maps=$(sed -n 's/^.*: \([0-9]*\) maps\{0,1\}, [0-9]* errors\{0,1\}\(, [0-9]* notes\{0,1\} hidden\)\{0,1\}$/\1/p' "$tmp/out" |
           awk '{ s += $1 } END { print s + 0 }')
    errors=$(count error)
    warnings=$(count warning)
    if [ $st -eq 0 ] && [ "$errors" -eq 0 ] && [ "$maps" -ge 6000 ] &&
       [ $((warnings * 20)) -lt "$maps" ]; then
        ok "current Crawl: no error, $warnings warnings on $maps maps"
    else notok "current Crawl: no error, $warnings warnings on $maps maps ($errors errors)"; fi
else
    skip "current Crawl: no error, warnings under one in twenty maps" "no $corpus/crawl/des"
fi

if [ -n "$QG_CRAWL_SEED_DES" ]; then
    for dat in $QG_CRAWL_SEED_DES; do
        "$qg" check --legacy --max-errors 0 "$dat"/*.des >"$tmp/out" 2>"$tmp/err"
        st=$?
        if [ $st -eq 0 ] && [ "$(count error)" -eq 0 ] && [ -s "$tmp/out" ]; then
            ok "seed era, --legacy: no error in $dat"
        else notok "seed era, --legacy: no error in $dat"; fi
    done
else
    why="set QG_CRAWL_SEED_DES to the dat directories of Crawl 0.4.5 and 0.5.2"
    skip "seed era, --legacy: no error in Crawl 0.4.5's maps" "$why"
    skip "seed era, --legacy: no error in Crawl 0.5.2's maps" "$why"
fi
exit $((fails > 0))
