#!/bin/sh
# Every quest with a map of the Angband-family variants, converted with
# --game crawl-0.28, is accepted by Crawl 0.28's own `crawl -builddb`; with
# --game crawl-master, by questgrid check against master's names (issue 27).
#
# The variants' lib/edit trees are found under $QG_VARIANTS (README), one
# directory a variant holding its lib/edit:
#   $QG_VARIANTS/zangband-2.3.5      museoa/zangband @da902550, zangband/lib/edit
#   $QG_VARIANTS/hengband-3.0.2.2    hengband/hengband @004f147f
#   $QG_VARIANTS/poschengband-3.4.5  NickMcConnell/poschengband @cdace5ed
#   $QG_VARIANTS/frogcomposband-7.2  HermiG/frogcomposband @31c63f5d
# (for instance: git --git-dir=MIRROR archive COMMIT lib/edit | tar -x -C DIR).
# Crawl runs each file as its loader does: a scratch dat directory of the
# installed game's files whose dlua/loadmaps.lua loads des/00init.des and
# the converted files (each map's name made unique: quests of several
# variants share names; its sanity checks, which ask for the stock maps,
# left empty), bind-mounted over /usr/share/crawl/dat in a private mount
# namespace (unshare -m, so root). Skipped, saying why, without the trees,
# without crawl, or without unshare.
qg="${QG_BUILDDIR:-.}/questgrid"
trees=${QG_VARIANTS:-}
crawl=${QG_CRAWL_BIN:-/usr/games/crawl}
dat=/usr/share/crawl/dat
echo "1..3"
skip() {
    for i in 1 2 3; do echo "ok $i # SKIP skipped: $1"; done
    exit 0
}
[ -n "$trees" ] && [ -d "$trees" ] || skip "QG_VARIANTS names no directory of variants' lib/edit trees"
[ -x "$crawl" ] && [ -d "$dat/dlua" ] || skip "Crawl 0.28 is not installed (apt-get install crawl)"
unshare -m true 2>/dev/null || skip "unshare -m is not allowed here (needs root)"

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

# variant dialect hub
variants="zangband-2.3.5:zangband235:q_info.txt hengband-3.0.2.2:hengband3:QuestDefinitionList.txt
poschengband-3.4.5:poschengband:q_info.txt frogcomposband-7.2:frogcomposband:q_info.txt"
mkdir "$tmp/out"
converted=0 refused=0 unnamed=0 master_bad=0
for v in $variants; do
    name=${v%%:*} rest=${v#*:} dialect=${rest%%:*} hub=${rest#*:}
    edit="$trees/$name/lib/edit"
    [ -f "$edit/$hub" ] || continue
    n=1
    while [ $n -le 110 ]; do
        if "$qg" show "$edit/$hub" --quest $n --edit-dir "$edit" --dialect "$dialect" >/dev/null 2>&1; then
            out="$tmp/out/$name-$n.des"
            if "$qg" convert "$edit/$hub" --quest $n --edit-dir "$edit" --dialect "$dialect" \
                    --game crawl-0.28 -o "$out" 2>"$tmp/err"; then
                converted=$((converted + 1))
            else
                refused=$((refused + 1))
                # a refusal names why: a size, or what has nothing of its class
                grep -q "larger than Crawl's\|nothing of \(its\|their\) class" "$tmp/err" ||
                    { unnamed=$((unnamed + 1)); echo "# $name quest $n: $(grep error "$tmp/err" | head -1)"; }
                echo "# $name quest $n refused: $(grep error "$tmp/err" | head -1)"
            fi
            if "$qg" convert "$edit/$hub" --quest $n --edit-dir "$edit" --dialect "$dialect" \
                    --game crawl-master -o "$tmp/master.des" 2>/dev/null &&
                ! "$qg" check --game crawl-master "$tmp/master.des" >/dev/null 2>&1; then
                master_bad=$((master_bad + 1))
                echo "# $name quest $n: crawl-master's names refused by check"
            fi
        fi
        n=$((n + 1))
    done
done

# crawl -builddb over the scratch dat directory with the given files
builddb() {
    work=$(mktemp -d "$tmp/dat.XXXXXX")
    mkdir "$work/dat" "$work/orig" "$work/home" "$work/dat/dlua" "$work/dat/des"
    for f in "$dat"/*; do
        case ${f##*/} in dlua|des) ;; *) ln -s "$work/orig/${f##*/}" "$work/dat/" ;; esac
    done
    for f in "$dat"/dlua/*; do
        case ${f##*/} in loadmaps.lua|sanity.lua) ;; *) ln -s "$work/orig/dlua/${f##*/}" "$work/dat/dlua/" ;; esac
    done
    ln -s "$work/orig/des/00init.des" "$work/dat/des/"
    : >"$work/dat/dlua/sanity.lua"
    echo "dgn.load_des_file('des/00init.des')" >"$work/dat/dlua/loadmaps.lua"
    i=0
    for f in "$@"; do
        i=$((i + 1))
        # quests of several variants share names; Crawl refuses a name given twice
        sed "s/^NAME: */NAME: q${i}_/" "$f" >"$work/dat/des/q$i.des"
        echo "dgn.load_des_file('des/q$i.des')" >>"$work/dat/dlua/loadmaps.lua"
    done
    unshare -m sh -c "mount --bind '$dat' '$work/orig' && mount --bind '$work/dat' '$dat' &&
        HOME='$work/home' '$crawl' -builddb" >"$work/log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || sed 's/^/#   /' "$work/log" | head -3
    rm -rf "$work"
    return $rc
}

rejected=0
set -- "$tmp"/out/*.des
if [ -e "$1" ] && ! builddb "$@"; then
    # Crawl stops at the first file it rejects: each alone, to name them
    for f in "$@"; do
        builddb "$f" >/dev/null || { rejected=$((rejected + 1)); echo "# rejected by crawl: ${f##*/}"; }
    done
fi
echo "# converted $converted quests for crawl-0.28 (refused $refused, each saying why), crawl -builddb rejected $rejected"
[ $converted -gt 100 ] && [ $rejected -eq 0 ]
if [ $? -eq 0 ]; then echo "ok 1 - crawl 0.28's -builddb accepts every quest converted for it"; else echo "not ok 1 - crawl 0.28's -builddb accepts every quest converted for it"; fi
[ $unnamed -eq 0 ]
if [ $? -eq 0 ]; then echo "ok 2 - a quest not converted is refused saying why"; else echo "not ok 2 - a quest not converted is refused saying why"; fi
[ $master_bad -eq 0 ]
if [ $? -eq 0 ]; then echo "ok 3 - --game crawl-master writes master's names"; else echo "not ok 3 - --game crawl-master writes master's names"; fi
