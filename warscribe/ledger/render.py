"""The ledger as text (a terminal) and Markdown (a pull request, an announcement); JSON is `Ledger.as_dict`.

Both read the same way: the two sides with their dates, the counts, a summary table per
faction, what the noise rules left out, then the sections (points first), each grouped by
faction and unit; in Markdown every faction's part of a section folds (``<details>``), so a
ledger of thousands of changes opens as a page of tables.
"""

from __future__ import annotations

import difflib

from warscribe.ledger.diff import fmt_delta, fmt_number, impact_lines
from warscribe.ledger.diff import md_cell as md
from warscribe.ledger.model import SECTIONS, Cite, Item, Ledger, Side
from warscribe.schema.text import printable

COLUMNS = (("points", "points"), ("points_up", "up"), ("points_down", "down"), ("profiles", "profiles"),
           ("texts", "texts"), ("added", "added"), ("removed", "removed"), ("detachments", "detachments"),
           ("other", "other"))


# -- values as players read them ----------------------------------------------------------------


def show(item: Item, value) -> str:
    """A value of a change as printed on a datasheet: 3+ for a save, 12" for a range, lists joined."""
    what = item.what.rsplit(": ", 1)[-1] if ": " in item.what else ""
    if value is None:
        return "N/A" if what == "BS/WS" else "—"  # a weapon without a skill hits automatically (Torrent)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) if value else "(none)"
    if isinstance(value, int) and not isinstance(value, bool):
        if what in ("Sv", "BS/WS") or (what == "Ld" and value < 10):
            return f"{value}+"
        if what == "invulnerable save":
            return f"{value}++"
        if what in ("M", "range"):
            return f'{value}"'
    return str(value)


def signed(delta: int | None) -> str:
    return "" if delta is None else f"{delta:+d}"


def side_line(name: str, side: Side) -> str:
    bits = [side.label]
    if side.how != "build":
        bits.append({"git": "git revision", "battlescribe": "BattleScribe data", "app-json": "the app's data",
                     "field-manual": "the Munitorum Field Manual"}.get(side.how, side.how)
                    + (f" {side.commit[:12]}" if side.commit else ""))
    if side.version:
        bits.append(side.version)
    if not (side.date and side.version and side.date in side.version):
        bits.append(f"released {side.date}" if side.date else "release date unknown")
    return f"{name}: " + bits[0] + " (" + ", ".join(bits[1:]) + ")"


def cite(old: Cite | None, new: Cite | None) -> str:
    """Both sources of a change in one short form: the same entry once, its lines old -> new."""
    if old and new and old.file.rsplit("/", 1)[-1] == new.file.rsplit("/", 1)[-1] and old.entry == new.entry:
        line = f":{old.line}" if old.line == new.line else f":{old.line}→{new.line}"
        if old.line is None and new.line is None:
            line = ""
        when = f" ({new.date})" if new.date else ""
        if old.release or new.release:  # two releases of one source: both named, with their dates
            def rel(c: Cite) -> str:
                return (c.release or "?") + (f", {c.date}" if c.date and c.date not in (c.release or "") else "")
            when = f" ({rel(old)} → {rel(new)})" if rel(old) != rel(new) else f" ({rel(new)})"
        return new.file.rsplit("/", 1)[-1] + line + (f" #{new.entry}" if new.entry else "") + when
    parts = []
    if old:
        parts.append("old " + old.short())
    if new:
        parts.append("new " + new.short())
    return "; ".join(parts)


def noise_line(ledger: Ledger) -> str:
    total = sum(v["count"] for v in ledger.noise.values())
    if not total:
        return "Left out as noise: nothing."
    parts = ", ".join(f"{rule} {v['count']}" for rule, v in ledger.noise.items())
    return f"Left out as noise: {total} differences that change no rule ({parts})."


def records_line(ledger: Ledger) -> str:
    r = ledger.records
    if not r:
        return ""
    return (f"Records compared: {r['added']} added, {r['removed']} removed, {r['changed']} changed "
            f"({r['renamed']} renamed).")


def counts_line(ledger: Ledger) -> str:
    if ledger.migration is not None:
        m = ledger.migration
        s = m.summary()
        return (f"edition migration {m.editions[0]} -> {m.editions[1]}: {s['matched']} units in both ({s['changed']} "
                f"changed), {s['only_old']} only in {m.editions[0]}, {s['only_new']} only in {m.editions[1]}.")
    c = ledger.counts()
    points = f"{c['points']} points ({c['points_up']} up, {c['points_down']} down)"
    if c["points_conditional"]:
        points += f" and {c['points_conditional']} prices under a condition"
    rest = ", ".join(f"{c[k]} {label}" for k, label in (("profiles", "profiles"), ("texts", "texts"),
                                                         ("added", "added"), ("removed", "removed"),
                                                         ("detachments", "detachments"), ("other", "other")))
    return f"{c['total']} change{'s' if c['total'] != 1 else ''}: {points}, {rest}."


