"""The built-in policies on positions worked out by hand, each maxim named after its clause (Sections 87-96
§94), begging by strength, and the expert's parts: the exact solver against a brute-force minimax,
the sampler, the node budget, and a seeded check of its strength."""

import itertools

import numpy as np
import pytest

from sims.allfours import PRESETS, simulate_deals
from sims.allfours.contract import (
    BEG,
    EMPTY_PARAMS,
    GIVE,
    P_CARD,
    P_ROLE,
    RUN,
    S_HELD,
    S_LEAD_SUIT,
    S_MY_SCORE,
    S_N_PLAYED,
    S_OPP_SCORE,
    S_PLAYERS,
    S_ROLE,
    S_SIZE,
    S_TARGET,
    S_TRICK_START,
    S_TRUMP,
    S_TURNED,
    S_TURNED_MASK,
    STAND,
)
from sims.allfours.maxims import M_BEST_CARDS, M_ELDEST_TRUMPS, M_KNAVE, M_TENS, advice
from sims.allfours.policies.basic import greedy_play
from sims.allfours.policies.begging import strength, threshold_answer, threshold_beg
from sims.allfours.policies.expert import expert_play
from sims.allfours.policies.maxims import maxims_play
from sims.allfours.policies.memory import forgetful_play, remembered
from sims.allfours.reference import GAME_POINTS, legal_cards, suit, trick_winner, whist_rank
from sims.allfours.search import (
    SEARCH_INDEX,
    X_BUDGET,
    X_GEN,
    X_JACK,
    X_LEAF,
    X_MAY_TRUMP,
    X_PLAYERS,
    X_SIZE,
    X_TIE,
    X_TRUMP,
    card_value,
    knave_index,
    narrow,
    new_stack,
    new_table,
    sample_hands,
    set_root,
    to_search,
)
from sims.cards import parse_cards

HEARTS = 2
RULES = PRESETS["two-hand"].to_kernel()


def cards(text):
    return parse_cards(text)


def view(hand, trump=HEARTS, played=(), role=0, players=2, held=6, turned="3H", scores=(0, 0), size=21):
    """A policy's arguments: its hand (padded with -1), the cards played as (role, card) in order, the state."""
    h = np.full(size, -1, dtype=np.int64)
    h[: len(cards(hand))] = cards(hand)
    p = np.full((2, players * size), -1, dtype=np.int64)
    for k, (r, c) in enumerate(played):
        p[P_ROLE, k], p[P_CARD, k] = r, cards(c)[0]
    n = len(played)
    state = np.zeros(S_SIZE, dtype=np.int64)
    state[S_ROLE], state[S_PLAYERS], state[S_TRUMP], state[S_HELD] = role, players, trump, held
    state[S_TURNED] = cards(turned)[0]
    state[S_TURNED_MASK] = 1 << state[S_TURNED]
    state[S_N_PLAYED], state[S_TRICK_START] = n, n - n % players
    state[S_LEAD_SUIT] = -1 if n % players == 0 else p[P_CARD, n - n % players] & 3
    state[S_MY_SCORE], state[S_OPP_SCORE], state[S_TARGET] = scores[0], scores[1], 10
    return h, p, state


def play(policy, hand, params=EMPTY_PARAMS, rules=RULES, seed=1, **kw):
    h, p, state = view(hand, **kw)
    i = policy(h, p, state, rules, np.array([seed, 2, 3, 4], dtype=np.uint64), np.asarray(params, dtype=np.float64))
    return h[i]


def one_maxim(k):
    on = np.zeros(4)
    on[k] = 1.0
    return on


# -- greedy ---------------------------------------------------------------------------------------


def test_greedy_wins_with_the_lowest_card_of_the_suit_led_that_can():
    assert play(greedy_play, "10C KC 2C 5H", played=[(1, "9C")]) == cards("10C")[0]


def test_greedy_cannot_win_so_parts_with_its_cheapest_card():
    assert play(greedy_play, "KC 2C 3D JH", played=[(1, "AC")]) == cards("2C")[0]


def test_greedy_does_not_trump_in():
    assert play(greedy_play, "3C QS 2H", played=[(1, "2D")]) == cards("3C")[0]


def test_greedy_leads_its_highest_plain_card():
    assert play(greedy_play, "AH 10D 4C KS 2S", role=1) == cards("KS")[0]
    assert play(greedy_play, "AH 4H 7H", role=1) == cards("4H")[0]  # only trumps: the cheapest


