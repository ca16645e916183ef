#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# compare.py PEAKS MEASURED.json STATUS - one generated program's GPU run against the
# analysis, under tests/codegen/peakcmp.c's rule: per (function, space), and for the run's
# high-water mark per space against main's call-tree total, measured == static where the
# report states the rule "equal" (straight-line, or every branch places the same tiles),
# measured <= static where it states "at_most" with its reasons, and never a byte above;
# nothing live at exit, no activation leaving with tiles, and cudaMemGetInfo's used bytes
# at the device high-water mark equal to that mark within the allocator's rounding. Prints
# one block of figures; exit 1 on any failure. Standard library only (the GPU machine's
# python3).
import json
import sys

ROUNDING = 2 << 20  # the CUDA driver maps device memory in 2 MiB pages
REASONS = {"match-arms", "branch", "loop-trips", "early-exit", "call-not-taken", "not-called"}


def rule_problem(what, rule_obj, got, want):
    """None when `got` keeps the rule stated in `rule_obj` against `want`, else why not."""
    rule, reasons = rule_obj.get("rule"), rule_obj.get("reasons")
    if rule not in ("equal", "at_most") or not isinstance(reasons, list) or \
            not set(reasons) <= REASONS or (rule == "at_most") != bool(reasons):
        return f"{what}: no valid rule stated ({rule}, {reasons})"
    if got is None:
        return f"{what}: not measured"
    if got > want:
        return f"{what}: measured {got}, {got - want} bytes above static {want}"
    if rule == "equal" and got != want:
        return f"{what}: measured {got}, static {want}, rule equal"
    return None


def rule_text(rule_obj):
    if rule_obj.get("rule") == "equal":
        return "equal"
    return "at most: " + ", ".join(rule_obj.get("reasons", []))


def main():
    peaks_file, measured_file, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
    static = {}
    totals = {}  # space -> main's call-tree total: the whole run's high-water mark there
    with open(peaks_file) as f:
        for line in f:
            # A generic instance's name has spaces ("stage<1024, f32>"): the space and
            # the bytes are the last two words, the function is the rest.
            fn, space, nbytes = line.rstrip("\n").rsplit(" ", 2)
            if fn == "total main":
                totals[space] = int(nbytes)
                continue
            static[(fn, space)] = int(nbytes)
    try:
        with open(measured_file) as f:
            report = json.loads(f.read())
    except (OSError, ValueError) as e:
        print(f"FAIL {measured_file}: no report ({e}); exit status {status}")
        return 1
    name = report.get("program")
    problems = []
    measured = {}
    rules = {}
    for fn in report["functions"]:
        rules[fn["function"]] = fn
        for sp in fn["spaces"]:
            measured[(fn["function"], sp["space"])] = sp["high_water_bytes"]
    for key, want in sorted(static.items()):
        fn = rules.get(key[0])
        got = measured.get(key, 0 if fn is not None else None)
        rule = fn if fn is not None else {}
        print(f"  {name} {key[0]}/{key[1]}: measured {got} bytes, static peak {want} bytes "
              f"({rule_text(rule)})")
        p = rule_problem(f"{key[0]}/{key[1]}", rule, got, want)
        if p:
            problems.append(p)
    for key, got in measured.items():
        if got and key not in static:
            problems.append(f"{key[0]}/{key[1]} measured {got} bytes with no static peak")
    for sp in report["spaces"]:
        if sp["live_at_exit_bytes"]:
            problems.append(f"{sp['space']}: {sp['live_at_exit_bytes']} bytes live at exit")
        if sp.get("host"):
            continue
        want = totals.get(sp["space"], 0)
        run = report.get("run", {})
        print(f"  {name} run/{sp['space']}: high-water {sp['high_water_bytes']} bytes, "
              f"main's call-tree total {want} bytes ({rule_text(run)})")
        p = rule_problem(f"run/{sp['space']}", run, sp["high_water_bytes"], want)
        if p:
            problems.append(p)
    if report["frame_leaks"]:
        problems.append(f"{report['frame_leaks']} activations left holding tiles")
    dev = report["device"]
    mi = report.get("meminfo")
    if mi is None:
        problems.append("cudaMemGetInfo did not answer")
    else:
        used, high = mi["used_at_high_water_bytes"], dev["high_water_bytes"]
        slack = (dev["live_allocations_at_high_water"] + 1) * ROUNDING
        print(f"  {name} device: high-water {high} bytes in "
              f"{dev['live_allocations_at_high_water']} allocations; cudaMemGetInfo used "
              f"{used} bytes at that point (difference {used - high}, allowed {slack}); "
              f"free before {mi['free_before_bytes']}, after {mi['free_after_bytes']}")
        if abs(used - high) > slack:
            problems.append(f"cudaMemGetInfo used {used} vs high-water {high}: beyond {slack}")
    if status not in (0, 4) or (status == 4 and not problems):
        problems.append(f"exit status {status}")
    if problems:
        print(f"FAIL {name}: " + "; ".join(problems))
        return 1
    print(f"PASS {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
