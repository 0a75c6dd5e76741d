"""IRI7xx text: IRIs inside docstrings and prose (RFC 3987 sec. 7.3), one rule per family. One module per rule."""
