# SPDX-License-Identifier: Apache-2.0
"""bounded.py - run the vxpeak command on hostile input and hold it to its promises.

A run passes when the command ends by itself (no signal, no sanitizer report) with exit
status 0, 1 or 2; when a status 1 or 2 comes with a diagnostic on standard error; within
its time bound (a base plus a time per input byte); and, outside sanitizer builds, within
its memory bound (a base plus 25 times the input's size, measured as the child's maximum
resident set by wait4). Used by regress.py (the regression corpus) and hostile.py (the
generated catalogue).
"""
import os
import signal
import subprocess
import tempfile
import time

BASE_SECONDS = 10.0
SECONDS_PER_MB = 4.0
BASE_RSS = 96 << 20
RSS_PER_INPUT_BYTE = 25

COMMANDS = [
    ["check"], ["check", "--format", "json"], ["check", "--format", "sarif"],
    ["parse"], ["parse", "--sexp"], ["explain"], ["explain", "--format", "json"],
    ["roofline"], ["emit-cuda", "-o", "{out}/out.cu"], ["plot", "-o", "{out}/out.svg"],
]


def run_bounded(argv, input_bytes, sanitized, timeout_scale=1.0, env=None,
                rss_per_byte=RSS_PER_INPUT_BYTE):
    """Run argv; return (ok, summary)."""
    limit = (BASE_SECONDS + SECONDS_PER_MB * input_bytes / 1e6) * timeout_scale
    if sanitized:
        limit *= 6
    start = time.monotonic()
    out = tempfile.TemporaryFile()
    p = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE,
                         env=env, start_new_session=True)
    # stderr is read on a thread-free path: drain it with a bound so that a huge
    # diagnostic stream cannot block the child or fill memory.
    err = b""
    deadline = start + limit
    timed_out = False
    os.set_blocking(p.stderr.fileno(), False)
    while True:
        try:
            chunk = p.stderr.read(1 << 16)
        except BlockingIOError:
            chunk = None
        if chunk:
            if len(err) < (1 << 20):
                err += chunk[: (1 << 20) - len(err)]
            continue
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            os.killpg(p.pid, signal.SIGKILL)
            pid, status, usage = os.wait4(p.pid, 0)
            timed_out = True
            break
        time.sleep(0.01)
    try:
        rest = p.stderr.read()
        if rest and len(err) < (1 << 20):
            err += rest[: (1 << 20) - len(err)]
    except (BlockingIOError, ValueError):
        pass
    p.stderr.close()
    p.returncode = 0
    elapsed = time.monotonic() - start
    rss = usage.ru_maxrss * 1024
    mem_limit = BASE_RSS + rss_per_byte * input_bytes
    text = err.decode("utf-8", "replace")
    what = "%.2fs %dMB" % (elapsed, rss >> 20)
    if timed_out:
        return False, "timed out after %.0fs (bound)" % limit
    if os.WIFSIGNALED(status):
        return False, "killed by signal %d (%s): %s" % (os.WTERMSIG(status), what, text[-600:])
    code = os.WEXITSTATUS(status)
    if code not in (0, 1, 2):
        return False, "exit %d (%s): %s" % (code, what, text[-600:])
    if "Sanitizer" in text or "runtime error:" in text:
        return False, "sanitizer report (%s): %s" % (what, text[-1200:])
    out.seek(0)
    report = out.read(1 << 20).decode("utf-8", "replace")
    out.close()
    # The diagnostic is on standard error, or in the report (JSON, SARIF) on standard output.
    if code != 0 and not text.strip() and "error" not in report:
        return False, "exit %d without a diagnostic (%s)" % (code, what)
    if not sanitized and rss > mem_limit:
        return False, "used %dMB, over the bound of %dMB (%s)" % (rss >> 20, mem_limit >> 20, what)
    return True, "exit %d (%s)" % (code, what)


def run_commands(cli, path, commands, sanitized, machine=None, timeout_scale=1.0,
                 rss_per_byte=RSS_PER_INPUT_BYTE):
    """Run each command on path; return a list of failure lines."""
    failures = []
    size = os.path.getsize(path) if os.path.isfile(path) else 0
    if machine and os.path.isfile(machine):
        size += os.path.getsize(machine)
    env = dict(os.environ, NO_COLOR="1", ASAN_OPTIONS="detect_leaks=1",
               UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")
    with tempfile.TemporaryDirectory() as out:
        for cmd in commands:
            argv = [cli, cmd[0], path] + [a.replace("{out}", out) for a in cmd[1:]]
            if machine:
                argv += ["--machine", machine]
            ok, summary = run_bounded(argv, size, sanitized, timeout_scale, env, rss_per_byte)
            if not ok:
                failures.append("%s: %s" % (" ".join(argv[1:]), summary))
    return failures
