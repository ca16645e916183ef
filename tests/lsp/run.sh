#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh CLI BUILD_DIR - `make lsp-test`: the language server driven by real clients.
#   1. tests/lsp/test_protocol.py: framing, malformed and hostile JSON-RPC, cancellation
#      (plain pytest);
#   2. tests/lsp/test_client.py: pytest-lsp's client end to end, and
#      tests/lsp/test_cancel.py: a running analysis interrupted by $/cancelRequest and
#      by a didChange, and requests on a document whose analysis a change stopped;
#      tests/lsp/test_reply_cancel.py: a reply or a publication of diagnostics being built
#      interrupted the same way, and a running analysis by a new configuration;
#   3. tests/lsp/nvim.lua: Neovim, headless, with its built-in LSP client.
# pytest-lsp is installed with pip into a virtual environment when the python3 in PATH
# lacks it (tests/lsp/pydeps.sh, also run by `make deps`); Neovim comes from `make deps`
# (Debian's neovim).
set -eu
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
build=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
python=$(sh "$here/pydeps.sh")
VXPEAK=$cli PYTHONDONTWRITEBYTECODE=1 "$python" -m pytest -q -p no:cacheprovider \
  -o asyncio_mode=auto -o asyncio_default_fixture_loop_scope=function "$here"
if ! command -v nvim >/dev/null 2>&1; then
  echo "lsp-test: nvim is missing; run make deps (Debian's neovim)" >&2
  exit 1
fi
out=$build/lsp-nvim.out
rm -f "$out"
VXPEAK=$cli VXPEAK_ROOT=$here/../.. NVIM_OUT=$out \
  timeout 60 nvim --headless --clean -n -u NONE -c "luafile $here/nvim.lua" >/dev/null 2>&1 || true
if [ "$(head -1 "$out" 2>/dev/null)" != "PASS" ]; then
  echo "lsp-test: Neovim's LSP client did not see the expected diagnostics and hover:"
  cat "$out" 2>/dev/null || echo "(no output)"
  exit 1
fi
echo "lsp-test: Neovim $(nvim --version | head -1 | sed 's/^NVIM //') received the diagnostics and the hover"
