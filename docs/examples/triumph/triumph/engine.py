"""Triumph's engine for the core: the core's chunk loop over :func:`triumph.play.play_deal` (deals) and
:func:`triumph.play.play_game` (games)."""

from numba import types

from sims.cards import format_cards
from sims.core.driver import deal_loop, play_items
from sims.core.errors import E_ANSWER, E_GAME
from sims.core.layout import Tally

from .play import GAME_TALLY, TALLY, play_deal, play_game
from .rules import MAX_SEATS, CardFn

LOOP = deal_loop(play_deal, [types.UniTuple(CardFn, MAX_SEATS)])
GAME_LOOP = deal_loop(play_game, [types.UniTuple(CardFn, MAX_SEATS)])
TALLIES = {"deals": Tally("deal", [TALLY]), "games": Tally("game", [GAME_TALLY])}  # the core's results read them


def play_chunks(job, keys, first_item, n_items, err):
    loop = GAME_LOOP if job.kind == "games" else LOOP
    return play_items(job, keys, first_item, n_items, err, loop, TALLIES[job.kind])


def describe_error(job, row) -> str:
    cards = job.rules.cards
    hand = format_cards(int(c) for c in row[E_GAME : E_GAME + cards] if c >= 0)
    led = int(row[E_GAME + cards])
    rule = f"it must follow {'CDHS'[led]} when it can" if led >= 0 else "it must name a card in the hand"
    return f"played index {int(row[E_ANSWER])} holding {hand}: {rule}"
