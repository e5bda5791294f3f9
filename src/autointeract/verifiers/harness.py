"""The in-sandbox harness for functional (LeetCode-style) tests.

It runs as ``python -I -c HARNESS solution.py func_name`` with stdin = a nonce line, then
one JSON value per line (the positional arguments). It writes exactly one record,
``<nonce> <json>``, to the original stdout, whose fd is kept private; the solution's own
prints go to stderr. Expected outputs never enter the sandbox: the parent compares. So a
solution can fake nothing useful: printing "Accepted" or JSON lands on stderr, exiting
early leaves no record, and a record without this run's nonce is ignored. The harness binds
``json.dumps``, ``os.write`` and ``os._exit`` before the solution runs, so patching those
modules does not reach it.
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
import json, os, sys
def _main(dumps=json.dumps, loads=json.loads, write=os.write, exit_now=os._exit):
    data = sys.stdin.read()
    nonce, _, rest = data.partition("\n")
    out = os.dup(1)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull)
    path, func = sys.argv[1], sys.argv[2]
    def emit(rec):
        write(out, (nonce + " " + dumps(rec) + "\n").encode())
    try:
        args = [loads(line) for line in rest.splitlines() if line.strip()]
        with open(path) as fh:
            src = fh.read()
        ns = {"__name__": "__solution__", "__builtins__": __builtins__}
        exec(compile(PRELUDE, "<prelude>", "exec"), ns)
        exec(compile(src, path, "exec"), ns)
        if "Solution" in ns and hasattr(ns["Solution"], func):
            target = getattr(ns["Solution"](), func)
        elif callable(ns.get(func)):
            target = ns[func]
        else:
            missing = "NameError: no Solution." + func + " or " + func + "()"
            emit({"status": "error", "error": missing})
            exit_now(0)
        value = target(*args)
        text = dumps(value, default=lambda o: sorted(o) if isinstance(o, set | frozenset) else list(o))
    except MemoryError:
        emit({"status": "error", "error": "MemoryError"})
        exit_now(0)
    except BaseException as exc:
        emit({"status": "error", "error": type(exc).__name__ + ": " + str(exc)[:500]})
        exit_now(0)
    write(out, (nonce + " " + '{"status": "ok", "value": ' + text + "}\n").encode())
    exit_now(0)
_main()
'''


def harness_source() -> str:
    """The harness program (prelude embedded), passed with ``python -c``."""
    return f"PRELUDE = {PRELUDE!r}\n{HARNESS}"
