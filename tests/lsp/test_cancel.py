# SPDX-License-Identifier: Apache-2.0
"""`vxpeak lsp` interrupts an analysis that is already running, driven by pytest-lsp's
client: a `$/cancelRequest` for the request being analysed is answered RequestCancelled
(-32800) at once, and a `didChange` of the document being analysed for diagnostics stops
that analysis, so that only the newer version's diagnostics are published; a request whose
analysis such a change stops is answered ContentModified (-32801).

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
