"""Cribbage's notebook helpers and widgets (notebooks 01, 03, 05, 06 and 08): its tables and figures beyond the
report (:mod:`~sims.cribbage.notebook.helpers`), the discard explorer
(:mod:`~sims.cribbage.notebook.discard_explorer`) and the pegging advisor behind controls
(:mod:`~sims.cribbage.notebook.peg_advisor`).  They stand on the analysis's notebook parts
(:mod:`sims.analysis.notebook_helpers`, :mod:`sims.analysis.advisor_widget`), as the game's claims stand on its
report; nothing else of the game imports them."""
