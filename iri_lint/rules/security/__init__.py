"""IRI5xx security: spoofing and leaks (RFC 3987 sec. 6.1, 7.5, 8; 3987bis sec. 9; UTS #39). One module per rule."""
