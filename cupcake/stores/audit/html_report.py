"""``cupcake audit report -o FILE.html``: the audit trail as one self-contained page people look at.

Decisions over time (a stacked bar per day, or per hour over a short span), the rules that match and
decide most, decisions per agent and per project, and the slowest hooks. Everything is inline: CSS in
a ``<style>``, charts as SVG, no script, no font, no image or link to fetch, and a Content-Security-Policy
that forbids loading anything, so the page opens the same offline, attached to a mail or in a ticket.
Every text from the trail (commands, paths, rule names) is escaped."""

from __future__ import annotations

import time
from html import escape

from cupcake.stores.audit.record import KINDS
from cupcake.stores.audit.table import input_summary

# One colour per decision (readable on white, and apart for the common kinds of colour blindness).
COLOURS = {
    "allow": "#9aa5b1",
    "block": "#d1495b",
    "approve": "#2a9d8f",
    "ask": "#edae49",
    "feedback": "#00798c",
    "context": "#6c5b7b",
    "error": "#30343f",
}
TOP_RULES = 15
SLOWEST = 10
CSP = "default-src 'none'; style-src 'unsafe-inline'"


def collect(logs: list[tuple[str, list[dict]]]) -> dict:
    """The page's numbers from ``[(project, records)]``: every record is counted once, under its project."""
    runs = []
    for project, records in logs:
        for r in records:
            if isinstance(r, dict):
                runs.append((project, r))
    runs.sort(key=lambda pr: str(pr[1].get("time", "")))
    times = [_seconds(r.get("time")) for _p, r in runs]
    known = [t for t in times if t is not None]
    span = (max(known) - min(known)) if known else 0
    width = 3600 if span <= 2 * 86400 else 86400
    buckets: dict[int, dict[str, int]] = {}
    rules: dict[str, dict[str, int]] = {}
    agents: dict[str, dict[str, int]] = {}
    projects: dict[str, dict[str, int]] = {}
    for (project, r), when in zip(runs, times):
        decision = str(r.get("decision")) if r.get("decision") in KINDS else "error"
        if when is not None:
            row = buckets.setdefault(int(when // width) * width, {})
            row[decision] = row.get(decision, 0) + 1
        for name, table in ((str(r.get("agent") or "unknown"), agents), (project, projects)):
            row = table.setdefault(name, {})
            row[decision] = row.get(decision, 0) + 1
        decided = r.get("policy") if isinstance(r.get("policy"), str) else None
        names = [m for m in r.get("matched") or () if isinstance(m, str)] + ([decided] if decided else [])
        for name in dict.fromkeys(names):
            row = rules.setdefault(name, {"matched": 0, "decided": 0})
            row["matched"] += 1
            row["decided"] += name == decided
    timed = sorted((r for _p, r in runs if isinstance(r.get("ms"), (int, float))), key=lambda r: -r["ms"])
    millis = sorted(r["ms"] for r in timed)
    return {
        "runs": len(runs),
        "first": runs[0][1].get("time") if runs else None,
        "last": runs[-1][1].get("time") if runs else None,
        "bucket_seconds": width,
        "over_time": [(start, buckets[start]) for start in sorted(buckets)],
        "totals": _totals([r for _p, r in runs]),
        "rules": sorted(rules.items(), key=lambda kv: (-kv[1]["matched"], kv[0]))[:TOP_RULES],
        "agents": sorted(agents.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])),
        "projects": sorted(projects.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])),
        "slowest": _slowest(runs, timed[:SLOWEST]),
        "median_ms": millis[len(millis) // 2] if millis else None,
        "p95_ms": millis[min(len(millis) - 1, int(len(millis) * 0.95))] if millis else None,
    }


def _slowest(runs, top) -> list:
    """The slowest records, each with its project."""
    where = {id(r): p for p, r in runs}
    return [(where[id(r)], r) for r in top]


def _totals(records) -> dict:
    found: dict[str, int] = {}
    for r in records:
        d = r.get("decision") if r.get("decision") in KINDS else "error"
        found[d] = found.get(d, 0) + 1
    return found


