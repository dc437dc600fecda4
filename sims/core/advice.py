"""What every game's advisor shares: :class:`Player`, the rollout statistics, and the ``chosen_by`` column.

A game's advisor (its ``advice`` module) builds its situations (public facts,
readable cards, one ``to_state()`` giving the arrays its kernel policies see) and
values every legal choice; what does not depend on the game lives here:

* :class:`Player`: any policy of a game (a built-in name, ``name:param=value``, a
  ``{name, params}`` table, a Policy, a user's njit function) answering one decision
  at a time with the call the engine makes, from its own seeded stream (the stream of
  a seat, so a replay can give it a copy of the engine's);
* :func:`rollout_columns`: the mean value of each choice over the rollouts, its standard error
  (zero when every hidden deal was enumerated), and its difference from the best choice
  paired over the same rollouts (common random numbers);
* :func:`chosen_by`: which named policies make each choice; :func:`advice_frame`, the answer
  as a frame.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np

POLICY_SEED_STREAM = 1  # a Player's stream: chunk key of (seed, chunk 0) for this stream, item 0
MAX_SAMPLES = 100_000  # sampled deals of one advice (each a stacked pack in memory, played once a choice)


class Player:
    """A policy of the game for one decision, answering :meth:`choose` for a situation of that decision.

    Each game's ``advice`` module has its ``Player`` (``<game package>.advice.Player``), whose defaults are
    the game's strongest policy and its decision.

    Parameters
    ----------
    policy : str or callable, optional
        A built-in or plug-in policy's name, or an njit function with the decision's signature.
    params : sequence of float, optional
        The policy's parameters (default its own).
    seed : int
        Seed of the player's random stream.
    decision : str, optional
        The decision the policy makes (default the game's ``default_decision``).
    """

    game = ""
    default_policy = ""
    default_decision = ""

    def __init__(self, policy=None, params=None, seed: int = 0, decision: str | None = None):
        from .jobs import resolve_one
        from .registry import get_game
        from .rng import chunk_keys, seed_state

        self.policy = resolve_one(
            get_game(self.game),
            decision or self.default_decision,
            self.default_policy if policy is None else policy,
            params,
        )
        self.rng = np.empty(4, dtype=np.uint64)
        seed_state(self.rng, chunk_keys(seed, 0, 1, POLICY_SEED_STREAM + 1)[0, POLICY_SEED_STREAM], 0)

    @property
    def name(self) -> str:
        return self.policy.label()

    def choose(self, situation, rng: np.ndarray | None = None) -> str:
        """The choice for ``situation``, readable (``"5H"``, ``"beg"``).

        Parameters
        ----------
        situation : situation
            A situation of the player's decision.
        rng : numpy.ndarray, optional
            A uint64[4] stream to draw from (default the player's own, which advances as a seat's does in the
            engine).

        Returns
        -------
        str
            The choice.
        """
        if situation.DECISION != self.policy.decision:
            raise ValueError(
                f"{self.name!r} is a {self.policy.decision} policy; this is a {situation.DECISION} decision"
            )
        from .errors import raised_by_policy
        from .streams import guarded_call

        where = f"a {situation.DECISION} decision"
        with raised_by_policy([self.policy], where):
            return guarded_call(
                lambda stream: situation.decide(self.policy, stream),
                self.rng if rng is None else rng,
                f"policy {self.name!r} ({where})",
            )


def check_samples(samples) -> int:
    """The number of sampled deals, a whole number from 2 to MAX_SAMPLES; else a one-line error."""
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or not 2 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be an integer from 2 to {MAX_SAMPLES:,}, got {samples!r}")
    return int(samples)


def ways_to_deal(n_cards: int, sizes) -> int:
    """How many ways ``n_cards`` unseen cards can give each player his ``sizes[i]`` of them."""
    ways, left = 1, n_cards
    for size in sizes:
        ways *= comb(left, size)
        left -= size
    return ways


def every_deal(cards, sizes) -> np.ndarray:
    """Every way to give player i ``sizes[i]`` of ``cards``: one row each, the players' cards in turn, then the
    cards left in their order."""

    def deals(cards, sizes):
        if not sizes:
            yield ()
            return
        for hand in combinations(cards, sizes[0]):
            if len(sizes) == 1:
                yield hand
                continue
            rest = [c for c in cards if c not in hand]
            for tail in deals(rest, sizes[1:]):
                yield hand + tail

    cards = np.asarray(cards, dtype=np.int64)
    hands = list(deals(cards.tolist(), list(sizes)))
    dealt = np.asarray(hands, dtype=np.int64).reshape(len(hands), sum(sizes))  # one empty deal when none is dealt
    held = np.zeros((len(dealt), int(cards.max(initial=0)) + 1), dtype=bool)
    held[np.arange(len(dealt))[:, None], dealt] = True
    left = np.broadcast_to(cards, (len(dealt), len(cards)))[~held[:, cards]].reshape(len(dealt), -1)
    return np.concatenate([dealt, left], axis=1)


def deals_of(unseen, sizes, samples: int, seed: int) -> tuple[np.ndarray, bool]:
    """The deals of the ``unseen`` cards into hands of ``sizes``: every one (:func:`every_deal`; True) when there
    are at most ``samples``, else ``samples`` uniformly random ones (a permutation of ``unseen`` a row; False)."""
    if ways_to_deal(len(unseen), sizes) <= samples:
        return every_deal(unseen, sizes), True
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(unseen) for _ in range(samples)]), False


def card_answer(situation, policy, rng, legal, rule: str) -> str:
    """The card of ``legal`` that ``policy`` plays in ``situation``, called as the engine calls it (a lone legal
    card is played unasked); an index outside ``legal`` is a PolicyError naming ``rule``."""
    from ..cards import format_card, format_cards
    from .errors import PolicyError

    if len(legal) == 1:
        return format_card(legal[0])
    arrays = situation.to_state()
    i = int(policy.fn(arrays.hand, arrays.played, arrays.state, arrays.rules, rng, policy.params_array()))
    if not (0 <= i < len(arrays.hand) and arrays.hand[i] in legal):
        raise PolicyError(
            f"{situation.DECISION} policy {policy.label()!r} chose index {i} holding "
            f"{format_cards(c for c in arrays.hand if c >= 0)}: it must pick one of "
            f"{format_cards(legal)} ({rule})"
        )
    return format_card(int(arrays.hand[i]))


def rollout_columns(values: np.ndarray, exact: bool, name: str, best: int | None = None) -> dict:
    """Columns for ``values[rollout, choice]``: the mean, its standard error (0 when ``exact``, NaN from one
    sampled rollout), and each choice's difference from the best choice (``best``, by default the highest mean)
    paired over the rollouts with its standard error."""
    mean = values.mean(axis=0)
    best = int(np.argmax(mean)) if best is None else best
    diff = values - values[:, [best]]
    m = values.shape[0]
    if exact:
        se = diff_se = np.zeros_like(mean)
    elif m < 2:  # one sampled rollout has no spread to measure
        se = diff_se = np.full_like(mean, np.nan)
    else:
        se, diff_se = (v.std(axis=0, ddof=1) / np.sqrt(m) for v in (values, diff))
    label = "" if name == "value" else f"{name}_"
    return {
        name: mean,
        f"{name}_se" if name != "value" else "se": se,
        f"{label}vs_best": diff.mean(axis=0),
        f"{label}vs_best_se": diff_se,
    }


def best_first(by: np.ndarray, points: np.ndarray) -> list[int]:
    """The choices best first (issue 34: one best for every advisor): by ``by`` (the chance of winning where a
    score gives one, else the points), then by the ``points``; equal choices keep their order."""
    return sorted(range(len(points)), key=lambda c: (-by[c], -points[c]))


def advice_frame(labels, values: np.ndarray, exact: bool, chosen: dict[str, str], **attrs):
    """An advisor's answer: ``choice, value, se, vs_best, vs_best_se, chosen_by`` for ``values[rollout, choice]``
    (:func:`rollout_columns`, :func:`chosen_by` of ``chosen``), best first, ``attrs`` its frame's attrs (with
    ``sort="value"``, and by default ``method``, ``exact`` or ``rollouts``, and ``deals``, the rollouts)."""
    import pandas as pd

    frame = pd.DataFrame({"choice": labels, **rollout_columns(values, exact, "value")})
    frame["chosen_by"] = chosen_by(chosen, labels)
    frame = frame.sort_values("value", ascending=False, kind="stable").reset_index(drop=True)
    frame.attrs.update(attrs)  # the caller's in its order, then what it left to the defaults
    frame.attrs.setdefault("method", "exact" if exact else "rollouts")
    frame.attrs.setdefault("deals", len(values))
    frame.attrs["sort"] = "value"
    return frame


def choices_of(player_class, situation, policies, seed: int) -> dict[str, str]:
    """``{policy label: its choice}`` for each named policy (those with no table for these rules left out)."""
    from .errors import PolicyError

    out = {}
    for name in policies:
        player = player_class(name, seed=seed, decision=situation.DECISION)
        try:
            out[player.name] = player.choose(situation)
        except PolicyError:
            continue
    return out


def chosen_by(choices: dict[str, str], labels) -> list[str]:
    """For each choice label, the policies that make it (comma separated, sorted)."""
    return [", ".join(sorted(n for n, c in choices.items() if c == label)) for label in labels]
