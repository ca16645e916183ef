#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""peak.py - analyse one Vx program on one machine and print the peak of every function in
every memory space, with the tiles live at the peak (the Python twin of examples/c/peak.c,
printing the same lines).

    python3 peak.py PROGRAM.vx [MACHINE.vx | BUILTIN]

Without a machine the program's own Memory/Topology declarations are used; BUILTIN is a
machine compiled into the library ("a100-40"), used with the built-in default host.
Needs the vxpeak package (pip install ./bindings/python) and libvxpeak.
"""

import sys

import vxpeak


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: peak.py PROGRAM.vx [MACHINE.vx | BUILTIN]", file=sys.stderr)
        return 2
    try:
        with vxpeak.Context() as ctx:
            program = ctx.parse(ctx.load(argv[1]))
            machine = host = None
            if len(argv) == 3:
                name = argv[2]
                is_file = "/" in name or name.endswith(".vx")
                machine = ctx.machine(name) if is_file else ctx.builtin_machine(name)
                host = ctx.builtin_machine("host-default")
            analysis = ctx.analyze(program, machine=machine, host=host)

            records = analysis.records
            for rs in analysis.resident_sets:
                print("%s in %s: peak %d of %d bytes (%.1f%%)"
                      % (rs.function, rs.space, rs.peak_bytes, rs.capacity_bytes,
                         100.0 * rs.utilization))
                for rec in records:
                    if rec.live_at_peak and (rec.function, rec.space) == (rs.function, rs.space):
                        print("  %-12s %10d bytes  line %d, depth %d"
                              % (rec.binding or "(unbound)", rec.bytes,
                                 rec.span.start_line + 1, rec.scope_depth))
            print("%s (%d errors, %d warnings)"
                  % ("admitted" if analysis.admitted else "rejected",
                     analysis.error_count, analysis.warning_count))
            return 0 if analysis.admitted else 1
    except vxpeak.VxpeakError as err:
        print("peak.py: %s" % err, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
