"""The army-muster rules of each edition (``rules.yaml``): limits, and the citation of each rule."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from warscribe.roster.names import key
from warscribe.schema import safeyaml

RULES_FILE = Path(__file__).with_name("rules.yaml")
RULE_NAMES = ("points-limit", "points", "unit-size", "datasheet-limit", "enhancements", "leader", "warlord",
              "faction", "detachment-points", "requisition", "starting-strength")
# The 11th edition's limits are not here: they are read from the build's rule records (``muster``).
READ_FROM_BUILD = ("points-limit", "datasheet-limit", "enhancements", "leader", "warlord", "detachment-points")


@dataclass(frozen=True)
class Rule:
    name: str
    cite: str
    evidence: str = ""
    record: str = ""  # a knowledge-base record holding the rule's text, where the build has one
    number: str = ""  # the rule's number, as its record gives it
    sources: tuple = ()  # 'file:line' of each source stating it (the record's provenance)

    def text(self) -> str:
        out = self.cite + (f" [{self.record}]" if self.record else "")
        if self.sources and self.record:
            out += f" ({'; '.join(self.sources[:3])}{'; ...' if len(self.sources) > 3 else ''})"
        return out

    def as_dict(self) -> dict:
        return {"number": self.number or None, "record": self.record or None, "sources": list(self.sources)}


@dataclass(frozen=True)
class Edition:
    ruleset: str
    battle_sizes: dict
    datasheet_limit: dict
    enhancements: dict
    warlord: dict
    detachment_points: dict | None
    rules: dict
    muster: object = None  # 11e: the muster.Muster the limits were read from
    from_build: bool = False  # the limits are read from the build's rule records (11e), not from rules.yaml
    def rule(self, name: str) -> Rule:
        return self.rules[name]

    def size_name(self, name: str | None, limit: int | None) -> str | None:
        """The battle size a list names (or, unnamed, whose limit it gives); None when neither says."""
        for size, points in self.battle_sizes.items():
            if name and key(size) == key(name):
                return size
        for size, points in self.battle_sizes.items():
            if limit == points:
                return size
        return None

    def datasheet_max(self, keywords: set[str], size: str | None) -> tuple[int, str]:
        """How many units of a datasheet with these keywords the army may have, and why."""
        lim = self.datasheet_limit
        if "EPIC HERO" in keywords:
            return lim["epic_hero"], "an EPIC HERO"
        wide = any(k in keywords for k in lim["wide_keywords"])
        table = lim.get("incursion") if size == "Incursion" and lim.get("incursion") else lim
        which = "wide" if wide else "default"
        what = " or ".join(lim["wide_keywords"]) if wide else "a datasheet"
        return table[which], what + (" at Incursion" if table is not lim else "")

    def enhancement_max(self, size: str | None) -> int:
        e = self.enhancements
        return e["incursion_max"] if size == "Incursion" and "incursion_max" in e else e["max"]


class RulesError(ValueError):
    pass


@lru_cache(maxsize=2)
def load(path: Path = RULES_FILE) -> dict[str, Edition]:
    try:
        doc = safeyaml.load_file(path)
    except (OSError, safeyaml.YamlError) as exc:
        raise RulesError(f"{path}: {exc}") from None
    out = {}
    for ruleset, body in (doc or {}).get("editions", {}).items():
        rules = {}
        for name, value in body["rules"].items():
            if name not in RULE_NAMES:
                raise RulesError(f"{path}: {ruleset}: unknown rule {name!r} (known: {', '.join(RULE_NAMES)})")
            value = value if isinstance(value, dict) else {"cite": value}
            rules[name] = Rule(name, value["cite"], value.get("evidence", ""), value.get("record", ""))
        from_build = body.get("from_build", False)
        optional = {"detachment-points", "requisition", "starting-strength"} | (set(READ_FROM_BUILD) if from_build
                                                                               else set())
        missing = set(RULE_NAMES) - set(rules) - optional
        if missing:
            raise RulesError(f"{path}: {ruleset}: no citation for {sorted(missing)}")
        out[ruleset] = Edition(ruleset, body.get("battle_sizes", {}), body.get("datasheet_limit", {}),
                               body.get("enhancements", {}), body.get("warlord", {}), body.get("detachment_points"),
                               rules, from_build=from_build)
    return out


def edition(ruleset: str) -> Edition:
    return load()[ruleset]
