"""Runs played together (:mod:`sims.allfours.sweep`): those that differ only in how the eldest begs and the
dealer answers, and those in which seat 0 plays the maxims with all four and without each; each run's result is
the one a run of its own gives, number for number."""

from __future__ import annotations

import pytest

from sims.allfours.claims.section import maxim_policies
from sims.allfours.contract import HAND_SIG
from sims.allfours.rules import get_rules
from sims.allfours.sweep import play_maxims_without_each, play_runs
from sims.core.errors import PolicyError
from sims.core.jobs import Job
from sims.core.kernel import njit
from sims.core.runner import run


def thresholds(beg, answer, play="maxims"):
    return {
        "beg": {"name": "threshold", "params": [beg]},
        "answer": {"name": "threshold", "params": [answer]},
        "play": play,
    }


def jobs(rules, policies, n=700, seed=5):
    return [Job.make("allfours", "deals", rules, p, n, seed, chunk_size=256) for p in policies]


def assert_each_as_alone(together, play=play_runs):
    for job, result in zip(together, play(together, threads=2), strict=True):
        alone = run(job, threads=1, progress=False)
        assert result.summary == alone.summary, job.policies
        if job.records:
            assert result.records.equals(alone.records)


def test_the_begging_matrix_runs_give_each_its_own_numbers():
    """Never and always begging, giving one from nothing and never, and between: three chunks, one short."""
    pairs = [(0, 0), (13, 0), (13, 13), (3, 3), (6, 2), (2, 8)]
    assert_each_as_alone(jobs("two-hand", [thresholds(b, a) for b, a in pairs]))


def test_a_second_beg_and_new_deals_and_discards_are_bid_per_run():
    """Law ii's second beg by agreement, the pack run short (always begging, never giving: new deals) and
    discard_to_six after the cards were run: each run's own bidding, the same play."""
    rules = get_rules("two-hand").replace(name="two-hand, variants", begs=2, discard_to_six=True)
    together = jobs(rules, [thresholds(b, a, "greedy") for b, a in [(13, 13), (4, 13), (5, 1), (0, 0)]])
    assert_each_as_alone(together)
    assert play_runs(together[:1])[0].summary["events_per_hand"]["redeals"]["mean"] > 0  # the pack ran short


def test_players_who_draw_from_their_streams_bid_alike_in_every_run():
    """A dealer who answers at random draws from his seat's stream: the state the bidding leaves includes it."""
    policies = [{"beg": {"name": "threshold", "params": [b]}, "answer": "random", "play": "maxims"} for b in (0, 4, 13)]
    assert_each_as_alone(jobs("four-hand", policies, n=300))


@njit(HAND_SIG, cache=True)
def give_unless_lowest(hand, state, rules, rng, params):
    """Gives one, but answers 7 (no answer) holding the two of clubs first."""
    return 7 if hand[0] == 0 else 1


def test_a_bad_answer_stops_the_runs_played_together_as_it_stops_a_run_alone():
    """The bids are asked once for all the runs of the same parameters: the error is the one the run that always
    begs (so meets it first) meets alone, the same deal and seat, after deals whose answers were good."""
    policies = [{"beg": {"name": "threshold", "params": [b]}, "answer": give_unless_lowest} for b in (0, 5, 13)]
    together = jobs("two-hand", policies)
    with pytest.raises(PolicyError, match="answer policy 'give_unless_lowest'") as alone:
        run(together[2], threads=1, progress=False)
    assert "deal 0," not in str(alone.value)
    with pytest.raises(PolicyError) as both:
        play_runs(together, threads=2)
    assert str(both.value) == str(alone.value)


@pytest.mark.parametrize(
    "other,words",
    [
        (dict(policies=thresholds(2, 2, "greedy")), "differ only in the beg and answer"),
        (dict(n=600), "same rules, number of deals"),
        (dict(records=True), "seed, chunks and records"),
    ],
)
def test_runs_that_play_differently_are_refused(other, words):
    base = dict(rules="two-hand", policies=thresholds(2, 2), n=500, seed=1, records=False)
    one, two = (Job.make("allfours", "deals", **{**base, **o}) for o in ({}, other))
    with pytest.raises(ValueError, match=words):
        play_runs([one, two])


@pytest.mark.parametrize("adversary", ["maxims", "greedy"])
def test_the_maxims_without_each_give_each_run_its_own_numbers_and_records(adversary):
    """Seat 0 with all four maxims, then without each, against seat 1: a hand is played again only where seat 0
    followed the maxim left out, and every run's totals and rows are its own."""
    policies = [maxim_policies(k, adversary) for k in (None, 0, 1, 2, 3)]
    together = [Job.make("allfours", "deals", "two-hand", p, 900, 7, records=True, chunk_size=256) for p in policies]
    assert_each_as_alone(together, play_maxims_without_each)


def test_the_maxims_without_each_refuse_other_switches():
    """The first run plays all four maxims and each other one without exactly one: else the hands that need no
    replay are not known."""
    two_off = {**maxim_policies(None), "play": [{"name": "maxims", "params": [0.0, 0.0, 1.0, 1.0]}, "maxims"]}
    greedy = {**maxim_policies(None), "play": ["greedy", "maxims"]}
    for policies in ([maxim_policies(None), two_off], [greedy, greedy]):
        jobs = [Job.make("allfours", "deals", "two-hand", p, 100, 1) for p in policies]
        with pytest.raises(ValueError, match="one switched off in each other"):
            play_maxims_without_each(jobs)
    seat_1 = [maxim_policies(None), maxim_policies(0, "greedy")]
    with pytest.raises(ValueError, match="differ only in seat 0's play"):
        play_maxims_without_each([Job.make("allfours", "deals", "two-hand", p, 100, 1) for p in seat_1])
