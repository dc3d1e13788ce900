"""The authoring stage: a file's new content written as plain code in a separate call — the
draft first (what the model alone would write), later candidates only on better evidence.
``stage`` holds the stage, ``draft`` the one-shot prompt the draft and the evaluation's
baseline share, ``prompts`` every other authoring prompt, ``evidence`` what the engine finds
out about a candidate, ``blocks``/``replies``/``draft_reply`` how files are read out of
replies."""
