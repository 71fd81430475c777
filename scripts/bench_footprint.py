"""Install footprint: the wheel's size, and what dsref and its run-time dependencies take once installed.

python scripts/bench_footprint.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "dist"
        subprocess.run(
            [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)], check=True, capture_output=True
        )
        (wheel,) = out.glob("*.whl")
        env = Path(tmp) / "venv"
        venv.EnvBuilder(with_pip=True).create(env)
        site = next((env / "lib").glob("python*/site-packages"))
        before = {p.name for p in site.iterdir()}
        subprocess.run([str(env / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)], check=True)
        added = [p for p in site.iterdir() if p.name not in before]
        print(f"wheel {wheel.name}: {wheel.stat().st_size / 1024:.0f} KiB")
        total = 0
        for path in sorted(added, key=lambda p: -size(p) if p.is_dir() else 0):
            n = size(path) if path.is_dir() else path.stat().st_size
            total += n
            if n > 100_000:
                print(f"  {path.name:<40} {n / 1024 / 1024:6.1f} MiB")
        print(f"installed (dsref + run-time dependencies): {total / 1024 / 1024:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
