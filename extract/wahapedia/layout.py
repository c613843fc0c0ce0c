"""The Wahapedia export's layout: file names, separator, columns (read and written)."""

SEPARATOR = "|"
BOM = "\ufeff"

# Columns a table must have to be read at all; other columns are used when present.
REQUIRED = {
    "Factions.csv": ["id", "name"],
    "Datasheets.csv": ["id", "name", "faction_id"],
    "Datasheets_models.csv": ["datasheet_id", "line", "name", "M", "T", "Sv", "W", "Ld", "OC"],
    "Datasheets_wargear.csv": ["datasheet_id", "line", "name", "description", "range", "type", "A", "BS_WS", "S",
                               "AP", "D"],
    "Datasheets_keywords.csv": ["datasheet_id", "keyword", "is_faction_keyword"],
    "Datasheets_abilities.csv": ["datasheet_id", "line", "ability_id", "name", "description", "type"],
    "Datasheets_options.csv": ["datasheet_id", "line", "description"],
    "Datasheets_unit_composition.csv": ["datasheet_id", "line", "description"],
    "Datasheets_models_cost.csv": ["datasheet_id", "line", "description", "cost"],
    "Datasheets_leader.csv": ["leader_id", "attached_id"],
    "Abilities.csv": ["id", "name", "description"],
    "Stratagems.csv": ["faction_id", "name", "id", "type", "cp_cost", "legend", "detachment", "description"],
    "Enhancements.csv": ["faction_id", "name", "id", "cost", "detachment", "description"],
    "Detachment_abilities.csv": ["id", "faction_id", "name", "legend", "description", "detachment"],
    "Detachments.csv": ["id", "faction_id", "name"],
    "Source.csv": ["id", "name"],
}
#: The tables read, in the order they are read.
TABLES = tuple(REQUIRED)
#: Tables of the export that are not read, and why (each is named once in the build's report).
UNREAD = {
    "Datasheets_stratagems.csv": "which datasheets a stratagem can target is compiled from its TARGET keywords "
                                 "(the stratagems' `targets`, the datasheets' `stratagems`)",
    "Datasheets_enhancements.csv": "who may take an enhancement is compiled from its restriction (`bearers`)",
    "Datasheets_detachment_abilities.csv": "a detachment rule applies to the army; which datasheets the site shows it "
                                           "on is not a fact of the rule",
}
# Without these there is nothing to read; the others may be absent from an export.
ESSENTIAL = ("Factions.csv", "Datasheets.csv")

# Columns written, per file, in the 11th-edition layout (a superset of the 10th's).
LAYOUT = {
    "Factions.csv": ["id", "name", "link"],
    "Source.csv": ["id", "name", "type", "edition", "version", "errata_date", "errata_link"],
    "Last_update.csv": ["last_update"],
    "Datasheets.csv": ["id", "name", "faction_id", "source_id", "legend", "role", "loadout", "transport", "virtual",
                       "is_support", "leader_head", "leader_footer", "damaged_w", "damaged_description", "link"],
    "Datasheets_models.csv": ["datasheet_id", "line", "name", "M", "T", "Sv", "inv_sv", "inv_sv_descr", "W", "Ld", "OC",
                              "base_size", "base_size_descr"],
    "Datasheets_wargear.csv": ["datasheet_id", "line", "line_in_wargear", "dice", "name", "description", "range",
                               "type", "A", "BS_WS", "S", "AP", "D"],
    "Datasheets_keywords.csv": ["datasheet_id", "keyword", "model", "is_faction_keyword"],
    "Datasheets_abilities.csv": ["datasheet_id", "line", "ability_id", "model", "name", "description", "type",
                                 "parameter"],
    "Datasheets_options.csv": ["datasheet_id", "line", "button", "description"],
    "Datasheets_unit_composition.csv": ["datasheet_id", "line", "description"],
    "Datasheets_models_cost.csv": ["datasheet_id", "line", "description", "cost"],
    "Datasheets_leader.csv": ["leader_id", "attached_id"],
    "Datasheets_stratagems.csv": ["datasheet_id", "stratagem_id"],
    "Datasheets_enhancements.csv": ["datasheet_id", "enhancement_id"],
    "Datasheets_detachment_abilities.csv": ["datasheet_id", "detachment_ability_id"],
    "Abilities.csv": ["id", "name", "legend", "faction_id", "description"],
    "Stratagems.csv": ["faction_id", "name", "id", "type", "cp_cost", "legend", "turn", "phase", "detachment",
                       "detachment_id", "description"],
    "Enhancements.csv": ["faction_id", "name", "id", "cost", "detachment", "detachment_id", "upgrade", "legend",
                         "description", "support_leader"],
    "Detachment_abilities.csv": ["id", "faction_id", "name", "legend", "description", "detachment", "detachment_id"],
    "Detachments.csv": ["id", "faction_id", "name", "legend", "type", "dp", "force_disposition"],
}
