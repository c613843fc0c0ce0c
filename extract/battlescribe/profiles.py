"""A profile's characteristics as the data shows them for one unit: its own modifiers applied.

A shared weapon profile says BS 3+ and carries ``set BS 2+ when an ancestor is a
Captain``: reached from a Captain, the weapon is BS 2+. Modifiers whose condition holds
for the unit in its army are applied (``set``, ``increment``, ``decrement`` of a
number, ``append`` of text); one whose condition depends on the player's choices for the
unit (a wargear option taken) is not, and is returned for the caller to report with its
condition.
"""

from __future__ import annotations

import re

from warscribe.extract.battlescribe import conditions
from warscribe.extract.battlescribe.common import number
from warscribe.extract.battlescribe.conditions import Modifier, Scope

_NUMBER = re.compile(r"^(?P<pre>[^0-9-]*)(?P<n>-?\d+)(?P<post>.*)$")


def characteristics_in(profile: dict, scope: Scope) -> tuple[dict[str, str], list[Modifier]]:
    """{'BS': '2+', ...} by upper-case name, and the modifiers not applied (their condition is unknown)."""
    chars: dict[str, str] = {}
    by_type: dict[str, str] = {}
    for c in profile.get("characteristics") or []:
        if isinstance(c, dict):
            name = str(c.get("name", "")).upper()
            chars[name] = str(c.get("$text", "")).strip()
            if c.get("typeId"):
                by_type[str(c["typeId"])] = name
    pending: list[Modifier] = []
    if not conditions.has_modifiers(profile):
        return chars, pending
    for mod in conditions.modifiers(profile):
        name = by_type.get(mod.field)
        if name is None:
            continue  # the profile's name, its visibility: read elsewhere
        applies = mod.applies(scope)
        times = mod.times(scope) if applies else 0
        if applies is None or times is None:
            pending.append(mod)
            continue
        if applies:
            changed = _apply(mod, chars[name], times)
            if changed is None:
                pending.append(mod)
            else:
                chars[name] = changed
    return chars, pending


def _apply(mod: Modifier, value: str, times: int) -> str | None:
    given = str(mod.mod.get("value", ""))
    if mod.type == "set":
        return given
    if mod.type == "append":
        join = str(mod.mod.get("join", ", "))
        return given if value in ("", "-") else f"{value}{join}{given}"
    if mod.type in ("increment", "decrement"):
        m = _NUMBER.match(value)
        if m is None:
            return None
        # As BattleScribe shows it: the number written is changed ('increment 1' of BS 3+ is 4+).
        step = int(number(given)) * times * (1 if mod.type == "increment" else -1)
        return f"{m.group('pre')}{int(m.group('n')) + step}{m.group('post')}"
    return None


def report_pending(out, found, name: str, mod: Modifier) -> None:
    """A characteristic modifier not applied, grouped by profile type and characteristic."""
    text = "; ".join(conditions.describe(c, out.index.name) for c in mod.conditions()) or "no condition"
    profile = found.profile
    field = next((str(c.get("name")) for c in profile.get("characteristics") or []
                  if isinstance(c, dict) and str(c.get("typeId")) == mod.field), mod.field)
    out.group("conditional-characteristic", f"{profile.get('typeName')} {field}", found.file, profile,
              f"{profile.get('typeName')} profile {name!r}: {field} {mod.type} {mod.mod.get('value')} when {text}; "
              "not applied (it depends on what the unit takes)", f"{name} ({field} {mod.type} {mod.mod.get('value')})",
              expected="a modifier whose condition the unit meets or not", found=text)
