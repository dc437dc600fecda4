"""The pegging advisor of notebook 08 behind controls: which card to lay in the play, by
:func:`sims.cribbage.advice.advise` (the numbers of ``sims peg``), as an :class:`~sims.analysis.advisor_widget.Advisor`
for :func:`sims.analysis.advisor_widget.advisor` and :func:`~sims.analysis.advisor_widget.show`."""

from __future__ import annotations

from ...analysis.advisor_widget import Advisor, Control
from ..contract import ROLE_NAMES
from ..rules import PRESETS


def _cards(text: str) -> str:
    return " ".join(text.replace(",", " ").split())


def peg_situation(hand, played, starter, role, thrown, score, rules):
    """A :class:`~sims.cribbage.situation.PegSituation` from the controls' text (cards apart by spaces or
    commas; ``score`` MINE-THEIRS now, yours first, as ``sims peg --score``, or empty)."""
    from ...core.text import mine_theirs
    from ..situation import PegSituation

    return PegSituation(
        _cards(hand),
        _cards(played),
        role,
        starter.strip() or None,
        _cards(thrown),
        mine_theirs(score.strip() or None, "97-104"),
        rules,
    )


def peg_advice(situation, samples, seed):
    from ..advice import advise

    return advise(situation, samples=samples, seed=seed)


ROLES = tuple(dict.fromkeys(name for names in ROLE_NAMES.values() for name in names))
PEGGING = Advisor(
    "which card to lay in the play (sims peg)",
    (
        Control("hand", hint="the cards you hold, e.g. 7H 8C 5D"),
        Control("played", hint="every card laid this deal, in order"),
        Control("starter", hint="the card turned up"),
        Control("role", ROLES),
        Control("thrown", hint="your crib cards (needed with a score)"),
        Control("score", hint="mine-theirs now, yours first, e.g. 97-104"),
        Control("rules", tuple(PRESETS), default="six-card"),
    ),
    peg_situation,
    peg_advice,
)
