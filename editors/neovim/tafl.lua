-- tafl for Neovim (0.11 or later): put this file in ~/.config/nvim/plugin/ (or source it from
-- init.lua). It recognises .tafl files, sets their comment string and starts `tafl lsp` for
-- them. `tafl` must be on the PATH (or change `cmd`).
vim.filetype.add({ extension = { tafl = "tafl" } })

vim.api.nvim_create_autocmd("FileType", {
  pattern = "tafl",
  callback = function()
    vim.bo.commentstring = "# %s"
  end,
})

vim.lsp.config("tafl", {
  cmd = { "tafl", "lsp" },
  filetypes = { "tafl" },
  root_markers = { ".git" },
})
vim.lsp.enable("tafl")
