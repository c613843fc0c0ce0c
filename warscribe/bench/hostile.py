"""`warscribe bench hostile`: build time and peak memory on hostile sizes of input.

Each case generates one source at two or three sizes up to the size a hostile (or
careless) source reaches: a 4 MB ability paragraph on a datasheet page, a 4 MB field of
a Wahapedia CSV export with line breaks and with HTML, 20,000 ability lines, a rules
extract of 200,000 lines; archives that unpack to 16 GiB (refused, so their time
and memory must not grow with them); and BattleScribe link graphs: diamonds (groups each
linking twice to the next), cycles, deep chains and fan-out. Every build runs in a fresh interpreter (peak memory is its
own) with limits raised above the input, so what is measured is parsing, not refusal.
The growth exponent between the smallest and largest size says whether time is linear
(1.00) in the input.
"""

from __future__ import annotations

import hashlib
import math
import os
import sys
import tempfile
from pathlib import Path

import yaml

from warscribe.bench.measure import run_warscribe
from warscribe.paths import samples

PALADIN = "datasheet-grey-knights-paladin-squad.10e.txt"
EXTRACT = "rules-extract-inquisitors-hand.11e.txt"
_SENTENCE = ("Each time this unit makes a Charge move, until the end of the turn, add 1 to the Damage "
             "characteristic of melee weapons equipped by models in this unit. ")
_HTML_SENTENCE = ("<p>Each time this unit makes a <b>Charge</b> move, add 1 to the "
                  "<span class=\"kwb\">Damage</span> characteristic &amp; re-roll.</p>\n")
MB = 1 << 20


def _seed(name: str) -> str:
    return (samples() / name).read_text(encoding="utf-8")


