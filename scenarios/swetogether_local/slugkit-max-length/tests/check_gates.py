"""Hidden gates of slugkit-max-length. Each check runs the code under test in a child
process that must answer with this run's nonce; the parent compares against the expected
value (never shown to the child) and writes gates.json and reward.txt last."""

import json
import os
import secrets
import subprocess
import sys

CHILD = r'''
import json, os, sys
nonce = sys.stdin.readline().strip()
expr = sys.stdin.readline()
out = os.dup(1)
os.dup2(2, 1)
sys.path.insert(0, os.getcwd())
try:
    import slugkit
    value = eval(expr, {"slugkit": slugkit, "slugify": slugkit.slugify})
    rec = {"ok": True, "value": value}
except BaseException as exc:
    rec = {"ok": False, "error": type(exc).__name__ + ": " + str(exc)[:200]}
os.write(out, (nonce + " " + json.dumps(rec) + "\n").encode())
os._exit(0)
'''

# gate id -> (weight, [(expression, expected value or a predicate name)])
GATES = {
    "G1_MAX_LENGTH": (0.4, [
        ('len(slugify("The quick brown fox jumps", max_length=15)) <= 15', True),
        ('slugify("Short title", max_length=50)', "short-title"),
        ('slugify("A very long title indeed", max_length=0)', "a-very-long-title-indeed"),
    ]),
    "G2_WORD_BOUNDARY": (0.3, [
        ('slugify("The quick brown fox jumps", max_length=15)', "the-quick-brown"),
        ('slugify("Hello wonderful world", max_length=13)', "hello"),
        ('slugify("Supercalifragilistic word", max_length=5)', "super"),
    ]),
    "G3_ACCENTS": (0.3, [
        ('slugify("Crème Brûlée")', "creme-brulee"),
        ('slugify("Ångström naïve café", sep="_")', "angstrom_naive_cafe"),
    ]),
    "P2P_EXISTING": (0.0, [
        ('slugify("Hello, World!")', "hello-world"),
        ('slugify("  a  b  ", sep="_")', "a_b"),
        ('slugify("")', ""),
    ]),
}


def check(expr, expected):
    nonce = secrets.token_hex(16)
    try:
        proc = subprocess.run([sys.executable, "-I", "-c", CHILD], input=f"{nonce}\n{expr}\n",
                              capture_output=True, text=True, timeout=20, cwd=os.getcwd())
    except subprocess.TimeoutExpired:
        return False
    recs = [ln[len(nonce) + 1:] for ln in proc.stdout.splitlines() if ln.startswith(nonce + " ")]
    if len(recs) != 1:
        return False
    rec = json.loads(recs[0])
    return bool(rec.get("ok")) and rec.get("value") == expected


def main(out_dir):
    gates = {}
    for gate, (weight, cases) in GATES.items():
        gates[gate] = {"passed": all(check(e, want) for e, want in cases), "weight": weight}
    total = sum(g["weight"] for g in gates.values()) or 1.0
    reward = sum(g["weight"] for g in gates.values() if g["passed"]) / total
    with open(os.path.join(out_dir, "gates.json"), "w") as fh:
        json.dump(gates, fh, indent=1)
    with open(os.path.join(out_dir, "reward.txt"), "w") as fh:
        fh.write(f"{reward:.4f}\n")
    print(json.dumps({g: v["passed"] for g, v in gates.items()}))


if __name__ == "__main__":
    main(sys.argv[1])
