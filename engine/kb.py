"""Weapons and units from a built knowledge base (``out/json/warscribe.json``), for scenario ``ref``s.

The bundle is ``{"meta": {...}, "data": {"weapon": [records...], ...}}``; weapon
records follow ``schema/weapon.schema.json``. A scenario's ``ref`` names a weapon by
id, or by name when exactly one weapon has it (case-insensitive); a target's ``ref``
and ``leader`` name datasheets the same way, whose model characteristics (where the
build has them) become the target's model kinds.
"""

from __future__ import annotations

import difflib
import re
from functools import cached_property
from pathlib import Path

from warscribe.engine.composition import match_lines
from warscribe.engine.errors import ScenarioError
from warscribe.schema.bundle import Bundle, BundleError, from_bundle
from warscribe.schema.bundle import load as load_bundle
from warscribe.engine.model import ModelKind, Weapon

FEEL_NO_PAIN = re.compile(r"^feel no pain (?P<x>[2-6])\+$", re.IGNORECASE)


class KnowledgeBase:
    """The weapons of a build, looked up by id or unique name (through the one bundle loader)."""

    def __init__(self, bundle: dict | Bundle, origin: str = "<bundle>"):
        if not isinstance(bundle, Bundle):
            data = bundle.get("data") if isinstance(bundle, dict) else None
            if not isinstance(data, dict) or not isinstance(data.get("weapon"), list):
                raise ScenarioError(f"{origin}: not a Warscribe bundle (no data.weapon list); run `warscribe build`",
                                    "no-knowledge-base")
            try:
                bundle = from_bundle(bundle, origin)
            except BundleError as exc:
                raise ScenarioError(str(exc), "no-knowledge-base") from None
        self.bundle = bundle
        self.origin = bundle.origin
        self.by_id, self.by_name = _index(bundle.kind("weapon"))

    @classmethod
    def load(cls, path: str | Path) -> KnowledgeBase:
        try:
            return cls(load_bundle(path))
        except BundleError as exc:
            raise ScenarioError(f"knowledge base: {exc} (or pass --kb PATH)", "no-knowledge-base") from None

    def resolve(self, ref: str, field: str) -> Weapon:
        """The weapon named by ``ref``; an unknown or ambiguous ref is a ScenarioError."""
        return weapon_from_record(self._find(ref, field, "weapon", self.by_id, self.by_name), field)

    def datasheet(self, ref: str, field: str) -> dict:
        """The datasheet named by ``ref`` (id, or a name only one datasheet has)."""
        return self._find(ref, field, "datasheet", *self._datasheets)

    @cached_property
    def _datasheets(self) -> tuple[dict[str, dict], dict[str, list[dict]]]:
        # Made once: the whole game has 1,624 datasheets, and rebuilding this on every lookup
        # was 3.4 ms of each scenario naming a datasheet (the engine's own work: 0.2 ms).
        return _index(self.bundle.kind("datasheet"))

    def _find(self, ref: str, field: str, what: str, by_id: dict[str, dict], by_name: dict[str, list[dict]]) -> dict:
        record = by_id.get(ref)
        if record is not None:
            return record
        matches = by_name.get(ref.casefold(), [])
        if len(matches) > 1:
            ids = ", ".join(sorted(r["id"] for r in matches))
            raise ScenarioError(f"{field}: {ref!r} matches {len(matches)} {what}s; use one of the ids: {ids}",
                                f"unknown-{what}")
        if not matches:
            # Each name once (two factions' datasheets can share one: the ids tell them apart).
            keys = list(dict.fromkeys(list(by_id) + [r["name"] for rs in by_name.values() for r in rs]))
            close = difflib.get_close_matches(ref, keys, n=5, cutoff=0.5)
            close += [k for k in keys if ref.casefold() in k.casefold() and k not in close][: 5 - len(close)]
            hint = f"; did you mean: {', '.join(close)}" if close else ""
            raise ScenarioError(f"{field}: unknown {what} {ref!r} in {self.origin}{hint}", f"unknown-{what}")
        return matches[0]


def _index(records: list[dict]) -> tuple[dict[str, dict], dict[str, list[dict]]]:
    """Records by id, and by case-folded name (a list: names can repeat)."""
    by_id = {r["id"]: r for r in records}
    by_name: dict[str, list[dict]] = {}
    for record in records:
        by_name.setdefault(str(record.get("name", "")).casefold(), []).append(record)
    return by_id, by_name


