"""Weapon-ability parsing: one vocabulary for every notation the sources use.

The sources write weapon abilities three ways:

* bracketed lists in the name cell: ``Psilencer [precision, psychic, sustained hits 1]``;
* run into the name with no brackets: ``Combi-weapon anti-infantry 4+ devastating wounds
  rapid fire 1`` (so ``Bolt pistol pistol`` is the Bolt pistol with [PISTOL]);
* comma-separated keyword cells (BattleScribe, Wahapedia): ``Anti-INFANTRY 4+, Twin Linked``.

Every notation goes through :func:`parse_ability`, which returns the record shape
defined in ``schema/weapon-ability.schema.json``. ``text`` keeps what was written;
the parameters are normalised. Suspicious spellings are reported, never corrected
silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# id -> (canonical upper-case name, parameter kind). Parameter kinds: None (no
# parameter), "value" (required X), "optional-value" ([BLAST] / [BLAST X]), "anti".
ABILITIES: dict[str, tuple[str, str | None]] = {
    "anti": ("ANTI", "anti"),
    "assault": ("ASSAULT", None),
    "blast": ("BLAST", "optional-value"),
    "cleave": ("CLEAVE", "value"),  # 11th edition: X more attack dice per five target models
    "close-quarters": ("CLOSE-QUARTERS", None),
    "conversion": ("CONVERSION", None),
    "devastating-wounds": ("DEVASTATING WOUNDS", None),
    "extra-attacks": ("EXTRA ATTACKS", None),
    "hazardous": ("HAZARDOUS", None),
    "heavy": ("HEAVY", None),
    "ignores-cover": ("IGNORES COVER", None),
    "indirect-fire": ("INDIRECT FIRE", None),
    "lance": ("LANCE", None),
    "lethal-hits": ("LETHAL HITS", None),
    "melta": ("MELTA", "value"),
    "one-shot": ("ONE SHOT", None),
    "pistol": ("PISTOL", None),
    "precision": ("PRECISION", None),
    "psychic": ("PSYCHIC", None),
    "rapid-fire": ("RAPID FIRE", "value"),
    "sustained-hits": ("SUSTAINED HITS", "value"),
    "torrent": ("TORRENT", None),
    "twin-linked": ("TWIN-LINKED", None),
}

DICE_RE = r"(?:[1-9]?D(?:3|6)(?:\+[1-9][0-9]?)?|[1-9][0-9]?)"

# Scraping confusions seen in real pages: a parameter '1' followed by the closing
# bracket and the word 'ability' comes out as 'liability' ("[SUSTAINED HITS liability").
_OCR_VALUE = {"l": "1", "i": "1", "I": "1", "o": "0", "O": "0"}


@dataclass(frozen=True)
class Problem:
    """Something suspicious about one ability's spelling (reported as a warning)."""

    text: str
    message: str


def _name_pattern(name: str) -> str:
    # Words may be joined by space, hyphen or nothing ("Twin Linked", "Twin-linked").
    words = re.split(r"[ \-]", name)
    return r"[\s\-]?".join(re.escape(w) for w in words)


_PATTERNS: list[tuple[str, re.Pattern[str]]] = []
for _id, (_name, _kind) in ABILITIES.items():
    if _kind == "anti":
        pat = r"ANTI[\s\-]+(?P<kw>[A-Z][A-Z ]*?[A-Z])\s*(?P<thr>[2-6])\+?"
    elif _kind == "value":
        pat = _name_pattern(_name) + r"\s+(?P<val>" + DICE_RE + r"|[lIoO](?=iability|$))"
    elif _kind == "optional-value":
        pat = _name_pattern(_name) + r"(?:\s+(?P<val>" + DICE_RE + r"))?"
    else:
        pat = _name_pattern(_name)
    _PATTERNS.append((_id, re.compile(r"^\s*" + pat + r"(?P<rest>.*)$", re.IGNORECASE)))

