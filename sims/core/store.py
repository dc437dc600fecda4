"""The run store: a directory of tidy Parquet datasets, a manifest, and a checksummed record per batch.

Layout of a run directory::

    manifest.json                    what was run (game, job spec, batch size), with what (versions, commit)
    totals/batch-00012.parquet       long form: game, rules, run, batch, scope, who, component, n, sum, sumsq
    histograms/batch-00012.parquet   game, rules, run, batch, scope, who, component, value, count
    deals/batch-00012.parquet        (or games/, score_log/ ...) run, batch, then one row per item with
                                     named columns, if kept
    batches/batch-00012.json         batch 12 is done: its chunks, size and the SHA-256 of each of its files
    params/<sha256>.json             a policy's custom parameter table, named in the manifest by its hash
    summary.json                     the finished run's summary

Each folder is a Parquet dataset that pandas, pyarrow and DuckDB read without this
package (``pd.read_parquet(run / "totals")``, ``SELECT ... FROM 'run/totals/*.parquet'``).
Every file is written atomically (a temporary file, then ``os.replace``); a batch
counts as done only when its record in ``batches/`` exists, written last.  On load
and on resume every file is checked against the SHA-256 in its batch record, its
Parquet page checksums, and the run and batch it names (columns and metadata), so a
flipped bit, a file from another batch or another run, or a swapped file is refused
with one line.  The manifest and batch records carry a hash of their own content.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import platform
import subprocess
import tempfile
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .. import __version__

FORMAT = "sims-run/2"
MANIFEST = "manifest.json"
SUMMARY = "summary.json"
BATCHES = "batches"
PARAMS = "params"
TMP_SUFFIX = ".tmp"
TOTALS, HISTOGRAMS = "totals", "histograms"
_META_KEY = b"sims"
_DAMAGED = (pa.ArrowException, OSError, ValueError, KeyError, TypeError, IndexError)
_UMASK = os.umask(0o022)
os.umask(_UMASK)


class DamagedRun(ValueError):
    """A stored file is missing, corrupt, or belongs to another run or batch."""


def one_line(exc) -> str:
    """An exception's message on one line."""
    return " ".join(str(exc).split()) or type(exc).__name__


# ---------------------------------------------------------------- atomic files

def atomic_write(path: Path, write) -> None:
    """Call ``write(binary_file)`` on a temporary file next to ``path``, then move it into place.
    A full disk is a one-line error; the old file (if any) is left as it was."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TMP_SUFFIX)
    except OSError as exc:
        raise ValueError(f"cannot write in {path.parent}: {exc.strerror or one_line(exc)}") from None
    try:
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; results are ordinary files
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise ValueError(f"disk full while writing {path}; finished batches are kept") from None
        raise


def _sealed(obj: dict) -> dict:
    """``obj`` with a ``sha256`` of its own canonical JSON (without that key)."""
    body = {k: v for k, v in obj.items() if k != "sha256"}
    return {**body, "sha256": hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()}


def write_json(path: Path, obj, seal: bool = False) -> None:
    text = json.dumps(_sealed(obj) if seal else obj, indent=2, default=_jsonable) + "\n"
    atomic_write(path, lambda f: f.write(text.encode()))


def read_json(path: Path, what: str, sealed: bool = False) -> dict:
    """A JSON object from ``path``; missing, unreadable or (``sealed``) tampered: a one-line DamagedRun."""
    try:
        obj = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise DamagedRun(f"{what} {path} is missing") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DamagedRun(f"{what} {path} is corrupt ({one_line(exc)})") from None
    if not isinstance(obj, dict):
        raise DamagedRun(f"{what} {path} is corrupt (not a JSON object)")
    if sealed and _sealed(obj).get("sha256") != obj.get("sha256"):
        raise DamagedRun(f"{what} {path} is corrupt (its checksum does not match its content)")
    return obj


def _jsonable(obj):
    if hasattr(obj, "tolist"):
        return obj.tolist()
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fingerprint(identity: dict) -> str:
    """Short hash of a canonical JSON identity."""
    return hashlib.sha256(json.dumps(identity, sort_keys=True, default=_jsonable).encode()).hexdigest()[:16]


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
    return {"sims": __version__, "numba": numba.__version__, "numpy": np.__version__, "pandas": pd.__version__,
            "pyarrow": pa.__version__, "python": platform.python_version()}


def git_commit() -> str | None:
    """The commit of the repository holding the ``sims`` package, or None (an installed wheel, no git)."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                             text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return (out.stdout.strip() or None) if out.returncode == 0 else None


# ---------------------------------------------------------------- batches

def batch_name(index: int) -> str:
    return f"batch-{index:05d}"


def record_path(run_dir: Path, index: int) -> Path:
    return Path(run_dir) / BATCHES / f"{batch_name(index)}.json"


def finished_indices(run_dir: Path) -> set[int]:
    """Indices of the batches whose record exists (not yet checked)."""
    found = set()
    folder = Path(run_dir) / BATCHES
    if folder.is_dir():
        for path in folder.glob("batch-*.json"):
            stem = path.stem.removeprefix("batch-")
            if stem.isdigit():
                found.add(int(stem))
    return found


