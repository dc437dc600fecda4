"""Invariants of the njit engine (issue 3, must-haves 5, 6, 8 and "Bad input"): random-playout fuzz
of every preset, the six-card dealer's end-hole point, the same numbers on 1 and 2 threads, common
random numbers across policies, and bad input.

The fuzz plays deals in the kernel (``play.play_deal``) and keeps its work arrays: the deck, the
cards kept, the crib, the cards laid in order and the hands left.  From those alone every card is
accounted for, and the points of the play are worked out again from the rules.  A *sentinel*
pegging policy checks, at every card the engine asks for, what it is shown: the count never above
thirty-one and equal to the cards laid since the count began; it answers illegally (and so stops
the run with a PolicyError) the moment anything is wrong.
"""

import numpy as np
import pytest

from sims.cards import parse_cards
from sims.core.kernel import njit  # cached by every source it reaches, not its own file only
from sims.core.rng import randint
from sims.cribbage import PRESETS, play_games, simulate_deals
from sims.cribbage import reference as ref
from sims.cribbage.contract import (
    EMPTY_PARAMS,
    PEG_SIG,
    S_COUNT,
    S_COUNT_START,
    S_N_PLAYED,
    S_SIZE,
    S_STARTER,
    is_legal_play,
    is_valid_throw,
)
from sims.cribbage.literal_scoring import peg_score
from sims.cribbage.pegging import card_value
from sims.cribbage.play import COMPONENTS
from sims.cribbage.rules import R_DEALT, R_THROW
from tests.cribbage.fuzz import ONE_WORKER, fuzz
from tests.cribbage.records import records_array

pytestmark = ONE_WORKER

SEEDS = (1, 2, 3, 4, 5)
FUZZ_DEALS = 600  # per seed and preset
C = {name: k for k, name in enumerate(COMPONENTS)}

RANDOM = {"discard": "random", "peg": "random"}  # the fuzz: random throws and cards reach every corner of the play


@njit(PEG_SIG, cache=True)  # called from Python too: one signature serves both
def sentinel_peg(hand, played, state, rules, rng, params):
    """A random legal card — unless what the engine shows is wrong, then an illegal answer (-1)."""
    count, start, n = state[S_COUNT], state[S_COUNT_START], state[S_N_PLAYED]
    total = 0
    for i in range(start, n):
        total += card_value(played[i])
    ok = 0 <= start <= n and total == count and count < 31
    legal = 0
    for i in range(hand.shape[0]):
        if hand[i] == state[S_STARTER]:
            ok = False
        if is_legal_play(hand, i, count):
            legal += 1
    if not ok or legal == 0:
        return -1
    pick = randint(rng, legal)
    for i in range(hand.shape[0]):
        if is_legal_play(hand, i, count):
            if pick == 0:
                return i
            pick -= 1
    return -1


@njit(cache=True)
def sentinel_discard(hand, state, rules, rng, params):
    """Random throw — unless the hand is not ``cards_dealt`` distinct cards or a starter is shown."""
    n = hand.shape[0]
    ok = n == rules[R_DEALT] and state[S_STARTER] == -1 and state[S_COUNT] == 0
    for i in range(n):
        for j in range(i):
            ok = ok and hand[i] != hand[j] and 0 <= hand[i] < 52
    if not ok:
        return 0
    while True:
        mask = randint(rng, 1 << n)
        if is_valid_throw(mask, n, rules[R_THROW]):
            return mask


def counts_of(laid):
    """The counts of a play, from the cards laid in order: a new count begins after thirty-one or
    when the next card would pass it (nobody could play: the go)."""
    counts, current, total = [], [], 0
    for card in laid:
        if total + card_value(card) > 31:
            counts.append(current)
            current, total = [], 0
        current.append(card)
        total += card_value(card)
        if total == 31:
            counts.append(current)
            current, total = [], 0
    if current:
        counts.append(current)
    return counts


