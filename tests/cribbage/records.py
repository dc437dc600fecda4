"""Per-deal records of a cribbage DealResult as an array, for comparison with the reference engine."""

from sims.cribbage.play import COMPONENTS


def records_array(result):
    """Per-deal components as ``[deal, role, component]`` from the records' named columns."""
    columns = [f"{role}_{c}" for role in result.roles for c in COMPONENTS]
    return result.records[columns].to_numpy().reshape(len(result.records), len(result.roles), len(COMPONENTS))
