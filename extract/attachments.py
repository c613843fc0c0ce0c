"""Attachments stated on one side only: a unit a Leader's list names is led by that Leader.

BattleScribe's data and the app's print the list on the Leader (LEADER: "This model can be
attached to ..."); the pages print both sides. The reader of one source derives its own
units' `led_by`, and the build derives it again once the sources have met, so a unit is
led by every Leader any source lists it under.
"""

from __future__ import annotations

from warscribe.schema import records


def derive_led_by(recs: list[dict]) -> None:
    """Each datasheet a Leader's list names gets that leader in its `led_by` (sources that print
    only the leader's side: BattleScribe's data, the app's), and the Leader's list the names as
    its units' records spell them. Units are matched in one ruleset, faction and game mode."""
    by_name: dict[tuple, dict] = {}
    for record in recs:
        if record["kind"] == "datasheet":
            by_name.setdefault(_unit_key(record, record["name"]), record)
    grown: dict[int, dict] = {}  # the records whose led_by this made or added to
    for record in recs:
        if record["kind"] != "datasheet" or "leader" not in record:
            continue
        named = []
        for unit in record["leader"]["units"]:
            led = by_name.get(_unit_key(record, unit))
            named.append(led["name"] if led is not None else unit)
            if led is not None:
                entry = led.setdefault("led_by", {"text": "This unit can be led by the following units:", "units": []})
                if record["name"].lower() not in {u.lower() for u in entry["units"]}:  # spelt as another source spells it
                    entry["units"].append(record["name"])
                    grown[id(led)] = led
        record["leader"]["units"] = list(dict.fromkeys(named))
    # A list as a source printed it keeps its order; one this made, or added to, is sorted.
    for record in grown.values():
        record["led_by"]["units"].sort()
        records.in_constructor_order(record)


def _unit_key(record: dict, name: str) -> tuple:
    return record["ruleset"], record["faction"], record.get("game_mode"), name.lower()
