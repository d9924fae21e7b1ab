"""Compiled templates are kept in a private directory of the user's cache (templating.py), used
again by the next command, compiled afresh when the template changes, and never left in the
temporary directory (a run leaves nothing there: test_adapter_boundary.py)."""

from __future__ import annotations

import stat

import jinja2
import pytest

from envirobench import templating


def environment(sources):
    env = templating.environment(html=False)
    env.loader = jinja2.DictLoader(sources)
    return env


def test_templates_are_compiled_once_into_a_private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    sources = {"page.j2": "{% for i in range(3) %}{{ i }}{% endfor %}"}
    env = environment(sources)
    directory = tmp_path / "cache" / "envirobench" / "templates"
    assert env.bytecode_cache.directory == str(directory)
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert env.get_template("page.j2").render() == "012"
    assert len(list(directory.iterdir())) == 1

    # The next command takes the compiled template from the cache and compiles nothing.
    def refuse(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(jinja2.Environment, "compile", refuse)
    assert environment(sources).get_template("page.j2").render() == "012"


def test_a_changed_template_is_compiled_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    sources = {"page.j2": "one {{ x }}"}
    assert environment(sources).get_template("page.j2").render(x=1) == "one 1"
    sources["page.j2"] = "two {{ x }}"
    assert environment(sources).get_template("page.j2").render(x=1) == "two 1"


@pytest.mark.parametrize("where", ["relative", "a file", "a link"])
def test_no_cache_where_no_private_directory_can_be_had(tmp_path, monkeypatch, where):
    if where == "relative":
        monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    elif where == "a file":
        (tmp_path / "envirobench").write_text("not a directory")
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    else:
        (tmp_path / "elsewhere").mkdir()
        (tmp_path / "envirobench").mkdir()
        (tmp_path / "envirobench" / "templates").symlink_to(tmp_path / "elsewhere")
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    env = environment({"page.j2": "{{ 1 + 1 }}"})
    assert env.bytecode_cache is None
    assert env.get_template("page.j2").render() == "2"  # compiled, as without a cache
