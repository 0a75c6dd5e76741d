"""IRI4xx mapping and encoding: IRI <-> URI (RFC 3987 sec. 3), IDNA, escaped octets. One module per rule."""
