"""The discard explorer's controls (sims.cribbage.notebook.discard_explorer.explorer): every change redraws the table with
the controls' values.  (Notebook 08 shows it to a reader; runs without a front end skip that cell.)"""

from __future__ import annotations

import sims.cribbage.notebook.discard_explorer as discard_explorer


def test_every_control_redraws_with_its_value(monkeypatch):
    calls = []
    monkeypatch.setattr(discard_explorer, "show", lambda *args: calls.append(args))
    box = discard_explorer.explorer(
        "5H 5S JD 6C 4H KD", "six-card", "dealer", ["exact", "schell"], "95-110", samples=10, seed=3
    )
    cards, (variant, place), sources, (board, sort), _ = (
        box.children[0],
        box.children[1].children,
        box.children[2],
        box.children[3].children,
        box.children[4],
    )
    assert calls == [("5H 5S JD 6C 4H KD", "six-card", "dealer", ["exact", "schell"], "95-110", "net", 10, 3)]
    cards.value = "5H 5S JD 6C 4H QD".split()
    assert calls[-1][0] == "5H 5S JD 6C 4H QD"
    sort.value = "win"
    board.value = " 110-95 "
    assert calls[-1][4:6] == ("110-95", "win")
    sources.value = ["hessel"]
    assert calls[-1][3] == ["hessel"]
    variant.value = "three-hand"  # the places follow the variant
    assert place.options == ("dealer", "eldest", "second") and calls[-1][1] == "three-hand"
    place.value = "second"
    assert calls[-1][2] == "second"


def test_the_table_shows_every_column_narrowed_and_rank_first():
    """The explorer's table (:func:`discard_explorer.table`): a row for each of the advisor's rows, ``rank`` first,
    the hand with its least and most, the chance of winning with its 95% interval, a sampled crib with its ±."""
    from sims.core.text import interval
    from sims.cribbage.discards import analyze_discards
    from sims.stats import Z95

    frame = analyze_discards(
        "5H 5S JD 6C 4H KD", "dealer", "six-card", crib=["expected_net", "exact"], score="95-110", samples=50, seed=1
    )
    shown = discard_explorer.table(frame)
    assert list(shown.columns) == [
        "rank",
        "thrown",
        "kept",
        "hand (least-most)",
        "crib",
        "net",
        "crib exact",
        "net exact",
        "win % [95%]",
        "vs best",
        "helps most",
        "same as",
    ]
    best = frame.iloc[0]
    assert shown.iloc[0].tolist()[:9] == [
        best["rank"],
        best["thrown"],
        best["kept"],
        f"{best['hand']:.3f} ({best['hand_min']}-{best['hand_max']})",
        f"{best['crib']:.3f} ±{Z95 * best['crib_se']:.3f}",
        f"{best['net']:.3f}",
        f"{best['crib_exact']:.3f}",
        f"{best['net_exact']:.3f}",
        interval(100 * best["win"], 100 * best["win_lo"], 100 * best["win_hi"], 1),
    ]
    assert shown["helps most"][0] == ", ".join(f"{h['rank']}: {h['points']:.4g}" for h in best["helps_most"])
    assert len(shown) == len(frame)
