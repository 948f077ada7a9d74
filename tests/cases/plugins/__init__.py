"""Hostile and broken plug-ins (the newcomer trial's, /work/trial/bad/plugins), each a case of
`tests/test_verify/plugins/test_plugin_faults.py`; `plug.toml` is the proof they run for."""
