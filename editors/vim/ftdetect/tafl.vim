" tafl variant files: their file type, so that syntax/tafl.vim colours them.
autocmd BufNewFile,BufRead *.tafl setfiletype tafl
