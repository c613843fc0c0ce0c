"""The errata and FAQ (``faqs.json``): one faq record per entry.

An entry is an erratum (``errataHeader``, ``errataText``) or a question and its answer
(``question``, ``answer``), of a ``publication`` ("Codex: Space Marines", "Core Rules"), with
the ``targets`` it amends: ``{type, id, name}``, the type one of datasheet, stratagem,
enhancement, detachment, ruleContainer (a core-rules container), armyRule, publication.

A target's ``ref`` is the id of our record of it. The app's ids of detachments and core-rules
containers are those of the faction and core files; those of datasheets, stratagems,
enhancements and army rules are the app's own, not the files' (which number them otherwise):
those are found by name, in the army the publication is of ("Codex Supplement: Black
Templars": Black Templars, then the army it belongs to, Space Marines), else in the one army
of the whole game that has the name. A target found neither way keeps its name alone; how many
resolve is counted in the report.
"""

from __future__ import annotations

import re

from warscribe.extract.app.entries import Entry, line_of, name_of
from warscribe.extract.app.factions import army_name
from warscribe.extract.app.markup import english, is_text, plain
from warscribe.extract.app.source import AppFile
from warscribe.schema import ids, records
from warscribe.schema.diagnostics import Report
from warscribe.schema.text import norm

TYPES = {"datasheet": "datasheet", "stratagem": "stratagem", "enhancement": "enhancement",
         "detachment": "detachment", "ruleContainer": "rule", "armyRule": "army-rule", "publication": "publication"}
_PUBLICATION = re.compile(r"^(?:Codex Supplement|Codex|Index|Imperial Armour)\s*:\s*", re.I)


class Index:
    """Our records' ids by the app's ids and by (kind, army, name), for the FAQ's targets."""

    def __init__(self, containers: dict[str, str]):
        self.by_app_id: dict[tuple[str, str], str] = {("rule", k): v for k, v in containers.items()}
        self.by_name: dict[tuple[str, str, str], set[str]] = {}  # (kind, army, name) -> ids
        self.anywhere: dict[tuple[str, str], set[str]] = {}  # (kind, name): the ids of every army
        self.parents: dict[str, str] = {}  # army -> the army it belongs to

    def add_army(self, file: AppFile, named: list[tuple[str, str | None, str, str]]) -> None:
        army = army_name(file.doc.get("name") if is_text(file.doc.get("name")) else "")
        parent = file.doc.get("parent_name")
        if is_text(parent) and english(parent):
            self.parents[army] = army_name(parent)
        matched_play = file.role == "faction"
        for kind, app_id, name, rid in named:
            if app_id and kind == "detachment":
                self.by_app_id.setdefault((kind, app_id), rid)
            if matched_play:  # the FAQ amends the publications' (matched-play) records
                key = norm(name)
                self.by_name.setdefault((kind, army, key), set()).add(rid)
                self.anywhere.setdefault((kind, key), set()).add(rid)

    def resolve(self, kind: str, app_id, name: str, publication: str | None) -> str | None:
        """Our id of a target, or None where it cannot be told."""
        if isinstance(app_id, str) and (kind, app_id) in self.by_app_id:
            return self.by_app_id[(kind, app_id)]
        if kind in ("rule", "publication") or not name:
            return None
        key = norm(name)
        army = army_name(_PUBLICATION.sub("", publication)) if publication else None
        for where in (army, self.parents.get(army or "")):
            found = self.by_name.get((kind, where or "", key), set())
            if len(found) == 1:
                return next(iter(found))
        found = self.anywhere.get((kind, key), set())
        return next(iter(found)) if len(found) == 1 else None


def _words(value) -> str:
    return plain(english(value)) if is_text(value) else ""


def read(file: AppFile, report: Report, index: Index) -> list[tuple[dict, list[dict]]]:
    """The faq records of faqs.json, in the file's order; how many targets resolve is reported."""
    root = line_of(file.doc)
    entries = file.doc.get("faqs")
    if not isinstance(entries, list):
        report.warning(file.name, root, "bad-app-data", "faqs is not a list; not read", expected="a list",
                       found=type(entries).__name__)
        return []
    out = []
    taken: set[str] = set()
    targets = resolved = 0
    unresolved: dict[str, int] = {}
    for n, e in enumerate(entries):
        if not isinstance(e, dict):
            continue
        pub = e.get("publication")
        publication = name_of(pub.get("name")) if isinstance(pub, dict) else ""
        header = _words(e.get("errataHeader")) or _words(e.get("question"))
        text = _words(e.get("errataText")) or _words(e.get("answer"))
        entry = Entry(file, report, line_of(e, root), f"FAQ entry {header[:60]!r}")
        if not header:
            entry.warn("bad-app-data", "FAQ entry without a header or a question; not made a record",
                       expected="errataHeader or question", found="nothing")
            continue
        if not text:
            entry.warn("empty-field", "FAQ entry without its erratum or answer; kept with its header",
                       expected="errataText or answer", found="nothing")
        amends = []
        targets_given = e.get("targets") or []
        if not isinstance(targets_given, list):
            entry.warn("bad-app-data", "its targets are not a list; the entry is kept amending nothing",
                       expected="a list of targets", found=type(targets_given).__name__)
            targets_given = []
        for t in targets_given:
            if not isinstance(t, dict):
                entry.warn("bad-app-data", "a target that is not an object; left out", expected="an object",
                           found=type(t).__name__)
                continue
            kind = TYPES.get(t["type"]) if isinstance(t.get("type"), str) else None
            name = name_of(t.get("name"))
            if kind is None or not name:
                entry.warn("bad-app-data", f"a target of type {t.get('type')!r} named {name!r} cannot be read; left out",
                           expected=", ".join(TYPES), found=str(t.get("type"))[:40])
                continue
            targets += 1
            ref = index.resolve(kind, t.get("id"), name, publication or None)
            resolved += ref is not None
            if ref is None and kind != "publication":
                unresolved[kind] = unresolved.get(kind, 0) + 1
            amends.append({"type": kind, "name": name, **({"ref": ref} if ref else {})})
        base = ids.faq(file.ruleset, publication or None, header)
        rid, k = base, 2
        while rid in taken:  # one header for several entries (a datasheet amended twice)
            rid, k = f"{base}-{k}", k + 1
        taken.add(rid)
        order = e.get("order")
        record = records.faq(id=rid, name=header, ruleset=file.ruleset, publication=publication or None, text=text,
                             amends=amends, order=order if isinstance(order, int) and not isinstance(order, bool)
                             and order >= 0 else n)
        out.append((record, [entry.prov()]))
    if resolved < targets:
        left = ", ".join(f"{k} {v}" for k, v in sorted(unresolved.items()))
        report.warning(file.name, root, "unresolved-reference", f"{resolved:,} of {targets:,} FAQ targets resolve "
                       f"to a record of the app's data; the others keep their name only ({left or 'none'})",
                       expected="every target a record", found=f"{targets - resolved:,} unresolved")
    return out
