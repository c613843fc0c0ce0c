"""Driving the site's search box in Chromium: type a query, read the results' page URLs."""

from __future__ import annotations

from urllib.parse import urlsplit

BOX = ".ws-search--header"


def ask(page, base: str, text: str, box: str = BOX) -> list[str]:
    """The URLs (relative to the site's root) of the results `box` lists for `text`, in order."""
    field = page.locator(f"{box} .ws-search__input")
    field.fill(text)
    page.wait_for_function("([sel, text]) => { const r = document.querySelector(sel); "
                           "return r && r.wsSearch && r.wsSearch.answered === text; }", arg=[box, text], timeout=20000)
    hrefs = page.eval_on_selector_all(f"{box} .ws-search__item a", "els => els.map(e => e.href)")
    root = urlsplit(base).path
    return [urlsplit(h).path[len(root):] + (f"#{urlsplit(h).fragment}" if urlsplit(h).fragment else "") for h in hrefs]
