"""IRI6xx scheme: scheme-specific restrictions (hosts, ports, typos, registration). One module per rule."""
