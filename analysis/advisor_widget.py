"""The advisor widget: one decision of a game behind a few controls, and after every change the advisor's
table (every legal choice with its value, best first) and a bar chart of the values with their 95% intervals.

A decision plugs in through :data:`ADVISORS`: the controls it reads (text boxes, or drop-downs with choices),
a function building its situation from the controls' values, and its ``advise``.  The cribbage pegging
decision is plugged in (:func:`sims.cribbage.advice.advise`, the numbers of ``sims peg``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure

from sims.cribbage.contract import ROLE_NAMES
from sims.cribbage.rules import PRESETS
from sims.stats import Z95


@dataclass(frozen=True)
class Control:
    """One control: a text box (``choices`` None) or a drop-down; ``hint`` shows in an empty text box, ``default``
    is the value when none is given (else empty, or the first choice)."""

    name: str
    choices: tuple | None = None
    hint: str = ""
    default: str | None = None


@dataclass(frozen=True)
class Advisor:
    """A decision's controls, its situation from their values (keyword arguments named as the controls), and
    ``advise(situation, samples=, seed=)``: a DataFrame of the choices, best first, with ``choice``, ``value``
    and ``se`` columns (and ``win``, ``win_se`` when the situation has a score)."""

    title: str
    controls: tuple
    situation: Callable
    advise: Callable
    choice: str = "card"


def _cards(text: str) -> str:
    return " ".join(text.replace(",", " ").split())


def peg_situation(hand, played, starter, role, thrown, score, rules):
    """A :class:`~sims.cribbage.situation.PegSituation` from the controls' text (cards apart by spaces or
    commas; ``score`` MINE-THEIRS now, yours first, as ``sims peg --score``, or empty)."""
    from sims.core.text import mine_theirs
    from sims.cribbage.situation import PegSituation

    return PegSituation(
        _cards(hand),
        _cards(played),
        role,
        starter.strip() or None,
        _cards(thrown),
        mine_theirs(score.strip() or None, "97-104"),
        rules,
    )


def peg_advice(situation, samples, seed):
    from sims.cribbage.advice import advise

    return advise(situation, samples=samples, seed=seed)


ROLES = tuple(dict.fromkeys(name for names in ROLE_NAMES.values() for name in names))
ADVISORS = {
    "cribbage peg": Advisor(
        "which card to lay in the play (sims peg)",
        (
            Control("hand", hint="the cards you hold, e.g. 7H 8C 5D"),
            Control("played", hint="every card laid this deal, in order"),
            Control("starter", hint="the card turned up"),
            Control("role", ROLES),
            Control("thrown", hint="your crib cards (needed with a score)"),
            Control("score", hint="mine-theirs now, yours first, e.g. 97-104"),
            Control("rules", tuple(PRESETS), default="six-card"),
        ),
        peg_situation,
        peg_advice,
    ),
}


def _how(frame) -> str:
    """`` (exact over 903 deals)``: how the advice was reached, when its table says."""
    a = frame.attrs
    return f" ({a['method']} over {a['deals']:,} deals)" if {"method", "deals"} <= set(a) else ""


def situation_text(values: dict) -> str:
    """``hand 7H 8C 5D, played KS 2S 5H, starter 2C, role dealer, rules six-card``: the controls' values that are
    given, named, as the title of a picture of their advice."""
    return ", ".join(f"{name} {value.strip()}" for name, value in values.items() if str(value).strip())


def advice_figure(frame, choice: str = "card", situation: str = "") -> Figure:
    """Each choice's value (and chance of winning, with a score) as bars, best first, with 95% intervals; the
    title names the ``situation`` (:func:`situation_text`)."""
    panels = [("value", "se", "value: points for less points against")]
    if "win" in frame:
        panels.append(("win", "win_se", "chance of winning the game"))
    fig = Figure(figsize=(4 * len(panels) + 1, 0.45 * len(frame) + 1.4), dpi=100, layout="constrained")
    rows = np.arange(len(frame))
    for ax, (column, se, label) in zip(fig.subplots(1, len(panels), squeeze=False)[0], panels):
        ax.barh(rows, frame[column], xerr=Z95 * frame[se], color="tab:blue", ecolor="black", capsize=3)
        ax.axvline(0, color="grey", linewidth=0.8)
        ax.set_yticks(rows, frame[choice])
        ax.invert_yaxis()
        ax.set_xlabel(label)
    about = f"best first; bars: 95% intervals{_how(frame)}"
    fig.suptitle(f"{situation}\n{about}" if situation else about, fontsize="medium", wrap=True)
    return fig


def show(game: str, values: dict, samples: int = 2_000, seed: int = 0):
    """Display the advice for the situation of ``values`` (the controls' values by name): a line naming the
    best choice, the table, the picture.  A bad situation prints one line, not a traceback.  Returns the table
    (None on a bad situation)."""
    from IPython.display import Markdown, display

    advisor = ADVISORS[game]
    try:
        frame = advisor.advise(advisor.situation(**values), samples=samples, seed=seed)
    except ValueError as exc:
        print(f"cannot advise: {exc}")
        return None
    best = frame.iloc[0]
    win = f", chance of winning {100 * best['win']:.1f}%" if "win" in frame else ""
    display(Markdown(f"**best: {best[advisor.choice]}**, value {best['value']:.3f}{win}{_how(frame)}"))
    display(frame.round(3))
    display(advice_figure(frame, advisor.choice, situation_text(values)))
    return frame


def advisor(game: str = "cribbage peg", samples: int = 2_000, seed: int = 0, **values):
    """The controls of ``game``'s decision (:data:`ADVISORS`), starting at ``values``, and the advice that
    follows every change (a text box's on Enter or on leaving it)."""
    import ipywidgets as widgets

    spec = ADVISORS[game]
    controls = {}
    for c in spec.controls:
        value = values.get(c.name, c.default if c.default is not None else c.choices[0] if c.choices else "")
        controls[c.name] = (
            widgets.Dropdown(options=c.choices, value=value, description=c.name)
            if c.choices
            else widgets.Text(value=value, placeholder=c.hint, description=c.name, continuous_update=False)
        )
    out = widgets.interactive_output(lambda **now: show(game, now, samples, seed), controls)
    return widgets.VBox([widgets.HTML(f"<b>{spec.title}</b>"), *controls.values(), out])
