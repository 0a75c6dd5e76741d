"""iri_lint.files.pyproject: the pyproject.toml that configures a file, and the path its settings match."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from iri_lint.files.pyproject import ConfigError, PyprojectFinder, find_pyproject, lint_path, read_section

TABLE = "[tool.iri-lint]\n"


def test_a_pyproject_is_parsed_again_only_when_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text('[tool.iri-lint]\nprofile = "uri"\n')
    assert read_section(path) == {"profile": "uri"}
    path.write_text('[tool.iri-lint]\nprofile = "iri-3987bis"\n')  # another size: read again
    assert read_section(path) == {"profile": "iri-3987bis"}
    path.write_text("[project]\nname = 'x'\n")
    assert read_section(path) is None


def test_a_broken_pyproject_on_the_way_up_is_an_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.iri-lint\n")
    (tmp_path / "pkg").mkdir()
    with pytest.raises(ConfigError, match=str(tmp_path / "pyproject.toml")):
        find_pyproject(tmp_path / "pkg" / "m.py")


def test_a_pyproject_that_is_no_toml_and_never_names_the_table_is_passed_over(tmp_path: Path) -> None:
    """outside75 (singer-sdk): a cookiecutter template's Jinja pyproject.toml above checked files aborted the whole
    run; it cannot hold [tool.iri-lint], so the nearest one that does configures the file."""
    (tmp_path / "pyproject.toml").write_text(TABLE)
    template = tmp_path / "cookiecutter" / "{{cookiecutter.name}}"
    template.mkdir(parents=True)
    (template / "pyproject.toml").write_text('[project]\n{%- if cookiecutter.x %}\nname = "a"\n{%- endif %}\n')
    assert find_pyproject(template / "m.py") == tmp_path / "pyproject.toml"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """proj/ (a [tool.iri-lint] table) holding sub/ (a pyproject.toml without one) and sub/pkg/."""
    (tmp_path / "proj" / "sub" / "pkg").mkdir(parents=True)
    (tmp_path / "proj" / "pyproject.toml").write_text(TABLE)
    (tmp_path / "proj" / "sub" / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    return tmp_path / "proj"


def test_the_nearest_pyproject_with_the_table_configures_a_file(project: Path) -> None:
    """ruff's rule: a pyproject.toml without [tool.iri-lint] is passed over."""
    for start in (project / "sub" / "pkg" / "m.py", project / "sub" / "pkg", project / "m.py", project):
        assert find_pyproject(start) == project / "pyproject.toml"
    assert find_pyproject(project.parent / "elsewhere.py") is None


def test_a_remembering_finder_answers_as_a_fresh_look(project: Path) -> None:
    finder = PyprojectFinder()
    folders = [project / "sub" / "pkg", project / "sub", project, project.parent]
    assert [finder.for_folder(f) for f in folders] == [find_pyproject(f) for f in folders]
    (project / "sub" / "pyproject.toml").write_text(TABLE)  # a run remembers; the editor looks again
    assert finder.for_folder(project / "sub" / "pkg") == project / "pyproject.toml"
    assert find_pyproject(project / "sub" / "pkg") == project / "sub" / "pyproject.toml"


def test_a_symlinked_file_is_configured_where_it_is_named(project: Path, tmp_path: Path) -> None:
    """The link's folder decides, as for every file of a walk (iri-lint check and the editor alike)."""
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "pyproject.toml").write_text(TABLE)
    (tmp_path / "other" / "real.py").write_text("x = 1\n")
    (project / "link.py").symlink_to(tmp_path / "other" / "real.py")
    assert find_pyproject(project / "link.py") == project / "pyproject.toml"
    assert lint_path(str(project / "link.py"), project) == "link.py"


def test_the_path_per_file_settings_match(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project / "sub")
    assert lint_path("pkg/m.py", project) == "sub/pkg/m.py"
    assert lint_path(str(project / "sub" / "pkg" / "m.py"), project) == "sub/pkg/m.py"
    assert lint_path("../../outside.py", project) == "../../outside.py"  # outside: as it is named
    assert lint_path("-", project) == "-"
    # named through a symlinked folder: placed where the folder really is
    (tmp_path / "alias").symlink_to(project / "sub", target_is_directory=True)
    assert lint_path(str(tmp_path / "alias" / "pkg" / "m.py"), project) == "sub/pkg/m.py"
    assert lint_path(os.path.join("..", "..", "alias", "pkg", "m.py"), project) == "sub/pkg/m.py"
