"""The njit engine against the plain-Python reference engine on the same random streams (issue 11,
must-have 4): identical deals and sessions for every preset and the rules fields the presets leave off.

Deals: every outcome by role (money, what was taken from the pool, stood, the miss, looed, tricks,
swept) and every figure of the deal (carry, pool, next pool, standers, single, ending, dealer) from
``simulate_deals(..., records=True)`` against :func:`reference.simulate_deals`, which deals each deal
again from the chunk keys.  Sessions: the first dealer, each seat's money, the pool left and the
largest pool.  Besides the built-in policies, *probe* policies choose by a hash of everything the
engine shows a policy (the whole state vector, the hand, the cards played and a draw from the seat's
stream), so any difference in what a policy sees changes the deal that follows.
"""

import pytest
from sims.core.kernel import njit  # cached by every source it reaches, not its own file only

from sims.core.rng import randint
from sims.loo import PRESETS, get_rules, play_games, simulate_deals
from sims.loo import reference as ref
from sims.loo.contract import CARD_SIG, DECIDE_SIG, MISS, PASS, PLAY, S_LEGAL, S_MISS, S_N_PLAYED, S_PACK, S_SIZE
from sims.loo.engine import role_names
from sims.loo.play import ENDINGS, INFO, OUTCOMES

N_DEALS = 400
N_SESSIONS = 12


@njit(cache=True)
def _mix(h, x):
    return (h ^ x) * 1000003 + 12345


@njit(cache=True)
def _hash(hand, state, rng):
    h = randint(rng, 1000)
    for j in range(S_SIZE):
        h = _mix(h, state[j])
    for c in hand:
        h = _mix(h, c)
    return h >> 7


@njit(cache=True)
def popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(DECIDE_SIG, cache=True)
def probe_declare(hand, state, rules, rng, params):
    """A declaration chosen by a hash of the hand, the whole state and a draw from the seat's stream."""
    h = _hash(hand, state, rng) % 3
    if h == 0 and state[S_MISS] == 1:
        return MISS
    return PLAY if h == 2 else PASS


@njit(DECIDE_SIG, cache=True)
def probe_exchange(hand, state, rules, rng, params):
    """An exchange chosen by the same hash, within what the pack holds."""
    mask = _hash(hand, state, rng) % (1 << hand.shape[0])
    while mask and popcount(mask) > state[S_PACK]:
        mask &= mask - 1
    return mask


@njit(CARD_SIG, cache=True)
def probe_card(hand, played, state, rules, rng, params):
    """A legal card chosen by a hash of the hand, the state and every card played (with who played it)."""
    h = _hash(hand, state, rng)
    for i in range(state[S_N_PLAYED]):
        h = _mix(_mix(h, played[i, 0]), played[i, 1])
    legal = state[S_LEGAL]
    pick = (h >> 3) % popcount(legal)
    i = 0
    while True:
        if (legal >> i) & 1:
            if pick == 0:
                return i
            pick -= 1
        i += 1


POLICIES = {
    "random": {"declare": "random", "exchange": "random", "card": "random"},
    "threshold": {"declare": "threshold", "exchange": "threshold", "card": "greedy"},
    "always": {"declare": "always", "exchange": "keep", "card": "greedy"},
    "probe": {"declare": probe_declare, "exchange": probe_exchange, "card": probe_card},
}


