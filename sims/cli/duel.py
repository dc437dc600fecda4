"""``sims duel``: play a game at the terminal against the expert (:mod:`sims.core.duel`, :func:`sims.core.table.play`).

One seat is yours (``--seat``), the others play the policies of ``--against`` (default the
strongest the project has: :meth:`sims.core.duel.View.strongest`), or follow the advisor
(``--against advisor``: :class:`sims.core.advisor_player.AdvisorPlayer`).  The game is game 0 of the
run ``--seed``, dealt by the game's reference engine from the same streams as the kernel's, so the
same seed and the same answers give the same game.  ``--record FILE`` writes the game record
(:mod:`sims.core.record`) when the game ends.

Exit status: 0 when the game was played to its end; 1 when you ended it (``q``, or the end of the
input) -- one line says so, and no record is written; 2 for bad options; 130 for Ctrl-C.  With
``--json`` the table goes to standard error and the result, as JSON, to standard output.
"""

from __future__ import annotations

import os
import sys

HELP = (
    "play a game of cribbage, All Fours or Loo at the terminal against the expert: the situation, the legal "
    "choices numbered, the advisor's table on request (?); answers may come from a pipe (yes 1 | sims duel ...)"
)
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims duel --game cribbage --rules six-card-61 --seed 7     # you deal or play pone against position_distilled",
    "sims duel --game allfours --rules seven-up --against play=maxims --record game.jsonl",
    "sims duel --game loo --rule session_rounds=1 --seat 2      # one round: each of the five players deals once",
    "sims duel --game cribbage --against discard=greedy,peg=defensive --json   # the result as JSON at the end",
]


def add_arguments(parser):
    from ..core.registry import names

    parser.add_argument("--game", required=True, choices=names(), help="the game to play")
    parser.add_argument("--rules", default=None, metavar="PRESET", help="rules preset (default the game's)")
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="change one rules field, e.g. --rule target=5 (All Fours), --rule session_rounds=1 (Loo)",
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat, 0 .. players-1 (default 0)")
    parser.add_argument(
        "--against",
        default=None,
        metavar="POLICY",
        help="the other seats' policy: one for every decision that has it (the strongest elsewhere), "
        "or DECISION=POLICY,... (e.g. peg=defensive,discard=greedy), or advisor[:samples=N] (the advisor's "
        "best choice at every decision, N sampled deals each, default 200); default the strongest",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the policies' streams")
    parser.add_argument("--record", metavar="FILE", help="write the game record (JSON Lines) here at the end")
    parser.add_argument(
        "--samples",
        type=int,
        default=200,
        help="sampled deals of a hint (?), when the unseen cards are too many to enumerate "
        "(default 200: a second or two)",
    )


def against(game, view, rules, text):
    """``{decision: policy}`` of the other seats from ``--against`` (module docstring), each checked; or, for
    ``advisor[:samples=N]``, that name (the table seats the advisor by it), checked."""
    from ..core.advisor_player import advisor_seat
    from ..core.outcomes import field_policies

    if advisor_seat(text, game) is not None:
        return text
    return field_policies(game, text, {d.name: d.default for d in game.decisions} | view.strongest(rules))


def told(others) -> str:
    """What the others play, for the first line: ``discard greedy, peg greedy``, or ``the advisor``."""
    if isinstance(others, str):
        return f"the advisor's best choice at every decision ({others})"
    return ", ".join(f"{d} {p}" for d, p in others.items())


def run(args) -> dict:
    from ..core.advice import check_samples
    from ..core.duel import Quit, TerminalSeat
    from ..core.paths import check_output_file
    from ..core.registry import get_game
    from ..core.spec import apply_rule_changes
    from ..core.table import play

    game = get_game(args.game)
    rules = apply_rule_changes(game, game.get_rules(args.rules), args.rule)
    if not 0 <= args.seat < rules.players:
        raise ValueError(f"--seat must be 0 .. {rules.players - 1} for {rules.name}, got {args.seat}")
    check_samples(args.samples)
    if args.record is not None:  # told now, not after the game
        check_output_file(args.record, "--record")

    def names(seat):
        return "you" if seat == args.seat else f"seat {seat}"

    view = game.part("duel").View(names)
    others = against(game, view, rules, args.against)
    stream = sys.stderr if args.json else sys.stdout

    def write(text, end="\n"):
        try:
            stream.write(text + end)
            stream.flush()
        except BrokenPipeError:  # e.g. piped into head: the rest goes nowhere, and the game ends
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
            raise Quit("the output was closed") from None

    seat = TerminalSeat(
        view, args.seat, write=write, echo=not (sys.stdin and sys.stdin.isatty()), seed=args.seed, samples=args.samples
    )
    seats = [seat if s == args.seat else others for s in range(rules.players)]
    frame = None
    try:
        write(
            f"{game.name}, {rules.name}, seed {args.seed}: you are seat {args.seat} of {rules.players}; the others "
            f"play {told(others)}"
        )
        write("answer with a number or the choice itself; ? for the advisor's table, help for the commands, q to stop")
        frame = play(
            game.name,
            rules,
            seats,
            seed=args.seed,
            record=args.record,
            on_decision=lambda d: seat.observe(d.situation, d.choice),
            on_deal=seat.dealt,
        )
    except Quit as stop:
        write(
            f"game ended ({stop}) at your decision {seat.decisions}"
            + ("; no record written" if args.record and frame is None else "")
        )
        raise SystemExit(1) from None
    result = view.result(frame.iloc[0], rules, args.seat)
    return {
        "game": game.name,
        "rules": rules.name,
        "seed": args.seed,
        "seat": args.seat,
        "players": frame.attrs.get("players"),
        "decisions": seat.decisions,
        "record": args.record,
        **result,
    }


def render(result: dict) -> str:
    return "\n".join(result["lines"] + ([f"game record: {result['record']}"] if result["record"] else []))
