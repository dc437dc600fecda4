"""Cribbage's part of game records and of the table (:mod:`sims.core.record`, :mod:`sims.core.table`).

The decisions are the throw to the crib (:class:`~sims.cribbage.situation.DiscardSituation`)
and each card of the play (:class:`~sims.cribbage.situation.PegSituation`); a record line
holds their fields, e.g.::

    {"player": 0, "decision": "discard", "hand": "5H 5S JD 6C 4H KD", "role": "dealer",
     "score": [95, 110], "choice": "JD KD"}
    {"player": 1, "decision": "peg", "hand": "7H 8C 5D", "played": "KS 2S 5H", "role": "dealer",
     "starter": "2C", "thrown": "QD 3C", "choice": "7H"}

``score`` is (mine, theirs); ``laid_by`` (each played card's player) appears only where
the order of play does not say.  A discard is graded by ``sims discard``'s exact nets
(and chance of winning), a card of the play by the pegging advisor's play-outs.  The best
choice is the advisor's: the best chance of winning where the score gives one, else the most
points; the points and the chance lost are both measured from it (a choice may then lose
negative points: more points, a smaller chance).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ..cards import format_card, format_cards, parse_card
from .contract import ROLE_NAMES
from .situation import from_engine, resolve_laid_by

EXAMPLE = Path(__file__).parent / "data" / "example-record.jsonl"  # a hand-typed record of one deal's start
PLAYOUT = "peg"  # review --playout POLICY: the pegging after the choice (sims.core.record.check_playout)


def situation(decision: str, hand, played, state, rules, earlier=()):
    """The situation of an engine decision; who laid each card, where the order of play does not say, from the
    ``earlier`` decisions of the game (:class:`sims.core.table.Decided`)."""
    laid_by = None
    if decision == "peg":
        who = {parse_card(d.choice): d.situation.role for d in earlier if d.decision == "peg"}
        laid_by = [who.get(int(c)) for c in played if c >= 0]
    return from_engine(decision, hand, played, state, rules, laid_by)


def fields(situation) -> dict:
    """The record fields of a situation, cards readable."""
    names = ROLE_NAMES[situation.rules.active]
    out = {"hand": format_cards(situation.hand), "role": names[situation.role]}
    if situation.DECISION == "peg":
        out.update(
            played=format_cards(situation.played),
            starter=format_card(situation.starter),
            thrown=format_cards(situation.thrown),
        )
        try:
            resolve_laid_by(situation.rules, situation.role, situation.hand, situation.played)
        except ValueError:
            out["laid_by"] = [names[r] for r in situation.laid_by]
    if situation.score is not None:
        out["score"] = list(situation.score)
    out["dealer"] = situation.dealer
    return out


def play_game(rules, fns: dict, seed: int, item: int, on_deal=None) -> dict:
    """Game ``item`` of the run ``seed`` by the reference engine, seat s's decisions by ``fns[decision][s]``
    (the njit policy signature): the row ``play_games(..., records=True).games`` gives it; ``on_deal`` is called
    with each :class:`~sims.cribbage.reference.Deal` as it ends."""
    from . import reference as ref
    from .game import GAME

    seats = tuple([ref.SeatPolicy(d, fn) for fn in fns[d]] for d in ("discard", "peg"))
    keys = ref.chunk_keys(seed, item // GAME.chunk_size["games"], 1, GAME.n_streams)[0]
    game = ref.play_game(rules, *ref.streams(keys, item % GAME.chunk_size["games"]), seats, on_deal)
    return {**game.record(), "first_dealer_side": ref.side_of(rules, game.first_dealer)}


def grade(situation, choice: str, samples: int, seed: int, playout=None) -> dict:
    """``choice`` against the advisor: a discard by its exact net, a card of the play paired over the same deals
    (:func:`sims.core.record.paired_grade`); the chance of winning too where a board-position table ships for
    the rules (two-handed six-card, six-card-61, five-card) and, for a card, for players who peg by ``playout``."""
    from ..core.record import paired_grade
    from .advice import DEFAULT_PLAYOUT, advise
    from .odds.layout import table_ships
    from .policies import resolve
    from .policies.position import PRESETS

    playout = resolve("peg", playout or DEFAULT_PLAYOUT)
    if situation.score is not None and (
        situation.rules.active != 2
        or situation.rules.name not in PRESETS
        or (situation.DECISION == "peg" and not table_ships(peg=playout.name))
    ):
        situation = dataclasses.replace(situation, score=None)  # no board-position table: points only
    if situation.DECISION == "peg":
        frame = advise(situation, playout=playout, samples=samples, seed=seed, policies=())
        return paired_grade(frame, "card", choice)
    frame = advise(situation, samples=samples, seed=seed, policies=())
    by_throw = frame.set_index("thrown")
    mine, best = by_throw.loc[choice], frame.iloc[0]  # best first by the chance of winning, else by the net
    has_win = "win" in frame
    return {
        "best": best["thrown"],
        "points_lost": float(best["net"] - mine["net"]),
        "points_lost_se": 0.0,
        "win": float(mine["win"]) if has_win else None,
        "win_lost": float(best["win"] - mine["win"]) if has_win else None,
    }
