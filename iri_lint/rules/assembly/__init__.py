"""Assembly rules (IRI8xx): what only joining pieces of a URL value in code can get wrong (issue #27)."""
