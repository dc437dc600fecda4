"""The advisor widget: one decision of a game behind a few controls, and after every change the advisor's
table (every legal choice with its value, best first) and a bar chart of the values with their 95% intervals.

A decision plugs in as an :class:`Advisor`: the controls it reads (text boxes, or drop-downs with choices), a
function building its situation from the controls' values, and its ``advise``.  Each game declares its own
advisors with the game (in its ``notebook`` package), and a notebook passes one to :func:`advisor` or :func:`show`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure

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


def show(advisor: Advisor, values: dict, samples: int = 2_000, seed: int = 0):
    """Display ``advisor``'s advice for the situation of ``values`` (the controls' values by name): a line naming
    the best choice, the table, the picture.  A bad situation prints one line, not a traceback.  Returns the table
    (None on a bad situation)."""
    from IPython.display import Markdown, display

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


def advisor(spec: Advisor, samples: int = 2_000, seed: int = 0, **values):
    """The controls of the decision ``spec``, starting at ``values``, and the advice that follows every change (a
    text box's on Enter or on leaving it)."""
    import ipywidgets as widgets

    controls = {}
    for c in spec.controls:
        value = values.get(c.name, c.default if c.default is not None else c.choices[0] if c.choices else "")
        controls[c.name] = (
            widgets.Dropdown(options=c.choices, value=value, description=c.name)
            if c.choices
            else widgets.Text(value=value, placeholder=c.hint, description=c.name, continuous_update=False)
        )
    out = widgets.interactive_output(lambda **now: show(spec, now, samples, seed), controls)
    return widgets.VBox([widgets.HTML(f"<b>{spec.title}</b>"), *controls.values(), out])
