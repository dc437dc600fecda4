"""The goals benchmark (sims.bench.goals) at tiny sizes: a row per figure of issue 36 with its goal, the load and
the run's OpenSpiel baseline; the figures other benchmarks add through ``GOALS``; the performance page led by its
table.  No speed is asserted: the machine may be loaded."""

import json
import types

import pytest

from sims import bench
from sims.bench import PAGE_BEGIN, PAGE_END, goals, write_page

TINY = goals.Baseline(openspiel=1_000.0, runs=1, games=300, loo_deals=40)
COLUMNS = ("what", "figure", "unit", "goal", "meets", "load (1 min)", "OpenSpiel games/s")


@pytest.fixture(scope="module")
def rows():
    """The table's own figures at tiny sizes (the other benchmarks' GOALS run at their full size: the All Fours
    expert's is the report's agreement run, about 17 CPU seconds; their hook is tested below)."""
    return [row for figure in goals.FIGURES for row in figure(TINY)]


def test_every_figure_of_the_issue_has_a_row_with_its_goal_load_and_baseline(rows):
    assert all(set(COLUMNS) <= set(row) for row in rows)
    goal = {row["what"].split(":")[0].split(",")[0]: row["goal"] for row in rows}
    assert goal["sims play --rules six-card --discard random --peg random --games 1"] == "<= 0.6"
    assert goal["sims simulate --deals 1"] == "<= 0.6"
    assert goal["sims play --rules six-card --discard random --peg random --games 300 --json"] == ">= 20"
    assert goal["play_games six-card random"] == ">= 25"
    assert goal["Loo five-card-pam"].startswith(">= 0.142")
    assert {row["OpenSpiel games/s"] for row in rows} == {1_000.0}
    assert all(row["meets"] in ("yes", "no", "-") and row["load (1 min)"] >= 0 for row in rows)


def test_the_ratios_are_rates_over_the_baseline_of_the_same_run(rows):
    for row in rows:
        if row["unit"] == "x OpenSpiel":
            assert row["figure"] == row["games/s"] / 1_000.0
            assert row["meets"] == ("yes" if row["figure"] >= float(row["goal"].split()[-1]) else "no")


def test_without_openspiel_there_is_no_ratio():
    (whole, kernel) = goals.random_games(goals.Baseline(openspiel=None, games=50))
    assert whole["figure"] == kernel["figure"] == "-" and whole["meets"] == "-"
    assert whole["OpenSpiel games/s"] == "not installed" and whole["games/s"] > 0


def test_make_run_is_read_from_the_last_runs_details(tmp_path):
    path = tmp_path / "run.json"
    assert goals.make_run(TINY, path)[0]["figure"] == "-"
    path.write_text(json.dumps({"generated": "2026-12-06 06:43 UTC", "wall time (s)": 194.2}))
    (row,) = goals.make_run(TINY, path)
    assert row["figure"] == 194.2 and row["meets"] == "no" and "2026-12-06 06:43 UTC" in row["what"]


def test_another_benchmark_adds_its_figures_through_goals(monkeypatch):
    def expert_decisions(baseline):
        return [{"what": "All Fours expert decisions", "figure": 1.0}]

    other = types.SimpleNamespace(NAME="other", run=list, GOALS=[expert_decisions])
    monkeypatch.setattr(bench, "benchmarks", lambda: ({"other": other}, {}))
    assert goals.figures() == goals.FIGURES + [expert_decisions]


def test_the_page_opens_with_the_goals_table(tmp_path, rows):
    page = tmp_path / "performance.md"
    page.write_text(f"# Performance\n\n{PAGE_BEGIN}\nold\n{PAGE_END}\n")
    write_page(page, {"engine": [{"what": "deals", "deals/s": 5.0}], "goals": rows}, when="now", on="here")
    measured = page.read_text().split(PAGE_BEGIN)[1]
    assert measured.index("### goals") < measured.index("### engine")
    assert all(column in measured for column in COLUMNS) and "x OpenSpiel" in measured
