-- SPDX-License-Identifier: Apache-2.0
-- nvim.lua - a real editor against `vxpeak lsp`: Neovim (0.7 or later) headless, with its
-- built-in LSP client, opens examples/llama2/prefill.vx, types BATCH from 1 to 9 (the
-- client sends it as an incremental didChange), and must receive the E6010 diagnostic at
-- the placement that crosses the capacity, and a hover on `kv` with its bytes. The
-- verdict goes to $NVIM_OUT: "PASS", or "FAIL: why" and what was seen.
local out_path = os.getenv("NVIM_OUT")
local root = os.getenv("VXPEAK_ROOT")

local function finish(lines)
  local f = io.open(out_path, "w")
  f:write(table.concat(lines, "\n") .. "\n")
  f:close()
  vim.cmd("qa!")
end

local function fail(why, seen)
  finish({ "FAIL: " .. why, vim.inspect(seen) })
end

vim.cmd("edit " .. root .. "/examples/llama2/prefill.vx")
local buf = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({
  name = "vxpeak",
  cmd = { os.getenv("VXPEAK"), "lsp", "--stdio" },
  root_dir = root,
  flags = { allow_incremental_sync = true },
})
if not client then return fail("the client did not start", nil) end
vim.lsp.buf_attach_client(buf, client)

local function code(d)
  return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
end

-- Batch 1 fits: the server publishes an empty list.
local published = false
local handler = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  published = true
  return handler(err, result, ctx, config)
end
if not vim.wait(20000, function() return published end, 20) then
  return fail("no diagnostics published after opening", nil)
end
if #vim.diagnostic.get(buf, { severity = vim.diagnostic.severity.ERROR }) ~= 0 then
  return fail("batch 1 should fit", vim.diagnostic.get(buf))
end

-- Type 9 over the 1 of `const BATCH : i64 = 1;`.
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local row
for i, l in ipairs(lines) do
  if l:match("^const BATCH") then row = i - 1 end
end
local col = lines[row + 1]:find("= 1;") + 1
vim.api.nvim_buf_set_text(buf, row, col, row, col + 1, { "9" })

local errors = {}
local ok = vim.wait(20000, function()
  errors = vim.diagnostic.get(buf, { severity = vim.diagnostic.severity.ERROR })
  return #errors > 0
end, 20)
if not ok then return fail("no error after typing BATCH = 9", vim.diagnostic.get(buf)) end
if #errors ~= 1 or code(errors[1]) ~= "E6010" or errors[1].lnum ~= 96 or errors[1].col ~= 14 then
  return fail("expected one E6010 at 97:15", errors)
end

local params = {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = { line = 51, character = 30 },
}
local replies = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 10000) or {}
local text = ""
for _, r in pairs(replies) do
  if r.result and r.result.contents then text = r.result.contents.value end
end
if not text:find("**kv** in `HBM`", 1, true) or not text:find("19,327,352,832", 1, true) then
  return fail("hover on kv", replies)
end
finish({ "PASS", errors[1].message, text })
