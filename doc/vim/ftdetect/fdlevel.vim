" Angband-family level files: quests, towns and wilderness of lib/edit,
" (set, not setfiletype: Vim has already called every *.txt "text"),
" and ToME's .map files (see syntax/fdlevel.vim).
au BufRead,BufNewFile */lib/edit/q*.txt,*/lib/edit/t*.txt,*/lib/edit/w*.txt set filetype=fdlevel
au BufRead,BufNewFile */lib/edit/quests/*.txt,*.map set filetype=fdlevel
