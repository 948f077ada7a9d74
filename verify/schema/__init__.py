"""JSON Schemas of the reports, shipped in the package so any consumer can validate them."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def load(name: str) -> dict[str, Any]:
    """The schema `name` (e.g. "audit"), read from the installed package."""
    text = resources.files(__name__).joinpath(f"{name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
