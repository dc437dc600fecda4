"""The expert at one Loo decision: :class:`Player` and :func:`advise`.

:func:`advise` values every legal choice of a situation (:mod:`sims.loo.situation`:
play, take the miss or pass; which cards to change; which card to play) by the money
it brings me in this deal: what I take out of the pool (a share for each trick, the
whole pool for a flush or when the dealer gives up the stakes) less what I pay if I am
looed (a stake I staked before the deal is not counted: it is the same whatever I do).
The cards I have not seen are dealt to the other players, the miss and the pack (only
deals in which every card the others played was one the laws allowed them: following,
heading, trumping, the forced first lead; and in five-card, in which no other stander held
a flush, which would have swept the board without play), then the deal is played out by the
engine's own kernel (:func:`sims.loo.play.play_given`) with the declarations,
exchanges and cards already played and the choice advised given, and every later
decision made by the ``playout`` policies (by default ``PLAYOUT``, the strongest players: the
expert's declarations, exchanges and play, as the duel's expert plays; a weaker play-out undervalues
standing, whose worth lies in the play).  Every choice is played out on the
same deals with the same seat streams (common random numbers): ``vs_best`` and its
``vs_best_se`` are paired differences.  In the play, when the others' cards can be
dealt in at most ``exact_limit`` ways every deal is played and the value is exact
(standard error 0, for playout policies that draw nothing from the seats' streams: the
expert's card play draws its deals from the position's own); otherwise
``samples`` deals are drawn.  At a declaration or an exchange the deals are also
conditioned on what the players before me declared and changed: a deal is kept only if
each of them, holding the cards it deals him and knowing what was public when his turn
came, declares (and, five-card, changes as many cards) as he did under the ``playout``
policies, the same model that plays the players after me (rejection sampling; a policy
that draws random numbers draws from a seat stream of its own for each deal tried, so a
deal is kept with the chance the policy gives it); a player whose declaration the
policy made in none of the first deals tried is not held to it (the policy does not
model him: ``attrs`` name him).  ``samples`` counts the deals kept;
at most ``MAX_DRAWS`` rounds of ``samples`` deals are tried, and ``attrs`` say how many
were kept of how many tried.  In the play the others' hands are dealt uniformly among
the deals their cards played allow (their declarations are not read), and the cards I
changed or threw with my hand for the miss count as unseen.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd
from numba import types

from ..cards import format_card
from ..core.advice import (
    Player as CorePlayer,
)
from ..core.advice import advice_frame, check_samples, choices_of, every_deal, ways_to_deal
from ..core.arrays import copy_into
from ..core.errors import PolicyError, job_policies, new_err, overrun_text, raised_by_policy
from ..core.kernel import njit
from ..core.kernel_types import I64_1, I64_2, I64_2R, U64_1
from ..core.rng import chunk_keys, seed_state
from ..core.streams import seat_streams
from .contract import DECLARATIONS, MAX_SEATS, MISS, PASS, PLAY, S_EXCHANGED
from .play import (
    GIVEN_CARDS,
    GIVEN_DECLARE,
    GIVEN_EXCHANGE,
    N_INFO,
    N_OUT,
    O_MISS,
    O_MONEY,
    O_STOOD,
    PLAYERS,
    POLICY_ERROR,
    new_work,
    play_given,
)
from .rules import R_PLAYERS
from .situation import role_name
from .tricks import could_have_played

DEFAULT_SAMPLES = 2_000
EXACT_LIMIT = 5_000
MAX_DRAWS = 20  # rounds of ``samples`` random deals drawn to find deals the laws (and, at a
# declaration or an exchange, the earlier players' declarations) allow
CHECK_CHUNK = 1  # the chunk of seat streams the earlier players declare by (play-outs: chunk 0)
# The play-outs' players unless told otherwise: the strongest, those the duel's expert and the review's games play.
PLAYOUT = {"declare": "expert", "exchange": "expert", "card": "expert"}
NAMED = {
    "declare": ("random", "always", "threshold", "expert"),
    "exchange": ("keep", "random", "threshold", "expert"),
    "card": ("random", "greedy", "expert"),
}


class Player(CorePlayer):
    """A Loo policy answering one decision at a time (``declare``, ``exchange`` or ``card``).

    >>> from sims.loo.situation import DeclareSituation
    >>> Player("always", decision="declare").choose(DeclareSituation("AS 5H 9C", "2H", role="eldest"))
    'play'
    """

    game = "loo"
    default_policy = "expert"
    default_decision = "card"


@njit(cache=True)
def _scratch(rules):
    """What :func:`_play_stacked` plays with: the deal's work, the seats' streams, no pack stream (the pack is
    stacked), the outcome by role and the deal's info."""
    outcome = np.zeros((MAX_SEATS, N_OUT), dtype=np.int64)
    return new_work(rules), seat_streams(MAX_SEATS), np.zeros(4, dtype=np.uint64), outcome, np.zeros(N_INFO, np.int64)


