"""Text helpers of the contract: slugs (the id alphabet), normal forms, paragraph joins."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


def slugify(text: str) -> str:
    """Stable kebab-case slug: 'Ordo Xenos Alien Hunters' -> 'ordo-xenos-alien-hunters'."""
    text = text.replace("\u2011", "-").replace("’", "").replace("'", "")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return text or "unnamed"


def number_slug(number: str) -> str:
    return number.replace(".", "-")


def clean_name(text: str) -> str:
    """A name as a key: the non-breaking hyphen of 'WILL‑SAPPING SALVO' is a hyphen."""
    return re.sub(r"\s+", " ", text.replace("\u2011", "-").replace("\u00a0", " ")).strip()


@lru_cache(maxsize=65536)
def norm(text: str) -> str:
    """Comparison form: case, spacing, bullets, stray asterisks and quotes folded away.

    Two passages that differ only by scraping noise compare equal in this form.
    """
    text = text.replace("\u2011", "-").replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = text.replace("*", "")
    text = re.sub(r"(?m)^\s*(?:-|•|\d+\.)\s+", "", text)
    text = re.sub(r"\s+-\s+(?=[A-Z])", " ", text)
    text = re.sub(r"([.:;])(?=[A-Za-z\[])", r"\1 ", text)
    text = re.sub(r"\s+", " ", text)
    return text.strip().casefold()


def join_paragraphs(parts: list[str]) -> str:
    """Paragraphs apart by a blank line; a run of '- ' bullets stays one block."""
    out = ""
    previous_bullet = False
    for part in (p.strip() for p in parts):
        if not part:
            continue
        bullet = part.startswith("- ")
        if out:
            out += "\n" if bullet and previous_bullet else "\n\n"
        out += part
        previous_bullet = bullet
    return out


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
