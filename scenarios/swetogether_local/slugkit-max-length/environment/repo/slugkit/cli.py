"""Command line: ``python -m slugkit.cli "Some Title"`` prints the slug."""

from __future__ import annotations

import sys

from slugkit import slugify


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m slugkit.cli TITLE...", file=sys.stderr)
        return 2
    for title in args:
        print(slugify(title))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
