"""Loo's part of game records and of the table (:mod:`sims.core.record`, :mod:`sims.core.table`).

The decisions are each player's declaration (play, take the miss, or pass), the
five-card exchange and each card of the play where the laws leave a choice; a record
line holds the fields of :class:`~sims.loo.situation.DeclareSituation`,
``ExchangeSituation`` or ``CardSituation``, e.g.::

    {"player": 2, "decision": "declare", "hand": "AH 7H 2C", "trump": "9H", "role": 2,
     "declared": ["pass"], "carry": 6, "choice": "play"}
    {"player": 2, "decision": "card", "hand": "AH - 2C", "trump": "9H", "role": 2,
     "declared": ["pass", "play", "play"], "carry": 6, "played": "KH 7H 3H", "choice": "2C"}

``hand`` keeps its order, ``-`` where a card was played; ``carry`` is the money held
over into the pool.  A game is a session (``session_rounds`` rounds); the result
line is the engine's session row.  Every choice is graded in money (units of the
stake) by the Loo advisor's play-outs to the end of the deal.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..cards import format_card, format_cards
from .contract import DECLARATIONS
from .situation import from_engine, role_name

EXAMPLE = Path(__file__).parent / "data" / "example-record.jsonl"  # a hand-typed record of one deal


def situation(decision: str, hand, played, state, rules, earlier=()):
    """The situation of an engine decision (the laws say who played each card: ``earlier`` is not needed)."""
    return from_engine(decision, hand, played, state, rules)


def fields(situation) -> dict:
    from ..core.record import situation_fields

    return situation_fields(
        situation,
        {
            "hand": lambda hand: " ".join("-" if c < 0 else format_card(c) for c in hand),
            "trump": format_card,
            "played": format_cards,
            "role": lambda r: role_name(r) if r < 2 else r,
            "declared": lambda declared: [DECLARATIONS[d] for d in declared],
        },
    )


def play_game(rules, fns: dict, seed: int, item: int, on_deal=None) -> dict:
    """Session ``item`` of the run ``seed`` by the reference engine, seat s's decisions by ``fns[decision][s]``:
    the row ``play_games(..., records=True).games`` gives it; ``on_deal`` is called with each
    :class:`~sims.loo.reference.Deal` as it ends."""
    from . import reference as ref
    from .game import GAME

    seats = {d: [ref.SeatPolicy(d, fn, np.zeros(0)) for fn in seat_fns] for d, seat_fns in fns.items()}
    size = GAME.chunk_size["games"]
    keys = ref.chunk_keys(seed, item // size, 1, GAME.n_streams)[0]
    session = ref.play_session(rules, *ref.streams(keys, item % size, rules.players), seats, on_deal)
    return session.record(rules.players)
