# SPDX-License-Identifier: Apache-2.0
"""`vxpeak lsp` driven end to end by pytest-lsp's client (pygls, lsprotocol types): what an
editor sees for the Llama-2 example and a program with an E6027 call path, through
incremental edits counted in UTF-16, configuration changes, hover, inlay hints, code lenses
and symbols."""
import asyncio

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import CALL_PATH, LLAMA, VXPEAK

CAPS = t.ClientCapabilities(
    text_document=t.TextDocumentClientCapabilities(
        publish_diagnostics=t.PublishDiagnosticsClientCapabilities(related_information=True),
        hover=t.HoverClientCapabilities(content_format=[t.MarkupKind.Markdown]),
        inlay_hint=t.InlayHintClientCapabilities(),
        code_lens=t.CodeLensClientCapabilities(),
        document_symbol=t.DocumentSymbolClientCapabilities(hierarchical_document_symbol_support=True),
    ),
    workspace=t.WorkspaceClientCapabilities(configuration=True, did_change_configuration=t.DidChangeConfigurationClientCapabilities()),
)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[VXPEAK, "lsp", "--stdio"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        t.InitializeParams(capabilities=CAPS, initialization_options={"defines": {"BATCH": 9}}))
    yield
    await lsp_client.shutdown_session()


async def open_doc(client, path, uri=None, text=None):
    uri = uri or path.as_uri()
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        text_document=t.TextDocumentItem(uri=uri, language_id="vx", version=1,
                                         text=text if text is not None else path.read_text())))
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri


@pytest.mark.asyncio
async def test_over_capacity_is_an_error_with_code_range_and_the_tiles_at_the_peak(client):
    uri = await open_doc(client, LLAMA)
    diags = client.diagnostics[uri]
    errors = [d for d in diags if d.severity == t.DiagnosticSeverity.Error]
    assert [d.code for d in errors] == ["E6010"]
    e = errors[0]
    assert e.source == "vxpeak"
    assert e.range.start.line == 96 and e.range.start.character == 14
    # The tiles live at the peak, each group pointing at its code in the same file.
    related = e.related_information
    assert related and all(r.location.uri == uri for r in related)
    assert any("KV cache" in r.message and r.location.range.start.line == 51 for r in related)
    assert "42949672960 byte capacity" in e.message


@pytest.mark.asyncio
async def test_e6027_carries_the_call_path_as_related_information(client):
    uri = await open_doc(client, CALL_PATH)
    [e] = [d for d in client.diagnostics[uri] if d.code == "E6027"]
    assert e.range.start.line == 23
    lines = [(r.location.range.start.line, r.message) for r in e.related_information]
    assert lines[0][0] == 23 and "'f' calls 'g' here" in lines[0][1]
    assert lines[1][0] == 16 and "'g' reaches its own peak" in lines[1][1]


@pytest.mark.asyncio
async def test_incremental_change_with_utf16_columns_moves_the_verdict(client):
    # BATCH's item commented out behind two characters outside the BMP (two UTF-16 units
    # and four bytes each): uncommenting it by deleting 6 units only works when columns
    # are counted in UTF-16, as the protocol says; bytes or code points cut elsewhere.
    text = LLAMA.read_text().replace("const BATCH : i64 = 1;", "//\U0001d505\U0001d504const BATCH : i64 = 9;")
    lines = text.splitlines()
    line = next(i for i, l in enumerate(lines) if l.startswith("//\U0001d505"))
    uri = await open_doc(client, LLAMA, uri="file:///tmp/utf16.vx", text=text)
    assert any(d.code == "E6010" for d in client.diagnostics[uri])  # BATCH=9 from the options
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings={"vxpeak": {}}))
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert not any(d.code == "E6010" for d in client.diagnostics[uri])  # BATCH is not defined
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[t.TextDocumentContentChangePartial(
            range=t.Range(start=t.Position(line=line, character=0), end=t.Position(line=line, character=6)),
            text="")]))
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert [d.code for d in client.diagnostics[uri] if d.severity == t.DiagnosticSeverity.Error] == ["E6010"]
    # Two edits in one notification, each against the text the previous one left: 9 -> 1.
    col = len("const BATCH : i64 = ")
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=3),
        content_changes=[
            t.TextDocumentContentChangePartial(
                range=t.Range(start=t.Position(line=line, character=col), end=t.Position(line=line, character=col + 1)),
                text="12"),
            t.TextDocumentContentChangePartial(
                range=t.Range(start=t.Position(line=line, character=col), end=t.Position(line=line, character=col + 2)),
                text="1")]))
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert not any(d.severity == t.DiagnosticSeverity.Error for d in client.diagnostics[uri])


