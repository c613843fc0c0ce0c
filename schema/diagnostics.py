"""Errors and warnings that name the file, the line, what was expected and what was found.

Extraction never stops at the first problem: every stage reports into one
:class:`Report`, and the build decides at the end (errors, or warnings under
``--strict``) whether it failed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from warscribe.schema.text import printable  # noqa: F401 (the terminal's escaping, imported from here too)


class Code(NamedTuple):
    """One entry of the diagnostics vocabulary."""

    level: str  # the level it is usually reported at ("error" or "warning")
    meaning: str
    action: str  # what a maintainer does about it


# Every code any stage reports, with what it means and what to do. Reporting a code
# that is not here is a programming error (Report raises), so the vocabulary, the
# docs (docs/diagnostics.md, generated from this table) and the code never drift.
CODES: dict[str, Code] = {
    # -- manifest and files
    "bad-manifest": Code("error", "The manifest cannot be read, or an entry lacks a field or has a wrong value.",
                         "Fix the manifest entry named in the message (see the header of sources/manifest.yaml)."),
    "missing-source": Code("error", "A file or folder the manifest lists does not exist.",
                           "Restore the file, or remove its entry from the manifest."),
    "checksum": Code("error", "A source differs from the sha256 the manifest records; it was skipped.",
                     "If the change is intended, record the new checksum: `warscribe manifest --update`."),
    "unconfined-source": Code("error", "A manifest entry names a path outside the manifest's folder (absolute, '..', or a "
                              "link leading out); it was not read.", "Copy the file into the sources folder and list it there."),
    "duplicate-source": Code("error", "A manifest lists the same source twice; the second entry was skipped.",
                             "Remove one of the entries."),
    "unknown-format": Code("error", "No reader handles the file's extension.", "Use a .txt, .html or supported source."),
    "empty-source": Code("error", "A source has no text a reader can use.", "Check the file was saved completely."),
    "no-records": Code("error", "A source was read but yields no records (an archive or folder without data files, "
                       "a page no record is made from); a build that held records from it before is not replaced "
                       "by one without them unless asked (`--allow-shrink`).",
                       "Check the manifest entry points at the data it should (the folder, not its parent; "
                       "the archive, not an archive of it)."),
    "binary-source": Code("error", "A source is binary, not text.", "Point the manifest at the text or HTML file."),
    "bad-encoding": Code("error", "A source is not valid UTF-8 at the line and column given.",
                         "Re-save the file as UTF-8."),
    "too-deep": Code("error", "An HTML page nests elements deeper than the reader allows; it was not read.",
                     "Check the file is the rules page it should be."),
    "source-too-large": Code("error", "A source file is larger than the limit; it was not read.",
                             "Check it is the right file, or raise the limit with --max-source-bytes."),
    "line-too-long": Code("error", "A source line (or a CSV field) is longer than the limit; the source (or row) was not read.",
                          "Check the file, or raise the limit with --max-line-length."),
    "control-characters": Code("error", "A line or a record's text holds characters that cannot be written or "
                               "shown: a control character other than tab and newline (ESC, BEL, CR ...), a lone "
                               "surrogate, a bidirectional override, a line separator or a noncharacter. Each was "
                               "replaced by U+FFFD; the finding names the record and field (or the line and column).",
                               "Remove them from the source."),
    "missing-file": Code("error", "A file of a CSV export is missing.", "Export the complete data set."),
    "bad-annotation": Code("error", "The annotations file beside the manifest cannot be read or does not match "
                           "schema/annotations.schema.json; no annotation was applied.", "Fix the entry the message names."),
    "stale-annotation": Code("warning", "An annotation no longer matches its source (the text it cites changed or vanished, "
                             "its record or field is gone, or the sources now give the value); it was not applied.",
                             "Check the source and update or remove the annotation."),
    # -- reading structured sources (CSV)
    "missing-column": Code("error", "A CSV table lacks a column the reader needs.", "Check the export's format version."),
    "too-few-fields": Code("error", "A CSV row has fewer cells than its header.", "Repair the row in the export."),
    "too-many-fields": Code("error", "A CSV row has more cells than its header.", "Repair the row in the export."),
    "wrong-separator": Code("error", "A CSV file does not use the expected '|' separator.", "Export with '|' separators."),
    "unknown-table": Code("warning", "A CSV file that the reader does not know; ignored.", "Nothing, or extend the reader."),
    "duplicate-table": Code("error", "An export gives one table twice (two folders of its archive hold the same file); "
                            "the later copy was not read.", "Repack the export with one copy of each table."),
    "unread-table": Code("warning", "A table of the export that the reader does not read (what it says is compiled "
                         "from the records instead); the message says why.", "Nothing; see docs/formats.md."),
    "unused-publication": Code("warning", "A publication of Source.csv that no row names and no detachment's title "
                               "matches; it is on no record's provenance.", "Nothing, unless records of it are missing."),
    "bad-date": Code("warning", "A date that cannot be read; the record is kept without it.", "Check the value in the source."),
    "unknown-reference": Code("error", "A row refers to an id that its table does not hold; the row was skipped.",
                              "Repair the reference in the export."),
    "duplicate-id": Code("error", "Two rows of one table share an id.", "Repair the export."),
    "bad-characteristic": Code("error", "A model characteristic cannot be read.", "Repair the value in the source."),
    "bad-cost": Code("error", "A points cost is not a number.", "Repair the value in the source."),
    "bad-stratagem": Code("error", "A stratagem's CP cost or fields cannot be read; it was skipped.", "Repair the source."),
    "unmatched-model-keyword": Code("warning", "A keyword the export prints for one model names no single model "
                                    "profile of its datasheet; it stays the whole unit's keyword.",
                                    "Nothing, unless the engine should treat that model apart (give it a profile)."),
    "bad-damaged-profile": Code("warning", "A datasheet's damaged profile lacks its wounds range ('1-5') or its "
                                "text; it was left out of the abilities.", "Repair the damaged_w / damaged_description cells."),
    "extra-detachment-rule": Code("warning", "A detachment has a second rule; the first is kept.", "Check the source."),
    # -- reading pages
    "bad-title": Code("error", "A datasheet page has no title line naming its unit.", "Check the page was scraped whole."),
    "unknown-section": Code("warning", "A section heading the page parser does not know.", "Extend the parser or check the page."),
    "empty-list": Code("warning", "A list (LEADER, LED BY ...) has no entries: lost in scraping.",
                       "Restore the entries with an annotation, or re-scrape the page."),
    "missing-tooltip": Code("warning", "An HTML ability span has no tooltip text.", "Re-save the page with its tooltips."),
    "orphan-text": Code("warning", "Text that belongs to no block.", "Check the page around the line."),
    "bad-weapon-row": Code("error", "A weapon has no complete profile row; it was skipped.", "Repair the table in the source."),
    "bad-weapon-value": Code("error", "A weapon characteristic cannot be read; the weapon was skipped.", "Repair the value."),
    "weapon-ability": Code("warning", "A weapon ability the vocabulary does not know, or with a malformed parameter.",
                           "Check the spelling; a weapon-specific rule is fine."),
    "implausible-characteristic": Code("warning", "A weapon characteristic no datasheet prints (S 0, D 0, A 0, or "
                                       "beyond what the calculator computes); the record is kept, `calc` refuses it.",
                                       "Check the profile in the source (digits run together, a lost dice 'D')."),
    "bad-ability": Code("warning", "An ability line cannot be read.", "Check the source line."),
    "bad-composition": Code("warning", "A unit-composition line cannot be read.", "Check the source line."),
    "stratagem-text": Code("warning", "A stratagem's text lacks a WHEN/TARGET/EFFECT field or has text outside them.",
                           "Check the stratagem in the source."),
    "list-regrouped": Code("warning", "A labelled part's list was printed after later parts (or after its label's repeat) "
                           "and was put back under the label that announced it.", "Nothing; check the record reads right."),
    "lost-table": Code("warning", "Part of a table was lost in scraping.", "Restore it with an annotation, or re-scrape."),
    # -- text checks
    "scraping-typo": Code("warning", "Probable scraping damage in rules text (a typo or a broken [ABILITY]).",
                          "Nothing in the source can be changed; the record keeps the text as printed."),
    "repaired-character": Code("warning", "A character with one reading was repaired (a no-break space to a space, a "
                               "curly quote after a number to an inch mark); provenance keeps the original.",
                               "Nothing; the source stays as received."),
    "glued-words": Code("warning", "Words run together (spaces lost in scraping); found with the sources' vocabulary and "
                        "an English word list.", "Nothing in the source can be changed; check the record's text."),
    "lost-apostrophe": Code("warning", "A possessive printed without its apostrophe ('The bearers ranged weapons').",
                            "Nothing in the source can be changed; check the record's text."),
    "flattened-table": Code("warning", "A table's columns run together into one line of text. Where every row of "
                            "the table splits the same way (a Title Case name, then its text), it was rebuilt as a "
                            "'- Name: text' list and provenance keeps each row as printed; else the text is kept.",
                            "Where rebuilt: check the record reads right. Else restore the table with an annotation, "
                            "or re-scrape the page."),
    "label-lost": Code("warning", "A labelled list of named items ('Name: text') has items after them that repeat a "
                       "name or have none: they probably belong to a label lost in scraping. They were set apart "
                       "under a note saying so (no label is guessed); provenance keeps the text as printed.",
                       "Check the rule in another source (the rulebook) or re-scrape the page; the record "
                       "keeps every item."),
    "table-debris": Code("warning", "A lone table cell ('+1CP') inside a text; its row was lost in scraping.",
                         "Check the rule in another source."),
    "missing-word": Code("warning", "A word (probably a keyword) is missing.", "Check the rule in another source."),
    "stray-asterisk": Code("warning", "A stray '*' (lost italics or a footnote marker) in rules text.", "Check the source."),
    # -- linking
    "id-collision": Code("warning", "Two different names make the same id (they differ only in punctuation or case); "
                         "the later one got a numeric suffix (a datasheet printed in two publications under one "
                         "name: the later one is named after its publication).", "Check the names; rename one in the source if they are the same thing."),
    "conflicting-duplicate": Code("warning", "A record is printed twice with different content; the first is kept.",
                                  "Check which sighting is right."),
    "duplicate-stratagem": Code("warning", "A stratagem's text is printed twice on one page.", "Nothing; the first is used."),
    "unlisted-stratagem": Code("warning", "A stratagem text that the page's STRATAGEMS list does not name.", "Check the page."),
    "stratagem-without-text": Code("warning", "A listed stratagem whose text is not on the page.", "Add a source with it."),
    "stratagem-mismatch": Code("warning", "A stratagem's list entry and its text disagree (CP, category); in the "
                                "Wahapedia export, its phase or turn column and its WHEN (the column is kept).",
                                "Check the page, or which of the export's column and WHEN is right."),
    "unlisted-detachment-rule": Code("warning", "A detachment rule not in the page's DETACHMENT ABILITY list.", "Check the page."),
    "detachment-rule-without-text": Code("warning", "A listed detachment rule without a text on the page.", "Add a source with it."),
    "missing-detachment-rule": Code("warning", "A detachment named on the page whose rule is not given.", "Add a source with it."),
    "enhancement-without-text": Code("warning", "A listed enhancement without a text on the page.", "Add a source or an annotation."),
    "enhancement-without-name": Code("warning", "An enhancement text that matches no listed name; not made a record.", "Check the page."),
    "points-notes": Code("warning", "Points notes and cost conditions differ in number.", "Check the points table."),
    "empty-rule": Code("warning", "A heading with no text under it.", "Check the source."),
    "heading-repeated": Code("warning", "A rule printed more than once with different parts; the parts were merged.", "Check the rule."),
    "number-collision": Code("warning", "Two different rules are printed with the same rule number.",
                             "Check the numbers against the rulebook; annotate the right one."),
    "subheading-split": Code("warning", "A sub-heading inside a tooltip was printed like a heading and took the "
                             "tooltip's summary bullets; they were given back to the tooltip's rule.",
                             "Nothing; check both records read right."),
    "flavour-undecided": Code("warning", "A paragraph where flavour sits reads as rules text (a KEYWORD, a rule number, "
                              "a condition); it is kept as rules text.", "Check the rule; annotate if it is flavour."),
    "heading-inferred": Code("warning", "A headingless passage named from the ability it defines.", "Confirm, or annotate the title."),
    "heading-lost": Code("warning", "A headingless passage kept as an untitled rule.", "Annotate its title."),
    "unresolved-reference": Code("warning", "A reference (an ability's rule) that no record in the sources backs.",
                                 "Add a source with the rule."),
    # -- BattleScribe data and sources meeting
    "too-large": Code("error", "A file (or archive member) is larger than the reader accepts; it was skipped.",
                      "Check the file; BattleScribe catalogues are a few MB."),
    "unsafe-member": Code("error", "An archive member with an absolute path, '..', or that is a link (symbolic or "
                          "hard) or a device; refused, named in the message.",
                          "Repack the archive from a plain checkout."),
    "bad-archive": Code("error", "An archive cannot be read.",
                        "Check the .tar.xz/.zip is complete."),
    "nested-archive": Code("error", "An archive member is itself an archive or a compressed file; it was not opened "
                           "(archives inside archives are not read).",
                           "Unpack the inner archive and list it (or its folder) in the manifest."),
    "duplicate-member": Code("error", "An archive gives one member name twice (or two spellings of one path); "
                             "neither copy was read, since which one is meant cannot be told.",
                             "Repack the archive from a plain checkout."),
    "archive-too-large": Code("error", "An archive unpacks to more bytes (or holds more members) than a source may: "
                              "a decompression bomb, or not the data. It was refused whole as soon as the count "
                              "passed the bound, before its contents were held in memory.",
                              "Check the archive is the data it should be (BattleScribe checkouts unpack to tens "
                              "of MB)."),
    "bad-battlescribe": Code("error", "A BattleScribe file is malformed, has a DOCTYPE (entities are refused), nests too deeply or is neither a game system nor a catalogue; it was skipped.",
                             "Repair or re-download the file; the rest of the data is read."),
    "bad-app-data": Code("error", "A file of the app's data (Game Datacards' JSON) is not UTF-8, is malformed JSON or nests too deeply; it was skipped.",
                         "Re-download the file; the rest of the data is read."),
    "no-app-data": Code("error", "A source of kind app-json holds no JSON file of the app's data.",
                        "Point `file` at the data folder (game-datacards/datasources, 11th/gdc) or an archive of it."),
    "too-many-files": Code("error", "A data folder holds more files than a source may; only the first were read.",
                           "Point `file` at the data folder itself, not a folder above it."),
    "ignored-file": Code("warning", "A file of a source that holds nothing Warscribe makes records of (the app's mission cards); counted, not read.",
                         "Nothing: the report says which files were left out and why."),
    "app-unused": Code("warning", "A value of the app's data that no record field holds (another army's Detachment Points, a picture in a rule, an unknown part of a rule); reported, not kept.",
                       "Nothing, unless the schema should hold it: then open an issue with the example."),
    "unresolved-link": Code("warning", "A BattleScribe link points at an id defined in none of the files read.",
                            "Add the catalogue that defines it, or report it to the data's maintainers."),
    "missing-catalogue": Code("warning", "A catalogue links to a catalogue that is not in the data read.",
                              "Point the manifest at the complete data."),
    "hidden-entry": Code("warning", "A BattleScribe entry hidden in the data; left out.",
                         "Nothing, unless the entry should be in the knowledge base."),
    "cyclic-link": Code("warning", "A BattleScribe link (entry link, info link, info group, entry group) leads back to an "
                        "entry it is inside; not followed.",
                        "Report it to the data's maintainers."),
    "deep-link-chain": Code("warning", "BattleScribe links nested deeper than the reader follows.",
                            "Check the entry for a cycle through several links."),
    "no-unit-profile": Code("warning", "A BattleScribe unit entry without a Unit profile; not made a datasheet.",
                            "Nothing for army-building entries; otherwise check the data."),
    "bad-keyword": Code("warning", "A BattleScribe category that is not a keyword (characters outside letters, digits, spaces, hyphens); left out.",
                        "Check the category."),
    "unsupported-modifier": Code("warning", "A BattleScribe cost modifier under conditions other than the unit's size or "
                                 "the army's faction (wargear selections, how many such units the army holds); not read "
                                 "into points. Grouped by what the condition counts, with examples.",
                                 "Check the price by hand, or extend the reader."),
    "unknown-profile-type": Code("warning", "A BattleScribe profile type the reader does not know; its profiles are kept as ability text.",
                                 "Nothing, or extend the reader."),
    "weapon-variant": Code("warning", "A BattleScribe datasheet has two different profiles of one weapon name and type (a "
                           "sergeant's and a trooper's); both are kept, the later under a numbered id.",
                           "Check the profiles in the data; rename one there if they are different weapons."),
    "conditional-rule": Code("warning", "A BattleScribe rule or ability shown only in other armies or with a detachment "
                             "(or another army-wide choice) made (Templar Vows on Space Marines units, shown only in a "
                             "Black Templars army); it is not made an ability of the datasheets that link it. Grouped: one "
                             "finding per rule with the number of datasheets.",
                             "Nothing; a rule shown once a detachment is chosen is that detachment's rule."),
    "conditional-characteristic": Code("warning", "A BattleScribe characteristic modifier whose condition depends on what "
                                       "the unit takes (a weapon's AP with a wargear option); not applied. Grouped by "
                                       "profile type and characteristic, with examples.",
                                       "Nothing; the datasheet shows the profile as it is without the option."),
    "enhancement-without-detachment": Code("warning", "A BattleScribe enhancement the data ties to no detachment (no "
                                           "condition on a detachment's choice, no group naming one); its detachment is "
                                           "left empty.", "Check the enhancement's group in the data."),
    "link-budget": Code("warning", "A BattleScribe unit's links reach more entries, or its record more profiles, than "
                        "the reader follows (a runaway or hostile link graph); the rest of its tree is not read.",
                        "Check the unit's links in the data for a cycle or a runaway chain of groups."),
    "source-disagreement": Code("warning", "Two sources give a record different values for one field (points, a characteristic, keywords, abilities); the value of the better-ranked source (the manifest's `rank`, else the one listed first) is kept.",
                                "Check which source is right; the finding names both values and both places."),
    "unmatched-unit": Code("warning", "A unit one whole-game source gives (the Wahapedia export, BattleScribe data) that no unit of the other matches: no unit with its name (marks and spelling folded) and a faction keyword of it.",
                           "Check whether one source lacks the unit or names it otherwise; the unit is built from the one source."),
    # -- the Munitorum Field Manual (extract/fieldmanual/)
    "bad-field-manual": Code("error", "An entry of the Munitorum Field Manual's YAML has a shape the reader does not "
                             "know (a missing or mistyped field, a range that is not an interval); the entry, or the "
                             "value, was not used.", "Check the file at the line given against the manual's format "
                             "(docs/formats.md)."),
    "field-manual-inconsistent": Code("warning", "The Munitorum Field Manual contradicts itself: a unit whose "
                                      "requisition tiers list different sizes, a later tier cheaper than an earlier "
                                      "one, tiers that leave selections unpriced, an entry given twice.",
                                      "Check the manual; the values are used as given."),
    "field-manual-unused": Code("warning", "A value of the Munitorum Field Manual no record field holds (a composition "
                                "note of a points cost, the units an enhancement's bearer may lead); it is kept in "
                                "the manual only.", "Nothing, unless the schema should hold it."),
    "unmatched-detachment": Code("warning", "A detachment the Munitorum Field Manual prices that no detachment of the "
                                 "build matches by faction and name; its values were not applied.",
                                 "Check whether the datasheet sources lack it or name it otherwise."),
    "unmatched-enhancement": Code("warning", "An enhancement the Munitorum Field Manual prices that no enhancement of "
                                  "its detachment in the build matches by name; its points were not applied.",
                                  "Check whether the datasheet sources lack it or name it otherwise."),
    "ruleset-collision": Code("warning", "A record of one edition has the id of a record of the other edition already built; the later one is left out.",
                              "Build the editions apart, or list the one you want first."),
    # -- validation and accounting
    "schema": Code("error", "A record fails its kind's JSON Schema; it was not written.", "Fix the reader that made it."),
    "unaccounted-line": Code("warning", "A source line that no record uses and no rule classifies.",
                             "Extend the parser, or classify the line as ignorable."),
    # -- consistency checks on a build (`warscribe check`, warscribe/checks/)
    "output-missing": Code("error", "A file the build's manifest.json lists is missing from the output folder "
                           "(deleted since the build).", "Build again; keep nothing of your own in an output folder."),
    "output-changed": Code("error", "A file of the output folder differs from what the build wrote (its size or "
                           "sha256 is not the manifest's): truncated, edited, or replaced by a link.",
                           "Build again, or restore the file; a bundle edited by hand is not this build's."),
    "output-unlisted": Code("warning", "A file in the output folder that the build did not write (not in its "
                            "manifest.json): added since.", "Move your own files out of the output folder."),
    "output-unverified": Code("warning", "The output folder's files cannot be held to a manifest: there is none "
                              "(an older build, a bundle on its own), it cannot be read, or an entry is malformed "
                              "or leads outside the folder.", "Build again to get a manifest."),
    "duplicate-record": Code("error", "Two records of a build share an id; readers keep the first.",
                             "Give one of them its own id (schema/ids.py) or merge them in the extractor."),
    "dangling-reference": Code("error", "A field names a record id that the build does not hold.",
                               "Add a source with the record, or repair the reference."),
    "unresolved-rule-number": Code("warning", "Text cites a rule number, e.g. (06.03), that no record of its ruleset has.",
                                   "Add a source with the rule; if the number is a typo, annotate the text."),
    "unresolved-ability": Code("warning", "Text names an [ABILITY] that is neither a weapon ability nor a record.",
                               "Check the spelling, or add a source with the ability's rule."),
    "unresolved-stratagem": Code("warning", "Text names a Stratagem that no record of its ruleset has.",
                                 "Add a source with the stratagem, or check the name."),
    "unresolved-keyword": Code("warning", "A datasheet keyword without a keyword record of its ruleset.",
                               "Check the spelling of the keyword on the datasheet."),
    "conflicting-text": Code("warning", "One name has different rules text within one ruleset (not a known variant).",
                             "Find which text is current; annotate or fix the stale source."),
    "number-conflict": Code("warning", "One rule number is printed for two different rules of one ruleset.",
                            "Find which rule holds the number; the other heading is misprinted."),
    "mixed-case": Code("warning", "A word in mixed case (COvER): scraping damage to a KEYWORD.",
                       "Re-scrape or annotate; the record keeps the text as printed."),
    "broken-bracket": Code("warning", "An opening bracket without its closing one, or the reverse.",
                           "Check the text around the column given; an [ABILITY] may have lost its end."),
    "possible-typo": Code("warning", "A rare word one letter away from a common word of the build (Anny / Any).",
                          "Check the word in the source; fix the source or annotate it."),
    "run-on": Code("warning", "Two sentences or a heading and a sentence glued together (text.Each ...).",
                   "The extractor lost a line break here; check the record's text split."),
    "empty-field": Code("warning", "A text field or list is empty where a value is expected.",
                        "Check the source; the value was lost in scraping or by the extractor."),
    "duplicated-text": Code("warning", "The same sentence appears twice within one record.",
                            "Check whether the extractor merged a passage with itself."),
    "unknown-weapon-ability": Code("warning", "A weapon ability the ability lexicon does not know.",
                                   "Check the spelling; a weapon-specific rule needs its text in the build."),
    "missing-parameter": Code("error", "A weapon ability without the parameter it needs ([SUSTAINED HITS] without X).",
                              "Restore the parameter from the source."),
    "unaccounted-lines": Code("warning", "A source has lines that no record uses and no rule classifies (summary).",
                              "See the unaccounted-line findings; extend the parser or classify the lines."),
    # -- engine input (scenarios, calc)
    "bad-scenario": Code("error", "A scenario does not match schema/scenario.schema.json or its values are impossible.",
                         "Fix the field the message names."),
    "unknown-weapon": Code("error", "A scenario names a weapon the knowledge base does not hold (or several).",
                           "Use one of the ids the message suggests."),
    "unknown-datasheet": Code("error", "A scenario's target names a datasheet the knowledge base does not hold (or several).",
                              "Use one of the ids the message suggests."),
    "no-knowledge-base": Code("error", "The knowledge base for `ref` weapons cannot be found or read.",
                              "Run `warscribe build`, or pass --kb PATH."),
    "unknown-effect": Code("error", "A scenario names an effect the knowledge base does not hold (or several).",
                           "Use a name or id that `warscribe effects --json` lists, or one the message suggests."),
    "effect-not-eligible": Code("error", "A scenario's unit cannot use a named effect: its stratagem TARGET or "
                                "enhancement restriction needs keywords the unit lacks.",
                                "Give the unit's keywords, or drop the effect."),
    "effect-not-applicable": Code("error", "A named effect changes nothing in the scenario: it is listed on the wrong "
                                  "side, or its conditions are not met; the message says which.",
                                  "Move it to the other side, or set the condition (keywords, conditions.charged)."),
    "effect-not-modelled": Code("error", "A named effect applies, but the engine cannot compute it exactly "
                                "(e.g. Feel No Pain against mortal wounds only, with [DEVASTATING WOUNDS]).",
                                "Drop the effect, or model it with the scenario's own settings."),
    # -- army lists (`warscribe roster`, warscribe/roster/)
    "roster-missing": Code("error", "An army list named on the command line does not exist or is not a file.",
                           "Check the path; the other lists are read."),
    "roster-too-large": Code("error", "An army list (or one of its lines) is larger than the reader accepts; not read.",
                             "Check it is the exported list; a list is a few kilobytes."),
    "roster-binary": Code("error", "An army list is binary (holds NUL bytes), not an exported text or roster.",
                          "Export the list as text, or give the BattleScribe .ros/.rosz."),
    "roster-encoding": Code("error", "An army list is not UTF-8 (or UTF-16 with its mark) at the line and column given.",
                            "Re-save or re-export the list as UTF-8."),
    "roster-empty": Code("error", "An army list holds no text.", "Check the file was saved completely."),
    "roster-format": Code("error", "No reader recognises the list: no builder's signature and no line shaped like a unit.",
                          "Export from the Warhammer 40,000 app, New Recruit or BattleScribe; see docs/roster.md."),
    "roster-archive": Code("error", "A .rosz cannot be read or is refused: damaged, encrypted, not one .ros inside, or "
                           "inflating past the limits (a zip bomb).", "Re-export the roster from BattleScribe."),
    "roster-xml": Code("error", "A BattleScribe roster's XML is malformed, has a DOCTYPE (entities are refused) or nests "
                       "too deeply; not read.", "Re-export the roster from BattleScribe."),
    "roster-unread-line": Code("warning", "A line inside a unit that the reader could not place; it is kept in the "
                               "unit's raw lines.", "Check the line; extend the reader if the builder prints it."),
    "roster-edition": Code("warning", "The list does not say its edition, or says one the knowledge base does not hold; "
                           "the message says which edition the list was checked against and why.",
                           "Pass --edition, or give a --kb build of the list's edition."),
    "roster-unresolved": Code("error", "A unit, enhancement, detachment or faction of the list names no record of the "
                              "knowledge base (exactly, after normalising case, quotes, accents and [Legends], or "
                              "through the alias table); the nearest names are given. It is not checked.",
                              "Fix the name, add a known rename to warscribe/roster/aliases.yaml, or build a "
                              "knowledge base that holds it."),
    "roster-ambiguous": Code("error", "A name of the list matches several records that the army's faction cannot "
                             "choose between; it is not checked.", "Check the list's faction line."),
    "roster-renamed": Code("warning", "A name of the list reached its record through the alias table (a known rename); "
                           "the table's reason is given.", "Nothing; re-export the list to get the current name."),
    "roster-outside-faction": Code("warning", "A unit of a faction other than the army's, not listed as an allied unit.",
                                   "Check the unit may be taken (allies rules) or list it under allied units."),
    "roster-points": Code("warning", "A unit's declared points differ from the knowledge base's for its size (with "
                          "its enhancement): the list was priced before (or after) a points update.",
                          "Re-price the list; the message gives old -> new."),
    "roster-total": Code("warning", "The list's declared total differs from the sum of its declared unit points, or "
                         "from the knowledge base's total.", "Re-export the list, or check the units' points."),
    "roster-points-limit": Code("error", "The army costs more points than its battle size allows.",
                                "Remove units or choose a larger battle size."),
    "roster-unpriced": Code("warning", "The knowledge base gives no points for a unit (or none for its size); it is "
                            "not re-priced.", "Check the datasheet's points in the knowledge base."),
    "roster-unit-size": Code("error", "A unit has more or fewer models than its datasheet's composition allows.",
                             "Change the unit's size."),
    "roster-enhancement-detachment": Code("error", "An enhancement that does not belong to the army's detachment(s).",
                                          "Choose an enhancement of the detachment."),
    "roster-enhancement-bearer": Code("error", "An enhancement on a unit that may not take it: not a CHARACTER, an "
                                      "EPIC HERO, or not meeting the enhancement's restriction.",
                                      "Give it to an eligible CHARACTER."),
    "roster-enhancement-count": Code("error", "Too many enhancements: more than one on a unit, one taken twice, or "
                                     "more than the army may have.", "Remove the extra enhancement."),
    "roster-leader": Code("error", "A character attached to a unit its datasheet cannot lead (neither its LEADER list "
                          "nor the unit's LED BY list names the other).", "Attach it to a unit it can lead."),
    "roster-datasheet-limit": Code("error", "More units of one datasheet than the edition allows (three; six for "
                                   "BATTLELINE and DEDICATED TRANSPORT; one for an EPIC HERO).",
                                   "Remove the extra units."),
    "roster-warlord": Code("error", "The army has no Warlord, several, or one that is not a CHARACTER.",
                           "Choose one CHARACTER as the Warlord."),
    "roster-unique-detachment": Code("error", "Two detachments with one unique tag (the Field Manual's 'Unique'), or "
                                     "one detachment selected twice (11th edition).",
                                     "Keep one of the detachments."),
    "roster-requisition": Code("error", "The Nth selection of a datasheet is priced below its requisition threshold's "
                               "cost ('Your 3rd+ Units Cost'; 11th edition).", "Pay the threshold's points."),
    "roster-starting-strength": Code("error", "A unit between two listed sizes is priced below the higher size's cost "
                                     "(11th edition: the next size up is paid).", "Pay the next size's points."),
    "roster-unit-limit": Code("error", "More units of one datasheet than the battle size's unit limit (doubled for "
                              "BATTLELINE and DEDICATED TRANSPORT; one EPIC HERO; 11th edition).",
                              "Remove the extra units."),
    "roster-enhancement-limit": Code("error", "Too many enhancements for the battle size, two on one unit (an "
                                     "attached unit counts as one), one enhancement twice, or an Upgrade on more "
                                     "units than it allows (11th edition).", "Remove the extra enhancement."),
    "roster-unattached-support": Code("error", "A Support unit not attached to a bodyguard unit (11th edition: each "
                                      "must be).", "Attach it to a unit its Support list names."),
    "roster-attachment": Code("error", "A Leader or Support unit attached to a unit its list does not name, or two "
                              "of one kind on one bodyguard unit (11th edition).",
                              "Attach it to a unit it can lead or support."),
    "roster-muster-rules": Code("warning", "The build's core-rules records do not give a muster rule in a form the "
                                "reader knows (the battle-size table, the enhancement limits); the checks that need "
                                "it are listed as unchecked.", "Build with the app's core rules (examples/11e), or "
                                "extend warscribe/roster/muster.py to the new wording."),
    "roster-detachment-points": Code("error", "The detachments cost more detachment points than the battle size "
                                     "allows (11th edition).", "Choose fewer or cheaper detachments."),
}


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def code_info(code: str) -> Code:
    try:
        return CODES[code]
    except KeyError:
        raise ValueError(f"diagnostic code {code!r} is not in the vocabulary (schema/diagnostics.py CODES)") from None


EXCERPT = 100  # characters of an offending line quoted in a message
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True, order=True)
class Diagnostic:
    file: str
    line: int
    level: str  # "error" or "warning"
    code: str  # short stable tag, e.g. "scraping-typo", "lost-table"
    message: str
    expected: str = ""
    found: str = ""
    column: int = 0
    record: str = ""  # the id of the record the finding is about, where there is one

    def __post_init__(self) -> None:
        # A lone surrogate quoted from data (a JSON name) can be neither written nor shown: kept as its escape.
        for name in ("file", "message", "expected", "found", "record"):
            value = getattr(self, name)
            if isinstance(value, str) and _SURROGATE.search(value):
                object.__setattr__(self, name, _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", value))

    def render(self) -> str:
        """For a terminal: every part escaped, long quotes cut."""
        where = f"{printable(self.file)}:{self.line}" + (f":{self.column}" if self.column else "")
        out = f"{where}: {self.level}: {printable(self.message, 4 * EXCERPT)} [{self.code}]"
        if self.record:
            out += f"\n    record:   {printable(self.record)}"
        if self.expected:
            out += f"\n    expected: {printable(self.expected, EXCERPT)}"
        if self.found:
            out += f"\n    found:    {printable(self.found, EXCERPT)}"
        return out

    def as_dict(self) -> dict:
        """For report.json: JSON escapes control characters itself; quotes stay short."""
        d = {"file": self.file, "line": self.line, "level": self.level, "code": self.code,
             "message": _cut(self.message, 4 * EXCERPT)}
        if self.column:
            d["column"] = self.column
        if self.record:
            d["record"] = self.record
        if self.expected:
            d["expected"] = _cut(self.expected, 2 * EXCERPT)
        if self.found:
            d["found"] = _cut(self.found, 2 * EXCERPT)
        return d


@dataclass
class Report:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # What is already reported: a line read by two stages is reported once, so every
    # count (errors, warnings) is the count of what is listed.
    _seen: set[Diagnostic] = field(default_factory=set, repr=False, compare=False)

    def _add(self, d: Diagnostic) -> None:
        code_info(d.code)
        if d not in self._seen:
            self._seen.add(d)
            self.diagnostics.append(d)

    def error(self, file: str, line: int, code: str, message: str, expected: str = "", found: str = "", column: int = 0) -> None:
        self._add(Diagnostic(file, line, "error", code, message, expected, found, column))

    def warning(self, file: str, line: int, code: str, message: str, expected: str = "", found: str = "", column: int = 0) -> None:
        self._add(Diagnostic(file, line, "warning", code, message, expected, found, column))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.level == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.level == "warning"]

    def sorted(self) -> list[Diagnostic]:
        # Deduplicate: a line read by two stages must not be reported twice.
        return sorted(set(self.diagnostics))


def plural(n: int, word: str) -> str:
    """'1 error', '2 errors', '0 warnings': counts of diagnostics in summaries."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def codes_markdown() -> str:
    """docs/diagnostics.md, generated from CODES (``python -m warscribe.schema.diagnostics``)."""
    out = ["# Diagnostics", "",
           "Every finding Warscribe reports (extraction, scenario input, checks) has a stable code from one",
           "vocabulary, `CODES` in `schema/diagnostics.py`. Reporting a code that is not there is a",
           "programming error, so this list is complete. Each diagnostic names the file, the line (and column",
           "where known), what was expected and what was found; `out/report.json` holds them all. This page",
           "is generated: `python -m warscribe.schema.diagnostics > docs/diagnostics.md`.", "",
           "Levels: an **error** costs the record or the source it concerns (the rest of the build completes,",
           "and the exit status is 1); a **warning** keeps the record as the source gives it (`--strict`",
           "makes warnings fatal).", "",
           "| code | level | what it means | what to do |", "|---|---|---|---|"]
    out += [f"| `{c}` | {v.level} | {v.meaning} | {v.action} |" for c, v in CODES.items()]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(codes_markdown(), end="")
