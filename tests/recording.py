"""Policies that record every call: the replay tests of the advisors (tests/*/test_advice_replay.py)."""


def recorder(decision: str, fn, log: list, name: str, card: bool):
    """``fn`` (a policy with the engine's signature) that appends each call to ``log`` as ``(decision, name, hand,
    played (None for a hand decision), state, the stream before the call, the answer)``, copies throughout."""
    if card:
        def recorded(hand, played, state, rules, rng, params):
            before = rng.copy()
            answer = fn(hand, played, state, rules, rng, params)
            log.append((decision, name, hand.copy(), played.copy(), state.copy(), before, int(answer)))
            return answer
    else:
        def recorded(hand, state, rules, rng, params):
            before = rng.copy()
            answer = fn(hand, state, rules, rng, params)
            log.append((decision, name, hand.copy(), None, state.copy(), before, int(answer)))
            return answer
    return recorded
