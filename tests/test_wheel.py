"""The package runs anywhere: built as a wheel, installed into a fresh virtual environment and used from a
directory outside the checkout (reference tables from package data, nothing read from the checkout's data/).

The first environment reaches the project environment's third-party packages through a ``.pth`` line (so the
test installs nothing from the network); ``sims`` itself comes only from the wheel.  Two more install the wheel as
a user would, by uv from its cache: without extras (no Dask) and with the extra ``cluster`` (``sims run
--workers``).  The distribution is
called period-card-sims (``sims`` on the package index is another project); it installs the one top-level
package ``sims``, the checkout's analysis/ inside it as ``sims.analysis``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.xdist_group("wheel")  # one worker builds and installs the wheel, once


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    base = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(base / "dist"), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    wheel = next((base / "dist").glob("period_card_sims-*.whl"))
    env = base / "venv"
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "project-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    outside = base / "elsewhere"
    outside.mkdir()
    return env, outside, wheel


def sims(installed, *args, timeout=900):
    """``sims ARGS`` from the wheel, in a directory outside the checkout.  The kernel cache is the user's: a
    kernel is cached by the sources its module reaches, so the wheel's copies of the checkout's sources load
    what the checkout compiled (the first-run tests compile into empty caches)."""
    env, outside, _ = installed
    return subprocess.run(
        [str(env / "bin" / "python"), "-m", "sims", *args],
        cwd=outside,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=away(),
    )


def away() -> dict:
    """This process's environment without a PYTHONPATH or virtual environment that would lead back to the checkout."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


# What the tests below ask of the installed package in Python, asked in one process of the fresh environment
# (each process pays its start and its imports, most of a second): the order is the tests' own.
PROBE = """
import json, sys
import sims.analysis.claims as claims
try:
    import analysis
    analysis_missing = False
except ImportError:
    analysis_missing = True
import sims, sims.cribbage.crib_tables as crib_tables
from sims.cribbage.odds.layout import PLAYERS
from sims.cribbage.odds.table import shipped_table
from sims.cribbage.policies import position_vectors
from sims.core.record import example
json.dump({"claims": claims.__file__, "analysis_missing": analysis_missing, "sims": sims.__file__,
           "schell_rows": int(crib_tables.reference_table("schell").shape[0]),
           "vectors": sorted(position_vectors.load()), "vectors_file": position_vectors.__file__,
           "win_45_50": {p: float(shipped_table("six-card-61", p).win[45, 50]) for p in PLAYERS},
           "loo_example": str(example("loo"))}, sys.stdout)
"""


@pytest.fixture(scope="module")
def probe(installed) -> dict:
    """The answers of :data:`PROBE`, run by the fresh environment's Python outside the checkout."""
    env, outside, _ = installed
    out = subprocess.run(
        [str(env / "bin" / "python"), "-c", PROBE], cwd=outside, capture_output=True, text=True, env=away()
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_wheel_installs_only_the_sims_package(installed):
    """Top-level names in the wheel: the package sims and the distribution's metadata, nothing else."""
    _, _, wheel = installed
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names} == {"sims", "period_card_sims-0.1.0.dist-info"}
    assert "sims/analysis/claims/__init__.py" in names and "sims/analysis/report.py" in names
    metadata = zipfile.ZipFile(wheel).read("period_card_sims-0.1.0.dist-info/METADATA").decode()
    assert "Name: period-card-sims\n" in metadata
    entry = zipfile.ZipFile(wheel).read("period_card_sims-0.1.0.dist-info/entry_points.txt").decode()
    assert "sims = sims.cli:main" in entry


def test_analysis_is_importable_only_inside_sims(installed, probe):
    env, _, _ = installed
    assert Path(probe["claims"]).is_relative_to(env) and probe["analysis_missing"]


def test_the_wheel_is_what_runs(installed, probe):
    env, _, _ = installed
    path = Path(probe["sims"])
    assert path.is_relative_to(env) and not path.is_relative_to(ROOT)
    assert probe["schell_rows"] == 182


def test_discard_from_outside_the_checkout(installed):
    """The wheel's advice (its shipped self-play crib table) is the checkout's, row for row."""
    from sims.cribbage.discards import advise

    out = sims(installed, "discard", "5H", "5S", "JD", "6C", "4H", "KD", "--dealer", "--json")
    assert out.returncode == 0, out.stderr
    here = advise("5H 5S JD 6C 4H KD", "dealer", crib="self_play").to_dict()["rows"]
    assert json.loads(out.stdout)["rows"] == json.loads(json.dumps(here))


