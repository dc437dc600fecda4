"""The player's place at a cribbage deal, as ``sims peg`` and ``sims discard`` take it."""

from __future__ import annotations


def add_role_arguments(parser) -> None:
    """The player's place at a cribbage deal: ``--dealer``, ``--pone`` or ``--role`` (into ``args.role``)."""
    seat = parser.add_mutually_exclusive_group(required=True)
    seat.add_argument("--dealer", dest="role", action="store_const", const="dealer", help="you dealt")
    seat.add_argument("--pone", dest="role", action="store_const", const="pone", help="your opponent dealt")
    seat.add_argument(
        "--role",
        dest="role",
        metavar="ROLE",
        help="three-hand: dealer, eldest, second; four-hand: dealer, eldest, dealer_partner, eldest_partner",
    )
