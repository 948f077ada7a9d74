"""The one check that no file the audit writes (a report, a counterexample file) replaces
another it writes or a file it read: shared by the command line and by
`verify.audit.counterexamples.shrink_all` called from Python, which had none (a
counterexample file once replaced the data file the proof names)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path


def same_file(first: Path, second: Path) -> bool:
    """Whether two paths name one file: the same resolved path (`./a.md` and `a.md`, or
    through a symbolic link), or, for files that exist, the same inode (a hard link)."""
    if first.resolve() == second.resolve():
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:  # one of them does not exist (yet): then the resolved paths decide
        return False


def report_clash(outputs: Mapping[str, Path] | Sequence[tuple[str, Path]],
                 given: Sequence[tuple[str, Path]],
                 folders: Sequence[tuple[str, Path]] = (), written: str = "a report"
                 ) -> str | None:
    """The one line refusing report files that would overwrite one another or an input
    (`inputs`), or fall in a folder the audit writes into (`written_folders`: red team 5,
    a report in `--coq DIR` replaced an exported theory); None when every report file is
    a file of its own. Without it the last report written would silently replace the
    others, or the proof file or data file the audit read, while exit 0 said every report
    was written whole. `outputs`: option (without `--`) and file, as a mapping or pairs
    (`--counterexamples` writes several files); `written` says what they are in the line
    (a counterexample file is refused over an input exactly as a report is: red team 9, it
    replaced the data file the proof names)."""
    named = list(outputs.items()) if isinstance(outputs, Mapping) else list(outputs)
    for index, (name, path) in enumerate(named):
        for option, folder in folders:
            if path.resolve().is_relative_to(folder.resolve()):
                return (f"--{name} {path} is inside {option} {folder}, whose files the audit "
                        "writes: put the report elsewhere")
        for other, path2 in named[:index]:
            if same_file(path, path2):
                return (f"--{other} {path2} and --{name} {path} name the same file: give "
                        "each report a file of its own")
        for what, source in given:
            if same_file(path, source):
                return (f"--{name} {path}: that is {what} ({source}); {written} never "
                        "overwrites a file the audit reads")
    return None
