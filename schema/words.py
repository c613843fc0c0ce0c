"""The English word list (pyspellchecker's, with frequencies), loaded once for every stage.

Extraction finds glued words with it (extract/defects.py) and ``check`` finds typos
(warscribe/checks/text.py); both read the same list through :func:`english`.
"""

from __future__ import annotations

from functools import lru_cache

from spellchecker import SpellChecker


@lru_cache(maxsize=1)
def english() -> SpellChecker:
    """The English dictionary; ``english().word_frequency[word]`` is how common a word is (0: unknown)."""
    return SpellChecker(language="en", distance=1)
