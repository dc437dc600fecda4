"""``sims discard``: what every throw of a dealt hand is worth (see :mod:`sims.cribbage.discards`)."""

from __future__ import annotations

from ...cli.common import aligned, percent
from ...core.text import mine_theirs
from ..discards import DEFAULT_CRIB, DEFAULT_PEG, DEFAULT_SAMPLES, SORTS, advise
from ..odds.layout import DEFAULT_PLAYERS, PLAYERS
from .role import add_role_arguments

HELP = (
    "every way to throw a dealt hand, best first: exact hand and crib, crib tables side by side, pegging, "
    "the chance of winning from the score"
)
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims discard 5H 5S JD 6C 4H KD --dealer               # every throw, best first",
    "sims discard 5H 5S JD 6C 4H KD --pone --crib exact,schell,hessel,self_play --all",
    "sims discard 5H 5S JD 6C 4H KD --dealer --score 95-110   # you 95, them 110: each throw's chance of winning",
    "sims discard 5H 5S JD 6C 4H KD --dealer --peg distilled  # and the kept cards' pegging",
]


def add_arguments(parser):
    parser.add_argument("cards", nargs="+", help="the cards dealt, e.g. 5H 5S JD 6C 4H KD")
    add_role_arguments(parser)
    parser.add_argument("--rules", default="six-card", metavar="PRESET", help="rules preset (default six-card)")
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="change one rules field, e.g. --rule crib_flush_four=true",
    )
    parser.add_argument(
        "--crib",
        metavar="SOURCE[,SOURCE...]",
        help="crib values side by side, the first ranking the throws: exact (the others throw at "
        f"random), schell, hessel, self_play (tables; default {DEFAULT_CRIB}), or a discard "
        "policy (sampled: the others throw by it)",
    )
    parser.add_argument("--opponent", metavar="POLICY", help="short for --crib POLICY,exact")
    parser.add_argument(
        "--pegging",
        action="store_true",
        help="estimate the kept cards' pegging (my side's less the other side's) from sampled deals",
    )
    parser.add_argument(
        "--peg",
        metavar="POLICY",
        help=f"the pegging policy of that estimate, for every player (default {DEFAULT_PEG}; implies --pegging)",
    )
    parser.add_argument(
        "--score",
        metavar="MINE-THEIRS",
        help="the scores before the deal, YOURS FIRST, then the other side's, whether you deal or "
        "not (as every command takes it), e.g. 95-110: each throw's chance of winning the "
        "game, and the throws ranked by it (six-card, six-card-61, five-card)",
    )
    parser.add_argument(
        "--players",
        metavar="NAME",
        help="with --score: the board-position table of these players' self-play, "
        f"{', '.join(PLAYERS)} (default: the players of --opponent/--crib POLICY and --peg, "
        f"else {DEFAULT_PLAYERS})",
    )
    parser.add_argument(
        "--sort",
        choices=SORTS,
        help="rank by net (hand +/- the first crib source; the default without --score), total "
        "(net + pegging), hand or win (the chance of winning: the default with --score)",
    )
    parser.add_argument(
        "--all", action="store_true", help="one row per throw (default: suit-equivalent throws share a row)"
    )
    parser.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        help=f"deals sampled for a policy's crib and for --pegging (default {DEFAULT_SAMPLES})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampled deals (default 0)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar while sampling")


def run(args) -> dict:
    from ...core.spec import apply_rule_changes
    from ..game import GAME

    rules = apply_rule_changes(GAME, GAME.get_rules(args.rules), args.rule)
    crib = [name.strip() for name in args.crib.split(",")] if args.crib is not None else None
    defaults = {"crib": DEFAULT_CRIB} if crib is None and args.opponent is None else {}
    crib = [DEFAULT_CRIB] if defaults else crib
    pegging = (args.peg or DEFAULT_PEG) if (args.pegging or args.peg) else None
    score = mine_theirs(args.score, "95-110")
    if score is not None and args.role != "dealer":
        score = score[::-1]  # the library's (dealer, pone)
    advice = advise(
        " ".join(args.cards),
        args.role,
        rules,
        opponent=args.opponent,
        samples=args.samples,
        seed=args.seed,
        crib=crib,
        pegging=pegging,
        score=score,
        players=args.players,
        sort=args.sort or ("win" if score else "net"),
        collapse=not args.all,
        progress=not args.quiet,
    )
    return {**advice.to_dict(), "defaults": defaults}


