"""A list read, resolved, re-priced and checked against the knowledge base of its edition.

Several builds may be given (a 10th- and an 11th-edition one); each list is checked
against the build of its edition: the one the list states (app version, detachment
points, BattleScribe's game system), or ``--edition``; when the list does not say and
several builds could hold it, the build that resolves and prices most of its units
as declared, which the result reports with the counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warscribe.roster import check, muster, rules
from warscribe.roster.model import Finding, Roster, Unchecked
from warscribe.roster.reprice import ArmyChanges, Repricing, reprice, since
from warscribe.roster.resolve import Resolution, datasheet_rulesets, resolve
from warscribe.schema.bundle import Bundle
from warscribe.schema.diagnostics import Diagnostic


@dataclass
class Result:
    roster: Roster
    resolution: Resolution | None = None
    prices: Repricing | None = None
    unchecked: list[Unchecked] = field(default_factory=list)
    changes: ArmyChanges | None = None
    findings: list[Finding] = field(default_factory=list)
    edition_evidence: str = ""
    edition: rules.Edition | None = None  # the muster rules the list was checked against

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.diagnostic.level == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.diagnostic.level == "warning")


def main_ruleset(kb: Bundle) -> str | None:
    counts = datasheet_rulesets(kb)
    return counts.most_common(1)[0][0] if counts else None


def _score(roster: Roster, kb: Bundle, ruleset: str) -> tuple[int, int]:
    res = resolve(roster, kb, ruleset)
    prices = reprice(res)
    return (sum(1 for u in res.units if u.datasheet.ok),
            sum(1 for p in prices.units if p.kb is not None and p.kb == p.declared))


def choose(roster: Roster, kbs: list[Bundle], edition: str | None = None) -> tuple[Bundle | None, str | None, str,
                                                                                   Diagnostic | None]:
    """(build, ruleset, why, a finding about the choice or None)."""
    wanted = edition or roster.edition
    why = f"--edition {edition}" if edition else roster.edition_evidence
    if wanted:
        ranked = sorted(kbs, key=lambda kb: (main_ruleset(kb) != wanted, -datasheet_rulesets(kb).get(wanted, 0)))
        for kb in ranked:
            if datasheet_rulesets(kb).get(wanted, 0):
                note = None
                if main_ruleset(kb) != wanted:
                    note = Diagnostic(roster.file, roster.title_line or 1, "warning", "roster-edition",
                                      f"the list is {wanted} ({why}); {kb.origin} is mostly {main_ruleset(kb)} and "
                                      f"holds only {datasheet_rulesets(kb)[wanted]} {wanted} datasheets",
                                      expected=f"a {wanted} build", found=f"a {main_ruleset(kb)} build")
                return kb, wanted, why, note
        return None, wanted, why, Diagnostic(
            roster.file, roster.title_line or 1, "error", "no-knowledge-base",
            f"the list is {wanted} ({why}); no knowledge base given holds {wanted} datasheets; not checked",
            expected=f"--kb a {wanted} build", found=", ".join(f"{kb.origin} ({main_ruleset(kb)})" for kb in kbs))
    usable = [kb for kb in kbs if main_ruleset(kb)]
    if not usable:
        return None, None, "", Diagnostic(roster.file, 1, "error", "no-knowledge-base",
                                          "no knowledge base with datasheets was given; not checked",
                                          expected="--kb a build", found="none")
    if len(usable) == 1:
        kb = usable[0]
        rs = main_ruleset(kb)
        why = f"assumed: the list does not say its edition; {kb.origin} is a {rs} build"
        return kb, rs, why, Diagnostic(roster.file, roster.title_line or 1, "warning", "roster-edition",
                                       f"the list does not say its edition; checked against the {rs} records of "
                                       f"{kb.origin} (--edition to choose)", expected="10e or 11e", found="not stated")
    scored = sorted(((_score(roster, kb, main_ruleset(kb)), i, kb) for i, kb in enumerate(usable)),
                    key=lambda s: (-s[0][0], -s[0][1], s[1]))
    (resolved, priced), _i, kb = scored[0]
    rs = main_ruleset(kb)
    counts = "; ".join(f"{main_ruleset(k)}: {s[0]} units resolved, {s[1]} priced as declared" for s, _j, k in scored)
    why = f"decided by the knowledge bases ({counts})"
    return kb, rs, why, Diagnostic(roster.file, roster.title_line or 1, "warning", "roster-edition",
                                   f"the list does not say its edition; {rs} fits it best ({counts}); "
                                   "--edition to choose", expected="10e or 11e", found="not stated")


def examine(roster: Roster, kbs: list[Bundle], edition: str | None = None, old: list[Bundle] | None = None) -> Result:
    """Everything `warscribe roster` says about one list."""
    result = Result(roster)
    result.findings += [Finding(d) for d in roster.errors + roster.warnings]
    if roster.errors:
        return result
    kb, ruleset, why, note = choose(roster, kbs, edition)
    result.edition_evidence = why
    if note is not None:
        result.findings.append(Finding(note))
    if kb is None:
        return result
    res = resolve(roster, kb, ruleset)
    prices = reprice(res)
    result.resolution, result.prices = res, prices
    edition = rules.edition(ruleset)
    if edition.from_build:
        edition, _muster = muster.edition(kb, edition)
    result.edition = edition
    result.unchecked = check.run(res, prices, edition)
    result.findings += res.findings
    if old:
        older = next((b for b in old if main_ruleset(b) == ruleset), old[0])
        result.changes = since(res, older)
    return result
