-- tafl for Neovim: put this file in ~/.config/nvim/plugin/ (or source it from init.lua).
-- It recognises .tafl files, sets their comment string and starts `tafl lsp` for them, which
-- also colours them (semantic tokens). `tafl` must be on the PATH (or change `cmd` below).
--
-- Neovim 0.11 or later is best (vim.lsp.config / vim.lsp.enable, and the default keys `gra`,
-- `grr`, `<C-w>d`); 0.8 to 0.10 work through vim.lsp.start; 0.7 (Debian 12's) through
-- vim.lsp.start_client. Colours come from the server on 0.9 and later, and in every version
-- from editors/vim/syntax/tafl.vim once editors/vim is on the runtimepath (docs/editors.md).
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
  -- Neovim 0.7 (Debian 12) has no vim.lsp.start: one client is started with start_client
  -- when the first .tafl file opens, and every .tafl buffer is attached to it. It has no
  -- semantic tokens either, so its colours come from editors/vim/syntax/tafl.vim.
  local client_id = nil
  vim.api.nvim_create_autocmd("FileType", {
    pattern = "tafl",
    callback = function(args)
      if client_id == nil then
        client_id = vim.lsp.start_client({ name = "tafl", cmd = cmd, root_dir = vim.fn.getcwd() })
      end
      if client_id then
        vim.lsp.buf_attach_client(args.buf, client_id)
      end
    end,
  })
end
