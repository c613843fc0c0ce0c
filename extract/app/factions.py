"""Which army a file of the app's data is: the name players and the Field Manual use.

The app names a faction by its faction keyword ("Adeptus Astartes", "Asuryani"); the
Field Manual, BattleScribe and players by the army ("Space Marines", "Aeldari"). Records
are filed under the army's name, so the app's, the Field Manual's and BattleScribe's
records of one unit get one id; the keyword stays a faction keyword of the records.
Where the two are the same name (most factions), nothing is mapped.
"""

from __future__ import annotations

from warscribe.extract.app.markup import english, plain

# The app's faction name -> the army's name, where they differ.
_ARMY_NAMES = {
    "Adeptus Astartes": "Space Marines",
    "Asuryani": "Aeldari",
    "Heretic Astartes": "Chaos Space Marines",
    "Legiones Daemonica": "Chaos Daemons",
    "Agents of the Imperium": "Imperial Agents",
    "Adeptus Titanicus": "Titan Legions",
}


def army_name(faction: str) -> str:
    """The army a faction of the app's data is (its name as players use it)."""
    name = plain(english(faction)).replace("\u2019", "'")
    return _ARMY_NAMES.get(name, name)
