"""The expert at one pegging decision: :class:`Player` and :func:`advise`.

A :class:`Player` wraps any pegging policy (a built-in name, ``name:param=value``,
or a user's njit function) and answers :meth:`Player.choose` for a
:class:`~sims.cribbage.situation.PegSituation` with exactly the call the engine
makes: the situation's :meth:`~sims.cribbage.situation.PegSituation.to_state`,
the policy's parameters, and a random stream (the player's own, or one given).

:func:`advise` values every legal card by the points my side pegs less the
points the other side pegs, from that card to the end of the play (the go and
the last card included; with several opponents, their points shared out per
opposing side, as :mod:`.policies.rollout` counts).  The other players' cards
are the cards I have not seen, dealt at random as the laws allow: a player who
said go, or could not lay when a count ended, holds no card that would have
fitted (:func:`hidden_deals`); after my card every player pegs by ``playout``
(the seats' streams seeded per deal, the same for every card).

The deals are also read from what the others laid (``infer="playout"``, the default): a
deal is kept only if the ``playout`` pegging, holding the cards it deals a player and seeing
the play as it stood at his turn (the count, the goes, the scores then), would have laid each
card he laid -- the same model that plays the cards after mine (rejection: each of his turns
asked again, :func:`_agreement`; a policy that draws random numbers draws from a seat stream
of its own for each deal tried, so a deal is kept with the chance the policy gives it, and
the values are then not exact).  Where no deal agrees with every card (the others peg by
something else than ``playout``) the deals kept agree with the longest run of them, in the
order they were laid, that enough of the deals tried agree with (every lawful deal tried
when they are enumerated, at least one kept; else ``samples`` kept of at most ``MAX_DRAWS``
rounds of ``samples``; :func:`conditioned_deals`): ``attrs["conditioned"]`` says what the
deals were read from, how many were kept of how many tried, and which cards were not held
to.  The cards the others laid out for the crib are not read.  ``infer="laws"`` reads the
laws alone (every lawful deal as likely as another).

When the hidden deals are few (the last cards of a play) they are all
enumerated and the value is exact (standard error 0; a playout policy that
draws a random number makes it sampled, "rollouts", with its standard error);
otherwise ``samples`` deals are sampled and every card
is played out against the same deals and the same streams (common random
numbers): the difference between a card and the best card, ``vs_best`` and its
``vs_best_se``, is measured on the same deals rather than on two draws.  With a
score, each play-out goes on to the chance of winning the game (the play stops
counting when a side reaches the target): a card that reaches the target wins at
once; otherwise, from the scores at the end of the play, my own hand's show
(known) and the rest of the deal and the games after it from the board-position
table and its deal model (:mod:`.policies.position`) of ``players``' self-play,
as ``sims discard --score`` takes them (:func:`.odds.layout.players_of`): players
who peg as ``playout`` does (by default those, expected_peg + distilled for
distilled), else a one-line error.  ``win_se`` then carries the table's
error as well (:func:`.odds.throws.shifted_by_error`).  The best card, first, is
the one of the best chance of winning with a score, else of the most points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np
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
from ..core.errors import E_ANSWER, E_SIZE, PolicyError, overrun_text, raised_by_policy
from ..core.kernel import njit, read_only
from ..core.kernel_types import F64_1, F64_2, I64_1, I64_2, I64_3, U64_1
from ..core.rng import chunk_keys, seed_state
from ..core.streams import STATE_WORDS, overrun, own_stream, seat_streams, stream_intact
from .contract import S_COUNT, S_COUNT_START, S_DEALER, S_N_PLAYED, S_ROLE, S_STARTER, PegFn, is_legal_play
from .discard_rows import WIN_DIGITS
from .pegging import MAX_COUNT, card_value, peg_points_kernel
from .play import (
    C_PLAY,
    ERR_PEG,
    MAX_SEATS,
    NO_WINNER,
    POLICY_ERROR,
    _policy_error,
    _score,
    after,
    lay_candidate,
    net_pegging,
    play_out,
    play_out_buffers,
    side_of,
)
from .rules import R_ACTIVE, R_BATH, R_KEPT, R_PLAYERS, Rules
from .situation import PegSituation

if TYPE_CHECKING:  # pandas is imported where a DataFrame is made: sims peg and a Player need none
    import pandas as pd

DEFAULT_PLAYOUT = "distilled"
DEFAULT_SAMPLES = 2_000
EXACT_LIMIT = 20_000  # hidden deals enumerated when there are at most this many
MAX_DRAWS = 20  # rounds of ``samples`` lawful deals drawn to find deals that agree with the others' cards laid
INFER = ("playout", "laws")  # what the deals are conditioned on besides the laws: the others' cards laid, or nothing
CHECK_CHUNK = 1  # the chunk of seat streams the others' cards are checked by (play-outs: chunk 0)
PEGS = types.UniTuple(PegFn, MAX_SEATS)
OTHERS = types.Tuple((I64_2, I64_1))  # the others' hidden cards, a deal a row in role order, and how many each holds
SEATED = types.Tuple((PEGS, F64_1, I64_1))  # each seat's pegging, the parameters and their offsets (_seated)
F_MINE, F_THEIRS, F_WON = range(3)  # ``final``: scores at the end of the play, and 1/0 if someone won in it


class Player(CorePlayer):
    """A policy that answers one decision at a time: ``decision`` ``peg`` (a :class:`PegSituation`) or
    ``discard`` (a :class:`~sims.cribbage.situation.DiscardSituation`).

    >>> from sims.cribbage.situation import PegSituation
    >>> Player("greedy").choose(PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C"))
    '7H'
    """

    game = "cribbage"
    default_policy = "position_distilled"
    default_decision = "peg"


@njit(
    types.int64(
        I64_1,
        I64_1,
        I64_1,
        I64_1,
        OTHERS,
        SEATED,
        U64_1,
        types.boolean,
        I64_1,
        types.Tuple((F64_2, I64_3)),
        I64_1,
    ),
    cache=True,
)
def _play_outs(rules, hand, played, state, others, pegs, keys, check_target, scores0, outcomes, err):
    """Each legal card of ``hand`` laid, then the play finished by the ``pegs`` (:func:`play_out`) against
    each deal of the ``others`` (``(hidden, left)``: a row of ``hidden`` the other roles' cards, ``left[r]``
    each in role order); the ``outcomes`` ``(net, final)``: ``net[m, i]`` my side's pegging less the others'
    per opposing side, ``final[m, i]`` (``F_*``).  Returns POLICY_ERROR (``err`` filled) if a playout policy
    misplays, else 1 if a policy drew a random number, else 0."""
    hidden, left = others
    net, final = outcomes
    players, active, kept = rules[R_PLAYERS], rules[R_ACTIVE], rules[R_KEPT]
    role, dealer = state[S_ROLE], state[S_DEALER]
    count, start, n = state[S_COUNT], state[S_COUNT_START], state[S_N_PLAYED]
    bath = rules[R_BATH] != 0
    my_side = side_of(rules, (dealer + role) % players)
    in_play = np.full((MAX_SEATS, kept), -1, dtype=np.int64)
    thrown, buf, st, at, scores, comp = play_out_buffers(state, played)
    seat_rngs = seat_streams(MAX_SEATS)
    seeded = np.empty((MAX_SEATS, STATE_WORDS), dtype=np.uint64)
    drew = 0
    starter, cards = state[S_STARTER], (in_play, buf, thrown)
    for m in range(hidden.shape[0]):
        for i in range(hand.shape[0]):
            if not is_legal_play(hand, i, count):
                continue
            in_play[:, :] = -1
            j = 0
            for r in range(active):
                if r == role:
                    copy_into(in_play[r], hand)
                    in_play[r, i] = -1
                    continue
                for k in range(left[r]):
                    in_play[r, k] = hidden[m, j]
                    j += 1
            for s in range(MAX_SEATS):
                seed_state(seat_rngs[s], keys[s], m)
            seeded[:, :] = seat_rngs[:, :STATE_WORDS]
            copy_into(buf, played)
            copy_into(scores, scores0)
            comp[:, :] = 0
            over = lay_candidate(rules, state, buf, hand[i], at)
            winner = NO_WINNER
            if _score(
                rules, scores, comp, dealer, role, C_PLAY, peg_points_kernel(buf, start, n + 1, bath), check_target
            ):
                winner = my_side
            else:
                if not over:
                    winner = play_out(
                        rules, dealer, scores, check_target, starter, cards, st, at, seat_rngs, pegs, comp, err
                    )
                    if winner == POLICY_ERROR:
                        return POLICY_ERROR
            theirs = 0
            for s in range(MAX_SEATS):
                if s != my_side and scores[s] > theirs:
                    theirs = scores[s]
            net[m, i] = net_pegging(rules, comp, role, 0.0)
            final[m, i, F_MINE], final[m, i, F_THEIRS] = scores[my_side], theirs
            final[m, i, F_WON] = -1 if winner == NO_WINNER else (1 if winner == my_side else 0)
            drew |= _drew(seat_rngs, seeded)
    return drew


@njit(cache=True)
def _drew(seat_rngs, seeded):
    """1 if a seat's stream moved from its ``seeded`` words (a policy drew a random number), else 0."""
    for s in range(seeded.shape[0]):
        for k in range(STATE_WORDS):
            if seat_rngs[s, k] != seeded[s, k]:
                return 1
    return 0


CHECKS = types.Tuple((I64_2, I64_2, I64_1, I64_1))  # _checks(): each check's state, hand, role and card laid


@njit(types.int64(I64_1, I64_1, CHECKS, OTHERS, SEATED, U64_1, types.int64, I64_1, I64_1), cache=True)
def _agreement(rules, played, checks, others, pegs, keys, first, agree, err):
    """How many of the others' cards laid, in the order they were laid, the ``pegs`` lay as they were laid when
    the others hold the deal ``others`` (``(hidden, left)``, as :func:`_play_outs` takes them): ``agree[m]``, the
    checks up to the first they fail.  Check t asks the policy of role ``who[t]`` with ``states[t]`` (the play as
    it stood) and his hand ``hands[t]`` (the cards he laid from then on, -1 for those laid before), his hidden
    cards of deal m in its last places, whether it lays ``made[t]``.  Seat streams keyed by ``first + m``.
    Returns POLICY_ERROR (``err`` filled), else 1 if a policy drew a random number, else 0."""
    states, hands, who, made = checks
    hidden, left = others
    peg_fns, params, poff = pegs
    players = rules[R_PLAYERS]
    kept = hands.shape[1]
    offset = np.zeros(MAX_SEATS + 1, dtype=np.int64)
    for r in range(MAX_SEATS):
        offset[r + 1] = offset[r] + left[r]
    hand = np.empty(kept, dtype=np.int64)
    seat_rngs = seat_streams(MAX_SEATS)
    seeded = np.empty((MAX_SEATS, STATE_WORDS), dtype=np.uint64)
    drew = 0
    for m in range(hidden.shape[0]):
        agree[m] = 0
        for t in range(states.shape[0]):
            w = who[t]
            copy_into(hand, hands[t])
            for j in range(left[w]):
                hand[kept - left[w] + j] = hidden[m, offset[w] + j]
            seat = after(states[t, S_DEALER], w, players)
            seed_state(seat_rngs[seat], keys[seat], first + m)
            seeded[:, :] = seat_rngs[:, :STATE_WORDS]
            own = params[poff[2 * seat + 1] : poff[2 * seat + 2]]
            i = peg_fns[seat](hand, played, states[t], rules, own_stream(seat_rngs, seat), own)
            if not stream_intact(seat_rngs, seat):
                overrun(err, ERR_PEG, seat)
                return POLICY_ERROR
            if not is_legal_play(hand, i, states[t, S_COUNT]):
                return _policy_error(err, ERR_PEG, seat, i, states[t, S_COUNT], hand)
            drew |= _drew(seat_rngs, seeded)
            if hand[i] != made[t]:
                break
            agree[m] = t + 1
    return drew


def hidden_deals(situation: PegSituation, samples: int, seed, exact_limit: int = EXACT_LIMIT):
    """The other players' cards, as the laws allow them: a player who said go, or could not lay when a count
    ended, held no card that fitted (:attr:`~sims.cribbage.situation.Walk.room`), so he is dealt only unseen
    cards of more pips.  Every such deal when there are at most ``exact_limit`` (two players), else
    ``samples`` random ones, uniform over the lawful deals: the roles are dealt in turn, the most restricted
    first, each uniformly from the cards his room allows that are left.  The allowed sets are nested (each
    is the cards above a number of pips), so the count of ways to deal the others does not depend on what
    the more restricted took, and the dealing is exactly uniform, with no rejected draws.  Returns
    ``(deals[m, cards] in role order, left by role, exact)``; a ValueError when no lawful deal exists."""
    rules = cast(Rules, situation.rules)  # a situation holds its rules and role parsed (__post_init__)
    active = rules.active
    left = np.asarray(situation.left() + [0] * (MAX_SEATS - active), dtype=np.int64)
    left[cast(int, situation.role)] = 0
    seen = set(situation.kept) | set(situation.played) | {situation.starter} | set(situation.thrown)
    unseen = np.asarray([c for c in range(52) if c not in seen], dtype=np.int64)
    pips = np.minimum(unseen // 4 + 1, 10)
    room = situation.at.room
    hidden = int(left.sum())
    if hidden > len(unseen):
        raise ValueError(f"the others hold {hidden} cards but only {len(unseen)} are unseen")
    roles = sorted((r for r in range(active) if left[r] > 0), key=lambda r: -room[r])  # most restricted first
    for i, r in enumerate(roles):
        allowed = int((pips > room[r]).sum())
        if allowed < sum(int(left[q]) for q in roles[: i + 1]):
            raise ValueError(
                "no lawful deal: the others could not lay, so they hold cards of more pips than "
                "the count left room for, and too few such cards are unseen"
            )
    if active == 2:
        allowed = unseen[pips > max(room[r] for r in range(active) if r != situation.role)]
        if ways_to_deal(len(allowed), [hidden]) <= exact_limit:
            return np.ascontiguousarray(every_deal(allowed, [hidden])[:, :hidden]), left, True
    rng = np.random.default_rng(seed)
    offset = np.concatenate([[0], np.cumsum(left[:active])])
    deals = np.empty((samples, hidden), dtype=np.int64)
    free = np.ones((samples, len(unseen)), dtype=bool)
    keys, last_room = np.empty((samples, len(unseen))), None
    for r in roles:  # roles of one room share one draw: the cards left in it stay in uniform random order
        if room[r] != last_room:
            keys, last_room = rng.random((samples, len(unseen))), room[r]
        take = np.where(free & (pips > room[r]), keys, np.inf).argsort(axis=1)[:, : left[r]]
        deals[:, offset[r] : offset[r] + left[r]] = unseen[take]
        np.put_along_axis(free, take, False, axis=1)
    return deals, left, False


def conditioned_deals(situation: PegSituation, samples: int, seed: int, exact_limit: int = EXACT_LIMIT, agreement=None):
    """:func:`hidden_deals` read from the others' cards laid: ``(deals, left, enumerated, tried, held, drew)``.
    ``agreement`` ``(checks, agree)``, if given: ``agree(deals, left, first)`` -> ``(int[deals], drew)`` is how
    many of the others' ``checks`` cards laid each deal agrees with (:func:`_agreement`; ``drew`` if a policy drew
    a random number).  The deals kept agree with the longest run of them that enough deals agree with: one of the lawful
    deals tried when they are enumerated, else ``samples``, drawing at most ``MAX_DRAWS`` rounds of ``samples``
    lawful deals; ``held`` is how many, ``drew`` whether a policy drew a random number (then a deal is kept with
    the chance the policy gives it: not exact)."""
    deals, left, exact = hidden_deals(situation, samples, seed, exact_limit)
    if agreement is None:
        return deals, left, exact, len(deals), 0, False
    checks, agreeing = agreement
    agree, drew = agreeing(deals, left, 0)
    tried, enough = len(deals), 1 if exact else samples
    while not exact and (agree >= checks).sum() < enough and tried < MAX_DRAWS * samples:
        more = hidden_deals(situation, samples, (seed, tried // samples), exact_limit)[0]
        found, more_drew = agreeing(more, left, tried)
        deals, agree, drew = np.concatenate([deals, more]), np.concatenate([agree, found]), drew or more_drew
        tried += len(more)
    held = max(k for k in range(checks + 1) if (agree >= k).sum() >= min(enough, len(deals)))
    kept = deals[agree >= held]
    return (kept if exact else kept[:samples]), left, exact, tried, held, drew


def _checks(situation: PegSituation):
    """The others' cards laid this deal as their pegging policies were asked for them, in the order laid: the
    state each saw (:func:`~sims.cribbage.situation.peg_state`: the play as it stood, the scores then -- the
    score now less what was pegged since, none below 0 -- and no cards thrown shown: his are unknown to me, as in
    the play-outs, so a policy that reads its own throw, as ``defensive`` does, may be read amiss), his
    hand (the cards he laid from then on, -1 for those laid before; his hidden cards go after them), his role and
    the card; as :func:`_agreement`'s ``checks``, or None when the others laid no card."""
    from .play import side_of as side_of_seat
    from .situation import peg_state, walk

    rules, role, dealer = cast(Rules, situation.rules), cast(int, situation.role), situation.dealer
    played, laid_by = situation.played, situation.laid_by
    if all(r == role for r in laid_by):
        return None
    kernel_rules = rules.to_kernel()
    ats = [
        walk(
            rules,
            w,
            [c for c, r in zip(played[k:], laid_by[k:]) if r == w] + list(situation.hand) * (w == role),
            played[:k],
            laid_by[:k],
        )
        for k, w in enumerate(laid_by)
    ] + [situation.at]
    cards = read_only(np.asarray(played, dtype=np.int64))  # as the kernels pass it (sims.core.kernel.njit)
    pegged = np.zeros((len(played) + 1, MAX_SEATS), dtype=np.int64)  # pegged[k]: by side, from card k on
    for k in range(len(played) - 1, -1, -1):
        side = side_of_seat(kernel_rules, (dealer + laid_by[k]) % rules.players)
        then = ats[k].count + card_value(played[k])
        go = ats[k + 1].count_start == k + 1 and then != MAX_COUNT  # nobody could lay: the go to the last player
        pegged[k] = pegged[k + 1]
        pegged[k, side] += peg_points_kernel(cards, ats[k].count_start, k + 1, rules.bath_flush) + go
    now = situation.scores_by_side()
    rows = []
    for k, (card, w) in enumerate(zip(played, laid_by)):
        if w == role:
            continue
        his = [(c, j) for j, (c, r) in enumerate(zip(played, laid_by)) if r == w]
        hand = np.full(rules.kept, -1, dtype=np.int64)
        hand[: len(his)] = [c if j >= k else -1 for c, j in his]
        state = peg_state(rules, w, dealer, np.maximum(now - pegged[k], 0), situation.starter, ats[k], k)
        rows.append((state, hand, w, card))
    states, hands, who, made = (np.asarray(column, dtype=np.int64) for column in zip(*rows))
    return states, hands, who, made


def _conditioned(infer: str, checks, held: int, kept: int, tried: int, samples: int, exact: bool, playout) -> str:
    """What the deals are conditioned on, in words (``attrs["conditioned"]``)."""
    laws = "the laws (a player who said go, or could not lay when a count ended, held no card that fitted)"
    if infer == "laws":
        return f"{laws} alone"
    if checks is None:
        return f"{laws} alone: the others have laid no card yet"
    n = len(checks[3])
    text = (
        f"{laws} and the {n} card{'s' if n > 1 else ''} the others laid, as the playout pegging "
        f"({playout.label()}) lays them: {kept:,} deals kept of {tried:,} {'lawful' if exact else 'tried'}"
    )
    if held < n:
        why = "no deal agrees with more" if exact else f"fewer than {samples:,} of the deals tried agree with more"
        text += f"; only the first {held} of these {n} cards held to ({why})"
    return text


def _win_chances(situation: PegSituation, final: np.ndarray, players: str) -> tuple[np.ndarray, np.ndarray]:
    """My chance of winning the game after each play-out, from the tables of ``players`` (module docstring),
    and how much it moves with every cell of the board-position table moved up by its standard error
    (:func:`.odds.throws.shifted_by_error`; 0 where a card reaches the target)."""
    from .odds.table import shipped_table
    from .odds.throws import preset_of, shifted_by_error
    from .policies import position
    from .policies.position_vectors import players_vector
    from .scoring import show_points

    rules = cast(Rules, situation.rules)
    values = read_only(players_vector(players))  # as the position-aware players see it (one specialisation)
    ix = position.section(values, read_only(rules.to_kernel()))
    if ix[position.X_T] < 0 or rules.active != 2:
        raise ValueError(
            f"no board-position table for rules {rules.name!r}; the chance of winning needs one of "
            f"{', '.join(position.PRESETS)}"
        )
    moved = read_only(shifted_by_error(values, ix, shipped_table(preset_of(rules), players)))
    dealer = situation.role == 0
    show = np.asarray(
        [show_points(np.asarray(situation.kept, dtype=np.int64), rules.kept, situation.starter, False, False)],
        dtype=np.int64,
    )
    thrown = read_only(np.asarray(situation.thrown, dtype=np.int64))
    shown = position.shows_to_come(values, ix, dealer, thrown)
    shown_moved = position.shows_to_come(moved, ix, dealer, thrown)
    win = np.where(final[..., F_WON] >= 0, final[..., F_WON], np.nan).astype(float)
    shift = np.zeros(win.shape)
    going_on = final[..., F_WON] < 0  # no card reached the target: the table gives the chance, once a score
    scores, which = np.unique(final[going_on][:, [F_MINE, F_THEIRS]], axis=0, return_inverse=True)
    chance, chance_moved = (
        np.array([position.after_show(v, ix, dealer, int(m), int(t), show, 1, s) for m, t in scores], dtype=float)
        for v, s in ((values, shown), (moved, shown_moved))
    )
    win[going_on], shift[going_on] = chance[which], (chance_moved - chance)[which]
    return win, shift


NAMED = {
    "peg": ("greedy", "defensive", "rollout", "distilled", "distilled_end", "position", "position_distilled"),
    "discard": (
        "greedy",
        "expected_hand",
        "expected_net",
        "expected_peg",
        "exact_net",
        "hoyle",
        "position",
        "position_distilled",
    ),
}


def advise(
    situation,
    playout=DEFAULT_PLAYOUT,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    policies=None,
    exact_limit: int = EXACT_LIMIT,
    players: str | None = None,
    infer: str = "playout",
) -> pd.DataFrame:
    """Every legal card of a pegging situation valued by play-outs, best first.

    A :class:`~sims.cribbage.situation.DiscardSituation` goes to ``advise_discard`` (every throw, as
    ``sims discard`` values them).

    Parameters
    ----------
    situation : PegSituation or DiscardSituation
        The decision as the player knows it.
    playout : str
        The pegging policy everyone plays by after the card.
    samples : int
        Deals of the unseen cards sampled when they are too many to play every one.
    seed : int
        Seed of the sampled deals and of the named policies' streams.
    policies : sequence of str, optional
        Policies whose choice the ``chosen_by`` column names (default: the game's built-in ones).
    exact_limit : int
        Play every deal of the unseen cards when there are at most this many (exact, ± 0).
    players : str, optional
        With a score: whose board-position table gives the chance of winning (default as ``sims peg``).
    infer : str
        ``"playout"``: the deals agree with the others' cards laid as the ``playout`` lays them; ``"laws"``: with
        the laws alone (module docstring).

    Returns
    -------
    pandas.DataFrame
        ``card``, ``value`` (points for less against to the end of the play) and ``se``, ``vs_best`` and
        ``vs_best_se`` (paired over the same deals), ``win`` and ``win_se`` with a score, and ``chosen_by`` (the
        named ``policies`` that lay it, each choosing with a stream seeded by ``seed``).  ``attrs`` say how:
        ``method`` (exact or rollouts), ``deals``, ``conditioned`` (what the deals are conditioned on, how many
        were kept of how many tried, and the others' cards not held to when too few deals fit them),
        ``playout``, and with a score ``players``.
    """
    if situation.DECISION == "discard":
        return advise_discard(situation, NAMED["discard"] if policies is None else policies, samples, seed)
    import pandas as pd

    columns, attrs = peg_advice(situation, playout, samples, seed, policies, exact_limit, players, infer)
    frame = pd.DataFrame(columns)
    frame.attrs.update(attrs)
    return frame


def _seated(playout):
    """Every seat pegging by the resolved ``playout``: the kernels' ``pegs`` (policies, parameters, offsets), and
    ``run(call)``, which runs a kernel that calls them and raises what the policy did wrong (its ``err``)."""
    own = np.asarray(playout.params_array(), dtype=np.float64)  # its named parameters and any fixed table
    params, k = np.concatenate([own] * MAX_SEATS), len(own)
    poff = np.zeros(2 * MAX_SEATS + 1, dtype=np.int64)
    for s in range(MAX_SEATS):  # seat s pegs by params[poff[2s + 1]:poff[2s + 2]] and throws by none
        poff[2 * s + 1], poff[2 * s + 2] = s * k, (s + 1) * k
    err = np.zeros(E_SIZE, dtype=np.int64)

    def run(call):
        with raised_by_policy([playout], "a play-out"):
            status = call(err)
        if status == POLICY_ERROR:
            raise PolicyError(
                f"playout policy {playout.label()!r} "
                f"{overrun_text(err) or f'answered {int(err[E_ANSWER])}, an illegal card'}"
            )
        return status

    return ((playout.fn,) * MAX_SEATS, params, poff), run


def read_deals(
    situation: PegSituation,
    playout=DEFAULT_PLAYOUT,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    exact_limit: int = EXACT_LIMIT,
    infer: str = "playout",
):
    """The deals of the others' hidden cards :func:`peg_advice` plays out: ``(deals, left, enumerated, drew,
    conditioned)`` (:func:`conditioned_deals`; ``conditioned`` in words, :func:`_conditioned`), read from the
    others' cards laid as ``playout`` lays them, or (``infer="laws"``) from the laws alone (module docstring)."""
    from .policies import resolve

    if infer not in INFER:
        raise ValueError(f"infer is one of {', '.join(INFER)}, got {infer!r}")
    playout = resolve("peg", playout)
    checks = _checks(situation) if infer == "playout" else None
    agreement = None
    if checks is not None:
        pegs, run = _seated(playout)
        kernel_rules = cast(Rules, situation.rules).to_kernel()
        played = situation.to_state().played
        keys = chunk_keys(seed, CHECK_CHUNK, 1, MAX_SEATS + 1)[0, 1:]

        def agreeing(deals, left, first):
            agree = np.zeros(len(deals), dtype=np.int64)
            drew = run(
                lambda err: _agreement(kernel_rules, played, checks, (deals, left), pegs, keys, first, agree, err)
            )
            return agree, drew == 1

        agreement = (len(checks[3]), agreeing)
    deals, left, enumerated, tried, held, drew = conditioned_deals(situation, samples, seed, exact_limit, agreement)
    conditioned = _conditioned(infer, checks, held, len(deals), tried, samples, enumerated, playout)
    return deals, left, enumerated, drew, conditioned


def given_deal(situation: PegSituation, dealt) -> tuple[np.ndarray, np.ndarray]:
    """``(deals, left)`` as :func:`hidden_deals` gives them for one deal of the others' hidden cards, ``dealt``
    (readable or ids, each role's cards in role order); a one-line error when they are not as many as the others
    hold, or one of them is seen (held, laid, thrown or turned) or given twice."""
    from ..cards import parse_cards

    rules = cast(Rules, situation.rules)
    cards = parse_cards(dealt)
    left = np.asarray(situation.left() + [0] * (MAX_SEATS - rules.active), dtype=np.int64)
    left[cast(int, situation.role)] = 0
    if len(cards) != left.sum():
        raise ValueError(f"the others hold {int(left.sum())} cards, {len(cards)} given")
    seen = set(situation.kept) | set(situation.played) | {situation.starter} | set(situation.thrown)
    if seen & set(cards):
        card = format_card(min(seen & set(cards)))
        raise ValueError(f"{card} is seen (held, laid, thrown or turned), not the others'")
    return np.asarray([cards], dtype=np.int64), left


def peg_advice(
    situation: PegSituation,
    playout=DEFAULT_PLAYOUT,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    policies=None,
    exact_limit: int = EXACT_LIMIT,
    players: str | None = None,
    infer: str = "playout",
    dealt=None,
) -> tuple[dict, dict]:
    """:func:`advise`'s table without pandas (``sims peg`` needs none): its columns ``{name: values}``, rows best
    first, and its ``attrs``.  ``dealt``: the others' hidden cards as they were dealt (each role's in role order,
    as :func:`hidden_deals` deals them), played out as the one deal instead of the deals read
    (:func:`given_deal`: the values checked against the cards that were dealt, :mod:`.values_check`)."""
    from .policies import resolve

    policies = NAMED[situation.DECISION] if policies is None else policies
    if players is not None and situation.score is None:
        raise ValueError("the players name the board-position table of the chance of winning: give the score too")
    samples = check_samples(samples)
    playout = resolve("peg", playout)
    table_players = ""  # the board-position table's players, checked before any play-out (with a score)
    if situation.score is not None:
        from .odds.layout import players_of

        table_players = players_of(players, peg=playout.name)
    arrays = situation.to_state()
    pegs, run = _seated(playout)
    if dealt is None:
        deals, left, enumerated, drew, conditioned = read_deals(situation, playout, samples, seed, exact_limit, infer)
    else:
        (deals, left), enumerated, drew, conditioned = given_deal(situation, dealt), True, False, "the cards dealt"
    keys = chunk_keys(seed, 0, 1, MAX_SEATS + 1)[0, 1:]
    n_cards = arrays.hand.shape[0]
    net = np.full((len(deals), n_cards), np.nan)
    final = np.zeros((len(deals), n_cards, 3), dtype=np.int64)
    played_out = run(
        lambda err: _play_outs(
            arrays.rules,
            arrays.hand,
            arrays.played,
            arrays.state,
            (deals, left),
            pegs,
            keys,
            situation.score is not None,
            situation.scores_by_side(),
            (net, final),
            err,
        )
    )
    exact = enumerated and not drew and played_out == 0  # a policy that drew a random number: not exact
    legal = [i for i in range(n_cards) if is_legal_play(arrays.hand, i, situation.count)]
    columns: dict[str, Any] = {"card": [format_card(int(arrays.hand[i])) for i in legal]}
    values, table = net[:, legal], {}
    if situation.score is not None:
        table = {
            "players": table_players,
            "win_se": "the board-position table's error (an upper bound: as if its cells' errors were fully "
            "correlated; as sims discard --score) with the sampled deals' own",
        }
        win, shift = (a[:, legal] for a in _win_chances(situation, final, table_players))
    key = "win" if situation.score is not None else "value"
    # The best card (issue 34: one definition): the best chance of winning with a score, else the most points;
    # best first by it, then the points; equal rows keep the order of the hand (a stable sort).
    points = values.mean(axis=0)
    by_key = win.mean(axis=0).round(WIN_DIGITS) if table else points
    order = best_first(by_key, points)
    columns.update(rollout_columns(values, exact, "value", best=order[0]))
    if table:
        columns.update(rollout_columns(win, exact, "win", best=order[0]))
        error = shift.mean(axis=0)  # the board-position table's error (an upper bound), with the sampling's
        columns["win_se"] = np.hypot(columns["win_se"], error)
        columns["win_vs_best_se"] = np.hypot(columns["win_vs_best_se"], error - error[order[0]])
    choices = choices_of(Player, situation, policies, seed)
    columns["chosen_by"] = chosen_by(choices, columns["card"])
    columns = {
        name: [values[r] for r in order] if isinstance(values, list) else values[order]
        for name, values in columns.items()
    }
    return columns, {
        "situation": situation.describe(),
        "method": "exact" if exact else "rollouts",
        "deals": len(deals),
        "conditioned": conditioned,
        "playout": playout.label(),
        "seed": seed,
        "sort": key,
        **table,
    }


def advise_discard(
    situation, policies=NAMED["discard"], samples: int = DEFAULT_SAMPLES, seed: int = 0, **options
) -> pd.DataFrame:
    """Every throw of a :class:`~sims.cribbage.situation.DiscardSituation`, one row each, as ``sims discard``
    values them (:func:`sims.cribbage.discards.advise`; ``options`` are its own, e.g. ``pegging``; the crib
    source by default ``sims discard``'s, :data:`~sims.cribbage.discards.DEFAULT_CRIB`), best first (by the
    chance of winning with a score, else by the net), and ``chosen_by``: the named ``policies`` that throw it."""
    from .contract import ROLE_NAMES
    from .discards import DEFAULT_CRIB
    from .discards import advise as discard_advice

    options.setdefault("crib", [DEFAULT_CRIB])

    role = ROLE_NAMES[situation.rules.active][situation.role]
    score = None
    if situation.score is not None:
        if situation.rules.active != 2:
            raise ValueError("the chance of winning needs a two-handed game")
        mine, theirs = situation.score
        score = (mine, theirs) if situation.role == 0 else (theirs, mine)
    frame = discard_advice(
        situation.hand,
        role,
        situation.rules,
        samples=samples,
        seed=seed,
        score=score,
        sort="win" if score else "net",
        collapse=False,
        **options,
    ).frame()
    choices = choices_of(Player, situation, policies, seed)
    frame["chosen_by"] = chosen_by(choices, frame["thrown"])
    frame.attrs["situation"] = situation.describe()
    return frame
