"""Compiling rules text into effects the engine applies (``schema/effect.schema.json``).

A rules text is split into sentences; each sentence becomes one effect entry:

* ``compiled``: the sentence changes the attack sequence in a way the engine models.
  The entry says whose attacks it changes (``side``: ``attacker`` for the attacks the
  owning unit makes, ``target`` for attacks made against it), which weapons
  (``weapons``), under which conditions (``when``), and what changes (``changes``);
* ``native``: the definition of a weapon ability of the shared vocabulary, which the
  engine applies wherever a weapon carries it;
* ``uncompiled``: anything else, kept as text, never guessed. ``attack_relevant``
  marks sentences that speak of the attack sequence (hit, wound, save, damage...), so
  the coverage report can tell a gap from a rule about movement or battle-shock.

Conditions are positional: those written before the first change hold for the whole
sentence; those between two changes, or after the last one, hold for the change they
precede (or, after the last, follow). Conditions the scenario cannot check (an
objective marker in range, Hallowed Ground) are kept as ``assumed`` text: selecting
the effect asserts them.

Each pattern below is one rule phrasing seen in the sources; the scans are linear in
the length of the sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from warscribe.extract.keyexpr import KEYWORD_LIST, Known, parse_list
from warscribe.schema.abilities import ABILITIES, find_mentions

MAX_TEXT = 20_000  # characters of one rules text considered (bounded work per record)
MAX_SENTENCE = 1_500  # a longer 'sentence' is scraping debris: kept uncompiled, not scanned

_ATTACK_TERMS = re.compile(
    r"\b(hit roll|wound roll|attacks?\b|weapons?\b|saving throw|save\b|invulnerable|damage characteristic|"
    r"toughness|feel no pain|critical (hit|wound)|armour penetration|ballistic skill|weapon skill|"
    r"benefit of cover|stealth|strength characteristic)|\[[A-Za-z]", re.I)

_ROLL = {"hit": "hit", "wound": "wound"}
_CHARACTERISTIC = {
    "attacks": "attacks", "damage": "damage", "strength": "strength", "toughness": "toughness",
    "armour penetration": "ap", "wounds": "wounds", "ap": "ap",
}
# Characteristics of the target unit's models, the rest belong to weapons.
_TARGET_CHARACTERISTICS = {"toughness", "wounds"}


def split_sentences(text: str) -> list[str]:
    """Sentences of a rules text: at full stops, line breaks and bullets; table pipes dropped."""
    text = text[:MAX_TEXT].replace("|", "\n").replace("\u00a0", " ")
    out: list[str] = []
    for line in text.splitlines():
        line = re.sub(r"^\s*(?:[-•]|\d+\.)\s+", "", line).strip()
        if not line:
            continue
        for part in re.split(r"(?<=[.!?])\s+(?=[A-Z\[(])|(?<=[a-z]\.)(?=[A-Z])", line):
            if part.strip():
                out.append(part.strip())
    return out


@dataclass
class Context:
    """What compiling one record's text needs: its ruleset, the known keywords, granted abilities."""

    ruleset: str
    known: Known
    # ability name (casefolded) -> its compiled effects, for 'has the Stealth ability'
    granted: dict[str, tuple[str, list[dict]]] = field(default_factory=dict)
    ability_id: str | None = None  # the vocabulary ability a weapon-ability record defines


# --- conditions ---------------------------------------------------------------------

