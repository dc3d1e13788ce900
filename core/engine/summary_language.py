"""The summary in the person's language, where the language's script shows whether it is.

A small model asked for its summary in Chinese often writes it in English, the language of
its instructions; asked again in the same long context, it writes the same summary. Asked
alone to translate the text, it does. So a summary that is not in the script of the person's
language (``language.script_for``: Chinese, Japanese, Korean, Russian, ...; a Latin-script
language cannot be told by its letters) is translated in one more call — the instruction in
the system turn, the text alone in the user turn, so that the reply is the translation and
nothing said about it — and the translation replaces it only when it is in that script and
keeps every name of the original: its code spans, the values it quotes and the files it names
(a translation that renames ``port`` to ``start_port`` is not taken). Quote marks around the
whole translation that the original does not have are taken off.
"""

from __future__ import annotations

import re
from dataclasses import replace

from core.engine.language import script_for, script_of
from core.engine.stages.caller import RunAborted, StageCaller
from core.engine.verification.requirements import stated_values
from core.llm.base import CallOptions, ModelError
from core.shapes.stage_results import SummaryReply
from core.tools.code_in_text import file_names

TRANSLATION_TOKENS = 1_200
CODE_SPAN = re.compile(r"`([^`\n]+)`")


def names_in(text: str) -> list[str]:
    """What a translation of ``text`` must keep as it is: code spans, quoted values, file
    names."""
    return list(dict.fromkeys([*CODE_SPAN.findall(text), *stated_values(text),
                               *file_names(text)]))


def keeps_names(source: str, translation: str) -> bool:
    """Whether every name of ``source`` stands in ``translation``, not inside a longer name
    (letters of a script without spaces may touch it)."""
    return all(re.search(rf"(?<![A-Za-z0-9_]){re.escape(name.strip())}(?![A-Za-z0-9_])",
                         translation)
               for name in names_in(source) if name.strip())


QUOTE_PAIRS = {"「": "」", "『": "』", "“": "”", "\"": "\"", "«": "»", "„": "“", "‘": "’"}


def unwrapped(translation: str, source: str) -> str:
    """``translation`` without a pair of quote marks around the whole of it that ``source``
    does not have (a translation handed back as a quotation)."""
    closing = QUOTE_PAIRS.get(translation[:1])
    if closing is None or len(translation) < 3 or not translation.endswith(closing) \
            or source.strip().startswith(translation[0]):
        return translation
    inner = translation[1:-1]
    if translation[0] in inner or (closing != translation[0] and closing in inner):
        return translation  # the marks quote parts of the text, not all of it
    return inner.strip()


async def in_language(caller: StageCaller, reply: SummaryReply, language: str) -> SummaryReply:
    """``reply``, its summary translated into ``language`` when that language has its own
    script and the summary is not written in it; ``reply`` unchanged when the translation
    fails, is not in that script or loses a name."""
    want = script_for(language)
    text = reply.final_summary
    if want is None or script_of(text) in (want, None):
        return reply
    ask = (f"Translate the user's text into {language}. Keep code, paths and names as they "
           "are. Reply with the translation only.")
    try:
        answer = await caller.raw("summarizer", [{"role": "system", "content": ask},
                                                 {"role": "user", "content": text}], [], None,
                                  False, CallOptions(max_tokens=TRANSLATION_TOKENS,
                                                     temperature=0),
                                  detail=f"the summary in {language}")
    except (ModelError, RunAborted):
        return reply
    translated = unwrapped((answer.text or "").strip(), text)
    if script_of(translated) != want or not keeps_names(text, translated):
        return reply
    return replace(reply, final_summary=translated)
