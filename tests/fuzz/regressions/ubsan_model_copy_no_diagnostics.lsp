Content-Length: 119

{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": null, "rootUri": null, "capabilities": {}}}Content-Length: 57

{"jsonrpc": "2.0", "method": "initialized", "params": {}}Content-Length: 206

{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///fuzz.vx", "languageId": "vx", "version": 1, "text": "fn f() -> i32 {\n  return (row[0][j] - rm).exp();\n}"}}}Content-Length: 246

{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": "file:///fuzz.vx", "version": 2}, "contentChanges": [{"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 3}}, "text": "let"}]}}Content-Length: 156

{"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"textDocument": {"uri": method": "shutdown"}Content-Length: 36

{"jsonrpc": "2.0", "method": "exit"}