_KW = KEYWORD_LIST
_CONDITIONS: list[tuple[re.Pattern, object]] = [
    (re.compile(r"[Ee]ach time this unit makes a Charge move|(?:if the attacking model’s |if the attacking model's )?unit made a [Cc]harge move this turn|"
                r"(?:and )?it makes a Charge move(?: as a result of this Stratagem)?"),
     lambda m, c: {"charged": True}),
    (re.compile(r"if the Strength characteristic of that attack is greater than the Toughness characteristic of (?:your|this|that) unit"),
     lambda m, c: {"strength_gt_toughness": True}),
    (re.compile(rf"[Ww]hile an? ({_KW}) model is leading (?:this|that|your) unit"),
     lambda m, c: {"unit": parse_list(m.group(1), c.known)}),
    (re.compile(rf"[Ii]f (?:it|your unit|this unit) is an? ({_KW})(?: unit)?"),
     lambda m, c: {"unit": parse_list(m.group(1), c.known)}),
    (re.compile(rf"[Ii]f that attack is made by an? ({_KW}) model"),
     lambda m, c: {"unit": parse_list(m.group(1), c.known)}),
    (re.compile(rf"[Ii]f the target of that attack is an? ({_KW}) unit"),
     lambda m, c: {"enemy": parse_list(m.group(1), c.known)}),
    (re.compile(r"[Ii]f such a weapon already has that ability"),
     lambda m, c: {"weapon_had": "previous"}),
    (re.compile(r"[Ww]hile (?:this model|the bearer) is leading a unit|[Ww]hile the bearer is leading a unit"),
     lambda m, c: {"assumed": [m.group(0)]}),
    (re.compile(rf"[Ww]hile an? ({_KW}) unit from your army is"),
     lambda m, c: {"unit": parse_list(m.group(1), c.known)}),
    (re.compile(r"(?:that targets an enemy unit )?within range of (?:an|that) objective marker|wholly within your (?:army’s |army's )?Hallowed Ground|"
                r"set up using the Deep Strike ability|and it targets the enemy WARLORD|within \d+\" of the bearer|"
                r"[Ii]f that test is (?:failed|passed)|that targets that enemy unit"),
     lambda m, c: {"assumed": [m.group(0).strip()]}),
]

# Frames: who makes the attacks the sentence changes, and at what.
_TARGET_FRAME = re.compile(
    r"each time an? (?:(ranged|melee) )?attack (?:targets|is made against) (?:your|this|that) unit|"
    r"each time an? (ranged|melee) attack (?:is made against it|targets that unit)|"
    r"each time an? (?:(ranged|melee) )?attack is allocated (?:to )?(?:a model in (?:your|this|that) unit|(?:your|this) unit|"
    r"(this model|the bearer|that model))", re.I)
_ENEMY_ATTACKER = re.compile(rf"enemy ({_KW}) unit[^,]{{0,100}}, each time a model in that \1 unit makes an? (?:(ranged|melee) )?attack")
_OWN_ATTACKER = re.compile(
    rf"[Ee]ach time an? (?:friendly )?({_KW}) (?:model from your army|unit) makes an? (?:(ranged|melee) )?attack|"
    r"[Ee]ach time (?:a model in (?:your|this|that|the bearer’s|the bearer's) unit|this model|the bearer) makes an? (?:(ranged|melee) )?attack")
_ATTACK_TARGETS = re.compile(rf"attack that targets (?:an?|that) ({_KW}) unit(?: containing (\d+) or more models)?")
_WEAPONS = re.compile(
    rf"(?P<what>(?:(?:[Tt]he )?bearer(?:’s|'s|s)? |(?:[Tt]hat|[Tt]his) model(?:’s|'s) )?(?:[Rr]anged |[Mm]elee |Psychic )?weapons|(?:[Ss]torm bolter )weapons|storm bolters)"
    rf"(?: equipped by (?P<who>(?:the bearer|(?:(?P<kw>{_KW}) )?models (?:in (?:your|this|that|(?P<enemy>that enemy)) unit|from your army))))?"
    rf"(?: with the \[(?P<ability>[^\]]+)\] ability)?")


def _merge(a: dict, b: dict) -> dict:
    out = dict(a)
    for key, value in b.items():
        if key == "assumed":
            out["assumed"] = list(dict.fromkeys(out.get("assumed", []) + value))
        else:
            out[key] = value
    return out


def _conditions_in(text: str, ctx: Context) -> dict:
    found: dict = {}
    for pattern, make in _CONDITIONS:
        for m in pattern.finditer(text):
            found = _merge(found, make(m, ctx))
    return found


# --- changes ------------------------------------------------------------------------

def _abilities_in(text: str) -> list[dict]:
    mentions, _problems = find_mentions(text)
    return [{k: v for k, v in a.items() if k != "text"} | {"text": a["text"]} for a in mentions if a["id"] != "custom"]


