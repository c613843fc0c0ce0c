"""What the site's search must find: a seeded sample of record titles in the forms players type them.

Used by the search tests (seeds and whole game) and by the measurements in the issue's
report. A query is a title as a player would type it (as named, with or without its
brackets, with either apostrophe or none, in lower case) or a datasheet name with one
letter wrong; each knows the page it must find.

Titles that several pages share (a Rhino of five factions, the keyword PALADIN SQUAD and
the datasheet Paladin Squad) tie: a query is found first when its page comes before any
page of another title, that is, within the first 1 + (pages tied with it) results with
only tied pages ahead of it. `strict` counts rank 1 alone as well.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import dataclass, field

from warscribe.site.search import normal
from warscribe.site.urls import faction_url

KINDS = ("datasheet", "weapon", "ability", "rule", "stratagem", "detachment", "enhancement", "keyword")
APOSTROPHES = "'’"


@dataclass(frozen=True)
class Query:
    kind: str
    text: str
    form: str
    expected: frozenset[str]  # any of these is the page
    tied: frozenset[str] = field(default_factory=frozenset)  # other pages of the same title


def forms(name: str, kind: str) -> list[tuple[str, str]]:
    """A title in the forms players type it: (form, text)."""
    out = [("as named", name), ("lower case", name.lower())]
    if "[" in name:
        out.append(("no brackets", re.sub(r"\s+", " ", name.replace("[", " ").replace("]", " ")).strip()))
    elif kind == "ability":
        out.append(("brackets", f"[{name.upper()}]"))
    if any(c in name for c in APOSTROPHES):
        out.append(("apostrophe '", name.replace("’", "'")))
        out.append(("apostrophe ’", name.replace("'", "’")))
        out.append(("no apostrophe", name.replace("'", "").replace("’", "")))
    seen, unique = set(), []
    for form, text in out:
        if text not in seen:
            seen.add(text)
            unique.append((form, text))
    return unique


def _pages(bundle, url_of) -> dict[str, set[str]]:
    """normal(title) -> every page URL of that title (records of the eight kinds and factions)."""
    pages: dict[str, set[str]] = defaultdict(set)
    for kind in KINDS:
        for rec in bundle.kind(kind):
            pages[normal(rec["name"])].add(url_of(rec))
    for rec in bundle.kind("datasheet"):
        pages[normal(rec["faction"])].add(faction_url(rec["faction"]))
    return pages


def sample(bundle, url_of, per_kind: int = 40, seed: int = 20) -> list[Query]:
    """`per_kind` titles of each kind (all where there are fewer), each in every form it has."""
    rng = random.Random(seed)
    pages = _pages(bundle, url_of)
    out = []
    for kind in KINDS:
        by_title: dict[str, dict] = {}
        for rec in sorted(bundle.kind(kind), key=lambda r: r["id"]):
            by_title.setdefault(normal(rec["name"]), rec)
        titles = sorted(by_title)
        chosen = titles if len(titles) <= per_kind else rng.sample(titles, per_kind)
        for key in sorted(chosen):
            rec = by_title[key]
            expected = {url_of(r) for r in bundle.kind(kind) if normal(r["name"]) == key}
            tied = frozenset(pages[key] - expected)
            for form, text in forms(rec["name"], kind):
                out.append(Query(kind, text, form, frozenset(expected), tied))
    return out


def _misspell(word: str, rng: random.Random) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    i = rng.randrange(1, len(word))  # players rarely miss the first letter
    op = rng.choice(("delete", "substitute", "insert", "transpose"))
    if op == "delete":
        return word[:i] + word[i + 1:]
    if op == "substitute":
        return word[:i] + rng.choice([c for c in letters if c != word[i].lower()]) + word[i + 1:]
    if op == "insert":
        return word[:i] + rng.choice(letters) + word[i:]
    j = i - 1 if i == len(word) - 1 else i
    return word[:j] + word[j + 1] + word[j] + word[j + 2:] if word[j] != word[j + 1] else word[:i] + word[i + 1:]


def misspellings(bundle, url_of, n: int = 60, seed: int = 20) -> list[Query]:
    """Datasheet names with one letter wrong (deleted, replaced, added or swapped) in one word of 5+ letters."""
    rng = random.Random(seed)
    sheets = sorted(bundle.kind("datasheet"), key=lambda r: r["id"])
    candidates = [d for d in sheets if any(len(w) >= 5 and w.isalpha() for w in d["name"].split())]
    chosen = candidates if len(candidates) <= n else rng.sample(candidates, n)
    out = []
    for rec in chosen:
        words = rec["name"].split()
        i = rng.choice([k for k, w in enumerate(words) if len(w) >= 5 and w.isalpha()])
        words[i] = _misspell(words[i], rng)
        expected = frozenset(url_of(r) for r in sheets if normal(r["name"]) == normal(rec["name"]))
        out.append(Query("datasheet", " ".join(words), "misspelt", expected))
    return out


def first(results: list[str], q: Query) -> bool:
    """The page before any page of another title (see the module's note on ties)."""
    for url in results[:1 + len(q.tied)]:
        if url in q.expected:
            return True
        if url not in q.tied:
            return False
    return False


def strict(results: list[str], q: Query) -> bool:
    return bool(results) and results[0] in q.expected


def within(results: list[str], q: Query, k: int = 5) -> bool:
    return any(url in q.expected for url in results[:k])


def rates(outcomes: list[tuple[Query, list[str]]]) -> dict[str, dict]:
    """Per kind (and 'misspelt'): queries, found first, strictly first, in the top 5, and the misses."""
    table: dict[str, dict] = {}
    for q, results in outcomes:
        key = "misspelt" if q.form == "misspelt" else q.kind
        row = table.setdefault(key, {"queries": 0, "first": 0, "strict": 0, "top5": 0, "misses": []})
        row["queries"] += 1
        row["first"] += first(results, q)
        row["strict"] += strict(results, q)
        row["top5"] += within(results, q)
        if not (within(results, q) if q.form == "misspelt" else first(results, q)):
            row["misses"].append((q.text, q.form, results[:3]))
    return table


def report(table: dict[str, dict]) -> str:
    lines = [f"{'kind':<12} {'queries':>7} {'first':>7} {'strict':>7} {'top 5':>7}"]
    for key, row in table.items():
        n = row["queries"] or 1
        lines.append(f"{key:<12} {row['queries']:>7} {row['first'] / n:>7.1%} {row['strict'] / n:>7.1%} "
                     f"{row['top5'] / n:>7.1%}")
    return "\n".join(lines)
