"""Tests keep deliberately bad IRIs; pyproject.toml ignores IRI1xx here."""

BAD = "https://example.com/a b"  # ignored by per-file-ignores
SPOOF = "https://exаmple.com/"  # a Cyrillic а: still reported (IRI5xx)
