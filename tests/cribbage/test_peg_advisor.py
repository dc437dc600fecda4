"""The advisor widget (sims.analysis.advisor_widget) with cribbage's pegging advisor
(sims.cribbage.notebook.peg_advisor): its controls redraw the advice with their values, the situation it builds is
the one ``sims peg`` builds, and its picture draws the table's values and intervals.  (tests/browser runs it in a
real browser.)"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from matplotlib.container import BarContainer

import sims.analysis.advisor_widget as aw
from sims.cribbage.advice import advise
from sims.cribbage.notebook.peg_advisor import PEGGING, peg_situation
from sims.cribbage.situation import PegSituation
from sims.stats import Z95

PEG = dict(hand="7H 8C 5D", played="KS 2S 5H", starter="2C", role="dealer", thrown="", score="", rules="six-card")
pytestmark = pytest.mark.xdist_group("advisor_widget")  # one worker computes the scored advice two tests read


def test_every_control_redraws_with_its_value(monkeypatch):
    calls = []
    monkeypatch.setattr(
        aw, "show", lambda spec, values, samples, seed: calls.append((spec, dict(values), samples, seed))
    )
    box = aw.advisor(PEGGING, samples=50, seed=4, **PEG)
    controls = {c.description: c for c in box.children[1:-1]}
    assert list(controls) == [c.name for c in PEGGING.controls]
    assert calls == [(PEGGING, PEG, 50, 4)]
    controls["played"].value = "KS 2S"
    assert calls[-1][1]["played"] == "KS 2S"
    controls["role"].value = "pone"
    controls["score"].value = "97-104"
    assert calls[-1][1] == {**PEG, "played": "KS 2S", "role": "pone", "score": "97-104"}
    aw.advisor(PEGGING, hand="7H")  # the rest from the controls' defaults
    assert calls[-1][1] == {**dict.fromkeys(PEG, ""), "hand": "7H", "role": "dealer", "rules": "six-card"}


def test_the_situation_is_the_one_sims_peg_builds():
    """Commas or spaces between cards; the score is MINE-THEIRS, yours first, whatever the role."""
    built = peg_situation("7H,8C 5D", "KS, 2S", "2C", "pone", "QD 3C", " 104-97 ", "six-card")
    assert built == PegSituation("7H 8C 5D", "KS 2S", "pone", "2C", "QD 3C", (104, 97), "six-card")
    assert peg_situation(**{**PEG, "role": "dealer", "thrown": "QD 3C", "score": "97-104"}).score == (97, 104)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"score": "57-54", "rules": "three-hand", "role": "eldest", "thrown": "QD"}, "no board-position table"),
        ({"starter": ""}, "the starter is needed"),
        ({"played": "KS 2S 5H 7H"}, "7H"),
    ],
)
def test_a_bad_situation_prints_one_line(change, message, capsys):
    assert aw.show(PEGGING, {**PEG, **change}) is None
    printed = capsys.readouterr().out
    assert printed.startswith("cannot advise: ") and message in printed and printed.count("\n") == 1


def test_show_displays_the_advisors_table(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", shown.append)
    frame = aw.show(PEGGING, PEG, samples=100, seed=2)
    expected = advise(PegSituation("7H 8C 5D", "KS 2S 5H", "dealer", "2C"), samples=100, seed=2)
    pd.testing.assert_frame_equal(frame, expected)
    headline, table, _ = shown
    assert f"**best: {expected['card'][0]}**, value {expected['value'][0]:.3f}" in headline.data
    pd.testing.assert_frame_equal(table, expected.round(3))


@pytest.fixture(scope="module")
def scored():
    """The advice with a score (rollouts over 200 deals) as :func:`show` returns it, and what it displayed."""
    shown = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("IPython.display.display", shown.append)
        frame = aw.show(
            PEGGING,
            {**PEG, "played": "", "hand": "7H 8C 5D 2S", "role": "pone", "thrown": "QD 3C", "score": "104-97"},
            samples=200,
            seed=1,
        )
    return frame, shown


def test_with_a_score_the_best_card_is_the_likeliest_to_win(scored):
    frame, shown = scored
    assert frame["win"].iloc[0] == frame["win"].max() and frame.attrs["situation"]["score"] == [104, 97]
    assert (
        f"**best: {frame['card'][0]}**, value {frame['value'][0]:.3f}, chance of winning "
        f"{100 * frame['win'][0]:.1f}% (rollouts over 200 deals)"
    ) == shown[0].data


def test_the_picture_draws_each_value_and_its_interval(scored):
    """The picture :func:`show` displays, checked against the table it returns."""
    frame, shown = scored
    fig = shown[-1]
    assert fig._suptitle.get_text() == (
        "hand 7H 8C 5D 2S, starter 2C, role pone, thrown QD 3C, score 104-97, "
        "rules six-card\nbest first; bars: 95% intervals (rollouts over 200 deals)"
    )
    value_ax, win_ax = fig.axes
    for ax, column, se in ((value_ax, "value", "se"), (win_ax, "win", "win_se")):
        bars = next(c for c in ax.containers if isinstance(c, BarContainer))
        assert [t.get_text() for t in ax.get_yticklabels()] == frame["card"].tolist()
        np.testing.assert_allclose([b.get_width() for b in bars.patches], frame[column])
        segments = bars.errorbar.lines[2][0].get_segments()
        np.testing.assert_allclose([s[1, 0] - s[0, 0] for s in segments], 2 * Z95 * frame[se])
