"""Datasets of a calibration run: tasks, interactions, SFT and RL splits, provenance, card.

- :mod:`~autointeract.dataset.rows` -- the SFT/RL row schemas every trainer adapter reads;
- :mod:`~autointeract.dataset.tables` -- a run's candidates and episodes as table rows (pure);
- :mod:`~autointeract.dataset.writer` -- parquet + JSONL, provenance, the card, Hub upload;
- :mod:`~autointeract.dataset.card` -- the dataset card.

Submodules import lazily; importing this package loads nothing heavy.
"""
