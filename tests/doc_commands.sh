#!/bin/sh
# The manual page and the README describe every subcommand the CLI has
# (src/cli/commands.def), so a new command cannot ship undocumented.
srcdir=${QG_SRCDIR:-.}
commands=$(sed -n 's/^QG_COMMAND(\([a-z_]*\),.*/\1/p' "$srcdir/src/cli/commands.def" | tr _ -)
count=$(( $(echo "$commands" | wc -w) * 2 ))
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
