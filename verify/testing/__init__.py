"""For test suites: `check_run` and `check_implementation` (the public API, re-exported lazily
by `verify`), the pytest plugin, and the scikit-learn adapter.

Nothing is imported here: the pytest plugin loads with every pytest run once novikoff is
installed, and must not pull in numpy or SymPy before a test asks for them.
"""
