"""The run report: plots and a self-contained HTML page (``autointeract report RUN_DIR``).

Submodules import lazily; importing this package loads nothing heavy (matplotlib loads
when a figure is drawn).
"""
