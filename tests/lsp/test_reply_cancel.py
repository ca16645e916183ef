# SPDX-License-Identifier: Apache-2.0
"""`vxpeak lsp` interrupts the building of a reply, not only the analysis under it, and a
new configuration supersedes a running analysis; driven by pytest-lsp's client.

Once a document is analysed, a request on it goes straight to building its reply, under the
same watch as an analysis: a `$/cancelRequest` for that request, or a `didChange` of its
document, that arrives before the reply is finished must stop the builder (it polls the
cancellation flag per item) and be answered RequestCancelled (-32800) or ContentModified
(-32801). The server says with `$/logTrace` when it starts building a reply.

The builders are linear, so a reply is built in milliseconds even on a long program: too
short a window for a client to read the "building" trace and answer it. So the request
under test waits in the server's queue behind another request, one that analyses a long
program; the cancellation or the change is sent once that analysis is announced, so it has
arrived before the reply under test is begun (the watch looks at what arrived meanwhile
too), and only the builder's polling can stop the reply. That depends on the analysis
lasting longer than the client's reaction, as test_cancel does, and not on how long a
reply takes to build.

A `workspace/didChangeConfiguration` sent while an analysis runs stops it, and only the
new configuration's diagnostics are published. The tests assert on messages and their
order, never on times."""
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
# The long program and one function whose tile (64 GiB) is over the a100-40's HBM: an
# error, with the tiles live at the peak as related information.
BIG_WITH_ERROR = BIG + """fn g() -> i32 {
  let t = transfer(Tensor<f32, [16777216, 1024]>::new(), Memory::HBM);
  let u = t;
  return 0;
}
"""
async def analysed(client, uri, text):
    """Open `uri` and wait until its diagnostics are published: it is analysed, so that a
    request on it goes straight to building its reply."""
    open_doc(client, uri, text)
    while uri not in client.diagnostics:
        await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)


async def published(client, uri, version, timeout=120):
    """Wait until the diagnostics of `version` of `uri` are published; return every
    publication of `uri` received until then, in order, as (version, diagnostics)."""
    async def wait():
        while (uri, version) not in [(p.uri, p.version) for p in client.published]:
            await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    await asyncio.wait_for(wait(), timeout)
    return [(p.version, p.diagnostics) for p in client.published if p.uri == uri]


def edit(client, uri, version):
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[t.TextDocumentContentChangePartial(
            range=t.Range(start=t.Position(line=2, character=32),
                          end=t.Position(line=2, character=33)), text="1")]))


async def stopped_with(request, code):
    with pytest.raises(Exception) as err:
        await asyncio.wait_for(asyncio.wrap_future(request), 120)
    assert getattr(err.value, "code", None) == code, err.value


async def queued_behind_an_analysis(client, uri, method, params, msg_id):
    """Send request `msg_id` on `uri` (analysed) so that it waits behind another request's
    analysis of a long program, and return it once that analysis has begun: the request has
    been read by the server and its reply is not begun. `uri`'s analysis is announced first
    (its diagnostics run), and the other document, its request and this one are sent during
    it, so the server takes all three together when it is done."""
    other = uri + ".other.vx"
    open_doc(client, uri, BIG)
    await until_trace(client, f"analysing {uri} (version 1) for diagnostics")
    open_doc(client, other, BIG)
    client.protocol.send_request(
        t.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
        t.DocumentSymbolParams(text_document=t.TextDocumentIdentifier(uri=other)),
        msg_id=msg_id + 1)
    request = client.protocol.send_request(method, params, msg_id=msg_id)
    await until_trace(client, f"analysing {other} (version 1) for request {msg_id + 1}")
    return request


def stopped_while_built(client, msg_id, method, why):
    """The traces say that the reply to `msg_id` was begun and stopped, `why`, and that no
    analysis ran for it (it was the reply that was stopped)."""
    assert any(f"building the reply to request {msg_id} ({method})" in m for m in client.traces)
    assert any(f"reply to request {msg_id} stopped: {why}" in m for m in client.traces)
    assert not any(f"for request {msg_id}" in m for m in client.traces)


def whole(uri):
    return t.InlayHintParams(text_document=t.TextDocumentIdentifier(uri=uri),
                             range=t.Range(start=t.Position(line=0, character=0),
                                           end=t.Position(line=LAST_LINE, character=0)))