def _columns(result: dict) -> list[tuple[str, list[str]]]:
    """The table's columns: a header and one cell per row."""
    rows = result["rows"]

    def number(name, digits=3, scale=1.0):
        return [f"{scale * row[name]:.{digits}f}" for row in rows]

    def half_width(name):  # of the 95% normal interval
        from ...core.text import Z95

        return number(name, scale=Z95)

    columns = [
        ("rank", [str(row["rank"]) for row in rows]),
        ("thrown", [" ".join(row["thrown"]) for row in rows]),
        ("kept", [" ".join(row["kept"]) for row in rows]),
    ]
    if result["collapsed"]:
        columns.append(("throws", [str(row["throws"]) for row in rows]))
    columns += [("hand", number("hand")), ("min-max", [f"{row['hand_min']}-{row['hand_max']}" for row in rows])]
    for place, source in enumerate(result["crib"]):
        crib, net = ("crib", "net") if place == 0 else (f"crib_{source['name']}", f"net_{source['name']}")
        columns.append((f"crib:{source['name']}", number(crib)))
        if source["kind"] == "policy":
            columns.append(("±95%", half_width(f"{crib}_se")))
        columns.append((f"net:{source['name']}", number(net)))
    if result["pegging"]:
        columns += [("pegging", number("pegging")), ("±95%", half_width("pegging_se")), ("total", number("total"))]
    if result["score"]:
        columns.append(("win %", [percent(row["win"]) for row in rows]))
        columns.append(("95% interval", [f"{percent(row['win_lo'])}-{percent(row['win_hi'])}" for row in rows]))
    if result["sort"]["column"] == "win":  # the chance is shown in percent, so is its difference
        columns.append(("vs best", [f"{100 * row['vs_best']:.2f}" for row in rows]))
    else:
        columns.append(("vs best", number("vs_best")))
    columns.append(
        ("helps most", [" ".join(f"{h['rank']}:{h['points']:.3g}" for h in row["helps_most"]) for row in rows])
    )
    if result["collapsed"] and any(row["same_as"] for row in rows):
        columns.append(("same as", [", ".join(" ".join(t) for t in row["same_as"]) for row in rows]))
    return columns


def _table(columns) -> list[str]:
    """The columns as a plain text table: cards and notes to the left, numbers to the right."""
    heads = [head for head, _ in columns]
    left = {j for j, head in enumerate(heads) if head in {"thrown", "kept", "helps most", "same as"}}
    return aligned([heads, *(list(row) for row in zip(*(cells for _, cells in columns)))], left)


def render(result: dict) -> str:
    rows = result["rows"]
    rules = result["rules"]["name"]
    at = ""
    if result["score"]:
        mine, theirs = (
            result["score"][role] for role in ("dealer", "pone")[:: 1 if result["role"] == "dealer" else -1]
        )
        at = f" at {mine}-{theirs} (yours first: you {mine}, them {theirs})"
    shown = (
        f"{result['throws']} throws in {len(rows)} rows (suit-equivalent throws share a row; --all lists each)"
        if result["collapsed"]
        else f"{result['throws']} throws"
    )
    lines = [
        f"{' '.join(result['hand'])}, {result['role']}, {rules}{at}: {shown}",
        f"sorted by {result['sort']['key']}, best first; hand: the kept cards' expected points over the "
        f"{result['starters']} starters not seen (lowest-highest); helps most: starter rank:points",
        "",
    ]
    lines += _table(_columns(result))
    lines += ["", f"The kept cards' points over the {result['starters']} starters (points x starters):"]
    width = max(len(" ".join(row["kept"])) for row in rows)
    for row in rows:
        spread = " ".join(f"{points}x{n}" for points, n in row["hand_dist"].items())
        lines.append(f"{row['rank']:>4}  {' '.join(row['kept']):<{width}}  {spread}")
    notes = []
    for source in result["crib"]:
        if source["kind"] == "table":
            notes.append(
                f"crib:{source['name']}: {source['title']}, by the ranks thrown (a table of two-handed six-card play)"
            )
        elif source["kind"] == "policy":
            notes.append(
                f"crib:{source['name']}: {source['title']}, {source['samples']:,} sampled deals "
                f"(seed {source['seed']}), the same deals for every throw"
            )
    if result["pegging"]:
        p = result["pegging"]
        notes.append(
            f"pegging: {p['value']}; everyone pegs by {p['policy']['name']}, the others lay out by "
            f"{p['others_discard']['name']}; {p['samples']:,} sampled deals (seed {p['seed']})"
        )
    if result["score"]:
        s = result["score"]
        notes.append(
            f"win %: your chance of winning the game, the dealer on {s['dealer']} and the pone on "
            f"{s['pone']} before the deal: exact over the starters, the rest of the deal in counting "
            f"order and the games after it from the {rules} board-position table "
            f"({' + '.join(dict.fromkeys(PLAYERS[s['players']].values()))} self-play); 95% interval: "
            f"{s['interval']}"
        )
    if any(source["kind"] == "policy" for source in result["crib"]) or result["pegging"]:
        from ...core.text import HALF_WIDTH

        notes.append(HALF_WIDTH)
    if result["defaults"]:
        notes.append(f"default crib source: {result['defaults']['crib']} (--crib exact: the others throw at random)")
    return "\n".join(lines + ([""] + notes if notes else []))
