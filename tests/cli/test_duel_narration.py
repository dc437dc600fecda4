"""``sims duel`` narrates the game as a player at the table hears it: whole short games played through standard
input (in this process, so the kernels load once), their narration checked against the game record (``--record``)
of the same game.

Every point line reads ``NAME pegs|scores N for REASON P, REASON P (SIDE SCORE, SIDE SCORE)``: its points are
the sum of its reasons', each side's score is the last one's plus what it announces, every score a decision of
the record saw is one the narration announced (in order), and the last is the record's final score.  The cards
of the play and the shows are checked against the record's decisions and the scorers of
:mod:`sims.cribbage.literal_scoring`; All Fours' tricks, high, low, jack and game against the cards the narration
told; Loo's stakes, shares and looes against the declarations and the money of the record.  A card is told as
forced exactly when the record has no decision for it (or, in cribbage, when it was the one card that fitted).
"""

from __future__ import annotations

import io
import re
import sys
import tempfile
from collections import defaultdict
from contextlib import redirect_stdout
from functools import cache
from pathlib import Path

import pytest

from sims.allfours.reference import KNAVE, reckon, whist_rank
from sims.cards import parse_card, parse_cards
from sims.cli import main
from sims.core.record import read_record
from sims.cribbage.literal_scoring import peg_score, show_score

POINT = re.compile(r"(?P<who>you|seat \d) (?:pegs?|scores?) (?P<n>\d+) for (?P<why>[^()]*) \((?P<score>[^()]*)\)$")
MONEY = re.compile(r"(?P<who>you|seat \d) (?P<verb>takes?|pays?) (?P<n>\d+) for (?P<why>.*)$")
PLAYS = re.compile(
    r"^(?P<who>you|seat \d) plays? (?P<card>\S+)(?P<forced> \(forced\))?(?P<trick>: the trick to "
    r"(?P<taker>you|seat \d))?$"
)
NAMES = ["you"] + [f"seat {s}" for s in range(1, 10)]
CRIBBAGE_REASONS = re.compile(
    r"fifteen|\d fifteens|thirty-one|pair|pair-royal|double pair-royal|run of \d|"
    r"\d runs of \d|go|last card|his heels|last|flush|his nob"
)
ALLFOURS_REASONS = {"a knave turned up", "the gift", "high", "low", "jack", "game"}


@cache
def played(game: str, seed: int, *rules: str, answer: str = "1") -> tuple[str, object]:
    """A whole game of ``sims duel`` run here, answered ``answer`` every time through standard input: (what it
    printed, the record it wrote)."""
    record = Path(tempfile.mkdtemp()) / "game.jsonl"
    out, stdin = io.StringIO(), sys.stdin
    sys.stdin = io.StringIO(f"{answer}\n" * 400)
    try:
        with redirect_stdout(out):
            code = main(["duel", "--game", game, *rules, "--seed", str(seed), "--record", str(record)])
    finally:
        sys.stdin = stdin
    assert code == 0, out.getvalue()[-2000:]
    return out.getvalue(), read_record(record)


def points(out: str, sides: int = 2):
    """The point lines in order as ``(line, who, points, reasons)``, each checked: its points the sum of its
    reasons', the score it announces the last one's plus its points; and every score announced, from 0-0."""
    running, scores, told = [0] * sides, [tuple([0] * sides)], []
    for line in out.splitlines():
        found = POINT.search(line)
        if not found:
            continue
        n, reasons = int(found["n"]), found["why"].split(", ")
        assert n == sum(int(r.rsplit(" ", 1)[1]) for r in reasons), line
        running[NAMES.index(found["who"]) % sides] += n
        announced = [int(part.rsplit(" ", 1)[1]) for part in found["score"].split(", ")]
        assert announced == running, line
        scores.append(tuple(running))
        told.append((line, found["who"], n, [r.rsplit(" ", 1)[0] for r in reasons]))
    return told, scores