def _seconds(stamp):
    if not isinstance(stamp, str) or len(stamp) < 19:
        return None
    try:
        import calendar

        return calendar.timegm(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S"))
    except ValueError:
        return None


# ## the page ##################################################################################################


def render(data: dict, title: str = "Cupcake audit report") -> str:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
    ]
    if not data["runs"]:
        parts.append(
            '<p class="empty">No audit records match. Turn the trail on with <code>audit_logging = true</code> under [settings].</p>'
        )
        parts.append("</body></html>")
        return "\n".join(parts)
    median = f", median {data['median_ms']} ms, p95 {data['p95_ms']} ms" if data["median_ms"] is not None else ""
    parts.append(
        f'<p class="lead">{data["runs"]} decisions from {escape(str(data["first"]))} to {escape(str(data["last"]))} (UTC){median}.</p>'
    )
    parts.append(_legend(data["totals"]))
    parts.append('<section id="over-time"><h2>Decisions over time</h2>')
    parts.append(_over_time(data["over_time"], data["bucket_seconds"]))
    parts.append("</section>")
    parts.append('<section id="top-rules"><h2>Top rules</h2>')
    parts.append(
        '<p class="legend"><span class="key"><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="#c9d6df"/></svg>'
        f' matched</span><span class="key"><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="{COLOURS["block"]}"/></svg>'
        " decided (its block, ask or approve was the answer)</span></p>"
    )
    parts.append(_rules(data["rules"]))
    parts.append("</section>")
    parts.append('<div class="pair"><section id="per-agent"><h2>Per agent</h2>')
    parts.append(_stacked_rows(data["agents"]))
    parts.append('</section><section id="per-project"><h2>Per project</h2>')
    parts.append(_stacked_rows(data["projects"]))
    parts.append("</section></div>")
    parts.append('<section id="slowest"><h2>Slowest hooks</h2>')
    parts.append(_slowest_table(data["slowest"]))
    parts.append("</section>")
    parts.append(
        f"<footer>Written by cupcake audit report at {escape(time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()))}.</footer>"
    )
    parts.append("</body></html>")
    return "\n".join(parts)


def _legend(totals: dict) -> str:
    items = []
    for kind in KINDS:
        if totals.get(kind):
            items.append(
                f'<span class="key"><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="{COLOURS[kind]}"/></svg>'
                f" {kind} <b>{totals[kind]}</b></span>"
            )
    return f'<p class="legend">{"".join(items)}</p>'


def _over_time(rows, width_seconds: int) -> str:
    if not rows:
        return '<p class="empty">No record has a time.</p>'
    width, height, left, bottom = 960, 260, 44, 40
    peak = max(sum(counts.values()) for _start, counts in rows) or 1
    step = (width - left - 10) / len(rows)
    bar = max(1.0, step * 0.8)
    out = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-label="Decisions over time">']
    for n in range(5):
        value = peak * n / 4
        y = height - bottom - (height - bottom - 10) * n / 4
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - 5}" y2="{y:.1f}" class="grid"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" class="axis" text-anchor="end">{value:.0f}</text>')
    label_every = max(1, len(rows) // 8)
    fmt = "%H:%M" if width_seconds < 86400 else "%b %d"
    for i, (start, counts) in enumerate(rows):
        x = left + i * step + (step - bar) / 2
        y = height - bottom
        for kind in KINDS:
            n = counts.get(kind, 0)
            if not n:
                continue
            h = (height - bottom - 10) * n / peak
            y -= h
            out.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{h:.1f}" fill="{COLOURS[kind]}">'
                f"<title>{escape(time.strftime('%Y-%m-%d %H:%M', time.gmtime(start)))}: {n} {kind}</title></rect>"
            )
        if i % label_every == 0:
            out.append(
                f'<text x="{x + bar / 2:.1f}" y="{height - bottom + 16}" class="axis" text-anchor="middle">'
                f"{escape(time.strftime(fmt, time.gmtime(start)))}</text>"
            )
    out.append("</svg>")
    return "".join(out)


