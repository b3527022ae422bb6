#!/bin/sh
# Every skipped test says why: C tests skip through test_skip(reason) (the
# reason lands on the TAP "# SKIP" line), shell tests print "# SKIP reason".
srcdir=${QG_SRCDIR:-.}
echo "1..2"
bare=$(grep -n '[^_a-z]skip()' "$srcdir"/tests/*.c | grep -v '^[^:]*/testutil\.c:')
if [ -z "$bare" ]; then
    echo "ok 1 - C tests skip only through test_skip(reason)"
else
    echo "not ok 1 - C tests skip only through test_skip(reason)"
    echo "$bare" | sed 's/^/# /'
fi
silent=$(grep -n '# SKIP *["$]\|# SKIP *$' "$srcdir"/tests/*.sh | grep -v skip_reasons)
if [ -z "$silent" ]; then
    echo "ok 2 - shell tests give a reason after their SKIP directive"
else
    echo "not ok 2 - shell tests give a reason after their SKIP directive"
    echo "$silent" | sed 's/^/# /'
fi
