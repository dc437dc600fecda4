"""Triumph's engine, declared for the core: its loops over :func:`triumph.play.play_deal` (deals) and
:func:`triumph.play.play_game` (games), what each adds up, and an illegal card in words."""

from numba import types

from sims.cards import format_cards
from sims.core.driver import deal_loop, declared_chunks
from sims.core.errors import E_ANSWER, E_GAME

from .play import DEALS, GAMES, play_deal, play_game
from .rules import CARD_SIG, MAX_SEATS

CARDS = [types.UniTuple(types.FunctionType(CARD_SIG), MAX_SEATS)]  # the policies' tuple type, one per decision
LOOPS = {"deals": deal_loop(play_deal, CARDS), "games": deal_loop(play_game, CARDS)}
TALLIES = {"deals": DEALS, "games": GAMES}
play_chunks = declared_chunks(LOOPS, TALLIES)


def describe_error(job, row) -> str:
    cards, led = job.rules.cards, int(row[E_GAME + job.rules.cards])
    hand = format_cards(int(c) for c in row[E_GAME : E_GAME + cards] if c >= 0)
    rule = f"it must follow {'CDHS'[led]} when it can" if led >= 0 else "it must name a card in the hand"
    return f"played index {int(row[E_ANSWER])} holding {hand}: {rule}"
