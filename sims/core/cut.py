"""The cut for deal, as the rule books have it: every player cuts a card from the pack, the lowest in the game's
order deals, and players tied for lowest cut again from the whole pack.

A game gives its order as a vector over the card ids, ``order[card]``, lower cutting lower: an ace-low order, or
one where the highest card deals turned round.  A cut card is drawn as a deal draws it, one Fisher-Yates step
from the front of the pack, so the engine and the reference engines draw the same random numbers.
"""

from __future__ import annotations

from .kernel import njit
from .rng import randint


@njit(cache=True, refcounts=False)
def cut_for_deal(deck_rng, players, deck, order):
    """The seat that deals first (see the module docstring); ``deck`` is scratch of the pack's size."""
    pack = order.shape[0]
    cutting = (1 << players) - 1
    while True:
        for i in range(pack):
            deck[i] = i
        low, low_mask = pack, 0
        pos = 0
        for p in range(players):
            if not (cutting >> p) & 1:
                continue
            j = pos + randint(deck_rng, pack - pos)
            deck[pos], deck[j] = deck[j], deck[pos]
            standing = order[deck[pos]]
            pos += 1
            if standing < low:
                low, low_mask = standing, 1 << p
            elif standing == low:
                low_mask |= 1 << p
        if low_mask & (low_mask - 1) == 0:
            for p in range(players):
                if low_mask == 1 << p:
                    return p
        cutting = low_mask


def reference_cut_for_deal(deck_rng, players, order, cuts=None) -> int:
    """The same cut, card by card, for the reference engines.  ``cuts``, if a list, receives each round's cuts
    as ``{seat: card}``."""
    cutting = list(range(players))
    while True:
        pack = list(range(len(order)))
        cut = {}
        for pos, p in enumerate(cutting):
            j = pos + int(randint(deck_rng, len(pack) - pos))
            pack[pos], pack[j] = pack[j], pack[pos]
            cut[p] = pack[pos]
        if cuts is not None:
            cuts.append(cut)
        low = min(order[card] for card in cut.values())
        cutting = [p for p in cutting if order[cut[p]] == low]
        if len(cutting) == 1:
            return cutting[0]
