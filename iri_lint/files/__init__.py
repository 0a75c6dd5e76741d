"""The files of a project on disk, as both front ends (``iri-lint``, the language server) see them.

* ``discover``: which files a run checks (folders walked, excludes, git's ignore files: ``gitignore``,
  ``gitrepo``), and the trees the command line reaches;
* ``globs``: the one matcher of every glob in the settings (excludes, per-file-ignores, test-files);
* ``pyproject``: the pyproject.toml that configures a file, its ``[tool.iri-lint]`` table, and the
  path the per-file settings match;
* ``fileio``: every file read or written, by one policy and one atomic writer.

This layer knows nothing of linting: it imports no other part of iri-lint. (``iri_lint.source.project``
is another question: which of the project's modules a literal's value may be read from.)
"""