def weapon_from_record(record: dict, field: str = "weapon") -> Weapon:
    """A Weapon from a weapon record (schema/weapon.schema.json)."""
    try:
        return Weapon(
            name=record["name"],
            type=record["type"],
            range=record.get("range"),
            attacks=record["attacks"],
            skill=record["skill"],
            strength=record["strength"],
            ap=record["ap"],
            damage=record["damage"],
            abilities=tuple(record.get("abilities", ())),
            id=record.get("id"),
            ruleset=record.get("ruleset"),
        )
    except KeyError as exc:
        raise ScenarioError(f"{field}: knowledge-base record {record.get('id')!r} lacks {exc.args[0]!r}") from None


def shares(composition: list[dict], models: int, field: str, rid) -> list[int]:
    """``models`` models shared out by composition line: each line its minimum, then the rest to
    the lines in order up to their maximum (ScenarioError: a count the composition does not allow)."""
    low = sum(c["min"] for c in composition)
    high = sum(c["max"] for c in composition)
    if not low <= models <= high:
        printed = ", ".join(f"{c['min']}{'' if c['min'] == c['max'] else '-' + str(c['max'])} {c['name']}" for c in composition)
        raise ScenarioError(f"{field}: datasheet {rid!r} has {low}-{high} models ({printed}), not {models}")
    counts = [c["min"] for c in composition]
    extra = models - low
    for i, c in enumerate(composition):
        add = min(extra, c["max"] - c["min"])
        counts[i] += add
        extra -= add
    return counts


def model_kinds(record: dict, models: int, field: str) -> list[ModelKind]:
    """``models`` models of a datasheet as model kinds, shared out by its composition.

    Each composition line ('1 Paragon', '3-9 Paladins') takes its minimum, then the
    rest goes to the lines in order up to their maximum. A line is matched to a model
    profile by name (``engine.composition``), or to the only profile there is.
    """
    profiles = record.get("models") or []
    rid = record.get("id")
    if not profiles:
        raise ScenarioError(
            f"{field}: datasheet {rid!r} has no model characteristics in this build (text pages do not give them; "
            "build with a Wahapedia CSV export, or list the target's model kinds)"
        )
    composition = record.get("composition") or [{"name": profiles[0]["name"], "min": 1, "max": 100}]
    counts = shares(composition, models, field, rid)
    by_profile: dict[int, int] = {}
    placed = match_lines([c["name"] for c in composition], [p["name"] for p in profiles], record.get("name", ""))
    for c, n, match in zip(composition, counts, placed):
        if not n:
            continue
        if match is None and len(profiles) == 1:
            match = 0
        if match is None:
            names = ", ".join(p["name"] for p in profiles)
            raise ScenarioError(f"{field}: datasheet {rid!r}: composition line {c['name']!r} matches no model profile ({names})")
        by_profile[match] = by_profile.get(match, 0) + n
    keywords = frozenset(k.upper() for k in list(record.get("keywords", [])) + list(record.get("faction_keywords", [])))
    # Keywords the datasheet prints for some models only (the Dark Apostle's CHARACTER, not his
    # Disciples'): a kind has them when its profile lists them, and the others do not.
    own = [frozenset(k.upper() for k in p.get("keywords") or ()) for p in profiles]
    specific = frozenset().union(*own)
    fnp = None
    for ability in record.get("abilities", []):
        m = FEEL_NO_PAIN.match(str(ability.get("name", "")).strip())
        if m:
            fnp = int(m.group("x")) if fnp is None else min(fnp, int(m.group("x")))
    out = []
    for i in sorted(by_profile):
        p = profiles[i]
        missing = [k for k in ("T", "Sv", "W") if not isinstance(p.get(k), int)]
        if missing:
            raise ScenarioError(f"{field}: datasheet {rid!r}, model {p['name']!r} lacks {', '.join(missing)}")
        out.append(ModelKind(name=p["name"], count=by_profile[i], toughness=p["T"], save=p["Sv"], wounds=p["W"],
                             invulnerable=p.get("invulnerable"), feel_no_pain=fnp,
                             keywords=(keywords - specific) | own[i]))
    return out
