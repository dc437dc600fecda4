"""The expert policies: declarations by the self-play tables, exchanges, the searching card play; the shipped
tables and their provenance; the self-play iteration; and the expert in both engines."""

import numpy as np
import pytest

from sims.cards import parse_cards
from sims.core.jobs import resolve_one
from sims.core.registry import get_game
from sims.loo import get_rules, simulate_deals
from sims.loo import reference as ref
from sims.loo.contract import (
    MISS,
    PASS,
    PLAY,
    S_DECLARED,
    S_LOO,
    S_MISS,
    S_N_STOOD,
    S_PACK,
    S_PAM,
    S_PLAYERS,
    S_SHARE,
    S_SIZE,
    S_TRUMP,
    S_TRUMP_SUIT,
)
from sims.loo.policies import DECLARE_TABLE, EXCHANGE_TABLE
from sims.loo.policies import expert as ex
from sims.loo.policies import self_play as sp
from sims.loo.policies.hands import (
    C_PAM,
    C_PLAIN_LOW,
    C_TRUMP_HIGH,
    C_TRUMP_MID,
    FIVE_CARD_CLASSES,
    MISS_CLASS,
    THREE_CARD_INDEX,
    hand_class,
)

EXPERT = {"declare": "expert", "exchange": "expert", "card": "expert"}
THRESHOLD = {"declare": "threshold", "exchange": "threshold", "card": "greedy"}


def state(players=5, declared=0, stood=0, share=2, loo=3, miss=1, trump="2H", pam=-1, pack=0):
    s = np.zeros(S_SIZE, dtype=np.int64)
    s[S_PLAYERS], s[S_DECLARED], s[S_N_STOOD], s[S_SHARE], s[S_LOO], s[S_MISS] = (
        players,
        declared,
        stood,
        share,
        loo,
        miss,
    )
    s[S_TRUMP] = parse_cards(trump)[0]
    s[S_TRUMP_SUIT], s[S_PAM], s[S_PACK] = s[S_TRUMP] & 3, pam, pack
    return s


def test_table_sizes_agree_with_the_policy_table():
    assert DECLARE_TABLE.size == ex.DECLARE_SIZE and EXCHANGE_TABLE.size == ex.EXCHANGE_SIZE
    assert len(ex.declare_table()) == ex.DECLARE_SIZE and len(ex.exchange_table()) == ex.EXCHANGE_SIZE


def test_hand_classes_number_every_hand():
    assert sorted(THREE_CARD_INDEX[THREE_CARD_INDEX >= 0]) == list(range(56))
    h = np.array(parse_cards("AH 2S KH"), dtype=np.int64)  # trump high, trump high, plain low
    assert hand_class(h, 2, -1) == THREE_CARD_INDEX[C_TRUMP_HIGH, C_TRUMP_HIGH, C_PLAIN_LOW]
    five = {
        hand_class(np.array(parse_cards(t), dtype=np.int64), 2, 40)
        for t in ("JC AH KH 2H 3H", "2S 3S 4S 5S 6S", "AS AD AC 2H 9H")
    }
    assert all(0 <= k < FIVE_CARD_CLASSES for k in five) and len(five) == 3


def test_declare_from_table_takes_the_most_money():
    """Stand when share * won > loo * looed; take the miss when that is worth more; else pass."""
    table = np.zeros(ex.DECLARE_SIZE)
    hand = np.array(parse_cards("AH 2S KH"), dtype=np.int64)
    rules = get_rules("three-card").to_kernel()
    k = hand_class(hand, 2, -1)
    at, miss = ex.cell(3, 5, 1, 0, k), ex.cell(3, 5, 1, 0, MISS_CLASS)
    table[at], table[at + 1] = 1.0, 0.5  # 2 * 1.0 - 3 * 0.5 = 0.5 > 0
    assert ex.declare_from_table(hand, state(), rules, table) == PLAY
    table[miss], table[miss + 1] = 1.5, 0.5  # 2 * 1.5 - 1.5 = 1.5 > 0.5
    assert ex.declare_from_table(hand, state(), rules, table) == MISS
    assert ex.declare_from_table(hand, state(miss=0), rules, table) == PLAY
    assert ex.declare_from_table(hand, state(loo=30, miss=0), rules, table) == PASS  # unlimited: a big looe
    # The cell follows the order of declaring and the standers before.
    assert ex.declare_from_table(hand, state(declared=2, stood=1, miss=0), rules, table) == PASS


