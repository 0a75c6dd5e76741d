"""A tiny shop client with the kinds of IRI mistakes real code has."""
