"""Stratagems at the table: a page per faction and per detachment, one card a stratagem.

A player mid-game asks "what can I use now, and what does it cost": each card shows its
CP and its phases first, then WHEN / TARGET / EFFECT / RESTRICTIONS. The cards of a page
can be filtered by phase and by whose turn it is, with radio buttons and CSS alone (no
script: the page works printed, offline, and with scripts off). A detachment's page holds
its rules, its stratagems, then the core and Challenger ones of its ruleset, so one page
is everything a player of that detachment needs; a faction's page holds every detachment.

URLs: ``cards/<faction>/`` and ``cards/<detachment id>/`` (``cards/space-marines/gladius-task-force/``).
Card pages repeat texts the stratagem pages hold, so they stay out of the search index.
"""

from __future__ import annotations

from collections import defaultdict

from warscribe.schema.filenames import record_path
from warscribe.schema.text import slugify
from warscribe.site import urls
from warscribe.site.markup import a, attrs, el, esc
from warscribe.site.pages import EDITIONS, Page, Site, is_patrol

PHASES = (("command", "Command"), ("movement", "Movement"), ("shooting", "Shooting"), ("charge", "Charge"),
          ("fight", "Fight"))
TURNS = (("your", "Your turn"), ("opponent", "Opponent’s turn"))
_TURN_LABEL = {"your": "Your turn", "opponent": "Opponent’s turn", "either": "Either player’s turn"}
# The filters: a checked radio hides the cards it does not select. Fixed text, never from a source.
_CSS = (
    ".ws-cards-wrap>input{position:absolute;opacity:0;width:1px;height:1px}"
    ".ws-cards-wrap>label{display:inline-block;cursor:pointer;padding:.1rem .6rem;margin:0 .25rem .35rem 0;"
    "border-radius:1rem;border:1px solid var(--md-default-fg-color--lighter);font-size:.75rem}"
    ".ws-cards-wrap>input:focus-visible+label{outline:2px solid var(--md-accent-fg-color)}"
    ".ws-cards-wrap>input:checked+label{background:var(--md-primary-fg-color);color:var(--md-primary-bg-color);"
    "border-color:var(--md-primary-fg-color)}"
    ".ws-card{border:1px solid var(--md-default-fg-color--lightest);border-left:.3rem solid var(--md-primary-fg-color);"
    "border-radius:.2rem;padding:.4rem .7rem;margin:.5rem 0;break-inside:avoid}"
    ".ws-card-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:.5rem;font-size:.85rem}"
    ".ws-card-cp{font-weight:700;font-size:1.1rem;min-width:2.6rem}"
    ".ws-card-name{font-weight:700}"
    ".ws-card-tags{display:flex;flex-wrap:wrap;gap:.3rem;font-size:.7rem;margin:.2rem 0}"
    ".ws-tag-phase{padding:0 .45rem;border-radius:.6rem;background:var(--md-code-bg-color)}"
    ".ws-tag-turn{padding:0 .45rem;color:var(--md-default-fg-color--light)}"
    ".ws-card dl{margin:.2rem 0;font-size:.75rem}.ws-card dt{font-weight:700;float:left;margin-right:.4rem}"
    ".ws-card dd{margin:0 0 .2rem 0}"
    + "".join(f"#ws-ph-{p}:checked~.ws-cards .ws-card:not(.ph-{p}):not(.ph-any){{display:none}}" for p, _l in PHASES)
    + "".join(f"#ws-tu-{t}:checked~.ws-cards .ws-card:not(.tu-{t}):not(.tu-either){{display:none}}" for t, _l in TURNS)
)


def card_url(key: str) -> str:
    """The card page of a faction (its slug) or a detachment (its id)."""
    return f"cards/{record_path(key)}/"


def pages(site: Site) -> list[Page]:
    """A card page per faction and per detachment of the build (with stratagems)."""
    b = site.bundle
    by_detachment: dict[str, list[dict]] = defaultdict(list)
    general: dict[tuple[str, str], list[dict]] = defaultdict(list)  # (ruleset, origin) -> core / challenger
    for s in b.kind("stratagem"):
        if s.get("detachment"):
            by_detachment[s["detachment"]].append(s)
        elif s["origin"] in ("core", "challenger"):
            general[(s["ruleset"], s["origin"])].append(s)
    factions: dict[str, list[dict]] = defaultdict(list)
    patrols: list[dict] = []  # Combat Patrol's: a card page each, never on a faction's page of matched play
    for det in b.kind("detachment"):
        if by_detachment.get(det["id"]):
            (patrols if is_patrol(det) else factions[det["faction"]]).append(det)
    out = []
    for faction, dets in sorted(factions.items()):
        dets.sort(key=lambda d: (d["name"].casefold(), d["id"]))
        out.append(_faction_page(site, faction, dets, by_detachment))
        out += [_detachment_page(site, det, by_detachment[det["id"]], general) for det in dets]
    out += [_detachment_page(site, det, by_detachment[det["id"]], general)
            for det in sorted(patrols, key=lambda d: (d["faction"].casefold(), d["name"].casefold(), d["id"]))]
    return out


