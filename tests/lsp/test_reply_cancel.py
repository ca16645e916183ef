# SPDX-License-Identifier: Apache-2.0
"""`vxpeak lsp` interrupts the building of a reply, not only the analysis under it, and a
new configuration supersedes a running analysis; driven by pytest-lsp's client.

Once a document is analysed, a code lens or inlay hints over a long program still read the
whole analysis (a lens per function, a hint per placement). The server says with
`$/logTrace` when it starts building the reply to a request; a `$/cancelRequest` for that
request, or a `didChange` of its document, sent after that trace must stop the builder
(it polls the cancellation flag per item) and be answered RequestCancelled (-32800) or
ContentModified (-32801). A `workspace/didChangeConfiguration` sent while an analysis runs
stops it, and only the new configuration's diagnostics are published. The tests assert on
messages and their order, never on times."""
import asyncio

import pytest
from lsprotocol import types as t

# `client` is test_cancel's fixture: a client that keeps every $/logTrace the server sends.
from test_cancel import BIG, client, open_doc, until_trace  # noqa: F401

# One more function, on a const of its own: a define of M makes only its tile too large, so
# that the new configuration's diagnostics are few and easy to tell from the old (none).
BIG_WITH_M = BIG + """const M : i64 = 1;
fn g() -> i32 {
  let t = transfer(Tensor<f32, [M, 1024]>::new(), Memory::HBM);
  let u = t;
  return 0;
}
"""
LAST_LINE = BIG.count("\n")
# A generic function with 4000 instances (the analysis stops at 4096) before the long
# program: a hover on its name describes every instance's peaks, each against every
# function's resident sets.
GENERIC = """fn h<const K : i64>() -> i32 {
  let t = transfer(Tensor<f32, [K, 1024]>::new(), Memory::HBM);
  let u = t;
  return 0;
}
""" + "".join(f"fn c{i}() -> i32 {{\n  return h<{i + 1}>();\n}}\n" for i in range(4000)) + BIG


async def analysed(client, uri, text):
    """Open `uri` and wait until its diagnostics are published: it is analysed, so that a
    request on it goes straight to building its reply."""
    open_doc(client, uri, text)
    while uri not in client.diagnostics:
        await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)


def edit(client, uri, version):
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[t.TextDocumentContentChangePartial(
            range=t.Range(start=t.Position(line=2, character=32),
                          end=t.Position(line=2, character=33)), text="1")]))


async def stopped_with(request, code):
    with pytest.raises(Exception) as err:
        await asyncio.wrap_future(request)
    assert getattr(err.value, "code", None) == code, err.value


@pytest.mark.asyncio
async def test_cancel_request_stops_building_inlay_hints(client):
    uri = "file:///hints.vx"
    await analysed(client, uri, BIG)
    request = client.protocol.send_request(
        t.TEXT_DOCUMENT_INLAY_HINT,
        t.InlayHintParams(text_document=t.TextDocumentIdentifier(uri=uri),
                          range=t.Range(start=t.Position(line=0, character=0),
                                        end=t.Position(line=LAST_LINE, character=0))),
        msg_id=5151)
    await until_trace(client, "building the reply to request 5151 (textDocument/inlayHint)")
    client.protocol.notify(t.CANCEL_REQUEST, t.CancelParams(id=5151))
    await stopped_with(request, -32800)
    assert any("reply to request 5151 stopped: the request was cancelled" in m
               for m in client.traces)
    # No analysis ran for the request: it was the reply that was stopped.
    assert not any("for request 5151" in m for m in client.traces)


@pytest.mark.asyncio
async def test_did_change_stops_building_code_lenses_as_content_modified(client):
    uri = "file:///lenses.vx"
    await analysed(client, uri, BIG)
    request = client.protocol.send_request(
        t.TEXT_DOCUMENT_CODE_LENS,
        t.CodeLensParams(text_document=t.TextDocumentIdentifier(uri=uri)), msg_id=5252)
    await until_trace(client, "building the reply to request 5252 (textDocument/codeLens)")
    edit(client, uri, 2)
    await stopped_with(request, -32801)
    assert any("reply to request 5252 stopped: the document changed" in m for m in client.traces)
    # The edit is then analysed and published as usual.
    published = await client.protocol.wait_for_notification_async(
        t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert (published.uri, published.version) == (uri, 2)


@pytest.mark.asyncio
async def test_cancel_request_stops_building_code_lenses(client):
    uri = "file:///lenses2.vx"
    await analysed(client, uri, BIG)
    request = client.protocol.send_request(
        t.TEXT_DOCUMENT_CODE_LENS,
        t.CodeLensParams(text_document=t.TextDocumentIdentifier(uri=uri)), msg_id=5353)
    await until_trace(client, "building the reply to request 5353 (textDocument/codeLens)")
    client.protocol.notify(t.CANCEL_REQUEST, t.CancelParams(id=5353))
    await stopped_with(request, -32800)
    assert any("reply to request 5353 stopped: the request was cancelled" in m
               for m in client.traces)


@pytest.mark.asyncio
async def test_cancel_request_stops_building_a_hover(client):
    uri = "file:///generic.vx"
    await analysed(client, uri, GENERIC)
    request = client.protocol.send_request(
        t.TEXT_DOCUMENT_HOVER,
        t.HoverParams(text_document=t.TextDocumentIdentifier(uri=uri),
                      position=t.Position(line=0, character=3)), msg_id=5454)
    await until_trace(client, "building the reply to request 5454 (textDocument/hover)")
    client.protocol.notify(t.CANCEL_REQUEST, t.CancelParams(id=5454))
    await stopped_with(request, -32800)
    assert any("reply to request 5454 stopped: the request was cancelled" in m
               for m in client.traces)


@pytest.mark.asyncio
async def test_new_configuration_supersedes_the_running_analysis(client):
    uri = "file:///configured.vx"
    open_doc(client, uri, BIG_WITH_M)
    await until_trace(client, f"analysing {uri} (version 1) for diagnostics")
    first = asyncio.ensure_future(client.protocol.wait_for_notification_async(
        t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS))
    # M = 2^24: g's tile is 64 GiB, over the a100-40's HBM; everything else is unchanged.
    client.workspace_did_change_configuration(
        t.DidChangeConfigurationParams(settings={"vxpeak": {"defines": {"M": 1 << 24}}}))
    published = await first
    # The first publication is already the new configuration's: g's tile does not fit.
    assert published.uri == uri
    assert [d.range.start.line for d in published.diagnostics
            if d.severity == t.DiagnosticSeverity.Error] != [], published.diagnostics
    assert any(f"analysis of {uri} (version 1) stopped: the configuration changed" in m
               for m in client.traces)
