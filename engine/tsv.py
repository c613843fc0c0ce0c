"""BattleScribe-style TSV rows (the shared corpus) as engine weapons and targets.

Weapons: columns ``catalogue name type range A BS_WS S AP D keywords``; units:
``catalogue name M T SV InSv W LD OC`` (no model counts: the caller gives one). A
row the engine cannot read (a Strength of ``8+``, an AP of ``*``) comes back with
the reason instead of a value, so that callers list it rather than drop it. Rows
are numbered from 1 after the header, and named ``<catalogue>/<name>#<row>``.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from warscribe.engine.dist import DICE_RE
from warscribe.engine.model import Target, Weapon
from warscribe.schema import ids
from warscribe.schema.abilities import parse_ability_list

WEAPON_COLUMNS = ("catalogue", "name", "type", "range", "A", "BS_WS", "S", "AP", "D", "keywords")
UNIT_COLUMNS = ("catalogue", "name", "T", "SV", "InSv", "W")


@dataclass(frozen=True)
class Row:
    """One TSV row: its id, and the weapon or target it gives, or why it gives none."""

    id: str
    value: Weapon | Target | None
    reason: str | None = None


class TsvError(ValueError):
    """The file itself cannot be read as such a TSV (missing file or columns)."""


def _rows(path: Path, columns: tuple[str, ...]):
    try:
        fh = path.open(encoding="utf-8", newline="")
    except OSError as exc:
        raise TsvError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with fh:
        reader = csv.DictReader(fh, delimiter="\t")
        missing = [c for c in columns if c not in (reader.fieldnames or ())]
        if missing:
            raise TsvError(f"{path}: line 1: missing column(s) {', '.join(missing)} (found: {', '.join(reader.fieldnames or [])})")
        for number, row in enumerate(reader, start=1):
            cells = {k: (v or "").strip() for k, v in row.items() if k is not None}
            yield ids.tsv_row(cells["catalogue"], cells["name"], number), cells


def read_weapons(path: str | Path, ruleset: str = "10e") -> list[Row]:
    return _read(Path(path), WEAPON_COLUMNS, lambda cells: weapon_from_cells(cells, ruleset))


def read_units(path: str | Path, models: int) -> list[Row]:
    return _read(Path(path), UNIT_COLUMNS, lambda cells: target_from_cells(cells, models))


def _read(path: Path, columns, make) -> list[Row]:
    """Every row made into its object, or kept with the reason it could not be (never dropped)."""
    out = []
    for row_id, cells in _rows(path, columns):
        try:
            out.append(Row(row_id, make(cells)))
        except ValueError as exc:
            out.append(Row(row_id, None, str(exc)))
    return out


def _value(cell: str, what: str) -> int | str:
    text = cell.upper()
    if text.isdigit():
        return int(text)
    if DICE_RE.match(text):
        return text
    raise ValueError(f"{what} {cell!r} is not a number or dice expression")


def _plus(cell: str, what: str, low: int, high: int) -> int:
    text = cell.rstrip("+")
    if not text.isdigit() or not low <= int(text) <= high:
        raise ValueError(f"{what} {cell!r} is not {low}+ to {high}+")
    return int(text)


def weapon_from_cells(cells: dict, ruleset: str = "10e") -> Weapon:
    skill_cell = cells["BS_WS"].upper()
    skill = None if skill_cell == "N/A" else _plus(skill_cell, "skill", 2, 6)
    ap_cell = cells["AP"]
    if not ap_cell.lstrip("-").isdigit():
        raise ValueError(f"AP {ap_cell!r} is not a number")
    abilities, _problems = parse_ability_list(cells["keywords"])
    melee = cells["type"].lower() == "melee" or cells["range"].lower() == "melee"
    return Weapon(
        name=cells["name"],
        type="melee" if melee else "ranged",
        attacks=_value(cells["A"], "attacks"),
        skill=skill,
        strength=_value(cells["S"], "strength"),
        ap=-abs(int(ap_cell)),
        damage=_value(cells["D"], "damage"),
        abilities=tuple(abilities),
        ruleset=ruleset,
    )


def target_from_cells(cells: dict, models: int) -> Target:
    toughness = cells["T"]
    wounds = cells["W"]
    if not toughness.isdigit() or not 1 <= int(toughness) <= 30:
        raise ValueError(f"toughness {toughness!r} is not a number from 1 to 30")
    if not wounds.isdigit() or not 1 <= int(wounds) <= 100:
        raise ValueError(f"wounds {wounds!r} is not a number from 1 to 100")
    save = 7 if cells["SV"] in ("", "-") else _plus(cells["SV"], "save", 2, 7)
    inv = None if cells["InSv"] in ("", "-") else _plus(cells["InSv"], "invulnerable save", 2, 6)
    return Target(toughness=int(toughness), save=save, wounds=int(wounds), models=models, invulnerable=inv)
