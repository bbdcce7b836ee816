"""Notebook rendering: a run as a labelled heatmap per head (values in the cells, the colour
range stated), a comparison as a table of its pooled metrics. Plain HTML and inline CSS."""

import html
import math


def _esc(text):
    return html.escape(str(text))


def _colour(value, low, high):
    """White at ``low`` to a deep blue at ``high``; grey for a value that is not finite."""
    if not math.isfinite(value):
        return "#dddddd"
    share = 0.0 if high <= low else (value - low) / (high - low)
    share = min(max(share, 0.0), 1.0)
    red = int(round(255 - share * (255 - 33)))
    green = int(round(255 - share * (255 - 102)))
    blue = int(round(255 - share * (255 - 172)))
    return "#%02x%02x%02x" % (red, green, blue)


def _finite_range(matrix):
    values = [v for row in matrix for v in row if math.isfinite(v)]
    if not values:
        return 0.0, 0.0
    return min(values), max(values)


def heatmap(matrix, rows, cols, title, low=None, high=None):
    """One matrix as an HTML table: ``rows`` label the rows, ``cols`` the columns, each cell
    holds its value (4 decimals) on its colour; the caption states the colour range."""
    matrix = [[float(v) for v in row] for row in matrix]
    found_low, found_high = _finite_range(matrix)
    low = found_low if low is None else low
    high = found_high if high is None else high
    cell = "padding:2px 6px;text-align:right;font-family:monospace;font-size:11px"
    head = "padding:2px 6px;font-size:11px;font-weight:bold"
    out = ['<table style="border-collapse:collapse;margin:4px 0">',
           '<caption style="caption-side:top;text-align:left;font-size:12px">%s '
           '(colour: %.4g white to %.4g blue)</caption>' % (_esc(title), low, high),
           '<tr><th style="%s"></th>' % head]
    out += ['<th style="%s">%s</th>' % (head, _esc(c)) for c in cols]
    out.append("</tr>")
    for label, row in zip(rows, matrix):
        out.append('<tr><th style="%s;text-align:right">%s</th>' % (head, _esc(label)))
        for v in row:
            colour = _colour(v, low, high)
            ink = "#ffffff" if colour < "#8" else "#000000"
            out.append('<td style="%s;background:%s;color:%s">%.4f</td>' % (cell, colour, ink, v))
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def run_html(result):
    """Every layer's weights A per head (scores S where A was not asked for), then Z."""
    tokens = result.tokens
    p = result.provenance
    parts = ['<div><div style="font-size:12px">%s (%s) on %s, %s, lockdown %s</div>' % (
        _esc(p["variant"]), _esc(p["plugin"]), _esc(p["source"]), _esc(p["scalar"]),
        _esc(p["lockdown"]))]
    for note in result.notes:
        parts.append('<div style="font-size:11px">note: %s</div>' % _esc(note))
    for index, layer in enumerate(result.layers):
        where = "layer %d, " % index if len(result.layers) > 1 else ""
        planes, name = (layer.A, "weights A") if layer.A else (layer.S, "scores S")
        for head, plane in enumerate(planes):
            title = "%s%s, head %d of %d (query rows, key columns)" % (
                where, name, head, len(planes))
            # Weights lie in [0, 1]: one colour scale for every head, so heads compare by eye.
            bounds = (0.0, 1.0) if name == "weights A" else (None, None)
            parts.append(heatmap(plane.tolist(), tokens, tokens, title, *bounds))
        dims = ["z%d" % i for i in range(layer.Z.shape[1])]
        parts.append(heatmap(layer.Z.tolist(), tokens, dims, where + "context vectors Z"))
    parts.append("</div>")
    return "".join(parts)


def _number(value):
    if value is None:
        return "n/a"
    if isinstance(value, str):
        return value
    return "%.4g" % value


def compare_html(table):
    """A row per variant: its max abs error and the pooled metrics against the reference."""
    keys = ["max_abs_diff", "kl_mean", "js_mean", "entropy", "argmax_agreement", "top_k_overlap"]
    style = "padding:2px 6px;font-size:11px;border-bottom:1px solid #ccc"
    out = ['<table style="border-collapse:collapse"><caption style="text-align:left;'
           'font-size:12px">against %s, layer %d, top-%d</caption><tr>' % (
               _esc(table.data["against"]), table.data["layer"], table.data["top_k"])]
    for name in ["variant", "max_abs_error"] + keys + ["z_error"]:
        out.append('<th style="%s">%s</th>' % (style, _esc(name)))
    out.append("</tr>")
    for row in table.rows:
        out.append('<tr><td style="%s">%s</td>' % (style, _esc(row["variant"])))
        if "error" in row:
            out.append('<td colspan="%d" style="%s">%s</td></tr>' % (
                len(keys) + 2, style, _esc(row["error"])))
            continue
        values = [row.get("max_abs_error")] + [row["pooled"].get(k) for k in keys]
        values.append(row.get("z_error"))
        out += ['<td style="%s;text-align:right">%s</td>' % (style, _number(v)) for v in values]
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def grade_html(report):
    """A row per check: exercise, check, status, points."""
    style = "padding:2px 6px;font-size:11px;border-bottom:1px solid #ccc"
    out = ['<table style="border-collapse:collapse"><caption style="text-align:left;'
           'font-size:12px">%s: %s of %s</caption>' % (
               _esc(report.subject.get("subject")), _number(report.score),
               _number(report.max_score))]
    for exercise in report.exercises:
        for check in exercise.checks:
            raw = check.raw
            out.append('<tr><td style="%s">%s</td><td style="%s">%s</td><td style="%s">%s</td>'
                       '<td style="%s">%s/%s</td></tr>' % (
                           style, _esc(exercise.id), style, _esc(raw.get("id")), style,
                           _esc(raw.get("status")), style, _number(raw.get("points")),
                           _number(raw.get("max_points"))))
    out.append("</table>")
    return "".join(out)
