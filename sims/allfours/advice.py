"""The expert at one All Fours decision: :class:`Player` and :func:`advise`.

:func:`advise` values every legal choice of a situation (:mod:`sims.allfours.situation`:
beg or stand, give or run, which card, and with discard_to_six which card to throw out) by
the points my side scores less the points the other side scores from the decision to the end of the hand (turned knaves and the
gift already scored are left out; high, low, jack, game, a gift and the knaves turned
running the cards are in; with a score, the hand stops when a side reaches the
target).  The cards I have not seen are dealt to the other players (as many as each
holds, none of a suit he has shown himself void in) and the rest make the pack, then
the hand is played out by the engine's own kernel (:func:`sims.allfours.play.play_given`)
with the decisions already taken and the choice advised given.  The cards after them are
played by the expert's search seeing every hand (``playout`` ``{"play": "search"}``, the
default; :mod:`sims.allfours.solved`): each card the best for its side with every hand
known, as the ``expert`` values each deal it samples, so the expert is judged by the
measure it plays by.  The hand's other decisions (a beg, an answer, cards thrown out) are
made by the ``playout`` policies (the game's defaults: threshold begging and answering);
a ``playout`` play policy (``{"play": "maxims"}``) plays the cards instead of the search.
Every choice is played out on the same deals with the same seat streams (common random
numbers): ``vs_best`` and its ``vs_best_se`` are paired differences.  When the hidden cards
can be dealt in at most ``exact_limit`` ways (the last tricks) every deal is played and the
value is exact (standard error 0, for playout policies that draw no random numbers);
otherwise ``samples`` deals are drawn.

The deals are also read from what the others did (``infer="playout"``, the default): a
deal is kept only if the ``playout`` policies, holding the cards it deals them and seeing
what was public at their turn, make the others' decisions as they were made -- the
eldest's beg or stand, the dealer's answer (give one or run the cards), each card another
player played (by the game's play policy, the maxims, also where the search plays the cards
out) -- the model of the decisions after mine (rejection: the hand is replayed up to each
of those decisions; a policy that draws random numbers draws from a seat stream of its own
for each deal tried, so a deal is kept with the chance the policy gives it).  Where no deal
agrees with every one of them (the others play by something else than the playout
policies) the deals kept agree with the longest run of them, in the order they were made,
that at least ``samples`` of the deals tried agree with (``MAX_DRAWS`` rounds of ``samples``
tried at most; when every deal is played, at least one): ``attrs["conditioned"]`` says what
the deals were read from, how many were kept of how many tried, and which decisions were not
held to.  The cards thrown out with
discard_to_six are not read (nobody sees them).  ``infer="laws"`` reads nothing but the
laws (each deal as likely as another that breaks no void).  With discard_to_six the
cards another player threw out are hidden cards too (not bound by the suits he showed
void in), and the throws still to come are the ``playout``'s.

With a score, each play-out goes on to the end of the game (later hands dealt from the
play-out's own stream, every seat begging and answering by ``playout`` and playing the cards
by the game's play policy, the maxims, whatever plays the hand advised): ``win`` is my side's
chance of winning the game.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import types

from ..cards import format_card
from ..core.advice import Player as CorePlayer
from ..core.advice import (
    best_first,
    check_samples,
    choices_of,
    chosen_by,
    every_deal,
    rollout_columns,
    ways_to_deal,
)
from ..core.arrays import copy_into
from ..core.errors import E_ANSWER, PolicyError, job_policies, new_err, overrun_text, raised_by_policy
from ..core.kernel import njit
from ..core.kernel_types import F64_1, I64_1, I64_2, I64_2R, I64_3, U64_1
from ..core.rng import chunk_keys, next_u64, seed_state
from ..core.streams import seat_streams
from .contract import P_CARD, HandFn, PlayFn
from .maxims import N_MAXIMS
from .play import (
    C_TOTAL,
    DECK_OUT,
    GIVEN_N_THROWN,
    GIVEN_THROWN,
    MAX_HANDS,
    MAX_SEATS,
    N_COMP,
    N_EVENTS,
    NO_WINNER,
    NOTHING_GIVEN,
    POLICY_ERROR,
    V_BEGGED,
    V_RAN,
    new_work,
    play_given,
    side_of,
)
from .rules import HAND, PACK, PACKET, R_PLAYERS
from .search import X_GEN
from .solved import new_search, solved_hand

DEFAULT_SAMPLES = 2_000
EXACT_LIMIT = 5_000
MAX_DRAWS = 20  # rounds of ``samples`` random deals drawn to find deals that break no void (and agree with the
# others' decisions)
SEARCH = "search"  # the play-outs' card play in the hand advised: the expert's search seeing every hand (solved)
SOLVERS = {"play": (SEARCH,)}  # the play-outs' players that are no policy (sims.core.record.check_playout)
SOLVED_CARDS = 9  # the expert's exact_cards: solved to the end while the hands hold at most twice this many cards
INFER = ("playout", "laws")  # what the deals are conditioned on besides the laws: the others' decisions, or nothing
PACKS = 3  # a play-out's pack, and two more for new deals when the pack runs short
O_NET, O_WON = 0, 1  # ``out``: points for less against, and 1/0 for the game won (-1: not over)
HANDS = types.UniTuple(HandFn, MAX_SEATS)  # as the engine takes them (sims.allfours.engine, not imported: its
PLAYS = types.UniTuple(PlayFn, MAX_SEATS)  # parallel kernels load for a second)
NAMED = {
    "beg": ("random", "stand", "beg", "threshold"),
    "answer": ("random", "run", "give", "threshold"),
    "play": ("random", "greedy", "maxims", "expert"),
    "discard": ("random", "cheapest"),
}


class Player(CorePlayer):
    """An All Fours policy answering one decision at a time (``beg``, ``answer``, ``play`` or ``discard``).

    >>> from sims.allfours.situation import PlaySituation
    >>> Player("greedy").choose(PlaySituation("AH 10H 3C 4D 5S", "7H", played="KH QH"))
    '5S'
    """

    game = "allfours"
    default_policy = "expert"
    default_decision = "play"


POLICIES = types.Tuple((types.Tuple((HANDS, HANDS, PLAYS, HANDS)), F64_1, I64_1))  # Job.kernel_policies()
CHECKS = types.Tuple((I64_2R, I64_1, I64_1, I64_1))  # _checks(): the asks, their lengths, what, what was made
ASKED_BEG, ASKED_ANSWER = -1, -2  # ``what`` of a check besides a card's place in the play: the beg, the answer
CHECK_CHUNK = 1  # the chunk of seat streams the others' decisions are checked by (play-outs: chunk 0)


@njit(cache=True)
def _hand(rules, dealer, score, pack, seat_rngs, policies, events, err, work, given):
    """One hand (:func:`play_given`) with ``score`` ``(scores, comp, check_target)`` and ``pack`` ``(deck,
    shuffle, deck_rng)``, the decisions ``given``, every other decision made by ``policies``
    (:meth:`sims.core.jobs.Job.kernel_policies`); ``work`` is ``(the hand's scratch, an empty maxims' tally)``
    (:func:`_scratch`: no maxims tallied), made once for a call's hands."""
    fns, params, poff = policies
    seats = (seat_rngs, fns, params, poff)
    return play_given(rules, dealer, score, pack, seats, events, err, work[0], work[1], given)


