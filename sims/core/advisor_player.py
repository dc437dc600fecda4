"""A seat that follows the advisor at every decision: :class:`AdvisorPlayer`.

The player asks the ``advice`` its game declares (``Game.part("advice")``) to value every
legal choice of the situation and plays the best one, the first row of the advisor's frame
(the one definition of the best choice: the best chance of winning where a score is known,
else the most points or stakes).  It answers ``choose(situation)`` as any chooser does, so
:func:`sims.core.table.play` seats it beside policies (``seats=["advisor", "expert"]``, or
``"advisor:samples=64"``), and ``sims duel --against advisor`` sets it against you.

Each decision samples ``samples`` deals of the unseen cards (``exact_limit``: every deal is
played when there are at most this many, the advisor's own limit by default), seeded from the
player's own stream (``seed``), so the same seed and the same decisions give the same game; the
decisions after the choice are played by the advisor's own play-outs, or by ``playout`` (as
``sims review --playout`` takes it).  When too few of the sampled deals fit what the others have
shown (a void, a failure to head) the advisor says so, and the decision is sampled again with
:data:`RETRY` times the deals.
"""

from __future__ import annotations

import numpy as np

NAME = "advisor"  # the seat's name at the table, and the word that seats it
SAMPLES = 200  # sampled deals a decision by default: a whole game in seconds
RETRY = 10  # a decision whose sampled deals break what the others have shown is sampled again, this many times more
CHOICE_COLUMNS = ("card", "choice", "thrown")  # the advisors' frames name the choice by one of these


def choice_column(frame) -> str:
    """The column of an advisor's frame that names each choice."""
    return next(k for k in CHOICE_COLUMNS if k in frame)


class AdvisorPlayer:
    """A chooser that plays the advisor's best choice (module docstring).

    Parameters
    ----------
    game : str or Game
        The game (its ``advice`` part values the choices).
    samples : int
        Deals of the unseen cards each decision samples.
    seed : int or sequence of int
        Seed of the player's stream (each decision's sampled deals and play-outs; ``numpy.random.default_rng``).
    exact_limit : int, optional
        Play every deal of the unseen cards when there are at most this many (default the advisor's).
    playout : str or dict, optional
        The policy (``{decision: policy}``) of every player after the choice (default the advisor's).
    """

    def __init__(self, game, samples: int = SAMPLES, seed=0, exact_limit: int | None = None, playout=None):
        from .advice import check_samples
        from .registry import get_game

        self.game = get_game(game) if isinstance(game, str) else game
        self.advice = self.game.part("advice")
        self.samples = check_samples(samples)
        if exact_limit is not None and (isinstance(exact_limit, bool) or not isinstance(exact_limit, int)):
            raise ValueError(f"exact_limit must be a whole number, got {exact_limit!r}")
        self.exact_limit, self.playout = exact_limit, playout
        self.stream = np.random.default_rng(seed)
        self.decisions, self.retried = 0, 0  # decisions taken, and those sampled again with more deals

    @property
    def name(self) -> str:
        return f"{NAME}:samples={self.samples}"

    def choose(self, situation) -> str:
        """The advisor's best choice for ``situation``, readable (``"7H"``, ``"JD KD"``, ``"stand"``)."""
        options = {"exact_limit": self.exact_limit, "playout": self.playout}  # those set: the advisor's defaults
        seed = int(self.stream.integers(2**62))
        frame, retried = advise_fitting(
            self.advice,
            situation,
            self.samples,
            seed,
            policies=(),
            **{k: v for k, v in options.items() if v is not None},
        )
        self.retried += retried
        self.decisions += 1
        return str(frame.iloc[0][choice_column(frame)])


def advise_fitting(advice, situation, samples: int, seed: int, **options):
    """``(frame, retried)``: the ``advice`` module's frame for ``situation``; when too few of the sampled deals fit
    what the others have shown (a void, a failure to head) it is sampled again with :data:`RETRY` times the deals
    (``retried`` True)."""
    from .advice import MAX_SAMPLES

    try:
        return advice.advise(situation, samples=samples, seed=seed, **options), False
    except ValueError:
        return advice.advise(situation, samples=min(RETRY * samples, MAX_SAMPLES), seed=seed, **options), True


def advisor_seat(spec, game, seed=0):
    """An :class:`AdvisorPlayer` for a seat named ``advisor`` or ``advisor:samples=N`` (``exact_limit=N`` too);
    None for any other seat."""
    if not isinstance(spec, str) or spec.partition(":")[0] != NAME:
        return None
    options = {}
    for part in filter(None, spec.partition(":")[2].split(",")):
        key, _, value = part.partition("=")
        if key not in ("samples", "exact_limit") or not value.strip().isdigit():
            raise ValueError(f"the advisor takes samples=N and exact_limit=N, got {part!r}")
        options[key] = int(value)
    return AdvisorPlayer(game, seed=seed, **options)