@njit(cache=True)
def _play_stacked(rules, dealer, carry, deck, index, keys, players, err, scratch, given):
    """Play the stacked ``deck`` with the decisions ``given`` (:func:`play_given`), the seats' streams keyed by
    ``index``; the outcome by role in ``scratch[3]``.  Returns 0 or POLICY_ERROR."""
    work, seat_rngs, no_rng, outcome, info = scratch
    for s in range(MAX_SEATS):
        seed_state(seat_rngs[s], keys[1 + s], index)
    copy_into(work[0], deck)
    work[1][0], work[1][1] = 0, 52
    return play_given(rules, dealer, carry, no_rng, seat_rngs, players, outcome, info, err, work, given)


# ``given`` read-only, as play_dealt's NOTHING_GIVEN is: the engine and the advisor share one play_given.
@njit(
    types.int64(I64_1, types.int64, types.int64, types.int64, I64_2, I64_2R, PLAYERS, U64_1, I64_2, I64_1), cache=True
)
def _play_outs(rules, dealer, role, carry, decks, given, players, keys, out, err):
    """Deal ``decks[m]`` (stacked) and play the deal with the decisions ``given[c]`` (:func:`play_given`) for
    every deal m and choice c; ``out[m, c]``: the money of the player in ``role`` (stakes included).  The seats'
    streams are keyed by m: the same for every choice.  Returns 0 or POLICY_ERROR."""
    scratch = _scratch(rules)
    for m in range(decks.shape[0]):
        for c in range(given.shape[0]):
            if _play_stacked(rules, dealer, carry, decks[m], m, keys, players, err, scratch, given[c]) == POLICY_ERROR:
                return POLICY_ERROR
            out[m, c] = scratch[3][role, O_MONEY]
    return 0


@njit(
    types.int64(I64_1, types.int64, types.int64, I64_2, I64_2R, PLAYERS, U64_1, types.int64, I64_2, I64_2, I64_1),
    cache=True,
)
def _declarations(rules, dealer, carry, decks, asks, players, keys, first, made, changed, err):
    """Dealt ``decks[m]`` (stacked), what the t-th player to declare declares (``made[m, t]``) and how many cards
    he changes standing (``changed[m, t]``, -1 passing) when his policy is asked, the decisions ``asks[t]`` (those
    of the players before him, and mine) given: so he sees what was public at his turn.  Seat streams keyed by
    ``first + m``, as fresh as at a deal's declarations.  Returns 0 or POLICY_ERROR."""
    n = rules[R_PLAYERS]
    scratch = _scratch(rules)
    work, outcome = scratch[0], scratch[3]
    for m in range(decks.shape[0]):
        for t in range(asks.shape[0]):
            if (
                _play_stacked(rules, dealer, carry, decks[m], first + m, keys, players, err, scratch, asks[t])
                == POLICY_ERROR
            ):
                return POLICY_ERROR
            role = (t + 1) % n
            made[m, t] = PASS if outcome[role, O_STOOD] == 0 else (MISS if outcome[role, O_MISS] == 1 else PLAY)
            changed[m, t] = work[4][S_EXCHANGED + role] if made[m, t] != PASS else -1
    return 0


@njit(cache=True)
def _lawful(rows, holdings, played, by, trump_suit, pam, civil, check):
    """For each row of hidden cards, whether the laws allowed every card ``played`` by the standers of ``check``
    and none held a flush (:func:`sims.loo.tricks.could_have_played`) when they held ``holdings`` (a card, or
    ``-1 - t``: the row's t-th card)."""
    ok = np.empty(rows.shape[0], dtype=np.bool_)
    held = np.empty_like(holdings)  # filled afresh for each row: it is used up
    for i in range(rows.shape[0]):
        for j in range(holdings.shape[0]):
            for c in range(holdings.shape[1]):
                x = holdings[j, c]
                held[j, c] = x if x >= 0 else rows[i, -1 - x]
        ok[i] = could_have_played(held, played, by, trump_suit, pam, civil, check)
    return ok


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
    draws = [c for r in [x % n for x in range(1, n + 1)] for c in drawn.get(r, [])]  # the exchanges, in turn
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


