"""What a run verified, and what it may claim: the verification state from the checks that ran
(``state``), the requirements grounded in the person's words and the evidence for each
(``requirements``), the outcome (``outcome``) and the model's sentences held to them
(``claims``)."""