def _frames(batch) -> dict[str, pd.DataFrame]:
    return {TOTALS: batch.totals, HISTOGRAMS: batch.histograms, **batch.rows}


def write_batch(run_dir: Path, identity: dict, index: int, first_chunk: int, n_chunks: int, batch) -> None:
    """Write batch ``index``'s tables, then its record (which marks it done)."""
    run_dir = Path(run_dir)
    name = batch_name(index)
    files = {}
    for table, frame in _frames(batch).items():
        folder = run_dir / table
        try:
            folder.mkdir(exist_ok=True)
        except OSError as exc:
            raise ValueError(f"cannot write in {run_dir}: {exc.strerror or one_line(exc)}") from None
        data = pa.Table.from_pandas(frame, preserve_index=False)
        ids = {"game": identity["game"], "rules": identity["rules"]} if table in (TOTALS, HISTOGRAMS) else {}
        ids.update(run=identity["run"], batch=index)
        for position, (column, value) in enumerate(ids.items()):
            data = data.add_column(position, column, pa.array([value] * len(frame),
                                                              pa.int64() if column == "batch" else pa.string()))
        meta = {**identity, "batch": index, "table": table, "format": FORMAT}
        data = data.replace_schema_metadata({**(data.schema.metadata or {}), _META_KEY: json.dumps(meta)})
        path = folder / f"{name}.parquet"
        atomic_write(path, lambda f, d=data: pq.write_table(d, f, write_page_checksum=True, compression="zstd"))
        files[f"{table}/{name}.parquet"] = file_sha256(path)
    record = {"format": FORMAT, "run": identity["run"], "index": index, "first_chunk": first_chunk,
              "n_chunks": n_chunks, "n": batch.n, "kind": batch.kind, "files": files}
    write_json(record_path(run_dir, index), record, seal=True)


def _damaged(path, reason) -> DamagedRun:
    return DamagedRun(f"damaged run file {path} ({reason}); delete it and its batch record to recompute that batch")


def check_batch(run_dir: Path, identity: dict, index: int, expected: dict) -> dict:
    """The record of batch ``index`` after checking it and the hash of every file it names."""
    run_dir = Path(run_dir)
    path = record_path(run_dir, index)
    record = read_json(path, "batch record", sealed=True)
    for key, value in {"format": FORMAT, "run": identity["run"], "index": index, **expected}.items():
        if record.get(key) != value:
            raise _damaged(path, f"{key} is {record.get(key)!r}, expected {value!r}")
    if not isinstance(record.get("files"), dict) or TOTALS + f"/{batch_name(index)}.parquet" not in record["files"]:
        raise _damaged(path, "it lists no totals file")
    for name, digest in record["files"].items():
        file = run_dir / name
        if Path(name).name != f"{batch_name(index)}.parquet" or len(Path(name).parts) != 2:
            raise _damaged(path, f"it names a file of another batch, {name}")
        try:
            actual = file_sha256(file)
        except FileNotFoundError:
            raise _damaged(file, "missing") from None
        except OSError as exc:
            raise _damaged(file, exc.strerror or one_line(exc)) from None
        if actual != digest:
            raise _damaged(file, "its SHA-256 does not match the batch record")
    return record


def read_batch(run_dir: Path, identity: dict, index: int, expected: dict):
    """The Batch stored for ``index``, every file checked (see :func:`check_batch`)."""
    from .batch import Batch

    record = check_batch(run_dir, identity, index, expected)
    frames = {}
    for name in record["files"]:
        path = Path(run_dir) / name
        try:
            table = pq.read_table(path, page_checksum_verification=True)
            meta = json.loads(table.schema.metadata[_META_KEY])
        except _DAMAGED as exc:
            raise _damaged(path, one_line(exc)) from None
        runs, batches = table.column("run").unique().to_pylist(), table.column("batch").unique().to_pylist()
        if (meta.get("run") != identity["run"] or meta.get("batch") != index or meta.get("table") != Path(name).parent.name
                or runs not in ([], [identity["run"]]) or batches not in ([], [index])):
            raise _damaged(path, f"it belongs to run {meta.get('run')!r} batch {meta.get('batch')!r}")
        ids = ["game", "rules", "run", "batch"] if Path(name).parent.name in (TOTALS, HISTOGRAMS) else ["run", "batch"]
        frame = table.drop_columns(ids).to_pandas()
        frames[Path(name).parent.name] = frame
    n = record["n"]
    rows = {k: v for k, v in frames.items() if k not in (TOTALS, HISTOGRAMS)}
    for k, v in rows.items():
        if k in ("deals", "games") and len(v) != n:
            raise _damaged(Path(run_dir) / k, f"{len(v)} rows, expected {n}")
    return Batch(record["kind"], n, frames[TOTALS], frames.get(HISTOGRAMS, pd.DataFrame()), rows)


def remove_stale_temporaries(run_dir: Path) -> None:
    """Delete temporary files left by an interrupted atomic write (call with the run locked)."""
    for folder in [Path(run_dir), *[p for p in Path(run_dir).iterdir() if p.is_dir()]]:
        for tmp in folder.glob(f".*{TMP_SUFFIX}"):
            tmp.unlink(missing_ok=True)
