"""A real-vs-simulated discriminator: how easily can a classifier tell the two apart?

Features are character 2-4-gram TF-IDF plus a few style numbers (log word count, capitals,
punctuation, newlines, markdown); the classifier is a logistic regression, scored by
stratified k-fold cross-validated accuracy. 0.5 means indistinguishable; 1.0 means every
simulated turn is spotted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def style_features(texts: Sequence[str]) -> np.ndarray:
    """Dense style features of each text (one row per text)."""
    rows = []
    for t in texts:
        s = t.strip()
        n = max(len(s), 1)
        rows.append([
            math.log1p(len(s.split())),
            sum(c.isupper() for c in s) / n,
            sum(c in ".,;:!?" for c in s) / n,
            s.count("\n") / n * 100,
            float(s[:1].islower()),
            float(s[-1:] in ".!?"),
            float("**" in s or "\n- " in s or s.startswith("- ") or "```" in s),
        ])
    return np.asarray(rows, dtype=float).reshape(len(rows), 7)


def discriminator_accuracy(real: Sequence[str], simulated: Sequence[str], *, seed: int = 0,
                           folds: int = 5) -> float | None:
    """Cross-validated accuracy of telling ``simulated`` from ``real`` texts.

    Args:
        real: Real user turns.
        simulated: Simulated user turns.
        seed: Seed of the fold shuffling.
        folds: Folds at most (fewer when a class is small).

    Returns:
        Mean held-out accuracy, or ``None`` with fewer than 2 texts in a class.
    """
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline, make_union
    from sklearn.preprocessing import FunctionTransformer, StandardScaler

    k = min(folds, len(real), len(simulated))
    if k < 2:
        return None
    texts = [t or " " for t in [*real, *simulated]]
    y = np.array([0] * len(real) + [1] * len(simulated))
    feats = make_union(
        TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True),
        make_pipeline(FunctionTransformer(style_features), StandardScaler()))
    clf = make_pipeline(feats, LogisticRegression(max_iter=2000, C=1.0))
    cv = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
    return float(np.mean(cross_val_score(clf, np.array(texts, dtype=object), y, cv=cv)))
