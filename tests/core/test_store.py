"""The run store: tidy Parquet that pandas, pyarrow and DuckDB read by column name, labelled manifests,
and damaged or foreign files refused with one line, never read as different numbers."""

from __future__ import annotations

import json
import random
import shutil

import numpy as np
import pandas as pd
import pyarrow.dataset as ds
import pytest

from sims.cli import main
from sims.core import store as st
from sims.core.jobs import Job
from sims.core.runner import load_run, run
from sims.cribbage.crib_tables import reference_table, table_params

GREEDY = {"discard": "greedy", "peg": "greedy"}


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    path = tmp_path_factory.mktemp("runs") / "deals"
    job = Job.make("cribbage", "deals", "six-card", GREEDY, 3 * 4096, seed=5, records=True)
    return path, run(job, path, batch_chunks=1, progress=False)


def fresh_copy(stored, tmp_path):
    path, _ = stored
    shutil.copytree(path, tmp_path / "run", ignore=shutil.ignore_patterns(".lock"))
    return tmp_path / "run"


def test_tidy_tables_read_by_name_without_sims(stored):
    path, result = stored
    totals = pd.read_parquet(path / "totals")
    assert list(totals.columns) == ["game", "rules", "run", "batch", "scope", "who", "component", "n", "sum", "sumsq"]
    assert set(totals["batch"]) == {0, 1, 2} and set(totals["game"]) == {"cribbage"}
    dealer = totals[(totals["scope"] == "role") & (totals["who"] == "dealer") & (totals["component"] == "total")]
    assert dealer["sum"].sum() / dealer["n"].sum() == pytest.approx(
        result.table().set_index(["role", "component"]).loc[("dealer", "total"), "mean"], abs=0
    )
    hist = ds.dataset(path / "histograms").to_table().to_pandas()
    assert {"scope", "who", "component", "value", "count"} <= set(hist.columns)
    assert hist[(hist["who"] == "pone") & (hist["component"] == "hand")]["count"].sum() == 3 * 4096
    deals = pd.read_parquet(path / "deals")
    assert len(deals) == 3 * 4096 and {"run", "batch", "deal", "dealer", "dealer_hand", "pone_pegging"} <= set(
        deals.columns
    )


def test_duckdb_queries_a_run_by_column_name(stored):
    duckdb = pytest.importorskip("duckdb")
    path, result = stored
    mean = duckdb.sql(
        f"SELECT sum(sum) / sum(n) AS mean FROM '{path}/totals/*.parquet' "
        "WHERE scope = 'role' AND who = 'pone' AND component = 'hand'"
    ).fetchall()[0][0]
    expected = result.table().set_index(["role", "component"]).loc[("pone", "hand"), "mean"]
    assert mean == pytest.approx(expected, rel=1e-12)


def test_manifest_labels_parameters_and_keeps_custom_tables_by_hash(tmp_path):
    table = table_params(reference_table("hessel"))
    custom = tuple(np.round(table + 0.25, 3))
    policies = {
        "discard": [{"name": "expected_net"}, {"name": "expected_net", "params": list(custom)}],
        "peg": {"name": "defensive", "params": [1, 0.5, 0.5, 0]},
    }
    job = Job.make("cribbage", "deals", "six-card", policies, 500, seed=1)
    reference = run(job, progress=False)
    run(job, tmp_path, progress=False)
    manifest = json.loads((tmp_path / st.MANIFEST).read_text())
    discard = manifest["job"]["policies"]["discard"]
    assert discard[0]["params"]["table"] == "schell" and len(discard[0]["params"]["sha256"]) == 64
    assert discard[1]["params"]["table"] == "custom"
    assert manifest["job"]["policies"]["peg"][0]["params"] == {
        "risk_weight": 1.0,
        "count_penalty": 0.5,
        "pair_bonus": 0.5,
        "keep_close": 0.0,
    }
    assert _longest_list(manifest) < 20 and len(json.dumps(manifest)) < 6000  # no table values, only names
    saved = json.loads((tmp_path / "params" / f"{discard[1]['params']['sha256']}.json").read_text())
    assert tuple(saved["values"]) == custom
    assert load_run(tmp_path).summary == reference.summary


def _longest_list(obj) -> int:
    """The most items of any list in a JSON document (a table's 338 values would be one)."""
    if isinstance(obj, dict):
        return max(map(_longest_list, obj.values()), default=0)
    if isinstance(obj, list):
        return max([len(obj), *map(_longest_list, obj)])
    return 0


def _all_files(path):
    return [p for p in sorted(path.rglob("*")) if p.is_file() and p.name != ".lock"]


