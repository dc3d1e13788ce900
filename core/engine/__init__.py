"""The engine: analyse, plan phases, rounds of Plan/Execute/Judge/Think, summary; and the classic loop."""
