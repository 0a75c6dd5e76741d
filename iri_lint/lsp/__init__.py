"""The iri-lint language server (``iri-lint server``; needs the ``lsp`` extra: pygls, lsprotocol)."""
