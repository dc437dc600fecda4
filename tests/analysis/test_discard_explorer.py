"""The discard explorer's controls (sims.analysis.discard_explorer.explorer): every change redraws the table with
the controls' values.  (Notebook 08 shows it to a reader; runs without a front end skip that cell.)"""
from __future__ import annotations

import sims.analysis.discard_explorer as discard_explorer


def test_every_control_redraws_with_its_value(monkeypatch):
    calls = []
    monkeypatch.setattr(discard_explorer, "show", lambda *args: calls.append(args))
    box = discard_explorer.explorer("5H 5S JD 6C 4H KD", "six-card", "dealer", ["exact", "schell"], "95-110",
                                    samples=10, seed=3)
    cards, (variant, place), sources, (board, sort), _ = (box.children[0], box.children[1].children,
                                                          box.children[2], box.children[3].children, box.children[4])
    assert calls == [("5H 5S JD 6C 4H KD", "six-card", "dealer", ["exact", "schell"], "95-110", "net", 10, 3)]
    cards.value = "5H 5S JD 6C 4H QD".split()
    assert calls[-1][0] == "5H 5S JD 6C 4H QD"
    sort.value = "win"
    board.value = " 110-95 "
    assert calls[-1][4:6] == ("110-95", "win")
    sources.value = ["hessel"]
    assert calls[-1][3] == ["hessel"]
    variant.value = "three-hand"                   # the places follow the variant
    assert place.options == ("dealer", "eldest", "second") and calls[-1][1] == "three-hand"
    place.value = "second"
    assert calls[-1][2] == "second"
