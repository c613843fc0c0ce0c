"""The contract: JSON Schemas for every record kind, and the Python side of them.

The ``*.schema.json`` files beside this module are the single source of truth for
record shapes. What Python needs from them (the record kinds, the rulesets) is read
from the schemas here rather than restated; ``tests/test_contract.py`` holds the rest
of the Python side (constructors, ability vocabulary, dice pattern) to them.

Nothing in this package imports ``warscribe.extract``, ``warscribe.engine`` or the
command line: they all stand on it.
"""

from __future__ import annotations

import json
from pathlib import Path

SCHEMA_DIR = Path(__file__).resolve().parent


def _defs() -> dict:
    return json.loads((SCHEMA_DIR / "defs.schema.json").read_text(encoding="utf-8"))["$defs"]


_DEFS = _defs()

#: Record kinds, in the order the schemas list them (and outputs write them).
KINDS: tuple[str, ...] = tuple(_DEFS["common"]["properties"]["kind"]["enum"])
#: Rulesets a record may follow.
RULESETS: tuple[str, ...] = tuple(_DEFS["ruleset"]["enum"])
#: A dice expression as the schemas accept it (D6, 2D6, D3+1).
DICE_PATTERN: str = _DEFS["dice"]["oneOf"][1]["pattern"]
#: The id alphabet.
ID_PATTERN: str = _DEFS["id"]["pattern"]
#: A keyword as printed (upper case, accented capitals kept).
KEYWORD_PATTERN: str = _DEFS["keyword"]["pattern"]

#: Where ``warscribe build`` writes the knowledge base unless told otherwise. Not
#: ``build/``: packaging tools write there too (``pip wheel .`` leaves build/lib).
DEFAULT_OUT = Path("out")
