# cython: language_level=3
"""Compiled kernels of quartet_solver.

One extension module, built from this file and the ``.pxi`` files it includes
(one per concern).  The Python modules validate input, call these kernels and
wrap the results in value types; nothing here is public API.

The order matters: a ``.pxi`` uses the types and module-level tables of those
before it (functions may come in any order).
"""

# C shims (inline C, intrinsics) of every kernel, then the card-mask helpers
include "shims.pxi"
include "bits.pxi"
include "quintet_eval.pxi"
include "quintet_frontier.pxi"
include "quintet_reveal.pxi"
include "kwartet.pxi"
include "kwartet_rollout.pxi"
# the Klaverjas double-dummy solver (docs/klaverjas_solver.md)
include "klaverjas_tables.pxi"
include "klaverjas_state.pxi"
include "klaverjas_bounds.pxi"
include "klaverjas_transposition.pxi"
include "klaverjas_twins.pxi"
include "klaverjas_moves.pxi"
include "klaverjas_endgame.pxi"
include "klaverjas_search.pxi"
include "klaverjas_kernel.pxi"