# -- text ----------------------------------------------------------------------------------


def render_text(ledger: Ledger, diff=None) -> str:
    lines = [f"Change ledger: {ledger.old.label} -> {ledger.new.label}", "  " + side_line("old", ledger.old),
             "  " + side_line("new", ledger.new), counts_line(ledger), noise_line(ledger), records_line(ledger)]
    lines += [f"Note: {c}." for c in ledger.caveats]
    if ledger.empty:
        return "\n".join(printable(x) for x in lines + ["", "No differences."]) + "\n"
    lines += ["", "Summary per faction:", *_text_table(ledger)]
    for section, title in SECTIONS.items():
        items = ledger.section(section)
        if not items:
            continue
        lines += ["", f"== {title} ({len(items)}) =="]
        for faction in ledger.factions():
            mine = [i for i in items if i.faction == faction]
            if not mine:
                continue
            lines.append(faction)
            group = None
            for item in mine:
                if (item.group, item.record if item.kind == "datasheet" else item.group) != group:
                    group = (item.group, item.record if item.kind == "datasheet" else item.group)
                    head = item.group
                    if item.kind == "datasheet" and section != "added" and section != "removed":
                        head += f"  [{cite(item.old_source, item.new_source)}]"
                    lines.append(f"  {head}")
                lines.append("    " + _text_item(item))
    lines += _text_impact(ledger)
    return "\n".join(printable(x) for x in lines) + "\n"


def _text_table(ledger: Ledger) -> list[str]:
    rows = [["faction"] + [label for _k, label in COLUMNS]]
    for faction in ledger.factions():
        c = ledger.counts([i for i in ledger.items if i.faction == faction])
        rows.append([faction] + [str(c[k]) for k, _label in COLUMNS])
    c = ledger.counts()
    rows.append(["total"] + [str(c[k]) for k, _label in COLUMNS])
    width = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(cell.ljust(width[i]) if i == 0 else cell.rjust(width[i]) for i, cell in enumerate(r))
            for r in rows]


def _text_item(item: Item) -> str:
    where = "" if item.kind == "datasheet" else f"  [{cite(item.old_source, item.new_source)}]"
    cond = f" (when {item.condition})" if item.condition else ""
    if item.section in ("added", "removed"):
        mark = "+" if item.section == "added" else "-"
        value = item.new if item.section == "added" else item.old
        return f"{mark} {item.what}: {value}{where}"
    if item.words is not None:
        return f"{item.what}: {item.words}{where}"
    note = f" ({item.note})" if item.note else ""
    if item.note.endswith(("added", "removed")) and (item.old is None or item.new is None):
        value = item.new if item.old is None else item.old
        return f"{item.what}{note}: {show(item, value)}{where}"
    change = f"{show(item, item.old)} -> {show(item, item.new)}"
    if item.note == "removed / added":
        change = f"-[{show(item, item.old)}] +[{show(item, item.new)}]"
        note = ""
    delta = f"  {signed(item.delta)}" if item.delta is not None else ""
    return f"{item.what}{cond}: {change}{delta}{note}{where}"


def _text_impact(ledger: Ledger) -> list[str]:
    lines = []
    if ledger.weapons:
        lines += ["", "== Impact of changed weapons: expected wounds removed by one model's attacks, old -> new =="]
        for imp in ledger.weapons:
            lines += impact_lines(f"{imp.name} ({imp.weapon}): {imp.reason}", imp.rows, imp.error)
    if ledger.defence:
        lines += ["", "== Impact of changed defences: expected models lost to reference attackers, old -> new =="]
        for d in ledger.defence:
            lines += impact_lines(f"{d.name} ({d.faction}), {d.model}: {_target(d.old)} -> {_target(d.new)}",
                                  d.rows, d.error, "attacker")
    return lines


def _target(t: dict) -> str:
    if not t:
        return "(no profile)"
    out = f"{t['models']}x T{t['toughness']} Sv{t['save']}+ W{t['wounds']}"
    if t.get("invulnerable"):
        out += f" {t['invulnerable']}++"
    if t.get("feel_no_pain"):
        out += f" FNP {t['feel_no_pain']}+"
    return out


# -- Markdown --------------------------------------------------------------------------------


def word_marks(old: str, new: str, context: int = 8, ins: str = "<ins>{}</ins>", dele: str = "<del>{}</del>",
               escape=md) -> str:
    """A word diff with deleted and inserted words marked (HTML tags by default), a few words of context kept."""
    a, b = old.split(), new.split()
    parts: list[str] = []
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    for i, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag == "equal":
            words = a[i1:i2]
            if len(words) > 2 * context:
                words = (words[:context] if i > 0 else []) + ["…"] + (words[-context:] if i < len(ops) - 1 else [])
            parts.append(escape(" ".join(words)))
            continue
        if i2 > i1:
            parts.append(dele.format(escape(" ".join(a[i1:i2]))))
        if j2 > j1:
            parts.append(ins.format(escape(" ".join(b[j1:j2]))))
    return " ".join(p for p in parts if p)


