"""Execute: running a round's tasks in dependency order (``task_runner``, ``scheduler``), task
results as later tasks' arguments (``placeholders``), and the workspace tools as plans are
offered them (``offered``: ``write_file`` takes an instruction; the authoring stage writes the
content)."""
