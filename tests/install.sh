#!/bin/sh
# What make install gives a packager and a user: a library exporting only
# qg_ names, a .pc file whose --cflags is questgrid's include directory
# alone, the manuals, documents, completions and vim files, a program that
# finds its library (a RUNPATH, or a directory the dynamic linker searches)
# and its data, also when the whole install is moved elsewhere,
# QUESTGRID_DATA, an error naming every place looked when the data is
# missing, and the directories the build embeds following a new prefix.
# Installs into a temporary DESTDIR.
builddir=${QG_BUILDDIR:-.}
srcdir=${QG_SRCDIR:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qg_install.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
echo "1..12"
result() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; sed 's/^/# /' "$tmp/log" 2>/dev/null | tail -20; fi
}
: >"$tmp/log"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make} -s -C "$builddir" install \
    DESTDIR="$tmp/dest" >"$tmp/log" 2>&1
result $? "make install DESTDIR=... works"

lib=$(find "$tmp/dest" -name 'libquestgrid.so.0' | head -1)
exe=$(find "$tmp/dest" -path '*/bin/questgrid' | head -1)
prefix=$(dirname "$(dirname "$exe")")
nm -D --defined-only "$lib" >"$tmp/symbols" 2>"$tmp/log" &&
    [ "$(wc -l <"$tmp/symbols")" -gt 100 ] &&
    ! awk '$3 !~ /^qg_/ { print; bad = 1 } END { exit !bad }' "$tmp/symbols" >"$tmp/log"
result $? "nm -D on the installed library lists only qg_ symbols"

pc=$(find "$tmp/dest" -name questgrid.pc | head -1)
PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags questgrid >"$tmp/log" 2>&1 &&
    ! grep -q lua "$tmp/log" && grep -q 'Libs.private:.*lua' "$pc" && ! grep -q '^Requires:' "$pc"
result $? "questgrid.pc: no Lua in --cflags or Requires; Lua only for static links"

# README: "adds no include path but questgrid's own"
cflags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags questgrid)
includedir=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --variable=includedir questgrid)
echo "--cflags: '$cflags'" >"$tmp/log"
[ "$(echo $cflags)" = "-I$includedir" ] &&
    PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --static --libs questgrid | grep -q -- '-lexpat'
result $? "pkg-config --cflags questgrid is questgrid's include directory alone (no libpng)"

