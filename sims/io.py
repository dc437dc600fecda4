"""Run directories on disk: a JSON manifest with provenance and one Parquet shard per batch.

Layout of a run directory::

    manifest.json                  what was run (job spec, batch size) and with what (versions, git commit)
    shards/batch-00012.parquet     batch 12's totals; written last, so its presence means "batch 12 done"
    shards/batch-00012.rows.parquet  batch 12's per-item rows (games always; deals with records)
    summary.json                   the finished run's summary (``result.summary``)

Every file is written atomically: to a temporary file in the same directory, then
``os.replace``, so a crash (even ``kill -9``) leaves either the old state or the new
file, never a partial one.  A totals shard is a table with one row per total array
(name, dtype, shape, values); a rows shard has one row per deal or game and one
column per row array (multi-dimensional rows as fixed-size lists).  Both carry the
batch's chunk range and the run's fingerprint in their Parquet metadata, so a shard
from another run or another batch is recognised and refused.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import platform
import subprocess
import tempfile
from pathlib import Path

import numba
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from . import __version__
from .cribbage.engine import ROW_ARRAYS, Batch, Job
from .cribbage.policies import Policy
from .cribbage.rules import Rules

FORMAT = "sims-run/1"
MANIFEST = "manifest.json"
SUMMARY = "summary.json"
SHARDS = "shards"
TMP_SUFFIX = ".tmp"
_META_KEY = b"sims"
_DAMAGED = (pa.ArrowException, OSError, ValueError, KeyError, TypeError, IndexError)   # what a bad file raises


# ---------------------------------------------------------------- atomic files

_UMASK = os.umask(0o022)
os.umask(_UMASK)


def atomic_write(path: Path, write) -> None:
    """Call ``write(binary_file)`` on a temporary file next to ``path``, then move it into place."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TMP_SUFFIX)
    try:
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; results are ordinary files
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_json(path: Path, obj) -> None:
    text = json.dumps(obj, indent=2, default=_jsonable) + "\n"
    atomic_write(path, lambda f: f.write(text.encode()))


def read_json(path: Path, what: str) -> dict:
    """A JSON object from ``path``; a missing or unreadable file is a one-line ValueError."""
    try:
        obj = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ValueError(f"{what} {path} is missing") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{what} {path} is corrupt ({one_line(exc)})") from None
    if not isinstance(obj, dict):
        raise ValueError(f"{what} {path} is corrupt (not a JSON object)")
    return obj


def remove_stale_temporaries(directory: Path) -> None:
    """Delete temporary files left by an interrupted atomic write (call with the run locked)."""
    for tmp in Path(directory).glob(f".*{TMP_SUFFIX}"):
        tmp.unlink(missing_ok=True)


def _jsonable(obj):
    if hasattr(obj, "tolist"):
        return obj.tolist()
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def one_line(exc) -> str:
    """An exception's message on one line."""
    return " ".join(str(exc).split()) or type(exc).__name__


# ---------------------------------------------------------------- job spec

def _function_path(fn) -> str | None:
    """``module:qualname`` of an njit policy when a worker could import it, else None."""
    py = getattr(fn, "py_func", None)
    if py is None or py.__module__ in (None, "__main__") or "<" in py.__qualname__:
        return None
    return f"{py.__module__}:{py.__qualname__}"


def job_spec(job: Job) -> dict:
    """Everything that determines a job's numbers, as JSON (policies by name, params and function)."""
    def policies(seats):
        return [{"name": p.name, "params": list(p.params), "function": _function_path(p.fn)} for p in seats]
    return {"kind": job.kind, "rules": job.rules.to_dict(), "discard": policies(job.discard),
            "peg": policies(job.peg), "seed": job.seed, "n": job.n, "chunk_size": job.chunk_size,
            "records": job.records, "score_log": job.score_log}


def job_from_spec(spec: dict, import_functions: bool = True) -> Job:
    """Rebuild a Job from :func:`job_spec`; without ``import_functions`` the policies carry no code
    (enough to summarize stored results)."""
    def policies(kind):
        return tuple(Policy(p["name"], kind, _import_function(kind, p) if import_functions else None,
                            tuple(float(x) for x in p["params"])) for p in spec[kind])
    return Job(spec["kind"], Rules.from_dict(spec["rules"]), policies("discard"), policies("peg"), spec["seed"],
               spec["n"], spec["records"], spec["score_log"], spec["chunk_size"])


def _import_function(kind: str, policy: dict):
    path = policy["function"]
    if path is None:
        raise ValueError(f"{kind} policy {policy['name']!r} is not importable from a module (defined in a notebook "
                         f"or script?): move it into a module that the workers can import")
    module, _, name = path.partition(":")
    try:
        fn = importlib.import_module(module)
        for part in name.split("."):
            fn = getattr(fn, part)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"{kind} policy {policy['name']!r}: cannot import {path} ({one_line(exc)})") from None
    return fn


def fingerprint(identity: dict) -> str:
    """Short hash of a canonical JSON identity."""
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]


