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
with one line.  The manifest, the batch records and the summary carry a hash of their own
content; a path a record names must lead to a table's file inside the run directory.  A run directory holds
only the folders and regular files this module writes: a symbolic link (to a folder a reader of ``totals/``
would walk into, or to a file outside the run), a named pipe, a device or a socket anywhere in it is refused
before anything is read (:func:`check_tree`), and every file is read without following a link or waiting on a
pipe, no further than the size it had when opened (:func:`read_regular`).
:func:`verify` checks a whole run (``sims verify``); :class:`RunStore` opens, locks and fills one.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import platform
import re
import stat
import subprocess
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .. import __version__
from .jobs import RNG, Plan
from .paths import check_length, file_kind, shown
from .spec import job_from_spec, job_spec

FORMAT = "sims-run/2"
MANIFEST = "manifest.json"
SUMMARY = "summary.json"
BATCHES = "batches"
PARAMS = "params"
LOCK = ".lock"
TMP_SUFFIX = ".tmp"
TOTALS, HISTOGRAMS = "totals", "histograms"
_META_KEY = b"sims"
_BATCH_FILE = re.compile(r"[a-z][a-z0-9_]*/batch-[0-9]{5,}\.parquet")  # a table's folder, then the file: inside
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


def _not_regular(path: Path, mode: int) -> DamagedRun:
    kind = file_kind(mode) or "not a file"
    return DamagedRun(
        f"{path} in a run directory is not a regular file ({kind}): a run holds only the files sims "
        f"writes, and reading it would not end; remove it"
    )


def _link(path: Path) -> DamagedRun:
    return DamagedRun(
        f"{path} in a run directory is a symbolic link: a run holds only the files sims writes, and "
        f"a reader of its folders would follow it (outside the run, or round again); remove it"
    )


def read_regular(path: Path, what: str) -> bytes:
    """The bytes of the regular file ``path``, opened without following a symbolic link or waiting on a named
    pipe, read no further than its size when opened; anything else is a one-line DamagedRun."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise DamagedRun(f"{what} {path} is missing") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _link(path) from None
        raise DamagedRun(f"{what} {path} cannot be read ({exc.strerror or one_line(exc)})") from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _not_regular(path, info.st_mode)
        return f.read(info.st_size)


def check_tree(run_dir: Path) -> set[str]:
    """The regular files under ``run_dir`` (paths relative to it, ``/``-separated), after refusing in one line
    any symbolic link, named pipe, device or socket among them (links are not followed)."""
    run_dir = Path(run_dir)
    files, folders = set(), [run_dir]
    while folders:
        folder = folders.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError as exc:
            raise DamagedRun(
                f"folder {folder} of run {run_dir} cannot be read ({exc.strerror or one_line(exc)})"
            ) from None
        for entry in entries:
            mode = entry.stat(follow_symlinks=False).st_mode
            if stat.S_ISLNK(mode):
                raise _link(Path(entry.path))
            if stat.S_ISDIR(mode):
                folders.append(Path(entry.path))
            elif stat.S_ISREG(mode):
                files.add(Path(entry.path).relative_to(run_dir).as_posix())
            else:
                raise _not_regular(Path(entry.path), mode)
    return files


def read_json(path: Path, what: str, sealed: bool = False) -> dict:
    """A JSON object from ``path`` (:func:`read_regular`); missing, unreadable or (``sealed``) tampered: a
    one-line DamagedRun."""
    try:
        obj = json.loads(read_regular(path, what))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
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
    return {
        "sims": __version__,
        "numba": numba.__version__,
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "pyarrow": pa.__version__,
        "python": platform.python_version(),
    }


def git_commit() -> str | None:
    """The commit of the repository holding the ``sims`` package, or None (an installed wheel, no git)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
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
            data = data.add_column(
                position, column, pa.array([value] * len(frame), pa.int64() if column == "batch" else pa.string())
            )
        meta = {**identity, "batch": index, "table": table, "format": FORMAT}
        data = data.replace_schema_metadata({**(data.schema.metadata or {}), _META_KEY: json.dumps(meta)})
        path = folder / f"{name}.parquet"
        atomic_write(path, lambda f, d=data: pq.write_table(d, f, write_page_checksum=True, compression="zstd"))
        files[f"{table}/{name}.parquet"] = file_sha256(path)
    record = {
        "format": FORMAT,
        "run": identity["run"],
        "index": index,
        "first_chunk": first_chunk,
        "n_chunks": n_chunks,
        "n": batch.n,
        "kind": batch.kind,
        "files": files,
    }
    write_json(record_path(run_dir, index), record, seal=True)