def test_greedy_leaves_a_trick_to_the_partner():
    played = [(1, "2C"), (2, "AC"), (3, "3C")]
    assert play(greedy_play, "KC 4C 9D", played=played, players=4) == cards("4C")[0]


# -- the maxims (Sections 87-96 §94) --------------------------------------------------------------------


def test_maxim_i_make_your_knave_as_soon_as_you_can():
    """Void in clubs and last to play: the knave of trumps makes at once; greedy keeps it."""
    hand, played = "JH 4D 9S", [(1, "5C")]
    assert play(maxims_play, hand, one_maxim(M_KNAVE), played=played) == cards("JH")[0]
    assert play(maxims_play, hand, np.zeros(4), played=played) == cards("4D")[0]


def test_maxim_i_leads_the_knave_once_no_higher_trump_is_out():
    out = [(1, "AH"), (0, "2C"), (0, "KH"), (1, "3C"), (1, "QH"), (0, "4C")]
    h, p, state = view("JH 9S 5D", played=out, role=0, held=6)
    assert advice(M_KNAVE, h, p, state, RULES) == 1 << 0
    assert advice(M_KNAVE, *view("JH 9S 5D", role=0), RULES) == 0  # A K Q of trumps unseen


def test_law_v_asking_high_or_low_tells_the_forgetful_player_the_trumps_played():
    """A K Q of trumps fell in earlier tricks: the player who tracks the cards, and the forgetful one who asked
    of each trump (law v), lead the knave (maxim i); the forgetful one who did not ask thinks them still out
    and leads greedily, his highest plain card."""
    out = [(1, "AH"), (0, "2C"), (0, "KH"), (1, "3C"), (1, "QH"), (0, "4C")]
    hand = "JH 9S 5D"
    assert play(maxims_play, hand, np.ones(4), played=out) == cards("JH")[0]
    assert play(forgetful_play, hand, [1.0], played=out) == cards("JH")[0]
    assert play(forgetful_play, hand, [0.0], played=out) == cards("9S")[0]


def test_law_v_the_forgetful_player_remembers_the_trick_on_the_table_and_by_asking_only_the_trumps():
    out = [(1, "AH"), (0, "2C"), (0, "KH"), (1, "3C"), (1, "QH")]  # a trick under way: QH led
    h, p, state = view("JH 9S", played=out, role=0)
    seen, known = remembered(p, state, True)
    assert known[S_TRICK_START] == 2 and known[S_N_PLAYED] == 3
    assert [(int(seen[P_ROLE, k]), int(seen[P_CARD, k])) for k in range(3)] == [
        (1, cards("AH")[0]),
        (0, cards("KH")[0]),
        (1, cards("QH")[0]),
    ]
    seen, known = remembered(p, state, False)
    assert known[S_TRICK_START] == 0 and known[S_N_PLAYED] == 1 and seen[P_CARD, 0] == cards("QH")[0]
    assert state[S_N_PLAYED] == 5 and state[S_TRICK_START] == 4  # what the engine shows is left as it was


def test_maxim_ii_secure_your_tens_by_playing_small_cards():
    """Leading with a ten in hand: a small card, throwing the lead to the adversary."""
    hand = "10D 4C 7S QC"
    assert play(maxims_play, hand, one_maxim(M_TENS), role=1) == cards("4C")[0]
    assert play(maxims_play, hand, np.zeros(4), role=1) == cards("QC")[0]


def test_maxim_ii_plays_the_ten_when_it_surely_makes():
    """Void in clubs, last to play, the ten of trumps wins the trick: secured."""
    assert play(maxims_play, "10H 3D 9S", one_maxim(M_TENS), played=[(1, "5C")]) == cards("10H")[0]


def test_maxim_iii_win_your_adversarys_best_cards_by_trumping():
    hand, played = "2H 3D 9S", [(1, "KC")]
    assert play(maxims_play, hand, one_maxim(M_BEST_CARDS), played=played) == cards("2H")[0]
    assert play(maxims_play, hand, np.zeros(4), played=played) == cards("3D")[0]
    assert advice(M_BEST_CARDS, *view(hand, played=[(1, "5C")]), RULES) == 0  # nothing worth taking


def test_maxim_iv_eldest_with_ace_king_or_queen_of_trumps_plays_them_immediately():
    hand = "AH KH 9C 2D 4S 5S"
    assert play(maxims_play, hand, one_maxim(M_ELDEST_TRUMPS), role=1) == cards("AH")[0]
    assert play(maxims_play, hand, np.zeros(4), role=1) == cards("9C")[0]
    assert advice(M_ELDEST_TRUMPS, *view("AH KH JH 2D", role=1), RULES) == 0  # holds the knave
    assert advice(M_ELDEST_TRUMPS, *view(hand, role=0), RULES) == 0  # not eldest