@njit(cache=True)
def _scratch(rules):
    """What :func:`_hand` works in: the hand's scratch (:func:`new_work`) and an empty maxims' tally."""
    return new_work(rules), np.zeros((0, N_MAXIMS, 2), dtype=np.int64)


# ``given`` read-only, as play_hand's NOTHING_GIVEN is: the engine and the advisor share one play_given.
@njit(
    types.int64(
        I64_1,
        types.int64,
        types.int64,
        I64_1,
        types.boolean,
        I64_2,
        types.Tuple((I64_2R, I64_1)),
        types.int64,
        types.UniTuple(POLICIES, 2),
        U64_1,
        I64_3,
        I64_1,
    ),
    cache=True,
)
def _play_outs(rules, dealer, role, scores0, to_end, decks, decided, exact_cards, deciders, keys, out, err):
    """Deal ``decks[m]`` (stacked) and play the hand with the decisions ``given[c]`` (:func:`play_given`;
    ``decided`` is ``(given, laid_by)``) for every deal m and choice c, the others made by ``deciders[0]``;
    ``out[m, c]``: the points of ``role``'s side less the other's (``O_NET``), and with ``to_end`` the game
    played on to its end by ``deciders[1]``, 1 if his side won it (``O_WON``).  The seats' streams and the later
    hands' are keyed by m: the same for every choice.  With
    ``exact_cards`` >= 0 the rest of the hand's cards are played by the search seeing every hand
    (:func:`sims.allfours.solved.solved_hand`, the cards of the play so far by ``laid_by``).  Returns 0,
    POLICY_ERROR or DECK_OUT."""
    players = rules[R_PLAYERS]
    scratch = _scratch(rules)
    work = scratch[0]
    given, laid_by = decided
    search = new_search()
    n_thrown = given[0, GIVEN_N_THROWN] if given.shape[0] > 0 else 0
    same_hands = given.shape[1] > GIVEN_THROWN + n_thrown + laid_by.shape[0]  # the choice is a card
    seat_rngs = seat_streams(MAX_SEATS)
    policies, later = deciders
    fns, params, poff = policies
    seats = (seat_rngs, fns, params, poff)  # as play_given takes them, for solved_hand
    game_rng = np.empty(4, dtype=np.uint64)
    hand_rng = np.empty(4, dtype=np.uint64)
    scores = np.zeros(2, dtype=np.int64)
    comp = np.zeros((2, N_COMP), dtype=np.int64)
    events = np.zeros(N_EVENTS, dtype=np.int64)
    my_side = side_of(rules, dealer, role)
    for m in range(decks.shape[0]):
        for c in range(given.shape[0]):
            for s in range(MAX_SEATS):
                seed_state(seat_rngs[s], keys[1 + s], m)
            seed_state(game_rng, keys[0], m)
            copy_into(scores, scores0)
            comp[:, :] = 0
            score, pack = (scores, comp, to_end), (decks[m], False, game_rng)
            if exact_cards < 0:
                winner = _hand(rules, dealer, score, pack, seat_rngs, policies, events, err, scratch, given[c])
            else:
                if c == 0 or not same_hands:  # other hands: a new generation of the search's table
                    search[0][X_GEN] += 1
                winner = solved_hand(
                    rules, dealer, role, score, pack, seats, events, err, work, (given[c], laid_by), exact_cards, search
                )
            if winner == POLICY_ERROR or winner == DECK_OUT:
                return winner
            out[m, c, O_NET] = comp[role % 2, C_TOTAL] - comp[1 - role % 2, C_TOTAL]
            d, hands = dealer, 1
            while to_end and winner == NO_WINNER and hands < MAX_HANDS:
                d = (d + 1) % players
                hands += 1
                seed_state(hand_rng, next_u64(game_rng), 0)
                pack = (work[0], True, hand_rng)
                winner = _hand(
                    rules, d, (scores, comp, True), pack, seat_rngs, later, events, err, scratch, NOTHING_GIVEN
                )
                if winner == POLICY_ERROR:
                    return winner
            out[m, c, O_WON] = -1 if winner == NO_WINNER else (1 if winner == my_side else 0)
    return 0


