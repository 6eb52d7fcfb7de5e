# cython: language_level=3
"""Compiled kernels of quartet_solver.

One extension module, built from this file and the ``.pxi`` files it includes
(one per concern).  The Python modules validate input, call these kernels and
wrap the results in value types; nothing here is public API.
"""

include "bits.pxi"
include "quintet_eval.pxi"
include "quintet_frontier.pxi"
include "kwartet.pxi"
include "klaverjas.pxi"
