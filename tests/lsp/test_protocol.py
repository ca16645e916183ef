# SPDX-License-Identifier: Apache-2.0
"""`vxpeak lsp` at the byte level: framing, malformed and hostile JSON-RPC, and
cancellation. Every bad message gets a JSON-RPC error and the server keeps serving: each
test ends with a clean shutdown/exit, which only a live server can answer."""
import json
import random
import subprocess

from conftest import LLAMA, VXPEAK


def frame(body):
    if not isinstance(body, bytes):
        body = json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def run(*messages, end=True, timeout=60):
    """Send `messages` (objects, bytes bodies, or raw frames via ("raw", bytes)), then
    shutdown and exit; return (exit status, responses by id or in order)."""
    data = b""
    for m in messages:
        data += m[1] if isinstance(m, tuple) else frame(m)
    if end:
        data += frame({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"})
        data += frame({"jsonrpc": "2.0", "method": "exit"})
    p = subprocess.run([VXPEAK, "lsp"], input=data, capture_output=True, timeout=timeout)
    out, msgs = p.stdout, []
    while out:
        head, sep, rest = out.partition(b"\r\n\r\n")
        assert sep, out[:200]
        assert head.startswith(b"Content-Length: ")
        n = int(head[len(b"Content-Length: "):])
        msgs.append(json.loads(rest[:n]))
        out = rest[n:]
    return p.returncode, msgs


INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}


def error_of(msgs, id_):
    for m in msgs:
        if "id" in m and m["id"] == id_ and "error" in m:
            return m["error"]["code"]
    raise AssertionError(f"no error reply for id {id_!r} in {msgs}")


def test_exit_after_shutdown_is_status_0_and_without_it_1():
    assert run(INIT)[0] == 0
    assert run(INIT, end=False)[0] == 1


def test_invalid_json_is_a_parse_error_and_the_server_goes_on():
    rc, msgs = run(INIT, b"{not json", b"\xff\xfe", b'{"jsonrpc": "2.0", "id": 1, "method":')
    assert rc == 0
    assert [m["error"]["code"] for m in msgs if m.get("id") is None and "error" in m] == [-32700] * 3
    assert any(m.get("id") == "bye" and m.get("result") is None for m in msgs)


def test_malformed_requests_get_invalid_request_or_params():
    rc, msgs = run(
        INIT,
        [1, 2, 3],
        "a string",
        {"jsonrpc": "1.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "id": 3, "method": 42},
        {"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover", "params": 7},
        {"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {}},
        {"jsonrpc": "2.0", "id": 6, "method": "textDocument/hover",
         "params": {"textDocument": {"uri": "file:///none.vx"}, "position": {"line": 0, "character": 0}}},
        {"jsonrpc": "2.0", "id": 7, "method": "no/such/method"},
        {"jsonrpc": "2.0", "id": {"an": "object"}, "method": "shutdown"},
    )
    assert rc == 0
    assert error_of(msgs, 2) == -32600
    assert error_of(msgs, 3) == -32600
    assert error_of(msgs, 4) == -32602
    assert error_of(msgs, 5) == -32602
    assert error_of(msgs, 6) == -32602
    assert error_of(msgs, 7) == -32601
    assert sum(1 for m in msgs if m.get("id") is None and m.get("error", {}).get("code") == -32600) == 3


def test_requests_before_initialize_are_refused():
    rc, msgs = run({"jsonrpc": "2.0", "id": 1, "method": "textDocument/documentSymbol",
                    "params": {"textDocument": {"uri": "file:///a.vx"}}}, INIT)
    assert error_of(msgs, 1) == -32002
    assert rc == 0


def test_bad_headers_are_reported_and_skipped():
    rc, msgs = run(
        INIT,
        ("raw", b"Content-Type: nothing\r\n\r\n"),
        ("raw", b"Content-Length: 99999999999999999999\r\n\r\n"),
        ("raw", b"Content-Length: -5\r\n\r\n"),
        {"jsonrpc": "2.0", "id": 9, "method": "no/such/method"},
    )
    assert rc == 0
    assert sum(1 for m in msgs if m.get("id") is None and m["error"]["code"] == -32700) == 3
    assert error_of(msgs, 9) == -32601


def test_a_queued_request_cancelled_by_cancel_request_is_answered_as_cancelled():
    uri = "file:///c.vx"
    rc, msgs = run(
        INIT,
        {"jsonrpc": "2.0", "method": "textDocument/didOpen",
         "params": {"textDocument": {"uri": uri, "languageId": "vx", "version": 1, "text": LLAMA.read_text()}}},
        {"jsonrpc": "2.0", "id": 11, "method": "textDocument/codeLens", "params": {"textDocument": {"uri": uri}}},
        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 11}},
        {"jsonrpc": "2.0", "id": 12, "method": "textDocument/codeLens", "params": {"textDocument": {"uri": uri}}},
    )
    assert rc == 0
    assert error_of(msgs, 11) == -32800
    assert any(m.get("id") == 12 and isinstance(m.get("result"), list) for m in msgs)


def test_hostile_edits_never_crash_the_server():
    """Ranges past the end, reversed ranges, huge positions, wrong types, deep nesting."""
    uri = "file:///h.vx"
    change = lambda v, ch: {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": v}, "contentChanges": ch}}
    rc, msgs = run(
        INIT,
        {"jsonrpc": "2.0", "method": "textDocument/didOpen",
         "params": {"textDocument": {"uri": uri, "languageId": "vx", "version": 1, "text": "fn main() -> i32 { return 0; }\n"}}},
        change(2, [{"range": {"start": {"line": 99, "character": 9}, "end": {"line": 999, "character": 2**40}}, "text": "x"}]),
        change(3, [{"range": {"start": {"line": 0, "character": 9}, "end": {"line": 0, "character": 2}}, "text": "x"}]),
        change(4, [{"range": {"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "x"}]),
        change(5, [{"range": "bad", "text": "x"}, 7, {"text": 8}]),
        change(6, [{"text": "fn main() -> i32 {" + "(" * 20000 + "\n"}]),
        ("raw", frame(b"[" * 100000 + b"]" * 100000)),
        {"jsonrpc": "2.0", "id": 20, "method": "textDocument/hover",
         "params": {"textDocument": {"uri": uri}, "position": {"line": 2**31, "character": 2**31}}},
        {"jsonrpc": "2.0", "id": 21, "method": "textDocument/inlayHint",
         "params": {"textDocument": {"uri": uri}, "range": {"start": {"line": 0}, "end": None}}},
    )
    assert rc == 0
    assert any(m.get("id") == 20 and "result" in m for m in msgs)
    assert error_of(msgs, 21) == -32602
    assert any(m.get("id") == "bye" for m in msgs)


def test_random_bodies_and_mutated_messages_are_answered():
    rnd = random.Random(12)
    good = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover",
                       "params": {"textDocument": {"uri": "file:///a.vx"}, "position": {"line": 0, "character": 3}}}).encode()
    bodies = []
    for _ in range(300):
        b = bytearray(good)
        for _ in range(rnd.randint(1, 6)):
            i = rnd.randrange(len(b))
            b[i] = rnd.randrange(256)
        bodies.append(bytes(b))
    rc, msgs = run(INIT, *bodies)
    assert rc == 0
    assert any(m.get("id") == "bye" for m in msgs)


def test_null_params_are_no_params():
    """Clients send `"params": null` with shutdown; it must still shut down (exit 0)."""
    rc, msgs = run(INIT, {"jsonrpc": "2.0", "id": 3, "method": "shutdown", "params": None},
                   {"jsonrpc": "2.0", "method": "exit", "params": None}, end=False)
    assert any(m.get("id") == 3 and "result" in m for m in msgs)
    assert rc == 0
