"""Cross-links in rule text, resolved by the site's own step before any link is written.

Four kinds of reference are recognised in running text:

* weapon and core abilities in brackets: ``[SUSTAINED HITS 2]``, ``[DEEP STRIKE]``;
* rule numbers in parentheses: ``(06.03)``;
* keywords in capitals, as the record's ruleset knows them: ``INFANTRY``, ``PALADIN SQUAD``;
* stratagem names: in capitals (``POINT-BLANK PURGATION``) or before the word
  Stratagem (``the Fire Overwatch Stratagem``).

A bracket, a number or a "... Stratagem" that names nothing in the build is an
unresolved reference: it stays plain text and is reported with its page. Capitals that
are no keyword are ordinary words (``CP``, ``D6``) and are left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from warscribe.schema import ids
from warscribe.schema.abilities import parse_ability
from warscribe.schema.bundle import Bundle
from warscribe.site import urls
from warscribe.site.markup import esc, tip_link

_WORD = r"[A-Z][A-Z0-9'’\-]*"
_SCAN = re.compile(
    r"(?P<bracket>\[[^\[\]\n]{1,60}\])"
    r"|\((?P<number>\d{2}(?:\.\d{2}){0,3})\)"
    r"|(?P<titled>(?:[A-Z][\w'’\-]*\s){0,5}[A-Z][\w'’\-]*)(?=\sStratagems?\b)"
    rf"|(?P<caps>\b{_WORD}(?: {_WORD})*\b)"
)
_PARAMETERS = re.compile(r"(?:[\s-]+(?:[XY]\+?|KEYWORD|\S*\d\S*))+$")
_MAX_TIP = 220
# Words before "Stratagem" that make no name: "a Core Stratagem", "an Epic Deed Stratagem".
_NOT_NAMES = frozenset(
    "a an the this that these those each any another same other one of your their its core epic deed battle "
    "tactic tactics strategic ploy ploys wargear boarding actions detachment such".split())


@dataclass(frozen=True)
class Unresolved:
    page: str
    what: str  # "ability", "rule number", "stratagem"
    text: str


def summary(record: dict | None) -> str:
    """A rule's short summary for a tooltip: its first bullet, or its first sentences."""
    if not record:
        return ""
    text = ""
    if record.get("bullets"):
        text = record["bullets"][0]
    elif record["kind"] == "stratagem":
        text = record.get("effect") or ""
    else:
        text = record.get("text") or (record.get("rule") or {}).get("text") or ""
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) > _MAX_TIP:
        cut = text.rfind(" ", 0, _MAX_TIP)
        text = text[: cut if cut > 0 else _MAX_TIP] + "…"
    return text


