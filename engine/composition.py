"""Which model profile each line of a datasheet's composition counts.

A composition line ('4 Intercessors', '1 Intercessor Sergeant') names its models as the
rules text does, and a profile ('Intercessor Squad', 'INTERCESSOR SERGEANT') as the data
source does; they rarely agree letter for letter. Across the whole game (Wahapedia's
export and the BattleScribe data) they differ by number ('Veteran Guardsmen' and
'VETERAN GUARDSMAN', 'Sisters Novitiate', Orks' 'Boyz'), by a profile that serves several
lines ('Combat Servitors and Gun Servitors', 'OTHER MODELS'), or by the profile being
named after the unit ('Intercessor Squad'). The matching goes from strict to loose, and a
looser step only places lines a stricter one left over:

1. the same name, letter case and a plural ending aside;
2. the same words, each taken in the singular ('Sisters Novitiate' = 'Sister Novitiate');
3. one part of a profile named for several ('Gun Servitors' in 'Combat Servitors and Gun
   Servitors'); then a profile (or part) whose words are all in the line ('Grenadier
   Sergeant' counts as 'Grenadier', 'Kill Team Terminator (Garran Branatar)' as 'Kill Team
   Terminator', 'Kroot Farstalkers' as 'Farstalkers & Kill-broker'), when only one
   profile qualifies;
4. the one profile no line has taken, when one line is left and they share a word or the
   profile is named after the unit ('Intercessors' after 'Intercessor Sergeant' took its
   own: 'Intercessor Squad'; 'Fire Warriors': 'Strike Team');
5. a profile with all the line's words and more, when only one has, among the profiles no
   line has taken, then among all ('Assistants': 'Ironkyn Assistant');
6. a profile named 'Other models' (Wahapedia's name for the rest of a unit).

A line still unplaced is None: the caller says which (nothing is guessed between two
candidates).
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W_]+(?:[’'-][^\W_]+)*")
_PARTS = re.compile(r"\s+(?:and|&)\s+|\s*,\s*", re.IGNORECASE)
OTHER_MODELS = ("other", "model")


def singular(word: str) -> str:
    """A word of a model's name in the singular, as the names of the game form their plurals."""
    w = word.casefold()
    if len(w) <= 3:
        return w
    if w.endswith("men"):
        return w[:-3] + "man"  # guardsmen: guardsman
    if w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith("z") and not w.endswith("zz"):
        return w[:-1]  # Orks: boyz, nobz, stormboyz
    if w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


def words(name: str) -> tuple[str, ...]:
    return tuple(singular(w) for w in _WORD.findall(name))


def _whole(name: str) -> str:
    key = name.casefold().strip()
    return key[:-1] if key.endswith("s") else key


def match_lines(lines: list[str], profiles: list[str], unit: str = "") -> list[int | None]:
    """For each composition line, the index of the profile it counts, or None. ``unit``: the
    datasheet's name (a profile named after the unit is its rank and file's)."""
    out: list[int | None] = [None] * len(lines)
    line_words = [words(line) for line in lines]
    profile_words = [words(p) for p in profiles]
    parts = [[words(part) for part in _PARTS.split(p) if part.strip()] for p in profiles]

    def place(step) -> None:
        for i in range(len(lines)):
            if out[i] is None:
                found = step(i)
                if len(found) == 1:
                    out[i] = found[0]

    def free() -> list[int]:
        return [j for j in range(len(profiles)) if j not in out and profile_words[j] != OTHER_MODELS]

    place(lambda i: _first([j for j, p in enumerate(profiles) if _whole(p) == _whole(lines[i])]))
    place(lambda i: _first([j for j, w in enumerate(profile_words) if w == line_words[i]]))
    place(lambda i: [j for j, ps in enumerate(parts) if line_words[i] in ps])
    place(lambda i: [j for j, ps in enumerate(parts)
                     if any(w and w != OTHER_MODELS and set(w) <= set(line_words[i]) for w in ps)])
    # One line left and one profile no line took: theirs, if they share a word or the profile is
    # named after the unit (not a generic 'Unit Composition' line given a Heavy Weapons Team).
    left, spare = [i for i, j in enumerate(out) if j is None], free()
    if len(left) == 1 and len(spare) == 1:
        i, j = left[0], spare[0]
        if set(line_words[i]) & set(profile_words[j]) or (unit and profile_words[j] == words(unit)):
            out[i] = j
    for pool in (free, lambda: range(len(profiles))):  # no line's profile first, then any
        place(lambda i, pool=pool: [j for j in pool() if line_words[i] and set(line_words[i]) < set(profile_words[j])])
    other = [j for j, w in enumerate(profile_words) if w == OTHER_MODELS]
    if len(other) == 1:
        place(lambda i: other)
    return out


def _first(found: list[int]) -> list[int]:
    """Several profiles of one name: the first, as the data lists them."""
    return found[:1]