# -- begging --------------------------------------------------------------------------------------


def test_strength_counts_trumps_and_trump_honours():
    hand = np.array(cards("AH 10H 2H 5H KC QD") + [-1, -1], dtype=np.int64)
    assert strength(hand, HEARTS) == 2 + 2 + 1 + 1
    assert strength(hand, 0) == 2


def test_threshold_beg_and_answer():
    weak, _, state = view("2H 3C 4D 5S 6C 7D")
    rng = np.ones(4, dtype=np.uint64)
    assert threshold_beg(weak, state, RULES, rng, np.array([3.0])) == BEG
    assert threshold_beg(weak, state, RULES, rng, np.array([1.0])) == STAND
    strong, _, state = view("AH KH 3C 4D 5S 6C")
    assert threshold_answer(strong, state, RULES, rng, np.array([4.0])) == GIVE
    assert threshold_answer(strong, state, RULES, rng, np.array([5.0])) == RUN
    _, _, at_nine = view("AH KH 3C 4D 5S 6C", scores=(0, 9))
    assert threshold_answer(strong, at_nine, RULES, rng, np.array([0.0])) == RUN  # never gives the game away


# -- the expert: the solver against a brute-force minimax -----------------------------------------


def _greedy_rest(hands, leader, trump, d, jack, tie, sides):
    """The rest of the hand played by greedy's rules, in plain Python (the search's evaluation at its horizon):
    leading, the highest plain card, else the cheapest; following, the lowest card of the suit led that takes the
    trick from the other side, else the cheapest (a plain card before a trump, one that counts nothing before one
    that counts, then the lowest); among equals the lowest suit."""
    hands, n, jack_value = [list(h) for h in hands], len(hands), 0

    def cost(c):
        return 1000 * (suit(c) == trump) + 100 * (GAME_POINTS.get(c >> 2, 0) > 0) + whist_rank(c), suit(c)

    while hands[leader]:
        trick = []
        for j in range(n):
            role = (leader + j) % n
            lead = suit(trick[0][1]) if trick else None
            legal = [hands[role][i] for i in legal_cards(hands[role], lead, trump, True)]
            card = None
            if not trick:
                plain = [c for c in legal if suit(c) != trump]
                card = max(plain, key=lambda c: (whist_rank(c), -suit(c))) if plain else None
            else:
                by, best = trick[trick_winner(trick, trump)]
                above = [c for c in legal if suit(c) == lead == suit(best) and whist_rank(c) > whist_rank(best)]
                card = min(above, key=whist_rank) if above and sides[by] != sides[role] else None
            card = min(legal, key=cost) if card is None else card
            hands[role].remove(card)
            trick.append((role, card))
        leader = trick[trick_winner(trick, trump)][0]
        sign = 1 if sides[leader] == 0 else -1
        jack_value = sign if any(c == jack for _, c in trick) else jack_value
        d += sign * sum(GAME_POINTS.get(c >> 2, 0) for _, c in trick)
    return jack_value + (1 if d > 0 else -1 if d < 0 else tie)


def _brute(hands, trick, leader, trump, d, jack, tie, sides, leaf=0):
    """Plain minimax over every legal card: (jack won - lost) + (game won - lost) for side 0; with ``leaf``, a
    trick boundary where each hand holds that many cards is valued by :func:`_greedy_rest`."""
    n = len(hands)
    if not trick and not any(hands):
        return 1 if d > 0 else -1 if d < 0 else tie
    if not trick and leaf and len(hands[leader]) == leaf:
        return _greedy_rest(hands, leader, trump, d, jack, tie, sides)
    role = (leader + len(trick)) % n
    lead = trick[0][1] & 3 if trick else None
    values = []
    for i in legal_cards(hands[role], lead, trump, True):
        card = hands[role][i]
        rest = [h[:] for h in hands]
        rest[role][i] = -1
        t = trick + [(role, card)]
        if len(t) < n:
            values.append(_brute(rest, t, leader, trump, d, jack, tie, sides, leaf))
            continue
        winner = t[trick_winner(t, trump)][0]
        sign = 1 if sides[winner] == 0 else -1
        pts = sum(GAME_POINTS.get(c >> 2, 0) for _, c in t)
        jv = sign if any(c == jack for _, c in t) else 0
        rest = [[c for c in h if c >= 0] for h in rest]
        values.append(jv + _brute(rest, [], winner, trump, d + sign * pts, jack, tie, sides, leaf))
    return max(values) if sides[role] == 0 else min(values)


