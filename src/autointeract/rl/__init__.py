"""Verifier-rewarded RL: an engine-neutral core and two engine adapters.

Core (no engine import): :mod:`~autointeract.rl.env` (one episode with the simulated user),
:mod:`~autointeract.rl.user_turn` (the user's next message), :mod:`~autointeract.rl.reward`
(verifier + effort floor), :mod:`~autointeract.rl.config` (the GSPO recipe).
verl: :mod:`~autointeract.rl.verl_data` (parquet), :mod:`~autointeract.rl.verl_loop` (the
registered agent loop), :mod:`~autointeract.rl.verl_reward` (``compute_score``),
:mod:`~autointeract.rl.verl_launch` (the command line).
TRL: :mod:`~autointeract.rl.trl_rollout`, :mod:`~autointeract.rl.trl_train`.
"""
