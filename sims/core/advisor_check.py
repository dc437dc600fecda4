"""The review checked by play: does a player that follows the advisor win what the grades say it should?

:func:`check` plays ``games`` game numbers of a run twice over (once per seat) with the advisor
(:class:`~sims.core.advisor_player.AdvisorPlayer`) in one seat and the game's strongest named player
(its duel view's :meth:`~sims.core.duel.View.strongest`) in every other, the advisor moving round the
seats on the same deals; and once with the strongest player in every seat (the mirror).  The advisor's
**gain** is its result less the strongest player's in the same seat of the same game number of the
mirror, a paired difference (two players: a half, as the exchanged seats of a mirror game share
one win): one a game won (a tie a half) where the advisor gives a chance of winning,
else the score (or the stakes won, where a game keeps stakes).  Its 95% interval is over the game numbers.

The **prediction**: the first ``review_games`` mirror games are written to a game record and graded
by :func:`sims.core.record.review`; each player's chance of winning lost (else the points or stakes
lost) summed over his decisions of a game is what the advisor, deciding in his place, should gain in
that game.  Its mean over the players and games, with a 95% interval, stands beside the gain; and
beside it the same losses measured again on fresh deals (:func:`lost_again`), which the selection
of the best of several noisy values does not bias.  The review's loss is what the best of its
``review_samples`` deals would gain; the advisor at the table decides on ``samples``.  With
``chooser_seeds``, advisors like it decide again at each reviewed decision, and what their choices gain,
valued as the review values them (:func:`chooser_gain`), is the review's prediction for the player that
plays.

The **identity**: the gain of one player over another is, exactly, what the first's choices are worth
more than the second's at the positions the first reaches, valued with the second's play to follow
(the performance-difference identity of reinforcement learning).  With ``identity_games``, each
seat's first games of the advisor are recorded, and at each of its decisions the advisor's own
values (fresh deals) of its choice and of the choice the strongest player would have made there are
compared: summed over a game, they are what the advisor's values say it gains, and split by the kind of
decision, which of its values say so.  Where that sum agrees with the review's prediction but not with
the play, the values themselves are off (the advisor's picture of the hidden cards or of the play to
come), not the summing of a game's grades; where a kind of decision's part agrees with what the
advisor gains deciding that kind alone, that kind's values are not.

``against`` (``{decision: policy}``) sets other players than the strongest for the other seats, the
mirror and the reviewed games: against the play-outs' own players the advisor's model of the rest of
the game is theirs.  ``playout`` sets the play-outs instead (as ``sims review --playout`` does), for the
advisor at the table, the review and every value measured again: with the strongest player's own
policies there, the values are those of the rest of the game as that player plays it.

``python -m sims.core.advisor_check --game GAME --games 500`` prints the figures (``--help``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from .advisor_player import NAME, AdvisorPlayer
from .progress import progress_bar
from .text import counted


def strongest(game, rules) -> dict:
    """``{decision: policy}``: the strongest named players of ``game`` for ``rules``, the defaults elsewhere."""
    view = game.part("duel").View(lambda s: f"seat {s}")
    return {d.name: d.default for d in game.decisions} | view.strongest(rules)


def seat_results(game, rules, row, names) -> list[tuple[float, float]]:
    """Per seat, ``(won, score)`` of a game's row of :func:`sims.core.table.play`: one if the seat's side won, a
    half for a tie (nobody won), else zero; and its side's score (or the stakes it won).  ``names(seat)`` is
    how the game's view names the seats."""
    result = game.part("duel").View(names).result(row, rules, 0)
    out = []
    for s in range(rules.players):
        score = next(v for side, v in result["scores"].items() if names(s) in side.split(" and "))
        won = 0.5 if result["winner"] is None else float(names(s) in result["winner"].split(" and "))
        out.append((won, float(score)))
    return out


def play_seats(
    game, rules, seats, seed: int, games: int, record=None, progress: bool = False, record_games: int | None = None
) -> np.ndarray:
    """``out[game number, seat] = (won, score)`` (:func:`seat_results`) of games ``0 .. games-1`` of ``seed``; the
    first ``record_games`` (default all) written to ``record``."""
    from .table import play

    frame = play(
        game.name, rules, seats, seed=seed, games=games, record=record, progress=progress, record_games=record_games
    )
    names = [NAME if isinstance(seat, AdvisorPlayer) else f"seat {s}" for s, seat in enumerate(seats)]
    return np.asarray([seat_results(game, rules, row, names.__getitem__) for _, row in frame.iterrows()])


