"""sims.analysis.report: the Markdown report, figures and claims.json, written atomically."""

import json
import math

import pandas as pd
import pytest
from matplotlib.figure import Figure
from matplotlib.image import imread

from sims.analysis import report
from sims.analysis.claims import Claim, Reference, Source, equal, less
from sims.analysis.report import Section, write_report

SRC = Source("Sections 87-96", "003_x.txt", "§89", "each player may, on the average, expect to make twenty-five points")


def _claim(cid="2", interval=(24.9, 25.1), **kw):
    return Claim(
        cid,
        "Twenty-five points in two deals.",
        SRC,
        "points in two deals",
        sum(interval) / 2,
        interval,
        1000,
        equal(25, 0.5, "rounds to 25"),
        **kw,
    )


def _figure():
    fig = Figure()
    fig.subplots().plot([0, 1], [1, 0])
    return fig


def _sections():
    s1 = Section(
        "2",
        "Twenty-five",
        [_claim(reference=Reference((26.3, 26.4), "Chambers")), _claim("2b", (26.2, 26.4), notes="expert")],
        text="Some words.",
        tables={"By role": pd.DataFrame({"a": [1.5], "b": ["x|y"]})},
        figures={"Points by role": _figure()},
    )
    s2 = Section(
        "7",
        "Lurches",
        [
            Claim(
                "7a",
                "Rare.",
                SRC,
                "rate",
                0.05,
                (0.04, 0.06),
                500,
                less(0.1, 0.01, "a round figure"),
                reading="rare = under 1 in 10",
                percent=True,
            )
        ],
    )
    return [s1, s2]


def _leftovers(parent):
    return [p.name for p in parent.iterdir() if p.name.startswith(".")]


def test_write_report_files_and_content(tmp_path):
    out = tmp_path / "reports"
    path = write_report(
        _sections(),
        out,
        {"seed": 1, "runs": pd.DataFrame({"n": [10]})},
        skipped=[("5", "article_discards", "needs hoyle")],
        preamble="Rule text.",
    )
    assert path == out / "report.md"
    text = path.read_text()
    for piece in [
        "# Period claims checked by simulation",
        "Rule text.",
        "## Verdicts",
        "| 2 |",
        "| 7a |",
        "## 2. Twenty-five",
        "### Claim 2b",
        "> each player may",
        "**Published**: 26.30 to 26.40",
        "**Verdict**: **not supported**",
        "x\\|y",
        "## Not run",
        "- 5. article_discards: needs hoyle",
        "## Provenance",
        "- seed: 1",
        "| n |",
        "5.0% [4.0%, 6.0%]",
        "< 10.0%",
        "| claim | statement | estimate [95% CI] | claimed | margin | verdict |",
        "| 7a | Rare. (reading: rare = under 1 in 10) | 5.0% [4.0%, 6.0%] | < 10.0% | ±1% | "
        "supported; for the claim (below 10.0%) |",
        "- **Margin**: ±0.5: rounds to 25",
        "- **Reading of the text**: rare = under 1 in 10",
        "- **Claimed**: = 25.00",
    ]:
        assert piece in text, piece
    figures = list((out / "figures").iterdir())
    assert [f.name for f in figures] == ["2-points-by-role.png"]
    assert "](figures/2-points-by-role.png)" in text
    assert figures[0].read_bytes().startswith(b"\x89PNG")
    assert imread(figures[0]).shape[1] >= 150 * 6.4  # the default 6.4-inch figure at 150 dpi or more
    data = json.loads((out / "claims.json").read_text())
    assert [c["verdict"] for c in data["claims"]] == ["supported", "not supported", "supported"]
    assert data["claims"][2]["claimed"] == {
        "relation": "<",
        "value": 0.1,
        "margin": 0.01,
        "why": "a round figure",
        "cap": None,
    }
    assert data["provenance"]["runs"] == [{"n": 10}]
    assert _leftovers(tmp_path) == []


def test_rewrite_replaces_whole_directory(tmp_path):
    out = tmp_path / "reports"
    write_report(_sections(), out)
    write_report(_sections()[1:], out)
    assert list((out / "figures").iterdir()) == []
    assert "## 2." not in (out / "report.md").read_text()
    assert _leftovers(tmp_path) == []


class _BrokenFigure:
    def savefig(self, *args, **kwargs):
        raise RuntimeError("disk full")


def test_failure_leaves_old_report_and_no_debris(tmp_path):
    out = tmp_path / "reports"
    write_report(_sections(), out)
    before = (out / "report.md").read_text()
    broken = [Section("9", "Broken", [_claim()], figures={"bad": _BrokenFigure()})]
    with pytest.raises(RuntimeError, match="disk full"):
        write_report(broken, out)
    assert (out / "report.md").read_text() == before
    assert _leftovers(tmp_path) == []
    fresh = tmp_path / "fresh"
    with pytest.raises(RuntimeError):
        write_report(broken, fresh)
    assert not fresh.exists() and _leftovers(tmp_path) == []


def test_refuses_to_replace_a_directory_that_is_not_a_report(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="refusing to replace"):
        write_report(_sections(), tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_markdown_table_index_and_floats():
    df = pd.DataFrame({"x": [1.23456, math.nan]}, index=pd.Index(["a", "b"], name="role"))
    assert report.markdown_table(df).splitlines() == ["| role | x |", "|---|---|", "| a | 1.235 |", "| b |  |"]
    assert report.markdown_table(pd.DataFrame({"y": [1]})).splitlines()[0] == "| y |"


def test_git_commit_outside_a_repository(tmp_path):
    assert report.git_commit(tmp_path) is None
    env = report.environment()
    assert {"sims", "numpy", "numba", "python"} <= set(env)
