"""The in-sandbox harness for functional (LeetCode-style) tests.

It runs as ``python -I -c HARNESS solution.py func_name`` with stdin = a nonce line, then
a JSON list of ``[index, input]`` pairs (``input``: one JSON value per line, the positional
arguments). For each test it writes one record, ``<nonce> <index> <json>``, to the original
stdout, whose fd is kept private; the solution's own prints go to stderr. Expected outputs
never enter the sandbox: the parent compares. So a solution can fake nothing useful:
printing "Accepted" or JSON lands on stderr, exiting early leaves no record, and a record
without this run's nonce is ignored. The harness binds ``json.dumps``, ``os.write``,
``os._exit`` and the clock before the solution runs, so patching those modules does not
reach it. The same harness runs one test (isolated) or a batch (one process, many tests).
"""

from __future__ import annotations

PRELUDE = (
    "from typing import *\n"
    "from collections import *\n"
    "from functools import *\n"
    "from itertools import *\n"
    "from heapq import *\n"
    "from bisect import *\n"
    "import math, heapq, bisect, itertools, functools, collections, string, re, sys\n"
)

HARNESS = r'''
import json, os, sys, time
def _main(dumps=json.dumps, loads=json.loads, write=os.write, exit_now=os._exit,
          clock=time.perf_counter):
    data = sys.stdin.read()
    nonce, _, rest = data.partition("\n")
    out = os.dup(1)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull)
    path, func = sys.argv[1], sys.argv[2]
    tests = loads(rest)
    def emit(i, body):
        write(out, (nonce + " " + str(i) + " " + body + "\n").encode())
    def fail(i, exc, setup=False):
        emit(i, dumps({"status": "error", "error": type(exc).__name__ + ": " + str(exc)[:500],
                       "setup": setup}))
    ns = {"__name__": "__solution__", "__builtins__": __builtins__}
    try:
        with open(path) as fh:
            src = fh.read()
        exec(compile(PRELUDE, "<prelude>", "exec"), ns)
        exec(compile(src, path, "exec"), ns)
        if not ("Solution" in ns and hasattr(ns["Solution"], func) or callable(ns.get(func))):
            raise NameError("no Solution." + func + " or " + func + "()")
    except BaseException as exc:
        for i, _ in tests:
            fail(i, exc, setup=True)
        exit_now(0)
    for i, text in tests:
        try:
            args = [loads(line) for line in text.splitlines() if line.strip()]
            target = getattr(ns["Solution"](), func) if "Solution" in ns and hasattr(
                ns["Solution"], func) else ns[func]
            t0 = clock()
            value = target(*args)
            took = clock() - t0
            body = dumps(value, default=lambda o: sorted(o) if isinstance(
                o, set | frozenset) else list(o))
        except BaseException as exc:
            fail(i, exc)
            continue
        emit(i, '{"status": "ok", "time": %.6f, "value": %s}' % (took, body))
    exit_now(0)
_main()
'''


def harness_source() -> str:
    """The harness program (prelude embedded), passed with ``python -c``."""
    return f"PRELUDE = {PRELUDE!r}\n{HARNESS}"
