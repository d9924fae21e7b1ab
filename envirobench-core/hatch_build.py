"""Build hook: put the repository's plugin-template/ into the wheel as envirobench/plugin_template.

`envirobench plugins new` renders it (envirobench/scaffold.py). Editable installs get nothing:
they find the template in the checkout. The template is found beside this project (a repository
checkout) or inside it (an sdist, which force-includes it as plugin-template/).
"""

from __future__ import annotations

from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class PluginTemplateHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root)
        for candidate in (root / "plugin-template", root.parent / "plugin-template"):
            if (candidate / "cookiecutter.json").is_file():
                build_data["force_include"][str(candidate)] = "envirobench/plugin_template"
                return
        raise RuntimeError(f"plugin-template/ not found beside or inside {root}; build envirobench-core from a repository checkout")
