"""iri_lint.__main__, the ``iri-lint`` script: ``server`` to the language server, the rest to the CLI."""

from __future__ import annotations

import pytest

from iri_lint import __version__
from iri_lint.__main__ import main
from iri_lint.cli import main as cli_main


def test_server_goes_to_the_language_server(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["server", "--version"])  # the server's own options
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"iri-lint {__version__}\n"


def test_every_other_command_line_goes_to_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "IRI101"]) == 0
    assert "IRI101" in capsys.readouterr().out


def test_the_cli_alone_does_not_run_the_server(capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI does not import the language server (tests/test_layers.py): it says where the server is."""
    assert cli_main(["server"]) == 2
    assert capsys.readouterr().err == ("iri-lint: the language server is run by `iri-lint server` or "
                                       "`python -m iri_lint.lsp`, not by the CLI alone\n")
