"""Judgement: the trusted kernel, certificate search, instance checks, reports and the CLI."""
