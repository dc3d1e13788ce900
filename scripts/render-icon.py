"""Render resources/phasedesk.svg to the PNG the desktop entry uses (Qt's SVG renderer,
so no converter is needed): .venv/bin/python scripts/render-icon.py [SIZE]"""

from __future__ import annotations

import os
import sys
from pathlib import Path

RESOURCES = Path(__file__).resolve().parent.parent / "resources"
DEFAULT_SIZE = 256


def render(svg: Path, png: Path, size: int) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"not a valid SVG: {svg}")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    if not image.save(str(png), "PNG"):
        raise SystemExit(f"could not write {png}")


def main() -> int:
    size = int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SIZE
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication(["render-icon"])  # painting needs a GUI application (fonts, formats)
    png = RESOURCES / "phasedesk.png"
    render(RESOURCES / "phasedesk.svg", png, size)
    print(f"wrote {png} ({size}x{size})")
    app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