@njit(types.int64(I64_1, types.int64, I64_1, I64_2, CHECKS, POLICIES, U64_1, types.int64, I64_1, I64_1), cache=True)
def _agreement(rules, dealer, scores0, decks, checks, policies, keys, first, agree, err):
    """How many of the others' decisions, in the order they were made, the play-out ``policies`` make as they
    were made when dealt ``decks[m]``: ``agree[m]``, the checks up to the first they fail.  Check t replays
    the hand with the decisions ``asks[t, :lengths[t]]`` given and reads what the next decision made:
    ``what[t]`` ASKED_BEG (1 for a beg), ASKED_ANSWER (1 when the dealer gave one) or the place of a card in the
    play, to match ``made[t]``.  Seat streams keyed by ``first + m``.  Returns 0, POLICY_ERROR or DECK_OUT."""
    asks, lengths, what, made = checks
    scratch = _scratch(rules)
    work = scratch[0]
    seat_rngs = seat_streams(MAX_SEATS)
    no_rng = np.zeros(4, dtype=np.uint64)  # the pack is stacked and the hand not played on
    scores = np.zeros(2, dtype=np.int64)
    comp = np.zeros((2, N_COMP), dtype=np.int64)
    events = np.zeros(N_EVENTS, dtype=np.int64)
    for m in range(decks.shape[0]):
        agree[m] = 0
        for t in range(asks.shape[0]):
            for s in range(MAX_SEATS):
                seed_state(seat_rngs[s], keys[1 + s], first + m)
            copy_into(scores, scores0)
            comp[:, :] = 0
            events[:] = 0
            score, pack = (scores, comp, False), (decks[m], False, no_rng)
            status = _hand(rules, dealer, score, pack, seat_rngs, policies, events, err, scratch, asks[t, : lengths[t]])
            if status == POLICY_ERROR or status == DECK_OUT:
                return status
            if what[t] == ASKED_BEG:
                answer = 1 if events[V_BEGGED] > 0 else 0
            elif what[t] == ASKED_ANSWER:
                answer = 1 if events[V_RAN] == 0 else 0
            else:
                answer = work[2][P_CARD, what[t]]
            if answer != made[t]:
                break
            agree[m] = t + 1
    return 0


