"""Small text pieces the games' ``render`` functions share."""
from __future__ import annotations


def rate_interval(entry: dict) -> str:
    """``0.5512 [0.5470, 0.5554]``: a rate with its 95% interval (``rate``, ``lo``, ``hi``)."""
    return f"{entry['rate']:.4f} [{entry['lo']:.4f}, {entry['hi']:.4f}]"


def policy_line(summary: dict) -> str:
    """``discard greedy,greedy, peg random,random``: each decision's policy by seat (changed parameters shown)."""
    return ", ".join(f"{d} {','.join(p.get('label', p['name']) for p in seats)}"
                     for d, seats in summary["policies"].items())