def _rules(rules) -> str:
    if not rules:
        return '<p class="empty">No rule matched.</p>'
    peak = max(r["matched"] for _n, r in rules) or 1
    out = ['<table class="bars"><thead><tr><th>rule</th><th>matched</th><th>decided</th><th></th></tr></thead><tbody>']
    for name, r in rules:
        matched = 100 * r["matched"] / peak
        decided = 100 * r["decided"] / peak
        out.append(
            f'<tr><td class="name">{escape(name)}</td><td class="num">{r["matched"]}</td><td class="num">{r["decided"]}</td>'
            f'<td class="barcell"><svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">'
            f'<rect width="{matched:.2f}" height="10" fill="#c9d6df"/><rect width="{decided:.2f}" height="10" fill="{COLOURS["block"]}"/></svg></td></tr>'
        )
    out.append("</tbody></table>")
    return "".join(out)


def _stacked_rows(rows) -> str:
    if not rows:
        return '<p class="empty">Nothing recorded.</p>'
    peak = max(sum(c.values()) for _n, c in rows) or 1
    out = ['<table class="bars"><tbody>']
    for name, counts in rows:
        total = sum(counts.values())
        x = 0.0
        rects = []
        for kind in KINDS:
            n = counts.get(kind, 0)
            if n:
                w = 100 * n / peak
                rects.append(
                    f'<rect x="{x:.2f}" width="{w:.2f}" height="10" fill="{COLOURS[kind]}"><title>{n} {kind}</title></rect>'
                )
                x += w
        detail = ", ".join(f"{counts[k]} {k}" for k in KINDS if counts.get(k))
        out.append(
            f'<tr><td class="name">{escape(name)}</td><td class="num">{total}</td>'
            f'<td class="barcell"><svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">{"".join(rects)}</svg>'
            f'<div class="detail">{escape(detail)}</div></td></tr>'
        )
    out.append("</tbody></table>")
    return "".join(out)


def _slowest_table(rows) -> str:
    if not rows:
        return '<p class="empty">No record has a duration.</p>'
    out = [
        '<table class="runs"><thead><tr><th>time (UTC)</th><th>ms</th><th>project</th><th>agent</th><th>event</th><th>tool</th><th>decision</th><th>input</th></tr></thead><tbody>'
    ]
    for project, r in rows:
        out.append(
            "<tr>"
            + "".join(
                f"<td{cls}>{escape(str(value))}</td>"
                for cls, value in (
                    ("", str(r.get("time", ""))[:19].replace("T", " ")),
                    (' class="num"', r.get("ms")),
                    ("", project),
                    ("", r.get("agent") or ""),
                    ("", r.get("event") or ""),
                    ("", r.get("tool") or ""),
                    ("", r.get("decision") or ""),
                    (' class="input"', input_summary(r)[:200]),
                )
            )
            + "</tr>"
        )
    out.append("</tbody></table>")
    return "".join(out)


_CSS = """
body{font:15px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2933;margin:32px auto;max-width:1040px;padding:0 16px;background:#fff}
h1{font-size:26px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 10px;border-bottom:1px solid #e4e7eb;padding-bottom:4px}
.lead{color:#52606d;margin:0 0 10px}.legend .key{margin-right:14px;white-space:nowrap}.legend svg{vertical-align:-1px}
.chart{width:100%;height:auto;background:#fbfcfd;border:1px solid #e4e7eb}.grid{stroke:#e4e7eb;stroke-width:1}.axis{font-size:11px;fill:#7b8794}
table{border-collapse:collapse;width:100%}td,th{padding:4px 8px;text-align:left;vertical-align:top}th{font-weight:600;color:#52606d;border-bottom:1px solid #e4e7eb}
.num{text-align:right;font-variant-numeric:tabular-nums;width:1%;white-space:nowrap}.name{white-space:nowrap;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
.barcell{width:55%}.bar{width:100%;height:14px;display:block}.detail{font-size:12px;color:#7b8794}
.runs td{border-bottom:1px solid #f0f2f4}.input{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;word-break:break-all}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:24px}.empty{color:#7b8794;font-style:italic}footer{margin-top:32px;color:#9aa5b1;font-size:12px}
"""