_CHANGES: list[tuple[re.Pattern, str]] = [
    (re.compile(r"(add|subtract) (\d) (?:to|from) (?:the|that attack’s|that attack's) (Hit|Wound) roll", re.I), "modify"),
    (re.compile(r"(?:successful )?unmodified (Hit|Wound) roll of (\d)\+ scores a Critical (?:Hit|Wound)", re.I), "critical"),
    (re.compile(r"re-roll (?:a|the) (Hit|Wound) roll( of 1)?", re.I), "reroll"),
    (re.compile(r"(?:have|has|also have) the (\[[^.]{0,200}?)(?:\s+abilit(?:y|ies)\b|\.|$)", re.I), "abilities"),
    (re.compile(r"(add|subtract) (\d) (?:to|from) (?:the|that attack’s|that attack's) (Attacks|Damage|Strength|Toughness|Armour Penetration|Wounds) characteristic", re.I), "characteristic"),
    (re.compile(r"[Ii]mprove the (?:[^.]{0,60}?’s |[^.]{0,60}?'s )?((?:(?:Armour Penetration|Leadership|Wounds|Objective Control|Toughness)(?: and |, )?)+) characteristics? (?:[^.]{0,120}? )?by (\d)"), "improve"),
    (re.compile(r"change the (Damage|Attacks|Strength|Armour Penetration) characteristic of [^.]{0,120}? to (\d+)", re.I), "set"),
    (re.compile(r"halve the Damage characteristic", re.I), "halve"),
    (re.compile(r"(?:have|has) (?:an?|the) (\d)\+ invulnerable save(?: against (ranged|melee) attacks)?", re.I), "invulnerable"),
    (re.compile(r"Feel No Pain (\d)\+(?: ability)?(?: against (attacks with an unmodified Damage characteristic of 1|mortal wounds))?", re.I), "fnp"),
    (re.compile(r"(?:have|has) the Benefit of Cover", re.I), "cover"),
    (re.compile(r"(?:has|have) the ([A-Z][A-Za-z’' ]{0,40}?) ability", re.I), "grant"),
    (re.compile(r"ignore any or all modifiers to (?:that attack’s |that attack's )?(?:BS or WS|Weapon Skill or Ballistic Skill|BS|WS) characteristics?"
                r"(?: and/or| and) any or all modifiers to the Hit roll", re.I), "ignore"),
]


def _change(kind: str, m: re.Match, ctx: Context) -> list[dict]:
    if kind == "modify":
        value = int(m.group(2)) * (1 if m.group(1).lower() == "add" else -1)
        return [{"op": "modify", "roll": m.group(3).lower(), "value": value}]
    if kind == "critical":
        return [{"op": "critical", "roll": m.group(1).lower(), "threshold": int(m.group(2))}]
    if kind == "reroll":
        return [{"op": "reroll", "roll": m.group(1).lower(), "which": "ones" if m.group(2) else "failed"}]
    if kind == "abilities":
        gained = _abilities_in(m.group(1))
        return [{"op": "ability", "ability": a} for a in gained]
    if kind == "characteristic":
        value = int(m.group(2)) * (1 if m.group(1).lower() == "add" else -1)
        return [{"op": "characteristic", "characteristic": _CHARACTERISTIC[m.group(3).lower()], "add": value}]
    if kind == "improve":
        out = []
        bearer = "bearer" in m.group(0)
        for name in re.split(r" and |, ", m.group(1)):
            key = _CHARACTERISTIC.get(name.strip().lower())
            if key is None:
                continue  # Leadership, Objective Control: outside the attack sequence
            # Improving AP makes it more negative; improving T or W raises them.
            change = {"op": "characteristic", "characteristic": key,
                      "add": -int(m.group(2)) if key == "ap" else int(m.group(2))}
            if bearer:
                change["when"] = {"assumed": ["the bearer only"]}
            out.append(change)
        return out
    if kind == "set":
        return [{"op": "characteristic", "characteristic": _CHARACTERISTIC[m.group(1).lower()], "set": int(m.group(2))}]
    if kind == "halve":
        return [{"op": "characteristic", "characteristic": "damage", "halve": True}]
    if kind == "invulnerable":
        change = {"op": "invulnerable", "value": int(m.group(1))}
        if m.group(2):
            change["when"] = {"attack": m.group(2).lower()}
        return [change]
    if kind == "fnp":
        change = {"op": "feel_no_pain", "value": int(m.group(1))}
        if m.group(2):
            change["against"] = "mortal-wounds" if "mortal" in m.group(2).lower() else "damage-1"
        return [change]
    if kind == "cover":
        return [{"op": "cover"}]
    if kind == "grant":
        name = m.group(1).strip()
        got = ctx.granted.get(name.casefold())
        if got is None or name.casefold() in ("feel no pain",):
            return []
        ref, effects = got
        return [{"op": "grant", "ability": ref, "effects": [e for e in effects if e["status"] == "compiled"]}] \
            if any(e["status"] == "compiled" for e in effects) else []
    if kind == "ignore":
        return [{"op": "ignore_modifiers", "to": ["skill", "hit"]}]
    raise AssertionError(kind)