@pytest.mark.parametrize("rules", list(PRESETS))
def test_fuzz_every_card_accounted_for_and_the_play_rescored(rules):
    r = PRESETS[rules]
    n_dealt = r.active * r.cards_dealt
    for seed in SEEDS:
        policies = {"discard": "random" if seed % 2 else "greedy", "peg": "random" if seed < 4 else "greedy"}
        f = fuzz(rules, policies, FUZZ_DEALS, seed)
        for g in range(FUZZ_DEALS):
            deck, comp = f["deck"][g], f["comp"][g]
            assert sorted(deck) == list(range(52))
            hands = deck[:n_dealt].reshape(r.active, r.cards_dealt)
            from_pack, starter = deck[n_dealt : n_dealt + r.crib_from_pack], deck[n_dealt + r.crib_from_pack]
            thrown = []
            for role in range(r.active):
                kept = f["kept"][g, role]
                assert set(kept) <= set(hands[role]) and len(set(kept)) == r.kept
                thrown += [c for c in hands[role] if c not in kept]
            assert sorted(f["crib"][g]) == sorted(thrown + list(from_pack))
            # The play: the cards laid are the cards kept that have left the hands, none twice.
            laid = f["laid"][g, : f["n_laid"][g]].tolist()
            assert len(set(laid)) == len(laid)
            held = f["held"][g]
            assert sorted(laid) == sorted(set(f["kept"][g].ravel()) - set(held.ravel()))
            if not r.one_count:
                assert (held < 0).all()
            counts = counts_of(laid)
            assert all(sum(card_value(c) for c in count) <= 31 for count in counts)
            if r.one_count:
                assert len(counts) == 1
            play = sum(peg_score(count[:k]) for count in counts for k in range(1, len(count) + 1))
            assert comp[:, C["play"]].sum() == play
            ends = sum(1 for count in counts if sum(card_value(c) for c in count) < 31)
            assert comp[:, C["go"]].sum() == ends
            # Components: pegging = play + go, total = all; heels and crib to the dealer only.
            assert (comp[:, C["pegging"]] == comp[:, C["play"]] + comp[:, C["go"]]).all()
            assert (
                comp[:, C["total"]] == comp[:, [C[k] for k in ("hand", "crib", "play", "go", "heels")]].sum(axis=1)
            ).all()
            assert comp[0, C["heels"]] == (2 if starter >> 2 == 10 else 0)
            assert not comp[1:, C["heels"]].any() and not comp[1:, C["crib"]].any()
            assert (comp >= 0).all()


@pytest.mark.parametrize("rules", list(PRESETS))
def test_fuzz_matches_records_and_reference_deck(rules):
    """The fuzz kernel plays the very deals of simulate_deals, from the decks the reference shuffles."""
    f = fuzz(rules, RANDOM, 300, seed=6)
    records = records_array(simulate_deals(rules, RANDOM, 300, 6, records=True))
    assert np.array_equal(f["comp"], records[:, : PRESETS[rules].active])
    deals = ref.simulate_deals(rules, RANDOM, 300, 6)
    need = PRESETS[rules].active * PRESETS[rules].cards_dealt + PRESETS[rules].crib_from_pack + 1
    for g, deal in enumerate(deals):
        assert f["deck"][g, :need].tolist() == deal.deck[:need]
        assert f["laid"][g, : f["n_laid"][g]].tolist() == [c for _, c, _ in deal.laid]
        assert all(count <= 31 for _, _, count in deal.laid)


@pytest.mark.parametrize("rules", list(PRESETS))
def test_sentinel_policies_see_a_consistent_state(rules):
    """At every decision the count shown is within 31 and equals the cards laid since it began."""
    simulate_deals(rules, {"discard": sentinel_discard, "peg": sentinel_peg}, 20_000, 8)
    play_games(rules, {"discard": sentinel_discard, "peg": sentinel_peg}, 300, 8)


def test_sentinel_can_fail():
    """The sentinel answers -1 to a count that disagrees with the cards laid, or is past 31."""
    hand = np.array(parse_cards("5C 9D KS AH"), dtype=np.int64)
    played = np.array(parse_cards("7C 8D") + [-1] * 6, dtype=np.int64)
    rules = PRESETS["six-card"].to_kernel()
    rng = np.ones(4, dtype=np.uint64)
    state = np.zeros(S_SIZE, dtype=np.int64)
    state[S_STARTER], state[S_N_PLAYED], state[S_COUNT] = parse_cards("2S")[0], 2, 15
    assert sentinel_peg(hand, played, state, rules, rng, EMPTY_PARAMS) >= 0
    for field, wrong in ((S_COUNT, 16), (S_COUNT_START, 1), (S_STARTER, hand[0])):
        bad = state.copy()
        bad[field] = wrong
        assert sentinel_peg(hand, played, bad, rules, rng, EMPTY_PARAMS) == -1


# -- the two-handed dealer's end hole ----------------------------------------------------------------

EVERY_CARD_PLAYED_TWO_HANDED = ["six-card", "six-card-61", "eight-card", "three-rotation"]


@pytest.mark.parametrize("rules", EVERY_CARD_PLAYED_TWO_HANDED)
def test_two_handed_dealer_always_pegs_at_least_one(rules):
    """Claim (issue 3): the two-handed six-card dealer always pegs at least the last-card point.

    Why: every card is played.  A count is closed by its last card: the player who lays it scores
    the go (1) or thirty-one (2).  Suppose the pone laid the last card of every count.  The pone
    leads the first count, so he laid at least one more card than the dealer in it; every later
    count is then led by the dealer (the player left of the last) and the pone laid at least as
    many cards as the dealer in each.  Summing, the pone laid more cards than the dealer — but both
    lay all their cards, the same number.  So the dealer closes some count and pegs at least one:
    the go or last card (component ``go``) or, if that count reached 31, two within ``play``.  The
    right claim is therefore on ``pegging`` (play + go), not on ``go``: the dealer's go can be 0.
    """
    for policies, seed in ((RANDOM, 1), ({"discard": "greedy", "peg": "greedy"}, 2)):
        records = simulate_deals(rules, policies, 20_000, seed, records=True).records
        assert (records["dealer_pegging"] >= 1).all()
        assert (records["pone_pegging"] == 0).any()  # not true of the pone
        assert (records["dealer_go"] == 0).any()  # the dealer closed with thirty-one only
    for deal in ref.simulate_deals(rules, RANDOM, 300, 3):
        assert any(count[-1][0] == 0 for count in deal.counts)  # the dealer closes some count


