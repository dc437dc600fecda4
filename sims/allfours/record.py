"""All Fours' part of game records and of the table (:mod:`sims.core.record`, :mod:`sims.core.table`).

The decisions are the eldest's beg, the dealer's answer, each card of the play and
(``discard_to_six``) each card thrown out; a record line holds the fields of
:class:`~sims.allfours.situation.BegSituation`, ``AnswerSituation``, ``PlaySituation``
or ``DiscardSituation``, e.g.::

    {"player": 1, "decision": "beg", "hand": "7H 8C 5D 2S QD 3C", "turned": "JS", "score": [1, 0],
     "choice": "beg"}
    {"player": 0, "decision": "play", "hand": "AS 2S 9D", "turned": "JS", "played": "KS", "role": "dealer",
     "score": [3, 2], "choice": "AS"}

``score`` is (mine, theirs) now (the knave turned up and the gift already in it);
``turned`` every card turned up, in order.  Every choice is graded by the All Fours
advisor's play-outs to the end of the hand (to the end of the game, with the chance
of winning, when the score is given).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..cards import format_cards
from .situation import ROLE_NAMES, from_engine

EXAMPLE = Path(__file__).parent / "data" / "example-record.jsonl"  # a hand-typed record of one hand


def situation(decision: str, hand, played, state, rules, earlier=()):
    """The situation of an engine decision (the laws say who played each card: ``earlier`` is not needed)."""
    return from_engine(decision, hand, played, state, rules)


def fields(situation) -> dict:
    from ..core.record import situation_fields

    cards = {name: format_cards for name in ("hand", "turned", "played", "discarded")}
    return situation_fields(situation, {**cards, "role": lambda r: ROLE_NAMES[situation.rules.players][r]})


def play_game(rules, fns: dict, seed: int, item: int, on_deal=None) -> dict:
    """Game ``item`` of the run ``seed`` by the reference engine, seat s's decisions by ``fns[decision][s]``:
    the row ``play_games(..., records=True).games`` gives it; ``on_deal`` is called with each
    :class:`~sims.allfours.reference.Hand` as it ends."""
    from . import reference as ref
    from .game import GAME

    seats = {d: [ref.SeatPolicy(d, fn, np.zeros(0)) for fn in seat_fns] for d, seat_fns in fns.items()}
    size = GAME.chunk_size["games"]
    keys = ref.chunk_keys(seed, item // size, 1, GAME.n_streams)[0]
    return ref.play_game(rules, *ref.streams(keys, item % size, rules.players), seats, on_deal).record()
