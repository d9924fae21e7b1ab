"""{{ cookiecutter.project_name }}: a private EnviroBench plugin (benchmark type `{{ cookiecutter.type_id }}`)."""

from importlib import metadata

try:
    __version__ = metadata.version("{{ cookiecutter.project_slug }}")
except metadata.PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0+unknown"
