"""Stable page URLs, derived from record ids (an id never changes for the same source).

Every record kind has its own folder, so ids that look alike across kinds (a datasheet
and a detachment of one faction) never meet. A weapon record is a row of its datasheet
(``#weapon-<id's last part>``); weapon pages, one per name, are ``weapon/<ruleset>/<slug>/``
(:class:`warscribe.site.pages.WeaponNames`). An id becomes a path as a record's file does
(schema/filenames.py: portable, bounded).
"""

from __future__ import annotations

import posixpath

from warscribe.schema.filenames import part_name, record_path
from warscribe.schema.text import slugify


def record_url(record: dict) -> str:
    """'datasheet/grey-knights/paladin-squad/' (directory URLs); weapons are anchors on their datasheet."""
    if record["kind"] == "weapon":
        return f"datasheet/{record_path(record['datasheet'])}/#" + weapon_anchor(record)
    return f"{record['kind']}/{record_path(record['id'])}/"


def weapon_anchor(weapon: dict) -> str:
    """A weapon's row on its datasheet: from its id, so a ranged and a melee profile of one name differ."""
    return "weapon-" + part_name(weapon["id"].rsplit("/", 1)[-1])


def record_file(record: dict) -> str:
    return f"{record['kind']}/{record_path(record['id'])}.md"


def faction_url(name: str) -> str:
    return f"faction/{part_name(slugify(name))}/"


def source_url(file: str) -> str:
    return f"source/{source_slug(file)}/"


def source_slug(file: str) -> str:
    return part_name(slugify(posixpath.basename(file)))


def source_slugs(files) -> dict[str, str]:
    """Each source file's slug: its name's, or, where two files share a name (an army's file and its
    Combat Patrol file, ``space_marines.json`` and ``combatpatrol/space_marines.json``), its whole path's,
    numbered in path order if even those meet."""
    by_slug: dict[str, list[str]] = {}
    for file in sorted(set(files)):
        by_slug.setdefault(source_slug(file), []).append(file)
    out: dict[str, str] = {}
    taken = {slug for slug, group in by_slug.items() if len(group) == 1}
    for slug, group in sorted(by_slug.items()):
        if len(group) == 1:
            out[group[0]] = slug
            continue
        for file in group:
            base = part_name(slugify(file)) or slug
            candidate, n = base, 1
            while candidate in taken:
                n += 1
                candidate = f"{base}-{n}"
            taken.add(candidate)
            out[file] = candidate
    return out


def index_url(name: str) -> str:
    return "" if name == "index" else f"{name}/"


def file_of(url: str) -> str:
    """The Markdown file that makes a page URL."""
    path = url.split("#", 1)[0].rstrip("/")
    return (path or "index") + ".md" if path else "index.md"


def relative(from_url: str, to_url: str) -> str:
    """The href from one page to another (both directory URLs, optionally with #anchor).

    Site URLs are plain folder paths ('a/b/'), so the relative path is the folders left
    to climb plus the rest of the target; this runs for every link of every page.
    """
    path, _, anchor = to_url.partition("#")
    suffix = f"#{anchor}" if anchor else ""
    if path == from_url:
        return suffix or "./"
    here = from_url.split("/")[:-1] if from_url else []
    there = path.split("/")[:-1] if path else []
    common = 0
    for a, b in zip(here, there):
        if a != b:
            break
        common += 1
    rel = "../" * (len(here) - common) + "".join(part + "/" for part in there[common:])
    return (rel if rel.startswith("../") else "./" + rel) + suffix
