#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""transcripts.py CLI - the documentation's transcripts are run, and what they show is printed.

Three kinds of claims about the command are checked:

- A transcript in a Markdown file (README.md, docs/*.md, and the README.md of fleet/,
  examples/ and bindings/): inside a fenced code block, a line `$ vxpeak ...` (continued over
  several lines with a trailing `\\`) and the lines after it, up to the next `$ ` line or the
  end of the block, which are what it prints.
- The man page's EXAMPLES (bindings/cli/vxpeak.1), the same way, roff escapes undone.
- A C program in a Markdown file (a ```c block with a `main`): compiled against the public
  header and the built library, then run from the repository root; it must exit 0.
- Every `e.g. vxpeak ...` line of `vxpeak --help` and of each command's `--help`, and the
  `$ vxpeak ...` lines of their examples.

A transcript runs from a scratch directory that links to the repository's top level (so
files it writes land there), through bash, with the built command first on PATH, NO_COLOR=1,
and a pseudo-terminal (`script`) so that standard output and standard error interleave as a
person sees them. Its output lines are matched exactly, in order and contiguously: a line
`...` (alone, any indent) skips any number of lines, and a shown line that ends in `...`
matches a line that starts with the text before it. Without a leading `...` the first shown
line is the first printed; without a trailing one the last shown is the last printed. The
exit status must be 0 or 1 (1 is a rejected program, which the shown lines say), or the one
a last line `(exit N)` shows; a transcript that shows no output must exit 0.

An `e.g.` line of --help must exit 0, or 1 where the line says `(exit 1 ...)` after the
command; an example line 0 or 1 (a rejected program is an answer); never 2 (a usage or input
error).

Prints each failure with the file and line; exits 1 when one fails.
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

TIMEOUT_S = 120
EXIT_LINE = re.compile(r"^\(exit (\d+)\)$")


class Transcript:
    def __init__(self, where, command, shown):
        self.where = where  # "file:line"
        self.command = command
        self.shown = shown  # list of output lines as written


def markdown_transcripts(path, text):
    found = []
    lines = text.split("\n")
    in_block = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            in_block = not in_block
            i += 1
            continue
        if in_block and line.startswith("$ vxpeak"):
            start = i + 1
            command = line[2:]
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command = command[:-1].rstrip() + " " + lines[i].strip()
            shown = []
            i += 1
            while i < len(lines) and not lines[i].startswith("$ ") and not lines[i].lstrip().startswith("```"):
                shown.append(lines[i])
                i += 1
            while shown and not shown[-1].strip():
                shown.pop()
            found.append(Transcript("%s:%d" % (path, start), command, shown))
            continue
        i += 1
    return found


def unroff(line):
    if line.startswith("\\&"):
        line = line[2:]
    return line.replace("\\-", "-").replace("\\\\", "\\").replace("\\(em", "-").replace("\\e", "\\")


def man_transcripts(path, text):
    found = []
    lines = text.split("\n")
    in_examples = in_nf = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(".SH"):
            in_examples = line.strip() == ".SH EXAMPLES"
        elif line.startswith(".nf"):
            in_nf = True
        elif line.startswith(".fi"):
            in_nf = False
        elif in_examples and in_nf and line.startswith("$ vxpeak"):
            start = i + 1
            command = unroff(line[2:])
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command = command[:-1].rstrip() + " " + unroff(lines[i]).strip()
            shown = []
            i += 1
            while i < len(lines) and not lines[i].startswith("$ ") and not lines[i].startswith("."):
                shown.append(unroff(lines[i]))
                i += 1
            while shown and not shown[-1].strip():
                shown.pop()
            found.append(Transcript("%s:%d" % (path, start), command, shown))
            continue
        i += 1
    return found


def scratch_dir(root):
    """A directory whose entries link to the repository's top level: files written land here."""
    d = tempfile.mkdtemp(prefix="vxpeak-docs-")
    for name in os.listdir(root):
        if name in (".git",):
            continue
        os.symlink(os.path.join(root, name), os.path.join(d, name))
    return d


def run(cli_dir, cwd, command):
    env = dict(os.environ, NO_COLOR="1", LC_ALL="C", PATH=cli_dir + os.pathsep + os.environ.get("PATH", ""))
    env.pop("VXPEAK_MACHINE", None)
    # script(1) gives the command a terminal; its own status is the command's (-e).
    wrapped = ["script", "-qec", "bash -c %s" % shlex.quote(command), "/dev/null"]
    try:
        proc = subprocess.run(wrapped, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % TIMEOUT_S
    out = proc.stdout.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
    return proc.returncode, out


def is_elision(line):
    return line.strip() == "..."


def line_matches(shown, printed):
    s = shown.rstrip()
    if s.endswith("...") and s.strip() != "...":
        return printed.rstrip().startswith(s[:-3].rstrip())
    return printed.rstrip() == s


def match(shown, printed):
    """None when the shown lines are the printed ones (elisions allowed), else why not."""
    printed = printed.rstrip("\n").split("\n") if printed.strip() else []
    # Split the shown lines into runs of lines separated by elisions.
    runs, current = [], []
    leading = bool(shown) and is_elision(shown[0])
    trailing = bool(shown) and is_elision(shown[-1])
    for line in shown:
        if is_elision(line):
            if current:
                runs.append(current)
            current = []
        else:
            current.append(line)
    if current:
        runs.append(current)
    pos = 0
    for k, chunk in enumerate(runs):
        anchored = (k == 0 and not leading)
        found = None
        last_start = len(printed) - len(chunk)
        starts = [pos] if anchored else range(pos, last_start + 1)
        for start in starts:
            if start > last_start:
                break
            if all(line_matches(chunk[j], printed[start + j]) for j in range(len(chunk))):
                found = start
                break
        if found is None:
            return "not printed%s: %r" % (" as the first lines" if anchored else " in this order", chunk[0])
        pos = found + len(chunk)
    if runs and not trailing and pos != len(printed):
        return "more is printed after the last shown line (show it, or end with '...'): %r" % printed[pos]
    return None


def check_transcript(t, cli_dir, cwd):
    shown = list(t.shown)
    want_status = None
    if shown and EXIT_LINE.match(shown[-1].strip()):
        want_status = int(EXIT_LINE.match(shown[-1].strip()).group(1))
        shown.pop()
    status, out = run(cli_dir, cwd, t.command)
    if status is None:
        return out
    if want_status is not None:
        if status != want_status:
            return "exit status %d, the transcript shows %d" % (status, want_status)
    elif status not in (0, 1) or (status == 1 and not shown):
        return "exit status %d%s" % (status, " and no output shown" if not shown else "")
    if shown:
        why = match(shown, out)
        if why:
            return why + "\n" + "\n".join("  | " + l for l in out.rstrip("\n").split("\n")[:30])
    return None


def help_examples(cli):
    """(where, command, expected status) for every e.g. line of the help texts."""
    texts = [("vxpeak --help", subprocess.run([cli, "--help"], stdout=subprocess.PIPE).stdout.decode())]
    commands = re.findall(r"^  ([a-z-]+)\s{2,}", texts[0][1].split("options")[0], re.M)
    for c in commands:
        p = subprocess.run([cli, c, "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        texts.append(("vxpeak %s --help" % c, p.stdout.decode()))
    seen, found = set(), []
    for where, text in texts:
        lines = text.split("\n")
        for k, line in enumerate(lines):
            # The command's own examples ("  $ vxpeak ..."): a rejected program (exit 1) is an
            # answer; a usage error is not.
            if line.startswith("  $ vxpeak "):
                command = line[4:]
                while command.endswith("\\") and k + 1 < len(lines):
                    k += 1
                    command = command[:-1].rstrip() + " " + lines[k].strip()
                if command not in seen:
                    seen.add(command)
                    found.append((where, command, (0, 1)))
                continue
            m = re.search(r"e\.g\. (vxpeak .*)$", line)
            if not m:
                continue
            command = m.group(1).strip()
            status = 0
            note = re.search(r"\s+\(exit (\d+)[^)]*\)$", command)
            if note:
                status = int(note.group(1))
                command = command[:note.start()].rstrip()
            if command in seen:
                continue
            seen.add(command)
            found.append((where, command, (status,)))
    return found


def c_programs(path, text):
    """(where, source) for every ```c block that defines main."""
    found, lines = [], text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```c":
            start, body = i + 1, []
            i += 1
            while i < len(lines) and not lines[i].lstrip().startswith("```"):
                body.append(lines[i])
                i += 1
            source = "\n".join(body) + "\n"
            if re.search(r"^int main\(", source, re.M):
                found.append(("%s:%d" % (path, start), source))
        i += 1
    return found


def check_c_program(where, source, build, root):
    d = tempfile.mkdtemp(prefix="vxpeak-docs-c-")
    c, exe = os.path.join(d, "prog.c"), os.path.join(d, "prog")
    with open(c, "w") as f:
        f.write(source)
    cc = os.environ.get("CC", "cc")
    extra = shlex.split(os.environ.get("DOCS_CFLAGS", ""))  # the build's flags (sanitizers)
    compile_ = subprocess.run([cc] + extra + ["-std=c99", "-Wall", "-Wextra", "-Werror",
                               "-I" + os.path.join(root, "include"), c, "-o", exe, "-L" + build,
                               "-lvxpeak", "-Wl,-rpath," + build],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if compile_.returncode != 0:
        return "does not compile:\n" + compile_.stdout.decode("utf-8", "replace")
    p = subprocess.run([exe], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT_S)
    if p.returncode != 0:
        return "exit status %d:\n%s" % (p.returncode, p.stdout.decode("utf-8", "replace"))
    return None


def self_test():
    """The matcher on made-up outputs: each case must hold or fail as stated."""
    out = "a\nb 1\nc\nd\n"
    cases = [
        (["a", "b 1", "c", "d"], True),
        (["a", "b 2", "c", "d"], False),          # a changed figure
        (["a", "b 1"], False),                    # more printed after the last line shown
        (["a", "b 1", "..."], True),
        (["b 1", "c", "d"], False),               # without '...' the first line is the first printed
        (["...", "c", "d"], True),
        (["a", "c", "d"], False),                 # contiguous unless elided
        (["a", "...", "d"], True),
        (["a", "...", "c", "b 1", "..."], False),  # order
        (["a", "b ...", "..."], True),            # a trailing '...' on a line is a prefix
        (["a", "x ...", "..."], False),
    ]
    bad = 0
    for shown, holds in cases:
        if (match(shown, out) is None) != holds:
            print("transcripts self-test: %r should %s" % (shown, "hold" if holds else "fail"))
            bad += 1
    t = markdown_transcripts("x.md", "```\n$ vxpeak check a \\\n    --host default\nout\n\n```\n")
    if len(t) != 1 or t[0].command != "vxpeak check a --host default" or t[0].shown != ["out"]:
        print("transcripts self-test: a continued command was read wrongly")
        bad += 1
    return bad


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        bad = self_test()
        print("transcripts self-test: %s" % ("ok" if not bad else "%d failed" % bad))
        return 1 if bad else 0
    if len(argv) != 2:
        print("usage: transcripts.py CLI", file=sys.stderr)
        return 2
    cli = os.path.abspath(argv[1])
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    cli_dir = tempfile.mkdtemp(prefix="vxpeak-bin-")
    os.symlink(cli, os.path.join(cli_dir, "vxpeak"))
    cwd = scratch_dir(root)
    os.chdir(root)
    docs = ["README.md"] + sorted(glob.glob("docs/*.md")) + sorted(
        glob.glob("fleet/README.md") + glob.glob("examples/**/README.md", recursive=True)
        + glob.glob("bindings/*/README.md"))
    transcripts, programs = [], []
    for path in docs:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        transcripts += markdown_transcripts(path, text)
        programs += c_programs(path, text)
    with open("bindings/cli/vxpeak.1", encoding="utf-8") as f:
        transcripts += man_transcripts("bindings/cli/vxpeak.1", f.read())
    passed = failed = 0
    for t in transcripts:
        why = check_transcript(t, cli_dir, cwd)
        if why:
            print("FAIL %s: $ %s\n  %s" % (t.where, t.command, why))
            failed += 1
        else:
            passed += 1
    build = os.path.dirname(cli)
    for where, source in programs:
        why = check_c_program(where, source, build, root)
        if why:
            print("FAIL %s: the C program %s" % (where, why))
            failed += 1
        else:
            passed += 1
    for where, command, want in help_examples(cli):
        status, out = run(cli_dir, cwd, command)
        if status not in want:
            print("FAIL %s: %s\n  exit status %s, expected %s\n%s" % (
                where, command, status, " or ".join(map(str, want)), "\n".join("  | " + l for l in (out or "").split("\n")[:12])))
            failed += 1
        else:
            passed += 1
    print("docs transcripts: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
