"""The phase engine: analyse, plan phases, then rounds of Plan / Execute / Judge / Think."""