# The program finds its library: libtool's RUNPATH to the library's
# directory, unless that is one the dynamic linker searches itself (where
# ldconfig, as libtool's install message says, makes it known).
libdir=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --variable=libdir questgrid)
runpath=$(readelf -d "$exe" 2>/dev/null | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
echo "RUNPATH '$runpath', libdir $libdir" >"$tmp/log"
if [ -z "$exe" ] || [ -z "$libdir" ]; then
    false
elif [ -n "$runpath" ]; then
    [ "$runpath" = "$libdir" ]
else
    cat /etc/ld.so.conf /etc/ld.so.conf.d/*.conf 2>/dev/null | grep -qx "$libdir" ||
        case $libdir in /lib | /usr/lib | /lib/*-linux-gnu | /usr/lib/*-linux-gnu) true ;; *) false ;; esac
fi
result $? "the installed program finds its library: a RUNPATH, or a directory ld.so searches"

share="$prefix/share"
for f in man/man1/questgrid.1 man/man3/questgrid.3 man/man3/questgrid_core.3 \
         doc/questgrid/README.md doc/questgrid/COPYING doc/questgrid/NEWS doc/questgrid/json.md \
         doc/questgrid/schema/level.json bash-completion/completions/questgrid \
         zsh/site-functions/_questgrid vim/vimfiles/syntax/fdlevel.vim \
         vim/vimfiles/ftdetect/fdlevel.vim questgrid/edit/mapping.txt questgrid/des/colours.txt; do
    [ -s "$share/$f" ] || echo "missing $share/$f"
done >"$tmp/log"
[ ! -s "$tmp/log" ]
result $? "manuals, documents, completions, vim files and data are installed"

# The whole prefix moved elsewhere: the program finds its data beside it.
mv "$prefix" "$tmp/moved"
LD_LIBRARY_PATH="$tmp/moved/lib" "$tmp/moved/bin/questgrid" demo >"$tmp/out" 2>"$tmp/log" &&
    grep -q "loaded through $tmp/moved/share/questgrid/edit/q_info.txt" "$tmp/out"
result $? "a relocated install finds its data relative to the program"

mkdir -p "$tmp/override/edit"
sed 's/Smugglers/Overridden/' "$tmp/moved/share/questgrid/edit/q0000001.txt" \
    >"$tmp/override/edit/q0000001.txt"
cp "$tmp/moved/share/questgrid/edit/q_info.txt" "$tmp/override/edit/"
QUESTGRID_DATA="$tmp/override" LD_LIBRARY_PATH="$tmp/moved/lib" \
    "$tmp/moved/bin/questgrid" demo >"$tmp/out" 2>"$tmp/log"
grep -q 'Overridden' "$tmp/out"
result $? "QUESTGRID_DATA comes first"

# The library's example of the README, built against the install (with
# the sanitizers when the library was built with them, as CI's second run
# builds it).
sed -n '/^```c$/,/^```$/p' "$srcdir/README.md" | sed '1d;$d' | awk '/^```/{exit} {print}' \
    >"$tmp/quest.c"
sanitize=
ldd "$tmp/moved/lib/libquestgrid.so.0" 2>/dev/null | grep -q libasan &&
    sanitize="-fsanitize=address,undefined"
${CC:-cc} $sanitize -o "$tmp/quest" "$tmp/quest.c" -I"$tmp/moved/include" -L"$tmp/moved/lib" \
    -lquestgrid >"$tmp/log" 2>&1 &&
    QUESTGRID_DATA="$tmp/moved/share/questgrid" LD_LIBRARY_PATH="$tmp/moved/lib" \
    "$tmp/quest" >"$tmp/out" 2>>"$tmp/log" && grep -q 'x ' "$tmp/out"
result $? "the README's library example builds and runs against the install"

# No data anywhere: an error naming every place looked.
rm -rf "$tmp/moved/share/questgrid"
LD_LIBRARY_PATH="$tmp/moved/lib" "$tmp/moved/bin/questgrid" demo >"$tmp/out" 2>"$tmp/log"
status=$?
if [ -e /usr/local/share/questgrid/edit/q_info.txt ]; then
    n=$((n + 1)); echo "ok $n # SKIP questgrid is installed in /usr/local here, so data is found"
else
    [ $status -ne 0 ] && grep -q "QUESTGRID_DATA is not set" "$tmp/log" &&
        grep -q "$tmp/moved/share/questgrid/edit (relocated install)" "$tmp/log" &&
        grep -q "(installed prefix)" "$tmp/log"
    result $? "missing data is an error naming every place looked"
fi
LD_LIBRARY_PATH="$tmp/moved/lib" "$tmp/moved/bin/questgrid" convert \
    "$srcdir/lib/edit/q0000001.txt" --edit-dir "$srcdir/lib/edit" -o "$tmp/c.des" \
    >"$tmp/out" 2>"$tmp/log"
[ $? -ne 0 ] && [ ! -e "$tmp/c.des" ] && grep -q "edit/mapping.txt' was not found" "$tmp/log"
result $? "convert without its mapping fails and writes nothing (never every wall as floor)"

# The directories the build embeds are a header every make writes from its
# own variables, rewritten only when they change (a new --prefix, or a
# prefix= given to make), and the library's data.c depends on it: made
# here in a scratch directory from the build's own Makefile.
mkdir -p "$tmp/scratch"
embeds() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make} -s -f "$(cd "$builddir" && pwd)/Makefile" \
        -C "$tmp/scratch" src/core/installdirs.h "$@" >>"$tmp/log" 2>&1
}
: >"$tmp/log"
embeds prefix=/opt/one && grep -q '"/opt/one/share/questgrid"' "$tmp/scratch/src/core/installdirs.h" &&
    touch -d '2000-01-01' "$tmp/scratch/src/core/installdirs.h" && embeds prefix=/opt/one &&
    [ "$(find "$tmp/scratch/src/core/installdirs.h" -newermt 2001-01-01)" = "" ] &&
    embeds prefix=/opt/two && grep -q '"/opt/two/bin"' "$tmp/scratch/src/core/installdirs.h" &&
    grep -q 'installdirs.h' "$builddir"/src/core/.deps/libquestgrid_la-data.Plo
result $? "a new prefix rewrites the embedded directories (an unchanged one does not), which data.c depends on"
