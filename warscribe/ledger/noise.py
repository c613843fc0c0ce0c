"""What is not a change between two builds: the noise rules of `warscribe diff` and the change ledger.

Two releases of the same rules data differ in many ways that change no rule: the data's
authors reorder lists, mark a keyword up as ``**^^Kroot^^**`` where it was ``KROOT``, type
a curly apostrophe for a straight one, give an entry a new id; and lists Warscribe derives
from other records (an enhancement's eligible bearers, a keyword's datasheets, a unit's
possible leaders) change whenever a unit is added. Each rule below says what one such
difference is; the comparison (:func:`warscribe.ledger.diff.field_changes`) leaves those out and
counts them per rule, so a ledger says how much it left out and why.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

# rule -> what it leaves out. The order is the order a report lists them in.
RULES: dict[str, str] = {
    "entry-id": "a record whose catalogue entry id changed while its content did not",
    "reorder": "a list whose items only changed places (abilities, keywords, weapons, choices, price tiers)",
    "whitespace": "a text that differs only in spaces and line breaks",
    "quotes": "a text that differs only in quote style, dashes or hyphens (’ and ', – and -, a non-breaking hyphen)",
    "case": "a text that differs only in letter case (Kroot, KROOT)",
    "markup": "a text that differs only in the data's markup (**bold**, ^^keyword^^, *emphasis*) and case",
    "derived-list": "a list derived from other records (an enhancement's bearers, a keyword's datasheets, a unit's "
                    "possible leaders, a datasheet's weapons, a detachment's enhancements and stratagems) that "
                    "changed only because those records were added, removed or changed themselves: that is the change",
    "compiled": "what Warscribe derives from a text (compiled effects, mentions, the keyword expression of a "
                "restriction or target): the text itself is compared",
    "language": "a change only in another language (a record's `names`: the French or German name); the English "
                "text is the rule",
    "reference": "a reference that appears or goes only because the record it points at was added or removed (a "
                 "core ability's `ref` once the core rules are in the data): that record is the change",
}
# The text rules, in the order they are tried: a difference counts under the first form that makes it vanish.
TEXT_RULES = ("whitespace", "quotes", "case", "markup")

_QUOTES = str.maketrans({"’": "'", "‘": "'", "‛": "'", "′": "'", "`": "'", "“": '"', "”": '"', "″": '"',
                         "–": "-", "—": "-", "‐": "-", "‑": "-", "−": "-", "…": "...", "\u00a0": " "})
# BattleScribe's markup: **bold**, ^^keyword^^, *emphasis*, __underline__.
_MARKUP = re.compile(r"\*\*|\^\^|__|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])")

# Fields holding a record's names in other languages: never a change of the rule.
OTHER_LANGUAGES = frozenset({"names"})
# Fields holding what Warscribe compiles from a record's text, never compared themselves.
FROM_TEXT = frozenset({"effects", "mentions", "restriction_keywords", "target_keywords"})
# (kind, field) -> lists of record ids (or names) derived from other records.
DERIVED: frozenset[tuple[str, str]] = frozenset({
    ("enhancement", "bearers"), ("keyword", "datasheets"), ("keyword", "usage"), ("datasheet", "led_by.units"),
    ("datasheet", "weapons"), ("datasheet", "stratagems"), ("stratagem", "targets"),
    ("detachment", "enhancements"), ("detachment", "stratagems"),
})
# Fields of a record that decide its place in other records' derived lists: a record whose own
# change is in one of these explains its arrival in (or departure from) those lists.
DRIVERS = frozenset({"name", "faction", "keywords", "faction_keywords", "leader", "detachment", "datasheet",
                     "restriction", "target"})


def text_forms(text: str) -> tuple[str, str, str, str]:
    """`text` in the normal form of each text rule, cumulatively (see TEXT_RULES)."""
    spaced = " ".join(text.split())
    quoted = " ".join(spaced.translate(_QUOTES).split())
    folded = quoted.casefold()
    plain = " ".join(_MARKUP.sub("", folded).split())
    return spaced, quoted, folded, plain


def text_rule(a: str, b: str) -> str | None:
    """The text rule under which two different texts are the same text, or None when they differ in words."""
    for rule, x, y in zip(TEXT_RULES, text_forms(a), text_forms(b)):
        if x == y:
            return rule
    return None


def name_key(name: str) -> str:
    """A name as a list key: markup, case, quotes and spacing folded away (Bolt Pistol, Bolt pistol)."""
    return text_forms(name)[3]


def item_key(item) -> str | None:
    """What identifies an item of a list of records' parts (an ability, a model, a price tier), or None."""
    if not isinstance(item, dict):
        return None
    if "models" in item and "points" in item:  # a price tier: its size, condition and requisition threshold
        cond, copy = item.get("condition"), item.get("from_copy")
        return f"{item['models']} models" + (f", {cond}" if cond else "") + (f", from copy {copy}" if copy else "")
    for key in ("name", "id", "text", "marker"):
        value = item.get(key)
        if isinstance(value, str) and value:
            extra = item.get("keyword")  # anti-X: one ability id per keyword
            return name_key(value) + (f" {name_key(extra)}" if isinstance(extra, str) else "")
    return None


@dataclass
class Noise:
    """What a comparison left out, per rule, with a few examples of each (record id and path)."""

    counts: Counter = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    keep: int = 3

    def add(self, rule: str, where: str, n: int = 1) -> None:
        self.counts[rule] += n
        shown = self.examples.setdefault(rule, [])
        if len(shown) < self.keep:
            shown.append(where)

    def as_dict(self) -> dict:
        return {rule: {"count": self.counts[rule], "meaning": RULES[rule], "examples": self.examples.get(rule, [])}
                for rule in RULES if self.counts[rule]}

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass
class Context:
    """What a comparison of two records knows about the rest of the two builds.

    `explained`: ids (and casefolded names, for lists of names) of records added, removed or
    changed in a field that decides membership of derived lists (DRIVERS): a derived list
    changing by those members only is no change of its own.
    """

    noise: Noise = field(default_factory=Noise)
    explained: set[str] = field(default_factory=set)
    record: str = ""  # the id of the record being compared, for the examples
    kind: str = ""

    def explains(self, member) -> bool:
        """A derived list's member whose arrival or departure another change accounts for."""
        return isinstance(member, str) and (member in self.explained or named(member) in self.explained)


def named(name: str) -> str:
    """The key under which a record's name stands in `Context.explained` (lists of names: a unit's leaders)."""
    return "name:" + name_key(name)


def derived(kind: str, path: str) -> bool:
    return (kind, path) in DERIVED
