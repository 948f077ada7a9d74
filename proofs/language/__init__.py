"""The proof language: scalars, abstract vectors and their inner products (`terms`), the
expression grammar parsed without eval (`expressions`), and division as the user wrote it
(`division`). Proof files (`proofs.proof_file`) and the proof model (`proofs.step`) are
written in it."""
