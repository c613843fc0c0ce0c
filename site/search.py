"""The site's search index (written beside the pages) and the normal form that search compares.

`normal` must agree with `tokens()` of site/handwritten/assets/warscribe-search.js, which applies
the same steps to what a player types (a test holds the two together).
"""

from __future__ import annotations

import re
import unicodedata

_MARKS = re.compile(r"[\u0300-\u036f]")
_APOSTROPHES = re.compile(r"['’‘`´ʼ]")
_SEPARATORS = re.compile(r"[\W_]+")


def tokens(text: str) -> list[str]:
    """Words of `text` as search compares them: no accents, lower case, apostrophes dropped, split at anything else."""
    text = _MARKS.sub("", unicodedata.normalize("NFKD", text)).lower()
    return [t for t in _SEPARATORS.split(_APOSTROPHES.sub("", text)) if t]


def normal(text: str) -> str:
    return " ".join(tokens(text))


# Words too common to find anything by; a query's other words still must match.
STOPWORDS = frozenset(
    "a an and any are as at be by can each for from has have if in into is it its of on one or that the their "
    "them then this those to until was when which while with within you your".split())
# Kinds in the order they win a tie between pages of the same title (a faction before its keyword).
KIND_ORDER = ("faction", "datasheet", "stratagem", "detachment", "enhancement", "ability", "rule", "weapon",
              "keyword", "index")
_SHARD_SAFE = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def shard_of(term: str) -> str:
    """The file a term's postings live in: its first two characters ('_' and hex for any other character)."""
    return "".join(c if c in _SHARD_SAFE else f"_{ord(c):x}" for c in term[:2])


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


def build_index(pages, labels: dict[str, str]) -> tuple[dict, dict[str, dict[str, str]]]:
    """The titles index (what search loads first) and the word shards (fetched per query word).

    titles: {"kinds": [...], "labels": [...], "contexts": [...], "pages": [[title, kind, context, url,
    aliases?], ...], "legends": [page number, ...]}, kinds in tie order; "legends" the Legends
    datasheets, which a player may hide from the results (a fact of the record, not a word of the
    title or context). shards: shard -> {term: postings}, a posting list being the page numbers in
    base 36, each the difference from the one before, joined by commas.
    """
    kinds = [k for k in KIND_ORDER]
    for p in pages:
        if p.kind not in kinds:
            kinds.append(p.kind)
    contexts: dict[str, int] = {}
    rows = []
    legends = []
    postings: dict[str, list[int]] = {}
    for p in pages:
        n = len(rows)
        ctx = contexts.setdefault(p.context, len(contexts))
        aliases = [x for x in dict.fromkeys(p.aliases) if normal(x) != normal(p.title)]
        rows.append([p.title, kinds.index(p.kind), ctx, p.url] + ([aliases] if aliases else []))
        if p.legends:
            legends.append(n)
        title_words = set(tokens(p.title))
        for alias in aliases:
            title_words.update(tokens(alias))
        seen = set()
        for text in p.words:
            for t in tokens(text):
                if t in seen or t in STOPWORDS or t in title_words or len(t) < 2:
                    continue
                seen.add(t)
                postings.setdefault(t, []).append(n)
    shards: dict[str, dict[str, str]] = {}
    for term in sorted(postings):
        nums, last, parts = postings[term], 0, []
        for x in nums:
            parts.append(_base36(x - last))
            last = x
        shards.setdefault(shard_of(term), {})[term] = ",".join(parts)
    titles = {"version": 1, "kinds": kinds, "labels": [labels.get(k, k.title()) for k in kinds],
              "contexts": list(contexts), "pages": rows, "legends": legends, "shards": sorted(shards)}
    return titles, shards


def write_index(pages, labels: dict[str, str], folder) -> dict:
    """search/titles.json and search/words/<shard>.json under `folder`; returns the sizes written."""
    import json

    titles, shards = build_index([p for p in pages if p.searchable], labels)
    (folder / "words").mkdir(parents=True, exist_ok=True)
    data = json.dumps(titles, ensure_ascii=False, separators=(",", ":"))
    (folder / "titles.json").write_text(data, encoding="utf-8")
    words = 0
    for key, terms in shards.items():
        text = json.dumps(terms, ensure_ascii=False, separators=(",", ":"))
        (folder / "words" / f"{key}.json").write_text(text, encoding="utf-8")
        words += len(text.encode("utf-8"))
    return {"titles": len(data.encode("utf-8")), "words": words, "shards": len(shards), "entries": len(titles["pages"])}
