"""One module per `novikoff` subcommand; each exposes `register(subparsers)`.

A subcommand's handler takes the parsed arguments and returns the exit code.
"""
