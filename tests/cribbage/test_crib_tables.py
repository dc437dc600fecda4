"""Crib tables: shipped as package data with their sources; by self-play: exact under random throws,
consistent with the engine, iterated, written."""

from __future__ import annotations

import fnmatch
import itertools
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sims.cli import main
from sims.cribbage import crib_tables
from sims.cribbage.crib_tables import (
    RANK_LABELS,
    SOURCES,
    named_tables,
    provenance,
    reference_table,
    table_matrices,
    table_params,
)
from sims.cribbage.expectations import crib_total, crib_ways, unseen_counts
from sims.cribbage.lab.crib_self_play import iterate_tables, self_play_tables, write_table
from sims.cribbage.lab.crib_tables import compare_tables
from sims.cribbage.policies.discard import expected_net_policy
from sims.cribbage.simulate import simulate_deals

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "sims" / "cribbage" / "data"


def test_shipped_tables_by_name():
    assert set(named_tables()) == set(SOURCES) == {"schell", "hessel", "self_play"}
    for name, values in named_tables().items():
        assert values == tuple(table_params(reference_table(name))), name
    schell = reference_table("schell")
    assert len(schell) == 182 and set(schell.source) == {"schell"} and set(schell.to_whom) == {"dealer", "pone"}
    five_five = schell[(schell.card1_rank == "5") & (schell.card2_rank == "5")].set_index("to_whom")
    assert five_five["expected_crib_points"].to_dict() == {"dealer": 8.79, "pone": 9.37}
    self_play = reference_table("self_play")
    assert len(self_play) == 182 and {"se", "n"} <= set(self_play.columns) and self_play.n.dtype.kind == "i"


def test_each_table_keeps_its_source_beside_it():
    published = (DATA / "crib_discard_tables.csv").read_text()
    assert "Michael Schell" in published and "Craig Hessel" in published
    assert "provenance in six_card_self_play.json" in (DATA / "six_card_self_play.csv").read_text()
    meta = provenance("self_play")["provenance"]
    assert (meta["rules"], meta["seed"], meta["n_deals"], meta["start"]) == ("six-card", 1, 2_000_000, "schell")
    assert meta["file"] == "six_card_self_play.csv" and meta["iterations"] == len(meta["history"])
    assert provenance("hessel") == {
        "name": "hessel",
        "title": crib_tables.TITLES["hessel"],
        "file": "sims/cribbage/data/crib_discard_tables.csv",
    }
    assert "sims/cribbage/data" in (ROOT / "data" / "reference" / "README.md").read_text()


def test_read_from_the_package_away_from_the_checkout(tmp_path):
    # The package alone, as a wheel installs it, run from another directory: the tables come from its data.
    shutil.copytree(ROOT / "sims", tmp_path / "site" / "sims", ignore=shutil.ignore_patterns("__pycache__"))
    script = (
        "import json, sims.cribbage.crib_tables as t; "
        "print(json.dumps([t.__file__, t.named_tables(), t.provenance('self_play')['provenance']['seed']]))"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site"), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, check=True, capture_output=True, text=True
    ).stdout
    where, tables, seed = json.loads(out)
    assert Path(where).is_relative_to(tmp_path / "site")
    assert {name: tuple(v) for name, v in tables.items()} == named_tables() and seed == 1


def test_package_data_is_declared_for_the_wheel():
    # pyproject.toml must ship the tables, their provenance and their README in the wheel (package-data).
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    package_data = config.get("tool", {}).get("setuptools", {}).get("package-data", {})
    patterns = [("sims/cribbage/", p) for p in package_data.get("sims.cribbage", [])]
    patterns += [("sims/", p) for p in package_data.get("sims", [])]
    patterns += [(prefix, p) for prefix in ("sims/", "sims/cribbage/") for p in package_data.get("*", [])]
    files = {name for name, _ in crib_tables.SOURCES.values()} | {"six_card_self_play.json", "README.md"}
    for path in sorted(DATA / f for f in files):
        assert path.is_file(), path
        name = path.relative_to(ROOT).as_posix()
        assert any(name.startswith(prefix) and fnmatch.fnmatch(name[len(prefix) :], p) for prefix, p in patterns), (
            f"{name} is not in [tool.setuptools.package-data]"
        )


def test_unknown_source():
    with pytest.raises(ValueError, match="unknown crib table source 'nobody'; choose from schell, hessel, self_play"):
        reference_table("nobody")


def _exact_random_crib(a, b):
    """Expected crib when ranks a, b are thrown and everything else is random: the other two crib cards
    and the starter are a uniform draw from the 50 cards left, each suit assignment of the pair equally
    likely (random throws)."""
    pairs = [(x, y) for x in range(4 * a, 4 * a + 4) for y in range(4 * b, 4 * b + 4) if x != y]
    total = 0.0
    for x, y in pairs:
        thrown = np.array([x, y], dtype=np.int64)
        ranks, suits, jacks, n_pool = unseen_counts(thrown)
        total += crib_total(thrown, 2, ranks, suits, jacks, n_pool, False) / crib_ways(2, n_pool)
    return total / len(pairs)


