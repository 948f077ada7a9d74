"""Generated data: tight families, the online adversary, worst orders and hypothesis
strategies, each built to press on the Novikoff bound."""
