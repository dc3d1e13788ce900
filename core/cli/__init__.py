"""The terminal front end: headless runs, history commands, printing, context dumps."""