def _fill(sentence: str, size: int, sep: str = "") -> str:
    unit = sentence + sep
    return (unit * (size // len(unit) + 1))[:size]


def _page_with_abilities(ability_lines: list[str]) -> str:
    lines = _seed(PALADIN).split("\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith("Attuned Onslaught")) + 1
    return "\n".join(lines[:at] + ability_lines + lines[at:])


def paragraph(size: int) -> str:
    """A datasheet page whose ability 'Endless Litany' is one paragraph of `size` bytes."""
    return _page_with_abilities(["Endless Litany: " + _fill(_SENTENCE, size)])


def ability_lines(count: int) -> str:
    """A datasheet page with `count` abilities, one line each."""
    return _page_with_abilities([f"Litany {n}: {_SENTENCE.strip()}" for n in range(1, count + 1)])


def extract_lines(count: int) -> str:
    """A rules extract of `count` lines: the seed extract's lines over and over."""
    seed = [ln for ln in _seed(EXTRACT).split("\n") if ln.strip()]
    return "\n".join(seed[n % len(seed)] for n in range(count)) + "\n"


def _export(folder: Path) -> None:
    """The seeds' 10th-edition records as a Wahapedia export in `folder`."""
    from warscribe.export_csv import write_export
    from warscribe.extract.pipeline import extract

    records = extract(samples() / "manifest.yaml").records
    write_export([r for r in records if r["ruleset"] == "10e"], folder)


def _csv_with_field(folder: Path, text: str) -> None:
    """The export with the description of the datasheet's ability 'Attuned Onslaught' replaced by `text`."""
    path = folder / "Datasheets_abilities.csv"
    lines = path.read_bytes().decode("utf-8").split("\r\n")
    at = next(i for i, ln in enumerate(lines) if "|Attuned Onslaught" in ln)
    cells = lines[at].split("|")
    cells[5] = text.replace("|", "&#124;")
    lines[at] = "|".join(cells)
    path.write_bytes("\r\n".join(lines).encode("utf-8"))


def _text_source(folder: Path, name: str, kind: str, ruleset: str, text: str) -> dict:
    data = text.encode("utf-8")
    (folder / name).write_bytes(data)
    return {"file": name, "original_name": name, "sha256": hashlib.sha256(data).hexdigest(),
            "ruleset": ruleset, "kind": kind}


def _csv_source(folder: Path, text: str) -> dict:
    from warscribe.extract.wahapedia import folder_sha256

    export = folder / "export"
    _export(export)
    _csv_with_field(export, text)
    return {"file": "export", "original_name": "export", "sha256": folder_sha256(export), "ruleset": "10e",
            "kind": "wahapedia-csv"}


def _zeros_tar(folder: Path, mib: int) -> dict:
    """A .tar.gz unpacking to `mib` MiB of zeros in 16 MiB catalogues: concatenated gzip members, made in no time."""
    import gzip
    import tarfile

    zeros = gzip.compress(b"\0" * (16 * MB), compresslevel=1)
    path = folder / "bomb.tar.gz"
    with path.open("wb") as fh:
        for i in range(mib // 16):
            info = tarfile.TarInfo(f"wh40k/Catalogue {i}.cat")
            info.size = 16 * MB
            fh.write(gzip.compress(info.tobuf(format=tarfile.GNU_FORMAT)) + zeros)
        fh.write(gzip.compress(b"\0" * 1024))
    return _data_source(path)


def _zeros_zip(folder: Path, mib: int) -> dict:
    """A .zip whose members each unpack to 16 MiB of zeros, `mib` MiB in all (one deflated block, written `mib/16` times)."""
    import struct
    import zlib

    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    blob = squeeze.compress(b"\0" * (16 * MB)) + squeeze.flush()
    crc = zlib.crc32(b"\0" * (16 * MB))
    path = folder / "bomb.zip"
    central, offset = [], 0
    with path.open("wb") as fh:
        for i in range(mib // 16):
            name = f"Catalogue {i}.cat".encode()
            fixed = struct.pack("<HHHHHIIIHH", 20, 0, 8, 0, 0, crc, len(blob), 16 * MB, len(name), 0)
            fh.write(b"PK\x03\x04" + fixed + name + blob)
            central.append(b"PK\x01\x02" + struct.pack("<H", 20) + fixed + struct.pack("<HHHII", 0, 0, 0, 0, offset)
                           + name)
            offset += 30 + len(name) + len(blob)
        directory = b"".join(central)
        fh.write(directory + b"PK\x05\x06" + struct.pack("<HHHHIIH", 0, 0, len(central), len(central),
                                                            len(directory), offset, 0))
    return _data_source(path)


def _data_source(path: Path) -> dict:
    return {"file": path.name, "original_name": path.name, "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "ruleset": "10e", "kind": "battlescribe"}


_GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem xmlns="http://www.battlescribe.net/schema/gameSystemSchema" id="sys-h" name="Hostile System" revision="1" type="gameSystem">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <profileTypes><profileType id="unit-type" name="Unit"/><profileType id="ranged-type" name="Ranged Weapons"/></profileTypes>
</gameSystem>
"""
_UNIT_PROFILE = ('<profiles><profile id="p-{id}" name="{name}" typeId="unit-type" typeName="Unit"><characteristics>'
                 + "".join(f'<characteristic name="{c}">{v}</characteristic>'
                           for c, v in (("M", '6"'), ("T", "4"), ("SV", "3+"), ("W", "2"), ("LD", "6+"), ("OC", "2")))
                 + "</characteristics></profile></profiles>")


def _gun(gid: str, name: str) -> str:
    chars = "".join(f'<characteristic name="{c}">{v}</characteristic>' for c, v in
                    (("Range", '24"'), ("A", "2"), ("BS", "3+"), ("S", "4"), ("AP", "0"), ("D", "1"), ("Keywords", "-")))
    return (f'<selectionEntry type="upgrade" id="{gid}" name="{name}"><profiles><profile id="pr-{gid}" name="{name}" '
            f'typeId="ranged-type" typeName="Ranged Weapons"><characteristics>{chars}</characteristics></profile>'
            "</profiles></selectionEntry>")


def _unit(uid: str, inner: str) -> str:
    return (f'<selectionEntry type="unit" id="{uid}" name="Unit {uid}"><costs><cost name="pts" typeId="pts" value="50"/>'
            f'</costs><categoryLinks><categoryLink id="cl-{uid}" name="Faction: Hostile" targetId="cat-f"/></categoryLinks>'
            f'{_UNIT_PROFILE.format(id=uid, name="Unit " + uid)}{inner}</selectionEntry>')


def link_graph(shape: str, n: int) -> str:
    """A catalogue whose links form `shape` at size `n`: 'diamonds' (n levels of groups, each
    linking twice to the next: 2^n paths), 'cycle' (n units, each with an info group linking to
    itself and two entries linking to each other), 'chain' (one unit over a chain of n linked
    entries) or 'fanout' (one unit linking n weapons, and one weapon n times)."""
    units, shared_entries, shared_groups, info = [], [], [], ""
    if shape == "diamonds":
        for i in range(n):
            links = "".join(f'<entryLink id="l{i}-{k}" name="Level {i + 1}" type="selectionEntryGroup" '
                            f'targetId="g{i + 1}"/>' for k in (0, 1)) if i + 1 < n else ""
            body = f"<entryLinks>{links}</entryLinks>" if links else f"<selectionEntries>{_gun(f'w{i}', 'Bolter')}</selectionEntries>"
            shared_groups.append(f'<selectionEntryGroup id="g{i}" name="Level {i}">{body}</selectionEntryGroup>')
        units.append(_unit("u0", '<entryLinks><entryLink id="lu" name="Level 0" type="selectionEntryGroup" '
                                  'targetId="g0"/></entryLinks>'))
    elif shape == "cycle":
        for i in range(n):
            groups = (f'<infoGroups><infoGroup id="ig{i}" name="Loop {i}"><infoLinks><infoLink id="il{i}" '
                      f'name="Loop {i}" type="infoGroup" targetId="ig{i}"/></infoLinks></infoGroup></infoGroups>')
            links = f'<entryLinks><entryLink id="ul{i}" name="A {i}" type="selectionEntry" targetId="a{i}"/></entryLinks>'
            units.append(_unit(f"u{i}", groups + links))
            for me, other in ((f"a{i}", f"b{i}"), (f"b{i}", f"a{i}")):
                shared_entries.append(f'<selectionEntry type="upgrade" id="{me}" name="{me}"><entryLinks><entryLink '
                                      f'id="l-{me}" name="{other}" type="selectionEntry" targetId="{other}"/>'
                                      "</entryLinks></selectionEntry>")
    elif shape == "chain":
        for i in range(n):
            nxt = (f'<entryLinks><entryLink id="c{i}" name="Link {i + 1}" type="selectionEntry" targetId="e{i + 1}"/>'
                   "</entryLinks>") if i + 1 < n else ""
            shared_entries.append(f'<selectionEntry type="upgrade" id="e{i}" name="Link {i}">{nxt}</selectionEntry>')
        units.append(_unit("u0", '<entryLinks><entryLink id="lu" name="Link 0" type="selectionEntry" targetId="e0"/>'
                                  "</entryLinks>"))
    elif shape == "fanout":
        shared_entries = [_gun(f"w{i}", f"Gun {i}") for i in range(n)]
        links = "".join(f'<entryLink id="f{i}" name="Gun {i}" type="selectionEntry" targetId="w{i}"/>' for i in range(n))
        links += "".join(f'<entryLink id="s{i}" name="Gun 0" type="selectionEntry" targetId="w0"/>' for i in range(n))
        units.append(_unit("u0", f"<entryLinks>{links}</entryLinks>"))
    else:
        raise ValueError(shape)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" '
            'id="cat-h" name="Hostile" library="false" gameSystemId="sys-h" revision="1" type="catalogue">'
            '<categoryEntries><categoryEntry id="cat-f" name="Faction: Hostile"/></categoryEntries>'
            f"<selectionEntries>{''.join(units)}</selectionEntries>"
            f"<sharedSelectionEntries>{''.join(shared_entries)}</sharedSelectionEntries>"
            f"<sharedSelectionEntryGroups>{''.join(shared_groups)}</sharedSelectionEntryGroups>{info}</catalogue>\n")


def _link_source(folder: Path, shape: str, n: int) -> dict:
    from warscribe.extract.wahapedia import folder_sha256

    data = folder / "data"
    data.mkdir()
    (data / "Hostile System.gst").write_text(_GST, encoding="utf-8")
    (data / "Hostile.cat").write_text(link_graph(shape, n), encoding="utf-8")
    return {"file": "data", "original_name": "data", "sha256": folder_sha256(data), "ruleset": "10e",
            "kind": "battlescribe"}


# name: (what, sizes, unit, source maker)
CASES = {
    "paragraph": ("4 MB ability paragraph on a datasheet page", (MB, 2 * MB, 4 * MB), "bytes",
                  lambda f, n: _text_source(f, "page.txt", "datasheet-page", "10e", paragraph(n))),
    "csv-lines": ("4 MB CSV field with line breaks", (MB, 2 * MB, 4 * MB), "bytes",
                  lambda f, n: _csv_source(f, _fill(_SENTENCE, n, "\n"))),
    "csv-html": ("4 MB CSV field of HTML", (MB, 2 * MB, 4 * MB), "bytes",
                 lambda f, n: _csv_source(f, _fill(_HTML_SENTENCE, n))),
    "ability-lines": ("20,000 ability lines on a datasheet page", (5000, 10000, 20000), "lines",
                      lambda f, n: _text_source(f, "page.txt", "datasheet-page", "10e", ability_lines(n))),
    "lines": ("rules extract of 200,000 lines", (50000, 100000, 200000), "lines",
              lambda f, n: _text_source(f, "extract.txt", "rules-extract", "11e", extract_lines(n))),
    # Decompression bombs are refused (exit 1) once 256 MiB are unpacked: the time stays flat (exponent near 0).
    "tar-bomb": ("BattleScribe .tar.gz unpacking to 16 GiB of zeros", (1024, 4096, 16384), "MiB", _zeros_tar),
    "zip-bomb": ("BattleScribe .zip unpacking to 16 GiB of zeros", (1024, 4096, 16384), "MiB", _zeros_zip),
    # Link graphs: each node is walked once per model, so time follows the catalogue's size
    # (diamonds: 2^32 paths in 32 levels; the chain stops at the walk's depth bound, the fan-out at
    # its profile bound, each with a warning).
    "link-diamonds": ("groups linking twice to the next, 32 levels", (8, 16, 32), "levels",
                      lambda f, n: _link_source(f, "diamonds", n)),
    "link-cycle": ("1,000 units with self-linking info groups and entry cycles", (250, 500, 1000), "units",
                   lambda f, n: _link_source(f, "cycle", n)),
    "link-chain": ("a chain of 4,000 linked entries", (1000, 2000, 4000), "links",
                   lambda f, n: _link_source(f, "chain", n)),
    "link-fanout": ("one unit linking 8,000 weapons and one weapon 8,000 times", (2000, 4000, 8000), "links",
                    lambda f, n: _link_source(f, "fanout", n)),
}


def generate(case: str, size: int, folder: Path) -> Path:
    """The manifest of one hostile source of `size` (bytes or lines) in `folder`."""
    entry = CASES[case][3](folder, size)
    path = folder / "manifest.yaml"
    path.write_text(yaml.safe_dump({"sources": [entry]}, sort_keys=False), encoding="utf-8")
    return path


def _timed(manifest: Path, out: Path) -> tuple[float, float, float, int]:
    """Wall seconds, CPU seconds, peak RSS (MiB) and exit status of one build in a fresh interpreter.

    CPU time is the fair number on a shared machine, where wall time also counts waiting for a core.
    """
    run = run_warscribe(["build", "--manifest", str(manifest), "--out", str(out), "-q", "--max-source-bytes",
                         str(64 * MB), "--max-line-length", str(16 * MB)], capture=False)
    return run.wall, run.cpu, run.peak_mib, run.status


def run_bench(args) -> int:
    cases = [args.case] if getattr(args, "case", None) else list(CASES)
    repeat = args.repeat or 1
    print(f"warscribe hostile-input benchmark: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"least CPU of {repeat} runs per size (fresh interpreter each)")
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'case':<14} {'size':>9} {'unit':<6} {'wall s':>7} {'cpu s':>7} {'peak MiB':>9} {'exit':>4}")
    worst = 0.0
    for case in cases:
        what, sizes, unit, _make = CASES[case]
        rows = []
        for size in sizes:
            with tempfile.TemporaryDirectory() as tmp:
                manifest = generate(case, size, Path(tmp))
                runs = [_timed(manifest, Path(tmp) / "out") for _ in range(repeat)]
            best = min(runs, key=lambda r: r[1])
            rows.append((size, best[1]))
            worst = max(worst, best[1])
            print(f"{case:<14} {size:>9} {unit:<6} {best[0]:>7.2f} {best[1]:>7.2f} {max(r[2] for r in runs):>9.1f} "
                  f"{best[3]:>4}")
        (s0, t0), (s1, t1) = rows[0], rows[-1]
        print(f"{'':<14} {what}: {s1 / s0:.0f}x the input took {t1 / t0:.1f}x the CPU time "
              f"(exponent {math.log(t1 / t0) / math.log(s1 / s0):.2f}; 1.00 is linear)")
    print(f"slowest build: {worst:.2f} CPU s (goal: under 5 s)")
    return 0