def check_scores_against_the_record(out: str, record, sides: int = 2):
    """Every score a decision of the record saw is announced, in the order of the game, and the last announced
    is the record's final score."""
    told, scores = points(out, sides)
    result = record.results[0]
    assert scores[-1] == tuple(result[f"score_{s}"] for s in range(sides))
    at = 0
    for line in record.decisions:
        mine, theirs = line.situation.score
        seen = (mine, theirs) if line.player % 2 == 0 else (theirs, mine)
        while scores[at] != seen:  # the points since the last decision seen are told before this one
            at += 1
            assert at < len(scores), f"record line {line.number}: score {seen} never announced"
    return told


@pytest.mark.parametrize("rules", [("--rules", "six-card-61"), ("--rules", "five-card")])
def test_cribbage_every_point_is_told_with_its_reason_and_the_crib_is_shown(rules):
    out, record = played("cribbage", 3, *rules)
    told = check_scores_against_the_record(out, record)
    for line, _, _, reasons in told:
        assert all(CRIBBAGE_REASONS.fullmatch(r) for r in reasons), line
    if record.rules.three_for_last:
        assert told[0][3] == ["last"] and told[0][2] == 3
    # Every card of the play is a decision of the record, told in its order with what it pegged (the scorer of
    # the rules), and as forced when it was the only card that fitted.
    lays = [
        m
        for m in re.finditer(
            r"^(?P<who>you|seat \d) lays? (?P<card>\S+)(?P<forced> \(forced\))?: count "
            r"(?P<count>\d+)(?:; .* pegs? (?P<n>\d+) for .*)?$",
            out,
            re.M,
        )
    ]
    pegs = [line for line in record.decisions if line.situation.DECISION == "peg"]
    assert [(m["who"], m["card"]) for m in lays] == [(NAMES[line.player], line.choice) for line in pegs]
    for m, line in zip(lays, pegs):
        situation = line.situation
        count_cards = list(situation.played[situation.at.count_start :]) + [parse_card(line.choice)]
        assert int(m["n"] or 0) == peg_score(count_cards, record.rules.bath_flush)
        assert int(m["count"]) == situation.count + min((parse_card(line.choice) >> 2) + 1, 10)
        assert bool(m["forced"]) == (len(situation.legal()) == 1)
    # Each deal's shows: the cards each player kept and the crib the two threw out, counted by the scorer.
    discards = defaultdict(dict)
    deal = 0
    for line in record.decisions:
        if line.situation.DECISION == "discard":
            deal += line.player == (line.situation.dealer + 1) % 2  # the pone throws out first
            kept = sorted(set(line.situation.hand) - set(parse_cards(line.choice)))
            discards[deal][NAMES[line.player]] = (kept, parse_cards(line.choice))
    shows = re.findall(
        r"^(you|seat \d|the crib) shows? ((?:\S+ )+)with (\S+): (?:nothing|.* pegs? (\d+) for .*)$", out, re.M
    )
    assert shows, out
    deal, shown = 1, set()
    for who, cards, starter, n in shows:
        if who in shown or (who == "the crib" and "the crib" in shown):
            deal, shown = deal + 1, set()
        shown.add(who)
        cards = parse_cards(cards)
        if who == "the crib":
            assert sorted(cards) == sorted(c for _, thrown in discards[deal].values() for c in thrown)
            assert int(n or 0) == show_score(cards, parse_card(starter), crib=True)
        else:
            assert sorted(cards) == discards[deal][who][0]
            assert int(n or 0) == show_score(cards, parse_card(starter))


