"""Typesetting for readers: names by rule, statements as their author wrote them, and the
dependency graph of a proof, each in LaTeX, MathML and plain text.

The report renderers (`verify.render`) lay documents out; this package decides how one
name, one formula or one graph looks, so a step, its certificate and `novikoff explain`
share one notation.
"""