def predicted_gain(
    game, rules, seed: int, games: int, samples: int, progress: bool = False, best=None, chooser=None, playout=None
) -> pd.DataFrame:
    """The review's prediction (module docstring): per player and game of the mirror's first ``games``, the chance
    of winning the review says he lost (``win_lost``, or ``points_lost`` where the advisor gives no chance), the
    same measured again on fresh deals (:func:`lost_again`), his decisions and their grades; ``attrs``: the
    ``reviewed`` decisions and the loss a player and game ``by_decision``; ``best`` the players of the mirror
    (default the strongest).  With ``chooser`` (advisor players, :class:`AdvisorPlayer`), ``chosen``: what they
    gain at his positions on average (:func:`chooser_gain`).  ``playout``: the review's play-outs (default the
    advisor's)."""
    from .record import GRADES, read_record, review

    best = best or strongest(game, rules)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mirror.jsonl"
        play_seats(game, rules, [best] * rules.players, seed, games, record=path)
        graded = review(path, samples=samples, seed=seed, playout=playout, progress=progress)
        situations = {line.number: line.situation for line in read_record(path).decisions}
    measure = "win_lost" if graded["win_lost"].notna().any() else "points_lost"
    graded["lost"] = graded[measure].astype(float)
    again, chosen = [], []
    rows = graded.itertuples()
    for row in progress_bar(rows, total=len(graded), desc="measured again", unit="decision") if progress else rows:
        situation = situations[row.line]
        again.append(
            lost_again(game, situation, row.choice, row.best, samples, seed + 1, measure, playout)
            if row.lost > 0
            else 0.0
        )
        chosen.append(
            chooser_gain(game, situation, row, chooser, samples, seed, measure, playout)
            if chooser and row.best is not None
            else 0.0
        )
    graded["lost_again"], graded["chosen"] = again, chosen
    out = graded.groupby(["game", "player"]).agg(
        lost=("lost", "sum"),
        lost_again=("lost_again", "sum"),
        chosen=("chosen", "sum"),
        decisions=("line", "size"),
        **{name: ("grade", lambda g, name=name: int((g == name).sum())) for name, _, _ in GRADES},
    )
    out.attrs["reviewed"] = graded
    out.attrs["by_decision"] = (graded.groupby("decision", sort=False)["lost"].sum() / len(out)).to_dict()
    return out.reset_index()


def lost_again(game, situation, choice: str, best: str, samples: int, seed: int, measure: str, playout=None) -> float:
    """What ``choice`` loses against the review's ``best`` on fresh deals (``seed``): the review picks its best as
    the highest of noisy values, so the loss it grades is biased upward; measured again on other deals, the loss
    of the same two choices is not (``measure``: ``win_lost`` or ``points_lost``)."""
    from .record import grade

    lost, best_lost = (grade(game, situation, c, samples, seed, playout)[measure] for c in (choice, best))
    return lost - best_lost


def chooser_gain(game, situation, row, players, samples: int, seed: int, measure: str, playout=None) -> float:
    """What the advisor ``players`` (their sampled deals, their seeds) gain on average over the review's ``row``
    (a decision and its grade), their choices valued as the review values them (``samples`` deals, ``seed``): the
    review's loss is what the best of ``samples`` deals gains there, and an advisor deciding on fewer deals picks
    another choice more often, the best or not."""
    from .record import grade

    picks = [player.choose(situation) for player in players]
    return float(
        np.mean(
            [
                row.lost - (0.0 if pick == row.best else grade(game, situation, pick, samples, seed, playout)[measure])
                for pick in picks
            ]
        )
    )


