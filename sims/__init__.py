"""sims: a Monte Carlo strategy lab for the card games of the period rule books."""
from __future__ import annotations

import warnings

from numba.core.errors import NumbaExperimentalFeatureWarning

# Policies are first-class numba functions; the feature works and is cached.
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

__version__ = "0.1.0"