@pytest.mark.parametrize(
    "seed, against, answer",
    [(3, (), "1"), (7, ("--against", "beg=beg,answer=run"), "2"), (22, ("--against", "beg=beg,answer=run"), "2")],
)
def test_all_fours_tells_every_trick_and_who_took_high_low_jack_and_game_with_the_count(seed, against, answer):
    """The first game stands and gives; the others beg and run the cards (answered 2: beg, run), so that cards are
    turned running the cards (seed 7: 10C, then 2C, then 7H; seed 22: 10D, 2D, JD, a point to the dealer, 6C),
    each told once, the last giving the trumps."""
    out, record = played("allfours", seed, "--rules", "seven-up", *against, answer=answer)
    told = check_scores_against_the_record(out, record)
    assert {r for _, _, _, reasons in told for r in reasons} <= ALLFOURS_REASONS
    # The cards chosen are the record's decisions, in order; every other card was forced (played unasked).
    cards = [m for m in (PLAYS.match(line) for line in out.splitlines()) if m]
    chosen = [(m["who"], m["card"]) for m in cards if not m["forced"]]
    assert chosen == [
        (NAMES[line.player], line.choice) for line in record.decisions if line.situation.DECISION == "play"
    ]
    hands = re.split(r"^hand \d+ is over: .*$", out, flags=re.M)[:-1]
    assert len(hands) == record.results[0]["hands"]
    for text in hands:
        plays = [m for m in (PLAYS.match(line) for line in text.splitlines()) if m]
        laid = [parse_card(m["card"]) for m in plays]
        assert len(laid) == 2 * sum(1 for m in plays if m["trick"])  # every trick of two, the last included
        turned = re.findall(r"^(?:running the cards: )?turned up (\S+?):?(?: .*)?$", text, re.M)
        assert turned and len(set(turned)) == len(turned)  # each card turned up told once
        counted = re.search(
            r"^game, counting tens 10, aces 4, kings 3, queens 2, knaves 1: you (\d+), seat 1 (\d+)", text, re.M
        )
        if counted:  # the two counts share every counting card played
            assert int(counted[1]) + int(counted[2]) == reckon(laid)
        high = re.search(r"^high (\S+): the highest trump in play", text, re.M)
        if high:  # the highest and lowest of the trumps played
            trump = parse_card(high[1]) & 3
            assert parse_card(turned[-1]) & 3 == trump
            in_play = [c for c in laid if c & 3 == trump]
            assert parse_card(high[1]) == max(in_play, key=whist_rank)
            low = re.search(r"^low (\S+): the lowest trump in play", text, re.M)
            assert low is None or parse_card(low[1]) == min(in_play, key=whist_rank)
            jack = re.search(r"^jack (\S+): won in a trick by", text, re.M)
            assert jack is None or parse_card(jack[1]) in in_play and parse_card(jack[1]) >> 2 == KNAVE


def test_loo_tells_each_trick_who_was_looed_and_what_each_paid_and_won():
    out, record = played("loo", 3, "--rule", "session_rounds=1")
    players = record.rules.players
    money, deals = [0] * players, re.split(r"^money so far: .*$", out, flags=re.M)
    cards = [m for m in (PLAYS.match(line) for line in out.splitlines()) if m]
    assert [(m["who"], m["card"]) for m in cards if not m["forced"]] == [
        (NAMES[line.player], line.choice) for line in record.decisions if line.situation.DECISION == "card"
    ]
    so_far = re.findall(r"^money so far: (.*)$", out, re.M)
    assert len(so_far) == record.rules.session_deals
    for text, line in zip(deals, so_far):
        looed, takers = set(), set()
        for found in (MONEY.search(row) for row in text.splitlines()):
            if found:
                sign = 1 if found["verb"].startswith("take") else -1
                money[NAMES.index(found["who"])] += sign * int(found["n"])
                if "a loo" in found["why"]:
                    looed.add(found["who"])
                if found["why"].startswith("trick"):
                    takers.add(found["who"])
        tricks = [m for m in (PLAYS.match(row) for row in text.splitlines()) if m and m["trick"]]
        assert {m["taker"] for m in tricks} == takers  # each trick's winner takes its share
        assert not looed & takers  # the looed took no trick
        assert line == ", ".join(f"{NAMES[s]} {m:+d}" for s, m in enumerate(money))
    assert money == [record.results[0][f"money_{s}"] for s in range(players)]