def test_random_throws_match_the_exact_expectation():
    # Random discards: every entry is the exact expectation; 40,000 deals, so about 1,200 throws of each
    # offsuit pair and 180 of each pair of one rank by each role.  Seeded; |z| < 4.5 over 182 entries
    # and the mean z^2 near 1 (chi-square with 182 degrees of freedom: 0.75..1.3 is far beyond 3 sigma).
    table = self_play_tables("six-card", {"discard": "random"}, n_deals=40_000, seed=4)
    exact = {(a, b): _exact_random_crib(a, b) for a, b in itertools.combinations_with_replacement(range(13), 2)}
    want = [exact[RANK_LABELS.index(r1), RANK_LABELS.index(r2)] for r1, r2 in zip(table.card1_rank, table.card2_rank)]
    z = (table["expected_crib_points"] - want) / table["se"]
    assert np.abs(z).max() < 4.5
    assert 0.75 < float((z**2).mean()) < 1.3
    assert exact[4, 4] == pytest.approx(_exact_random_crib(4, 4)) and 8 < exact[4, 4] < 9  # two fives


def test_the_crib_totals_are_the_engines():
    # The same deals and throws as simulate_deals with the same seed: the table's crib total is the
    # engine's dealer crib total, exactly.
    n = 5_000
    table = self_play_tables("six-card", {"discard": "expected_net"}, n_deals=n, seed=9)
    result = simulate_deals("six-card", {"discard": "expected_net", "peg": "random"}, n, seed=9)
    crib = result.table().set_index(["role", "component"]).loc[("dealer", "crib"), "mean"]
    for who in ("dealer", "pone"):
        rows = table[(table.to_whom == who) & (table.n > 0)]
        assert int(rows.n.sum()) == n
        assert (rows.expected_crib_points * rows.n).sum() == pytest.approx(crib * n, abs=1e-6)


def test_dealer_five_five_near_schell():
    # Expected-net self-play: the dealer's crib after laying out two fives is Schell's 8.79 within 4 se.
    table = self_play_tables("six-card", None, n_deals=100_000, seed=1)
    row = table[(table.card1_rank == "5") & (table.card2_rank == "5") & (table.to_whom == "dealer")].iloc[0]
    assert row.n > 300 and abs(row.expected_crib_points - 8.79) < 4 * row.se


def test_iteration_history_and_fixed_point():
    table, history = iterate_tables("six-card", n_deals=20_000, seed=2, iterations=2, tol=0.0)
    assert list(history.iteration) == [1, 2] and (history.max_abs_change >= history.mean_abs_change).all()
    assert table.attrs["provenance"]["iterations"] == 2 and np.isfinite(table_params(table)).all()
    # Shrunk entirely to the previous table, a round changes nothing: the iteration stops at once.
    same, history = iterate_tables("six-card", n_deals=2_000, seed=2, iterations=5, tol=1e-9, prior_deals=1e15)
    assert list(history.max_abs_change) == [pytest.approx(0, abs=1e-9)]
    assert np.allclose(table_params(same), table_params(reference_table("schell")))


def test_written_with_provenance_and_usable_as_a_policy(tmp_path):
    table, _ = iterate_tables("six-card", n_deals=5_000, seed=3, iterations=1)
    csv, sidecar = write_table(table, tmp_path / "tables" / "mine.csv")
    meta = json.loads(sidecar.read_text())
    assert meta["rules"] == "six-card" and meta["seed"] == 3 and meta["n_deals"] == 5_000
    assert meta["iterations"] == 1 and meta["start"] == "schell" and meta["file"] == "mine.csv"
    back = pd.read_csv(csv, comment="#", dtype={"card1_rank": str, "card2_rank": str})
    assert len(back) == 2 * 91 and {"se", "n"} <= set(back.columns)
    assert np.allclose(table_params(back), table_params(table), atol=1e-4)
    expected_net_policy(back)


def test_compare_tables():
    schell, hessel = reference_table("schell"), reference_table("hessel")
    assert (compare_tables(schell, schell)["difference"] == 0).all()
    diff = compare_tables(hessel, schell)
    assert len(diff) == 182 and (np.diff(diff.difference.abs()) <= 0).all()
    first = diff.iloc[0]
    mats = table_matrices(hessel)
    i, j = RANK_LABELS.index(first.card1_rank), RANK_LABELS.index(first.card2_rank)
    assert first.value == mats[first.to_whom][i, j]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: self_play_tables("four-hand", n_deals=10), "four-hand has 4 players"),
        (lambda: self_play_tables("three-hand", n_deals=10), "three-hand has 3 players"),
        (lambda: self_play_tables("six-card", n_deals=0), "positive integer"),
        (lambda: self_play_tables("six-card", {"discard": "nope"}, n_deals=10), "unknown discard policy"),
        (lambda: iterate_tables("six-card", n_deals=10, iterations=0), "iterations must be"),
        (lambda: iterate_tables("six-card", n_deals=10, tol=-1), "tol must be"),
        (lambda: iterate_tables("six-card", start="nobody", n_deals=10), "unknown crib table source"),
        (lambda: write_table(reference_table("schell"), "table.txt"), "must end in .csv"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_cli(tmp_path, capsys):
    out = tmp_path / "t.csv"
    assert main(["crib-tables", "--deals", "4000", "--iterate", "2", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "round 2: largest change" in text and "against schell: mean absolute difference" in text
    assert out.exists() and out.with_suffix(".json").exists()
    assert main(["crib-tables", "--deals", "3000", "--compare", "hessel", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["compare"]["source"] == "hessel" and len(result["table"]) == 182
    assert set(result["compare"]["mean_abs_difference"]) == {"dealer", "pone"}


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--rules", "four-hand"], "four-hand has 4 players"),
        (["--deals", "-5"], "positive integer"),
        (["--compare", "nobody"], "unknown crib table source"),
        (["--discard", "nope"], "unknown discard policy"),
    ],
)
def test_cli_errors(capsys, argv, message):
    assert main(["crib-tables", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("sims crib-tables: error:")
