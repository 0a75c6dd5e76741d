"""The version line: iri-lint's, and the Python, Unicode and IDNA data it reads characters with."""

from __future__ import annotations

import sys
import unicodedata

import idna
import idna.idnadata

from .. import __version__


def version_line() -> str:
    idna_unicode = getattr(idna.idnadata, "__version__", "unknown")
    return (f"iri-lint {__version__} (Python {sys.version.split()[0]}, Unicode {unicodedata.unidata_version}, "
            f"idna {idna.__version__} with Unicode {idna_unicode})")