def _deal_order(players: int, runs: int) -> list:
    """Where each card of the pack goes, in the order of RULES.md: ``(role, index in his hand)``, or None for a
    card turned up: three at a time from the eldest, twice, the turn; three each and a turn for each run."""
    order: list[tuple[int, int] | None] = []
    for packet in range(HAND // PACKET + runs):
        for t in range(players):
            order += [((t + 1) % players, packet * PACKET + i) for i in range(PACKET)]
        if packet >= HAND // PACKET - 1:
            order.append(None)
    return order


def _turn(role: int, n: int) -> int:
    """When ``role`` throws out with discard_to_six: the eldest first, round to the dealer last."""
    return (role - 1) % n


def _thrown_out(situation) -> dict[int, int]:
    """How many hidden cards each other player (by role) has thrown out with discard_to_six: every card past
    six in the play; in the discarding, those whose turn came before mine."""
    n, runs = situation.rules.players, len(situation.turned) - 1
    if not (situation.rules.discard_to_six and runs):
        return {}
    mine = _turn(situation.role, n)
    return {
        r: PACKET * runs
        for r in range(n)
        if r != situation.role and (situation.DECISION != "discard" or _turn(r, n) < mine)
    }


def _hidden_counts(situation) -> dict[int, int]:
    """Cards each other player holds now, by role (cards thrown out not counted)."""
    dealt, thrown = situation.dealt, _thrown_out(situation)
    laid = getattr(situation, "laid_by", ())
    return {
        r: dealt - thrown.get(r, 0) - sum(x == r for x in laid)
        for r in range(situation.rules.players)
        if r != situation.role
    }


def _my_cards(situation) -> list:
    """My hand as dealt, in the order the play-outs deal it: the cards I played, those I threw out, those I
    hold."""
    played, laid_by = getattr(situation, "played", ()), getattr(situation, "laid_by", ())
    return (
        [c for c, x in zip(played, laid_by) if x == situation.role]
        + list(getattr(situation, "discarded", ()))
        + list(situation.hand)
    )


def hidden_deals(situation, samples: int, seed: int, exact_limit: int = EXACT_LIMIT, agreement=None):
    """The stacked packs of the play-outs, ``int64[deals, PACKS * 52]``, whether they are every deal of the
    hidden cards (a play decision with at most ``exact_limit`` of them), the deals tried and the others'
    decisions held to.  Each other player's hand as dealt: the cards he played, those he holds, those he threw
    out (the last).  ``agreement`` (packs, index of the first) -> int[deals], if given, is how many of the
    others' decisions (:func:`_checks`, ``len(checks)`` of them) each pack agrees with: the packs kept agree
    with the longest run of them that enough packs agree with (every one tried when exact; else ``samples``,
    drawing at most ``MAX_DRAWS`` rounds of ``samples``).  Each lawful deal is as likely as another: where one
    other player holds hidden cards, his are drawn among the cards his voids allow him; with more, deals are
    drawn uniformly and those that break a void left out."""
    n = situation.rules.players
    played = getattr(situation, "played", ())
    laid_by = getattr(situation, "laid_by", ())
    voids = getattr(situation, "voids", {})
    runs = len(situation.turned) - 1
    dealt = situation.dealt
    seen = set(situation.hand) | set(played) | set(situation.turned) | set(getattr(situation, "discarded", ()))
    unseen = np.asarray([c for c in range(PACK) if c not in seen], dtype=np.int64)
    need, thrown = _hidden_counts(situation), _thrown_out(situation)
    others = sorted(need)
    sizes = [k for r in others for k in (need[r], thrown.get(r, 0))]
    total = sum(sizes)
    rng = np.random.default_rng(seed)
    exact = situation.DECISION == "play" and ways_to_deal(len(unseen), sizes) <= exact_limit

    def stacked(rows):
        """The packs of ``rows`` (role by role in ``others`` order the cards he holds, then those he threw out;
        the rest: the pack), and two packs shuffled for new deals."""
        hands = np.zeros((len(rows), n, dealt), dtype=np.int64)
        for r in others:
            mine = [c for c, x in zip(played, laid_by) if x == r]
            hands[:, r, : len(mine)] = mine
        hands[:, situation.role, :] = _my_cards(situation)
        start = 0
        for r in others:
            k = need[r] + thrown.get(r, 0)
            hands[:, r, dealt - k :] = rows[:, start : start + k]
            start += k
        decks = np.empty((len(rows), PACKS * PACK), dtype=np.int64)
        order = _deal_order(n, runs)
        turned = iter(situation.turned)
        for p, where in enumerate(order):
            decks[:, p] = next(turned) if where is None else hands[:, where[0], where[1]]
        decks[:, len(order) : PACK] = rows[:, total:]
        for k in range(1, PACKS):
            decks[:, k * PACK : (k + 1) * PACK] = rng.random((len(rows), PACK)).argsort(axis=1)
        return decks

    one_void = not exact and len(others) == 1 and bool(voids.get(others[0]))  # one other holds hidden cards
    barred = np.isin(unseen & 3, list(voids.get(others[0], ()))) if one_void else None  # cards his voids bar

    def draw():
        keys = rng.random((samples, len(unseen)))
        if one_void:
            keys[:, barred] += 1  # his hand first: a uniform choice among the cards allowed him
        rows = unseen[keys.argsort(axis=1)]
        if one_void:  # the rest shuffled anew
            rest = rows[:, need[others[0]] :]
            rows[:, need[others[0]] :] = np.take_along_axis(rest, rng.random(rest.shape).argsort(axis=1), axis=1)
        return rows

    rows = every_deal(unseen, sizes) if exact else draw()
    ok = _fits(rows, others, need, thrown, voids)
    if not ok.any():
        raise ValueError("no deal of the unseen cards fits the suits the other players have shown void in")
    tried = len(rows)
    if agreement is None:
        if not exact:
            for _ in range(MAX_DRAWS):  # draw again for the deals that break a void
                if ok.sum() >= samples:
                    break
                more = draw()
                rows = np.concatenate([rows[ok], more])
                ok = np.concatenate([ok[ok], _fits(more, others, need, thrown, voids)])
                tried += len(more)
        return stacked(rows[ok][: len(rows) if exact else samples]), exact, tried, 0
    checks, agreement = agreement
    decks = stacked(rows[ok])
    agree = agreement(decks, 0)
    enough = 1 if exact else samples
    while not exact and (agree >= checks).sum() < enough and tried < MAX_DRAWS * samples:
        more = draw()
        more = stacked(more[_fits(more, others, need, thrown, voids)])
        decks, agree = np.concatenate([decks, more]), np.concatenate([agree, agreement(more, tried)])
        tried += samples
    held = max((k for k in range(checks + 1) if (agree >= k).sum() >= min(enough, len(decks))), default=0)
    kept = decks[agree >= held]
    return (kept if exact else kept[:samples]), exact, tried, held


def _fits(rows, others, need, thrown, voids) -> np.ndarray:
    """Which rows deal no player a card of a suit he has shown void in (among the cards he holds)."""
    ok = np.ones(len(rows), dtype=bool)
    start = 0
    for r in others:
        for s in voids.get(r, ()):
            ok &= ~((rows[:, start : start + need[r]] & 3) == s).any(axis=1)
        start += need[r] + thrown.get(r, 0)
    return ok


def _throws(situation, choice=None) -> list[int]:
    """``given``'s cards thrown out (play.GIVEN_THROWN), in turn from the eldest: each as its index in the hand
    dealt (as :func:`hidden_deals` deals it), -1 for a throw still to ask; ``choice`` the card I throw now."""
    n, thrown = situation.rules.players, _thrown_out(situation)
    if not (situation.rules.discard_to_six and len(situation.turned) > 1):
        return []
    each, dealt = situation.dealt - HAND, situation.dealt
    mine = _my_cards(situation)
    laid = len(mine) - len(situation.discarded) - len(situation.hand)
    out = []
    for t in range(n):
        r = (t + 1) % n
        if r == situation.role:
            throws = list(range(laid, laid + len(situation.discarded)))
            if choice is not None:
                throws.append(mine.index(choice))
        else:
            throws = list(range(dealt - thrown.get(r, 0), dealt))
        out += throws + [-1] * (each - len(throws))
    return out


def _given(situation) -> np.ndarray:
    """``given[c]`` for each legal choice c: the decisions already taken this hand and the choice
    (:func:`sims.allfours.play.play_given`)."""
    from .contract import BEG, GIVE, RUN, STAND

    legal = situation.legal()
    if situation.DECISION == "beg":
        return np.asarray([[situation.CHOICES.index(x), -1, 0] for x in legal], dtype=np.int64)
    if situation.DECISION == "answer":
        return np.asarray([[BEG, situation.CHOICES.index(x), 0] for x in legal], dtype=np.int64)
    beg = BEG if situation.begged else STAND
    answer = (GIVE if situation.gave else RUN) if situation.begged else -1
    if situation.DECISION == "discard":
        return np.asarray(
            [[beg, answer, len(t), *t] for t in (_throws(situation, card) for card in legal)], dtype=np.int64
        )
    throws = _throws(situation)
    return np.asarray([[beg, answer, len(throws), *throws, *situation.played, card] for card in legal], dtype=np.int64)


def _checks(situation):
    """The others' decisions this hand that :func:`_agreement` checks, in the order they were made: the eldest's
    beg or stand, the dealer's answer, each card another player played; as ``(asks, lengths, what, made)``
    (:func:`_agreement`), or None when there is none.  The cards thrown out with discard_to_six are not
    checked (they are not seen)."""
    from .contract import BEG

    n, role = situation.rules.players, situation.role
    throws = _throws(situation)
    head = [int(situation.begged), -1, len(throws), *throws]
    rows = []
    if situation.DECISION != "beg" and situation.rules.begging and role != 1 % n:
        rows.append(([-1, *head[1:]], ASKED_BEG, int(situation.begged)))
    if situation.begged and role != 0:
        rows.append(([BEG, -1, *head[2:]], ASKED_ANSWER, int(situation.gave)))
    head[1] = int(situation.gave) if situation.begged else -1
    played = list(getattr(situation, "played", ()))
    for k, (card, r) in enumerate(zip(played, getattr(situation, "laid_by", ()))):
        if r != role:
            rows.append((head + played[:k], k, card))
    if not rows:
        return None
    asks = np.full((len(rows), max(len(ask) for ask, _, _ in rows)), -1, dtype=np.int64)
    for t, (ask, _, _) in enumerate(rows):
        asks[t, : len(ask)] = ask
    asks.setflags(write=False)
    lengths, what, made = (np.asarray(column, dtype=np.int64) for column in zip(*((len(a), w, m) for a, w, m in rows)))
    return asks, lengths, what, made


def play_outs(
    situation,
    playout=None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    exact_limit: int = EXACT_LIMIT,
    infer: str = "playout",
):
    """The play-outs :func:`advise` values the choices by: ``out[m, c]`` for deal m and choice c (labelled
    ``labels[c]``), ``O_NET`` the points for less against (the knaves turned up and the gift included) and
    ``O_WON`` with a score 1 if my side won the game; the labels, whether the deals are every one, the play-outs'
    players by decision, and what the deals are conditioned on (module docstring; ``infer`` ``"laws"``: the laws
    alone)."""
    from ..core.jobs import Job

    samples = check_samples(samples)
    if infer not in INFER:
        raise ValueError(f"infer is one of {', '.join(INFER)}, got {infer!r}")
    rules = situation.rules
    playout = dict(playout or {})
    searched = playout.get("play", SEARCH) == SEARCH
    if searched:
        playout.pop("play", None)
    try:
        job = Job.make("allfours", "deals", rules, playout, 1, seed)
    except ValueError as exc:
        if "play" not in playout:
            raise
        raise ValueError(f"{exc}; or {SEARCH}, the expert's search seeing every hand (the default)") from None
    later = job  # the later hands: the game's play policy, the maxims, whatever plays the hand advised
    if "play" in playout:
        later = Job.make("allfours", "deals", rules, {d: p for d, p in playout.items() if d != "play"}, 1, seed)
    policies = job.kernel_policies()
    err = new_err(1)
    to_end = situation.score is not None
    mine, theirs = situation.score or (0, 0)
    sunk_mine, sunk_theirs = situation.scored()
    scores = np.zeros(2, dtype=np.int64)
    my_seat_side = situation.seat % 2
    scores[my_seat_side], scores[1 - my_seat_side] = mine - sunk_mine, theirs - sunk_theirs

    def run(call):
        """Run a play-out kernel (``call``); a policy's error or a pack run short is raised."""
        with raised_by_policy(job_policies(job), "a play-out"):
            status = call()
        if status == POLICY_ERROR:
            raise PolicyError(
                f"a playout policy "
                f"{overrun_text(err[0]) or f'answered {int(err[0, E_ANSWER])}, which the laws do not allow'}"
            )
        if status == DECK_OUT:
            raise ValueError("a play-out ran the pack short three times: try another seed")

    checks = _checks(situation) if infer == "playout" else None
    agreement = None
    if checks is not None:
        check_keys = chunk_keys(seed, CHECK_CHUNK, 1, 1 + MAX_SEATS)[0]

        def agree(decks, first):
            out = np.zeros(len(decks), dtype=np.int64)
            run(
                lambda: _agreement(
                    rules.to_kernel(), situation.dealer, scores, decks, checks, policies, check_keys, first, out, err[0]
                )
            )
            return out

        agreement = (len(checks[0]), agree)
    decks, exact, tried, held = hidden_deals(situation, samples, seed, exact_limit, agreement)
    given = _given(situation)
    out = np.zeros((len(decks), len(given), 2), dtype=np.int64)
    keys = chunk_keys(seed, 0, 1, 1 + MAX_SEATS)[0]
    run(
        lambda: _play_outs(
            rules.to_kernel(),
            situation.dealer,
            situation.role,
            scores,
            to_end,
            decks,
            (given, np.asarray(getattr(situation, "laid_by", ()), dtype=np.int64)),
            SOLVED_CARDS if searched else -1,
            (policies, later.kernel_policies()),
            keys,
            out,
            err[0],
        )
    )
    labels = [x if isinstance(x, str) else format_card(x) for x in situation.legal()]
    players = {d: p[0].label() for d, p in job.policies.items() if d != "discard" or rules.discard_to_six}
    in_later = later.policies["play"][0].label()
    if searched or (to_end and players["play"] != in_later):
        players["play"] = f"{SEARCH if searched else players['play']} (this hand; {in_later} in later hands)"
    return out, labels, exact, players, _conditioned(infer, checks, held, len(decks), tried, samples, exact)


def _conditioned(infer, checks, held, kept, tried, samples, exact) -> str:
    """What the deals are conditioned on, in words (``attrs["conditioned"]``; empty when nothing of the others
    is known)."""
    laws = "the laws (the suits the others have shown void in)"
    if checks is None:
        return f"{laws} alone" if infer == "laws" else ""
    what = {ASKED_BEG: "the eldest's beg or stand", ASKED_ANSWER: "the dealer's answer"}
    names = [what.get(int(w), "") for w in checks[2]]
    cards = sum(not name for name in names)
    words = [name for name in names if name] + (
        [f"the {cards} card{'s' if cards > 1 else ''} the others played"] if cards else []
    )
    text = (
        f"{laws} and {' and '.join(words)}, as the playout policies make them: {kept:,} deals kept of "
        f"{tried:,} {'lawful' if exact else 'tried'}"
    )
    if held < len(names):
        why = "no deal agrees with more" if exact else f"fewer than {samples:,} of the deals tried agree with more"
        text += f"; only the first {held} of these {len(names)} decisions held to ({why})"
    return text


def advise(
    situation,
    playout=None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    policies=None,
    exact_limit: int = EXACT_LIMIT,
    infer: str = "playout",
) -> pd.DataFrame:
    """Every legal choice of an All Fours situation valued by play-outs, best first (module docstring).

    Parameters
    ----------
    situation : BegSituation, AnswerSituation, PlaySituation or DiscardSituation
        The decision as the player knows it.
    playout : dict, optional
        Decisions mapped to the policies every later decision is played by (default the game's; the hand's cards
        ``"search"``, the expert's search seeing every hand).
    samples : int
        Deals of the unseen cards sampled when they are too many to play every one.
    seed : int
        Seed of the sampled deals and of the named policies' streams.
    policies : sequence of str, optional
        Policies whose choice the ``chosen_by`` column names (default: the game's built-in ones).
    exact_limit : int
        Play every deal of the unseen cards when there are at most this many (exact, ± 0).
    infer : str
        ``"playout"``: the deals agree with the others' beg, answer and cards played as the playout policies
        make them; ``"laws"``: with the laws alone (module docstring).

    Returns
    -------
    pandas.DataFrame
        ``choice``, ``value`` (points for less against to the end of the hand) and ``se``, ``vs_best`` and
        ``vs_best_se`` (paired over the same deals), ``win`` and ``win_se`` (and ``win_vs_best``) with a score,
        and ``chosen_by``.  ``attrs`` say how: ``method`` (exact or rollouts), ``deals``, ``conditioned`` (what the
        deals are conditioned on, how many were kept of how many tried, and the others' decisions not held to
        when too few deals fit them), ``playout``.
    """
    out, labels, exact, players, conditioned = play_outs(situation, playout, samples, seed, exact_limit, infer)
    to_end = situation.score is not None
    sunk_mine, sunk_theirs = situation.scored()
    values = (out[:, :, O_NET] - (sunk_mine - sunk_theirs)).astype(float)
    wins = out[:, :, O_WON].astype(float)  # the later hands are sampled: never exact
    # The best choice, first: the best chance of winning with a score, else the most points.  Both columns of
    # differences are measured from it.
    key = "win" if to_end else "value"
    points = values.mean(axis=0)
    order = best_first(wins.mean(axis=0) if to_end else points, points)
    columns = {"choice": labels, **rollout_columns(values, exact, "value", best=order[0])}
    if to_end:
        columns.update(rollout_columns(wins, False, "win", best=order[0]))
    frame = pd.DataFrame(columns)
    names = NAMED[situation.DECISION] if policies is None else policies
    frame["chosen_by"] = chosen_by(choices_of(Player, situation, names, seed), labels)
    frame = frame.iloc[order].reset_index(drop=True)
    frame.attrs.update(
        situation=situation.describe(),
        method="exact" if exact else "rollouts",
        deals=len(out),
        conditioned=conditioned,
        playout=players,
        seed=seed,
        sort=key,
    )
    return frame
