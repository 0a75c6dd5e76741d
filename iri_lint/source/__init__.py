"""Source layer: find candidate IRI literals in Python source, their context and positions."""
