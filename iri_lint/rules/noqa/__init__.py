"""IRI9xx noqa: the hygiene of iri-lint's own ``# noqa`` comments. One module per rule."""