def identity_gain(
    game, record, seat: int, best: dict, samples: int, seed: int, measure: str, games: int | None = None, playout=None
) -> np.ndarray:
    """Per game of the ``record`` (the advisor in ``seat``; its first ``games``, default every one) and decision of
    the game (``game.decisions`` order),
    the advisor's values (``samples`` fresh deals a decision, ``seed``) of its choices less those of the choices
    ``best``'s policy would have made at the same positions (module docstring: the identity), summed over its
    decisions of that kind: ``out[game, decision]``, whose sum over the decisions is the identity of a game;
    ``measure`` ``win_lost`` or ``points_lost``; ``playout`` the values' play-outs.  Both choices are graded on the
    same deals
    (:func:`sims.core.record.review`'s grade); a decision none of whose sampled deals fit what the others have
    shown is left out."""
    from .advisor_player import advise_fitting, choice_column
    from .record import grade, read_record

    advice, read = game.part("advice"), read_record(record)
    kinds = [d.name for d in game.decisions]
    out = np.zeros((min(read.header.get("games", 1), games or read.header.get("games", 1)), len(kinds)))
    for k, line in enumerate(read.decisions):
        base = best.get(line.situation.DECISION)
        if line.player != seat or line.game >= len(out) or not isinstance(base, str):
            continue
        try:  # the base's choice: the row the advisor says it makes (the fewest deals do for that)
            frame = advise_fitting(advice, line.situation, 2, seed + k, policies=(base,))[0]
            made = [c for c, by in zip(frame[choice_column(frame)], frame["chosen_by"]) if base in by.split(", ")]
            if made and str(made[0]) != line.choice:
                graded = [
                    grade(game, line.situation, c, samples, seed + k, playout) for c in (str(made[0]), line.choice)
                ]
                out[line.game, kinds.index(line.situation.DECISION)] += graded[0][measure] - graded[1][measure]
        except ValueError:
            continue
    return out


def measure_of(game, rules) -> str:
    """``win`` where the advisor values a decision by the chance of winning (a game kept to a target: the score
    of the first decision of game 0 is known), else ``points`` (the advisor's points or stakes)."""
    from .table import play

    seen = []

    def first(decided):
        seen.append(decided.situation)
        raise _Seen

    try:
        play(game.name, rules, [strongest(game, rules)] * rules.players, games=1, on_decision=first)
    except _Seen:
        pass
    frame = game.part("advice").advise(seen[0], samples=2, seed=0, policies=())
    return "win" if "win" in frame else "points"


class _Seen(Exception):
    """The first decision of a game was seen: stop the game."""


