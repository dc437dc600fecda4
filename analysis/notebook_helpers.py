"""Helpers for the numbered notebooks (notebooks/*.ipynb): they only load, call and plot.

The claims themselves are the sections of :mod:`sims.analysis.claims`; this module runs a section at a notebook's
size and shows it, loads a saved run, and shapes a table for an interval chart.  Each game's own tables and figures
live with the game (in its ``notebook`` package).
"""

from __future__ import annotations

import pandas as pd

from . import claims
from .claims.command import verdict_text
from .report import Section, verdict_rows
from .runs import load_run

# ---- running and showing the claims' sections ----


def context(deals: int, games: int, seed: int = 1, searched: int | None = None, log=print) -> claims.Context:
    """A :class:`sims.analysis.claims.Context`: ``deals`` per deal simulation, ``games`` per game simulation,
    one master seed (common random numbers); ``searched`` deals per run with the searching expert (None: the
    report's share of ``deals``)."""
    return claims.Context(deals=deals, games=games, seed=seed, searched=searched, log=log)


def run_section(number: str, ctx: claims.Context) -> Section:
    """Section ``number`` of the report (:func:`sims.analysis.claims.section`) at the context's size."""
    return claims.section(number).run(ctx)


def show(section: Section) -> None:
    """Display a section in the notebook: its text, verdict table, tables and figures."""
    from IPython.display import Markdown, display

    display(Markdown(f"### {section.number}. {section.title}" + (f"\n\n{section.text}" if section.text else "")))
    if section.claims:
        display(verdict_rows(section.claims))
    for title, table in section.tables.items():
        display(Markdown(f"**{title}**"))
        display(table)
    for caption, figure in section.figures.items():
        display(Markdown(f"**{caption}**"))
        display(figure)


def verdicts(*sections: Section) -> str:
    """The verdict table of the sections' claims as text (claim, verdict, estimate, claimed, margin, n, statement)."""
    found = [c for s in sections for c in s.claims]
    if not found:
        raise ValueError("these sections hold no claims")
    return verdict_text(found, width=10_000)  # a notebook's cell is no terminal: the statements whole


def load_saved_run(path, kind: str | None = None, rules=None):
    """:func:`sims.analysis.runs.load_run`, stopping the notebook with the plain one-line message
    (no traceback) when the directory is missing, unfinished or holds another kind of run."""
    try:
        return load_run(path, kind=kind, rules=rules)
    except ValueError as exc:
        raise SystemExit(f"cannot use the saved run: {exc}") from None


def as_chart(table: pd.DataFrame, label: str = "label") -> pd.DataFrame:
    """Rows label, estimate, lo, hi for :func:`sims.analysis.plots.interval_chart` (rows without an estimate dropped)."""
    out = table.rename(columns={label: "label"})[["label", "estimate", "lo", "hi"]]
    return out.dropna().reset_index(drop=True)
