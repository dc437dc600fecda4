"""Game records and their review: what PGN is to chess, for cribbage decisions.

A record is JSON Lines.  The first line is the header::

    {"format": "sims-record/1", "game": "cribbage", "rules": "six-card", "seed": 0,
     "players": ["you", "defensive"]}

and every further line one decision, with the situation as the player knew it
(the fields of :class:`~sims.cribbage.situation.DiscardSituation` or
:class:`~sims.cribbage.situation.PegSituation`, cards readable) and the choice::

    {"player": 0, "decision": "discard", "hand": "5H 5S JD 6C 4H KD", "role": "dealer",
     "score": [95, 110], "choice": "JD KD"}
    {"player": 1, "decision": "peg", "hand": "7H 8C 5D", "played": "KS 2S 5H", "role": "dealer",
     "starter": "2C", "thrown": "QD 3C", "choice": "7H"}

``player`` indexes the header's ``players``; ``score`` is (mine, theirs).  A record
typed by hand for a real game is read the same way (:data:`EXAMPLE`, the start
of the play of one deal).  :func:`review` grades every
decision against the advisor (:func:`sims.cribbage.advice.advise`): the best
choice, the points the choice lost with their standard error, and the chance of
winning it lost when the score is given; a loss is an ``inaccuracy``, a
``mistake`` or a ``blunder`` past the thresholds below, as chess analysis
boards grade moves.
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

FORMAT = "sims-record/1"
EXAMPLE = Path(__file__).parent / "data" / "example-record.jsonl"    # a hand-typed record of one deal's start
DECISION_FIELDS = {"discard": ("hand", "role", "score", "dealer"),
                   "peg": ("hand", "played", "role", "starter", "thrown", "score", "mine", "laid_by", "dealer")}
# Grades by the chance of winning lost (with a score), else by the points lost.
GRADES = (("blunder", 0.10, 1.0), ("mistake", 0.05, 0.5), ("inaccuracy", 0.02, 0.25))


def read_record(path) -> tuple[dict, list]:
    """The header and the decisions (situation, player, choice) of a record; a one-line error naming the
    line of anything wrong."""
    from .situation import DiscardSituation, PegSituation

    lines = [line for line in Path(path).read_text().splitlines() if line.strip()]
    if not lines:
        raise ValueError(f"{path}: empty record")
    rows = []
    for number, line in enumerate(lines, 1):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path} line {number}: not JSON ({exc.msg})") from None
    header = rows[0]
    if header.get("format") != FORMAT or header.get("game") != "cribbage":
        raise ValueError(f"{path} line 1: the header must say format {FORMAT!r} and game 'cribbage'")
    players = header.get("players")
    if not isinstance(players, list) or not players:
        raise ValueError(f"{path} line 1: the header must list the players")
    rules = header.get("rules", "six-card")
    decisions = []
    for number, row in enumerate(rows[1:], 2):
        kind = row.get("decision")
        if kind not in DECISION_FIELDS:
            raise ValueError(f"{path} line {number}: decision must be discard or peg, got {kind!r}")
        unknown = sorted(set(row) - set(DECISION_FIELDS[kind]) - {"decision", "player", "choice"})
        if unknown:
            raise ValueError(f"{path} line {number}: unknown field {unknown[0]!r} for a {kind} decision")
        if not isinstance(row.get("player"), int) or not 0 <= row["player"] < len(players):
            raise ValueError(f"{path} line {number}: player must be 0..{len(players) - 1}")
        if "choice" not in row:
            raise ValueError(f"{path} line {number}: no choice")
        facts = {k: row[k] for k in DECISION_FIELDS[kind] if k in row}
        try:
            situation = (DiscardSituation if kind == "discard" else PegSituation)(rules=rules, **facts)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{path} line {number}: {exc}") from None
        decisions.append((number, row["player"], situation, row["choice"]))
    return header, decisions


def _grade(points_lost: float, win_lost: float | None) -> str:
    for name, win, points in GRADES:
        if (win_lost is not None and win_lost >= win) or (win_lost is None and points_lost >= points):
            return name
    return ""


def review(path, samples: int = 2_000, seed: int = 0, playout=None) -> pd.DataFrame:
    """Every decision of a record graded (module docstring): ``line, player, decision, choice, best,
    points_lost, points_lost_se, win_lost, grade``; ``attrs["totals"]`` the sums per player.  ``playout``
    is the pegging policy every player uses after a card of the play (a built-in, a plug-in's or an njit
    function; default the advisor's)."""
    from ..cards import format_cards, parse_cards
    from .advice import DEFAULT_PLAYOUT, advise

    header, decisions = read_record(path)
    rows = []
    for number, player, situation, choice in decisions:
        frame = advise(situation, playout=playout or DEFAULT_PLAYOUT, samples=samples, seed=seed, policies=())
        key = "thrown" if situation.DECISION == "discard" else "card"
        try:
            cards = parse_cards(choice)
            chosen = format_cards(sorted(cards, key=lambda c: situation.hand.index(c) if c in situation.hand else 99))
        except ValueError as exc:
            raise ValueError(f"{path} line {number}: {exc}") from None
        options = frame.set_index(key)
        if chosen not in options.index:
            raise ValueError(f"{path} line {number}: {choice!r} is not a legal {situation.DECISION} here "
                             f"({', '.join(options.index)})")
        mine, best = options.loc[chosen], frame.iloc[0]
        if situation.DECISION == "peg":   # paired over the same deals
            lost, lost_se = -mine["vs_best"], mine["vs_best_se"]
            win_lost = -mine["win_vs_best"] if "win" in frame else None
        else:                             # the discard advisor's exact net (hand and crib); the win is exact
            lost, lost_se = frame["net"].max() - mine["net"], 0.0
            win_lost = frame["win"].max() - mine["win"] if "win" in frame else None
        win_lost = None if win_lost is None else float(win_lost) + 0.0
        rows.append({"line": number, "player": header["players"][player], "decision": situation.DECISION,
                     "choice": chosen, "best": best[key], "points_lost": float(lost) + 0.0, "points_lost_se": float(lost_se),
                     "win_lost": win_lost, "grade": _grade(float(lost), win_lost)})
    out = pd.DataFrame(rows)
    out.attrs["header"] = header
    out.attrs["totals"] = totals(out).to_dict(orient="records")
    return out


def totals(reviewed: pd.DataFrame) -> pd.DataFrame:
    """Per player: decisions, points lost (and its standard error, the decisions' added in quadrature),
    chance of winning lost, and the count of each grade."""
    grouped = reviewed.groupby("player", sort=False)
    out = grouped.agg(decisions=("line", "size"), points_lost=("points_lost", "sum"),
                      win_lost=("win_lost", lambda w: w.sum(min_count=1)))
    out["points_lost_se"] = grouped["points_lost_se"].apply(lambda s: float((s ** 2).sum() ** 0.5))
    for name, _, _ in GRADES:
        out[name] = grouped["grade"].apply(lambda g, name=name: int((g == name).sum()))
    return out.reset_index()
