"""Playing a game against the expert at the terminal: :class:`TerminalSeat`, a seat whose choices a person types.

The seat answers ``choose(situation)`` as any player does (:class:`sims.core.advice.Player`),
so the table driver (:func:`sims.core.table.play`) seats it like a policy.  At each of its
decisions it prints the situation as a player at the table sees it (the game's :class:`View`,
the ``duel`` module its ``Game`` declares), numbers the legal choices, and reads an answer:

* a number, or the choice itself in readable cards or words (``5H``, ``10h 4s``, ``beg``, ``pass``);
* ``?`` or ``hint``: the advisor's table for this decision (the ``advise`` of the game's ``advice``, with a
  few sampled deals, seeded by the decision, so quick and the same every time);
* ``help``: these commands;
* ``q`` (``quit``), or the end of the input: the game ends (:class:`Quit`).

Anything else is told in one line and asked again.  A decision with one legal choice is made
for the player, and said.  :meth:`TerminalSeat.observe` tells what the other players did
between the seat's decisions, as much of it as the table sees (a card laid, a beg, a
declaration; not a card thrown out face down).
"""

from __future__ import annotations

import sys

from ..cards import format_card
from .text import cut

HINT_SAMPLES = 200  # sampled deals of a hint: a second or two, and the ranking of clear choices holds
HINT_ROWS = 8  # a hint shows the best choices, at most this many
HELP = """commands:
  a number       the choice of that number
  a choice       the choice itself: cards as 5H, 10h, TH or 5♥ (several: 10H 4S), or the word (beg, pass, ...)
  ? or hint      the advisor's table for this decision: each choice's value and the policies that make it
  help           this list
  q or quit      end the game here (so does the end of the input)"""


class Quit(Exception):
    """The player ended the game (``q`` or the end of the input)."""


