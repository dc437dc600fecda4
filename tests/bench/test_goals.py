"""The goals benchmark (sims.bench.goals) at tiny sizes: a row per figure of issue 36 with its goal, the load and
the run's OpenSpiel baseline; the figures the games' benchmarks add through ``GOALS`` and the baseline one declares
as ``OPENSPIEL``; the benchmarks found through their entry points, a broken one reported; the performance page led
by its table.  No speed is asserted: the machine may be loaded."""

import json
import types
from importlib.metadata import EntryPoint

import pytest

from sims import bench
from sims.allfours.bench import expert
from sims.bench import PAGE_BEGIN, PAGE_END, goals, write_page
from sims.cribbage.bench import engine, startup
from sims.loo import bench as loo

# One worker runs the module, so the figures of ``rows`` are measured once, not once a worker (about 12 s each).
pytestmark = pytest.mark.xdist_group("bench-goals")

TINY = goals.Baseline(openspiel=1_000.0, runs=1, games=300, search_deals=40, before=None)
COLUMNS = ("what", "figure", "unit", "goal", "meets", "load (1 min)", "OpenSpiel games/s")


@pytest.fixture(scope="module")
def rows():
    """The table's figures at tiny sizes, but the All Fours expert's (it runs at its full size, the report's
    agreement run, about 17 CPU seconds; its place in the table is tested below)."""
    return [row for figure in goals.figures() if figure is not expert.expert_goal for row in figure(TINY)]


def test_the_table_gathers_every_games_goals_and_ends_with_make_run():
    table = goals.figures()
    assert {startup.first_game, engine.random_games, loo.expert_goal, expert.expert_goal} <= set(table)
    assert table[-len(goals.FIGURES) :] == goals.FIGURES == [goals.make_run]


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


def test_the_search_players_are_timed_beside_the_issues_start_when_its_code_can_run(monkeypatch):
    """With a commit to time (:mod:`sims.bench.before`), the Loo expert's figure is its CPU seconds then over now,
    the same program run on both codes; without one, its share of greedy's deals/s against the recorded share."""
    asked = []

    def same_run(program, commit):
        asked.append((program, commit))
        return (12.0, 1.5)

    monkeypatch.setattr(loo, "same_run", same_run)
    (row,) = loo.expert_goal(goals.Baseline(openspiel=1_000.0, search_deals=40, before="abc1234"))
    assert row["figure"] == 8.0 and row["unit"] == "x abc1234 (same run)" and row["meets"] == "no"
    assert (row["cpu s before"], row["cpu s"]) == (12.0, 1.5) and row["goal"] == ">= 10"
    ((program, commit),) = asked
    assert commit == "abc1234" and 'simulate_deals("five-card-pam", policies, 40, seed=1, threads=1)' in program
    monkeypatch.setattr(loo, "same_run", lambda program, commit: None)
    (row,) = loo.expert_goal(goals.Baseline(openspiel=1_000.0, search_deals=40, before="abc1234"))
    assert row["unit"] == "share" and row["figure"] == row["deals/s"] / row["greedy deals/s"]
    assert goals.Baseline(openspiel=None).before == goals.ISSUE_START


def test_without_openspiel_there_is_no_ratio():
    (whole, kernel) = engine.random_games(goals.Baseline(openspiel=None, games=50))
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
    assert goals.figures() == [expert_decisions] + goals.FIGURES


def test_the_baseline_is_the_one_a_benchmark_declares(monkeypatch):
    assert goals.openspiel_rate.__module__ == "sims.bench.goals" and engine.OPENSPIEL is not None
    declaring = types.SimpleNamespace(NAME="engine", run=list, OPENSPIEL=lambda: 1234.5)
    monkeypatch.setattr(bench, "benchmarks", lambda: ({"engine": declaring, "other": types.SimpleNamespace()}, {}))
    assert goals.openspiel_rate() == 1234.5
    monkeypatch.setattr(bench, "benchmarks", lambda: ({}, {}))
    assert goals.openspiel_rate() is None


def test_the_benchmarks_are_the_entry_points_and_a_broken_one_is_reported(monkeypatch, capsys):
    """Each game's benchmarks live with the game and are found through the entry points ``sims.benchmarks``; one that
    cannot be imported is reported by name, never left out in silence."""
    found, broken = bench.benchmarks()
    assert broken == {}
    assert {"goals", "memory", "engine", "startup", "allfours_expert", "loo"} <= set(found)
    assert found["engine"] is engine and found["loo"] is loo and found["goals"] is goals
    entries = [
        EntryPoint("ghost", "no_such_module_xyz.bench", "sims.benchmarks"),
        EntryPoint("goals", "sims.bench.goals", "sims.benchmarks"),
    ]
    monkeypatch.setattr(bench, "benchmark_entries", lambda: entries)
    found, broken = bench.benchmarks()
    assert list(found) == ["goals"] and list(broken) == ["ghost"]
    assert broken["ghost"].startswith("ModuleNotFoundError: ") and "no_such_module_xyz" in broken["ghost"]
    with pytest.raises(SystemExit) as stop:
        bench.main(["nothing"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == (
        "python -m sims.bench: error: unknown benchmark 'nothing' (known: goals; not importable: ghost)\n"
    )


def test_the_page_opens_with_the_goals_table(tmp_path, rows):
    page = tmp_path / "performance.md"
    page.write_text(f"# Performance\n\n{PAGE_BEGIN}\nold\n{PAGE_END}\n")
    write_page(page, {"engine": [{"what": "deals", "deals/s": 5.0}], "goals": rows}, when="now", on="here")
    measured = page.read_text().split(PAGE_BEGIN)[1]
    assert measured.index("### goals") < measured.index("### engine")
    assert all(column in measured for column in COLUMNS) and "x OpenSpiel" in measured