def check(
    game,
    rules=None,
    games: int = 500,
    seed: int = 0,
    samples: int = 200,
    exact_limit: int | None = None,
    review_games: int = 20,
    review_samples: int = 2_000,
    progress: bool = False,
    against: dict | None = None,
    identity_games: int = 0,
    chooser_seeds: int = 0,
    playout=None,
) -> dict:
    """The advisor's gain at the table against the strongest player, beside the review's prediction (module
    docstring).

    Parameters
    ----------
    game : str
        The game.
    rules : str or Rules, optional
        A preset's name or the game's Rules (default its default preset).
    games : int
        Game numbers played, each once with the advisor in every seat in turn and once by the mirror (0: none,
        the review's prediction alone).
    seed : int
        The run's seed (the deals, the strongest players' streams, the advisor's own streams).
    samples, exact_limit : int
        The advisor's sampled deals a decision, and its limit for enumerating every deal (default its own).
    review_games : int
        Mirror games reviewed for the prediction (0: none, the play alone).
    review_samples : int
        The review's sampled deals a decision.
    progress : bool
        Progress bars.
    against : dict, optional
        ``{decision: policy}`` the other seats play instead of the strongest players (module docstring).
    identity_games : int
        The advisor's first games in each seat valued by the identity (module docstring; 0: none), with
        ``review_samples`` deals a decision.
    chooser_seeds : int
        Advisor players (``samples`` deals a decision, as the one at the table) that decide again at each reviewed
        decision, for ``predicted_chosen``: what the review says such a player gains (0: none).
    playout : str or dict, optional
        The play-outs' policy (``{decision: policy}``) of the advisor at the table, the review and every value
        measured again (default the advisor's own), as ``sims review --playout`` takes it.

    Returns
    -------
    dict
        ``measure`` (``win``: games won, a tie a half; else ``points``: the score or stakes), ``advisor`` and
        ``mirror`` (the mean result a seat), ``gain``, ``predicted`` and ``predicted_again`` (the review's losses
        measured again on fresh deals) (:class:`sims.stats.Estimate`; the
        first two None for one game number), the played ``games``, the advisor's ``decisions`` in each seat,
        and the review's ``reviewed`` decisions with the counts of each ``grade``; with ``identity_games``,
        ``identity`` (an Estimate over those games' numbers) and ``identity_by_decision`` (``{decision:
        Estimate}``, its part from each kind of decision: where the values are off).
    """
    from ..stats import mean_ci
    from .jobs import check_count, resolve_one
    from .record import GRADES, check_playout
    from .registry import get_game

    game = get_game(game)
    rules = game.get_rules(rules)
    check_playout(game, game.part("record"), playout)
    games = 0 if games == 0 else check_count(games, "games")
    best = strongest(game, rules)
    for decision, policy in (against or {}).items():
        if decision not in best:
            raise ValueError(f"against: {game.name}'s decisions are {', '.join(best)}, got {decision!r}")
        resolve_one(game, decision, policy)
    best |= dict(against or {})
    predicted = (
        predicted_gain(
            game,
            rules,
            seed,
            check_count(review_games, "review_games"),
            review_samples,
            progress,
            best,
            [AdvisorPlayer(game, samples, (seed, 3, k), exact_limit, playout) for k in range(chooser_seeds)],
            playout,
        )
        if review_games
        else None
    )
    kinds = [d.name for d in game.decisions]
    identity = np.zeros((min(identity_games, games), rules.players, len(kinds)))
    column = 0 if measure_of(game, rules) == "win" else 1
    if games == 0:
        mirror = np.zeros((0, rules.players))
    elif column == 0 and rules.players == 2:  # the two seats of a mirror game share one win: a half a seat
        mirror = np.full((games, 2), 0.5)
    else:
        mirror = play_seats(game, rules, [best] * rules.players, seed, games, progress=progress)[:, :, column]
    advisor, taken = np.empty_like(mirror), []
    for s in range(rules.players if games else 0):
        player = AdvisorPlayer(game, samples, (seed, s), exact_limit, playout)
        seats = [player if t == s else best for t in range(rules.players)]
        with tempfile.TemporaryDirectory() as tmp:
            record = Path(tmp) / "advisor.jsonl" if len(identity) else None
            advisor[:, s] = play_seats(game, rules, seats, seed, games, record, progress, len(identity))[:, s, column]
            if record:
                measure = "win_lost" if column == 0 else "points_lost"
                identity[:, s] = identity_gain(
                    game, record, s, best, review_samples, seed + 2, measure, len(identity), playout
                )
        taken.append(player.decisions)
    return {
        "game": game.name,
        "rules": rules.name,
        "strongest": best,
        "samples": samples,
        "playout": playout,
        "measure": "win" if column == 0 else "points",
        "games": games * rules.players,
        "decisions": taken,
        "advisor": mean_ci(advisor.mean(axis=1)) if games > 1 else None,
        "mirror": float(mirror.mean()) if games else None,
        "gain": mean_ci((advisor - mirror).mean(axis=1)) if games > 1 else None,
        **(
            {
                "identity": mean_ci(identity.sum(axis=2).mean(axis=1)),
                "identity_by_decision": {d: mean_ci(identity[:, :, j].mean(axis=1)) for j, d in enumerate(kinds)},
            }
            if len(identity) > 1
            else {}
        ),
        **(
            {}
            if predicted is None
            else {
                "predicted": mean_ci(predicted["lost"]),
                "predicted_again": mean_ci(predicted["lost_again"]),
                **(
                    {"predicted_chosen": mean_ci(predicted["chosen"]), "chooser_seeds": chooser_seeds}
                    if chooser_seeds
                    else {}
                ),
                "by_decision": predicted.attrs["by_decision"],
                "reviewed": int(predicted["decisions"].sum()),
                "grades": {name: int(predicted[name].sum()) for name, _, _ in GRADES},
            }
        ),
    }


