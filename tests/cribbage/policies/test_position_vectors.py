"""The position players' vectors shipped as data (:mod:`sims.cribbage.policies.position_vectors`): bit for bit
what the tables that ship make now, read memory-mapped, and refused when their format, their inputs or their
bytes are not the manifest's (the policies then rebuild them from the tables)."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from sims.cribbage.policies import position_vectors as pv


@pytest.fixture(scope="module")
def built():
    return pv.build()


@pytest.fixture
def copy(tmp_path):
    """A copy of the shipped data to spoil."""
    folder = tmp_path / "position"
    shutil.copytree(pv._package() / pv.FOLDER, folder)
    return folder


def test_the_shipped_vectors_are_bit_for_bit_a_fresh_build(built):
    shipped = pv.load()
    assert shipped is not None, "data/position is stale: python -m sims.cribbage.policies.position_vectors"
    assert list(shipped) == ["shipped", "shipped-distilled", "expected_peg+distilled"] == list(built)
    for name, values in built.items():
        assert shipped[name].tobytes() == np.ascontiguousarray(values, dtype="<f8").tobytes(), name
        assert isinstance(shipped[name], np.memmap) and not shipped[name].flags.writeable


def test_the_policies_know_the_shipped_vectors_by_name(built):
    """``named_tables``, the position players' TableParams, is the data."""
    named = pv.named_tables()
    assert set(named) == set(pv.POLICY_VECTORS)
    assert all(named[name] == tuple(built[name].tolist()) for name in named)


def test_the_players_vectors_are_made_from_their_tables(built):
    """By players, the vector of their shipped tables (what sims peg --score reads): shipped for the two
    baselines, built for the others."""
    from sims.cribbage.odds.table import shipped_table
    from sims.cribbage.policies.position import PRESETS, position_vector

    assert pv.players_vector("expected_net+defensive").tobytes() == built["shipped"].tobytes()
    made = position_vector([shipped_table(preset, "expected_peg+distilled") for preset in PRESETS])
    assert pv.players_vector("expected_peg+distilled").tobytes() == made.tobytes()
    made = position_vector([shipped_table(preset, "position_distilled") for preset in PRESETS])
    assert pv.players_vector("position_distilled").tobytes() == made.tobytes()
    with pytest.raises(ValueError, match="no tables ship for the players 'greedy'"):
        pv.players_vector("greedy")


def test_writing_then_loading_gives_the_build_back(tmp_path, built):
    pv.write(tmp_path)
    loaded = pv.load(tmp_path)
    assert {k: v.tobytes() for k, v in loaded.items()} == {k: v.tobytes() for k, v in built.items()}


def spoil_manifest(folder, change):
    manifest = json.loads((folder / pv.MANIFEST).read_text())
    change(manifest)
    (folder / pv.MANIFEST).write_text(json.dumps(manifest))


@pytest.mark.parametrize("how", ["format", "an input changed", "bytes", "size", "no manifest", "garbage"])
def test_stale_or_damaged_data_are_refused(copy, how):
    assert pv.load(copy) is not None
    if how == "format":
        spoil_manifest(copy, lambda m: m.update(format="sims-position-vectors/0"))
    elif how == "an input changed":
        spoil_manifest(copy, lambda m: m["inputs"].update({pv.INPUTS[0]: "0" * 64}))
    elif how == "bytes":
        values = np.load(copy / "shipped.npy")
        values.view(np.uint64)[1234] ^= 1  # the last bit of one value
        np.save(copy / "shipped.npy", values)
    elif how == "size":
        spoil_manifest(copy, lambda m: m["vectors"]["shipped"].update(size=12))
    elif how == "no manifest":
        (copy / pv.MANIFEST).unlink()
    else:
        (copy / "shipped-distilled.npy").write_bytes(b"not an array")
    assert pv.load(copy) is None
