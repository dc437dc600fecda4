"""``sims score``: count a hand or crib with the starter the way the rule books do, showing the work.

Fifteens first ("fifteen two, fifteen four, ..."), then pairs (a pair-royal is one saying), runs,
flush and "one for his nob", each with the cards behind it and the running total.
"""

from __future__ import annotations

from ...cards import format_card, parse_card, parse_cards
from ..scoring import show_breakdown

HELP = "count a hand or crib with the starter, showing each fifteen, pair, run, flush and nobs"
EXAMPLES = [  # the foot of --help (tests/cli/test_help.py parses each)
    "sims score 5H 5C 5S JD --starter 5D       # counts aloud: fifteen two, ... = 29",
    "sims score 5H 6H 7H 8H --starter 9C --crib   # the crib flush needs the starter",
]

PAIR_NAMES = {2: "a pair", 3: "a pair-royal", 4: "a double pair-royal"}
_ONES = (
    "nothing one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty"}


def add_arguments(parser):
    parser.add_argument(
        "cards", nargs="+", metavar="CARD", help="the hand (3, 4 or 6 cards) or crib (4), e.g. 5H 5C 5S JD or 10h,th,5♥"
    )
    parser.add_argument("--starter", required=True, metavar="CARD", help="the turned-up card")
    parser.add_argument("--crib", action="store_true", help="count as the crib (a flush needs the starter's suit too)")
    parser.add_argument(
        "--crib-flush-four", action="store_true", help="period option: allow a four-card flush in the crib"
    )


def _grouped(items):
    """The reference's items with each rank's pairs merged into one pair / pair-royal saying."""
    grouped, pairs = [], {}
    for kind, cards, points in items:
        if kind == "pairs":
            rank = cards[0] >> 2
            if rank not in pairs:
                pairs[rank] = {"kind": kind, "cards": [], "points": 0}
                grouped.append(pairs[rank])
            group = pairs[rank]
            group["cards"] += [c for c in cards if c not in group["cards"]]
            group["points"] += points
        else:
            grouped.append({"kind": kind, "cards": list(cards), "points": points})
    return grouped


def run(args) -> dict:
    hand = parse_cards(" ".join(args.cards))
    starter = parse_card(args.starter)
    if starter in hand:
        raise ValueError(f"the starter {format_card(starter)} is also in the hand")
    result = show_breakdown(hand, starter, args.crib, args.crib_flush_four)
    items = [{**item, "cards": [format_card(c) for c in item["cards"]]} for item in _grouped(result["items"])]
    return {
        "hand": [format_card(c) for c in hand],
        "starter": format_card(starter),
        "crib": args.crib,
        "crib_flush_four": args.crib_flush_four,
        "total": result["total"],
        "components": result["components"],
        "items": items,
    }


def number_words(n: int) -> str:
    """``29 -> 'twenty-nine'``, as the points are called aloud."""
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "") if tens in _TENS else str(n)


def _saying(item, total):
    kind, n = item["kind"], len(item["cards"])
    if kind == "fifteens":
        return f"fifteen {number_words(total)}"
    name = {
        "pairs": PAIR_NAMES.get(n, "pairs"),
        "runs": f"a run of {number_words(n)}",
        "flush": f"a flush of {number_words(n)}",
        "nobs": "one for his nob",
    }[kind]
    said = f"{name} is {number_words(total)}"
    return said if total == item["points"] else f"and {said}"


def render(result) -> str:
    what = "crib" if result["crib"] else "hand"
    lines = [f"{what} {' '.join(result['hand'])}, starter {result['starter']}"]
    total = 0
    sayings = []
    for item in result["items"]:
        total += item["points"]
        sayings.append((_saying(item, total), " ".join(item["cards"])))
    width = max((len(s) for s, _ in sayings), default=0)
    lines += [f"  {saying:<{width}}  {cards}" for saying, cards in sayings]
    if not sayings:
        lines.append("  nothing" + (" (bilked)" if result["crib"] else ""))
    lines.append(f"= {result['total']}")
    return "\n".join(lines)
