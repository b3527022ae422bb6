#!/bin/sh
# The manual page and the README describe every subcommand the CLI has
# (src/cli/commands.def), so a new command cannot ship undocumented; and
# every command they show runs as shown: each is taken from the README
# (```sh blocks and the command table) and from the manual's EXAMPLES, and
# run in order in a copy of the source tree's data, with `questgrid` the
# program just built.
srcdir=${QG_SRCDIR:-.}
builddir=$(cd "${QG_BUILDDIR:-.}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/doc_commands.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

commands=$(sed -n 's/^QG_COMMAND(\([a-z_]*\),.*/\1/p' "$srcdir/src/cli/commands.def" | tr _ -)

# The README's commands: ```sh blocks, then the table's questgrid examples.
awk '/^```sh$/ { on = 1; next } /^```/ { on = 0 } on && NF { print }' "$srcdir/README.md" \
    >"$tmp/readme"
sed -n 's/^| [^|]* | `\(questgrid [^`]*\)` |$/\1/p' "$srcdir/README.md" >>"$tmp/readme"
# The manual's: the .nf blocks of EXAMPLES, roff escapes undone, lines
# ending in \ joined.
sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$srcdir/doc/questgrid.1" |
    awk '/^\.nf/ { on = 1; next } /^\.fi/ { on = 0 } on { print }' |
    sed -e 's/\\-/-/g' -e 's/\\e$/\\/' |
    awk '{ line = line $0 } /\\$/ { sub(/\\$/, "", line); next } { print line; line = "" }' \
        >"$tmp/manual"

count=$(( $(echo "$commands" | wc -w) * 2 + $(wc -l <"$tmp/readme") + $(wc -l <"$tmp/manual") ))
echo "1..$count"
n=0
for c in $commands; do
  n=$((n + 1))
  if grep -q "^\.B\(R\|I\)\{0,1\} *\(questgrid \)\{0,1\}$(echo "$c" | sed 's/-/\\\\-/g')\( \|$\)" "$srcdir/doc/questgrid.1"; then
    echo "ok $n - questgrid.1 describes $c"
  else
    echo "not ok $n - questgrid.1 describes $c"
  fi
  n=$((n + 1))
  if grep -q "\`$c\`" "$srcdir/README.md"; then
    echo "ok $n - README.md describes $c"
  else
    echo "not ok $n - README.md describes $c"
  fi
done

# The commands run where a user runs them: in a tree holding lib/, with
# questgrid (or ./questgrid) the program built here.
mkdir -p "$tmp/tree" "$tmp/bin"
cp -R "$srcdir/lib" "$tmp/tree/lib"
chmod -R u+w "$tmp/tree"
printf '#!/bin/sh\nexec "%s/questgrid" "$@"\n' "$builddir" >"$tmp/bin/questgrid"
chmod +x "$tmp/bin/questgrid"
cp "$tmp/bin/questgrid" "$tmp/tree/questgrid"

run() {
    where=$1 cmd=$2
    n=$((n + 1))
    case $cmd in
    *"make check"*)
        echo "ok $n # SKIP '$cmd' runs the suite this test is part of (.ci/run runs it)"
        return ;;
    "cc "*)
        echo "ok $n # SKIP '$cmd' needs an installed questgrid: tests/install.sh builds it so"
        return ;;
    "tools/setup && make demo")
        # tools/setup is what built this tree; make demo runs in it
        (env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make} -s -C "$builddir" demo) \
            >"$tmp/out" 2>&1 ;;
    *)
        (cd "$tmp/tree" && PATH="$tmp/bin:$PATH" sh -c "$cmd") >"$tmp/out" 2>&1 ;;
    esac
    if [ $? -eq 0 ]; then
        echo "ok $n - $where: $cmd"
    else
        echo "not ok $n - $where: $cmd"
        tail -5 "$tmp/out" | sed 's/^/# /'
    fi
}
while IFS= read -r cmd; do run README.md "$cmd"; done <"$tmp/readme"
while IFS= read -r cmd; do run questgrid.1 "$cmd"; done <"$tmp/manual"
