"""Weapons from a built knowledge base (``out/json/warscribe.json``), for scenario ``ref``s.

The bundle is ``{"meta": {...}, "data": {"weapon": [records...], ...}}``; weapon
records follow ``schema/weapon.schema.json``. A scenario's ``ref`` names a weapon by
id, or by name when exactly one weapon has it (case-insensitive).
"""

from __future__ import annotations

import difflib
from pathlib import Path

from warscribe.engine.errors import ScenarioError
from warscribe.schema.bundle import Bundle, BundleError, from_bundle
from warscribe.schema.bundle import load as load_bundle
from warscribe.engine.model import Weapon


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
        self.by_id: dict[str, dict] = {r["id"]: r for r in bundle.kind("weapon")}
        self.by_name: dict[str, list[dict]] = {}
        for record in bundle.kind("weapon"):
            self.by_name.setdefault(str(record.get("name", "")).casefold(), []).append(record)

    @classmethod
    def load(cls, path: str | Path) -> KnowledgeBase:
        try:
            return cls(load_bundle(path))
        except BundleError as exc:
            raise ScenarioError(f"knowledge base: {exc} (or pass --kb PATH)", "no-knowledge-base") from None

    def resolve(self, ref: str, field: str) -> Weapon:
        """The weapon named by ``ref``; an unknown or ambiguous ref is a ScenarioError."""
        record = self.by_id.get(ref)
        if record is None:
            matches = self.by_name.get(ref.casefold(), [])
            if len(matches) > 1:
                ids = ", ".join(sorted(r["id"] for r in matches))
                raise ScenarioError(f"{field}: {ref!r} matches {len(matches)} weapons; use one of the ids: {ids}",
                                    "unknown-weapon")
            if not matches:
                keys = list(self.by_id) + [r["name"] for rs in self.by_name.values() for r in rs]
                close = difflib.get_close_matches(ref, keys, n=5, cutoff=0.5)
                close += [k for k in keys if ref.casefold() in k.casefold() and k not in close][: 5 - len(close)]
                hint = f"; did you mean: {', '.join(close)}" if close else ""
                raise ScenarioError(f"{field}: unknown weapon {ref!r} in {self.origin}{hint}", "unknown-weapon")
            record = matches[0]
        return weapon_from_record(record, field)


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
