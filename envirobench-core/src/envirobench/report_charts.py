"""The report's charts, as inline SVG geometry: errors by category (one bar per run) and the line
charts a type gives from each run's summary (`BenchmarkType.curves`, e.g. Verify's risk-coverage
curve).

A type hands over numbers only; core checks them and computes every coordinate, so nothing a
plugin returns becomes markup. A curve that is not numbers (NaN, a string, too many points) is a
plugin bug and refused with an EnviroBenchError naming the type, the curve and the field.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from numbers import Real
from typing import Any

from .benchmark import BenchmarkType, Curve
from .errors import EnviroBenchError
from .outputs import Metrics

CHART_CATEGORIES = 24  # the error chart shows this many categories, the rest as "other"
RUN_COLORS = ("#d62728", "#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22")
MAX_POINTS = 2000  # a curve is a summary; thousands of points would be a case list in disguise
WIDTH, HEIGHT = 440, 280
LEFT, RIGHT, TOP, BOTTOM = 60, 16, 12, 44
TICKS = 5


def run_colors(metrics: Metrics) -> dict[str, str]:
    """Each compared run's colour, the same in every chart of the page."""
    return {label: RUN_COLORS[i % len(RUN_COLORS)] for i, label in enumerate(metrics.runs)}


def error_chart(categories: Sequence[str], counts: Mapping[str, Sequence[int]], runs: Sequence[str], colors: Mapping[str, str]) -> dict[str, Any]:
    """Geometry of a small horizontal grouped bar chart: errors per category, one bar per run."""
    order = sorted(categories, key=lambda c: (-sum(counts[c]), c))
    shown = order[:CHART_CATEGORIES]
    rows = [(c, list(counts[c])) for c in shown]
    rest = order[CHART_CATEGORIES:]
    if rest:
        rows.append((f"{len(rest)} other categories", [sum(counts[c][i] for c in rest) for i in range(len(runs))]))
    peak = max((v for _, vs in rows for v in vs), default=0) or 1
    bar, gap, label_w, plot_w = 10, 8, 200, 320
    group_h = bar * len(runs) + gap
    bars = []
    for r, (label, values) in enumerate(rows):
        for i, value in enumerate(values):
            bars.append({
                "x": label_w,
                "y": r * group_h + i * bar,
                "w": round(plot_w * value / peak, 1),
                "h": bar - 1,
                "color": colors[runs[i]],
                "title": f"{label} — {runs[i]}: {value} error(s)",
                "value": value,
            })
    return {
        "rows": [{"label": label, "y": r * group_h + (bar * len(runs)) / 2 + 4, "total": sum(values)} for r, (label, values) in enumerate(rows)],
        "bars": bars,
        "width": label_w + plot_w + 60,
        "height": max(len(rows) * group_h, group_h),
        "label_w": label_w,
        "peak": peak,
        "empty": not any(v for _, vs in rows for v in vs),
    }


def check_curve(type_id: str, curve: Any) -> list[tuple[float, float]]:
    """The curve's points as floats, or EnviroBenchError naming what is wrong."""
    where = f"benchmark type {type_id!r}: curves()"
    if not isinstance(curve, Curve):
        raise EnviroBenchError(f"{where} returned {type(curve).__name__}, not envirobench.Curve")
    where += f", curve {curve.title!r}"
    for name in ("title", "x_label", "y_label", "caption"):
        if not isinstance(getattr(curve, name), str):
            raise EnviroBenchError(f"{where}: {name} must be a string")
    if not 1 <= len(curve.points) <= MAX_POINTS:
        raise EnviroBenchError(f"{where}: points must hold 1 to {MAX_POINTS} (x, y) pairs, not {len(curve.points)}")
    points = []
    for i, point in enumerate(curve.points):
        if not (isinstance(point, Sequence) and len(point) == 2 and all(isinstance(v, Real) and not isinstance(v, bool) and math.isfinite(v) for v in point)):
            raise EnviroBenchError(f"{where}: points[{i}] must be two finite numbers, not {point!r}")
        points.append((float(point[0]), float(point[1])))
    return points


def _span(values: Sequence[float]) -> tuple[float, float]:
    low, high = min(values), max(values)
    if high - low < 1e-12:
        return low - 0.5, high + 0.5
    return low, high


def _label(value: float) -> str:
    return f"{value:.3g}"


def curve_charts(btype: BenchmarkType, metrics: Metrics, runs: Sequence[str], colors: Mapping[str, str]) -> dict[str, list[dict[str, Any]]]:
    """Profile -> the geometry of each curve the type draws there, one line per run with a summary
    (curves of the same title from several runs share one chart and its axes)."""
    charts: dict[str, list[dict[str, Any]]] = {}
    for profile, m in metrics.profiles.items():
        summaries = {"candidate": m.headline, "baseline": m.baseline_headline, **m.controls_headline}
        by_title: dict[str, dict[str, Any]] = {}
        for run in runs:
            summary = summaries.get(run)
            if not summary:
                continue
            for curve in btype.curves(profile, summary):
                points = check_curve(btype.ID, curve)
                chart = by_title.setdefault(curve.title, {"curve": curve, "series": []})
                chart["series"].append((run, points))
        charts[profile] = [_geometry(chart["curve"], chart["series"], colors) for chart in by_title.values()]
    return charts


def _geometry(curve: Curve, series: Sequence[tuple[str, list[tuple[float, float]]]], colors: Mapping[str, str]) -> dict[str, Any]:
    x0, x1 = _span([x for _, pts in series for x, _ in pts])
    y0, y1 = _span([y for _, pts in series for _, y in pts])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return round(LEFT + (x - x0) / (x1 - x0) * plot_w, 1)

    def py(y: float) -> float:
        return round(TOP + plot_h - (y - y0) / (y1 - y0) * plot_h, 1)

    steps = [i / (TICKS - 1) for i in range(TICKS)]
    return {
        "title": curve.title,
        "caption": curve.caption,
        "x_label": curve.x_label,
        "y_label": curve.y_label,
        "width": WIDTH,
        "height": HEIGHT,
        "plot": {"left": LEFT, "top": TOP, "right": WIDTH - RIGHT, "bottom": TOP + plot_h},
        "x_ticks": [{"at": px(x0 + t * (x1 - x0)), "label": _label(x0 + t * (x1 - x0))} for t in steps],
        "y_ticks": [{"at": py(y0 + t * (y1 - y0)), "label": _label(y0 + t * (y1 - y0))} for t in steps],
        "series": [
            {
                "run": run,
                "color": colors[run],
                "points": " ".join(f"{px(x)},{py(y)}" for x, y in pts),
                "dots": [{"x": px(x), "y": py(y), "title": f"{run}: {curve.x_label} {_label(x)}, {curve.y_label} {_label(y)}"} for x, y in pts]
                if len(pts) <= 60 else [],
            }
            for run, pts in series
        ],
    }
