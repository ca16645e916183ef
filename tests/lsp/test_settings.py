# SPDX-License-Identifier: Apache-2.0
"""The language server's settings are checked, never ignored (issue 35): a define that is not
an unsigned 64-bit integer (negative, past 64 bits, a string, a fraction), a machine or host
that cannot be loaded, and a setting of the wrong type are each shown (window/showMessage)
and an error at the top of every open file; a request whose settings hold an integer past
64 bits is still answered."""
import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import LLAMA, VXPEAK
from test_protocol import frame, run

BAD = {
    "defines": {"NEG": -1, "HUGE": 2**70, "TEXT": "x", "HALF": 1.5, "MAX": 2**64 - 1},
    "machine": 5,
    "host": ["default"],
}


def init_with(options):
    return {"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"capabilities": {}, "initializationOptions": options}}


def shown(msgs):
    return [m["params"]["message"] for m in msgs if m.get("method") == "window/showMessage"]


def test_each_bad_setting_is_shown_and_initialize_is_answered():
    rc, msgs = run(init_with(BAD))
    assert rc == 0
    assert any(m.get("id") == 0 and "result" in m for m in msgs), msgs  # not left waiting
    [message] = shown(msgs)
    for part in ("define NEG: -1 is negative",
                 "define HUGE: 1180591620717411303424 does not fit in 64 bits",
                 "define TEXT: a string, not an integer",
                 "define HALF: a number with a fraction, not an integer",
                 "setting 'machine' is an integer, not a string",
                 "setting 'host' is an array, not a string"):
        assert part in message, message
    assert "MAX" not in message  # 2^64 - 1 is a constant's largest value, and is taken


def test_an_integer_past_64_bits_anywhere_in_a_message_keeps_the_request_answerable():
    # jansson cannot hold 2^64 - 1 either: the body is read with such literals kept aside.
    body = (b'{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {},'
            b' "initializationOptions": {"defines": {"M": 18446744073709551615}},'
            b' "x": [2e5, -99999999999999999999999, 1.5e-3, "-99999999999999999999999"]}}')
    rc, msgs = run(("raw", frame(body)))
    assert rc == 0 and any(m.get("id") == 0 and "result" in m for m in msgs), msgs
    assert shown(msgs) == []


def test_unknown_machine_host_and_wrong_types_are_reported():
    _, msgs = run(init_with({"machine": "no-such-gpu", "defines": [1]}))
    [message] = shown(msgs)
    assert "cannot load machine 'no-such-gpu'" in message
    assert "setting 'defines' is an array" in message
    _, msgs = run(init_with({"host": "/no/such/host.vx"}))
    assert "cannot load host '/no/such/host.vx'" in shown(msgs)[0]
    _, msgs = run(init_with("h100-sxm"))
    assert "settings are a string, not an object" in shown(msgs)[0]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[VXPEAK, "lsp", "--stdio"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=t.ClientCapabilities(), initialization_options={"defines": {"BATCH": -1}}))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_a_bad_define_is_an_error_at_the_top_of_each_open_file(client):
    uris = []
    for i in range(2):
        uri = "file:///settings-%d.vx" % i
        client.text_document_did_open(t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
            uri=uri, language_id="vx", version=1, text=LLAMA.read_text())))
        await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        uris.append(uri)
    for uri in uris:
        top = [d for d in client.diagnostics[uri]
               if d.range.start.line == 0 and "define BATCH: -1 is negative" in d.message]
        assert top and top[0].severity == t.DiagnosticSeverity.Error
    assert any("define BATCH" in m.message for m in client.messages)
