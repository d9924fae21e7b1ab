"""Seeded generators of this plugin's synthetic datasets: `python -m {{ cookiecutter.package_name }}.generate`."""
