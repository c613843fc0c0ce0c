"""Distinct ids for names that slug alike, each collision reported where the later name is."""

from __future__ import annotations

from warscribe.schema import ids
from warscribe.schema.diagnostics import Report


def weapon_ids(report: Report, file: str, ds_id: str, named: list[tuple[str, int]],
               types: list[str] | None = None) -> list[str]:
    """Distinct ids for a datasheet's weapons (name, line; and their types where known); names that
    slug alike are reported, but a ranged and a melee profile of one name (``-melee``) are not a collision."""
    out = ids.weapons(ds_id, [name for name, _line in named], types)
    first: dict[str, str] = {}
    for (name, line), wid in zip(named, out):
        plain = ids.weapon(ds_id, name)
        first.setdefault(plain, name)
        if wid not in (plain, plain + "-melee"):
            report.warning(file, line, "id-collision", f"weapon {name!r} has the same id as {first[plain]!r} "
                           f"({plain}); given the id {wid}", expected="weapon names that differ in letters or digits",
                           found=name)
    return out
