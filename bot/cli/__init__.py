"""Subcommands of ``python -m bot``: each module has ``add_arguments`` and ``run``."""
