#!/bin/sh
# The bash completion completes commands, options and option values from
# the program itself; the zsh one is checked for syntax where zsh exists.
qg="${QG_BUILDDIR:-.}/questgrid"
src="${QG_SRCDIR:-.}"
n=0
echo "1..6"
result() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
# complete WORDS...: what the bash completion offers for the last word
complete_words() {
    bash -c '. "$1/doc/completion/bash/questgrid"; shift
             COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _questgrid
             printf "%s\n" "${COMPREPLY[@]}"' sh "$src" "$qg" "$@" 2>&1
}
if ! command -v bash >/dev/null 2>&1; then
    for i in 1 2 3 4 5; do n=$((n + 1)); echo "ok $n # SKIP bash is not installed"; done
else
    [ "$(complete_words ren)" = render ]
    result $? "a command"
    complete_words show --se | grep -qx -- --seed
    result $? "an option of the command"
    ! complete_words check --se | grep -qx -- --seed
    result $? "not an option of another command"
    [ "$(complete_words render x --to s)" = svg ]
    result $? "an option value"
    [ "$(complete_words show --color = al)" = always ]
    result $? "a value after ="
fi
if command -v zsh >/dev/null 2>&1; then
    zsh -n "$src/doc/completion/zsh/_questgrid"
    result $? "the zsh completion parses"
else
    n=$((n + 1)); echo "ok $n # SKIP zsh is not installed (apt-get install zsh)"
fi
