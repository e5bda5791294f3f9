"""History: real user-agent sessions in, normalized + redacted + labeled sessions and
user-behavior statistics out.

Loaders: :func:`autointeract.history.corpus.load_corpus` (any source),
:mod:`~autointeract.history.swe_together`, :mod:`~autointeract.history.swe_chat`.
Labels: :mod:`~autointeract.history.acts` (rules), :mod:`~autointeract.history.llm_labeler`
(dspy). Statistics: :mod:`~autointeract.history.stats`. Submodules import lazily; importing
this package loads nothing heavy.
"""