def render(result: dict) -> str:
    """The figures of :func:`check`, a line each."""
    scale, unit = (100, "%") if result["measure"] == "win" else (1, "")
    what = "games won" if result["measure"] == "win" else "score (stakes) a game"
    strongest = ", ".join(f"{d} {p}" for d, p in result["strongest"].items())
    lines = [
        f"{result['game']} {result['rules']}: the advisor ({result['samples']} samples a decision) against "
        f"{strongest}, {result['games']:,} games, seats exchanged"
    ]
    if result["playout"]:
        pairs = result["playout"] if isinstance(result["playout"], dict) else {"": result["playout"]}
        lines[0] += "; play-outs " + ",".join(f"{d}={p}" if d else p for d, p in pairs.items())
    if result["gain"] is not None:
        lines += [
            f"  advisor's {what}: {result['advisor'].format(2, scale)}{unit} (the others in its seats: "
            f"{result['mirror'] * scale:.2f}{unit})",
            f"  gain a game, measured:          {result['gain'].format(2, scale)}{unit}",
        ]
    if "identity" in result:
        lines.append(
            f"  the same, by its own values:    {result['identity'].format(2, scale)}{unit} "
            f"(its choices less the others' at the positions it reached, {result['identity'].n} games a seat)"
        )
        lines.append(
            "  of which by decision:          "
            + ", ".join(f"{d} {v.format(2, scale)}{unit}" for d, v in result["identity_by_decision"].items())
        )
    if "predicted" not in result:
        return "\n".join(lines)
    grades = ", ".join(counted(n, name) for name, n in result["grades"].items())
    lines += [
        f"  gain a game, the review's:      {result['predicted'].format(2, scale)}{unit} "
        f"({result['predicted'].n} player-games, {result['reviewed']:,} decisions: {grades})",
        "  of which by decision:          "
        + ", ".join(f"{d} {v * scale:.2f}{unit}" for d, v in result["by_decision"].items()),
        f"  the same, on fresh deals:       {result['predicted_again'].format(2, scale)}{unit} "
        f"(each graded loss measured again: no best-of-noisy-values bias)",
    ]
    if "predicted_chosen" in result:
        lines.append(
            f"  the same, deciding on {result['samples']} deals: {result['predicted_chosen'].format(2, scale)}{unit} "
            f"(the advisor's choices there, {result['chooser_seeds']} seeds, valued as the review values them)"
        )
    return "\n".join(lines)


def main(argv=None) -> None:
    import argparse
    import json

    from .registry import names

    parser = argparse.ArgumentParser(
        prog="python -m sims.core.advisor_check", description=__doc__.split("\n\n")[0].strip()
    )
    parser.add_argument("--game", required=True, choices=names(), help="the game")
    parser.add_argument("--rules", default=None, help="rules preset (default the game's)")
    parser.add_argument(
        "--games", type=int, default=500, help="game numbers, each played once a seat (0: the review's prediction only)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=200, help="the advisor's sampled deals a decision")
    parser.add_argument("--exact-limit", type=int, default=None, help="enumerate at most this many deals")
    parser.add_argument("--review-games", type=int, default=20, help="mirror games reviewed for the prediction")
    parser.add_argument("--review-samples", type=int, default=2_000)
    parser.add_argument(
        "--against",
        default=None,
        metavar="DECISION=POLICY[,...]",
        help="the other seats' players instead of the strongest (e.g. play=maxims)",
    )
    parser.add_argument(
        "--playout",
        default=None,
        metavar="POLICY|DECISION=POLICY[,...]",
        help="the play-outs' players (default the advisor's), as sims review --playout takes them",
    )
    parser.add_argument(
        "--identity-games", type=int, default=0, help="the advisor's games a seat valued by its own values (0: none)"
    )
    parser.add_argument(
        "--chooser-seeds",
        type=int,
        default=0,
        help="advisors deciding again at each reviewed decision with --samples deals (0: none)",
    )
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    from .jobs import check_count
    from .record import playout_of

    args = parser.parse_args(argv)
    try:
        against = _pairs(args.against)
        result = check(
            args.game,
            args.rules,
            args.games,
            args.seed,
            args.samples,
            args.exact_limit,
            args.review_games,
            args.review_samples,
            progress=True,
            against=against,
            identity_games=check_count(args.identity_games, "--identity-games") if args.identity_games else 0,
            chooser_seeds=check_count(args.chooser_seeds, "--chooser-seeds") if args.chooser_seeds else 0,
            playout=playout_of(args.playout),
        )
    except ValueError as exc:
        parser.exit(2, f"{parser.prog}: {exc}\n")
    if args.json:
        print(json.dumps(result, default=lambda v: v.__dict__ if hasattr(v, "__dict__") else str(v)))
    else:
        print(render(result))


def _pairs(text: str | None) -> dict:
    """``{decision: policy}`` from ``--against DECISION=POLICY[,...]`` (checked by :func:`check`)."""
    from .record import playout_of

    pairs = playout_of(text, "--against") or {}
    if isinstance(pairs, str):
        raise ValueError(f"--against: give DECISION=POLICY[,DECISION=POLICY], got {text!r}")
    return pairs


if __name__ == "__main__":
    main()
