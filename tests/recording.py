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


def recorded_seats(game, ref, rules, run: dict, log: list, card: str, unnamed: str) -> dict:
    """The reference engine ``ref``'s seat policies for ``run`` (``{decision: [name per seat]}``) of ``game``,
    each recording its calls into ``log`` (``card``: the decision that also sees the cards played); the decision
    ``unnamed``, which runs do not name, keeps the rules' default seats."""
    from sims.core.jobs import resolve_one

    seats = {
        d: [
            ref.SeatPolicy(
                name,
                recorder(d, resolve_one(game, d, name).fn, log, name, d == card),
                resolve_one(game, d, name).params_array(),
            )
            for name in names
        ]
        for d, names in run.items()
    }
    seats.setdefault(unnamed, ref.seat_policies(rules, None)[unnamed])
    return seats


def check_answers(situation, hand, answer: int, expected: str):
    """``situation.answer`` is the inverse of ``choice_of`` on the engine's ``hand``: the policy's ``answer``
    reads as ``expected`` and back, and every legal choice round-trips."""
    from sims.cards import format_card

    assert situation.choice_of(answer, hand) == expected
    assert situation.answer(expected, hand) == answer
    for choice in situation.legal():
        label = choice if isinstance(choice, str) else format_card(choice)
        assert situation.choice_of(situation.answer(label, hand), hand) == label
