"""Warscribe: Warhammer 40,000 rules documents compiled into a knowledge base."""

from pathlib import Path

__version__ = "0.1.0"

# The repository root: schema/ and sources/ live beside the packages.
ROOT = Path(__file__).resolve().parent.parent