def _faction_page(site: Site, faction: str, dets: list[dict], by_detachment: dict) -> Page:
    page = Page(card_url(slugify(faction)), f"{faction} stratagems", kind="cards", searchable=False,
                crumbs=site.crumbs_to_faction(faction))
    page.add(el("p", "At the table: every detachment’s stratagems, CP and phase first. " + ", ".join(
        a(site.href(page.url, card_url(d["id"])), esc(d["name"])) for d in dets) + ".", class_="ws-meta"))
    sections = "".join(
        el("h2", a(site.href(page.url, card_url(d["id"])), esc(d["name"])), id="det-" + slugify(d["name"]))
        + _cards(site, page, by_detachment[d["id"]]) for d in dets)
    page.add(_filtered(sections))
    return page


def _detachment_page(site: Site, det: dict, own: list[dict], general: dict) -> Page:
    patrol = is_patrol(det)
    page = Page(card_url(det["id"]), f"{det['name']} stratagems", kind="cards", searchable=False,
                crumbs=(site.crumbs_to_patrol if patrol else site.crumbs_to_faction)(det["faction"])
                + [(det["name"], site.url_of(det))])
    back = [a(site.href(page.url, "combat-patrol/"), "Combat Patrol") if patrol else
            a(site.href(page.url, card_url(slugify(det["faction"]))), esc(det["faction"]) + " stratagems"),
            a(site.href(page.url, urls.record_url(det)), "the detachment"),
            esc(EDITIONS.get(det["ruleset"], det["ruleset"]))]
    page.add(el("p", " · ".join(back), class_="ws-meta"))
    rules = [r for r in ([det["rule"]] if det.get("rule") else []) + det.get("additional_rules", [])]
    if rules:
        page.add(el("details", el("summary", "Detachment rule" + ("s" if len(rules) > 1 else "") + ": "
                                  + esc(", ".join(r["name"] for r in rules)))
                    + "".join(el("h3", esc(r["name"])) + _lines(r.get("text")) for r in rules), class_="ws-card-rules"))
    sections = el("h2", esc(det["name"])) + _cards(site, page, own)
    for origin, title in (("core", "Core stratagems"), ("challenger", "Challenger stratagems (while you are the Challenger)")):
        extra = general.get((det["ruleset"], origin))
        if extra:
            sections += el("h2", esc(title)) + _cards(site, page, extra)
    page.add(_filtered(sections))
    return page


def _filtered(sections_html: str) -> str:
    """The filter buttons and the cards, in one element: the CSS reaches the cards from a checked
    button through '~', so the buttons are the cards' siblings."""
    radios = []
    for group, options in (("ph", (("all", "All phases"),) + PHASES), ("tu", (("all", "Either turn"),) + TURNS)):
        for key, label in options:
            rid = f"ws-{group}-{key}"
            radios.append(f"<input{attrs(type='radio', name=f'ws-{group}', id=rid, checked=key == 'all')}>"
                          + el("label", esc(label), for_=rid, class_=f"ws-filter-{group}"))
        radios.append("<br>")
    return el("div", el("style", _CSS) + "".join(radios) + el("div", sections_html, class_="ws-cards"),
              class_="ws-cards-wrap", data_search_exclude=True)


def _cards(site: Site, page: Page, strats: list[dict]) -> str:
    return "".join(_card(site, page, s) for s in sorted(strats, key=lambda s: (_first_phase(s), s["cp"], s["name"])))


def _first_phase(s: dict) -> int:
    order = [p for p, _l in PHASES]
    phases = s.get("phases") or []
    return min((order.index(p) for p in phases if p in order), default=-1 if "any" in phases else len(order))


def _card(site: Site, page: Page, s: dict) -> str:
    phases = s.get("phases") or []
    turn = s.get("turn")
    classes = ["ws-card"] + [f"ph-{p}" for p in phases] + ([f"tu-{turn}"] if turn else ["tu-either"])
    if not phases:
        classes.append("ph-unknown")
    head = (el("span", esc(f"{s['cp']}CP"), class_="ws-card-cp")
            + el("span", a(site.href(page.url, urls.record_url(s)), esc(s["name"])), class_="ws-card-name")
            + (el("span", esc(s["category"])) if s.get("category") else ""))
    labels = dict(PHASES, any="Any phase")
    tags = "".join(el("span", esc(labels.get(p, p)), class_="ws-tag-phase") for p in phases) or \
        el("span", "Phase: see WHEN", class_="ws-tag-phase")
    if turn:
        tags += el("span", esc(_TURN_LABEL[turn]), class_="ws-tag-turn")
    body = "".join(el("dt", key.upper()) + el("dd", _lines(s[key])) for key in ("when", "target", "effect", "restrictions")
                   if s.get(key))
    return el("article", el("div", head, class_="ws-card-head") + el("div", tags, class_="ws-card-tags")
              + el("dl", body), class_=" ".join(classes))


def _lines(text: str | None) -> str:
    """A rules text with its line breaks (a list of items stays a list)."""
    return "<br>".join(esc(line) for line in (text or "").split("\n") if line.strip())
