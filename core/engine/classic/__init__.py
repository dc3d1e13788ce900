"""The classic reasoning loop (``use_phase_task`` off) and its loop detector."""
