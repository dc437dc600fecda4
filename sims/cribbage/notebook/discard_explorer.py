"""The discard explorer of notebook 08: the advisor's table (:func:`sims.cribbage.discards.analyze_discards`,
the numbers of ``sims discard``) and each throw's spread over the starters, behind a few controls; with the
score on the board, each throw's chance of winning the game too (``sims discard --score``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ...cards import format_card
from ...core.text import interval
from ...stats import Z95
from ..contract import ROLE_NAMES
from ..discards import analyze_discards, hand_distributions
from ..rules import PRESETS

SOURCES = ("exact", "schell", "hessel", "self_play", "expected_net", "hoyle", "random")
FOLDED = ("hand_dist", "throws", "hand_min", "hand_max", "win_lo", "win_hi")  # shown within other columns, or not


def table(frame) -> pd.DataFrame:
    """The advisor's table as the explorer shows it, narrow enough for a notebook 1280 pixels wide: ``rank``
    first (and no index beside it), the expected hand with the least and most the kept cards make over the
    starters, every sampled figure with the half-width of its 95% interval (``±``), the chance of winning in
    percent with its 95% interval, the starter ranks that help most as ``rank: points``, the other throws of a row
    (``same as``), and headings that wrap at their spaces."""
    out = {}
    for column in frame.columns:
        if column in FOLDED or column.endswith("_se"):
            continue
        values = frame[column]
        if column == "hand":
            out["hand (least-most)"] = [
                f"{h:.3f} ({lo}-{hi})" for h, lo, hi in zip(values, frame["hand_min"], frame["hand_max"])
            ]
        elif column == "win":
            out["win % [95%]"] = [
                interval(100 * w, 100 * lo, 100 * hi, 1) for w, lo, hi in zip(values, frame["win_lo"], frame["win_hi"])
            ]
        elif column == "helps_most":
            out["helps most"] = [", ".join(f"{h['rank']}: {h['points']:.4g}" for h in helps) for helps in values]
        elif f"{column}_se" in frame:
            out[column.replace("_", " ")] = [f"{v:.3f} ±{Z95 * se:.3f}" for v, se in zip(values, frame[f"{column}_se"])]
        elif pd.api.types.is_float_dtype(values):
            out[column.replace("_", " ")] = [f"{v:.3f}" for v in values]
        else:
            out[column.replace("_", " ")] = values.tolist()
    return pd.DataFrame(out)


STYLE = "<style>.sims-discards th, .sims-discards td {white-space: normal; padding: 0.3em 0.4em}</style>"


def table_html(frame):
    """:func:`table` as a notebook displays it: an HTML table without an index, its cells wrapping at their
    spaces when the notebook is narrower than the table's lines."""
    from IPython.display import HTML

    return HTML(STYLE + table(frame).to_html(index=False, classes="sims-discards"))


def spread_figure(frame) -> Figure:
    """Each throw's kept cards: starters giving each number of points (rows best first; triangle: the mean)."""
    table = hand_distributions(frame)
    q = frame.attrs
    fig = Figure(figsize=(8, 0.35 * len(table) + 1.6), dpi=150, layout="constrained")
    ax = fig.subplots()
    ax.imshow(
        table.to_numpy(),
        aspect="auto",
        cmap="Blues",
        extent=(table.columns[0] - 0.5, table.columns[-1] + 0.5, len(table) - 0.5, -0.5),
    )
    for i, counts in enumerate(table.to_numpy()):
        for points, n in zip(table.columns, counts):
            if n:
                ax.text(
                    points,
                    i,
                    n,
                    ha="center",
                    va="center",
                    fontsize="x-small",
                    color="white" if n > counts.max() / 2 else "black",
                )
    ax.plot(frame["hand"], np.arange(len(table)) - 0.32, "v", color="tab:orange", markersize=6, label="expected hand")
    labels = [f"{r}. keep {k}" for r, k in zip(frame["rank"], frame["kept"])]
    if q["score"]:
        labels = [
            f"{label} ({100 * w:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] to win)"
            for label, w, lo, hi in zip(labels, frame["win"], frame["win_lo"], frame["win_hi"])
        ]
    ax.set_yticks(range(len(table)), labels)
    ax.set_xlabel(f"points of the kept cards with the starter (starters counted out of {q['starters']})")
    at = f" at {q['score']['dealer']}-{q['score']['pone']}" if q["score"] else ""
    ax.set_title(
        f"{q['rules']['name']}, {q['role']}{at}, dealt {' '.join(q['hand'])}: the kept cards over the "
        f"unseen starters (rows best first by {q['sort']['column']})",
        wrap=True,
    )
    fig.legend(loc="outside lower center", fontsize="small")
    return fig


def show(hand, rules, role, crib, score=None, sort="net", samples=300, seed=1):
    """Display the advisor's table (:func:`table`) and picture for one hand (``score``: ``"95-110"``, the dealer's
    score first, or None); a bad choice prints one line, not a traceback.  Returns the advisor's frame (None on a
    bad choice)."""
    from IPython.display import Markdown, display

    try:
        frame = analyze_discards(
            hand,
            role,
            rules,
            crib=list(crib),
            score=score or None,
            sort=sort if score else "net",
            samples=samples,
            seed=seed,
        )
    except ValueError as exc:
        print(f"cannot advise: {exc}")
        return None
    display(
        Markdown(f"**{frame.attrs['throws']} throws in {len(frame)} rows**, sorted by {frame.attrs['sort']['key']}")
    )
    display(table_html(frame))
    display(spread_figure(frame))
    return frame


def explorer(hand, rules, role, crib, score=None, samples=300, seed=1):
    """The controls (cards, variant, place, crib sources, score and sort) and the table and picture that
    follow every change; the score is text, ``dealer-pone`` (empty: none)."""
    import ipywidgets as widgets

    cards = widgets.TagsInput(
        value=hand.split(),
        allowed_tags=[format_card(c) for c in range(52)],
        allow_duplicates=False,
        description="cards",
    )
    variant = widgets.Dropdown(options=list(PRESETS), value=rules, description="rules")
    place = widgets.Dropdown(options=ROLE_NAMES[PRESETS[rules].active], value=role, description="place")
    sources = widgets.TagsInput(
        value=list(crib), allowed_tags=list(SOURCES), allow_duplicates=False, description="crib"
    )
    board = widgets.Text(value=score or "", placeholder="dealer-pone, e.g. 95-110", description="score")
    sort = widgets.Dropdown(options=[("net", "net"), ("chance of winning", "win")], value="net", description="sort")
    variant.observe(lambda change: setattr(place, "options", ROLE_NAMES[PRESETS[change["new"]].active]), names="value")
    out = widgets.interactive_output(
        lambda cards, rules, role, crib, score, sort: show(
            " ".join(cards), rules, role, crib, score.strip(), sort, samples, seed
        ),
        {"cards": cards, "rules": variant, "role": place, "crib": sources, "score": board, "sort": sort},
    )
    return widgets.VBox([cards, widgets.HBox([variant, place]), sources, widgets.HBox([board, sort]), out])