def test_every_single_bit_flip_is_refused(stored, tmp_path):
    """150 random single-bit flips across the manifest, batch records, summary and Parquet files: none loads."""
    path = fresh_copy(stored, tmp_path)
    rng = random.Random(3)
    targets = _all_files(path)
    for trial in range(150):
        target = rng.choice(targets)
        data = bytearray(target.read_bytes())
        byte = rng.randrange(len(data))
        data[byte] ^= 1 << rng.randrange(8)
        original = target.read_bytes()
        target.write_bytes(bytes(data))
        try:
            with pytest.raises(ValueError) as info:
                load_run(path)
            assert "\n" not in str(info.value), (trial, target)
        finally:
            target.write_bytes(original)
    assert load_run(path).summary == stored[1].summary


def test_file_of_another_batch_is_refused(stored, tmp_path):
    path = fresh_copy(stored, tmp_path)
    shutil.copy(path / "totals/batch-00000.parquet", path / "totals/batch-00001.parquet")
    with pytest.raises(ValueError, match=r"totals/batch-00001.parquet \(its SHA-256 does not match"):
        load_run(path)


def test_swapped_rows_files_are_refused(stored, tmp_path):
    path = fresh_copy(stored, tmp_path)
    a, b = path / "deals/batch-00000.parquet", path / "deals/batch-00002.parquet"
    data_a, data_b = a.read_bytes(), b.read_bytes()
    a.write_bytes(data_b)
    b.write_bytes(data_a)
    with pytest.raises(ValueError, match="deals/batch-00000.parquet"):
        load_run(path)


def test_batch_of_another_run_is_refused_even_with_its_own_record(stored, tmp_path):
    path = fresh_copy(stored, tmp_path)
    other = tmp_path / "other"
    job = Job.make("cribbage", "deals", "six-card", GREEDY, 3 * 4096, seed=6, records=True)
    run(job, other, batch_chunks=1, progress=False)
    for name in ("totals", "histograms", "deals"):
        shutil.copy(other / name / "batch-00001.parquet", path / name / "batch-00001.parquet")
    shutil.copy(other / st.BATCHES / "batch-00001.json", path / st.BATCHES / "batch-00001.json")
    with pytest.raises(ValueError, match=r"batch-00001.json \(run is '\w+', expected '\w+'\)"):
        load_run(path)


@pytest.mark.parametrize("value", ["x", 0, 4.0, -1, True])
def test_manifest_with_a_bad_batch_size_is_refused(stored, tmp_path, value):
    path = fresh_copy(stored, tmp_path)
    manifest = json.loads((path / st.MANIFEST).read_text())
    manifest["batch_chunks"] = value
    st.write_json(path / st.MANIFEST, manifest, seal=True)  # even with a valid checksum
    with pytest.raises(ValueError, match="batch_chunks is .* not a positive integer"):
        load_run(path)


def test_a_table_folder_that_is_a_file_is_refused(stored, tmp_path):
    path = fresh_copy(stored, tmp_path)
    shutil.rmtree(path / "totals")
    (path / "totals").write_text("not a folder")
    with pytest.raises(ValueError, match="totals/batch-00000.parquet"):
        load_run(path)
    job = Job.make("cribbage", "deals", "six-card", GREEDY, 3 * 4096, seed=5, records=True)
    with pytest.raises(ValueError, match="totals"):
        run(job, path, progress=False)


def test_missing_batch_record_means_that_batch_is_played_again(stored, tmp_path):
    path = fresh_copy(stored, tmp_path)
    (path / st.BATCHES / "batch-00001.json").unlink()
    job = Job.make("cribbage", "deals", "six-card", GREEDY, 3 * 4096, seed=5, records=True)
    played = []
    result = run(job, path, progress=False, on_batch=lambda index, batch: played.append(index))
    assert played == [1] and result.summary == stored[1].summary


# ---------------------------------------------------------------- sims verify, paths, summary


