"""The ability parser at scale: every keyword cell of the BattleScribe weapon corpus."""

from __future__ import annotations

import csv

from warscribe.schema.abilities import parse_ability_list
from warscribe.extract.corpus import ability_census

from conftest import corpus_path


def test_every_corpus_keyword_cell_parses():
    path = corpus_path("bsdata-10e-weapons.tsv")
    census = ability_census(path)
    assert census["rows"] == 4398
    # Known abilities: everything in the shared vocabulary. The rest are unit-specific weapon
    # rules (e.g. 'Bubblechukka'); the census lists them by name.
    assert census["known"] / census["entries"] > 0.99
    unknown = set(census["unknown"])
    assert {"Bubblechukka", "Hooked", "Overcharge"} <= unknown
    assert not any(u.lower().startswith(("anti", "sustained", "rapid", "twin", "melta")) for u in unknown)


def test_corpus_variants_normalise_to_one_form():
    path = corpus_path("bsdata-10e-weapons.tsv")
    seen = {}
    with path.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            for a in parse_ability_list(row["keywords"])[0]:
                if a["id"] == "twin-linked":
                    seen.setdefault("twin-linked", set()).add(a["text"])
                if a["id"] == "anti" and a["keyword"] == "INFANTRY":
                    seen.setdefault("anti-infantry", set()).add(a["text"].split()[0])
    assert {"Twin-linked", "Twin-Linked", "Twin Linked"} <= seen["twin-linked"]
    assert {"Anti-INFANTRY", "Anti-Infantry", "Anti-infantry"} <= seen["anti-infantry"]
