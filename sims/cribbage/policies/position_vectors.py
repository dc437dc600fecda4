"""The position players' named parameter vectors, shipped as data: read in milliseconds instead of rebuilt.

The vector of the expected_peg + distilled tables (:data:`PLAYER_VECTORS`, :func:`players_vector`: the chance of
winning ``sims peg --score`` gives) ships beside them.

:func:`named_tables` (``shipped`` and ``shipped-distilled``, on ``defensive`` or ``distilled`` pegging outside the
zone: :mod:`.position`) are made from the board-position tables and the baseline players' tables that ship with
the package (:data:`INPUTS`), a third of a second of Parquet reading and arithmetic at every start.  The same
vectors ship in ``data/position`` as ``.npy`` files, memory-mapped when read, with a manifest giving
the format, the SHA-256 of each input they were made from and of each vector.  :func:`load` refuses
(returns None for) data whose format, inputs or bytes differ, and the caller rebuilds the vectors from
the inputs; a test rebuilds them and compares bit for bit, so code that changes how they are made
fails it until the data are written again::

    python -m sims.cribbage.policies.position_vectors      # rebuild and write data/position
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

FORMAT = "sims-position-vectors/1"
FOLDER = "data/position"
MANIFEST = "vectors.json"
# The vectors the position players know by name (their TableParams), and by players (sims.cribbage.odds.layout
# .PLAYERS) the vector made from the tables of those players' self-play, which the chance of winning after a
# play reads (sims peg --score: sims.cribbage.advice); the players of other tables get theirs built.
POLICY_VECTORS = ("shipped", "shipped-distilled")
PLAYER_VECTORS = {"expected_net+defensive": "shipped", "expected_peg+distilled": "expected_peg+distilled"}
# The package data the vectors are made from (paths under sims/cribbage).
INPUTS = (
    *(
        f"data/odds/{preset}{players}{part}.parquet"
        for players in ("", ".expected_peg+distilled")
        for preset in ("six-card", "six-card-61", "five-card")
        for part in ("", ".model")
    ),
    "data/odds/distilled-peg.json",
    "data/kept-pegging.json",
    "data/crib_discard_tables.csv",
    "data/six_card_self_play.csv",
)


def _package() -> Path:
    return Path(str(resources.files("sims.cribbage")))


def _sha256(data) -> str:
    return hashlib.sha256(data).hexdigest()


def input_hashes(package: Path | None = None) -> dict[str, str]:
    """``{input: SHA-256}`` of the files of :data:`INPUTS` as they are now."""
    package = package or _package()
    return {name: _sha256((package / name).read_bytes()) for name in INPUTS}


@cache
def _vectors() -> dict[str, np.ndarray]:
    """The shipped data, or the vectors built from the tables when those data are not the tables' now: checked
    (every input and vector hashed) once a process."""
    return load() or build()


@cache
def named_tables() -> dict[str, tuple]:
    """The vectors the position players know by name (their ``TableParams``)."""
    vectors = _vectors()
    return {name: tuple(vectors[name].tolist()) for name in POLICY_VECTORS}


@cache
def players_vector(players: str) -> np.ndarray:
    """The vector of the board-position tables of ``players``' self-play (a name of
    :data:`sims.cribbage.odds.layout.PLAYERS`): shipped (:data:`PLAYER_VECTORS`), else built from their tables."""
    from ..odds.layout import check_players

    if check_players(players) in PLAYER_VECTORS:
        return np.asarray(_vectors()[PLAYER_VECTORS[players]], dtype=np.float64)
    return _players_vector(players)


def _players_vector(players: str) -> np.ndarray:
    from ..odds.table import shipped_table
    from .position import PRESETS, position_vector

    return position_vector([shipped_table(preset, players) for preset in PRESETS])


def build() -> dict[str, np.ndarray]:
    """The vectors made from the inputs (slow: it reads the board-position tables)."""
    from .position import position_vector

    return {
        "shipped": position_vector(),
        "shipped-distilled": position_vector(base="distilled"),
        "expected_peg+distilled": _players_vector("expected_peg+distilled"),
    }


def write(folder: Path | None = None) -> Path:
    """Build the vectors and write them with their manifest into ``folder`` (default the package's data);
    returns the manifest's path."""
    folder = Path(folder) if folder is not None else _package() / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    vectors = {}
    for name, values in build().items():
        values = np.ascontiguousarray(values, dtype="<f8")
        np.save(folder / f"{name}.npy", values, allow_pickle=False)
        vectors[name] = {"file": f"{name}.npy", "size": int(values.size), "sha256": _sha256(values.tobytes())}
    manifest = folder / MANIFEST
    manifest.write_text(
        json.dumps({"format": FORMAT, "inputs": input_hashes(), "vectors": vectors}, indent=1) + "\n", encoding="utf-8"
    )
    return manifest


def load(folder: Path | None = None) -> dict[str, np.ndarray] | None:
    """The shipped vectors, memory-mapped and read-only; None when the data are missing, of another format, made
    from other inputs than the package's now, or not the bytes the manifest names."""
    folder = Path(folder) if folder is not None else _package() / FOLDER
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        if manifest.get("format") != FORMAT or manifest.get("inputs") != input_hashes():
            return None
        out = {}
        for name, entry in manifest["vectors"].items():
            values = np.load(folder / entry["file"], mmap_mode="r", allow_pickle=False)
            if (
                values.dtype != np.dtype("<f8")
                or values.shape != (entry["size"],)
                or _sha256(values.data) != entry["sha256"]
            ):
                return None
            out[name] = values
        return out
    except (OSError, ValueError, KeyError, TypeError):
        return None


if __name__ == "__main__":  # pragma: no cover
    print(write())
