"""The ``iri-lint`` command (and ``python -m iri_lint``): which front end a command line is for.

``iri-lint server ...`` runs the language server (``iri_lint.lsp``, with pygls), every other command
line the CLI (``iri_lint.cli``). This is the one module that knows both front ends: neither imports
the other, and each is imported only for the command lines it serves (docs/design.md, "Lazy
boundaries" (b)), so ``iri-lint check`` never loads the server, nor ``iri-lint server`` the CLI.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``iri-lint`` script; ``argv`` None: the script's own command line."""
    rest = list(sys.argv[1:] if argv is None else argv)
    if rest[:1] == ["server"]:  # the server parses its own options (--tcp, --debounce, ...)
        from .lsp import serve  # lazy boundary (b): the server, only for `iri-lint server`

        if argv is None:  # what importing made lives as long as the process: as the CLI's subcommands do
            gc.freeze()
        return serve(rest[1:])
    if argv is None:  # no collection while the CLI and its subcommand are imported: the CLI re-enables it
        gc.disable()  # once they are, freezing what they made (iri_lint.cli's _imported)
    from .cli import main as cli_main  # lazy boundary (b): the CLI, for every other command line

    return cli_main(argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
