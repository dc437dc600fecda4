"""The expert at one Loo decision: :class:`Player` and :func:`advise`.

:func:`advise` values every legal choice of a situation (:mod:`sims.loo.situation`:
play, take the miss or pass; which cards to change; which card to play) by the money
it brings me in this deal: what I take out of the pool (a share for each trick, the
whole pool for a flush or when the dealer gives up the stakes) less what I pay if I am
looed (a stake I staked before the deal is not counted: it is the same whatever I do).
The cards I have not seen are dealt to the other players, the miss and the pack (only
deals in which every card the others played was one the laws allowed them: following,
heading, the forced first lead), then the deal is played out by the
engine's own kernel (:func:`sims.loo.play.play_given`) with the declarations,
exchanges and cards already played and the choice advised given, and every later
decision made by the ``playout`` policies (the game's defaults: the expert's
declarations, threshold exchanges, greedy play).  Every choice is played out on the
same deals with the same seat streams (common random numbers): ``vs_best`` and its
``vs_best_se`` are paired differences.  In the play, when the others' cards can be
dealt in at most ``exact_limit`` ways every deal is played and the value is exact
(standard error 0, for playout policies that draw no random numbers); otherwise
``samples`` deals are drawn.  The hidden cards are dealt uniformly: the advisor does
not read the others' hands from their declarations, and the cards I changed or threw
with my hand for the miss count as unseen.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from numba import types

from ..cards import format_card
from ..core.arrays import copy_into
from ..core.advice import (Player as CorePlayer, check_samples, choices_of, chosen_by, every_deal, mean_se,
                           ways_to_deal)
from ..core.errors import PolicyError, job_policies, new_err, raised_by_policy
from ..core.kernel import njit
from ..core.kernel_types import F64_1, I64_1, I64_2, I64_2R, U64_1
from ..core.rng import chunk_keys, seed_state
from .contract import DECLARATIONS, MAX_SEATS, MISS, PLAY, CardFn, DecideFn
from .situation import first_illegal
from .play import GIVEN_CARDS, GIVEN_DECLARE, GIVEN_EXCHANGE, N_INFO, N_OUT, O_MONEY, POLICY_ERROR, new_work, play_given

DEFAULT_SAMPLES = 2_000
EXACT_LIMIT = 5_000
MAX_DRAWS = 20                  # rounds of ``samples`` random deals drawn to find deals the laws allow
DECIDES = types.UniTuple(DecideFn, MAX_SEATS)   # as the engine takes them (sims.loo.engine, not imported: its
CARDS = types.UniTuple(CardFn, MAX_SEATS)       # parallel kernels load for a second)
NAMED = {"declare": ("random", "always", "threshold", "expert"), "exchange": ("keep", "random", "threshold", "expert"),
         "card": ("random", "greedy", "expert")}


class Player(CorePlayer):
    """A Loo policy answering one decision at a time (``declare``, ``exchange`` or ``card``).

    >>> from sims.loo.situation import DeclareSituation
    >>> Player("always", decision="declare").choose(DeclareSituation("AS 5H 9C", "2H", role="eldest"))
    'play'
    """

    game = "loo"
    default_policy = "expert"
    default_decision = "card"


# ``given`` read-only, as play_dealt's NOTHING_GIVEN is: the engine and the advisor share one play_given.
@njit(types.int64(I64_1, types.int64, types.int64, types.int64, I64_2, I64_2R, DECIDES, DECIDES, CARDS, F64_1, I64_1,
                  U64_1, I64_2, I64_1), cache=True)
def _play_outs(rules, dealer, role, carry, decks, given, declare_fns, exchange_fns, card_fns, params, poff, keys,
               out, err):
    """Deal ``decks[m]`` (stacked) and play the deal with the decisions ``given[c]`` (:func:`play_given`) for
    every deal m and choice c; ``out[m, c]``: the money of the player in ``role`` (stakes included).  The seats'
    streams are keyed by m: the same for every choice.  Returns 0 or POLICY_ERROR."""
    work = new_work(rules)
    seat_rngs = np.empty((MAX_SEATS, 4), dtype=np.uint64)
    no_rng = np.zeros(4, dtype=np.uint64)
    outcome = np.zeros((MAX_SEATS, N_OUT), dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    for m in range(decks.shape[0]):
        for c in range(given.shape[0]):
            for s in range(MAX_SEATS):
                seed_state(seat_rngs[s], keys[1 + s], m)
            copy_into(work[0], decks[m])
            work[1][0], work[1][1] = 0, 52
            if play_given(rules, dealer, carry, no_rng, seat_rngs, declare_fns, exchange_fns, card_fns, params, poff,
                          outcome, info, err, work, given[c]) == POLICY_ERROR:
                return POLICY_ERROR
            out[m, c] = outcome[role, O_MONEY]
    return 0


class _Template:
    """A stacked pack with holes: a card id where the card is known, ``-1 - j`` for the j-th hidden card."""

    def __init__(self):
        self.n_hidden = 0

    def hidden(self, n: int) -> list[int]:
        codes = [-1 - j for j in range(self.n_hidden, self.n_hidden + n)]
        self.n_hidden += n
        return codes


def _template(situation):
    """The pack of a play-out with holes (:class:`_Template`), the others' cards held first among the hidden
    cards: returns ``(pack, {role: cards held hidden})``."""
    n, k = situation.rules.players, situation.rules.cards
    t = _Template()
    playing = situation.DECISION == "card"
    played = getattr(situation, "played", ())
    laid_by = getattr(situation, "laid_by", ())
    current = {}
    need = {}
    if playing:
        mine = iter(c for c, r in zip(played, laid_by) if r == situation.role)
        current[situation.role] = [c if c >= 0 else next(mine) for c in situation.hand]
        for r in sorted(situation.standers):
            if r != situation.role:
                shown = [c for c, x in zip(played, laid_by) if x == r]
                need[r] = k - len(shown)
                current[r] = shown + t.hidden(need[r])
    else:
        current[situation.role] = list(situation.hand)
    dealt, miss, drawn = {}, None, {}
    declared = dict(zip([x % n for x in range(1, n + 1)], situation.declared))
    exchanged = dict(zip(situation.standers, situation.exchanged))
    for r in range(n):
        if r not in current:
            dealt[r] = t.hidden(k)
        elif playing and declared.get(r) == MISS:
            dealt[r], miss = t.hidden(k), current[r]
        else:
            x = exchanged.get(r, 0) if playing else 0
            dealt[r] = t.hidden(x) + current[r][x:]
            drawn[r] = current[r][:x]
    draws = [c for r in [x % n for x in range(1, n + 1)] for c in drawn.get(r, [])]   # the exchanges, in turn
    if situation.miss_dealt and miss is None:
        miss = t.hidden(k)
    pack = []
    for c in range(k):
        pack += [dealt[i % n][c] for i in range(1, n + 1)]
        if situation.miss_dealt:
            pack.append(miss[c])
    pack += [situation.trump] + draws
    pack += t.hidden(52 - len(pack))
    return np.asarray(pack, dtype=np.int64), need


def hidden_deals(situation, samples: int, seed: int, exact_limit: int = EXACT_LIMIT):
    """The stacked packs of the play-outs, ``int64[deals, 52]``, and whether they are every deal of the others'
    cards (a card decision with at most ``exact_limit`` of them)."""
    pack, need = _template(situation)
    holes = pack < 0
    seen = set(pack[~holes].tolist())
    unseen = np.asarray([c for c in range(52) if c not in seen], dtype=np.int64)
    laws = situation.laws
    played, laid_by = getattr(situation, "played", ()), getattr(situation, "laid_by", ())
    others = sorted(need)
    rng = np.random.default_rng(seed)
    exact = situation.DECISION == "card" and ways_to_deal(len(unseen), need.values()) <= exact_limit

    def fits(rows):
        """Deals in which each card the others played was one the laws allowed them (so none of a suit they
        have shown void in, the first lead as forced...)."""
        if not played:
            return np.ones(len(rows), dtype=bool)
        ok = np.empty(len(rows), dtype=bool)
        for i, row in enumerate(rows.tolist()):
            holdings, start = {}, 0
            for r in others:
                holdings[r] = [c for c, x in zip(played, laid_by) if x == r] + row[start:start + need[r]]
                start += need[r]
            ok[i] = first_illegal(laws, holdings, played, laid_by, len(situation.standers)) is None
        return ok

    if exact:
        rows = every_deal(unseen, [need[r] for r in others])
        rows = rows[fits(rows)]
    else:
        rows = np.zeros((0, len(unseen)), dtype=np.int64)
        for _ in range(MAX_DRAWS):
            more = unseen[rng.random((samples, len(unseen))).argsort(axis=1)]
            rows = np.concatenate([rows, more[fits(more)]])
            if len(rows) >= samples:
                break
        rows = rows[:samples]
    if not len(rows):
        raise ValueError("no deal of the unseen cards lets the others have played as they did")
    decks = np.tile(pack, (len(rows), 1))
    decks[:, holes] = rows[:, -1 - pack[holes]]
    return decks, exact


def _given(situation) -> tuple[np.ndarray, list]:
    """``given[c]`` for each legal choice c (the decisions already taken and the choice), and the labels."""
    n = situation.rules.players
    base = np.full(GIVEN_CARDS, -1, dtype=np.int64)
    base[GIVEN_DECLARE:GIVEN_DECLARE + len(situation.declared)] = situation.declared
    order = {r: t - 1 for t, r in zip(range(1, n + 1), [x % n for x in range(1, n + 1)])}
    for r, x in zip(situation.standers, situation.exchanged):
        base[GIVEN_EXCHANGE + order[r]] = (1 << x) - 1
    rows, labels = [], []
    if situation.DECISION == "declare":
        for label in situation.legal():
            row = base.copy()
            row[GIVEN_DECLARE + order[situation.role]] = DECLARATIONS.index(label)
            rows.append(row)
            labels.append(label)
    elif situation.DECISION == "exchange":
        for mask in situation.masks():
            row = base.copy()
            row[GIVEN_DECLARE + order[situation.role]] = PLAY
            row[GIVEN_EXCHANGE + order[situation.role]] = mask
            rows.append(row)
            labels.append(situation.label(mask))
    else:
        for card in situation.legal():
            rows.append(np.concatenate([base, situation.played, [card]]))
            labels.append(format_card(card))
    return np.asarray(rows, dtype=np.int64), labels


def advise(situation, playout=None, samples: int = DEFAULT_SAMPLES, seed: int = 0, policies=None,
           exact_limit: int = EXACT_LIMIT) -> pd.DataFrame:
    """Every legal choice of a Loo situation valued by play-outs, best first (module docstring).

    Parameters
    ----------
    situation : DeclareSituation, ExchangeSituation or CardSituation
        The decision as the player knows it.
    playout : dict, optional
        Decisions mapped to the policies every later decision is played by (default the game's).
    samples : int
        Deals of the unseen cards sampled when they are too many to play every one.
    seed : int
        Seed of the sampled deals and of the named policies' streams.
    policies : sequence of str, optional
        Policies whose choice the ``chosen_by`` column names (default: the game's built-in ones).
    exact_limit : int
        Play every deal of the unseen cards when there are at most this many (exact, ± 0).

    Returns
    -------
    pandas.DataFrame
        ``choice``, ``value`` (money from the deal) and ``se``, ``vs_best`` and ``vs_best_se`` (paired over the
        same deals), and ``chosen_by``.  ``attrs`` say how: ``method`` (exact or rollouts), ``deals``,
        ``playout``.
    """
    from ..core.jobs import Job

    samples = check_samples(samples)
    rules = situation.rules
    job = Job.make("loo", "deals", rules, dict(playout or {}), 1, seed)
    (declare_fns, exchange_fns, card_fns), params, poff = job.kernel_policies()
    decks, exact = hidden_deals(situation, samples, seed, exact_limit)
    given, labels = _given(situation)
    out = np.zeros((len(decks), len(given)), dtype=np.int64)
    err = new_err(1)
    keys = chunk_keys(seed, 0, 1, 1 + MAX_SEATS)[0]
    with raised_by_policy(job_policies(job), "a play-out"):
        status = _play_outs(rules.to_kernel(), situation.dealer, situation.role, situation.carry, decks, given,
                            declare_fns, exchange_fns, card_fns, params, poff, keys, out, err[0])
    if status == POLICY_ERROR:
        from .engine import describe_error

        raise PolicyError(f"a playout policy: {describe_error(job, err[0])}")
    staked = rules.stake if situation.role == 0 or (situation.carry == 0 and rules.single == "stake-all") else 0
    columns = {"choice": labels}
    columns.update(mean_se((out + staked).astype(float), exact, "value"))
    frame = pd.DataFrame(columns)
    names = NAMED[situation.DECISION] if policies is None else policies
    frame["chosen_by"] = chosen_by(choices_of(Player, situation, names, seed), labels)
    frame = frame.sort_values("value", ascending=False, kind="stable").reset_index(drop=True)
    frame.attrs.update(situation=situation.describe(), method="exact" if exact else "rollouts", deals=len(decks),
                       playout={d: p[0].label() for d, p in job.policies.items()}, seed=seed, sort="value")
    return frame
