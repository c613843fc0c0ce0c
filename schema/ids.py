"""Every record id formula, in one place.

Ids are the keys that sources meet on: a datasheet read from a text page, from the
Wahapedia CSV export and from BattleScribe data is one record only because each
reader computes its id here. Ids match ``defs.schema.json#/$defs/id``.
"""

from __future__ import annotations

from warscribe.schema.text import number_slug, slugify


def datasheet(faction: str, name: str) -> str:
    return f"{slugify(faction)}/{slugify(name)}"


def weapon(datasheet_id: str, name: str) -> str:
    return f"{datasheet_id}/{slugify(name)}"


def weapons(datasheet_id: str, names: list[str], types: list[str] | None = None) -> list[str]:
    """Ids of a datasheet's weapons, in order of appearance: one per distinct (name, type).

    A ranged and a melee profile of one name (a Guardian Spear shoots and strikes) are
    two weapons: where a datasheet has both under one slug, the melee ones' ids end in
    ``-melee`` ('.../guardian-spear', '.../guardian-spear-melee'), whichever comes first,
    so every reader of the same datasheet gives the same ids. Names that slug alike
    otherwise ('Plasma gun', 'Plasma-gun!') must not become one record: the first keeps
    the plain id, each later distinct name gets the next free numeric suffix
    ('.../plasma-gun-2'). A (name, type) given twice (two profiles' rows) keeps one id.
    """
    types = list(types) if types is not None else [""] * len(names)
    by_slug: dict[str, set[str]] = {}
    for name, kind in zip(names, types):
        by_slug.setdefault(weapon(datasheet_id, name), set()).add(kind)
    taken: set[str] = set()
    given: dict[tuple[str, str], str] = {}
    out = []
    for name, kind in zip(names, types):
        if (name, kind) not in given:
            base = weapon(datasheet_id, name)
            if kind == "melee" and "ranged" in by_slug[base]:
                base += "-melee"
            wid, n = base, 1
            while wid in taken:
                n += 1
                wid = f"{base}-{n}"
            taken.add(wid)
            given[(name, kind)] = wid
        out.append(given[(name, kind)])
    return out


def in_game_mode(game_mode: str | None, record_id: str) -> str:
    """The id of a record of a game mode of its own (Combat Patrol's forces): its matched-play
    id under the mode's slug ('combat-patrol/space-marines/...'), so the two never collide;
    matched play (no mode) keeps the id as it is."""
    return f"{slugify(game_mode)}/{record_id}" if game_mode else record_id


def detachment(faction: str, name: str) -> str:
    return f"{slugify(faction)}/{slugify(name)}"


def stratagem_prefix(origin: str, ruleset: str, detachment_id: str | None = None) -> str:
    """The id prefix of a stratagem: its detachment's id, or one per core ruleset / Challenger ruleset / Boarding Actions."""
    if origin == "core":
        return f"core-{ruleset}"
    if origin == "boarding-actions":
        return "boarding-actions"
    if origin == "challenger":
        return f"challenger-{ruleset}"
    if not detachment_id:
        raise ValueError("a detachment stratagem needs its detachment's id")
    return detachment_id


def stratagem(origin: str, ruleset: str, name: str, detachment_id: str | None = None) -> str:
    return f"{stratagem_prefix(origin, ruleset, detachment_id)}/{slugify(name)}"


def enhancement(name: str, detachment_id: str | None, faction: str) -> str:
    """Under its detachment; under the faction when the detachment is not known."""
    return f"{detachment_id or slugify(faction)}/enhancements/{slugify(name)}"


def unit_ability(faction: str, unit: str, name: str) -> str:
    """An ability of one unit known without its datasheet (a rules extract of the unit's page)."""
    return f"{datasheet(faction, unit)}/abilities/{slugify(name)}"


def weapon_ability(ruleset: str, ability_id: str) -> str:
    """The rule text of a weapon ability of the vocabulary ([LETHAL HITS] -> 10e/abilities/lethal-hits)."""
    return f"{ruleset}/abilities/{ability_id}"


def core_ability(ruleset: str, name: str) -> str:
    return f"{ruleset}/abilities/{slugify(name)}"


def faction_ability(faction: str, name: str) -> str:
    return f"{slugify(faction)}/abilities/{slugify(name)}"


def rule(ruleset: str, title: str, number: str | None = None) -> str:
    slug = slugify(title)
    return f"{ruleset}/rules/" + (f"{number_slug(number)}-{slug}" if number else slug)


def untitled_rule(ruleset: str, source_title: str, first_words: str) -> str:
    """A passage whose heading was lost: named by its source and its first words."""
    return f"{ruleset}/rules/{slugify(source_title)}-{slugify(first_words)}"


def faq(ruleset: str, publication: str | None, name: str) -> str:
    """An entry of the errata and FAQ: under its publication, named by its header's first words
    (a header can be a sentence long; ids stay short enough to be file names)."""
    slug = slugify(name)
    if len(slug) > _FAQ_SLUG:
        slug = slug[:_FAQ_SLUG].rsplit("-", 1)[0]
    return f"{ruleset}/faqs/{slugify(publication or 'general')}/{slug}"


_FAQ_SLUG = 60


def keyword(ruleset: str, name: str) -> str:
    return f"{ruleset}/keywords/{slugify(name)}"


def tsv_row(catalogue: str, name: str, row: int) -> str:
    """A row of a BattleScribe-style TSV (no record id): ``<catalogue>/<name>#<row>``, rows counted from 1."""
    return f"{catalogue}/{name}#{row}"
