"""Characteristic values as printed in profiles: '24"', 'Melee', 'D6+1', '3+', 'N/A', '-2'.

Every reader (text pages, HTML, CSV exports) parses characteristics here, so a value
means the same whatever format it arrived in. Each parser raises ValueError with a
message that says what was expected.
"""

from __future__ import annotations

import re

from warscribe.schema import DICE_PATTERN

# The schemas' dice pattern, so a parsed value always validates.
_DICE = re.compile(DICE_PATTERN.removeprefix("^").removesuffix("$"))
_NONE = ("", "-", "–", "—", "N/A")


def parse_int(raw: str, what: str) -> int:
    raw = raw.strip()
    if not re.fullmatch(r"\d+", raw):
        raise ValueError(f"{what} {raw!r} is not a whole number")
    return int(raw)


def parse_range(raw: str) -> int | float | None:
    """Inches as a number; None for 'Melee', and for 'N/A' (a ranged weapon that has no range: the
    Deathstrike missile)."""
    raw = raw.strip()
    if raw.lower() in ("melee", "n/a"):
        return None
    m = re.fullmatch(r'(\d+(?:\.\d+)?)\s*(?:"|”|″)?', raw)
    if not m:
        raise ValueError(f"range {raw!r} is not inches or 'Melee'")
    value = float(m.group(1))
    return int(value) if value.is_integer() else value


def parse_inches(raw: str, what: str) -> int | None:
    """A move-like characteristic ('6"', '12"+'); None where the model has none ('-')."""
    raw = raw.strip()
    if raw in _NONE:
        return None
    m = re.fullmatch(r'(\d+)\s*(?:"|”|″|\'\')?\+?', raw)
    if not m:
        raise ValueError(f"{what} {raw!r} is not inches")
    return int(m.group(1))


def parse_dice(raw: str, what: str) -> int | str:
    """A whole number or a dice expression (D3, D6, 2D6, D6+1)."""
    raw = raw.strip().upper()
    if re.fullmatch(r"\d+", raw):
        return int(raw)
    if _DICE.fullmatch(raw):
        return raw
    raise ValueError(f"{what} {raw!r} is not a number or dice expression")


def parse_plus(raw: str, what: str, allow_none: bool = False) -> int | None:
    """'2+' or a bare '2'; '-' / '' / 'N/A' is None where the characteristic may be absent."""
    raw = raw.strip()
    if allow_none and raw.upper() in _NONE:
        return None
    m = re.fullmatch(r"(\d+)\+?", raw)
    if not m:
        raise ValueError(f"{what} {raw!r} is not a number with or without '+'")
    return int(m.group(1))


def parse_skill(raw: str) -> int | None:
    """BS/WS: 2+ to 6+ (a bare number is accepted, as exports write it); None for N/A."""
    value = parse_plus(raw, "BS/WS", allow_none=True)
    if value is not None and not 2 <= value <= 6:
        raise ValueError(f"BS/WS {raw.strip()!r} is not 2+ to 6+ or N/A")
    return value


def parse_ap(raw: str) -> int:
    raw = raw.strip().replace("–", "-")
    if raw in ("-0", "+0"):  # a sign printed before 0 (the export's 'Flamer': AP -0)
        raw = "0"
    if not re.fullmatch(r"0|-[1-9]", raw):
        raise ValueError(f"AP {raw!r} is not 0, -1, -2 ...")
    return int(raw)


# The largest whole-number A, S or D the attack engine computes in reasonable time
# (its lists are indexed by these values); no datasheet comes near it.
MAX_CHARACTERISTIC = 10_000
_LETTER = {"attacks": "A", "strength": "S", "damage": "D"}


def implausible(profile: dict) -> list[tuple[str, str]]:
    """(field, why) for each characteristic of a weapon profile no rules document prints.

    S 0, D 0 and A 0 make no attack; a whole number above MAX_CHARACTERISTIC is scraping
    damage (digits run together) or a hostile source. Dice expressions are always plausible.
    """
    out = []
    for field, letter in _LETTER.items():
        value = profile.get(field)
        if not isinstance(value, int) or isinstance(value, bool):
            continue
        if value == 0:
            out.append((field, f"{letter} 0 makes no attack"))
        elif value > MAX_CHARACTERISTIC:
            out.append((field, f"{letter} {value:,} is more than the attack engine computes (at most {MAX_CHARACTERISTIC:,})"))
    return out
