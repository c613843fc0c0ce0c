"""Names as keys: what two spellings of one name have in common, and the table of known renames.

Army builders and the knowledge base spell one name differently: case, curly or
straight quotes ('Lion El’Jonson'), accents ('Khârn'), no-break spaces, dashes, and a
'[Legends]' or '(Legends)' tag. :func:`key` folds exactly these away, so 'KHARN THE
BETRAYER' and 'Khârn the Betrayer' are one key; it never shortens a name, so a name
either equals a record's name in this form or does not resolve (no substring guess).

A rename (a datasheet whose name changed between data releases or editions) cannot
be folded away; ``aliases.yaml`` beside this module lists each known one with the
reason it is known, and the resolver consults it only after the name itself failed.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from warscribe.schema import safeyaml

ALIASES_FILE = Path(__file__).with_name("aliases.yaml")
KINDS = ("datasheet", "enhancement", "detachment", "faction")

_QUOTES = str.maketrans({"’": "", "‘": "", "'": "", "`": "", "´": "", "ʼ": "", "“": '"', "”": '"', "„": '"',
                         "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "\u00a0": " ", "\u202f": " "})
_LEGENDS = re.compile(r"\s*[\[(]\s*legends?\s*[\])]\s*", re.I)
# BattleScribe catalogue names put a grand alliance before the faction ('Chaos - World Eaters').
ALLIANCE_PREFIX = re.compile(r"^(?:Imperium|Chaos|Xenos|Aeldari|Library|Unaligned)\s+-\s+", re.I)


@lru_cache(maxsize=65536)
def key(name: str) -> str:
    """The comparison form of a name: case, quotes, accents, dashes, spacing and [Legends] folded."""
    text = _LEGENDS.sub(" ", name).translate(_QUOTES)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return re.sub(r"\s+", " ", text).strip().casefold()


def is_legends(name: str) -> bool:
    return bool(_LEGENDS.search(name))


@dataclass(frozen=True)
class Alias:
    kind: str
    name: str  # as lists print it
    means: str  # the knowledge base's name
    reason: str
    rulesets: tuple[str, ...] = ()  # empty: every ruleset


class AliasError(ValueError):
    pass


def load_aliases(path: Path = ALIASES_FILE) -> dict[tuple[str, str], list[Alias]]:
    """(kind, key of the printed name) -> the aliases for it; AliasError naming the entry for a bad file."""
    try:
        doc = safeyaml.load_file(path)
    except (OSError, safeyaml.YamlError) as exc:
        raise AliasError(f"{path}: {exc}") from None
    entries = doc.get("aliases") if isinstance(doc, dict) else None
    if not isinstance(entries, list):
        raise AliasError(f"{path}: expected a mapping with an 'aliases' list")
    out: dict[tuple[str, str], list[Alias]] = {}
    for i, entry in enumerate(entries, 1):
        where = f"{path}: alias {i}"
        if not isinstance(entry, dict):
            raise AliasError(f"{where}: expected a mapping")
        unknown = set(entry) - {"kind", "name", "means", "reason", "rulesets"}
        if unknown:
            raise AliasError(f"{where}: unknown field(s) {sorted(unknown)}")
        for field in ("kind", "name", "means", "reason"):
            if not isinstance(entry.get(field), str) or not entry[field].strip():
                raise AliasError(f"{where}: '{field}' must be a non-empty text")
        if entry["kind"] not in KINDS:
            raise AliasError(f"{where}: kind {entry['kind']!r} is not one of {', '.join(KINDS)}")
        rulesets = entry.get("rulesets", [])
        if not isinstance(rulesets, list) or not all(r in ("10e", "11e") for r in rulesets):
            raise AliasError(f"{where}: 'rulesets' must be a list of 10e / 11e")
        if key(entry["name"]) == key(entry["means"]):
            raise AliasError(f"{where}: {entry['name']!r} and {entry['means']!r} are one name already (no alias needed)")
        alias = Alias(entry["kind"], entry["name"], entry["means"], " ".join(entry["reason"].split()), tuple(rulesets))
        out.setdefault((alias.kind, key(alias.name)), []).append(alias)
    return out


@lru_cache(maxsize=1)
def aliases() -> dict[tuple[str, str], list[Alias]]:
    return load_aliases()


def aliases_for(kind: str, name: str, ruleset: str | None) -> list[Alias]:
    return [a for a in aliases().get((kind, key(name)), []) if not a.rulesets or ruleset in a.rulesets]