def first_difference(here, there, path: str = "") -> str | None:
    """``"key: A here, B there"`` for the first differing key of two JSON values, else None."""
    if isinstance(here, dict) and isinstance(there, dict):
        for key in sorted(set(here) | set(there), key=str):
            found = first_difference(here.get(key), there.get(key), f"{path}.{key}" if path else str(key))
            if found:
                return found
        return None
    if isinstance(here, list) and isinstance(there, list) and len(here) == len(there):
        for i, (a, b) in enumerate(zip(here, there)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if here == there else f"{path or 'value'}: {json.dumps(here)} here, {json.dumps(there)} there"


# ---------------------------------------------------------------- provenance

def versions() -> dict:
    return {"sims": __version__, "numba": numba.__version__, "numpy": np.__version__, "pyarrow": pa.__version__,
            "python": platform.python_version()}


def git_commit() -> str | None:
    """The commit of the repository holding the ``sims`` package, or None (not a checkout, no git)."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                             text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return (out.stdout.strip() or None) if out.returncode == 0 else None


# ---------------------------------------------------------------- shards

def shard_paths(run_dir: Path, index: int) -> tuple[Path, Path]:
    """(totals, rows) paths of batch ``index``."""
    base = Path(run_dir) / SHARDS / f"batch-{index:05d}"
    return base.with_suffix(".parquet"), base.with_suffix(".rows.parquet")


def write_shard(run_dir: Path, index: int, first_chunk: int, n_chunks: int, batch: Batch, run_id: str) -> Path:
    """Write batch ``index`` atomically: its rows file (if any) first, then its totals file."""
    totals_path, rows_path = shard_paths(run_dir, index)
    meta = {"format": FORMAT, "run": run_id, "kind": batch.kind, "index": index, "first_chunk": first_chunk,
            "n_chunks": n_chunks, "n": batch.n}
    rows = {k: v for k, v in batch.arrays.items() if k in ROW_ARRAYS}
    if rows:
        columns, shapes = {}, {}
        for key, value in rows.items():
            columns[key] = _row_column(value)
            shapes[key] = [str(value.dtype), list(value.shape[1:])]
        table = pa.table(columns).replace_schema_metadata({_META_KEY: json.dumps({**meta, "shapes": shapes})})
        atomic_write(rows_path, lambda f: pq.write_table(table, f))
    totals = [(k, v) for k, v in batch.arrays.items() if k not in ROW_ARRAYS]
    table = pa.table({"name": [k for k, _ in totals], "dtype": [str(v.dtype) for _, v in totals],
                      "shape": pa.array([list(v.shape) for _, v in totals], pa.list_(pa.int64())),
                      "values": pa.array([v.ravel().astype(np.int64) for _, v in totals], pa.list_(pa.int64()))})
    table = table.replace_schema_metadata({_META_KEY: json.dumps({**meta, "rows": sorted(rows)})})
    atomic_write(totals_path, lambda f: pq.write_table(table, f))
    return totals_path


def _row_column(value: np.ndarray) -> pa.Array:
    flat = np.ascontiguousarray(value).reshape(value.shape[0], -1)
    if value.ndim == 1:
        return pa.array(value)
    return pa.FixedSizeListArray.from_arrays(pa.array(flat.ravel()), flat.shape[1])


def _corrupt(path, reason) -> ValueError:
    return ValueError(f"corrupt shard {path} ({reason}); delete it to recompute that batch")


def shard_meta(path: Path) -> dict:
    """The metadata of a totals shard (reads only the Parquet footer)."""
    try:
        raw = pq.read_schema(path).metadata or {}
        meta = json.loads(raw[_META_KEY])
    except FileNotFoundError:
        raise
    except _DAMAGED as exc:
        raise _corrupt(path, one_line(exc)) from None
    return meta


def check_shard(path: Path, expected: dict) -> dict:
    """Metadata of a totals shard after checking it matches ``expected`` (run, kind, index, chunks, n)
    and that its rows file, if any, has ``n`` rows."""
    meta = shard_meta(path)
    for key, value in expected.items():
        if meta.get(key) != value:
            raise _corrupt(path, f"{key} is {meta.get(key)!r}, expected {value!r}")
    if meta.get("rows"):
        rows_path = shard_paths(path.parent.parent, meta["index"])[1]
        try:
            n_rows = pq.read_metadata(rows_path).num_rows
        except FileNotFoundError:
            raise _corrupt(path, f"its rows file {rows_path.name} is missing") from None
        except _DAMAGED as exc:
            raise _corrupt(rows_path, one_line(exc)) from None
        if n_rows != meta["n"]:
            raise _corrupt(rows_path, f"{n_rows} rows, expected {meta['n']}")
    return meta


def read_shard(path: Path, expected: dict) -> Batch:
    """The Batch stored in a totals shard (and its rows file), checked against ``expected``."""
    meta = check_shard(path, expected)
    arrays = {}
    try:
        table = pq.read_table(path)
        for name, dtype, shape, values in zip(*(table.column(c).to_pylist() for c in
                                                  ("name", "dtype", "shape", "values"))):
            arrays[name] = np.asarray(values, dtype=np.int64).astype(dtype).reshape(shape)
    except _DAMAGED as exc:
        raise _corrupt(path, one_line(exc)) from None
    if meta["rows"]:
        rows_path = shard_paths(path.parent.parent, meta["index"])[1]
        try:
            table = pq.read_table(rows_path)
            shapes = json.loads(table.schema.metadata[_META_KEY])["shapes"]
            for key, (dtype, trailing) in shapes.items():
                column = table.column(key).combine_chunks()
                if trailing:
                    column = column.flatten()
                arrays[key] = column.to_numpy().astype(dtype, copy=False).reshape([meta["n"], *trailing])
        except _DAMAGED as exc:
            raise _corrupt(rows_path, one_line(exc)) from None
    return Batch(meta["kind"], meta["n"], arrays)
