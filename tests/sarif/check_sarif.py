# SPDX-License-Identifier: Apache-2.0
"""check_sarif.py SCHEMA OUT_DIR - validate vxpeak's SARIF logs (written by run.sh into
OUT_DIR) against the SARIF 2.1.0 schema, then check what a schema cannot."""

import json
import sys
from pathlib import Path

import jsonschema

schema_path, out = Path(sys.argv[1]), Path(sys.argv[2])
schema = json.loads(schema_path.read_text())
assert schema["id"].endswith("/sarif-schema-2.1.0.json"), schema["id"]
validator = jsonschema.Draft4Validator(schema)
failures = 0
passed = 0


def check(name, condition, what):
    global failures, passed
    if condition:
        passed += 1
    else:
        failures += 1
        print("FAIL sarif/%s: %s" % (name, what))


logs = {}
for path in sorted(out.glob("*.sarif")):
    name = path.stem
    log = json.loads(path.read_text())
    logs[name] = log
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    check(name, not errors, "schema: " + "; ".join(
        "%s at %s" % (e.message, "/".join(map(str, e.path))) for e in errors[:5]))
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    check(name, len(ids) == len(set(ids)), "rule ids are unique")
    check(name, all(r["shortDescription"]["text"] and r["help"]["text"] for r in rules),
          "every rule has a description and help")
    for res in run["results"]:
        rule = rules[res["ruleIndex"]]
        check(name, rule["id"] == res["ruleId"], "ruleIndex %d names %s" % (res["ruleIndex"], res["ruleId"]))
        check(name, "vxpeakDiagnostic/v1" in res["partialFingerprints"], "a fingerprint")
        for loc in res.get("locations", []):
            region = loc["physicalLocation"]["region"]
            uri = loc["physicalLocation"]["artifactLocation"]["uri"]
            if uri.startswith("file://"):
                uri = uri[len("file://"):]
            base = out / "edited" if name.endswith("-edited") else Path(".")
            data = (base / uri).read_bytes()
            flagged = data[region["byteOffset"]:region["byteOffset"] + region["byteLength"]]
            check(name, flagged.decode("utf-8") == region["snippet"]["text"],
                  "the region's bytes are its snippet")
            line = data.split(b"\n")[region["startLine"] - 1].decode("utf-8")
            check(name, line.encode("utf-16-le")[(region["startColumn"] - 1) * 2:].decode(
                "utf-16-le").startswith(region["snippet"]["text"].split("\n")[0]),
                  "startColumn %d counts UTF-16 units on line %d" % (region["startColumn"],
                                                                     region["startLine"]))


def results(name):
    return logs[name]["runs"][0]["results"]


check("clean", results("clean") == [], "a clean program has no results")
[e6010] = [r for r in results("unrolled") if r["ruleId"] == "E6010"]
check("unrolled", "move this placement into the loop body" in e6010["message"]["text"],
      "the help lines are in the message")
check("unrolled", any(rl["message"]["text"].startswith("help: if each of scratch0")
                      for rl in e6010.get("relatedLocations", [])),
      "located help is a related location")
llama = results("llama-batch9")
check("llama-batch9", [r["ruleId"] for r in llama] == ["E6010"], "one E6010")
text = llama[0]["message"]["text"]
for needle in ("layer weights: 32 tiles live at the peak", "46204452864 bytes",
               "--const BATCH=1..9", "declare the space `overcommit`"):
    check("llama-batch9", needle in text, "the message says %r" % needle)
uris = [a["location"]["uri"] for a in logs["llama-batch9"]["runs"][0]["artifacts"]]
check("llama-batch9", uris == ["examples/llama2/prefill.vx", "fleet/a100-40.vx"],
      "artifacts: the program and the machine file (%s)" % uris)
broken = {r["ruleId"] for r in results("broken")}
check("broken", {"VXP0001", "E6009", "W1029"} <= broken, "syntax and capacity results")
before = [r["partialFingerprints"]["vxpeakDiagnostic/v1"] for r in results("unrolled")]
after = [r["partialFingerprints"]["vxpeakDiagnostic/v1"] for r in results("unrolled-edited")]
check("unrolled-edited", before == after, "fingerprints survive an edit elsewhere")
lines = [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results("unrolled-edited")]
check("unrolled-edited", lines == [81 + 3], "while the region moves (%s)" % lines)
print("sarif: %d passed, %d failed" % (passed, failures))
sys.exit(1 if failures else 0)
