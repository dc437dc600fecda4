"""Arguments shared by the simulation commands: rules, per-seat policies, seed, threads."""
from __future__ import annotations

import dataclasses

from ..cribbage.rules import PRESETS, Rules, get_rules


def add_simulation_arguments(parser, size_flag: str, size_help: str, default: int) -> None:
    parser.add_argument("--rules", default="six-card", help=f"preset: {', '.join(PRESETS)} (default six-card)")
    parser.add_argument("--rule", action="append", default=[], metavar="FIELD=VALUE",
                        help="change one rules field, e.g. --rule target=61 --rule bath_flush=true")
    parser.add_argument(size_flag, dest="n", type=int, default=default, help=size_help)
    parser.add_argument("--discard", default="random", help="discard policy, or a comma list one per seat")
    parser.add_argument("--peg", default="random", help="pegging policy, or a comma list one per seat")
    parser.add_argument("--seed", type=int, default=0, help="master seed (non-negative integer)")
    parser.add_argument("--threads", type=int, default=None, help="numba threads (default: all)")


def _parse_value(field: dataclasses.Field, text: str):
    if field.type in (bool, "bool"):
        lowered = text.lower()
        if lowered not in ("true", "false", "1", "0", "yes", "no"):
            raise ValueError(f"rules field {field.name!r} takes true or false, got {text!r}")
        return lowered in ("true", "1", "yes")
    if field.type in (int, "int"):
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"rules field {field.name!r} takes an integer, got {text!r}") from None
    return text


def rules_from_args(args) -> Rules:
    """The preset named by ``--rules`` with any ``--rule FIELD=VALUE`` changes."""
    rules = get_rules(args.rules)
    fields = {f.name: f for f in dataclasses.fields(Rules)}
    changes = {}
    for item in args.rule:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in fields or key == "name":
            raise ValueError(f"--rule {item!r}: expected FIELD=VALUE with FIELD one of "
                             f"{', '.join(f for f in fields if f != 'name')}")
        changes[key] = _parse_value(fields[key], value.strip())
    return dataclasses.replace(rules, **changes) if changes else rules


def policies_from_args(args) -> dict:
    """``--discard greedy,random`` -> per-seat lists."""
    def split(text):
        names = [t.strip() for t in text.split(",")]
        if any(not name for name in names):
            raise ValueError(f"empty policy name in {text!r}")
        return names
    return {"discard": split(args.discard), "peg": split(args.peg)}


def interval(entry: dict) -> str:
    return f"{entry['rate']:.4f} [{entry['lo']:.4f}, {entry['hi']:.4f}]"
