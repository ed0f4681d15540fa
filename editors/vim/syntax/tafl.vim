" Vim syntax file for tafl variant files (.tafl): colours in every Vim and Neovim, with or
" without the language server (docs/editors.md). Put editors/vim on the 'runtimepath', or copy
" its syntax/ and ftdetect/ folders into ~/.vim (or ~/.config/nvim).
"
" The keyword lists are the TextMate grammar's (editors/vscode/syntaxes/tafl.tmLanguage.json);
" tests/editors.rs checks that the two agree, and that Vim colours every bundled variant.

if exists("b:current_syntax")
  finish
endif

" Words: letters, digits, hyphens and underscores (piece and region names like `black-draug`).
syntax iskeyword @,48-57,-,_

" Names the file gives its pieces and regions: the default for a word no rule below claims.
syntax match taflName /\<[A-Za-z][A-Za-z0-9_-]*/

" A one-letter piece symbol (`piece K king`) is a piece, as in the diagram.
syntax match taflSymbol /\<[A-Za-z]\>/
syntax match taflNumber /\<[0-9]\+\>/
" Numbers in words, as the grammar reads them (`occurs three times`); `two` and `four` stay words.
syntax keyword taflNumber zero one three five six seven eight nine ten eleven twelve thirteen
syntax keyword taflNumber fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty
syntax keyword taflNumber forty fifty sixty seventy eighty ninety
syntax match taflSquare /\<[a-z][0-9]\+\>/
syntax match taflPunctuation /\.\.\|[=:,×]/

syntax keyword taflWord The a after again agreement all also an and any anywhere are armed at
syntax keyword taflWord back beside between by called can cannot capture captured capturing
syntax keyword taflWord claim clear counting drawn each elsewhere empty enemies enemy enter even
syntax keyword taflWord every everybody everyone except first fort forth four from game group
syntax keyword taflWord has have he him hold holds hostile in is it its jump land left like lose
syntax keyword taflWord loses makes may most move moves moving must no nobody not occupied occur
syntax keyword taflWord occurs on once only onto or over pass piece plural position reach
syntax keyword taflWord reaches repeats rook route routes she shieldwall side sides square
syntax keyword taflWord squares still surrounded that the them there they through times to together two
syntax keyword taflWord unarmed when while win wins with without
syntax keyword taflSide attackers defenders attacker defender attacking defending
syntax keyword taflRole soldier soldiers king kings men

syntax match taflStructure /^\s*\%(name\|source\|family\|note\|board\|piece\|region\|square\|announce\|setup\|end\)\>/
syntax region taflString start=/"/ end=/"\|$/ oneline
syntax match taflComment /#.*$/ contains=@Spell

" The start diagram, `setup` to `end`: one cell a square.
syntax region taflSetup matchgroup=taflStructure start=/^\s*setup\>/ end=/^\s*end\>/ contains=taflComment,taflEmptyCell,taflDefenderCell,taflAttackerCell,taflBadCell
syntax match taflEmptyCell /\./ contained
syntax match taflDefenderCell /[A-Z]/ contained
syntax match taflAttackerCell /[a-z]/ contained
syntax match taflBadCell /[^ \t#.A-Za-z]/ contained

highlight default link taflComment Comment
highlight default link taflString String
highlight default link taflNumber Number
highlight default link taflSquare Constant
highlight default link taflStructure Statement
highlight default link taflWord Keyword
highlight default link taflSide Constant
highlight default link taflRole Type
highlight default link taflSymbol Type
highlight default link taflName Identifier
highlight default link taflPunctuation Delimiter
highlight default link taflEmptyCell Comment
highlight default link taflDefenderCell Type
highlight default link taflAttackerCell Special
highlight default link taflBadCell Error

let b:current_syntax = "tafl"