def _damaged(path, reason) -> DamagedRun:
    return DamagedRun(f"damaged run file {path} ({reason}); delete it and its batch record to recompute that batch")


def check_batch(run_dir: Path, identity: dict, index: int, expected: dict) -> dict:
    """The record of batch ``index`` after checking it and the hash of every file it names."""
    return _checked_files(run_dir, identity, index, expected)[0]


def _checked_files(run_dir: Path, identity: dict, index: int, expected: dict) -> tuple[dict, dict[str, bytes]]:
    """The record of batch ``index`` and the bytes of every file it names (:func:`read_regular`), each checked
    against the SHA-256 the record gives it."""
    run_dir = Path(run_dir)
    path = record_path(run_dir, index)
    record = read_json(path, "batch record", sealed=True)
    for key, value in {"format": FORMAT, "run": identity["run"], "index": index, **expected}.items():
        if record.get(key) != value:
            raise _damaged(path, f"{key} is {record.get(key)!r}, expected {value!r}")
    if not isinstance(record.get("files"), dict) or TOTALS + f"/{batch_name(index)}.parquet" not in record["files"]:
        raise _damaged(path, "it lists no totals file")
    contents = {}
    for name, digest in record["files"].items():
        file = run_dir / name
        if not isinstance(name, str) or not _BATCH_FILE.fullmatch(name):
            raise _damaged(path, f"it names {name!r}, not a table's file in this run directory")
        if Path(name).name != f"{batch_name(index)}.parquet":
            raise _damaged(path, f"it names a file of another batch, {name}")
        if not file.exists() and not file.is_symlink():
            raise _damaged(file, "missing")
        contents[name] = read_regular(file, "table file")
        if hashlib.sha256(contents[name]).hexdigest() != digest:
            raise _damaged(file, "its SHA-256 does not match the batch record")
    return record, contents


def read_batch(run_dir: Path, identity: dict, index: int, expected: dict):
    """The Batch stored for ``index``, every file checked (see :func:`check_batch`)."""
    from .batch import Batch

    record, contents = _checked_files(run_dir, identity, index, expected)
    frames = {}
    for name, data in contents.items():
        path = Path(run_dir) / name
        try:
            table = pq.read_table(pa.BufferReader(data), page_checksum_verification=True)
            meta = json.loads(table.schema.metadata[_META_KEY])
        except _DAMAGED as exc:
            raise _damaged(path, one_line(exc)) from None
        runs, batches = table.column("run").unique().to_pylist(), table.column("batch").unique().to_pylist()
        if (
            meta.get("run") != identity["run"]
            or meta.get("batch") != index
            or meta.get("table") != Path(name).parent.name
            or runs not in ([], [identity["run"]])
            or batches not in ([], [index])
        ):
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


# ---------------------------------------------------------------- a run directory


def check_new_path(path: Path) -> None:
    """Refuse, before anything is created, a directory whose path or a name in it is longer than the
    filesystem takes (``mkdir -p`` would make the parents, then fail)."""
    check_length(path, f"output {shown(path)}")


