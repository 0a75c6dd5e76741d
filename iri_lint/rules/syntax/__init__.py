"""IRI1xx syntax: not a valid IRI reference (RFC 3987 sec. 2.2; 3987bis sec. 2.2, 6.3). One module per rule."""
