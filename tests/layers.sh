#!/bin/sh
# Files of one folder call one way: tools/layers passes on the build tree,
# fails on a planted loop (printing it), passes on the same two files
# calling one way, reads a shared-only build's objects (.libs), leaves
# out an object whose source is gone, and fails a folder whose README.md
# does not list its files lowest first.
src="${QG_SRCDIR:-.}"
build="${QG_BUILDDIR:-.}"
layers="$src/tools/layers"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
echo "1..10"

report() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; sed 's/^/# /' "$tmp/out"; fi
}

# plant DIR A_CALLS_B B_CALLS_A: objects of two files under DIR/src/demo,
# and its README listing b.c, then a.c.
plant() {
    mkdir -p "$1/src/demo"
    printf '# demo\n\n## Files, lowest layer first\n- `b.c`\n- `a.c`\n' >"$1/src/demo/README.md"
    printf 'int b_fn(void);\nint a_fn(void) { return %s; }\n' "$2" >"$1/src/demo/a.c"
    printf 'int a_fn(void);\nint b_fn(void) { return %s; }\n' "$3" >"$1/src/demo/b.c"
    for f in a b; do
        ${CC:-cc} -c -o "$1/src/demo/libdemo_la-$f.o" "$1/src/demo/$f.c" || exit 99
    done
}

# fails DIR LINE: tools/layers fails on DIR, printing LINE.
fails() {
    "$layers" "$1" >"$tmp/out" 2>&1
    [ $? -eq 1 ] && grep -qxF -- "$2" "$tmp/out"
}

"$layers" "$build" >"$tmp/out" 2>&1
report $? "the files of every folder under src call one way, each README listing them lowest first"

plant "$tmp/loop" "b_fn()" "a_fn()"
fails "$tmp/loop" 'src/demo: 2 files call each other in a loop: a b'
report $? "a planted loop fails the check and names its files"
grep -qxF '  e.g. a -(b_fn)-> b -(a_fn)-> a' "$tmp/out"
report $? "the loop is printed step by step with the names that make it"

plant "$tmp/oneway" "b_fn()" "0"
"$layers" "$tmp/oneway" >"$tmp/out" 2>&1
report $? "the same two files calling one way pass"

rm "$tmp/loop/src/demo/b.c"
printf '## Files\n- `a.c`\n' >"$tmp/loop/src/demo/README.md"
"$layers" "$tmp/loop" >"$tmp/out" 2>&1
report $? "an object whose source was removed is left out"

plant "$tmp/pic" "b_fn()" "a_fn()"
mkdir "$tmp/pic/src/demo/.libs" && mv "$tmp/pic/src/demo/"*.o "$tmp/pic/src/demo/.libs/"
fails "$tmp/pic" 'src/demo: 2 files call each other in a loop: a b'
report $? "a shared-only build's objects (.libs) are read"

printf '## Files\n- `a.c`\n- `b.c`\n' >"$tmp/oneway/src/demo/README.md"
fails "$tmp/oneway" 'src/demo/README.md: a.c is listed before b.c, which it calls (b_fn)'
report $? "a README listing a file before one it calls fails, naming both"

printf '## Files\n- `b.c`\n' >"$tmp/oneway/src/demo/README.md"
fails "$tmp/oneway" 'src/demo/README.md: a.c is not listed'
report $? "a README that leaves a file out fails"

printf '## Files\n- `c.c`\n- `b.c`\n- `a.c`\n' >"$tmp/oneway/src/demo/README.md"
fails "$tmp/oneway" 'src/demo/README.md: lists c.c, which the folder has not'
report $? "a README listing a file the folder has not fails"

rm "$tmp/oneway/src/demo/README.md"
fails "$tmp/oneway" 'src/demo: no README.md listing its files lowest first'
report $? "a folder without a README fails"