class View:
    """How one game's decisions look to a player at the table (subclassed in the game's ``duel`` module).

    ``names(seat)`` names a seat (``you`` for the terminal's); the methods take a situation of the game;
    ``game`` is the game's name (its ``advice`` gives the hints).
    """

    game: str = ""
    aliases: dict = {}  # words accepted for a choice, e.g. {"miss": "take the miss"}
    values: dict = {}  # what the advisor's value is, by decision (else its advice module's VALUE, one for all)

    def __init__(self, names):
        self.names = names

    def show(self, situation) -> list[str]:
        """The lines that set out the decision."""
        raise NotImplementedError

    def choices(self, situation) -> list[str]:
        """The legal choices, readable, as a player's ``choose`` answers them."""
        return [c if isinstance(c, str) else format_card(c) for c in situation.legal()]

    @staticmethod
    def seat_of(situation, role: int) -> int:
        """The seat of the player ``role`` places to the dealer's left."""
        return (situation.dealer + role) % situation.rules.players

    def told(self, situation, choice: str) -> list[str]:
        """What the table sees of a decision taken (lines): a card laid, a beg, a declaration; of a card thrown
        out face down, only that it was, unless it is yours."""
        raise NotImplementedError

    def saw(self, situation, choice: str) -> None:
        """Remember a decision taken, for what is shown later."""

    def plays(self, cards, seats, size: int, winner, start: int = 0, chosen: int | None = None, took=None) -> list[str]:
        """``seat 1 plays KH`` for each of ``cards[start:]`` (a deal's cards in order, ``seats[k]`` the player of
        card k, ``size`` cards a trick), and who takes the trick a card ends (``winner(trick)``: the index of the
        card that takes it), with what taking it brings (``took(seat, trick number)``: lines).  Every card but
        ``chosen`` (the index of the one a player chose) was played unasked: the laws left one card to play, so
        it is told as forced."""
        lines = []
        for k in range(start, len(cards)):
            line = f"{self.does(seats[k], 'plays')} {format_card(cards[k])}" + (" (forced)" if k != chosen else "")
            taker = None
            if (k + 1) % size == 0:
                taker = seats[k + 1 - size + winner(cards[k + 1 - size : k + 1])]
                line += f": the trick to {self.names(taker)}"
            lines.append(line)
            if taker is not None and took is not None:
                lines += took(taker, k // size + 1)
        return lines

    def tricks(self, played, seats, size: int, winner) -> list[str]:
        """The tricks of ``played`` (the cards in order, ``seats[k]`` the player of card k, ``size`` cards a
        trick, ``winner(trick)`` the index of the card that takes it): a line for each trick with who took it,
        and one for the trick being played."""
        lines = []
        for start in range(0, len(played), size):
            cards = list(played[start : start + size])
            laid = ", ".join(f"{format_card(c)} ({self.names(s)})" for c, s in zip(cards, seats[start : start + size]))
            if len(cards) == size:
                lines.append(f"trick {start // size + 1}: {laid}: won by {self.names(seats[start + winner(cards)])}")
            else:
                lines.append(f"this trick: {laid}")
        return lines

    def sides(self, players: int, side_of, n_sides: int = 2) -> list[str]:
        """Each side's name: its seats' (``you and seat 2``)."""
        return [" and ".join(self.names(s) for s in range(players) if side_of(s) == side) for side in range(n_sides)]

    def score_line(self, situation, side_of) -> str:
        """``score: you 7, seat 1 24 (game 61)``, whoever decides (more than two sides: the decider's score and
        the best of the others')."""
        if situation.score is None:
            return "no score kept"
        rules = situation.rules
        if rules.sides == 2:
            parts = zip(self.sides(rules.players, side_of), by_side(situation, side_of) or [])
        else:
            parts = zip((self.names(situation.seat), "the best other"), situation.score)
        return "score: " + ", ".join(f"{name} {score}" for name, score in parts) + f" (game {rules.target})"

    def moved(self, before, after, players: int, side_of) -> str:
        """``you +5, seat 1 +9``: what each of two sides scored from ``before`` to ``after`` (scores by side)."""
        return ", ".join(f"{name} +{b - a}" for name, a, b in zip(self.sides(players, side_of), before, after))

    def does(self, seat: int, verb: str) -> str:
        """``seat 1 plays``, ``you play``: the seat's name and ``verb`` agreeing with it."""
        return agree(self.names(seat), verb)

    def dealt(self, deal) -> list[str]:
        """What the table sees as a deal ends (``deal`` the game's reference engine's record of it): the cards
        played after the last decision, and every point or stake the deal still brings, with its reason."""
        return []

    def strongest(self, rules) -> dict:
        """``{decision: policy}``: the strongest players the project has for ``rules``."""
        raise NotImplementedError

    def result(self, row, rules, seat: int) -> dict:
        """The end of the game from the table driver's row (:func:`sims.core.table.play`): ``winner`` (a name,
        or None for a tie), ``scores`` ``{name: score}``, and ``lines`` saying it."""
        raise NotImplementedError

    def advise(self, situation, samples: int, seed: int):
        """The advisor's frame for the decision: ``advise`` of the ``advice`` module the game declares."""
        from .registry import get_game

        return get_game(self.game).part("advice").advise(situation, samples=samples, seed=seed)

    def hint_note(self, situation, frame) -> str:
        """What a hint's values are, and how they were found."""
        from .registry import get_game

        deals = frame.attrs.get("deals")
        how = (
            "exact"
            if not deals
            else f"{'exact over' if frame.attrs.get('method') == 'exact' else 'sampled'} {deals:,} deals of the cards "
            f"you have not seen"
        )
        value = self.values.get(situation.DECISION) or f"value: {get_game(self.game).part('advice').VALUE}"
        return f"{value} ({how})"


def agree(name: str, verb: str) -> str:
    """``seat 1 plays``, ``you play``, ``you and seat 2 play``: a name and ``verb`` (written for one other
    player) agreeing with it."""
    if name == "you" or " and " in name:
        verb = verb[:-2] if verb.endswith(("sses", "shes", "ches", "xes")) else verb[:-1]
    return f"{name} {verb}"


def scored(who: str, verb: str, points: int, reasons, score: dict) -> str:
    """``seat 1 pegs 4 for fifteen 2, pair 2 (you 9, seat 1 16)``: ``points`` to ``who`` (a seat's or a side's
    name), each reason with its own points, and the score after them (``{side's name: score}``)."""
    return (
        f"{agree(who, verb)} {points} for {', '.join(reasons)} "
        f"({', '.join(f'{name} {value}' for name, value in score.items())})"
    )


def match(text: str, labels, aliases=None) -> str | None:
    """The label of ``labels`` that ``text`` names (a word, or the same cards in any order and spelling)."""
    from ..cards import parse_cards

    words = " ".join(text.lower().split())
    words = (aliases or {}).get(words, words)
    for label in labels:
        if label.lower() == words:
            return label
    try:
        wanted = sorted(parse_cards(text.replace(",", " ")))
    except ValueError:
        return None
    for label in labels:
        try:
            if sorted(parse_cards(label)) == wanted:
                return label
        except ValueError:
            continue
    return None


def by_side(situation, side_of, score=None) -> list[int] | None:
    """A two-sided situation's score by side, side 0's first, from its ``(mine, theirs)`` (or ``score``, the
    decider's first); None without one."""
    score = situation.score if score is None else score
    if score is None:
        return None
    mine, theirs = score
    return [mine, theirs] if side_of(situation.seat) == 0 else [theirs, mine]


def side_result(view: View, players: int, side_of, scores, winner) -> dict:
    """:meth:`View.result` of a game between sides (seat ``s`` on side ``side_of(s)``), ``scores[side]`` at the
    end and the ``winner`` side (None or negative: none)."""
    sides = view.sides(players, side_of, len(scores))
    final = ", ".join(f"{name} {score}" for name, score in zip(sides, scores))
    if winner is None or winner < 0:
        return {"winner": None, "scores": dict(zip(sides, scores)), "lines": [f"game over, nobody won: {final}"]}
    alone = [s for s in range(players) if side_of(s) == winner]
    said = view.does(alone[0], "wins") if len(alone) == 1 else f"{sides[winner]} win"
    return {"winner": sides[winner], "scores": dict(zip(sides, scores)), "lines": [f"game over: {said} ({final})"]}


def hint_table(frame, labels) -> list[str]:
    """The advisor's frame as a short table: the choice's number and label, value ±95%, the chance of winning
    when the frame has it, and the policies that make the choice."""
    from .text import Z95

    key = next(k for k in ("card", "choice", "thrown") if k in frame)
    value = "value" if "value" in frame else "net"
    se = {"value": "se", "net": "net_se"}[value]
    win = "win" in frame
    rows = [["#", "choice", value, "±95%"] + (["win %"] if win else []) + ["chosen by"]]
    for _, row in frame.head(HINT_ROWS).iterrows():
        label = match(str(row[key]), labels)
        cells = [
            str(labels.index(label) + 1) if label else "",
            str(row[key]),
            f"{row[value]:.3f}",
            f"{Z95 * row[se]:.3f}" if se in frame else "exact",
        ]
        rows.append(cells + ([f"{100 * row['win']:.1f}"] if win else []) + [row.get("chosen_by", "")])
    widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
    left = (1, len(widths) - 1)  # the choice and the policies read from the left, the numbers from the right
    lines = [
        "  ".join(c.ljust(w) if j in left else c.rjust(w) for j, (c, w) in enumerate(zip(r, widths))).rstrip()
        for r in rows
    ]
    if len(frame) > HINT_ROWS:
        lines.append(f"... and {len(frame) - HINT_ROWS} more")
    return lines


class TerminalSeat:
    """A seat whose decisions a person types (module docstring).

    ``view`` the game's :class:`View`; ``read()`` the next line typed, None at the end of the input;
    ``write(text)`` prints; ``echo`` writes each entry after its prompt (when the input is not a terminal,
    so a transcript reads as the game went); ``seed`` seeds the hints.
    """

    name = "you"  # in a game record's header

    def __init__(
        self,
        view: View,
        seat: int,
        read=None,
        write=None,
        echo: bool = False,
        seed: int = 0,
        samples: int = HINT_SAMPLES,
    ):
        self.view, self.seat, self.echo, self.seed, self.samples = view, seat, echo, seed, samples
        self.read = read or _read_stdin
        self.write = write or _write_stdout
        self.decisions = 0

    def dealt(self, deal) -> None:
        """Tell how a deal ended (the table driver's ``on_deal``: :meth:`View.dealt`)."""
        for line in self.view.dealt(deal):
            self.write(line)

    def observe(self, situation, choice: str) -> None:
        """Tell what the table saw of a decision taken (anyone's: the seat's own too, once taken)."""
        for line in self.view.told(situation, choice):
            self.write(line)
        self.view.saw(situation, choice)

    def choose(self, situation) -> str:
        """The choice the person makes, readable; :class:`Quit` when he ends the game."""
        self.decisions += 1
        labels = self.view.choices(situation)
        self.write("\n".join([""] + self.view.show(situation)))
        if len(labels) == 1:
            self.write(f"{labels[0]}: your only legal choice")
            return labels[0]
        self.write(_numbered(labels))
        while True:
            self.write(f"your choice (1-{len(labels)}, ? for advice, help): ", end="")
            line = self.read()
            if line is None:
                self.write("")
                raise Quit("end of input")
            line = line.strip()
            if self.echo:
                self.write(cut(line))
            command = line.lower()
            if command in ("q", "quit", "exit"):
                raise Quit("quit")
            if command in ("?", "hint"):
                self.write("\n".join(self._hint(situation, labels)))
                continue
            if command == "help":
                self.write(HELP)
                continue
            if command.isascii() and command.isdigit() and len(command) <= 6 and 1 <= int(command) <= len(labels):
                return labels[int(command) - 1]
            chosen = match(line, labels, self.view.aliases) if line else None
            if chosen is not None:
                return chosen
            self.write(
                f"not a legal choice here: {cut(line) or '(nothing)'}; type 1-{len(labels)}, a choice as listed, "
                f"? or help"
            )

    def _hint(self, situation, labels) -> list[str]:
        try:
            frame = self.view.advise(situation, self.samples, self.seed + self.decisions)
        except ValueError as exc:  # a decision the advisor does not value (say so, and play on)
            return [f"no advice here: {exc}"]
        return [self.view.hint_note(situation, frame)] + hint_table(frame, labels)


def _numbered(labels) -> str:
    """``1) 7H   2) 8C ...``, as many to a line as fit in 80 columns."""
    cells = [f"{i}) {label}" for i, label in enumerate(labels, 1)]
    width = max(len(c) for c in cells) + 2
    per_line = max(1, 80 // width)
    return "\n".join(
        "  " + "".join(c.ljust(width) for c in cells[i : i + per_line]).rstrip() for i in range(0, len(cells), per_line)
    )


def _read_stdin() -> str | None:
    """The next line typed; None at the end of the input (or when standard input is closed)."""
    line = sys.stdin.readline() if sys.stdin is not None else ""
    return line if line else None


def _write_stdout(text: str, end: str = "\n") -> None:
    sys.stdout.write(text + end)
    sys.stdout.flush()