@pytest.mark.asyncio
async def test_hover_on_a_placement_its_binding_and_a_function(client):
    uri = await open_doc(client, LLAMA)
    pos = lambda l, c: t.HoverParams(text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=l, character=c))
    h = await client.text_document_hover_async(pos(51, 30))  # on kv's transfer
    v = h.contents.value
    assert "**kv** in `HBM`, function `main`" in v
    assert "19,327,352,832" in v and "live at the peak: yes" in v and "share of the capacity: 45.0%" in v
    assert "function scope" in v
    h = await client.text_document_hover_async(pos(51, 11))  # on the name `kv` in its let
    assert "**kv**" in h.contents.value
    assert h.range.start.character == 10 and h.range.end.character == 12
    h = await client.text_document_hover_async(pos(45, 4))  # on `main` in `fn main`
    assert "`HBM`: peak 43.03 GiB of 40.00 GiB (107.6%)" in h.contents.value


SHADOWED = """Memory CPU_DRAM {}
Memory HBM {
  within: Memory::CPU_DRAM, capacity: 40 GiB, managed: explicit
}
fn main() -> i32 {
  let s = transfer(Tensor<f32, [1024]>::uninit(), Memory::HBM);
  for i in 0..4 {
    let s = transfer(Tensor<f16, [64]>::uninit(), Memory::HBM);
    print(s);
  }
  print(s);
  return 0;
}
"""


@pytest.mark.asyncio
async def test_hover_on_a_later_use_follows_the_scopes_not_the_text(client, tmp_path):
    uri = await open_doc(client, tmp_path / "shadow.vx", text=SHADOWED)
    pos = lambda l, c: t.HoverParams(text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=l, character=c))
    inner = (await client.text_document_hover_async(pos(8, 10))).contents.value  # print(s) in the loop
    assert "(128, " in inner and "inside releasing blocks" in inner
    # After the loop the inner `s` is out of scope, though it is the last `let s` above:
    # the use names the outer one.
    outer = (await client.text_document_hover_async(pos(10, 8))).contents.value
    assert "(4,096, " in outer and "function scope" in outer
    first = (await client.text_document_hover_async(pos(5, 6))).contents.value  # its own let
    assert "(4,096, " in first


@pytest.mark.asyncio
async def test_inlay_hints_code_lenses_and_symbols(client):
    uri = await open_doc(client, LLAMA)
    hints = await client.text_document_inlay_hint_async(t.InlayHintParams(
        text_document=t.TextDocumentIdentifier(uri=uri),
        range=t.Range(start=t.Position(line=51, character=0), end=t.Position(line=52, character=0))))
    assert [h.label for h in hints] == ["18.00 GiB in HBM (at peak)"]
    lenses = await client.text_document_code_lens_async(t.CodeLensParams(text_document=t.TextDocumentIdentifier(uri=uri)))
    main = [l for l in lenses if l.range.start.line == 45]
    assert main and main[0].command.title.startswith("HBM peak 43.03 GiB / 40.00 GiB (107.6%)")
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=t.TextDocumentIdentifier(uri=uri)))
    names = {s.name: s.kind for s in symbols}
    assert names["main"] == t.SymbolKind.Function and names["BATCH"] == t.SymbolKind.Constant


@pytest.mark.asyncio
async def test_machine_from_configuration_and_close_clears(client):
    uri = await open_doc(client, LLAMA)
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(
        settings={"vxpeak": {"machine": "h200", "host": "default", "defines": {"BATCH": 9}}}))
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    # 141 GiB of HBM: batch 9 fits
    assert not any(d.severity == t.DiagnosticSeverity.Error for d in client.diagnostics[uri])
    # Both notifications are awaited together: the second may arrive before a wait for it
    # alone would have begun.
    waits = asyncio.gather(client.wait_for_notification(t.WINDOW_SHOW_MESSAGE),
                           client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS))
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings={"machine": "no-such-machine"}))
    await waits
    # The machine that cannot be loaded is an error at the top of the file.
    assert any("no-such-machine" in d.message and d.range.start.line == 0 for d in client.diagnostics[uri])
    client.text_document_did_close(t.DidCloseTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=uri)))
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[uri]) == []