def test_the_position_vectors_ship_and_are_current_in_the_wheel(installed, probe):
    """The position players' vectors are package data that match the wheel's own tables (not rebuilt at start)."""
    env, _, _ = installed
    # the position players' two vectors, and the expected_peg + distilled players' (sims peg --score's default)
    assert probe["vectors"] == ["expected_peg+distilled", "shipped", "shipped-distilled"]
    assert Path(probe["vectors_file"]).is_relative_to(env)


def test_advise_all_fours_and_loo_from_outside_the_checkout(installed):
    """The expert tables of Loo are package data; the last tricks of All Fours are exact there as here."""
    allfours = sims(
        installed,
        "advise",
        "--game",
        "allfours",
        "play",
        "JH",
        "3S",
        "--turned",
        "7H",
        "--played",
        "KS,2S,QD,3D,9C,AC,4H,10H,8S",
        "--role",
        "dealer",
        "--json",
    )
    assert allfours.returncode == 0, allfours.stderr
    rows = {row["choice"]: row["value"] for row in json.loads(allfours.stdout)["rows"]}
    assert rows == {"JH": 1.8, "3S": 1.675}
    loo = sims(
        installed, "advise", "--game", "loo", "declare", "AS", "5H", "9C", "--trump", "2H", "--samples", "100", "--json"
    )
    assert loo.returncode == 0, loo.stderr
    assert {row["choice"] for row in json.loads(loo.stdout)["rows"]} == {"pass", "play", "take the miss"}


