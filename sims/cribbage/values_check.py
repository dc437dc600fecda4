"""The pegging advisor's values checked against the cards that were dealt: :func:`check_values`.

At a card of the play the advisor values each card over deals of the other player's hidden cards,
read from what he has shown (:func:`sims.cribbage.advice.read_deals`).  A game record holds both
players' decisions, so afterwards his hidden cards are known: the cards he kept (his throw) less
those he has laid (:func:`held_by_others`).  They are one draw of what the public facts allow, dealt
as the game deals and chosen as his policies choose; so, over many decisions, the mean of what one
card is worth more than another on the cards dealt (the same play-outs after it) is what it is worth
on the true spread of his cards, and the mean of the advisor's own difference less that is the bias
of its reading of the hidden cards (none when the deals it reads are spread as the cards are dealt).
The difference is measured where it counts: between the card the advisor's seat laid and the card
another player (``base``) would have laid there, the terms of the identity of
:mod:`sims.core.advisor_check`.
"""

from __future__ import annotations

from ..cards import format_card, format_cards


def held_by_others(record) -> dict[int, tuple[int, ...]]:
    """``{line number: the other player's cards still held}`` at each card of the play of a two-handed game
    record: the cards he kept (his throw's line in that deal) less those he has laid."""
    from ..core.record import read_record

    read = read_record(record)
    if read.rules.active != 2:
        raise ValueError(
            f"the other player's cards are read for two players; {read.rules.name} seats {read.rules.active}"
        )
    kept, out = {}, {}
    for line in read.decisions:
        situation = line.situation
        if situation.DECISION == "discard":
            thrown = set(line.choice.split())
            kept[line.game, line.player] = [c for c in situation.hand if format_card(c) not in thrown]
            continue
        his = 1 - situation.role
        laid = {c for c, r in zip(situation.played, situation.laid_by) if r == his}
        out[line.number] = tuple(c for c in kept[line.game, 1 - line.player] if c not in laid)
    return out


def check_values(
    record, seat: int, base: str = "position_distilled", samples: int = 2_000, seed: int = 0, playout=None
):
    """Each card of the play ``seat`` laid in a two-handed game record where ``base`` would have laid another:
    what the advisor (``playout``, default its own; ``samples`` deals, ``seed``) says it is worth more than the
    base's card on the deals it reads (``read``) and on the other player's cards as they were dealt (``dealt``),
    by the chance of winning where the score is known (``measure`` ``win``), else the points (``value``).

    Returns
    -------
    pandas.DataFrame
        ``line, game, score`` (the seat's, the other's), ``choice, base, held`` (the other's cards), ``measure``,
        ``read``, ``dealt`` and ``bias`` = read - dealt (module docstring: its mean is the reading's bias).
    """
    import pandas as pd

    from ..core.record import read_record
    from .advice import DEFAULT_PLAYOUT, Player, peg_advice

    held = held_by_others(record)
    playout = playout or DEFAULT_PLAYOUT
    rows = []
    for line in read_record(record).decisions:
        situation = line.situation
        if situation.DECISION != "peg" or line.player != seat or not held[line.number]:
            continue
        other = Player(base).choose(situation)
        if other == line.choice:
            continue
        measure = "value" if situation.score is None else "win"
        values = {}
        for name, dealt in (("read", None), ("dealt", held[line.number])):
            columns, _ = peg_advice(situation, playout, samples, seed + line.number, policies=(), dealt=dealt)
            worth = dict(zip(columns["card"], columns[measure]))
            values[name] = float(worth[line.choice] - worth[other])
        rows.append(
            {
                "line": line.number,
                "game": line.game,
                "score": situation.score,
                "choice": line.choice,
                "base": other,
                "held": format_cards(held[line.number]),
                "measure": measure,
                **values,
                "bias": values["read"] - values["dealt"],
            }
        )
    names = ["line", "game", "score", "choice", "base", "held", "measure", "read", "dealt", "bias"]
    return pd.DataFrame(rows, columns=names)
