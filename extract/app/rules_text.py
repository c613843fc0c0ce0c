"""A rule the app prints as a list of parts (army rules, detachment rules, core-rules containers)
made one text.

A part is ``{order, type, text, title?, subTitle?}``: ``text`` a paragraph; ``header`` and
``textBold`` a heading line of its own; ``boxedText`` a boxed paragraph, ``quote`` an example;
``accordion`` and ``triggerEffectAccordion`` a named passage (its title a line before its text,
with the subtitle the app gives, "+40 points": a title without its text is reported);
``image`` and ``bullets`` parts whose text is "-" are pictures the app shows, with no words of
their own: they are counted, and reported once per rule, not kept. Parts are taken in their
``order`` (the order given where two share one).
"""

from __future__ import annotations

from warscribe.extract.app.entries import Entry
from warscribe.extract.app.markup import english, is_text, plain

TEXT_TYPES = ("text", "header", "textBold", "boxedText", "quote", "accordion", "triggerEffectAccordion", "bullets")
# Named passages: a title with its text (the app gives some with their title only).
_NAMED = ("accordion", "triggerEffectAccordion")
PICTURES = ("image",)


def ordered(parts) -> list[dict]:
    """The parts that are objects, by their `order` (an order that is no number sorts last)."""
    items = [p for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []
    keyed = [((p.get("order") if isinstance(p.get("order"), int) and not isinstance(p.get("order"), bool)
               else 1 << 30), i, p) for i, p in enumerate(items)]
    return [p for _o, _i, p in sorted(keyed, key=lambda t: (t[0], t[1]))]


def _words(value) -> str:
    return plain(english(value)) if is_text(value) else ""


def paragraph(part: dict) -> str | None:
    """The text of one part; None for a part with no words (a picture, a '-' placeholder)."""
    body = _words(part.get("text"))
    if body in ("", "-"):
        body = ""
    title = _words(part.get("title"))
    sub = _words(part.get("subTitle"))
    head = f"{title} ({sub})" if title and sub else title or sub
    if head and body:
        return f"{head}\n\n{body}"
    return head or body or None


def rule_text(entry: Entry, parts, pictures: bool = True) -> str:
    """The parts of one rule as one text, paragraphs split by a blank line; parts of a type not known are
    reported (their words are kept), and so are pictures unless `pictures` is False (the caller counts them)."""
    out: list[str] = []
    shown = 0
    for part in ordered(parts):
        kind = part.get("type")
        text = paragraph(part)
        if kind in PICTURES or text is None:
            shown += kind in PICTURES or kind == "bullets"
            if text is None:
                continue
        elif kind in _NAMED and not _words(part.get("text")).strip("- "):
            entry.warn("empty-field", f"passage {text!r} has its title only in the app; kept so",
                       expected="its text", found="nothing")
        elif kind not in TEXT_TYPES:
            entry.warn("bad-app-data", f"a part of type {kind!r} is not one the reader knows; its text is kept "
                       "as a paragraph", expected=", ".join(TEXT_TYPES + PICTURES), found=str(kind))
        out.append(text)
    if shown and pictures:
        entry.warn("app-unused", f"{shown} part(s) the app shows as a picture (no words in the data); not kept",
                   expected="text", found="image")
    return "\n\n".join(out)