def test_expected_net_simulation_from_outside_the_checkout(installed):
    out = sims(
        installed,
        "simulate",
        "--deals",
        "3000",
        "--discard",
        "expected_net",
        "--peg",
        "defensive",
        "--seed",
        "1",
        "--quiet",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["policies"]["discard"][0]["params"]["table"] == "schell"
    assert summary["roles"]["dealer"]["total"] == {"mean": 16.215, "se": 0.09662086948323043}  # the checkout's


def test_help_peg_and_odds_from_outside_the_checkout(installed, probe):
    from sims.cribbage.advice import advise
    from sims.cribbage.odds.layout import DEFAULT_PLAYERS, PLAYERS
    from sims.cribbage.odds.table import shipped_table
    from sims.cribbage.situation import PegSituation

    assert sims(installed, "--help").stdout.startswith("usage: sims")
    out = sims(installed, "peg", "7H", "8C", "5D", "--played", "KS,2S,5H", "--starter", "2C", "--dealer", "--json")
    assert out.returncode == 0, out.stderr
    here = advise(PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C"))
    assert [(r["card"], r["value"]) for r in json.loads(out.stdout)["rows"]] == list(zip(here["card"], here["value"]))
    out = sims(installed, "odds", "--score", "95-110", "--json")
    assert out.returncode == 0, out.stderr
    position = json.loads(out.stdout)["positions"][0]
    assert (position["dealer"], position["pone"]) == (95, 110)
    assert position["win"] == pytest.approx(shipped_table("six-card", DEFAULT_PLAYERS).win[95, 110], abs=1e-12)
    out = sims(
        installed, "odds", "--rules", "six-card-61", "--players", "position_distilled", "--score", "45-50", "--json"
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["positions"][0]["win"] == probe["win_45_50"]["position_distilled"]
    # every shipped table of other players, from the wheel's package data, is the checkout's
    assert probe["win_45_50"] == pytest.approx(
        {p: shipped_table("six-card-61", p).win[45, 50] for p in PLAYERS}, abs=1e-12
    )


def test_record_and_review_from_outside_the_checkout(installed, probe):
    """A game recorded by sims play --record and reviewed; the hand-typed examples are package data."""
    env, outside, _ = installed
    played = sims(
        installed,
        "play",
        "--game",
        "allfours",
        "--games",
        "1",
        "--seed",
        "3",
        "--play",
        "expert,random",
        "--record",
        "game.jsonl",
        "--quiet",
        "--json",
    )
    assert played.returncode == 0, played.stderr
    assert (
        json.loads(played.stdout)["record"]["decisions"] == len((outside / "game.jsonl").read_text().splitlines()) - 2
    )
    reviewed = sims(installed, "review", "game.jsonl", "--samples", "100", "--json")
    assert reviewed.returncode == 0, reviewed.stderr
    assert {t["player"] for t in json.loads(reviewed.stdout)["totals"]} == {"expert", "random"}
    assert Path(probe["loo_example"]).is_relative_to(env)
    example = sims(installed, "review", probe["loo_example"], "--samples", "100", "--json")
    assert example.returncode == 0, example.stderr
    assert len(json.loads(example.stdout)["decisions"]) == 8


def fresh_install(wheel: Path, env: Path, extra: str = "") -> Path:
    """The wheel (with ``extra``) alone in a new environment: its dependencies come from uv's cache (the project
    environment was installed through it), so nothing is fetched; about 2 s."""
    uv = Path(sys.executable).parent / "uv"
    subprocess.run([str(uv), "venv", "--quiet", "--python", sys.executable, str(env)], check=True, timeout=120)
    requirement = f"period-card-sims{extra} @ {wheel.as_uri()}"
    subprocess.run(
        [str(uv), "pip", "install", "--offline", "--quiet", "--python", str(env / "bin" / "python"), requirement],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return env


@pytest.fixture(scope="module")
def base_install(installed, tmp_path_factory):
    """The wheel without extras, used from a directory outside the checkout."""
    _, outside, wheel = installed
    return fresh_install(wheel, tmp_path_factory.mktemp("base") / "venv"), outside


def fresh_sims(install, *args, stdin=None):
    """``sims ARGS`` of a fresh environment (an (environment, directory) pair), run in the directory."""
    env, outside = install
    return subprocess.run(
        [str(env / "bin" / "sims"), *args],
        cwd=outside,
        capture_output=True,
        text=True,
        input=stdin,
        timeout=900,
        env=away(),
    )


def test_the_base_install_has_no_dask(base_install):
    env, _ = base_install
    listed = subprocess.run(
        [
            str(env / "bin" / "python"),
            "-c",
            "import importlib.metadata as m, importlib.util as u, json; "
            "print(json.dumps([sorted(d.metadata['Name'].lower() for d in m.distributions()), "
            "[n for n in ('dask', 'distributed', 'cryptography') if u.find_spec(n)]]))",
        ],
        capture_output=True,
        text=True,
        check=True,
        env=away(),
    )
    names, importable = json.loads(listed.stdout)
    assert {"period-card-sims", "numba", "pandas"} <= set(names)
    assert not set(names) & {"dask", "distributed", "cryptography"}
    assert importable == []


def test_the_base_install_plays_on_one_machine(installed, base_install):
    """Every single-machine command needs no extra: discard, peg, duel and simulate (the same numbers)."""
    args = ("discard", "5H", "5S", "JD", "6C", "4H", "KD", "--dealer", "--json")
    out = fresh_sims(base_install, *args)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["rows"] == json.loads(sims(installed, *args).stdout)["rows"]
    out = fresh_sims(base_install, "peg", "7H", "8C", "5D", "--played", "KS,2S,5H", "--starter", "2C", "--dealer")
    assert out.returncode == 0 and "7H" in out.stdout, out.stderr
    out = fresh_sims(
        base_install, "duel", "--game", "loo", "--rule", "session_rounds=1", "--seed", "1", stdin="1\n" * 1000
    )
    assert out.returncode == 0 and "the session is over" in out.stdout, out.stderr
    out = fresh_sims(base_install, "simulate", "--deals", "3000", "--seed", "1", "--quiet", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["n"] == 3000


def test_a_cluster_option_without_the_extra_is_one_line(base_install):
    """--workers without Dask: one line naming the extra, exit status 2, no run directory written."""
    env, outside = base_install
    out = fresh_sims(base_install, "run", "--deals", "9000", "--workers", "2", "--out", "no-extra", "--quiet")
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "pip install 'period-card-sims[cluster]'" in out.stderr, out.stderr
    assert not (outside / "no-extra").exists()


def test_two_worker_dask_run_with_the_cluster_extra(installed, tmp_path_factory):
    """``pip install 'period-card-sims[cluster]'`` in a new environment: sims run --workers 2 on a local Dask
    cluster, outside the checkout, the run store written."""
    _, _, wheel = installed
    env = fresh_install(wheel, tmp_path_factory.mktemp("cluster") / "venv", "[cluster]")
    outside = tmp_path_factory.mktemp("cluster-runs")
    args = ("--deals", "9000", "--discard", "greedy", "--peg", "greedy", "--workers", "2", "--threads", "1")
    out = fresh_sims((env, outside), "run", *args, "--out", "run", "--quiet", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["n"] == 9000
    assert (outside / "run" / "summary.json").exists() and (outside / "run" / "totals").is_dir()