def _md_cite(item: Item) -> str:
    return md(cite(item.old_source, item.new_source))


def _md_change(item: Item) -> tuple[str, str]:
    """(old, new) cells of a change."""
    if item.words is not None and isinstance(item.old, str) and isinstance(item.new, str):
        return "", word_marks(item.old, item.new)
    return md(show(item, item.old)), md(show(item, item.new))


def render_markdown(ledger: Ledger, diff=None) -> str:
    out = [f"# What changed: {md(ledger.old.label)} → {md(ledger.new.label)}", "",
           "| | old | new |", "|---|---|---|",
           f"| source | {md(ledger.old.label)} | {md(ledger.new.label)} |",
           f"| read as | {md(ledger.old.how)} | {md(ledger.new.how)} |",
           f"| released | {md(ledger.old.date or 'unknown')} | {md(ledger.new.date or 'unknown')} |", "",
           f"**{md(counts_line(ledger))}**", "", md(noise_line(ledger)), "", md(records_line(ledger)), ""]
    out += [f"> **Note:** {md(c)}." for c in ledger.caveats] + ([""] if ledger.caveats else [])
    if ledger.empty:
        return "\n".join(out + ["No differences.", ""])
    out += ["## Summary", "", "| faction | " + " | ".join(label for _k, label in COLUMNS) + " |",
            "|---|" + "---:|" * len(COLUMNS)]
    for faction in ledger.factions():
        c = ledger.counts([i for i in ledger.items if i.faction == faction])
        out.append(f"| {md(faction)} | " + " | ".join(str(c[k]) for k, _l in COLUMNS) + " |")
    c = ledger.counts()
    out += ["| **total** | " + " | ".join(f"**{c[k]}**" for k, _l in COLUMNS) + " |", ""]
    for section, title in SECTIONS.items():
        items = ledger.section(section)
        if not items:
            continue
        out += [f"## {title}", ""]
        for faction in ledger.factions():
            mine = [i for i in items if i.faction == faction]
            if not mine:
                continue
            out += [f"<details><summary><strong>{md(faction)}</strong>: {len(mine)} change"
                    f"{'s' if len(mine) != 1 else ''}</summary>", ""]
            out += _md_table(section, mine)
            out += ["", "</details>", ""]
    out += _md_impact(ledger)
    return "\n".join(printable(line) for line in out)


def _md_table(section: str, items: list[Item]) -> list[str]:
    if section == "points":
        rows = ["| unit | size | old | new | change | source |", "|---|---|---:|---:|---:|---|"]
        for i in items:
            what = md(i.what) + (f" (when {md(i.condition)})" if i.condition else "") + (f" ({md(i.note)})" if i.note else "")
            rows.append(f"| {md(i.group)} | {what} | {md(show(i, i.old))} | {md(show(i, i.new))} | "
                        f"{signed(i.delta)} | {_md_cite(i)} |")
        return rows
    if section in ("added", "removed"):
        rows = ["| group | name | what | source |", "|---|---|---|---|"]
        for i in items:
            value = i.new if section == "added" else i.old
            rows.append(f"| {md(i.group)} | {md(i.what)} | {md(value)} | {_md_cite(i)} |")
        return rows
    rows = ["| unit / group | what | old | new | source |", "|---|---|---|---|---|"]
    for i in items:
        old, new = _md_change(i)
        what = md(i.what) + (f" ({md(i.note)})" if i.note else "")
        rows.append(f"| {md(i.group)} | {what} | {old} | {new} | {_md_cite(i)} |")
    return rows


def _md_impact(ledger: Ledger) -> list[str]:
    out = []
    if ledger.weapons:
        out += ["## Impact of changed weapons", "", "Expected wounds removed by one model's attacks against reference "
                "targets, old → new.", "", "<details><summary>" + f"{len(ledger.weapons)} weapons</summary>", "",
                "| weapon | reason | target | old | new | change |", "|---|---|---|---:|---:|---:|"]
        for imp in ledger.weapons:
            for r in imp.rows:
                out.append(f"| {md(imp.name)} (`{md(imp.weapon)}`) | {md(imp.reason)} | {md(r['target'])} | "
                           f"{fmt_number(r['old'])} | {fmt_number(r['new'])} | {fmt_delta(r['delta'])} |")
        out += ["", "</details>", ""]
    if ledger.defence:
        out += ["## Impact of changed defences", "", "Expected models lost to reference attackers, old → new.", "",
                "| unit | profile | attacker | old | new | change |", "|---|---|---|---:|---:|---:|"]
        for d in ledger.defence:
            for r in d.rows:
                out.append(f"| {md(d.name)} ({md(d.faction)}) | {md(_target(d.old))} → {md(_target(d.new))} | "
                           f"{md(r['attacker'])} | {fmt_number(r['old'])} | {fmt_number(r['new'])} | {fmt_delta(r['delta'])} |")
        out.append("")
    return out