def test_five_card_dealer_may_peg_nothing():
    """With one count only the argument fails, and the data show it: the check can fail."""
    records = simulate_deals("five-card", RANDOM, 5_000, 1, records=True).records
    assert (records["dealer_pegging"] == 0).any()


def test_dealer_point_holds_in_games_until_the_game_ends():
    """In games the last deal may stop before the play ends; every earlier deal pegs the dealer >= 1."""
    for game in ref.play_games("six-card-61", RANDOM, 50, 4):
        for deal in game.deals[:-1]:
            assert deal.points(0, "pegging") >= 1


# -- reproducibility -------------------------------------------------------------------------------


def test_same_seed_same_results_on_one_and_two_threads():
    n = 2 * 4096 + 777  # three chunks
    one = simulate_deals("six-card", RANDOM, n, 42, records=True, threads=1)
    two = simulate_deals("six-card", RANDOM, n, 42, records=True, threads=2)
    assert one.records.equals(two.records)
    assert one.summary["roles"] == two.summary["roles"] and one.summary["seats"] == two.summary["seats"]
    for role in one.histograms:
        assert one.histograms[role].equals(two.histograms[role])
    g1 = play_games("four-hand", {"discard": "greedy"}, 600, 42, records=True, threads=1, score_log=True)
    g2 = play_games("four-hand", {"discard": "greedy"}, 600, 42, records=True, threads=2, score_log=True)
    assert g1.games.equals(g2.games) and g1.score_log().equals(g2.score_log())
    assert g1.summary["win_rate"] == g2.summary["win_rate"]
    # without the score log the rows have no room for it, and the games are the same
    assert play_games("four-hand", {"discard": "greedy"}, 600, 42, records=True, threads=2).games.equals(g1.games)


def test_different_seeds_differ():
    a = simulate_deals("six-card", RANDOM, 1000, 1, records=True).records
    b = simulate_deals("six-card", RANDOM, 1000, 2, records=True).records
    assert not a.equals(b)


@pytest.mark.parametrize("rules", ["six-card", "three-hand", "four-hand"])
def test_changing_one_seats_policy_never_changes_the_cards_dealt(rules):
    """Common random numbers: the deck has its own stream; so does each seat's policy."""
    players = PRESETS[rules].players
    base = {"discard": "random", "peg": "random"}
    changed = {
        "discard": ["random"] + ["greedy"] + ["random"] * (players - 2),
        "peg": ["random"] + ["greedy"] + ["random"] * (players - 2),
    }
    a, b = fuzz(rules, base, 1000, 11), fuzz(rules, changed, 1000, 11)
    assert np.array_equal(a["deck"], b["deck"])
    assert not np.array_equal(a["kept"], b["kept"])
    # Seat 0 kept its random policy: it throws the same cards from its own stream.
    for g in range(1000):
        role = (0 - g % players) % players
        if role < PRESETS[rules].active:
            assert np.array_equal(a["kept"][g, role], b["kept"][g, role])
    # Through the public API: his heels (the starter) are the same deal by deal, and so is the
    # first dealer of every game.
    ra = simulate_deals(rules, base, 3000, 11, records=True).records
    rb = simulate_deals(rules, changed, 3000, 11, records=True).records
    assert ra["dealer_heels"].equals(rb["dealer_heels"]) and not ra["dealer_total"].equals(rb["dealer_total"])
    ga, gb = (
        play_games(rules, base, 300, 11, records=True).games,
        play_games(rules, changed, 300, 11, records=True).games,
    )
    assert ga["first_dealer"].equals(gb["first_dealer"])


# -- bad input -------------------------------------------------------------------------------------

BAD = [
    ({"n": 0}, "positive integer"),
    ({"n": -5}, "positive integer"),
    ({"n": 2.5}, "positive integer"),
    ({"n": True}, "positive integer"),
    ({"seed": -1}, "seed"),
    ({"seed": 1.5}, "seed"),
    ({"seed": "1"}, "seed"),
    ({"rules": "seven-card"}, "unknown rules"),
    ({"policies": {"peg": ["random"] * 3}}, "3 policies for 2 seats"),
    ({"policies": {"discard": ["random", "greedy", "random"]}}, "3 policies for 2 seats"),
    ({"policies": {"peg": "clever"}}, "unknown peg policy"),
    ({"policies": {"pegging": "random"}}, "unknown cribbage decision .pegging."),
]


@pytest.mark.parametrize("api", [simulate_deals, play_games])
@pytest.mark.parametrize("bad, message", BAD)
def test_bad_input_is_a_one_line_value_error(api, bad, message):
    args = {"rules": "six-card", "policies": None, "n": 10, "seed": 0} | bad
    with pytest.raises(ValueError, match=message) as info:
        api(args["rules"], args["policies"], args["n"], args["seed"])
    assert "\n" not in str(info.value)
