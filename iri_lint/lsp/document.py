"""The server's copy of an open document: its text, kept in step with the editor's changes.

pygls keeps a copy too, but splits lines with ``str.splitlines``: a form feed or U+2028 before an
incremental change puts the change on the wrong line there. This copy splits as LSP does
(``positions.LineIndex``) and converts the client's units with pygls' ``PositionCodec``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lsprotocol import types

from .positions import UTF16, LineIndex

PYTHON_SUFFIXES = (".py", ".pyi")


@dataclass(slots=True)
class Document:
    uri: str
    text: str
    version: int | None = None
    language_id: str | None = None
    path: str | None = None  # the file system path of a file: URI
    _index: LineIndex | None = field(default=None, repr=False)

    @property
    def is_python(self) -> bool:
        return self.language_id == "python" or self.uri.endswith(PYTHON_SUFFIXES)

    def index(self, encoding: str = UTF16) -> LineIndex:
        """Position conversions for the current text (built once per text and encoding)."""
        index = self._index
        if index is None or index.text is not self.text or index.codec.encoding != encoding:
            index = self._index = LineIndex(self.text, encoding)
        return index

    def apply(self, changes: Sequence[types.TextDocumentContentChangeEvent], version: int | None,
              encoding: str = UTF16) -> None:
        """Apply a didChange's events in order (a range edit, or the whole new text)."""
        for change in changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                index = self.index(encoding)
                start, end = index.offset(change.range.start), index.offset(change.range.end)
                self.text = self.text[:start] + change.text + self.text[max(start, end) :]
            else:
                self.text = change.text
        self.version = version