def hidden_deals(situation, samples: int, seed: int, exact_limit: int = EXACT_LIMIT, declared_as=None):
    """The stacked packs of the play-outs, ``int64[deals, 52]``, whether they are every deal of the others'
    cards (a card decision with at most ``exact_limit`` of them), and the number of deals tried.  ``declared_as``
    (packs, index of the first) -> bool[deals], if given, keeps only the packs it accepts."""
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
        have shown void in, the first lead as forced...) and, five-card, none of them held a flush."""
        if not need:  # not in the play: nothing shown yet
            return np.ones(len(rows), dtype=bool)
        standers = list(situation.standers)
        holdings = np.empty((len(standers), situation.rules.cards), dtype=np.int64)
        column = dict(zip(others, np.cumsum([0] + [need[r] for r in others]).tolist()))  # a row: by ``others``
        for j, r in enumerate(standers):
            shown = [c for c, x in zip(played, laid_by) if x == r]
            if r in need:
                holdings[j] = shown + [-1 - column[r] - t for t in range(need[r])]
            else:  # mine, as dealt: not checked
                holdings[j] = [c for c in situation.hand if c >= 0] + [c for c, x in zip(played, laid_by) if x == r]
        check = sum(1 << j for j, r in enumerate(standers) if r in need)
        by = np.asarray([standers.index(r) for r in laid_by], dtype=np.int64)
        return _lawful(
            np.ascontiguousarray(rows),
            holdings,
            np.asarray(played, dtype=np.int64),
            by,
            laws.trump_suit,
            laws.pam,
            laws.civil,
            check,
        )

    def stacked(rows):
        decks = np.tile(pack, (len(rows), 1))
        decks[:, holes] = rows[:, -1 - pack[holes]]
        return decks

    if exact:
        rows = every_deal(unseen, [need[r] for r in others])
        decks, tried = stacked(rows[fits(rows)]), len(rows)
    else:
        decks, tried = np.zeros((0, 52), dtype=np.int64), 0
        for _ in range(MAX_DRAWS):
            more = unseen[rng.random((samples, len(unseen))).argsort(axis=1)]
            more = stacked(more[fits(more)])
            if declared_as is not None:
                more = more[declared_as(more, tried)]
            decks, tried = np.concatenate([decks, more]), tried + samples
            if len(decks) >= samples:
                break
        decks = decks[:samples]
    if not len(decks):
        raise ValueError(
            f"no deal of the unseen cards in {tried:,} tried lets the others have "
            f"{'declared' if declared_as is not None else 'played'} as they did"
        )
    return decks, exact, tried


def _given(situation) -> tuple[np.ndarray, list]:
    """``given[c]`` for each legal choice c (the decisions already taken and the choice), and the labels."""
    n = situation.rules.players
    base = np.full(GIVEN_CARDS, -1, dtype=np.int64)
    base[GIVEN_DECLARE : GIVEN_DECLARE + len(situation.declared)] = situation.declared
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


@lru_cache(maxsize=8)
def _kernel_job(rules, playout: tuple):
    """The play-outs' job and its kernel policies, made once for each rules and ``playout`` (the expert's tables
    take a while to load)."""
    from ..core.jobs import Job

    job = Job.make("loo", "deals", rules, dict(playout), 1, 0)
    return job, job.kernel_policies()


def play_outs(situation, playout=None, samples: int = DEFAULT_SAMPLES, seed: int = 0, exact_limit: int = EXACT_LIMIT):
    """The play-outs :func:`advise` values the choices by: ``out[m, c]`` my money (stakes included) for deal m
    and choice c (labelled ``labels[c]``), the labels, whether the deals are every one, the job, and what the deals
    are conditioned on (module docstring)."""
    samples = check_samples(samples)
    rules = situation.rules
    playout = tuple(sorted({**PLAYOUT, **(playout or {})}.items()))
    try:
        job, players = _kernel_job(rules, playout)
    except TypeError:  # a playout that cannot be a key: made afresh
        job, players = _kernel_job.__wrapped__(rules, playout)
    given, labels = _given(situation)
    err = new_err(1)

    def run(call):
        """Run a play-out kernel (``call``); a policy's error is raised as a PolicyError."""
        with raised_by_policy(job_policies(job), "a play-out"):
            status = call()
        if status == POLICY_ERROR:
            from .engine import describe_error

            raise PolicyError(f"a playout policy: {overrun_text(err[0]) or describe_error(job, err[0])}")

    declared_as, ignored = None, []
    if situation.DECISION != "card" and situation.declared:
        before = len(situation.declared)
        asks = np.tile(given[0], (before, 1))  # my choice given (any: it comes after theirs)
        for t in range(before):  # the t-th asked, those before him given, those after asked
            asks[t, GIVEN_DECLARE + t : GIVEN_DECLARE + before] = -1
            asks[t, GIVEN_EXCHANGE + t : GIVEN_EXCHANGE + before] = -1
        changes = dict(zip(situation.standers, situation.exchanged))
        exchanged = np.asarray([changes.get((t + 1) % rules.players, -1) for t in range(before)], dtype=np.int64)
        declared = np.asarray(situation.declared, dtype=np.int64)
        check_keys = chunk_keys(seed, CHECK_CHUNK, 1, 1 + MAX_SEATS)[0]
        checked = []

        def declared_as(decks, first):
            """Whether each player before me declares (and changes) as he did; a player whose declaration his
            policy made in none of the first deals tried is not held to it (the policy does not model him)."""
            made = np.zeros((len(decks), before), dtype=np.int64)
            changed = np.zeros_like(made)
            run(
                lambda: _declarations(
                    rules.to_kernel(),
                    situation.dealer,
                    situation.carry,
                    decks,
                    asks,
                    players,
                    check_keys,
                    first,
                    made,
                    changed,
                    err[0],
                )
            )
            match = (made == declared) & ((exchanged < 0) | (changed == exchanged))
            if first == 0:
                checked.extend(t for t in range(before) if match[:, t].any())
                ignored.extend(t for t in range(before) if t not in checked)
            return match[:, checked].all(axis=1)

    decks, exact, tried = hidden_deals(situation, samples, seed, exact_limit, declared_as)
    if declared_as is None:
        conditioned = (
            "the cards the others played (the laws)"
            if situation.DECISION == "card"
            else "nothing: nobody declared before me"
        )
    else:
        what = "declarations and exchanges" if situation.rules.cards == 5 else "declarations"
        n = rules.players
        conditioned = (
            f"the {what} of the {len(situation.declared)} player(s) who declared first, as the playout "
            f"policies make them: {len(decks):,} deals kept of {tried:,} tried"
            + (
                f" (fewer than {samples:,}: the cap of {MAX_DRAWS * samples:,} tries was reached)"
                if len(decks) < samples
                else ""
            )
            + "".join(
                f"; the {role_name((t + 1) % n)}'s {DECLARATIONS[situation.declared[t]]} not held to "
                f"(the policy never made it in the first {samples:,} deals)"
                for t in ignored
            )
        )
    out = np.zeros((len(decks), len(given)), dtype=np.int64)
    keys = chunk_keys(seed, 0, 1, 1 + MAX_SEATS)[0]
    run(
        lambda: _play_outs(
            rules.to_kernel(),
            situation.dealer,
            situation.role,
            situation.carry,
            decks,
            given,
            players,
            keys,
            out,
            err[0],
        )
    )
    return out, labels, exact, job, conditioned


def advise(
    situation,
    playout=None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    policies=None,
    exact_limit: int = EXACT_LIMIT,
) -> pd.DataFrame:
    """Every legal choice of a Loo situation valued by play-outs, best first (module docstring).

    Parameters
    ----------
    situation : DeclareSituation, ExchangeSituation or CardSituation
        The decision as the player knows it.
    playout : dict, optional
        Decisions mapped to the policies every later decision is played by (those not given: ``PLAYOUT``).
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
        ``conditioned`` (what the deals are conditioned on, and how many were kept of how many tried),
        ``playout``.
    """
    out, labels, exact, job, conditioned = play_outs(situation, playout, samples, seed, exact_limit)
    rules = situation.rules
    staked = rules.stake if situation.role == 0 or (situation.carry == 0 and rules.single == "stake-all") else 0
    names = NAMED[situation.DECISION] if policies is None else policies
    return advice_frame(
        labels,
        (out + staked).astype(float),
        exact,
        choices_of(Player, situation, names, seed),
        situation=situation.describe(),
        method="exact" if exact else "rollouts",
        deals=len(out),
        conditioned=conditioned,
        playout={d: p[0].label() for d, p in job.policies.items()},
        seed=seed,
    )
