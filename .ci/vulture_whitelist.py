# Names vulture (`vulture`, configured in pyproject.toml's [tool.vulture]; run by .ci/run) reports as
# unused that are used, each with the reason. vulture reads this file as code that uses the names;
# nothing runs or imports it. Keep it short: dead code is removed, not listed here.
# ruff: noqa
_ = object()

# Called by a framework, not by our code.
_.add_options  # flake8: Plugin.add_options/parse_options (iri_lint/flake8_plugin.py)
_.parse_options
_.report_deferred  # flake8: the IRI0 logical-line entry point (pyproject.toml)
_.logical_line  # flake8 passes parameters by name: report_deferred must name the one it wants
_.METADATA_DEPENDENCIES  # libcst: visitor metadata and visit_* methods (iri_lint/source/cst.py)
_.visit_ConcatenatedString
_.visit_SimpleString
_.visit_FormattedString
_.RstRoles  # griffe: the extension mkdocs.yml loads (scripts/griffe_rst_roles.py)
_.on_object
_.loader  # griffe passes hook parameters by name
_.__doc__  # core/lazy.py: the module's doc, read by help() and pydoc

# The public API (docs/api.md, docs/values.md): used by callers outside this repository.
_.components  # IRIReference.components
_.preprocessing  # IRIReference.preprocessing (3987bis sec. 6)
_.source_spans  # normalize_trace's Step.source_spans
_.files_read  # source.project.Project: what a run read (docs/values.md)
_.read_twice
_.depends_on  # ModuleValues.depends_on (docs/values.md)
_.UTF8  # lsp.positions: the three position encodings LSP negotiates, named together
_.UTF32

# Called by tests alone, as a unit or an oracle of what the package calls; candidates for removal
# or for moving into the tests by the owner of the module (issue #28, "Habits").
_._clear_caches  # core/security.py: tests switch ICU off and on
_.static_parts  # source/cst.py: CstString fields
_.in_concatenation
_.verify_with_cst  # source/cst.py
_.verify_edit  # source/edits.py
_.placeholder_spans  # source/templates.py
_.delimiter  # source/text.py: Span.delimiter
_.value_of  # source/urlvalues.py: ModuleValues.value_of
_.spelled  # source/values.py
_.units  # lsp/positions.py