def assert_same_deals(rules, policies, n, seed, **options):
    rules = get_rules(rules)
    fast = simulate_deals(rules, policies, n, seed, records=True, **options).records
    slow = ref.simulate_deals(
        rules, policies, n, seed, chunk_size=options.get("chunk_size", 4096), clean=options.get("clean", False)
    )
    roles = role_names(rules.players)
    for g, deal in enumerate(slow):
        row = fast.iloc[g]
        info = [ENDINGS.index(row[k]) if k == "ending" else int(row[k]) for k in INFO]
        out = [[int(row[f"{role}_{o}"]) for o in OUTCOMES] for role in roles]
        if info != deal.info().tolist() or out != deal.outcomes().tolist():
            pytest.fail(
                f"{rules.name} deal {g}: engine {info} {out} != reference {deal.info().tolist()} "
                f"{deal.outcomes().tolist()}: {deal}"
            )
    return slow


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("kind", list(POLICIES))
def test_deals_match_reference(preset, kind):
    deals = assert_same_deals(preset, POLICIES[kind], N_DEALS, seed=20)
    if kind in ("random", "probe"):  # the sample means something: every ending the variant has happens
        endings = {d.ending for d in deals}
        assert endings >= {"played", "stakes given up", "dealer takes the pool"}
        if PRESETS[preset].cards == 5 and kind == "random":
            assert "flush" in endings
        else:
            assert any(d.took_miss is not None for d in deals) == (PRESETS[preset].cards == 3)


@pytest.mark.parametrize(
    "changes",
    [
        {"players": 3},
        {"players": 10},
        {"players": 7, "single": "stake-all"},
        {"cards": 5, "stake": 10, "pam": "trumps"},
        {"cards": 5, "stake": 5, "pam_be_civil": False, "players": 10},
        {"unlimited": True, "loo_limit": 6},
        {"cards": 5, "stake": 5, "pam_exempt": False},
    ],
)
def test_rule_fields_match_reference(changes):
    rules = PRESETS["three-card"].replace(name="custom", **changes)
    assert_same_deals(rules, POLICIES["random"], 300, seed=3)
    assert_same_deals(rules, POLICIES["probe"], 300, seed=3)


@pytest.mark.parametrize("single", ["always-first", "stake-all"])
@pytest.mark.parametrize("preset", ["three-card", "five-card-pam"])
def test_clean_deals_match_reference(preset, single):
    """Nothing held over: the single (no miss, no declarations) or everyone staking."""
    rules = PRESETS[preset].replace(single=single)
    deals = assert_same_deals(rules, POLICIES["probe"], 300, seed=8, clean=True)
    assert all(d.single == (single == "always-first") for d in deals)


def test_deals_match_reference_across_chunks():
    """Deal g is item g % chunk_size of chunk g // chunk_size."""
    assert_same_deals("five-card-pam", POLICIES["random"], 450, seed=4, chunk_size=100)


def test_per_seat_policies_match_reference():
    mixed = {
        "declare": ["random", probe_declare, "threshold", "always", "random"],
        "exchange": ["threshold", "random", probe_exchange, "keep", "random"],
        "card": [probe_card, "greedy", "random", "greedy", probe_card],
    }
    assert_same_deals("three-card", mixed, 300, seed=6)
    assert_same_deals("five-card-pam-unlimited", mixed, 300, seed=6)


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("kind", ["random", "probe"])
def test_sessions_match_reference(preset, kind):
    rules = PRESETS[preset].replace(session_rounds=3)
    fast = play_games(rules, POLICIES[kind], N_SESSIONS, seed=2, records=True).games
    slow = ref.play_games(rules, POLICIES[kind], N_SESSIONS, seed=2)
    for g, session in enumerate(slow):
        expected = session.record(rules.players)
        got = {k: int(fast.iloc[g][k]) for k in expected}
        assert got == expected, f"{preset} session {g}"
    assert len({s.first_dealer for s in slow}) > 1


def test_a_broken_reference_is_caught(monkeypatch):
    """The comparison can fail: a reference that forgets to head the trick (or to trump) differs from the
    engine within a few deals."""

    def follow_only(self, hand, trick):
        held = [i for i, c in enumerate(hand) if c >= 0]
        same = [i for i in held if trick and self.suit(hand[i]) == self.suit(trick[0])]
        return same or held

    monkeypatch.setattr(ref.Laws, "legal", follow_only)
    with pytest.raises(pytest.fail.Exception, match="three-card deal"):
        assert_same_deals("three-card", POLICIES["random"], 100, seed=1)
