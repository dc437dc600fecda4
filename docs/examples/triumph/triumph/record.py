"""Triumph's part of game records and of the table (:mod:`sims.core.record`, :mod:`sims.core.table`): a record
line holds the fields of :class:`CardSituation`, e.g. ``{"player": 1, "decision": "card", "hand": "AH - 2C 9D -",
"turned": "7S", "played": "KH 3H JC QC 4H", "seat": 1, "choice": "9D"}``; a choice is graded by the advisor."""

from pathlib import Path

from sims.cards import format_card
from sims.core.driver import item_streams

from . import reference
from .game import GAME
from .rules import S_SEAT, S_TURNED
from .situation import CardSituation

EXAMPLE = Path(__file__).parent / "data" / "example-record.jsonl"  # one game of sims play --record


def situation(decision: str, hand, played, state, rules, earlier=()) -> CardSituation:
    """An engine decision's situation: this deal's cards so far are the choices of ``earlier`` (the game's
    decisions before it) since the deal began (each deal before it had every card played)."""
    this_deal = " ".join(d.choice for d in earlier[len(earlier) - len(earlier) % (rules.players * rules.cards) :])
    hand = " ".join("-" if c < 0 else format_card(c) for c in hand)
    return CardSituation(hand, format_card(state[S_TURNED]), this_deal, int(state[S_SEAT]), rules)


def play_game(rules, fns: dict, seed: int, item: int, on_deal=None) -> dict:
    """Game ``item`` of the run ``seed`` by the reference engine on the kernel's streams, seating ``fns["card"]``."""
    deck_rng, seat_rngs = item_streams(GAME, seed, item)
    tally = reference.play_game(rules, item, deck_rng, reference.seated(fns["card"], seat_rngs, rules), on_deal)
    tricks = {f"tricks_{s}": t[0] for s, t in enumerate(tally)}
    return {"first_dealer": item % rules.players, "winner": next(s for s, t in enumerate(tally) if t[2]), **tricks}