def verify(capsys, path) -> tuple[int, str, str]:
    code = main(["verify", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_passes_a_whole_run(stored, capsys):
    path, _ = stored
    code, out, err = verify(capsys, path)
    assert code == 0 and not err and "ok, 3 batches and 14 files match the manifest" in out  # 9 tables, 3 records
    assert main(["verify", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"run": str(path), "batches": 3, "files": 14}


def _flip_a_bit(file):
    data = bytearray(file.read_bytes())
    data[len(data) // 2] ^= 4
    file.write_bytes(bytes(data))


def _reseal(file, change):
    obj = json.loads(file.read_text())
    change(obj)
    st.write_json(file, obj, seal=True)


@pytest.mark.parametrize(
    "damage, names",
    [
        (lambda p: _flip_a_bit(p / "histograms/batch-00001.parquet"), "histograms/batch-00001.parquet"),
        (lambda p: (p / "deals/batch-00002.parquet").unlink(), "deals/batch-00002.parquet (missing)"),
        (lambda p: (p / st.BATCHES / "batch-00001.json").unlink(), "batches/batch-00001.json is missing"),
        (lambda p: shutil.copy(p / "totals/batch-00000.parquet", p / "totals/batch-00003.parquet"), "unlisted file"),
        (lambda p: (p / st.SUMMARY).unlink(), "summary.json is missing"),
        (lambda p: _flip_a_bit(p / st.SUMMARY), "summary"),
        (lambda p: _reseal(p / st.SUMMARY, lambda s: s.update(run="0" * 16)), "summary.json (it belongs to run"),
        (lambda p: (p / "params").mkdir() or (p / "params" / "extra.json").write_text("{}"), "params/extra.json"),
    ],
)
def test_verify_names_the_first_bad_file_in_one_line_with_status_2(stored, tmp_path, capsys, damage, names):
    path = fresh_copy(stored, tmp_path)
    damage(path)
    code, out, err = verify(capsys, path)
    assert code == 2 and not out and len(err.splitlines()) == 1 and names in err, err


def test_a_record_naming_a_file_outside_the_run_is_refused(stored, tmp_path, capsys):
    """``../batch-00001.parquet`` with its true SHA-256, the file really there: refused, never read."""
    path = fresh_copy(stored, tmp_path)
    shutil.copy(path / "histograms/batch-00001.parquet", tmp_path / "batch-00001.parquet")

    def outside(record):
        record["files"]["../batch-00001.parquet"] = record["files"].pop("histograms/batch-00001.parquet")

    _reseal(path / st.BATCHES / "batch-00001.json", outside)
    with pytest.raises(ValueError, match=r"it names '\.\./batch-00001.parquet', not a table's file in this run"):
        load_run(path)
    code, _, err = verify(capsys, path)
    assert code == 2 and "'../batch-00001.parquet'" in err


def test_a_parameter_table_named_by_a_path_is_refused(tmp_path):
    """A custom table is read from params/<sha256>.json: a manifest naming it ``../x`` is refused."""
    table = table_params(reference_table("hessel"))
    job = Job.make(
        "cribbage",
        "deals",
        "six-card",
        {"discard": {"name": "expected_net", "params": list(table + 0.5)}, "peg": "greedy"},
        300,
        seed=1,
    )
    run(job, tmp_path / "run", progress=False)
    (tmp_path / "x.json").write_text(json.dumps({"values": list(table + 0.5)}))

    def outside(manifest):
        manifest["job"]["policies"]["discard"][0]["params"]["sha256"] = "../../x"

    _reseal(tmp_path / "run" / st.MANIFEST, outside)
    with pytest.raises(ValueError, match="its parameter table is named '../../x', not by a SHA-256"):
        load_run(tmp_path / "run")


def test_the_summary_names_its_run_and_carries_its_hash(stored, tmp_path):
    path = fresh_copy(stored, tmp_path)
    summary = json.loads((path / st.SUMMARY).read_text())
    assert summary["run"] == json.loads((path / st.MANIFEST).read_text())["run"] and len(summary["sha256"]) == 64
    _reseal(path / st.SUMMARY, lambda s: s.update(n=1))  # a consistent hash, but not this run's summary
    assert load_run(path).summary == stored[1].summary  # the numbers come from the tables, not the summary
    _flip_a_bit(path / st.SUMMARY)
    with pytest.raises(ValueError, match="summary"):
        load_run(path)


def test_pandas_with_page_checksums_refuses_a_flipped_data_page(stored, tmp_path):
    """The store writes page checksums: pandas, told to check them as the README does, refuses a page whose
    bytes changed, where without the check it reads other numbers."""
    import pyarrow.parquet as pq

    path = fresh_copy(stored, tmp_path)
    file = path / "deals/batch-00000.parquet"
    before = pd.read_parquet(file, page_checksum_verification=True)
    column = pq.ParquetFile(file).metadata.row_group(0).column(2)  # the deal numbers
    assert column.path_in_schema == "deal"
    start = column.dictionary_page_offset if column.has_dictionary_page else column.data_page_offset
    data = bytearray(file.read_bytes())
    data[start + column.total_compressed_size - 2] ^= 1  # in the column's last page
    file.write_bytes(bytes(data))
    assert not pd.read_parquet(file).equals(before)
    with pytest.raises(OSError, match="CRC checksum verification failed"):
        pd.read_parquet(file, page_checksum_verification=True)