@pytest.mark.parametrize(
    "players, k, n_cases, leaf",
    [(2, 4, 40, 0), (2, 5, 10, 0), (4, 2, 30, 0), (2, 5, 30, 3), (2, 6, 80, 4), (4, 3, 20, 1), (4, 5, 200, 4)],
)
def test_the_solver_agrees_with_brute_force(players, k, n_cases, leaf):
    """Every card's value as plain minimax gives it; with a horizon (``leaf``: the cards a hand holds there), as
    minimax to the horizon with greedy's play of the rest (:func:`_greedy_rest`) gives it.  Asked only whether a
    card is worth at least ``t`` (``narrow``, the expert's test of a card that may be out of the running), the
    search stops at bounds that hold the value: the value itself, or bounds all below ``t``."""
    rng = np.random.default_rng(players * 100 + k + leaf)
    for case in range(n_cases):
        deck = [int(c) for c in rng.permutation(52)]
        trump = int(rng.integers(4))
        hands = [deck[r * k : (r + 1) * k] for r in range(players)]
        before = int(rng.integers(players))  # cards already in the current trick
        leader = int(rng.integers(players))
        trick = []
        for j in range(before):
            r = (leader + j) % players
            lead = trick[0][1] & 3 if trick else None
            i = legal_cards(hands[r], lead, trump, True)[0]
            trick.append((r, hands[r].pop(i)))
        me = (leader + before) % players
        sides = [(r - me) % 2 for r in range(players)]
        d, tie = int(rng.integers(-12, 13)), int(rng.integers(-1, 2))
        jack = 10 * 4 + trump
        ctx = np.zeros(X_SIZE, dtype=np.int64)
        ctx[X_PLAYERS], ctx[X_TRUMP], ctx[X_MAY_TRUMP], ctx[X_JACK] = players, trump, 1, knave_index(trump)
        ctx[X_TIE], ctx[X_GEN], ctx[X_BUDGET], ctx[X_LEAF] = tie, 1, 10**9, leaf
        masks = np.array([to_search(sum(1 << c for c in h)) for h in hands] + [0] * (4 - players), dtype=np.int64)
        best, best_role, pts, jack_in = -1, -1, 0, 0
        for r, c in trick:
            b = SEARCH_INDEX[c]
            if best < 0 or (b // 13 == best // 13 and b > best) or (b // 13 != best // 13 and b // 13 == trump):
                best, best_role = b, r
            pts += GAME_POINTS.get(c >> 2, 0)
            jack_in |= c == jack
        tables = new_table()
        lead = trick[0][1] & 3 if trick else -1
        for i in legal_cards(hands[me], None if lead < 0 else lead, trump, True):
            c = hands[me][i]
            rest = [h[:] for h in hands]
            rest[me] = [x for x in rest[me] if x != c]
            t = trick + [(me, c)]
            if len(t) < players:
                expected = _brute(rest, t, leader, trump, d, jack, tie, sides, leaf)
            else:
                w = t[trick_winner(t, trump)][0]
                sign = 1 if sides[w] == 0 else -1
                jv = sign if any(x == jack for _, x in t) else 0
                expected = jv + _brute(
                    rest, [], w, trump, d + sign * sum(GAME_POINTS.get(x >> 2, 0) for _, x in t), jack, tie, sides, leaf
                )
            stack = new_stack()
            set_root(stack, leader, before, lead, best, best_role, pts, int(jack_in), d)
            sides_k = np.array(sides + [0] * (4 - players), dtype=np.int64)
            got = card_value(ctx, sides_k, tables, masks, stack, SEARCH_INDEX[c])
            assert got == expected, f"case {case}: card {c} solver {got} != brute force {expected}"
            for t in range(-2, 4):  # narrowed only until the value is known or known to be below t
                lo, hi = narrow(ctx, sides_k, tables, masks, stack, np.int64(1) << SEARCH_INDEX[c], -2, 2, t)
                assert lo <= expected <= hi and (hi < t or lo == hi), f"case {case}: card {c} below {t}: {lo}..{hi}"


def test_the_horizon_values_the_rest_by_greedys_play():
    """Hand-computed (trump hearts; I follow the nine of spades led with the knave of trumps, the two of clubs or
    the three of diamonds, holding nothing else; he holds the ace and king of trumps), the rest valued by greedy's
    play once each hand holds two cards.  The knave takes the trick (jack to me, one point for game); then I lead
    my highest plain card, the three, which he trumps with his cheaper trump, the king, and his ace takes my two:
    seven to my one, game to him: 0.  Either small card loses the trick; then he leads the cheaper trump, the king,
    and I must follow with the knave (it cannot head him), which he takes, and his ace takes the rest: jack and
    game to him: -2.  The knave falls in the first trick of greedy's play, not the last."""
    trump = HEARTS
    hands = [cards("JH 2C 3D"), cards("AH KH")]
    nine = cards("9S")[0]
    ctx = np.zeros(X_SIZE, dtype=np.int64)
    ctx[X_PLAYERS], ctx[X_TRUMP], ctx[X_MAY_TRUMP], ctx[X_JACK] = 2, trump, 1, knave_index(trump)
    ctx[X_GEN], ctx[X_BUDGET], ctx[X_LEAF] = 1, 10**9, 2
    masks = np.array([to_search(sum(1 << c for c in h)) for h in hands] + [0, 0], dtype=np.int64)
    sides = np.array([0, 1, 0, 0], dtype=np.int64)
    values = {}
    for c in hands[0]:
        stack = new_stack()
        set_root(stack, 1, 1, nine & 3, SEARCH_INDEX[nine], 1, 0, 0, 0)
        values[c] = card_value(ctx, sides, new_table(), masks, stack, SEARCH_INDEX[c])
    assert [values[c] for c in hands[0]] == [0, -2, -2]


# -- the expert: sampling, budget, choices --------------------------------------------------------


def test_samples_respect_voids_counts_and_the_cards_seen():
    unseen = sum(1 << c for c in range(20, 52))
    counts = np.array([0, 5, 4, 3], dtype=np.int64)
    voids = np.array([0, 1 << 2, 0, (1 << 0) | (1 << 3)], dtype=np.int64)  # role 1: no hearts; 3: no C, S
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    out = np.zeros(4, dtype=np.int64)
    seen_in = np.zeros((4, 52))
    for _ in range(2000):
        assert sample_hands(unseen, counts, voids, 0, 4, rng, out)
        held = [[c for c in range(52) if (int(out[r]) >> c) & 1] for r in range(1, 4)]
        assert [len(h) for h in held] == [5, 4, 3]
        assert len(set(itertools.chain(*held))) == 12 and all(c >= 20 for h in held for c in h)
        assert all(c & 3 != 2 for c in held[0]) and all(c & 3 in (1, 2) for c in held[2])
        for r in range(1, 4):
            for c in held[r - 1]:
                seen_in[r, c] += 1
    # Two hands: the opponent's cards are uniform over the unseen cards his voids allow.
    two = np.zeros(52)
    for _ in range(4000):
        sample_hands(unseen, np.array([0, 6, 0, 0]), np.array([0, 1 << 2, 0, 0]), 0, 2, rng, out)
        two += [(int(out[1]) >> c) & 1 for c in range(52)]
    allowed = [c for c in range(20, 52) if c & 3 != 2]
    expected = 4000 * 6 / len(allowed)
    assert (
        np.all(np.abs(two[allowed] - expected) < 5 * np.sqrt(expected))
        and two[[c for c in range(52) if c not in allowed]].sum() == 0
    )


def test_expert_trumps_the_adversarys_ten_where_greedy_throws_a_small_card():
    """The ten led is worth ten for game: void in spades, the expert takes it with his deuce of trumps."""
    hand, played = "2H 2C 9D 8D 7D 6D", [(1, "10S")]
    assert play(expert_play, hand, [8, 1e6], played=played) == cards("2H")[0]
    assert play(greedy_play, hand, played=played) == cards("2C")[0]


def test_expert_without_budget_follows_the_maxims():
    for hand, kw in (("AH KH 9C 2D 4S 5S", {"role": 1}), ("JH 4D 9S 3C 5C 6C", {"played": [(1, "5S")]})):
        assert play(expert_play, hand, [8, 1], **kw) == play(maxims_play, hand, np.ones(4), **kw)


def test_the_expert_outscores_greedy():
    """Seeded: the expert's seat makes more points per hand than greedy's (each deals in turn)."""
    table = (
        simulate_deals(
            "two-hand", {"play": [{"name": "expert", "params": [6, 1e6, 9]}, "greedy"], "beg": "stand"}, 400, seed=11
        )
        .table()
        .set_index(["scope", "who", "component"])
    )
    expert, greedy = table.loc[("side", "seat 0", "total")], table.loc[("side", "seat 1", "total")]
    assert expert["mean"] - greedy["mean"] > 3 * np.hypot(expert["se"], greedy["se"])
