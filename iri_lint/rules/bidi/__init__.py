"""IRI2xx bidi: bidi formatting characters and component structure (RFC 3987 sec. 4). One module per rule."""