_CONDITION_RE = re.compile(r"^\s*:\s*(?P<cond>[A-Za-z][A-Za-z \-]*?)\s*$")


def _value(raw: str) -> int | str:
    raw = _OCR_VALUE.get(raw, raw)
    return int(raw) if raw.isdigit() else raw.upper()


def _suspicious_case(text: str) -> bool:
    """True for words like 'COvER' or 'INFANTRy': scraping damage, not a style."""
    for word in re.findall(r"[A-Za-z]+", text):
        if word.isupper() or word.islower() or (word[0].isupper() and word[1:].islower()):
            continue
        return True
    return False


def parse_ability(text: str) -> tuple[dict | None, list[Problem]]:
    """Parse one ability, as written (with or without brackets).

    Returns (ability, problems). ``ability`` is None when the text does not start with a
    known ability at all; a known ability followed by unexpected text is returned with a
    problem describing the rest.
    """
    problems: list[Problem] = []
    written = text.strip()
    inner = written
    if inner.startswith("["):
        inner = inner[1:]
        if inner.endswith("]"):
            inner = inner[:-1]
        else:
            problems.append(Problem(written, "opening '[' without closing ']'"))
    inner = inner.strip()
    if not inner:
        return None, [Problem(written, "empty ability")]
    for ability_id, pattern in _PATTERNS:
        m = pattern.match(inner)
        if not m:
            continue
        rest = m.group("rest")
        result: dict = {"id": ability_id, "text": written}
        groups = m.groupdict()
        if groups.get("kw"):
            result["keyword"] = re.sub(r"\s+", " ", groups["kw"].upper())
            result["threshold"] = int(groups["thr"])
        if groups.get("val"):
            raw = groups["val"]
            if raw in _OCR_VALUE:
                problems.append(Problem(written, f"parameter '{raw}' read as '{_OCR_VALUE[raw]}'"))
                if rest.lower().startswith("iability"):
                    rest = rest[len("iability"):]
            result["value"] = _value(raw)
        if rest.strip():
            cond = _CONDITION_RE.match(rest)
            if cond:
                result["condition"] = cond.group("cond").upper()
            else:
                # A word run straight on ("HEAVYx") is not this ability after all.
                if rest[:1].isalnum():
                    continue
                problems.append(Problem(written, f"unexpected text after the ability: {rest.strip()!r}"))
        if ability_id == "anti" and not re.search(r"\d\+", inner):
            problems.append(Problem(written, "threshold written without '+'"))
        if _suspicious_case(inner):
            problems.append(Problem(written, "unusual capitalisation (scraping damage?)"))
        return result, problems
    return None, problems


def custom_ability(text: str) -> dict:
    """A weapon rule outside the shared vocabulary (e.g. 'Bubblechukka')."""
    written = text.strip()
    name = written.strip("[]").strip()
    return {"id": "custom", "text": written, "name": name}


def parse_ability_list(cell: str, separator: str = ",") -> tuple[list[dict], list[Problem]]:
    """Parse a separator-joined list ('Anti-INFANTRY 4+, Twin Linked'); '-' or '' is none.

    Unknown entries become ``custom`` abilities and are reported as problems.
    """
    cell = cell.strip()
    if cell in ("", "-", "–"):
        return [], []
    abilities: list[dict] = []
    problems: list[Problem] = []
    for part in cell.split(separator):
        part = part.strip()
        if part in ("", "-", "–"):
            continue
        ability, probs = parse_ability(part)
        if ability is None or any(p.message.startswith("unexpected text") for p in probs):
            # 'Psychic Assassin' is a rule of its own, not [PSYCHIC] with noise after it.
            ability, probs = custom_ability(part), [Problem(part, "not a known weapon ability")]
        problems.extend(probs)
        abilities.append(ability)
    return abilities, problems


_BRACKETED_NAME = re.compile(r"^(?P<name>[^\[]*?)\s*\[(?P<list>[^\]]*)\]?\s*$")


