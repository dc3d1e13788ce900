"""A model's sentences about tests and checks, held to what ran.

A summary or a judge line that says tests or checks ran or passed is shown as written only
when the run's verification state bears it out: ``verified`` keeps such sentences; when
nothing checked the final files, the first such sentence is replaced by what did happen and
the others are dropped; when checks fail, a sentence claiming that they pass is replaced the
same way. A sentence that vouches for the result without naming a check ("the code works as
expected") claims as much as one that names it. A negation turns only what it stands just
before ("no tests", "did not pass"), so "passed all the checks and did not change the input"
still claims. A sentence that speaks of a file the request asks for as there ("totals.csv is
written") while it does not exist is replaced by that fact. When the request asks for
changes and the run changed no file, a sentence that speaks of a change as made ("the
function has been implemented", "it now returns None") is replaced the same way
(``held_to_changes``). Other sentences are untouched.
"""

from __future__ import annotations

import re

from core.engine.requests import mentions
from core.engine.verification.state import VerificationState

SUBJECT = re.compile(r"\b(tests?|tested|testing|unit[- ]tests?|checks?|checked|verif\w*|"
                     r"pytest|assert\w*)\b", re.IGNORECASE)
RAN = re.compile(r"\b(pass(?:es|ed|ing)?|succeed\w*|success\w*|ran|run|runs|running|executed|"
                 r"green|verified|confirmed|tested|checked|work(?:s|ed|ing)?|ok)\b", re.IGNORECASE)
VOUCHED = re.compile(r"\b(?:works?|working|behaves?)\s+(?:as\s+(?:expected|intended|required|"
                     r"specified|requested)|correctly|properly|perfectly|fine)\b|"
                     r"\b(?:is|are)\s+(?:now\s+)?(?:fully\s+)?(?:working|functional)\b",
                     re.IGNORECASE)
NEGATED = re.compile(r"\b(no|not|nothing|never|none|without|neither|nor)\b|n't\b", re.IGNORECASE)
WORD = re.compile(r"[\w']+")
NEAR = 3  # words before a subject or a verb that a negation among them turns
PASSED = re.compile(r"\b(pass(?:es|ed|ing)?|succeed\w*|success\w*|green|verified|confirmed|"
                    r"work(?:s|ed|ing)?|all)\b", re.IGNORECASE)
SENTENCE = re.compile(r"[^\n]*?(?:[.!?](?=\s)|\n|$)")
CHANGED = re.compile(r"\b(?:implemented|completed|added|updated|changed|modified|written|wrote|"
                     r"created|renamed|fixed|refactored|rewritten|rewrote|replaced|"
                     r"now\s+(?:returns?|raises?|has|uses?|handles?|accepts?|supports?))\b",
                     re.IGNORECASE)
UNCHANGED = "No file was changed: nothing the request asks for was written."


def claims(sentence: str) -> bool:
    """Whether ``sentence`` says tests or checks ran or passed, or vouches for the result
    (a sentence that says they did not, or that no test ran, claims nothing)."""
    subjects = list(SUBJECT.finditer(sentence))
    if subjects and all(_negated(sentence, match.start()) for match in subjects):
        return False
    verbs = RAN.finditer(sentence) if subjects else VOUCHED.finditer(sentence)
    return any(not _negated(sentence, match.start()) for match in verbs)


def _negated(sentence: str, start: int) -> bool:
    """Whether a negation is among the ``NEAR`` words before ``start``."""
    return any(NEGATED.search(word) for word in WORD.findall(sentence[:start])[-NEAR:])


def _unsupported(sentence: str, state: VerificationState) -> bool:
    if not claims(sentence) or state.state == "verified":
        return False
    if state.state == "failing":
        return bool(PASSED.search(sentence))
    return True


def fact(state: VerificationState) -> str:
    if state.state == "failing":
        return f"On the final files, {state.line}."
    return "No test or check ran on the final files, so this is not verified."


def _absent(sentence: str, state: VerificationState) -> str:
    """The missing file the request asks for that ``sentence`` speaks of as there, or ""."""
    if NEGATED.search(sentence):
        return ""
    return next((name for name in state.missing if mentions(sentence, name)), "")


def held_to(text: str, state: VerificationState) -> tuple[str, bool]:
    """``text`` with its unsupported claims replaced (see the module's docstring), and
    whether anything was replaced."""
    if not text or state.state == "verified" or not (
            SUBJECT.search(text) or VOUCHED.search(text) or state.missing):
        return text, False
    out: list[str] = []
    replaced = False
    for piece in filter(None, SENTENCE.findall(text)):
        absent = _absent(piece, state)
        if absent:
            lead = re.match(r"\s*(?:(?:[-*+]|\d+[.)])\s+)?", piece)
            out.append((lead.group(0) if lead else "")
                       + f"{absent} does not exist: the run did not write it."
                       + ("\n" if piece.endswith("\n") else ""))
            replaced = True
            continue
        if _unsupported(piece, state):
            lead = piece[:len(piece) - len(piece.lstrip())]
            marker = re.match(r"\s*(?:[-*+]|\d+[.)])\s+", piece)
            if not replaced:
                out.append((marker.group(0) if marker else lead) + fact(state))
            if piece.endswith("\n"):
                out.append("\n")
            replaced = True
            continue
        out.append(piece)
    return ("".join(out).strip() if replaced else text), replaced


def held_to_changes(text: str, state: VerificationState, asked: bool) -> tuple[str, bool]:
    """``text`` with its sentences that speak of a change as made replaced by ``UNCHANGED``
    (the first; the others dropped), when the request ``asked`` for changes and the run
    changed no file; and whether anything was replaced."""
    if not asked or state.changed or not CHANGED.search(text or ""):
        return text, False
    out: list[str] = []
    dropped = False
    for piece in filter(None, SENTENCE.findall(text)):
        if dropped and piece == "\n":  # the line break of a dropped line
            dropped = False
        elif not any(not _negated(piece, match.start()) for match in CHANGED.finditer(piece)):
            out.append(piece)
            dropped = False
        elif UNCHANGED in "".join(out):
            dropped = True
        else:
            marker = re.match(r"\s*(?:(?:[-*+]|\d+[.)])\s+)?", piece)
            out.append((marker.group(0) if marker else "") + UNCHANGED
                       + ("\n" if piece.endswith("\n") else ""))
    replaced = UNCHANGED in "".join(out)
    return ("".join(out).strip() if replaced else text), replaced
