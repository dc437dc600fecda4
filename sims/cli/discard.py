"""``sims discard``: what every throw of a dealt hand is worth (see :mod:`sims.cribbage.discards`)."""
from __future__ import annotations

from ..cribbage.discards import DEFAULT_SAMPLES, analyze_discards
from ..cribbage.policies import discard as _discard_policies  # noqa: F401  (registers the policies)

COMMAND = "discard"
HELP = "exact expected hand, crib and net for every way to throw a dealt hand"


def add_arguments(parser):
    parser.add_argument("cards", nargs="+", help="the cards dealt, e.g. 5H 5S JD 6C 4H KD")
    seat = parser.add_mutually_exclusive_group(required=True)
    seat.add_argument("--dealer", dest="role", action="store_const", const="dealer", help="you dealt")
    seat.add_argument("--pone", dest="role", action="store_const", const="pone", help="your opponent dealt")
    seat.add_argument("--role", dest="role", metavar="ROLE",
                      help="three-hand: dealer, eldest, second; four-hand: dealer, eldest, dealer_partner, "
                           "eldest_partner")
    parser.add_argument("--rules", default="six-card", help="rules preset (default six-card)")
    parser.add_argument("--opponent", metavar="POLICY",
                        help="also estimate the crib when the others throw by this discard policy")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                        help=f"deals sampled for --opponent (default {DEFAULT_SAMPLES})")
    parser.add_argument("--seed", type=int, default=0, help="seed for --opponent sampling (default 0)")


def run(args) -> list[dict]:
    frame = analyze_discards(" ".join(args.cards), args.role, rules=args.rules, opponent=args.opponent,
                             samples=args.samples, seed=args.seed)
    rows = frame.to_dict(orient="records")
    for row in rows:
        row["thrown"] = row["thrown"].split()
        row["kept"] = row["kept"].split()
    return rows


def render(rows: list[dict]) -> str:
    opponent = "opp_net" in rows[0]
    head = f"{'thrown':<9} {'kept':<21} {'hand':>7} {'crib':>7} {'net':>7}"
    if opponent:
        head += f" {'opp_crib':>9} {'± se':>6} {'opp_net':>8}"
    lines = [head]
    for row in rows:
        line = (f"{' '.join(row['thrown']):<9} {' '.join(row['kept']):<21} {row['hand']:7.3f} "
                f"{row['crib']:7.3f} {row['net']:7.3f}")
        if opponent:
            line += f" {row['opp_crib']:9.3f} {row['opp_crib_se']:6.3f} {row['opp_net']:8.3f}"
        lines.append(line)
    lines.append("crib: exact over every random throw by the others and every starter"
                 + ("; opp_crib: sampled under the opponent policy" if opponent else ""))
    return "\n".join(lines)
