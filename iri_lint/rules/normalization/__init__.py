"""IRI3xx normalization: the comparison ladder (RFC 3987 sec. 5.3) and Unicode forms. One module per rule."""
