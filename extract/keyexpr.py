"""Parsing the keyword phrase of a rule ('One PSYKER INFANTRY unit', 'INQUISITOR or
MINISTORUM PRIEST model only', '(excluding TITANIC units)') into a keyword expression.

The meaning follows the core rules' keyword bullets (see ``schema/keywords.py``):
commas, slashes and ``or`` separate alternatives, adjacent keywords must all be
present, ``non-X`` and ``excluding X`` exclude. Keywords are printed in capitals, so a
phrase is a run of capitalised words; which of its words form one keyword
(``AGENTS OF THE IMPERIUM CHARACTER`` is two keywords, ``GREY KNIGHTS TERMINATOR
SQUAD`` one) is decided with the keywords the knowledge base knows:

* a list item made entirely of known keywords is split into the fewest of them;
* otherwise known keywords are peeled off its end (``ADEPTUS CUSTODES INFANTRY``) and
  the rest, which ends in a word no keyword explains, is one keyword: a unit name
  such as ``VINDICARE ASSASSIN`` or ``GREY KNIGHTS TERMINATOR SQUAD``.

Parsing is a few linear regex scans of the phrase.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from warscribe.schema.keywords import same_keyword

# Bounded repetitions (a keyword of at most 8 words, a list of at most 12) and separators
# that cannot share their spaces keep every scan linear in the length of the text.
_WORD = r"(?:non-)?[A-Z][A-Z0-9’'\-]{0,30}[A-Z0-9](?![a-z])"
_RUN = rf"{_WORD}(?: {_WORD}){{0,7}}"
_SEP = r"(?:\s*,\s*(?:(?:or|and)\s+)?|\s*/\s*|\s+(?:or|and)\s+)"
KEYWORD_LIST = rf"{_RUN}(?:{_SEP}{_RUN}){{0,11}}"
_NOUN = r"\s+(?:units?|models?)\b"
MAX_TEXT = 20_000  # characters of a text considered

_EXCLUDING = re.compile(rf"\(excluding ({KEYWORD_LIST})(?:{_NOUN})?\s?\)")
_CANNOT = re.compile(rf"[Yy]ou cannot (?:target|select) an? ({KEYWORD_LIST}){_NOUN}")
_ONLY_IF = re.compile(rf"[Yy]ou can only select an? ({KEYWORD_LIST}){_NOUN}[^.]{{0,80}}? if it is an? ({KEYWORD_LIST})(?:{_NOUN})?")
_MAIN = re.compile(rf"(?<![A-Za-z\-])({KEYWORD_LIST})(?:{_NOUN}|\s+only\b|(?=\s*[.)]|$))")


class Known:
    """The keywords a knowledge base knows, for splitting runs of capitalised words."""

    def __init__(self, names: Iterable[str]):
        self.names: dict[str, str] = {}
        for name in names:
            self.names.setdefault(" ".join(name.upper().split()), " ".join(name.upper().split()))
        self.longest = max((len(n.split()) for n in self.names), default=1)

    def canonical(self, words: list[str]) -> str | None:
        """The known keyword these words spell, singular or plural alike (see same_keyword)."""
        text = " ".join(words)
        for form in (text, text + "S", text + "ES", text[:-1] if text.endswith("S") else None,
                     text[:-2] if text.endswith("ES") else None):
            if form and form in self.names and same_keyword(form, text):
                return self.names[form]
        return None


def _fewest(words: list[str], known: Known) -> list[str] | None:
    """Split `words` into the fewest known keywords, or None if some word is unexplained."""
    best: list[list[str] | None] = [[]] + [None] * len(words)
    for end in range(1, len(words) + 1):
        for start in range(max(0, end - known.longest), end):
            if best[start] is None:
                continue
            name = known.canonical(words[start:end])
            if name is None:
                continue
            candidate = best[start] + [name]
            if best[end] is None or len(candidate) < len(best[end]):
                best[end] = candidate
    return best[len(words)]


def split_keywords(words: list[str], known: Known) -> list[str]:
    """Adjacent capitalised words as the keywords they are (see the module docstring)."""
    whole = _fewest(words, known)
    if whole is not None:
        return whole
    for cut in range(1, len(words)):
        tail = _fewest(words[cut:], known)
        if tail is not None:
            return [" ".join(words[:cut])] + tail
    return [" ".join(words)]


def standalone_keywords(text: str) -> set[str]:
    """Keywords a text uses on their own ('MONSTER or VEHICLE', 'a VEHICLE unit', 'non-TITANIC'):
    list items of one capitalised word, so certainly one keyword each."""
    out: set[str] = set()
    text = re.sub(r"\[[^\[\]\n]*\]?", " ", (text or "")[:MAX_TEXT])  # weapon abilities are not keywords
    for m in re.finditer(KEYWORD_LIST, text):
        if text[m.end():m.end() + 1] == ":":
            continue  # a label such as 'EFFECT:'
        for item in re.split(_SEP, m.group(0)):
            words = item.split()
            word = words[0].removeprefix("non-") if len(words) == 1 else ""
            # Two-letter capitals are characteristics (AP, BS, OC); digits make dice (D6).
            if len(word) > 2 and not any(c.isdigit() for c in word):
                out.add(word)
    return out


def _item(text: str, known: Known) -> dict:
    words = text.split()
    negated = words[0].startswith("non-")
    if negated:
        words[0] = words[0][4:]
    nodes = [{"keyword": n} for n in split_keywords(words, known)]
    if negated:  # 'non-CHARACTER INFANTRY': an INFANTRY unit without CHARACTER
        nodes[0] = {"not": nodes[0]}
    return nodes[0] if len(nodes) == 1 else {"all": nodes}


def parse_list(text: str, known: Known) -> dict:
    """'IMMORTALS, DEATHMARKS or LYCHGUARD' -> any; 'PSYKER INFANTRY' -> all; 'non-VEHICLE' -> not."""
    items = [i for i in re.split(_SEP, text.strip()) if i]
    nodes = [_item(i, known) for i in items]
    return nodes[0] if len(nodes) == 1 else {"any": nodes}


def _all(nodes: list[dict]) -> dict | None:
    flat: list[dict] = []
    for n in nodes:
        flat += n["all"] if "all" in n and len(n) == 1 else [n]
    if not flat:
        return None
    return flat[0] if len(flat) == 1 else {"all": flat}


def _exclusions(text: str, known: Known) -> tuple[list[dict], str]:
    """'You can only select a VEHICLE unit if it is a WALKER', '(excluding X units)', 'You
    cannot target a TITANIC unit': the parts of an expression, and the text left over."""
    parts: list[dict] = []
    for m in _ONLY_IF.finditer(text):
        parts.append({"any": [{"not": parse_list(m.group(1), known)}, parse_list(m.group(2), known)]})
    rest = _ONLY_IF.sub(" ", text)
    for pattern in (_EXCLUDING, _CANNOT):
        for m in pattern.finditer(rest):
            parts.append({"not": parse_list(m.group(1), known)})
        rest = pattern.sub(" ", rest)
    return parts, rest


def parse_phrase(text: str | None, known: Known) -> dict | None:
    """The keyword expression of a TARGET or enhancement restriction; None when it names no keyword."""
    if not text:
        return None
    parts, rest = _exclusions(text[:MAX_TEXT], known)
    main = _MAIN.search(rest)
    if main is not None:
        parts.insert(0, parse_list(main.group(1), known))
    return _all(parts)


def parse_restriction(text: str | None, known: Known) -> dict | None:
    """The units a stratagem's RESTRICTIONS exclude, as an expression; None when it excludes none."""
    if not text:
        return None
    return _all(_exclusions(text[:MAX_TEXT], known)[0])
