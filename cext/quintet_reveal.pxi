# Adaptive best responses in Quintet's reveal-order variant against an opponent
# who commits to ordered arrangements (a mixed strategy over them).
#
# The opponent's support is a prefix tree (trie) of its reveals: node 0 is the
# root (nothing revealed), a node at depth r is one sequence of r groups the
# opponent can show first; its children are the groups it can show in round r,
# each with its probability mass and hand strength.  Seeing the opponent's reveals
# narrows its support to the arrangements under the current node, so an adaptive
# reply is a choice of one of my remaining groups at every node.
#
# For one split of mine (k strengths v[0..k-1]) the best adaptive value is
#   V(node, R) = max over g in R of  sum over children c of node
#                    [ mass(c) * points[r] * share(v[g], strength(c)) + V(c, R - g) ]
# with R my remaining groups (|R| = k - depth(node)), V(leaf, {}) = 0 and
# share = 1, 1/2 or 0.  Masses are unnormalised (children sum to their parent's),
# so V(root, all) is the expected points directly.
#
# Invariants: nodes are numbered so that every child has a larger index than its
# parent (breadth-first), children of a node are contiguous; k <= MAXK (from
# quintet_frontier.pxi), so R fits the 64-entry table of each node.
# Entry point: quintet_reveal_values (one value per frontier row).

from libc.stdlib cimport free, malloc


cdef double reveal_row_value(const uint16_t* v, int k, int nnodes, const int32_t* depth,
                             const int32_t* child_start, const int32_t* child_count,
                             const double* mass, const uint16_t* strength,
                             const double* points, double* table) noexcept nogil:
    """V(root, all groups) for one split; table holds nnodes * 64 doubles of scratch."""
    cdef int node, r, R, g, c, c0, nc, full = (1 << k) - 1
    cdef double best, val, share
    cdef uint16_t s
    for node in range(nnodes - 1, -1, -1):
        r = depth[node]
        c0 = child_start[node]
        nc = child_count[node]
        for R in range(full + 1):
            if POP8[R] != k - r:
                continue
            if nc == 0 or R == 0:
                table[node * 64 + R] = 0.0
                continue
            best = -1e300
            for g in range(k):
                if not (R >> g & 1):
                    continue
                val = 0.0
                for c in range(c0, c0 + nc):
                    s = strength[c]
                    share = 1.0 if v[g] > s else (0.5 if v[g] == s else 0.0)
                    val += mass[c] * points[r] * share + table[c * 64 + (R & ~(1 << g))]
                if val > best:
                    best = val
            table[node * 64 + R] = best
    return table[full]


def quintet_reveal_values(const uint16_t[:, ::1] front, const int32_t[::1] depth,
                          const int32_t[::1] child_start, const int32_t[::1] child_count,
                          const double[::1] mass, const uint16_t[::1] strength,
                          const double[::1] points):
    """Best adaptive value of every frontier row against the opponent trie (see above).

    ``front``: (n, k) strengths; trie arrays indexed by node (``mass`` and
    ``strength`` of the root are unused).  Returns a float64 array of n values.
    """
    import numpy as np
    cdef int nrows = front.shape[0], k = front.shape[1], nnodes = depth.shape[0], i
    if k < 1 or k > MAXK or points.shape[0] != k or nnodes < 1:
        raise ValueError("frontier, points and trie do not fit together")
    if (child_start.shape[0] != nnodes or child_count.shape[0] != nnodes
            or mass.shape[0] != nnodes or strength.shape[0] != nnodes):
        raise ValueError("trie arrays have different lengths")
    for i in range(nnodes):
        if depth[i] < 0 or depth[i] > k or child_count[i] < 0 or (child_count[i] > 0 and (
                child_start[i] <= i or child_start[i] + child_count[i] > nnodes)):
            raise ValueError(f"trie node {i} is malformed")
    out = np.zeros(nrows, dtype=np.float64)
    cdef double[::1] o = out
    cdef double* table = <double*>malloc(nnodes * 64 * sizeof(double))
    if table == NULL:
        raise MemoryError()
    try:
        with nogil:
            for i in range(nrows):
                o[i] = reveal_row_value(&front[i, 0], k, nnodes, &depth[0], &child_start[0],
                                        &child_count[0], &mass[0], &strength[0], &points[0], table)
    finally:
        free(table)
    return out
