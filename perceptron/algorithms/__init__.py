"""Algorithms: the online and batch perceptrons, the dual (kernel) perceptron, each seed
source's variant, and the exact integer engine (with its compiled loop) they all run on."""
