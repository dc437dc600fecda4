"""One interval convention (sims.core.text): 95%, written ``estimate [lo, hi]``, the method named beside it."""

from __future__ import annotations

import re

import pytest
from scipy.stats import norm

from sims.core import text
from sims.stats import Z95


def test_z95_is_the_normal_quantile():
    assert Z95 == pytest.approx(norm.ppf(0.975), abs=1e-15)


def test_mean_interval_is_mean_plus_minus_1_96_se():
    assert text.mean_interval(8.12, 0.02) == "8.1200 [8.0808, 8.1592]"
    assert text.mean_interval(-0.5, 0.1, 3, "+") == "-0.500 [-0.696, -0.304]"


def test_component_table_columns_line_up():
    entries = {
        "dealer": {"hand": {"mean": 7.941, "se": 0.0855}, "total": {"mean": 16.1045, "se": 0.1206}},
        "pone": {"hand": {"mean": 8.0275, "se": 0.0798}, "total": {"mean": 10.173, "se": 0.0921}},
    }
    lines = text.component_table(entries, ["hand", "total"])
    assert len({len(line) for line in lines}) == 1  # right-aligned to one width
    assert lines[2].split()[:4] == ["total", "16.1045", "[15.8681,", "16.3409]"]


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--deals", "300"],
        ["play", "--games", "30"],
        ["simulate", "--game", "allfours", "--deals", "300"],
        ["play", "--game", "allfours", "--games", "10"],
        ["simulate", "--game", "loo", "--deals", "300"],
    ],
)
def test_every_game_render_names_its_intervals_and_prints_no_bare_se(argv, capsys):
    from sims.cli import main

    assert main([*argv, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert text.MEAN_METHOD in out or text.RATE_METHOD in out
    bare = "\n".join(out.replace(text.MEAN_METHOD, "").split("default policies")[0].splitlines()[1:])  # below the title
    assert " ± " not in bare and "standard error" not in bare and not re.search(r"\d to [-+]?\d", bare)
    shown = re.findall(r"(-?\d+\.\d+) \[(-?\d+\.\d+), (-?\d+\.\d+)\]", out)
    assert shown and all(float(lo) <= float(x) <= float(hi) for x, lo, hi in shown)


def test_the_interval_printed_is_the_summary_s(capsys):
    from sims.cli import main

    assert main(["simulate", "--deals", "500", "--quiet", "--json"]) == 0
    import json

    hand = json.loads(capsys.readouterr().out)["roles"]["dealer"]["hand"]
    assert main(["simulate", "--deals", "500", "--quiet"]) == 0
    line = next(row for row in capsys.readouterr().out.splitlines() if row.startswith("hand"))
    assert line.split()[1:4] == text.mean_interval(hand["mean"], hand["se"]).split()[:3]


@pytest.mark.parametrize(
    "n, noun, said",
    [
        (1, "blunder", "1 blunder"),
        (2, "blunder", "2 blunders"),
        (0, "mistake", "0 mistakes"),
        (1, "inaccuracy", "1 inaccuracy"),
        (3, "inaccuracy", "3 inaccuracies"),
        (2, "play", "2 plays"),
    ],
)
def test_a_count_and_its_noun_agree(n, noun, said):
    assert text.counted(n, noun) == said