class RunStore:
    """A run directory (see :mod:`sims.core.store`): opened, locked, checked against the job."""

    def __init__(self, path, job):
        self.path = Path(path)
        self.job = job
        self.manifest = None
        self._lock = None

    @property
    def identity(self) -> dict:
        return {"game": self.job.game.name, "rules": self.job.rules.name, "run": self.manifest["run"]}

    def open(self) -> int | None:
        """Check the directory can hold this job and lock it; the batch size of an existing run, else None."""
        for parent in [self.path, *self.path.parents]:
            if parent.exists() and not parent.is_dir():
                raise ValueError(f"output {self.path}: {parent} exists and is not a directory")
        manifest_path = self.path / MANIFEST
        if (
            self.path.is_dir()
            and not manifest_path.exists()
            and any(p.name != LOCK and not p.name.endswith(TMP_SUFFIX) for p in self.path.iterdir())
        ):
            raise ValueError(
                f"output directory {self.path} is not empty and holds no sims run ({MANIFEST}); choose another --out"
            )
        if self.path.is_dir():
            check_tree(self.path)
        check_new_path(self.path)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ValueError(f"cannot create {self.path}: {exc.strerror or one_line(exc)}") from None
        self._take_lock()
        if manifest_path.exists():
            self.manifest = read_manifest(self.path)
            self._refuse_if_different(self.manifest)
            return self.manifest["batch_chunks"]
        return None

    def _take_lock(self):
        import fcntl

        f = open(self.path / LOCK, "w")  # noqa: SIM115 - held open for the run: the lock lives with it
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise ValueError(f"run directory {self.path} is in use by another sims run") from None
        self._lock = f

    def close(self):
        if self._lock is not None:
            (self.path / ".lock").unlink(missing_ok=True)  # still held: a rival run opening it now is refused
            self._lock.close()
            self._lock = None

    def _spec(self) -> dict:
        spec = job_spec(self.job)
        spec.pop("tables", None)
        return spec

    def _refuse_if_different(self, existing: dict):
        diff = first_difference(
            {"sims": versions()["sims"], "job": self._spec()},
            {"sims": existing["versions"].get("sims"), "job": existing["job"]},
        )
        if diff:
            raise ValueError(
                f"output directory {self.path} holds another run ({diff}); choose another --out or delete it"
            )

    def begin(self, plan: Plan) -> set[int]:
        """Write the manifest of a new run (or check the batch size of an old one); the finished batches."""
        if self.manifest is None:
            spec = job_spec(self.job)
            for digest, values in spec.pop("tables", {}).items():
                (self.path / PARAMS).mkdir(exist_ok=True)
                write_json(self.path / PARAMS / f"{digest}.json", {"sha256": digest, "values": values})
            manifest = {
                "format": FORMAT,
                "game": self.job.game.name,
                "job": spec,
                "batch_chunks": plan.batch_chunks,
                "n_batches": plan.n_batches,
                "n_chunks": self.job.n_chunks,
                "rng": RNG,
                "versions": versions(),
                "git_commit": git_commit(),
                "created": datetime.now(UTC).isoformat(timespec="seconds"),
            }
            manifest["run"] = fingerprint(
                {"job": spec, "batch_chunks": plan.batch_chunks, "sims": manifest["versions"]["sims"]}
            )
            (self.path / BATCHES).mkdir(exist_ok=True)
            write_json(self.path / MANIFEST, manifest, seal=True)
            self.manifest = read_manifest(self.path)
        elif self.manifest["batch_chunks"] != plan.batch_chunks:
            raise ValueError(
                f"output directory {self.path} was started with batch_chunks "
                f"{self.manifest['batch_chunks']}, not {plan.batch_chunks}; drop --batch-chunks to resume"
            )
        remove_stale_temporaries(self.path)
        done = finished_indices(self.path)
        for index in sorted(done):
            self.check(plan, index)
        return done

    def _expected(self, plan: Plan, index: int) -> dict:
        first, n_chunks = plan.chunks(index)
        return {"first_chunk": first, "n_chunks": n_chunks, "n": plan.items(index), "kind": self.job.kind}

    def check(self, plan: Plan, index: int) -> None:
        if not 0 <= index < plan.n_batches:
            raise DamagedRun(f"damaged run {self.path}: batch record {index} is outside 0..{plan.n_batches - 1}")
        check_batch(self.path, self.identity, index, self._expected(plan, index))

    def write(self, plan: Plan, index: int, batch) -> None:
        write_batch(self.path, self.identity, index, *plan.chunks(index), batch)

    def read(self, plan: Plan, index: int):
        return read_batch(self.path, self.identity, index, self._expected(plan, index))


