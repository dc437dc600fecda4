"""``sims review``: every decision of a game record graded against the advisor (see :mod:`sims.cribbage.record`)."""
from __future__ import annotations

from ..cribbage.advice import DEFAULT_PLAYOUT

COMMAND = "review"
HELP = ("grade every decision of a cribbage game record (JSON Lines): the best choice, points lost with a 95% "
        "interval, the "
        "chance of winning lost, totals per player")
EXAMPLES = [   # the foot of --help (tests/cli/test_help.py parses each)
    "sims review game.jsonl               # every decision graded against the expert, totals per player",
    "sims review game.jsonl --json",
    "sims review game.jsonl --playout defensive     # everyone pegs by defensive after each card",
]


def add_arguments(parser):
    parser.add_argument("record", help="the game record, e.g. sims/cribbage/data/example-record.jsonl")
    parser.add_argument("--samples", type=int, default=2000, help="sampled deals where a value is not exact")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampled deals")
    parser.add_argument("--playout", default=None, metavar="POLICY",
                        help=f"the pegging every player uses after a card of the play (default {DEFAULT_PLAYOUT}; "
                             f"a built-in, an installed plug-in's, or py:MODULE.FUNCTION)")


def run(args) -> dict:
    from ..core.record import review

    frame = review(args.record, args.samples, args.seed, args.playout)
    return {"header": frame.attrs["header"], "decisions": frame.to_dict(orient="records"),
            "totals": frame.attrs["totals"]}


def render(result: dict) -> str:
    from ..core.text import HALF_WIDTH, Z95

    lines = [f"{result['header']['rules']}: {', '.join(result['header']['players'])}", ""]
    head = f"{'line':>4}  {'player':<10} {'decision':<8} {'choice':<8} {'best':<8} {'points lost':>16} {'win lost':>9}  grade"
    lines.append(head)
    for d in result["decisions"]:
        win = "" if d["win_lost"] is None else f"{100 * d['win_lost']:.2f}%"
        lost = f"{d['points_lost']:.3f} ±{Z95 * d['points_lost_se']:.3f}"
        lines.append(f"{d['line']:>4}  {d['player']:<10} {d['decision']:<8} {d['choice']:<8} {d['best']:<8} "
                     f"{lost:>16} {win:>9}  {d['grade']}".rstrip())
    lines += ["", "totals:"]
    for t in result["totals"]:
        win = "" if t["win_lost"] is None else f", {100 * t['win_lost']:.2f}% chance of winning lost"
        lines.append(f"  {t['player']}: {t['decisions']} decisions, {t['points_lost']:.3f} ±{Z95 * t['points_lost_se']:.3f} "
                     f"points lost{win}; {t['inaccuracy']} inaccuracies, {t['mistake']} mistakes, "
                     f"{t['blunder']} blunders")
    return "\n".join(lines + ["", HALF_WIDTH])
