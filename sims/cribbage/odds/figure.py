"""The board as a heatmap: the dealer's chance of winning from every position."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .table import OddsTable


def heatmap(table: OddsTable, ax=None, value: str = "win"):
    """Draw ``table.win`` (or ``table.game_points``) over (pone score, dealer score) on ``ax`` (a new
    figure when None), with the even-chance contour; returns the axes."""
    import matplotlib.pyplot as plt

    if value not in ("win", "game_points"):
        raise ValueError(f"value must be 'win' or 'game_points', got {value!r}")
    grid = getattr(table, value)
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 5.6))
    even = 0.5 if value == "win" else 0.0
    limits = (0, 1) if value == "win" else (-np.abs(grid).max(), np.abs(grid).max())
    image = ax.imshow(
        grid,
        origin="lower",
        cmap="RdBu_r",
        vmin=limits[0],
        vmax=limits[1],
        extent=(-0.5, table.target - 0.5, -0.5, table.target - 0.5),
    )
    ax.contour(np.arange(table.target), np.arange(table.target), grid, levels=[even], colors="black", linewidths=0.8)
    ax.set_xlabel("pone's score")
    ax.set_ylabel("dealer's score")
    label = "dealer wins" if value == "win" else "dealer's expected game points"
    ax.set_title(f"{table.rules.name}: {label} before the deal")
    ax.figure.colorbar(image, ax=ax, label=label)
    return ax


def save_heatmap(table: OddsTable, path, value: str = "win") -> Path:
    """Write the heatmap to ``path`` (any format matplotlib writes, e.g. .png or .svg)."""
    from matplotlib.figure import Figure  # no pyplot: the backend of a notebook is left alone

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure = Figure(figsize=(6.4, 5.6))
    heatmap(table, ax=figure.subplots(), value=value)
    figure.savefig(path, dpi=120, bbox_inches="tight")
    return path
