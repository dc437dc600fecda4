"""``sims review``: every decision of a game record graded against the game's advisor (:mod:`sims.core.record`)."""

from __future__ import annotations

HELP = (
    "grade every decision of a game record (JSON Lines, any game: the header names it): the best choice, "
    "points lost with a 95% interval, the chance of winning lost, totals per player"
)
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims review game.jsonl               # every decision graded against the expert, totals per player",
    "sims review game.jsonl --errors      # only the inaccuracies, mistakes and blunders (totals count all)",
    "sims review game.jsonl --json",
    "sims review game.jsonl --playout defensive     # cribbage: everyone pegs by defensive after each card",
    "sims review game.jsonl --playout play=maxims   # All Fours, Loo: DECISION=POLICY for the play-outs",
]


BEST = (
    "the advisor's best choice: the best chance of winning where the score gives one, else the most points "
    "(stakes); the points and the chance lost are both measured from it"
)


def add_arguments(parser):
    parser.add_argument(
        "record",
        help="the game record, e.g. one written by sims play --record, or sims/cribbage/data/example-record.jsonl",
    )
    parser.add_argument("--samples", type=int, default=2000, help="sampled deals where a value is not exact")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampled deals")
    parser.add_argument(
        "--playout",
        default=None,
        metavar="POLICY",
        help="the policies every player uses after the choice (default the advisor's): cribbage, "
        "a pegging policy (a built-in, an installed plug-in's, or py:MODULE.FUNCTION); All "
        "Fours and Loo, DECISION=POLICY[,DECISION=POLICY] (All Fours' play: search, the expert's search "
        "seeing every hand, by default)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar (a long review shows one)")
    parser.add_argument(
        "--errors",
        action="store_true",
        help="list only the inaccuracies, mistakes and blunders (the totals count every decision)",
    )


def run(args) -> dict:
    from ..core.record import playout_of, review

    frame = review(args.record, args.samples, args.seed, playout_of(args.playout), progress=not args.quiet)
    decisions = frame[(frame["grade"] != "") | (frame["note"] != "")] if args.errors else frame
    return {
        "header": frame.attrs["header"],
        "best": BEST,
        "playouts": frame.attrs["playouts"],
        "decisions": decisions.to_dict(orient="records"),
        "totals": frame.attrs["totals"],
    }


def render(result: dict) -> str:
    from ..core.record import grade_counts
    from ..core.text import HALF_WIDTH, Z95, counted

    header = result["header"]
    rules = header["rules"]["name"] if isinstance(header.get("rules"), dict) else header.get("rules", "")
    lines = [f"{header['game']} {rules}: {', '.join(header['players'])}".replace("  ", " "), ""]
    width = max([6] + [len(d["player"]) for d in result["decisions"]])
    choice = max([8] + [len(str(d[k] or "")) for d in result["decisions"] for k in ("choice", "best")])
    lines.append(
        f"{'line':>4}  {'player':<{width}} {'decision':<8} {'choice':<{choice}} {'best':<{choice}} "
        f"{'points lost':>16} {'win lost':>9}  grade"
    )
    for d in result["decisions"]:
        win = "" if d["win_lost"] is None else f"{100 * d['win_lost']:.2f}%"
        lost = f"{d['points_lost']:.3f} ±{Z95 * d['points_lost_se']:.3f}"
        if d["note"]:
            lines.append(
                f"{d['line']:>4}  {d['player']:<{width}} {d['decision']:<8} {d['choice']:<{choice}} {d['note']}"
            )
            continue
        lines.append(
            f"{d['line']:>4}  {d['player']:<{width}} {d['decision']:<8} {d['choice']:<{choice}} "
            f"{d['best']:<{choice}} {lost:>16} {win:>9}  {d['grade']}".rstrip()
        )
    lines += ["", "totals:"]
    for t in result["totals"]:
        win = "" if t["win_lost"] is None else f", {100 * t['win_lost']:.2f}% chance of winning lost"
        ungraded = f" ({t['ungraded']} not graded)" if t["ungraded"] else ""
        lines.append(
            f"  {t['player']}: {counted(t['decisions'], 'decision')}{ungraded}, {t['points_lost']:.3f} "
            f"±{Z95 * t['points_lost_se']:.3f} points lost{win}; {grade_counts(t)}"
        )
    by_players: dict[str, list[str]] = {}
    for decision, players in result["playouts"].items():
        by_players.setdefault(players, []).append(decision)
    playouts = [f"play-outs ({', '.join(kinds)}): {players}" for players, kinds in by_players.items()]
    return "\n".join(lines + ["", f"best: {result['best']}", *playouts, HALF_WIDTH])
