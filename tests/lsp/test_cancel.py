# SPDX-License-Identifier: Apache-2.0
"""`vxpeak lsp` interrupts an analysis that is already running, driven by pytest-lsp's
client: a `$/cancelRequest` for the request being analysed is answered RequestCancelled
(-32800) at once, and a `didChange` of the document being analysed for diagnostics stops
that analysis, so that only the newer version's diagnostics are published; a request whose
analysis such a change stops is answered ContentModified (-32801). A request on a document
whose analysis is running is answered for the version it was sent against: after a change,
the new version; before a change the server reads with it, ContentModified at once (the
version it names is already stale).

The server's `$/logTrace` (the client asks for traces) says when an analysis starts and
when it is stopped; the tests send the cancellation or the change only after the start
was announced, so what they observe is the running analysis being interrupted, not a
queued message being dropped. They assert on messages and their order, never on times."""
import asyncio

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, default_converter, register_lsp_features

from conftest import VXPEAK

# Thousands of functions, each placing two tiles: analysing them takes the server most of a
# second (far longer under the sanitizers), a window in which the cancellation surely
# arrives. The program is valid, so that its diagnostics are few: a client busy decoding a
# large publishDiagnostics would read the server's next trace too late.
FUNCTION = """fn f{i}() -> i32 {{
  let t = transfer(Tensor<f32, [N, 1024]>::new(), Memory::HBM);
  let u = t;
  return 0;
}}
"""
BIG = "const N : i64 = 512;\n" + "".join(FUNCTION.format(i=i) for i in range(12000))


def recording_client():
    """pytest-lsp's client that also keeps every publishDiagnostics it receives, in order
    (`published`): its own keeps only each document's latest diagnostics, without the
    version they are for."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = []

    def publish(client: LanguageClient, params: t.PublishDiagnosticsParams):
        client.published.append(params)
        client.diagnostics[params.uri] = params.diagnostics

    register_lsp_features(
        client, {**DEFAULT_CLIENT_FEATURES, t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: publish})
    return client


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[VXPEAK, "lsp", "--stdio"],
                                              client_factory=recording_client))
async def client(lsp_client: LanguageClient):
    lsp_client.traces = []

    @lsp_client.feature(t.LOG_TRACE)
    def on_trace(params):
        lsp_client.traces.append(params.message)

    await lsp_client.initialize_session(
        t.InitializeParams(capabilities=t.ClientCapabilities(), trace=t.TraceValue.Verbose))
    yield
    await lsp_client.shutdown_session()


async def until_trace(client, text, timeout=120):
    """Wait for a $/logTrace containing `text` (a server that never says it fails the test
    instead of hanging it)."""
    async def wait():
        while not any(text in m for m in client.traces):
            await client.wait_for_notification(t.LOG_TRACE)
    await asyncio.wait_for(wait(), timeout)


def open_doc(client, uri, text, version=1):
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        text_document=t.TextDocumentItem(uri=uri, language_id="vx", version=version, text=text)))


@pytest.mark.asyncio
async def test_cancel_request_interrupts_the_running_analysis_of_its_request(client):
    blocker, target = "file:///blocker.vx", "file:///target.vx"
    # While the server analyses `blocker` (for its diagnostics), the target's didOpen and a
    # request on it wait together; the request then runs the target's analysis itself.
    open_doc(client, blocker, BIG)
    await until_trace(client, f"analysing {blocker}")
    open_doc(client, target, BIG)
    request = client.protocol.send_request(
        t.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
        t.DocumentSymbolParams(text_document=t.TextDocumentIdentifier(uri=target)), msg_id=4242)
    await until_trace(client, f"analysing {target} (version 1) for request 4242")
    client.protocol.notify(t.CANCEL_REQUEST, t.CancelParams(id=4242))
    with pytest.raises(Exception) as err:
        await asyncio.wrap_future(request)
    assert getattr(err.value, "code", None) == -32800, err.value
    # Stopped, not finished: an analysis that ran to its end would have published the
    # target's diagnostics before answering.
    assert any(f"analysis of {target} (version 1) stopped: the request was cancelled" in m
               for m in client.traces)
    assert target not in client.diagnostics
    # The server goes on: the target is analysed again when input pauses.
    while target not in client.diagnostics:
        await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)


@pytest.mark.asyncio
async def test_did_change_supersedes_the_running_diagnostics_analysis(client):
    uri = "file:///typing.vx"
    open_doc(client, uri, BIG)
    await until_trace(client, f"analysing {uri} (version 1) for diagnostics")
    # The first diagnostics published after this point, whichever version they are for.
    first = asyncio.ensure_future(client.protocol.wait_for_notification_async(
        t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS))
    # The user types while version 1 is analysed (f0's tile becomes [1, 1024]).
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[t.TextDocumentContentChangePartial(
            range=t.Range(start=t.Position(line=2, character=32),
                          end=t.Position(line=2, character=33)), text="1")]))
    published = await first
    assert (published.uri, published.version) == (uri, 2)
    assert any(f"analysis of {uri} (version 1) stopped: the document changed" in m
               for m in client.traces)


@pytest.mark.asyncio
async def test_did_change_stops_a_request_analysing_the_old_text_as_content_modified(client):
    blocker, target = "file:///blocker2.vx", "file:///target2.vx"
    open_doc(client, blocker, BIG)
    await until_trace(client, f"analysing {blocker}")
    open_doc(client, target, BIG)
    request = client.protocol.send_request(
        t.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
        t.DocumentSymbolParams(text_document=t.TextDocumentIdentifier(uri=target)), msg_id=4343)
    await until_trace(client, f"analysing {target} (version 1) for request 4343")
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=target, version=2),
        content_changes=[t.TextDocumentContentChangePartial(
            range=t.Range(start=t.Position(line=2, character=32),
                          end=t.Position(line=2, character=33)), text="1")]))
    with pytest.raises(Exception) as err:
        await asyncio.wrap_future(request)
    assert getattr(err.value, "code", None) == -32801, err.value
    assert target not in client.diagnostics
    # Only the new version's diagnostics are published.
    published = await client.protocol.wait_for_notification_async(
        t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert (published.uri, published.version) == (target, 2)


def f0_edit(client, uri, version):
    """f0's tile becomes [1, 1024] (4.00 KiB; 2.00 MiB before): line 2 keeps its length."""
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[t.TextDocumentContentChangePartial(
            range=t.Range(start=t.Position(line=2, character=32),
                          end=t.Position(line=2, character=33)), text="1")]))


