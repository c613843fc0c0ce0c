"""A unit a Leader's list names is led by that Leader, whichever source printed the list (extract/attachments.py)."""

from __future__ import annotations

from warscribe.extract.attachments import derive_led_by
from warscribe.schema import records


def _sheet(name, faction="Space Marines", leader=None, led_by=None, **extra):
    from warscribe.schema.text import slugify

    return records.datasheet(id=f"sm/{slugify(name)}", name=name, ruleset="11e", faction=faction, keywords=[],
                             faction_keywords=[], composition=[], points=[], abilities=[], weapons=[],
                             wargear_options=[], leader=leader or records.OMIT, led_by=led_by or records.OMIT,
                             models=[{"name": name}], **extra)


def _leads(*units):
    return {"text": "This model can be attached to the following units:", "units": list(units)}


def test_the_units_a_leader_names_are_led_by_it_in_one_faction_and_game_mode():
    squad = _sheet("Intercessor Squad")
    patrol_squad = _sheet("Intercessor Squad", game_mode="combat-patrol")
    other = _sheet("Intercessor Squad", faction="Blood Angels")
    recs = [squad, patrol_squad, other, _sheet("Lieutenant", leader=_leads("INTERCESSOR SQUAD")),
            _sheet("Captain", leader=_leads("Intercessor Squad", "Hellblaster Squad"))]
    derive_led_by(recs)
    assert squad["led_by"]["units"] == ["Captain", "Lieutenant"]  # sorted: a list no source printed
    assert list(squad)[-2:] == ["led_by", "models"]  # in the constructor's key order
    assert "led_by" not in patrol_squad and "led_by" not in other
    assert recs[3]["leader"]["units"] == ["Intercessor Squad"]  # as the unit's record spells it
    assert recs[4]["leader"]["units"] == ["Intercessor Squad", "Hellblaster Squad"]  # a unit the build lacks kept


def test_a_printed_list_keeps_its_order_and_gains_only_leaders_it_lacks():
    squad = _sheet("Death Riders", led_by={"text": "This unit can be led by:", "units": ["Lord Solar", "Lord Marshal"]})
    recs = [squad, _sheet("Lord Marshal", leader=_leads("Death Riders")),
            _sheet("lord solar", leader=_leads("Death Riders"))]
    derive_led_by(recs)
    assert squad["led_by"]["units"] == ["Lord Solar", "Lord Marshal"]  # nothing new: as printed
    recs.append(_sheet("Death Rider Commissar", leader=_leads("Death Riders")))
    derive_led_by(recs)
    assert squad["led_by"]["units"] == ["Death Rider Commissar", "Lord Marshal", "Lord Solar"]