def split_weapon_name(cell: str) -> tuple[str, list[dict], list[Problem]]:
    """Split a weapon name cell into (name, abilities, problems), for both notations."""
    # '➤' marks one profile of a multi-profile weapon; it is layout, not name.
    cell = re.sub(r"\s+", " ", cell.strip().lstrip("➤").strip())
    m = _BRACKETED_NAME.match(cell)
    if m and "[" in cell:
        abilities, problems = parse_ability_list(m.group("list"))
        if not cell.endswith("]"):
            problems.append(Problem(cell, "ability list without closing ']'"))
        return m.group("name"), abilities, problems
    return split_run_on_name(cell)


def _parse_tail(words: list[str]) -> list[dict] | None:
    """Parse words as a run of abilities with no separators; None if they are not one."""
    found: list[dict] = []
    i = 0
    while i < len(words):
        # Longest phrase first, so 'rapid fire 1' wins over a shorter reading.
        for j in range(min(len(words), i + 4), i, -1):
            ability, problems = parse_ability(" ".join(words[i:j]))
            if ability is not None and not problems:
                break
        else:
            return None
        if any(a["id"] == ability["id"] for a in found):
            return None  # the same ability twice means a name word was taken for one
        found.append(ability)
        i = j
    return found


def split_run_on_name(cell: str) -> tuple[str, list[dict], list[Problem]]:
    """Split 'Combi-weapon anti-infantry 4+ devastating wounds' into name and abilities.

    The name is the shortest non-empty prefix after which the remaining words parse as
    a run of distinct abilities. 'Bolt pistol pistol' gives 'Bolt pistol' + [PISTOL]:
    reading 'pistol pistol' as two abilities would repeat one.
    """
    words = cell.split()
    for i in range(1, len(words)):
        tail = _parse_tail(words[i:])
        if tail is not None:
            return " ".join(words[:i]), tail, []
    return cell, [], []


def canonical_text(ability: dict) -> str:
    """The normalised upper-case form, e.g. 'ANTI-INFANTRY 4+' or 'SUSTAINED HITS D3'."""
    if ability["id"] == "custom":
        return ability["name"]
    name, _kind = ABILITIES[ability["id"]]
    if ability["id"] == "anti":
        out = f"ANTI-{ability['keyword']} {ability['threshold']}+"
    elif "value" in ability:
        out = f"{name} {ability['value']}"
    else:
        out = name
    if "condition" in ability:
        out += f": {ability['condition']}"
    return out


_MENTION_RE = re.compile(r"\[[A-Za-z][^\[\]\n]{1,40}?(?:\]|(?=[\s.,;]|$))")


def find_mentions(text: str) -> tuple[list[dict], list[Problem]]:
    """Abilities named in running text: '[SUSTAINED HITS 1]', '[ANTI-INFANTRy 2+]'.

    An unclosed bracket ('[SUSTAINED HITS liability') is read as the longest run of
    words after it that parses as one ability, and reported. Bracketed names that are
    not weapon abilities (rule headings such as '[ANTI]', placeholders such as
    '[ANTI-X Y+]') are skipped.
    """
    mentions: list[dict] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    for m in re.finditer(r"\[([^\[\]\n]{1,60})(\]?)", text):
        inner, closed = m.group(1), m.group(2)
        if closed:
            ability, probs = parse_ability("[" + inner + "]")
            if any("unexpected" in p.message for p in probs):
                continue  # a placeholder such as [BLAST X], not an ability in use
        else:
            ability, probs = None, []
            words = inner.split()
            for n in range(min(len(words), 5), 0, -1):
                candidate = " ".join(words[:n]).rstrip(".,;:")
                ability, probs = parse_ability("[" + candidate)
                if ability is not None and not any("unexpected" in p.message for p in probs):
                    break
                ability = None
        if ability is None:
            continue
        key = canonical_text(ability)
        problems.extend(probs)
        if key in seen:
            continue
        seen.add(key)
        mentions.append(ability)
    return mentions, problems