def _find_changes(sentence: str, ctx: Context) -> list[tuple[int, int, list[dict]]]:
    spans: list[tuple[int, int, list[dict]]] = []
    for pattern, kind in _CHANGES:
        for m in pattern.finditer(sentence):
            if any(s < m.end() and m.start() < e for s, e, _ in spans):
                continue  # an earlier, more specific pattern took this text
            made = _change(kind, m, ctx)
            if made or kind == "improve":  # improving Leadership / OC is understood and changes no attack
                spans.append((m.start(), m.end(), made))
    spans.sort(key=lambda s: s[0])
    return spans


# --- one sentence -------------------------------------------------------------------

# A change read under one of these words is not understood ('the target cannot have the
# Benefit of Cover', 'add 1 ... for every five models', 'if all of the following apply').
_GUARD = re.compile(r"\b(?:cannot|can't|not|never|for every|if all of the following|unless|except|excluding)\b", re.I)
# 'The bearer has a 4+ invulnerable save': one model's, not its unit's.
_ONE_MODEL = re.compile(r"(?:^|[.:■]\s*)(?:The bearer|This model) (?:has|have)\b")
_WITH_ABILITY = re.compile(r"attack (?:is )?made with (?:an? |such a |that )?(?:\[([^\]]+)\] )?weapon")
#: Core abilities the engine applies from the scenario itself (target.feel_no_pain).
NATIVE_CORE = {"feel-no-pain"}


def _guarded(sentence: str, start: int, end: int, previous_end: int) -> bool:
    """Whether the clause holding a change (from the last change to the next comma) qualifies it."""
    stop = re.search(r"[,.;:]", sentence[end:])
    clause = sentence[previous_end:end + (stop.start() if stop else len(sentence) - end)]
    return bool(_GUARD.search(clause))


def _weapons(sentence: str, ctx: Context) -> tuple[dict, dict]:
    """(weapon filter, conditions) from a phrase like 'melee weapons equipped by PALADIN SQUAD models in this unit'."""
    for m in _WEAPONS.finditer(sentence):
        what = m.group("what").lower()
        scope: dict = {}
        when: dict = {}
        if "ranged" in what:
            scope["type"] = "ranged"
        elif "melee" in what:
            scope["type"] = "melee"
        if "psychic" in what:
            scope["ability"] = "psychic"
        if "storm bolter" in what:
            scope["name"] = "storm bolter"
        if m.group("ability"):
            found = _abilities_in("[" + m.group("ability") + "]")
            if found:
                scope["ability"] = found[0]["id"]
        if "bearer" in what or (m.group("who") or "").startswith("the bearer"):
            when["assumed"] = ["the bearer's weapons only"]
        if m.group("kw"):
            when["unit"] = parse_list(m.group("kw"), ctx.known)
        if m.group("enemy"):
            when["enemy_weapons"] = True
        if scope or when or m.group("who"):
            return scope, when
    return {}, {}