@pytest.mark.asyncio
async def test_cancel_request_stops_building_inlay_hints(client):
    uri = "file:///hints.vx"
    request = await queued_behind_an_analysis(client, uri, t.TEXT_DOCUMENT_INLAY_HINT,
                                              whole(uri), 5150)
    client.protocol.notify(t.CANCEL_REQUEST, t.CancelParams(id=5150))
    await stopped_with(request, -32800)
    stopped_while_built(client, 5150, t.TEXT_DOCUMENT_INLAY_HINT, "the request was cancelled")


@pytest.mark.asyncio
async def test_did_change_stops_building_code_lenses_as_content_modified(client):
    uri = "file:///lenses.vx"
    request = await queued_behind_an_analysis(
        client, uri, t.TEXT_DOCUMENT_CODE_LENS,
        t.CodeLensParams(text_document=t.TextDocumentIdentifier(uri=uri)), 5250)
    edit(client, uri, 2)
    await stopped_with(request, -32801)
    stopped_while_built(client, 5250, t.TEXT_DOCUMENT_CODE_LENS, "the document changed")
    # The edit is then analysed and published as usual.
    await published(client, uri, 2)


@pytest.mark.asyncio
async def test_cancel_request_stops_building_code_lenses(client):
    uri = "file:///lenses2.vx"
    request = await queued_behind_an_analysis(
        client, uri, t.TEXT_DOCUMENT_CODE_LENS,
        t.CodeLensParams(text_document=t.TextDocumentIdentifier(uri=uri)), 5350)
    client.protocol.notify(t.CANCEL_REQUEST, t.CancelParams(id=5350))
    await stopped_with(request, -32800)
    stopped_while_built(client, 5350, t.TEXT_DOCUMENT_CODE_LENS, "the request was cancelled")


@pytest.mark.asyncio
async def test_cancel_request_stops_building_a_hover(client):
    uri = "file:///hover.vx"
    # f0's name: the hover describes f0's peaks.
    request = await queued_behind_an_analysis(
        client, uri, t.TEXT_DOCUMENT_HOVER,
        t.HoverParams(text_document=t.TextDocumentIdentifier(uri=uri),
                      position=t.Position(line=1, character=3)), 5450)
    client.protocol.notify(t.CANCEL_REQUEST, t.CancelParams(id=5450))
    await stopped_with(request, -32800)
    stopped_while_built(client, 5450, t.TEXT_DOCUMENT_HOVER, "the request was cancelled")


@pytest.mark.asyncio
async def test_did_change_stops_building_document_symbols_as_content_modified(client):
    uri = "file:///symbols.vx"
    request = await queued_behind_an_analysis(
        client, uri, t.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
        t.DocumentSymbolParams(text_document=t.TextDocumentIdentifier(uri=uri)), 5550)
    edit(client, uri, 2)
    await stopped_with(request, -32801)
    stopped_while_built(client, 5550, t.TEXT_DOCUMENT_DOCUMENT_SYMBOL, "the document changed")


@pytest.mark.asyncio
async def test_did_change_stops_publishing_stale_diagnostics(client):
    uri = "file:///saved.vx"
    other = uri + ".other.vx"
    # A didSave publishes the diagnostics again; it waits behind another request's analysis,
    # and the edit is sent during that analysis, so it has arrived before the save's
    # publication is built: that publication is of version 1, already stale.
    open_doc(client, uri, BIG_WITH_ERROR)
    await until_trace(client, f"analysing {uri} (version 1) for diagnostics")
    open_doc(client, other, BIG)
    client.protocol.send_request(
        t.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
        t.DocumentSymbolParams(text_document=t.TextDocumentIdentifier(uri=other)), msg_id=5651)
    client.text_document_did_save(
        t.DidSaveTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=uri)))
    await until_trace(client, f"analysing {other} (version 1) for request 5651")
    edit(client, uri, 2)
    seen = await published(client, uri, 2)
    # Version 1's when it was analysed, then version 2's: never version 1's again.
    assert [version for version, _ in seen] == [1, 2], seen
    assert all(any(d.code == "E6010" for d in diagnostics) for _, diagnostics in seen)
    assert any(f"publication of {uri} (version 1) stopped: the document changed" in m
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
