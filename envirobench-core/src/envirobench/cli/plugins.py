"""`envirobench plugins list`; `plugins new NAME` is in cli/new_plugin.py (it needs jinja2: imported when used)."""

from __future__ import annotations

import click

from .common import CONTEXT_SETTINGS, LazyGroup, echo_json, registry


@click.group(
    "plugins",
    cls=LazyGroup,
    lazy={"new": ("new_plugin:plugins_new", "Create a private plugin NAME (e.g. acme-bench) from the plugin template.")},
    context_settings=CONTEXT_SETTINGS,
)
def plugins_group() -> None:
    """Installed plugins and what they register."""


@plugins_group.command("list", context_settings=CONTEXT_SETTINGS)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def plugins_list(as_json: bool) -> None:
    """Each plugin: distribution, version, hooks and registrations; a plugin that failed to load,
    with its error.

    Set ENVIROBENCH_LOAD_PLUGINS (comma-separated distribution or plugin names, as listed here;
    empty for none) to restrict which installed plugins load. Core's own hooks are always listed.
    """
    reg = registry(declared=True)
    rows = [
        {
            "name": info.name,
            "distribution": info.distribution,
            "version": info.version,
            "hooks": list(info.hooks),
            "registered": reg.registered_by(info.name),
            "error": None,
        }
        for info in reg.plugins
    ]
    rows += [
        {"name": f.name, "distribution": f.distribution, "version": f.version, "hooks": [], "registered": {}, "error": f.error}
        for f in reg.failures
    ]
    if as_json:
        echo_json(rows)
        return
    for row in rows:
        click.echo(f"{row['name']}  ({row['distribution']} {row['version']})")
        if row["error"]:
            click.echo(f"  failed to load, skipped: {row['error']}")
            continue
        click.echo(f"  hooks: {', '.join(row['hooks']) or '-'}")
        for kind, ids in row["registered"].items():
            if ids:
                click.echo(f"  {kind.replace('_', ' ')}: {', '.join(ids)}")
