"""A host and its port that the grammar reads as a scheme and a path (``iri_lint.core.schemes.port_after``)."""

from __future__ import annotations

import pytest

from iri_lint.core.schemes import port_after


@pytest.mark.parametrize(("text", "end"), [
    ("localhost:8080", 14), ("localhost:8080/healthz", 14), ("db:5432?x=1", 7), ("h:1#f", 3),
    ("admin:index", 0), ("app:2fa", 0), ("h:808000/x", 0), ("h:", 0), ("h:80a", 0), ("h:٣٠", 0),  # (ASCII digits)
])
def test_one_to_five_digits_that_end_the_text_or_a_component(text: str, end: int) -> None:
    assert port_after(text, text.index(":")) == end
