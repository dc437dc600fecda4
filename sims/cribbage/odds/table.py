"""Win-probability tables: looked up, written and read back.

An :class:`OddsTable` answers for one position (:meth:`OddsTable.at`), lays the
whole board out as a tidy DataFrame (:meth:`OddsTable.frame`), and writes CSV or
Parquet with its provenance; :func:`read_table` reads either back and refuses a
table made for other rules.  The tables that ship with the package live in
``sims/cribbage/data/odds`` (:func:`shipped_table`); they are built offline by
:func:`sims.cribbage.lab.odds.build.win_table`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from io import StringIO
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from scipy.special import stdtrit

from ...core import store as st
from ..rules import Rules, get_rules
from .layout import BASE_PLAYERS, N_RANKS, PEG_BINS, SHOW_BINS, check_players

SHIPPED = ("six-card", "six-card-61", "five-card")
FORMAT = "sims-odds/1"
_META_KEY = b"sims-odds"
# Shipped files store scaled integers: (column, numpy type, scale).
QUANTA = {
    "win": ("uint16", 1 / 65535),
    "win_se": ("uint16", 1e-6),
    "game_points": ("int16", 1e-4),
    "game_points_se": ("uint16", 1e-5),
}


@dataclass(frozen=True)
class DealModel:
    """What the position-aware players know of a deal, as counts over the deals played:
    ``rest[k, D, P]`` the dealer's and the pone's pegging after ``k`` cards were laid (``rest[0]``: all of
    it), ``hands[role, points]`` (0 dealer, 1 pone), ``cribs[role, lo, hi, points]`` the crib by the ranks
    the player in ``role`` threw into it; and ``totals[D, P]`` the deal's points of each (clipped to the
    target)."""

    rest: np.ndarray
    hands: np.ndarray
    cribs: np.ndarray
    totals: np.ndarray

    def frame(self) -> pd.DataFrame:
        """Tidy counts: ``part, row, column, value, count`` (zeros left out)."""
        parts = []
        for name, arr in (
            ("rest", self.rest),
            ("hands", self.hands[None]),
            ("cribs", self.cribs.reshape(1, -1, SHOW_BINS)),
            ("totals", self.totals[None]),
        ):
            idx = np.nonzero(arr)
            parts.append(
                pd.DataFrame({"part": name, "row": idx[0], "column": idx[1], "value": idx[2], "count": arr[idx]})
            )
        return pd.concat(parts, ignore_index=True)

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, kept: int, target: int) -> DealModel:
        shapes = {
            "rest": (2 * kept + 1, PEG_BINS, PEG_BINS),
            "hands": (1, 2, SHOW_BINS),
            "cribs": (1, 2 * N_RANKS * N_RANKS, SHOW_BINS),
            "totals": (1, target + 1, target + 1),
        }
        arrays = {}
        for name, shape in shapes.items():
            arr = np.zeros(shape, dtype=np.int64)
            sel = frame[frame["part"] == name]
            np.add.at(
                arr, (sel["row"].to_numpy(), sel["column"].to_numpy(), sel["value"].to_numpy()), sel["count"].to_numpy()
            )
            arrays[name] = arr
        return cls(
            arrays["rest"],
            arrays["hands"][0],
            arrays["cribs"].reshape(2, N_RANKS, N_RANKS, SHOW_BINS),
            arrays["totals"][0],
        )


@dataclass(frozen=True, eq=False)
class OddsTable:
    """The dealer's chance of winning and his expected game points from every position before a deal.

    Arrays are ``[target, target]``, indexed ``[dealer score, pone score]``; ``*_se`` their jackknife
    standard errors (intervals use Student's t with ``groups - 1`` degrees of freedom).
    """

    rules: Rules
    win: np.ndarray
    win_se: np.ndarray
    game_points: np.ndarray
    game_points_se: np.ndarray
    provenance: dict = field(default_factory=dict)
    model: DealModel | None = None

    @property
    def target(self) -> int:
        return self.rules.target

    @property
    def half_width(self) -> float:
        """The 95% interval is the estimate +- this many standard errors."""
        return t95(int(self.provenance.get("groups", 2)))

    def check_scores(self, dealer, pone) -> tuple[int, int]:
        """Scores of a position before a deal: integers 0 .. target - 1; else a one-line error."""
        out = []
        for who, score in (("dealer", dealer), ("pone", pone)):
            if isinstance(score, bool) or not isinstance(score, (int, np.integer)) or not 0 <= int(score) < self.target:
                raise ValueError(
                    f"the {who}'s score must be an integer 0..{self.target - 1} for a game to "
                    f"{self.target}, got {score!r}"
                )
            out.append(int(score))
        return out[0], out[1]

    def at(self, dealer, pone) -> dict:
        """The dealer's chance of winning from ``(dealer, pone)`` and his expected game points, with intervals."""
        d, p = self.check_scores(dealer, pone)
        t = self.half_width
        w, ws, g, gs = self.win[d, p], self.win_se[d, p], self.game_points[d, p], self.game_points_se[d, p]
        return {
            "dealer": d,
            "pone": p,
            "win": float(w),
            "win_lo": float(w - t * ws),
            "win_hi": float(w + t * ws),
            "game_points": float(g),
            "game_points_lo": float(g - t * gs),
            "game_points_hi": float(g + t * gs),
        }

    def frame(self) -> pd.DataFrame:
        """One row per position: scores, the dealer's chance of winning and game points with 95% intervals."""
        d, p = np.meshgrid(np.arange(self.target), np.arange(self.target), indexing="ij")
        t = self.half_width
        frame = pd.DataFrame({"dealer_score": d.ravel(), "pone_score": p.ravel()})
        for name, value, se in (("win", self.win, self.win_se), ("game_points", self.game_points, self.game_points_se)):
            frame[name] = value.ravel()
            frame[f"{name}_lo"] = (value - t * se).ravel()
            frame[f"{name}_hi"] = (value + t * se).ravel()
            frame[f"{name}_se"] = se.ravel()
        frame.attrs.update(rules=self.rules.name, provenance=self.provenance)
        return frame

    def point_values(self) -> pd.DataFrame:
        """What one more point is worth, at each position with both scores below ``target - 1``: to the dealer
        (``mine``: W(d + 1, p) - W(d, p)) and, against him, to the pone (``his``: W(d, p) - W(d, p + 1)), and
        ``offence`` = mine / (mine + his): above one half the dealer's own points count for more than
        keeping the pone's down."""
        w = self.win
        mine = w[1:, :-1] - w[:-1, :-1]
        his = w[:-1, :-1] - w[:-1, 1:]
        d, p = np.meshgrid(np.arange(self.target - 1), np.arange(self.target - 1), indexing="ij")
        with np.errstate(invalid="ignore", divide="ignore"):
            offence = mine / (mine + his)
        return pd.DataFrame(
            {
                "dealer_score": d.ravel(),
                "pone_score": p.ravel(),
                "mine": mine.ravel(),
                "his": his.ravel(),
                "offence": offence.ravel(),
            }
        )

    def deal_values(self) -> np.ndarray:
        """``[d, p]``: what holding the deal (the crib, the last card, his heels) is worth at each score: the
        chance of winning as the dealer on ``d`` against ``p`` less the chance as the pone on the same scores,
        ``W(d, p) - (1 - W(p, d))``."""
        return self.win - (1 - self.win.T)

    def write(self, path, quantized: bool = False) -> Path:
        """Write ``.csv`` (provenance on a first ``#`` line) or ``.parquet`` (provenance in the file's
        metadata); ``quantized`` stores scaled integers (:data:`QUANTA`, Parquet only).  The deal model,
        when there is one, goes beside it as ``<name>.model.parquet``."""
        path = Path(path)
        if path.suffix not in (".csv", ".parquet"):
            raise ValueError(f"a table file must end in .csv or .parquet, got {path}")
        if quantized and path.suffix != ".parquet":
            raise ValueError("quantized tables are written as Parquet")
        path.parent.mkdir(parents=True, exist_ok=True)
        columns = {"dealer_score": None, "pone_score": None, **{k: None for k in QUANTA}}
        frame = self.frame()[list(columns)]
        meta = {
            "format": FORMAT,
            "rules": self.rules.to_dict(),
            "provenance": self.provenance,
            "quanta": {k: v[1] for k, v in QUANTA.items()} if quantized else {},
        }
        if quantized:
            for name, (dtype, scale) in QUANTA.items():
                frame[name] = np.round(frame[name] / scale).astype(dtype)
            frame[["dealer_score", "pone_score"]] = frame[["dealer_score", "pone_score"]].astype("uint8")
        if path.suffix == ".csv":
            text = StringIO()
            text.write(f"# {json.dumps(meta)}\n")
            frame.to_csv(text, index=False, float_format="%.6g")
            st.atomic_write(path, lambda f: f.write(text.getvalue().encode()))
        else:
            _write_parquet(path, frame, meta)
        if self.model is not None:
            _write_parquet(model_path(path), self.model.frame(), {"format": FORMAT, "rules": self.rules.to_dict()})
        return path


def model_path(path: Path) -> Path:
    return path.with_name(path.name.rsplit(".", 1)[0] + ".model.parquet")


def _write_parquet(path: Path, frame: pd.DataFrame, meta: dict) -> None:
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), _META_KEY: json.dumps(meta).encode()})
    st.atomic_write(path, lambda f: pq.write_table(table, f, compression="zstd"))


