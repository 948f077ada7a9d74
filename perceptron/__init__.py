"""Numbers: exact-rational perceptron algorithms, traces, data geometry and adversarial data.

This package never imports SymPy; it is the numeric half of novikoff.
"""