class Linker:
    """Name and number look-ups over a bundle, and the unresolved references found so far."""

    def __init__(self, bundle: Bundle):
        self.bundle = bundle
        self.unresolved: list[Unresolved] = []
        self.numbers: dict[tuple[str, str], dict] = {}
        self.keywords: dict[tuple[str, str], dict] = {}
        self.stratagems: dict[tuple[str, str], dict] = {}
        self.abilities: dict[tuple[str, str], dict] = {}
        self.longest_keyword = 1
        # Matched play's records first: a Combat Patrol rule or stratagem of the same number or name
        # is linked only where matched play has none.
        def mode_last(kind: str) -> list[dict]:
            return sorted(bundle.kind(kind), key=lambda r: r.get("game_mode") is not None)

        for kind in ("rule", "ability", "stratagem"):
            for rec in mode_last(kind):
                if rec.get("number"):
                    self.numbers.setdefault((rec["ruleset"], rec["number"]), rec)
        for rec in bundle.kind("keyword"):
            self.keywords.setdefault((rec["ruleset"], rec["name"]), rec)
            self.longest_keyword = max(self.longest_keyword, len(rec["name"].split()))
        for rec in mode_last("stratagem"):
            # Detachment stratagems before core ones of the same name would be a guess: keep the first.
            self.stratagems.setdefault((rec["ruleset"], rec["name"].casefold()), rec)
        for rec in bundle.kind("ability"):
            if rec["type"] in ("weapon", "core"):
                self.abilities.setdefault((rec["ruleset"], rec["name"].casefold()), rec)
        # First word of a rule's name -> the rule, when one rule alone starts so ('Psychic Weapons and Abilities').
        prefixes: dict[tuple[str, str], list[dict]] = {}
        for rec in bundle.kind("rule"):
            prefixes.setdefault((rec["ruleset"], rec["name"].split()[0].casefold()), []).append(rec)
        self.rule_prefixes = {k: v[0] for k, v in prefixes.items() if len(v) == 1}

    # -- look-ups ---------------------------------------------------------------------

    def weapon_ability(self, ability: dict, ruleset: str) -> dict | None:
        """The rule record of a parsed weapon ability ({'id': 'sustained-hits', ...}).

        Where the ruleset has no record of that ability, a rule named after it
        ([PSYCHIC] -> 'Psychic Weapons and Abilities' in 10th edition) stands in.
        """
        if ability["id"] == "custom":
            return self.named(str(ability.get("name", "")), ruleset)
        return self.bundle.get(ids.weapon_ability(ruleset, ability["id"])) or self.named(
            ability["id"].replace("-", " "), ruleset)

    def named(self, name: str, ruleset: str) -> dict | None:
        key = name.casefold()
        found = self.abilities.get((ruleset, key))
        if found is None and key:
            found = self.rule_prefixes.get((ruleset, key))
        return found

    def bracket(self, text: str, ruleset: str) -> dict | None:
        parsed, _problems = parse_ability(text)
        if parsed is not None:
            found = self.weapon_ability(parsed, ruleset)
            if found:
                return found
        inner = text.strip("[]").strip()
        # [FEEL NO PAIN 5+] -> Feel No Pain; placeholders: [SUSTAINED HITS X], [ANTI-KEYWORD X+] -> Anti.
        name = _PARAMETERS.sub("", inner)
        return self.named(inner, ruleset) or self.named(name, ruleset)

    def keyword(self, name: str, ruleset: str) -> dict | None:
        found = self.keywords.get((ruleset, name))
        if found is None and name.endswith("S"):
            found = self.keywords.get((ruleset, name[:-1]))
        return found

    # -- text ---------------------------------------------------------------------------

    def link(self, record: dict, text: str, page: str, tip: bool = True) -> str:
        href = urls.relative(page, urls.record_url(record))
        return tip_link(href, text, summary(record) if tip else None, class_="ws-ref")

    def text(self, text: str | None, page: str, ruleset: str, self_id: str | None = None) -> str:
        """Escaped HTML of `text` with every reference it makes linked (a paragraph per line)."""
        if not text:
            return ""
        out = []
        for line in text.split("\n"):
            line = line.strip()
            if not line:
                continue
            bullet = line.startswith(("- ", "• ", "■ "))  # "■ ": the 11th edition's list items
            body = self._line(line[2:] if bullet else line, page, ruleset, self_id)
            out.append(("<li>" if bullet else "<p>") + body + ("</li>" if bullet else "</p>"))
        joined = "".join(out)
        return re.sub(r"((?:<li>.*?</li>)+)", r"<ul>\1</ul>", joined)

    def _line(self, line: str, page: str, ruleset: str, self_id: str | None) -> str:
        out = []
        pos = 0
        for m in _SCAN.finditer(line):
            out.append(esc(line[pos:m.start()]))
            pos = m.end()
            out.append(self._reference(m, page, ruleset, self_id))
        out.append(esc(line[pos:]))
        return "".join(out)

    def _reference(self, m: re.Match, page: str, ruleset: str, self_id: str | None) -> str:
        raw = m.group(0)
        if m.group("bracket"):
            rec = self.bracket(raw, ruleset)
            if rec is None:
                self.unresolved.append(Unresolved(page, "ability", raw))
                return esc(raw)
            return esc(raw) if rec["id"] == self_id else self.link(rec, raw, page)
        if m.group("number"):
            rec = self.numbers.get((ruleset, m.group("number"))) or self.numbers.get(("11e", m.group("number")))
            if rec is None:
                self.unresolved.append(Unresolved(page, "rule number", raw))
                return esc(raw)
            if rec["id"] == self_id:
                return esc(raw)
            return "(" + self.link(rec, m.group("number"), page) + ")"
        if m.group("titled"):
            return self._titled_stratagem(m.group("titled"), page, ruleset, self_id)
        return self._caps(m.group("caps"), page, ruleset, self_id)

    def _titled_stratagem(self, words: str, page: str, ruleset: str, self_id: str | None) -> str:
        # 'Use the Fire Overwatch': the name is the longest tail of the run that is a stratagem.
        parts = words.split()
        for i in range(len(parts)):
            name = " ".join(parts[i:])
            rec = self.stratagems.get((ruleset, name.casefold()))
            if rec is not None:
                head = esc(" ".join(parts[:i]) + " ") if i else ""
                body = esc(name) if rec["id"] == self_id else self.link(rec, name, page)
                return head + body
        if words.isupper():
            return self._caps(words, page, ruleset, self_id)
        if all(p.casefold() in _NOT_NAMES for p in parts):
            return esc(words)
        self.unresolved.append(Unresolved(page, "stratagem", words + " Stratagem"))
        return esc(words)

    def _caps(self, run: str, page: str, ruleset: str, self_id: str | None) -> str:
        """Greedy longest match of keywords and stratagem names over a run of capitalised words."""
        words = run.split(" ")
        out = []
        i = 0
        while i < len(words):
            for n in range(min(len(words) - i, max(self.longest_keyword, 6)), 0, -1):
                name = " ".join(words[i:i + n])
                rec = self.keyword(name, ruleset) or self.stratagems.get((ruleset, name.casefold()))
                if rec is not None and (n > 1 or len(name) > 1):
                    out.append(esc(name) if rec["id"] == self_id else self.link(rec, name, page, tip=rec["kind"] != "keyword"))
                    i += n
                    break
            else:
                out.append(esc(words[i]))
                i += 1
        return " ".join(out)