def hover_f0(client, uri, msg_id):
    """A hover on f0's placement (`transfer(` on line 2)."""
    return client.protocol.send_request(
        t.TEXT_DOCUMENT_HOVER,
        t.HoverParams(text_document=t.TextDocumentIdentifier(uri=uri),
                      position=t.Position(line=2, character=12)), msg_id=msg_id)


def versions_published(client, uri):
    return [p.version for p in client.published if p.uri == uri]


@pytest.mark.asyncio
async def test_a_request_after_a_change_during_the_analysis_is_answered_for_the_new_version(
        client):
    uri = "file:///typing-hover.vx"
    open_doc(client, uri, BIG)
    await until_trace(client, f"analysing {uri} (version 1) for diagnostics")
    # The user types while version 1 is analysed, and the editor asks for a hover at a
    # position of the new text.
    f0_edit(client, uri, 2)
    request = hover_f0(client, uri, 4444)
    hover = await asyncio.wait_for(asyncio.wrap_future(request), 120)
    # Answered from version 2's analysis, whose diagnostics were published before the
    # reply; version 1's never were (its analysis was stopped).
    assert "4.00 KiB" in hover.contents.value and "2.00 MiB" not in hover.contents.value, hover
    assert versions_published(client, uri) == [2]
    assert any(f"analysis of {uri} (version 1) stopped: the document changed" in m
               for m in client.traces)


@pytest.mark.asyncio
async def test_a_request_before_a_change_during_the_analysis_is_content_modified(client):
    uri = "file:///typing-hover2.vx"
    open_doc(client, uri, BIG)
    await until_trace(client, f"analysing {uri} (version 1) for diagnostics")
    # A hover on version 1, then a change, both while version 1 is analysed: the change
    # stops that analysis, and the server reads both at once. Answering the hover would
    # take analysing version 1 again, for a result (and diagnostics) already stale.
    request = hover_f0(client, uri, 4545)
    f0_edit(client, uri, 2)
    with pytest.raises(Exception) as err:
        await asyncio.wait_for(asyncio.wrap_future(request), 120)
    assert getattr(err.value, "code", None) == -32801, err.value
    assert not any("for request 4545" in m for m in client.traces)
    while 2 not in versions_published(client, uri):
        await asyncio.wait_for(client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 120)
    assert versions_published(client, uri) == [2]