# Phrases that say when or for how long, not what: they change nothing the engine computes.
_FILLER = re.compile(
    r"[Uu]ntil the (?:end|start) of (?:the|your next|your opponent’s next|your opponent's next) "
    r"(?:phase|turn|battle round|Command phase|Shooting phase|Fight phase)|[Ii]n addition|as well|[Tt]he bearer(?:’s|'s|s)?|"
    r"(?:each time )?an? (?:ranged |melee )?attack is made with (?:an? |such a |that )?(?:\[[^\]]*\] )?weapon|"
    r"models in (?:your|this|that) unit|[Yy]ou can|[Ii]f every model in (?:a|this|that) unit has this ability,?(?: then)?|"
    r"against (?:that|the) attack|\(\d{2}(?:\.\d{2})+\)")
# Words that hold sentences together; any other word left over is something not understood.
_GLUE = frozenset(
    "a an and the that this these those your its it each time of in to with you can if then also as until "
    "all models model unit units by equipped or is are has have made makes attack attacks weapon weapons from "
    "army friendly on while when which such they their both either one instead".split())


# 'have a 4+ invulnerable save and, after the attacking unit has resolved its attacks, ...
# it can make a Normal move': a later, separate instruction after the changes, kept as
# `outside` text (it changes nothing in the attack sequence).
_LATER_CLAUSE = re.compile(r",? and, (?=after |unless |it can |your unit can )")
_ROLL_TERMS = re.compile(r"\b(roll|characteristic|save|damage|critical|wound|hit|ability)\b", re.I)


# Changes where the engine keeps the better of two (re-rolls, critical thresholds, saves):
# 'instead' replacing an earlier sentence's change of the same kind is then exact.
_TAKE_BEST = {"reroll", "critical", "invulnerable", "feel_no_pain", "cover", "ability", "ignore_modifiers"}


def _unexplained(sentence: str, ctx: Context, spans: list[tuple[int, int, list[dict]]]) -> list[str]:
    """Words of the sentence no pattern read (glue words aside). Non-empty: do not compile,
    since a qualifier we cannot read ('while this model has 1-5 wounds remaining', 'against
    Psychic Attacks', 'within half range') may change what the sentence means."""
    covered = bytearray(len(sentence))
    def cover(start: int, end: int) -> None:
        covered[start:end] = b"\x01" * (end - start)
    for start, end, _made in spans:
        cover(start, end)
    for pattern in [p for p, _make in _CONDITIONS] + [_FILLER, _TARGET_FRAME, _ENEMY_ATTACKER, _OWN_ATTACKER,
                                                       _ATTACK_TARGETS, _WEAPONS, _WITH_ABILITY]:
        for m in pattern.finditer(sentence):
            if m.end() > m.start():
                cover(m.start(), m.end())
    rest = "".join(ch if not covered[i] else " " for i, ch in enumerate(sentence))
    words = re.findall(r"[A-Za-z0-9][A-Za-z0-9’'\-]*", rest)
    return [w for w in words if w.lower() not in _GLUE]


