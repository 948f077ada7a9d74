"""Dense sums of squares by semidefinite programming (issue 28, item 1), untrusted like the LP.

`problem`: the Gram-matrix (Positivstellensatz multiplier) problem of one claim and its numeric
solution by a conic solver (Clarabel, an optional dependency); `rounding`: from that float
point to an exact certificate (rounded multiplier factors, the Peyrl–Parrilo projection of
the free Gram matrix, an exact LDL^T over QQ). The kernel checks the result unchanged.
"""