def test_expert_exchange_changes_what_a_drawn_card_beats():
    wins = np.zeros(ex.EXCHANGE_SIZE)
    row = (5 - 3) * 7
    wins[row : row + 7] = [0.95, 0.7, 0.5, 0.3, 0.5, 0.2, 0.05]
    hand = np.array(parse_cards("JC 2S 3D AH 4C"), dtype=np.int64)  # Pam, low, low, trump high, low
    s = state(trump="5H", pam=parse_cards("JC")[0], pack=20)
    assert ex.expert_exchange(hand, s, get_rules("five-card-pam").to_kernel(), np.zeros(4, np.uint64), wins) == 0b10110
    s[S_PACK] = 2
    assert (
        bin(ex.expert_exchange(hand, s, get_rules("five-card-pam").to_kernel(), np.zeros(4, np.uint64), wins)).count(
            "1"
        )
        == 2
    )


def test_the_shipped_tables_are_sane_and_have_provenance():
    table = ex.declare_table()
    won, looed = table[0::2], table[1::2]
    assert np.isfinite(table).all() and (won >= 0).all() and (won <= 5).all()
    assert ((looed >= 0) & (looed <= 1)).all()
    prov = ex.provenance()
    assert prov["history"] and prov["n_deals"] > 0 and prov["cards"] == [3, 5]
    # Strong hands are worth standing on, the poorest are not (eldest, five players, three-card).  The eldest
    # with the ace and king of trumps leads the ace and cannot be looed; his rare cell (some fifty stands) is
    # shrunk toward the starting table (looed 0.35) with the weight of twenty.
    best = ex.cell(3, 5, 1, 0, THREE_CARD_INDEX[C_TRUMP_HIGH, C_TRUMP_HIGH, C_TRUMP_MID])  # A K Q of trumps
    worst = ex.cell(3, 5, 1, 0, THREE_CARD_INDEX[C_PLAIN_LOW, C_PLAIN_LOW, C_PLAIN_LOW])
    assert table[best] > 2 and table[best + 1] < 0.15
    assert table[worst] < 0.6 and table[worst + 1] > 0.5
    wins = ex.exchange_table().reshape(8, 7)
    assert (wins[:, C_PAM] > wins[:, C_PLAIN_LOW]).all()


def test_the_expert_policy_is_known_by_its_table():
    policy = resolve_one(get_game("loo"), "declare", "expert")
    assert policy.describe()["params"]["table"] == "self_play"


@pytest.mark.parametrize("preset", ["three-card", "five-card-pam-unlimited"])
def test_the_expert_in_both_engines(preset):
    """The expert policies (njit, called as they are by the reference) see the same state in both engines."""
    fast = simulate_deals(preset, EXPERT, 60, seed=9, records=True).records
    slow = ref.simulate_deals(preset, EXPERT, 60, seed=9)
    assert [int(m) for m in fast["eldest_money"]] == [d.money.get(1, 0) for d in slow]
    assert [int(m) for m in fast["carried_on"]] == [d.carried_on for d in slow]


def test_exploring_with_no_exploration_is_the_expert():
    table = ex.declare_table()
    explore = resolve_one(
        get_game("loo"), "declare", sp.user("declare", sp.exploring_declare, sp.DECIDE_SIG, (0.0, *table))
    )
    a = simulate_deals("three-card", {"declare": explore, "card": "greedy"}, 3000, seed=2)
    b = simulate_deals("three-card", {"declare": "expert", "card": "greedy"}, 3000, seed=2)
    assert a.batch.totals.equals(b.batch.totals)


