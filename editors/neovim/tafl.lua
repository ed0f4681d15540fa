-- tafl for Neovim: put this file in ~/.config/nvim/plugin/ (or source it from init.lua).
-- It recognises .tafl files, sets their comment string and starts `tafl lsp` for them, which
-- also colours them (semantic tokens). `tafl` must be on the PATH (or change `cmd` below).
--
-- Neovim 0.11 or later is best (vim.lsp.config / vim.lsp.enable, and the default keys `gra`,
-- `grr`, `<C-w>d`); 0.8 to 0.10 work through vim.lsp.start; older versions (Debian 12 ships
-- 0.7) get a message when a .tafl file is opened, and nothing else changes. docs/editors.md
-- says how to get a newer Neovim.
local cmd = { "tafl", "lsp" }

if vim.fn.has("nvim-0.8") == 1 then
  vim.filetype.add({ extension = { tafl = "tafl" } })
else
  -- Before 0.8 vim.filetype.add is not used by default, and `*.tafl` would be taken for a
  -- config file.
  vim.cmd("autocmd BufNewFile,BufRead *.tafl set filetype=tafl")
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = "tafl",
  callback = function()
    vim.bo.commentstring = "# %s"
  end,
})

if vim.fn.has("nvim-0.11") == 1 then
  vim.lsp.config("tafl", {
    cmd = cmd,
    filetypes = { "tafl" },
    root_markers = { ".git" },
  })
  vim.lsp.enable("tafl")
elseif vim.fn.has("nvim-0.8") == 1 then
  vim.api.nvim_create_autocmd("FileType", {
    pattern = "tafl",
    callback = function(args)
      local git = vim.fs.find({ ".git" }, { upward = true, path = vim.fs.dirname(args.file) })[1]
      vim.lsp.start({
        name = "tafl",
        cmd = cmd,
        root_dir = git and vim.fs.dirname(git) or vim.fn.getcwd(),
      })
    end,
  })
else
  local told = false
  vim.api.nvim_create_autocmd("FileType", {
    pattern = "tafl",
    callback = function()
      if not told then
        told = true
        vim.api.nvim_echo({ {
          "tafl: this Neovim is too old for the tafl language server (0.8 or later is needed, "
            .. "0.11 is best); see docs/editors.md for how to get a newer one",
          "WarningMsg",
        } }, true, {})
      end
    end,
  })
end
