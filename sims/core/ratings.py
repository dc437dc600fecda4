"""Ratings: one Bradley–Terry scale for every player of a game, from pairwise results.

Player ``i`` beats player ``j`` with chance ``1 / (1 + exp(s_j - s_i))``.  The strengths are
the maximum-likelihood fit (scipy.optimize.minimize, with the exact gradient) of the wins in
each pairing, centred on mean 0; their 95% intervals come from the observed information, whose
pseudo-inverse is the covariance of the centred strengths.  Written here rather than taken from a
library: the fit is a dozen lines of scipy, and the libraries that fit it (choix, for one) give no
intervals.  Between two players the difference is the logit of the win rate.

A pairing (:func:`pairwise`) plays the two players on the same seeds with the seats exchanged
(:func:`sims.core.outcomes.paired_values`), or, at a table of many seats without a winner, each
against the same field on the same deals; a player is ``{decision: policy}``, the game's defaults for
the decisions it does not name.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from . import outcomes
from .registry import get_game


def bradley_terry(pairs: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """The strengths of the players of ``pairs`` (columns player, opponent, wins of the player, games):
    a frame of player, strength, se, lo, hi, games, best first.  A player whose games all went one way has
    no finite strength: a one-line error says so."""
    from scipy.optimize import minimize
    from scipy.stats import norm

    players = list(dict.fromkeys([*pairs["player"], *pairs["opponent"]]))
    index = {p: k for k, p in enumerate(players)}
    i = pairs["player"].map(index).to_numpy()
    j = pairs["opponent"].map(index).to_numpy()
    wins = pairs["wins"].to_numpy(dtype=np.float64)
    games = pairs["games"].to_numpy(dtype=np.float64)
    if np.any(games <= 0) or np.any(wins < 0) or np.any(wins > games):
        raise ValueError("each pairing needs games > 0 and wins from 0 to games")
    played = np.bincount(i, games, len(players)) + np.bincount(j, games, len(players))
    won = np.bincount(i, wins, len(players)) + np.bincount(j, games - wins, len(players))
    for k, player in enumerate(players):
        if won[k] in (0, played[k]):
            raise ValueError(
                f"player {player!r} {'lost' if won[k] == 0 else 'won'} every game: its strength has "
                f"no finite estimate (play more games, or a closer field)"
            )

    def minus_log_likelihood(s):
        d = s[i] - s[j]
        p = 1 / (1 + np.exp(-d))
        value = np.sum(wins * np.logaddexp(0, -d) + (games - wins) * np.logaddexp(0, d))  # -log p, -log(1 - p)
        grad = np.bincount(i, games * p - wins, len(players)) - np.bincount(j, games * p - wins, len(players))
        return value, grad

    fit = minimize(
        minus_log_likelihood,
        np.zeros(len(players)),
        jac=True,
        method="BFGS",
        options={"gtol": 1e-10, "maxiter": 10_000},
    )
    strength = fit.x - fit.x.mean()
    p = 1 / (1 + np.exp(-(strength[i] - strength[j])))
    information = np.zeros((len(players), len(players)))
    weight = games * p * (1 - p)
    np.add.at(information, (i, i), weight)
    np.add.at(information, (j, j), weight)
    np.add.at(information, (i, j), -weight)
    np.add.at(information, (j, i), -weight)
    se = np.sqrt(np.diag(np.linalg.pinv(information)))
    z = norm.ppf(0.5 + level / 2)
    frame = pd.DataFrame(
        {
            "player": players,
            "strength": strength,
            "se": se,
            "lo": strength - z * se,
            "hi": strength + z * se,
            "games": played.astype(int),
        }
    )
    return frame.sort_values("strength", ascending=False, ignore_index=True)


def pairwise(
    game,
    players: dict,
    n: int,
    seed: int = 0,
    rules=None,
    objective: str = "games",
    threads=None,
    progress: bool = False,
) -> pd.DataFrame:
    """Every pair of ``players`` (``{label: {decision: policy}}``) on the same ``n`` seeds: a frame of player,
    opponent, wins of the player and games.

    ``games``: the two play each other, seats exchanged (``n`` games a placement).  ``stakes`` (a game of
    many seats and no winner): each player takes each seat in turn against the game's defaults on the same
    ``n`` deals, and of two players the one who wins more money on a deal wins it (the same: a half each)."""
    from .progress import progress_bar

    game = get_game(game)
    rules = game.get_rules(rules)
    defaults = {d.name: d.default for d in game.decisions}
    pairs = list(combinations(players, 2))
    bar = progress_bar(
        total=len(pairs) if objective == "games" else len(players), desc="ratings", leave=False, disable=not progress
    )
    rows = []
    if objective == "games":
        for a, b in pairs:
            values = outcomes.paired_values(
                game, rules, {**defaults, **players[b]}, players[a], "games", n, seed, threads
            )
            placements = outcomes.sides(rules)
            rows.append({"player": a, "opponent": b, "wins": float(values.sum() * placements), "games": n * placements})
            bar.update(1)
    else:
        money = {}
        for label, player in players.items():
            money[label] = outcomes.paired_values(game, rules, defaults, player, objective, n, seed, threads)
            bar.update(1)
        for a, b in pairs:
            rows.append(
                {
                    "player": a,
                    "opponent": b,
                    "wins": float(np.sum(0.5 + 0.5 * np.sign(money[a] - money[b]))),
                    "games": n,
                }
            )
    bar.close()
    return pd.DataFrame(rows, columns=["player", "opponent", "wins", "games"])


def plot_ladder(ratings: pd.DataFrame, ax=None, title: str | None = None):
    """The ladder: each player's strength with its 95% interval, best at the top."""
    import matplotlib.pyplot as plt

    ax = ax or plt.subplots(figsize=(6, 0.45 * len(ratings) + 1.2))[1]
    order = ratings.iloc[::-1]
    y = np.arange(len(order))
    ax.errorbar(
        order["strength"],
        y,
        xerr=[order["strength"] - order["lo"], order["hi"] - order["strength"]],
        fmt="o",
        capsize=3,
    )
    ax.set_yticks(y, order["player"])
    ax.axvline(0, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("Bradley–Terry strength (logit of the win chance against the mean player), 95% interval")
    ax.set_ylabel("player")
    if title:
        ax.set_title(title)
    return ax