def test_self_play_is_reproducible_and_keeps_unseen_cells():
    kw = dict(n_deals=3000, iterations=2, cards=(3,), players=[3], seed=4)
    d1, e1, c1, p1 = sp.learn_tables(**kw)
    d2, _, _, _ = sp.learn_tables(**kw)
    assert np.array_equal(d1, d2) and len(p1["history"]) == 2
    start, _ = sp.start_tables()
    low = THREE_CARD_INDEX[C_PLAIN_LOW, C_PLAIN_LOW, C_PLAIN_LOW]
    at = ex.cell(3, 3, 1, 0, low)  # three plain low cards, the eldest of three: often tried
    unseen = ex.cell(3, 4, 1, 0, low)  # four players were not played
    assert c1[at // 2] > 0 and d1[at] != start[at]
    assert d1[unseen] == start[unseen] and c1[unseen // 2] == 0
    assert np.array_equal(e1, sp.start_tables()[1])  # three-card only: the exchange table is untouched


def test_self_play_bad_arguments():
    with pytest.raises(ValueError, match="explore must be a number >= 0.0 and <= 1"):
        sp.learn_tables(explore=2.0)
    with pytest.raises(ValueError, match="iterations must be a positive integer"):
        sp.learn_tables(iterations=0)


def test_the_expert_beats_threshold_players():
    """Seat 0 with the expert's three decisions, against four threshold players, makes more money per deal
    than a threshold player in the same seat on the same deals."""

    def seat0(policies):
        table = {d: [policies[d]] + [THRESHOLD[d]] * 4 for d in THRESHOLD}
        result = simulate_deals("three-card", table, 6000, seed=5, records=True)
        rec = result.records
        by_role = rec[[f"{r}_money" for r in result.roles]].to_numpy(float)
        return by_role[np.arange(len(rec)), (-rec["dealer"].to_numpy()) % 5]

    gain = seat0(EXPERT) - seat0(THRESHOLD)
    assert gain.mean() > 3 * gain.std(ddof=1) / np.sqrt(len(gain))


def test_the_play_outs_greedy_card_is_greedys_among_the_cards_the_laws_allow():
    """The play-outs' one pass (``greedy_lawful``) against ``greedy_choice`` over ``legal_mask`` on seeded random
    hands (some cards played), tricks and trumps, with and without Pam, the ace of trumps led now and then."""
    from sims.loo.policies.builtin import greedy_choice
    from sims.loo.tricks import legal_mask, pam_of

    rng = np.random.default_rng(36)
    for _ in range(20_000):
        k = 5 if rng.random() < 0.6 else 3
        trump_suit = int(rng.integers(4))
        pam = pam_of(trump_suit, k, bool(rng.random() < 0.3))
        deck = rng.permutation(52)
        if pam >= 0 and rng.random() < 0.5:  # Pam in hand
            deck = np.concatenate([[pam], deck[deck != pam]])
        hand = deck[:k].astype(np.int64)
        hand[rng.random(k) < 0.3] = -1
        if (hand < 0).all():
            continue
        led = best_card = -1
        best_power = -1
        if rng.random() < 0.8:
            trick = deck[k : k + int(rng.integers(1, 5))]
            if rng.random() < 0.2:
                trick[0] = trump_suit  # the ace of trumps led
            led = int(trick[0])
            led_suit = ex.suit_of(led, trump_suit, pam)
            powers = [ex.power(int(c), led_suit, trump_suit, pam) for c in trick]
            best_power, best_card = max(powers), int(trick[int(np.argmax(powers))])
        led_suit = ex.suit_of(led, trump_suit, pam) if led >= 0 else -1
        civil = bool(rng.random() < 0.8)
        legal = legal_mask(hand, led, best_power, trump_suit, pam, civil)
        expected = greedy_choice(hand, legal, led, best_card, trump_suit, pam)
        table = ex.card_table(trump_suit, pam)
        assert ex.greedy_lawful(hand, table, led, led_suit, best_power, trump_suit, pam, civil) == expected


def _alike(hand, gone="", trump_suit=3, pam=40, civil=True):
    """``expert._alike`` for every card of ``hand`` (all legal), the others holding or having played to this
    trick every card but mine and those ``gone`` (played to earlier tricks); trumps spades, Pam the knave of
    clubs."""
    cards = np.array(parse_cards(hand), dtype=np.int64)
    others = 0
    for c in set(range(52)) - set(cards.tolist()) - set(parse_cards(gone)):
        others |= 1 << c
    alike = np.empty(len(cards), dtype=np.int64)
    ex._alike(cards, np.arange(len(cards)), np.int64(others), trump_suit, pam, civil, alike)
    return alike.tolist()


def test_cards_next_to_each_other_are_searched_once():
    """Two cards of a suit with nothing between them that another may hold win the same tricks in greedy's
    play-outs, unless greedy, comparing ranks across suits, leads or throws another card of mine between or level
    with them; Pam and (Pam civil) the ace of trumps each stand alone."""
    assert _alike("QC KC 3H") == [0, 0, 2]
    assert _alike("QC KC QH") == [0, 1, 2]  # greedy leads KC from KC QH, but QC or QH from QC QH
    assert _alike("5D 7D 2C") == [0, 1, 2]  # the six of diamonds lies between
    assert _alike("5D 7D 2C", gone="6D") == [0, 0, 2]  # ... unless it was played before this trick
    assert _alike("3S 4S 9H 2D") == [0, 0, 2, 3]  # trumps
    assert _alike("QS KS AS 2D") == [0, 0, 2, 3]  # the ace of trumps binds Pam when it is led
    assert _alike("QS KS AS 2D", civil=False) == [0, 0, 0, 3]
    assert _alike("JC 2D 3D") == [0, 1, 1]  # Pam
