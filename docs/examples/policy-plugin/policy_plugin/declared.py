"""The policies this distribution declares, as entry points of ``sims.policies`` (pyproject.toml)."""

from sims.core.policies import SWITCH, PluginPolicy

LOW_PEG = PluginPolicy(
    game="cribbage",
    decision="peg",
    function="policy_plugin.pegging:low_peg",
    params=("fifteens",),
    defaults=(1.0,),
    ranges=(SWITCH,),
    help="lay the lowest card; with fifteens=1 first a card that makes fifteen or thirty-one",
)
LOW_CARD = PluginPolicy(
    game="loo", decision="card", function="policy_plugin.loo:low_card", help="play the lowest legal card (aces high)"
)
