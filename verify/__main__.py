"""`python -m verify` is the `novikoff` command."""

import sys

from verify.cli import main

sys.exit(main())