def read_manifest(path: Path) -> dict:
    """A run directory's manifest, its checksum and shape checked; else a one-line error."""
    manifest = read_json(Path(path) / MANIFEST, "manifest", sealed=True)
    if manifest.get("format") != FORMAT:
        raise ValueError(f"{path} is a {manifest.get('format')!r} run directory; this sims reads {FORMAT!r}")
    missing = [k for k in ("run", "job", "batch_chunks", "versions") if k not in manifest]
    if missing or not isinstance(manifest["versions"], dict) or not isinstance(manifest["job"], dict):
        what = f"no {missing[0]!r}" if missing else "job or versions is not a table"
        raise DamagedRun(f"manifest {Path(path) / MANIFEST} is corrupt ({what})")
    bc = manifest["batch_chunks"]
    if isinstance(bc, bool) or not isinstance(bc, int) or bc < 1:
        raise DamagedRun(
            f"manifest {Path(path) / MANIFEST} is corrupt (batch_chunks is {bc!r}, not a positive integer)"
        )
    return manifest


def open_run(path) -> tuple[RunStore, Plan]:
    """The store and plan of an existing run directory, rebuilt from its manifest (policies without code)."""
    path = Path(path)
    if not path.is_dir():
        raise ValueError(f"run directory {path} does not exist")
    check_tree(path)
    manifest = read_manifest(path)
    try:
        job = job_from_spec(manifest["job"], run_dir=path, import_functions=False)
    except (KeyError, TypeError, ValueError) as exc:
        raise DamagedRun(f"manifest {path / MANIFEST} is corrupt ({one_line(exc)})") from None
    store = RunStore(path, job)
    store.manifest = manifest
    if (path / SUMMARY).exists():
        read_summary(store)
    return store, Plan(job, manifest["batch_chunks"])


def write_summary(store: RunStore, summary: dict) -> None:
    """``summary.json``: the finished run's summary, naming its run, with a hash of its own content."""
    write_json(store.path / SUMMARY, {**summary, "run": store.manifest["run"]}, seal=True)


def read_summary(store: RunStore) -> dict:
    """The stored summary (without the run and hash it carries), checked; else a one-line DamagedRun."""
    path = store.path / SUMMARY
    summary = read_json(path, "summary", sealed=True)
    if summary.get("run") != store.manifest["run"]:
        raise _damaged(path, f"it belongs to run {summary.get('run')!r}")
    return {k: v for k, v in summary.items() if k not in ("run", "sha256")}


def verify(path) -> dict:
    """Check every file of a finished run against its manifest.

    The manifest's and the summary's own hashes, each batch record's, the SHA-256, page checksums and run of
    every file a record names, the parameter tables by their SHA-256, and that no other file, link, pipe or device lies among them (a
    reader of a folder would count it, follow it, or wait on it for ever: ``check_tree``).

    Parameters
    ----------
    path : str or pathlib.Path
        The run directory.

    Returns
    -------
    dict
        Counts of what was checked.

    Raises
    ------
    DamagedRun
        On the first bad file, in one line naming it.
    """
    store, plan = open_run(path)
    path = store.path
    files = check_tree(path) - {LOCK}
    missing = [i for i in range(plan.n_batches) if not record_path(path, i).exists()]
    if missing:
        raise DamagedRun(
            f"run {path} is incomplete: {record_path(path, missing[0])} is missing ({len(missing)} "
            f"of {plan.n_batches} batches); run the same command again to finish it"
        )
    if not (path / SUMMARY).exists():
        raise DamagedRun(f"run {path} is unfinished: {path / SUMMARY} is missing; run the same command again")
    known = {MANIFEST, SUMMARY}
    known |= {f"{PARAMS}/{digest}.json" for digest in job_spec(store.job).get("tables", {})}
    for index in range(plan.n_batches):
        store.read(plan, index)  # every file its record names, checked
        known.add(f"{BATCHES}/{batch_name(index)}.json")
        known.update(read_json(record_path(path, index), "batch record", sealed=True)["files"])
    unlisted = sorted(files - known)
    if unlisted:
        raise DamagedRun(
            f"unlisted file {path / unlisted[0]}: no batch record or manifest of the run names it, and "
            f"a reader of its folder would count it; move it out of the run directory"
        )
    return {"run": str(path), "batches": plan.n_batches, "files": len(files)}