def compile_sentence(sentence: str, ctx: Context) -> dict:
    """One sentence as an effect entry (compiled, native or uncompiled)."""
    if len(sentence) > MAX_SENTENCE:
        return {"text": sentence, "status": "uncompiled", "attack_relevant": bool(_ATTACK_TERMS.search(sentence))}
    spans = _find_changes(sentence, ctx)
    previous = 0
    for start, end, _made in spans:
        if _guarded(sentence, start, end, previous):
            spans = []
            break
        previous = end
    rest = _LATER_CLAUSE.search(sentence, spans[-1][1]) if spans else None
    if rest and _ROLL_TERMS.search(sentence[rest.end():]):
        rest = None  # it speaks of rolls or characteristics: not separable
    checked = sentence[:rest.start()] if rest else sentence
    if spans and _unexplained(checked, ctx, spans):
        spans = []
    spans = [s for s in spans if s[2]]
    if len(spans) == 1 and re.search(r"\binstead\b", sentence) and \
            any(c["op"] not in _TAKE_BEST for c in spans[0][2]):
        spans = []  # 'add 2 instead' replaces a change of an earlier sentence: not expressible per entry
    if not spans:
        if ctx.ability_id in ABILITIES or ctx.ability_id in NATIVE_CORE:
            return {"text": sentence, "status": "native", "ability": ctx.ability_id}
        return {"text": sentence, "status": "uncompiled", "attack_relevant": bool(_ATTACK_TERMS.search(sentence))}

    side = "attacker"
    when: dict = {}
    weapons, weapon_when = _weapons(sentence, ctx)
    enemy_weapons = weapon_when.pop("enemy_weapons", False)
    when = _merge(when, weapon_when)
    with_ability = _WITH_ABILITY.search(sentence)
    if with_ability and not weapons:
        named = _abilities_in("[" + with_ability.group(1) + "]") if with_ability.group(1) else []
        ability = named[0]["id"] if named else ctx.ability_id
        if ability:
            weapons = {"ability": ability}
    target_frame = _TARGET_FRAME.search(sentence)
    enemy = _ENEMY_ATTACKER.search(sentence)
    own = _OWN_ATTACKER.search(sentence)
    if enemy:
        side = "target"
        when["enemy"] = parse_list(enemy.group(1), ctx.known)
        if enemy.group(2):
            when["attack"] = enemy.group(2)
    elif target_frame:
        side = "target"
        kind = target_frame.group(1) or target_frame.group(2) or target_frame.group(3)
        if kind:
            when["attack"] = kind.lower()
        if target_frame.group(4):
            # 'allocated to this model': that model's, not its unit's (exact where it is the whole unit).
            when = _merge(when, {"assumed": ["the bearer only"]})
    elif enemy_weapons:
        side = "target"
    elif own:
        if own.group(1):
            when["unit"] = parse_list(own.group(1), ctx.known)
        kind = own.group(2) or own.group(3)
        if kind:
            when["attack"] = kind.lower()
    if _ONE_MODEL.search(sentence):
        when = _merge(when, {"assumed": ["the bearer only"]})
    targets = _ATTACK_TARGETS.search(sentence)
    if targets and side == "attacker":
        when["enemy"] = parse_list(targets.group(1), ctx.known)
        if targets.group(2):
            when["enemy_models_at_least"] = int(targets.group(2))

    changes: list[dict] = []
    defensive = {"invulnerable", "feel_no_pain", "cover"}
    previous_end = 0
    for index, (start, end, made) in enumerate(spans):
        before = sentence[previous_end:start]
        clause = _conditions_in(before, ctx)
        if index == len(spans) - 1:
            clause = _merge(clause, _conditions_in(sentence[end:], ctx))
        if index == 0:
            when = _merge(when, clause)
            clause = {}
        instead = index > 0 and re.search(r"\binstead\b", sentence[start:] if index == len(spans) - 1 else sentence[start:end + 12])
        for change in made:
            if change["op"] in defensive or (change["op"] == "characteristic" and change["characteristic"] in _TARGET_CHARACTERISTICS):
                if not own and not enemy:
                    side = "target"
            if change["op"] == "grant":
                side = change["effects"][0]["side"]
            entry = dict(change)
            if clause:
                entry["when"] = _merge(change.get("when", {}), clause)
            if instead:
                entry["instead"] = True
            changes.append(entry)
        previous_end = end
    if when.get("weapon_had") == "previous":
        when.pop("weapon_had")
    effect: dict = {"text": sentence, "status": "compiled", "side": side}
    if weapons:
        effect["weapons"] = weapons
    if when:
        effect["when"] = when
    effect["changes"] = changes
    if rest:
        effect["outside"] = sentence[rest.end():]
    return effect


def _resolve_weapon_had(effects: list[dict]) -> None:
    """'If such a weapon already has that ability': the ability the previous sentence gave."""
    for previous, effect in zip(effects, effects[1:]):
        if effect["status"] != "compiled" or "already has that ability" not in effect["text"]:
            continue
        gained = [c["ability"]["id"] for c in previous.get("changes", []) if c["op"] == "ability"]
        if gained:
            effect.setdefault("when", {})["weapon_had"] = gained[0]
        if "weapons" not in effect and "weapons" in previous:
            effect["weapons"] = previous["weapons"]


def compile_text(text: str | None, ctx: Context) -> list[dict]:
    """Every sentence of a rules text as an effect entry, in order."""
    if not text:
        return []
    effects = [compile_sentence(s, ctx) for s in split_sentences(text)]
    _resolve_weapon_had(effects)
    return effects
