# SPDX-License-Identifier: Apache-2.0
"""test_notebook.py - results show themselves in Jupyter, convert to pandas DataFrames, and
the example notebook (examples/python/llama2_fit.ipynb) runs headless with the figures of
the blog post in its outputs."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

import vxpeak


def prefill(ctx: vxpeak.Context, root: Path) -> vxpeak.Analysis:
    program = ctx.parse(ctx.load(root / "examples" / "llama2" / "prefill.vx"))
    return ctx.analyze(
        program,
        machine=ctx.builtin_machine("a100-40"),
        host=ctx.builtin_machine("host-default"),
    )


def test_an_analysis_shows_its_verdict_and_peaks_as_html(ctx: vxpeak.Context, root: Path) -> None:
    page = prefill(ctx, root)._repr_html_()
    assert ">admitted</b>: 0 errors, 0 warnings" in page
    assert "17,112,760,320" in page  # main's HBM peak
    assert "42,949,672,960" in page  # the A100-40's capacity


def test_a_rejected_analysis_shows_its_diagnostics(ctx: vxpeak.Context, root: Path) -> None:
    program = ctx.parse(ctx.load(root / "examples" / "blog" / "unrolled.vx"))
    page = ctx.analyze(program)._repr_html_()
    assert ">rejected</b>" in page
    assert "error[E6010]" in page


def test_records_become_a_dataframe_with_one_row_per_tile(ctx: vxpeak.Context, root: Path) -> None:
    analysis = prefill(ctx, root)
    frame = analysis.to_dataframe("records")
    assert list(frame.columns) == [f.name for f in dataclasses.fields(vxpeak.Record)]
    assert len(frame) == len(analysis.records)
    live = frame[(frame.function == "main") & frame.live_at_peak]
    assert int(live["bytes"].sum()) == 17_112_760_320


def test_routes_and_resident_sets_become_dataframes(ctx: vxpeak.Context, root: Path) -> None:
    analysis = prefill(ctx, root)
    routes = analysis.to_dataframe("routes")
    assert len(routes) == len(analysis.routes)
    assert set(routes["path"]) == {"CPU_DRAM -> HBM"}
    sets = analysis.to_dataframe("resident_sets")
    assert sorted(sets["function"]) == sorted(rs.function for rs in analysis.resident_sets)
    with pytest.raises(vxpeak.InvalidArgument, match="choose one of"):
        analysis.to_dataframe("tiles")


def test_a_sweep_shows_itself_and_becomes_a_dataframe(ctx: vxpeak.Context, root: Path) -> None:
    program = ctx.parse(ctx.load(root / "examples" / "llama2" / "prefill.vx"))
    sweep = ctx.sweep(
        program, "BATCH", 1, 16,
        machine=ctx.builtin_machine("a100-40"), host=ctx.builtin_machine("host-default"),
    )
    assert sweep.largest is not None and sweep.largest.value == 8
    assert "that fits: <b>8</b>" in sweep._repr_html_()
    frame = sweep.to_dataframe()
    assert list(frame["value"]) == [p.value for p in sweep.points]
    assert list(frame["fits"]) == [p.fits for p in sweep.points]


def test_a_plot_is_the_commands_svg_and_shows_itself(ctx: vxpeak.Context, root: Path) -> None:
    analysis = prefill(ctx, root)
    plot = analysis.plot(function="main")
    assert plot._repr_svg_() == plot.svg
    assert 'data-peak-bytes="17112760320"' in plot.svg
    command = subprocess.run(
        [sys.executable, "-m", "vxpeak", "plot", str(root / "examples" / "llama2" / "prefill.vx"),
         "--function", "main", "--machine", "a100-40", "--host", "default", "-o", "-"],
        capture_output=True, text=True, check=False,
    )
    assert command.returncode == 0, command.stderr
    # The same picture, but for the first line (the command names the file by the path it
    # was given and the machine as it loaded it; the library by the source's label).
    def body(svg: str) -> str:
        return re.sub(r'<text x="86.0" y="24" class="sub">.*</text>\n', "", svg)

    assert body(plot.svg) == body(command.stdout)
    assert body(plot.svg) != plot.svg
    with pytest.raises(vxpeak.NotFound, match="nothing to plot"):
        analysis.plot(function="nope")


def test_without_pandas_the_error_says_how_to_get_it(
    ctx: vxpeak.Context, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` now fails
    with pytest.raises(ImportError, match="pip install pandas"):
        prefill(ctx, root).to_dataframe()
    # Everything else works without it.
    assert "admitted" in prefill(ctx, root)._repr_html_()


def test_the_example_notebook_runs_and_shows_the_blog_figures(root: Path) -> None:
    import nbclient
    import nbformat

    notebook = nbformat.read(root / "examples" / "python" / "llama2_fit.ipynb", as_version=4)
    nbclient.NotebookClient(
        notebook, timeout=120, kernel_name="python3",
        resources={"metadata": {"path": str(root / "examples" / "python")}},
    ).execute()
    text = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            text.append(output.get("text", "") + data.get("text/html", "") +
                        data.get("text/plain", ""))
    shown = "\n".join(text)
    assert "peak 17,112,760,320 bytes of 42,949,672,960; sum over the run 63,271,075,840" in shown
    assert ">admitted</b>" in shown
    # The largest batch per device (the same figures `vxpeak sweep` prints).
    for machine, batch in (("a100-40", 8), ("h100-sxm", 18), ("h200", 35)):
        assert re.search(r"<td>%s</td>\s*<td>%d</td>" % (machine, batch), shown), machine
    assert "largest <code>BATCH</code> that fits: <b>35</b>" in shown
    svgs = [o["data"]["image/svg+xml"] for c in notebook.cells for o in c.get("outputs", [])
            if "image/svg+xml" in o.get("data", {})]
    assert len(svgs) == 1 and 'data-peak-bytes="17112760320"' in svgs[0]
