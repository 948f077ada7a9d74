"""Statements: the proof language and the proof library (SymPy only, never numpy)."""
