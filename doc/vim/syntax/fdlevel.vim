" Vim syntax file
" Language:	Angband-family level files (F:/D: quest, town and wilderness
"		files of Zangband, Hengband, ToME and their kin)
" Maintainer:	the questgrid authors
" Remark:	Written beside Crawl's levdes.vim and following its
"		conventions: a group prefix (fd), records as statements,
"		the map rows as strings, comments as comments.
"
" How to use this:
" * make install puts this file under DATADIR/vim/vimfiles/syntax and
"   ftdetect/fdlevel.vim beside it; or copy both under ~/.vim.
" * Files named lib/edit/q*.txt, t*.txt, w*.txt and *.map are then
"   detected; for others, :set syntax=fdlevel.

if version < 600
  syntax clear
elseif exists("b:current_syntax")
  finish
endif

syn case match

" # starts a comment only at the start of a line, as the games read it
syn match fdComment "^\s*#.*$"

" The record letters questgrid knows; other records are carried along
syn match fdRecord /^[A-Z%?]:/ contained
syn match fdOther /^[A-Z]:.*$/ contains=fdRecord,fdNumber

" F:letter:feature:cave_info:monster:object:ego:artifact:trap:special
syn match fdLetterDef /^F:./ contains=fdRecord,fdLetter
syn match fdLetter /\(^F:\)\@<=./ contained
syn match fdNumber /-\=\<\d\+\>/ contained
syn match fdRandom /\*\d*/ contained
syn match fdReward /!/ contained
syn match fdClone /\<c\d\+\>/ contained
syn match fdTag /\<[A-Z][A-Z0-9_]\+\>/ contained
syn region fdLetterLine start=/^F:/ end=/$/ oneline keepend
      \ contains=fdLetterDef,fdNumber,fdRandom,fdReward,fdClone,fdTag

" D: rows: the map itself
syn match fdMapRow /\(^D:\)\@<=.*$/ contained
syn region fdMapLine start=/^D:/ end=/$/ oneline keepend contains=fdRecord,fdMapRow

" ?:[EQU $QUEST1 3] conditions
syn keyword fdOperator EQU NEQ LEQ GEQ AND IOR NOT LES MOR STR CAT PREF SUFF contained
syn match fdVariable /\$\w\+/ contained
syn region fdCondition start=/^?:/ end=/$/ oneline keepend
      \ contains=fdRecord,fdOperator,fdVariable,fdNumber

" %:file includes another file
syn match fdIncludeFile /\(^%:\)\@<=.*$/ contained
syn region fdInclude start=/^%:/ end=/$/ oneline keepend contains=fdRecord,fdIncludeFile

" Q: quest headers and P: player start
syn region fdQuest start=/^Q:/ end=/$/ oneline keepend contains=fdRecord,fdNumber
syn region fdStart start=/^P:/ end=/$/ oneline keepend contains=fdRecord,fdNumber

hi link fdComment     Comment
hi link fdRecord      Statement
hi link fdLetter      Identifier
hi link fdNumber      Number
hi link fdRandom      Special
hi link fdReward      Special
hi link fdClone       Special
hi link fdTag         Type
hi link fdMapRow      String
hi link fdOperator    Operator
hi link fdVariable    Identifier
hi link fdIncludeFile Include

syn sync minlines=45

let b:current_syntax = "fdlevel"