def _read(path) -> tuple[pd.DataFrame, dict]:
    path = Path(path)
    try:
        if path.suffix == ".parquet":
            table = pq.read_table(path)
            meta = json.loads((table.schema.metadata or {}).get(_META_KEY, b"null"))
            frame = table.to_pandas()
        elif path.suffix == ".csv":
            with open(path) as f:
                first = f.readline()
                meta = json.loads(first[1:]) if first.startswith("#") else None
                frame = pd.read_csv(f)
        else:
            raise ValueError(f"a table file must end in .csv or .parquet, got {path}")
    except FileNotFoundError:
        raise ValueError(f"table file {path} does not exist") from None
    except (OSError, pa.ArrowException, json.JSONDecodeError, pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path} is not a board-position table ({st.one_line(exc)})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ValueError(f"{path} is not a board-position table (no {FORMAT} header)")
    return frame, meta


def read_table(path, rules=None) -> OddsTable:
    """A table written by :meth:`OddsTable.write`; with ``rules`` (a preset name or Rules), a table made for
    other rules is a one-line error."""
    path = Path(path)
    frame, meta = _read(path)
    try:
        made_for = Rules.from_dict(meta["rules"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{path}: its rules are unreadable ({st.one_line(exc)})") from None
    if rules is not None:
        check_rules(get_rules(rules), made_for, path)
    t = made_for.target
    need = {"dealer_score", "pone_score", *QUANTA}
    if not need <= set(frame.columns) or len(frame) != t * t:
        raise ValueError(f"{path}: a table for a game to {t} needs {t * t} rows with columns {', '.join(sorted(need))}")
    d, p = frame["dealer_score"].to_numpy(dtype=np.int64), frame["pone_score"].to_numpy(dtype=np.int64)
    if d.min() < 0 or p.min() < 0 or d.max() >= t or p.max() >= t or len(set(zip(d, p))) != t * t:
        raise ValueError(f"{path}: the scores must cover every position 0..{t - 1} once")
    arrays = {}
    for name in QUANTA:
        values = frame[name].to_numpy(dtype=np.float64) * meta.get("quanta", {}).get(name, 1.0)
        arr = np.empty((t, t))
        arr[d, p] = values
        arrays[name] = arr
    model = None
    if model_path(path).exists():
        model = DealModel.from_frame(_read(model_path(path))[0], made_for.kept, made_for.target)
    return OddsTable(
        made_for,
        arrays["win"],
        arrays["win_se"],
        arrays["game_points"],
        arrays["game_points_se"],
        meta.get("provenance", {}),
        model,
    )


def check_rules(wanted: Rules, made_for: Rules, where) -> None:
    """A table answers only for the rules it was made for (the preset's name aside); else a one-line error
    naming the first difference."""
    made = made_for.to_dict()
    diff = next((k for k, v in wanted.to_dict().items() if k != "name" and made.get(k) != v), None)
    if diff is not None:
        raise ValueError(
            f"{where} was made for {made_for.name!r} ({diff} {made[diff]!r}), "
            f"not for {wanted.name!r} ({diff} {wanted.to_dict()[diff]!r})"
        )


def shipped_path(rules, players: str = BASE_PLAYERS) -> Path:
    """The package's table file for a preset (:data:`SHIPPED`) and players (:data:`PLAYERS`; the file of
    :data:`BASE_PLAYERS` is ``<preset>.parquet``, the others' ``<preset>.<players>.parquet``); else a one-line
    error."""
    rules = get_rules(rules)
    check_players(players)
    preset = get_rules(rules.name) if rules.name in SHIPPED else None
    if preset is None or rules.to_dict() != preset.to_dict():
        changed = (
            ""
            if preset is None
            else " with " + ", ".join(f"{k} {v}" for k, v in rules.to_dict().items() if preset.to_dict()[k] != v)
        )
        raise ValueError(
            f"no table ships for rules {rules.name!r}{changed}; tables ship for the presets "
            f"{', '.join(SHIPPED)} (build one with sims odds --build)"
        )
    path = _shipped_file(rules.name, players)
    if not path.exists():
        have = [name for name in SHIPPED if _shipped_file(name, players).exists()]
        raise ValueError(
            f"no table of {players} self-play ships for {rules.name}; it ships for {', '.join(have) or 'no preset'}"
        )
    return path


def _shipped_file(preset: str, players: str) -> Path:
    name = preset if players == BASE_PLAYERS else f"{preset}.{players}"
    return Path(str(resources.files("sims.cribbage").joinpath("data", "odds", f"{name}.parquet")))


def shipped_table(rules="six-card", players: str = BASE_PLAYERS) -> OddsTable:
    """The table that ships with the package for a preset, of ``players``' self-play (:data:`PLAYERS`; default
    :data:`BASE_PLAYERS`, whose tables the position players are made from); read once a process (a game's
    advisor asks for it at every throw)."""
    return _read_shipped(shipped_path(rules, players), get_rules(rules))


_read_shipped = cache(read_table)


def t95(groups: int) -> float:
    """The two-sided 95% quantile of Student's t with ``groups - 1`` degrees of freedom."""
    return float(stdtrit(max(groups - 1, 1), 0.975))  # Student's t quantile (scipy.special: a light import)
