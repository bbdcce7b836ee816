// page.js: the teaching page. Reads the data awb embedded (every case run at sharpness 1 by the
// reference and each variant: S, A, V and Z per layer and head), recomputes
// A = softmax(sharpness · S) within each run's mask and Z = A · V (· W_o) as the host's kernels do,
// and draws the lesson's widget, the heads, the layers, the comparison and the questions.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('awb-data').textContent);
  const app = document.getElementById('app');

  // ---- data -------------------------------------------------------------------------------
  function decode(m) {
    if (!m) return null;
    const bin = atob(m.b);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; ++i) bytes[i] = bin.charCodeAt(i);
    const v = data.float_bits === 64 ? new Float64Array(bytes.buffer) : new Float32Array(bytes.buffer);
    return { r: m.r, c: m.c, v: v };
  }
  for (const c of data.cases)
    for (const run of c.runs)
      run.layers = run.layers.map(function (l) {
        return { heads: l.heads, x: decode(l.x), z: decode(l.z), w_o: decode(l.w_o),
          a: l.a.map(decode), s: l.s.map(decode), v: l.v.map(decode) };
      });
  const colours = [];
  for (let i = 0; i < 256; ++i) {
    const h = data.colour_map.substr(6 * i, 6);
    colours.push([parseInt(h.substr(0, 2), 16), parseInt(h.substr(2, 2), 16), parseInt(h.substr(4, 2), 16)]);
  }
  const masked = data.masked_colour;
  const referenceIndex = data.subjects.findIndex(function (s) { return s.reference; });

  // ---- the mathematics: the host's softmax within the mask, and Z --------------------------
  function isMasked(band, r, c) {
    return (band.ahead !== null && c - r > band.ahead) || (band.behind !== null && r - c > band.behind);
  }
  // A of one head at sharpness k: each row's softmax over the keys its mask leaves, max
  // subtracted first; masked keys exactly 0; a row with no key left all 0.
  function weights(run, layer, head, k) {
    const l = run.layers[layer];
    if (!run.recompute || !l.s[head]) return l.a[head].v;
    const s = l.s[head].v, t = l.s[head].r, n = l.s[head].c;
    const out = new Float64Array(t * n);
    for (let r = 0; r < t; ++r) {
      let max = -Infinity;
      for (let c = 0; c < n; ++c) if (!isMasked(run.band, r, c)) max = Math.max(max, k * s[r * n + c]);
      if (max === -Infinity) continue;
      let sum = 0;
      for (let c = 0; c < n; ++c) {
        if (isMasked(run.band, r, c)) continue;
        const e = Math.exp(k * s[r * n + c] - max);
        out[r * n + c] = e;
        sum += e;
      }
      for (let c = 0; c < n; ++c) out[r * n + c] /= sum;
    }
    return out;
  }
  // Row `q` of the layer's Z: the heads' A_h[q] · V_h side by side, times W_o when it has one.
  function contextRow(run, layer, q, heads) {
    const l = run.layers[layer];
    const cat = [];
    for (let h = 0; h < l.heads; ++h) {
      const a = heads[h], v = l.v[h], n = v.r;
      for (let o = 0; o < v.c; ++o) {
        let sum = 0;
        for (let j = 0; j < n; ++j) sum += a[q * n + j] * v.v[j * v.c + o];
        cat.push(sum);
      }
    }
    if (!l.w_o) return cat;
    const w = l.w_o, out = [];
    for (let o = 0; o < w.c; ++o) {
      let sum = 0;
      for (let i = 0; i < w.r; ++i) sum += cat[i] * w.v[i * w.c + o];
      out.push(sum);
    }
    return out;
  }
  function allHeads(run, layer, k) {
    const out = [];
    for (let h = 0; h < run.layers[layer].heads; ++h) out.push(weights(run, layer, h, k));
    return out;
  }
  // The check: recomputed at sharpness 1, how far A and Z are from the run's own.
  function check(run) {
    if (!('checked' in run)) run.checked = measureCheck(run);
    return run.checked;
  }
  // The larger difference, a NaN winning: a run with NaN in it must not pass the check.
  function worst(a, b) { return b <= a ? a : b; }
  function measureCheck(run) {
    let da = 0, dz = 0;
    if (!run.recompute) return null;
    for (let l = 0; l < run.layers.length; ++l) {
      const heads = allHeads(run, l, 1), own = run.layers[l];
      if (own.s.length < own.heads || own.a.length < own.heads) return null;
      for (let h = 0; h < own.heads; ++h)
        for (let i = 0; i < heads[h].length; ++i) da = worst(da, Math.abs(heads[h][i] - own.a[h].v[i]));
      for (let q = 0; q < own.z.r; ++q) {
        const z = contextRow(run, l, q, heads);
        for (let o = 0; o < own.z.c; ++o) dz = worst(dz, Math.abs(z[o] - own.z.v[q * own.z.c + o]));
      }
    }
    return { a: da, z: dz };
  }

  // ---- state ------------------------------------------------------------------------------
  const firstVariant = data.subjects.findIndex(function (s) { return !s.reference; });
  const state = {
    caseIndex: 0, subject: firstVariant >= 0 ? firstVariant : 0, query: 0, layer: -1, head: 0,
    sharpness: data.sharpness, mode: 'one', asking: null, verdicts: {}
  };
  function currentCase() { return data.cases[state.caseIndex]; }
  function currentRun() { return currentCase().runs[state.subject]; }
  function shownLayer(run) {
    const n = run.layers.length;
    return state.layer < 0 || state.layer >= n ? n - 1 : state.layer;
  }

  // ---- small helpers ----------------------------------------------------------------------
  function el(tag, attrs, children) {
    const e = document.createElement(tag);
    if (attrs) for (const k in attrs) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'class') e.className = attrs[k];
      else if (k.startsWith('on')) e.addEventListener(k.substr(2), attrs[k]);
      else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) e.setAttribute(k, attrs[k]);
    }
    if (children) for (const c of children) if (c) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    return e;
  }
  function fixed(v, digits) {
    if (!isFinite(v)) return String(v);
    const s = v.toFixed(digits);
    return s === '-' + (0).toFixed(digits) ? (0).toFixed(digits) : s;
  }
  function short(v) {
    if (v === 0) return '0';
    const a = Math.abs(v);
    return a >= 1e-3 && a < 1e4 ? String(Number(v.toPrecision(4))) : v.toExponential(2);
  }
  function colourOf(t) {
    const i = Math.round(Math.min(1, Math.max(0, isFinite(t) ? t : 0)) * 255);
    return colours[i];
  }
  function rgb(c) { return 'rgb(' + c[0] + ',' + c[1] + ',' + c[2] + ')'; }
  function rampCss() {
    const stops = [];
    for (let i = 0; i <= 16; ++i) stops.push(rgb(colours[Math.min(255, i * 16)]));
    return 'linear-gradient(to right,' + stops.join(',') + ')';
  }

  // Minimal Markdown of the lessons: paragraphs, lists, indented code, **bold**, *em*, `code`.
  function inline(text, into) {
    const re = /(\*\*[^*]+\*\*|\*[^*\s][^*]*\*|`[^`]+`)/g;
    let at = 0, m;
    while ((m = re.exec(text))) {
      into.appendChild(document.createTextNode(text.slice(at, m.index)));
      const t = m[0];
      if (t.startsWith('**')) into.appendChild(el('strong', { text: t.slice(2, -2) }));
      else if (t.startsWith('`')) into.appendChild(el('code', { text: t.slice(1, -1) }));
      else into.appendChild(el('em', { text: t.slice(1, -1) }));
      at = m.index + t.length;
    }
    into.appendChild(document.createTextNode(text.slice(at)));
    return into;
  }
  function markdown(text) {
    const box = el('div', { class: 'lesson' });
    const blocks = text.replace(/\r/g, '').split(/\n\s*\n/);
    for (const block of blocks) {
      const lines = block.split('\n').filter(function (l) { return l.trim() !== ''; });
      if (!lines.length) continue;
      if (lines.every(function (l) { return /^ {4}/.test(l); })) {
        box.appendChild(el('pre', null, [el('code', { text: lines.map(function (l) { return l.slice(4); }).join('\n') })]));
      } else if (/^\s*([-*]|\d+\.)\s/.test(lines[0])) {
        const ordered = /^\s*\d+\./.test(lines[0]);
        const list = el(ordered ? 'ol' : 'ul');
        let item = null;
        for (const l of lines) {
          const m = /^\s*(?:[-*]|\d+\.)\s+(.*)$/.exec(l);
          if (m) { item = el('li'); list.appendChild(item); inline(m[1], item); }
          else if (item) inline(' ' + l.trim(), item);
        }
        box.appendChild(list);
      } else {
        box.appendChild(inline(lines.map(function (l) { return l.trim(); }).join(' '), el('p')));
      }
    }
    return box;
  }

  // The root font size in px (read once per full render: reading it forces a style pass).
  let rootFontPx = 0;
  function rootFont() {
    if (!rootFontPx) rootFontPx = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    return rootFontPx;
  }

  // ---- heatmaps on a canvas -----------------------------------------------------------------
  // Draws `values` (rows × cols, row-major) with row and column labels: cells through the colour
  // map over [lo, hi], masked cells grey and hatched, the values written when the cells are
  // large enough, the highlighted row outlined. Returns the geometry for hit tests.
  function drawMap(canvas, values, rows, cols, rowLabels, colLabels, lo, hi, opts) {
    const o = opts || {};
    const dpr = window.devicePixelRatio || 1;
    const ctx = canvas.getContext('2d');
    const g = mapGeometry(ctx, o, rows, cols, rowLabels, colLabels);
    if (canvas.width !== Math.round(g.w * dpr) || canvas.height !== Math.round(g.h * dpr)) {
      canvas.width = Math.round(g.w * dpr);
      canvas.height = Math.round(g.h * dpr);
      canvas.style.width = g.w + 'px';
      canvas.style.height = g.h + 'px';
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, g.w, g.h);
    const hidden = function (r, c) {
      return o.band && isMasked(o.band, r, c) && (!o.zerosOnly || values[r * cols + c] === 0);
    };
    const span = hi > lo ? hi - lo : 1;
    paintCells(ctx, g, values, hidden, lo, span);
    if (o.band && g.cell >= 6) paintHatch(ctx, g, hidden);
    if (!o.small) {
      paintLabels(ctx, g, rowLabels, colLabels);
      paintValues(ctx, g, values, hidden, lo, span, o.digits === undefined ? 2 : o.digits);
    }
    if (o.highlight !== undefined && o.highlight >= 0) {
      ctx.strokeStyle = '#e07b00';
      ctx.lineWidth = 3;
      ctx.strokeRect(g.x0 + 1.5, g.y0 + o.highlight * g.cell + 1.5, g.cell * cols - 3, g.cell - 3);
    }
    return g;
  }
  // Where everything goes: the row labels' width, the cell size that fits the width, the room
  // the column labels take above (slanted at 45° when a label is wider than a cell, with room
  // kept on the right for the last one).
  function mapGeometry(ctx, o, rows, cols, rowLabels, colLabels) {
    const width = Math.max(120, o.width || 320);
    const font = rootFont() * (o.small ? 0.7 : 0.8);
    ctx.font = font + 'px system-ui, sans-serif';
    const labels = !o.small;
    let labelW = 0, widest = 0;
    if (labels) for (const l of rowLabels) labelW = Math.max(labelW, ctx.measureText(l).width);
    if (labels) for (const l of colLabels) widest = Math.max(widest, ctx.measureText(l).width);
    labelW = labels ? Math.min(labelW + 8, width * 0.3) : 0;
    // Cells grow with the type (a projector's larger type gets larger cells), up to 3.6 em.
    const most = o.maxCell || Math.round(3.6 * rootFont());
    const fit = function (pad) { return Math.max(2, Math.min(most, Math.floor((width - labelW - 4 - pad) / cols))); };
    let cell = fit(0), padRight = 0, headH = 0;
    const slanted = labels && widest + 8 > cell;
    if (slanted) {
      padRight = Math.max(0, Math.min(widest, 8 * font) * 0.71 - cell / 2);
      cell = fit(padRight);
      headH = Math.min(widest, 8 * font) * 0.75 + font;
    } else if (labels) headH = font + 6;
    return { x0: labelW, y0: headH, cell: cell, rows: rows, cols: cols, font: font, slanted: slanted,
      w: Math.ceil(labelW + cell * cols + 2 + padRight), h: Math.ceil(headH + cell * rows + 2) };
  }
  // Cells: one pixel each in an image, scaled up without smoothing.
  function paintCells(ctx, g, values, hidden, lo, span) {
    const img = new ImageData(g.cols, g.rows);
    for (let r = 0; r < g.rows; ++r)
      for (let c = 0; c < g.cols; ++c) {
        const i = r * g.cols + c, p = 4 * i;
        const col = hidden(r, c) ? masked : colourOf((values[i] - lo) / span);
        img.data[p] = col[0]; img.data[p + 1] = col[1]; img.data[p + 2] = col[2]; img.data[p + 3] = 255;
      }
    const tile = document.createElement('canvas');
    tile.width = g.cols; tile.height = g.rows;
    tile.getContext('2d').putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(tile, g.x0, g.y0, g.cell * g.cols, g.cell * g.rows);
  }
  function paintHatch(ctx, g, hidden) {
    ctx.strokeStyle = 'rgba(255,255,255,0.7)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let r = 0; r < g.rows; ++r)
      for (let c = 0; c < g.cols; ++c) {
        if (!hidden(r, c)) continue;
        const x = g.x0 + c * g.cell, y = g.y0 + r * g.cell;
        for (let d = 4; d < 2 * g.cell; d += 6) {
          ctx.moveTo(x + Math.max(0, d - g.cell), y + Math.min(g.cell, d));
          ctx.lineTo(x + Math.min(g.cell, d), y + Math.max(0, d - g.cell));
        }
      }
    ctx.stroke();
  }
  // Labels; where cells are smaller than the type, every few rows and columns only.
  function paintLabels(ctx, g, rowLabels, colLabels) {
    const step = g.cell >= g.font * 0.9 ? 1 : Math.ceil(g.font / g.cell);
    ctx.font = g.font + 'px system-ui, sans-serif';
    ctx.fillStyle = '#1b1b1f';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    for (let r = 0; r < g.rows; r += step) ctx.fillText(rowLabels[r], g.x0 - 4, g.y0 + (r + 0.5) * g.cell, g.x0 - 4);
    for (let c = 0; c < g.cols; c += step) {
      ctx.save();
      ctx.translate(g.x0 + (c + 0.5) * g.cell, g.y0 - 4);
      if (g.slanted) { ctx.rotate(-Math.PI / 4); ctx.textAlign = 'left'; }
      else ctx.textAlign = 'center';
      ctx.textBaseline = g.slanted ? 'middle' : 'bottom';
      ctx.fillText(colLabels[c], 0, 0, g.slanted ? 8 * g.font : g.cell);
      ctx.restore();
    }
  }
  // The values in the cells, when the cells are large enough for them to be read.
  function paintValues(ctx, g, values, hidden, lo, span, digits) {
    const chars = digits === 'short' ? 6 : digits + 2.2;
    const size = Math.min(g.font, g.cell / chars);
    if (size < 9) return;
    ctx.font = size + 'px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let r = 0; r < g.rows; ++r)
      for (let c = 0; c < g.cols; ++c) {
        if (hidden(r, c)) continue;
        const v = values[r * g.cols + c];
        ctx.fillStyle = (v - lo) / span > 0.55 ? '#000' : '#fff';
        ctx.fillText(digits === 'short' ? short(v) : fixed(v, digits), g.x0 + (c + 0.5) * g.cell, g.y0 + (r + 0.5) * g.cell);
      }
  }
  function legend(lo, hi, what) {
    return el('div', { class: 'legend' }, [
      el('span', { text: what + ': ' + short(lo) }),
      el('span', { class: 'ramp', style: 'background:' + rampCss() }),
      el('span', { text: short(hi) }),
      el('span', { class: 'hatch', title: 'masked' }), el('span', { text: 'masked (exactly 0)' })]);
  }

  // ---- the page -----------------------------------------------------------------------------
  const ui = {};
  function subjectLabel(i) {
    const s = data.subjects[i];
    return s.reference ? 'reference' : s.label;
  }

  function buildStatic() {
    app.appendChild(el('header', null, [
      el('h1', { text: data.title }),
      el('p', { class: 'source', text: data.source.label + ' · awb ' + data.awb_version })]));
    // The lesson beside the widget on a wide screen; above it, folded, on a narrow one.
    const layout = el('div', { class: 'layout' });
    const main = el('div', { class: 'main-col' });
    if (data.lesson) {
      const wide = window.matchMedia('(min-width: 1100px)').matches;
      layout.appendChild(el('aside', { class: 'lesson-col' }, [
        el('details', { id: 'lesson', open: wide ? true : null }, [el('summary', { text: 'Lesson' }), markdown(data.lesson)])]));
    } else layout.classList.add('single');
    layout.appendChild(main);
    app.appendChild(layout);
    const controls = el('section', { class: 'controls', 'aria-label': 'What the page shows' });
    ui.cases = el('div', { id: 'cases', class: 'row', role: 'tablist', 'aria-label': 'Case' });
    if (data.cases.length > 1) {
      ui.cases.appendChild(el('span', { class: 'label', text: 'Case' }));
      data.cases.forEach(function (c, i) {
        ui.cases.appendChild(el('button', { 'data-case': c.id, role: 'tab', onclick: function () { setCase(i); } }, [c.id]));
      });
    } else ui.cases.hidden = true;
    controls.appendChild(ui.cases);
    ui.subjects = el('div', { id: 'subjects', class: 'row', 'aria-label': 'Variant' });
    if (data.subjects.length > 1) {
      ui.subjects.appendChild(el('span', { class: 'label', text: 'Variant' }));
      data.subjects.forEach(function (s, i) {
        ui.subjects.appendChild(el('button', { 'data-subject': i, title: s.title, onclick: function () { state.subject = i; render(); } }, [subjectLabel(i)]));
      });
    } else ui.subjects.hidden = true;
    controls.appendChild(ui.subjects);
    ui.modes = el('div', { id: 'modes', class: 'row', 'aria-label': 'View' });
    controls.appendChild(ui.modes);
    ui.layerRow = el('div', { class: 'row' });
    ui.layer = el('select', { id: 'layer', 'aria-label': 'Layer', onchange: function () { state.layer = +ui.layer.value; render(); } });
    ui.head = el('select', { id: 'head', 'aria-label': 'Head', onchange: function () { state.head = +ui.head.value; render(); } });
    ui.layerLabel = el('label', null, [el('span', { class: 'label', text: 'Layer ' }), ui.layer]);
    ui.headLabel = el('label', null, [el('span', { class: 'label', text: 'Head ' }), ui.head]);
    ui.layerRow.appendChild(ui.layerLabel);
    ui.layerRow.appendChild(ui.headLabel);
    controls.appendChild(ui.layerRow);

    // Sharpness: a log slider from 10^-3 to 10^3, a number box for an exact value, a reset.
    ui.slider = el('input', { id: 'sharpness', type: 'range', min: -3, max: 3, step: 0.01, 'aria-label': 'Sharpness (log scale)' });
    ui.slider.addEventListener('input', function () { setSharpness(Math.pow(10, +ui.slider.value), 'slider'); });
    ui.number = el('input', { id: 'sharpness-number', type: 'number', min: 0.001, max: 1000, step: 'any', 'aria-label': 'Sharpness' });
    ui.number.addEventListener('change', function () {
      const v = +ui.number.value;
      if (v > 0 && isFinite(v)) setSharpness(v, 'number');
    });
    ui.sharpValue = el('span', { id: 'sharpness-value' });
    ui.sharpRow = el('div', { id: 'sharpness-row', class: 'row' }, [
      el('span', { class: 'label', text: 'Sharpness' }), ui.slider, ui.number, ui.sharpValue,
      el('button', { type: 'button', onclick: function () { setSharpness(data.sharpness, 'reset'); } }, ['Reset to ' + short(data.sharpness)])]);
    controls.appendChild(ui.sharpRow);
    ui.sharpNote = el('p', { class: 'note' });
    controls.appendChild(ui.sharpNote);
    ui.chips = el('div', { id: 'chips', class: 'row', role: 'group', 'aria-label': 'Query token' });
    ui.chips.addEventListener('keydown', chipKeys);
    controls.appendChild(ui.chips);
    ui.headsAnswer = el('div', { id: 'heads-answer', class: 'row', hidden: true });
    controls.appendChild(ui.headsAnswer);
    main.appendChild(controls);
    ui.banner = el('div', { class: 'asking-banner', hidden: true, role: 'status' });
    main.appendChild(ui.banner);
    ui.body = el('div', { id: 'body' });
    main.appendChild(ui.body);
    ui.questions = el('section', { id: 'questions', class: 'panel', 'aria-label': 'Questions' });
    if (data.questions.length) main.appendChild(ui.questions);
    ui.after = el('section', { id: 'lesson-after' });
    main.appendChild(ui.after);
    app.appendChild(footer());
    // Printed, the lesson is open whatever the screen folded.
    window.addEventListener('beforeprint', function () { const l = document.getElementById('lesson'); if (l) l.open = true; });
    window.addEventListener('resize', function () { clearTimeout(ui.resizeTimer); ui.resizeTimer = setTimeout(render, 100); });
  }

  function footer() {
    const f = el('footer');
    f.appendChild(el('p', { text: 'Made by awb ' + data.awb_version + ' from ' + data.source.label +
      (data.source.sha256 ? ' (sha256 ' + data.source.sha256 + ')' : '') + '.' }));
    const list = el('ul');
    data.subjects.forEach(function (s) {
      list.appendChild(el('li', null, s.reference ? ['reference: ' + s.title] :
        [s.label + ' (' + s.title + '), plugin ' + s.plugin + ' ' + s.plugin_version + ', ' + s.file +
         ', sha256 ', el('code', { text: s.sha256 || 'unknown' }), ', run in ' + s.scalar]));
    });
    f.appendChild(list);
    f.appendChild(el('p', { text: 'Every run was made at sharpness 1; the page recomputes A = softmax(sharpness · S) within each run\'s mask and Z = A · V (· W_o) from what was exported, and checks itself against the runs\' own A and Z at sharpness 1. A layer after the first is recomputed from the input it received at sharpness 1. Numbers are stored as ' + data.float_bits + '-bit floats.' }));
    if (data.questions.length)
      f.appendChild(el('p', { text: 'The answers to the questions are in this file (they are the reference\'s): the page is for self-study, not for a test.' }));
    return f;
  }

  function chipKeys(e) {
    const chips = Array.from(ui.chips.querySelectorAll('button.chip'));
    const i = chips.indexOf(document.activeElement);
    if (i < 0) return;
    let j = i;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') j = Math.min(chips.length - 1, i + 1);
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') j = Math.max(0, i - 1);
    else if (e.key === 'Home') j = 0;
    else if (e.key === 'End') j = chips.length - 1;
    else return;
    e.preventDefault();
    if (!state.asking) { state.query = j; render(); }
    const again = ui.chips.querySelector('button.chip[data-index="' + j + '"]');
    if (again) again.focus();
  }

  function setCase(i) {
    state.caseIndex = i;
    const n = currentCase().tokens.length;
    if (state.query >= n) state.query = 0;
    render();
  }
  function setSharpness(k, from) {
    state.sharpness = Math.min(1000, Math.max(0.001, k));
    render(from);
  }

  function pressed(container, attr, value) {
    for (const b of container.querySelectorAll('button[' + attr + ']'))
      b.setAttribute(attr === 'data-case' ? 'aria-selected' : 'aria-pressed', String(b.getAttribute(attr) === String(value)));
  }

  function renderControls(run, layer) {
    const c = currentCase();
    document.body.dataset.case = c.id;
    document.body.dataset.asking = state.asking ? 'true' : 'false';
    pressed(ui.cases, 'data-case', c.id);
    pressed(ui.subjects, 'data-subject', state.subject);
    // A question holds its case, and the weights it hides stay those of one run.
    for (const b of ui.cases.querySelectorAll('button')) b.disabled = !!state.asking;
    for (const b of ui.subjects.querySelectorAll('button')) b.disabled = !!state.asking;
    // Modes: the ones this run has.
    const modes = [['one', 'One head']];
    if (run.layers.length && run.layers[layer].heads > 1) modes.push(['heads', 'All heads']);
    if (run.layers.length > 1) modes.push(['layers', 'Layers']);
    if (referenceIndex >= 0 && data.subjects.length > 1) modes.push(['compare', 'Compare']);
    if (!modes.some(function (m) { return m[0] === state.mode; })) state.mode = 'one';
    ui.modes.textContent = '';
    ui.modes.hidden = modes.length < 2;
    ui.modes.appendChild(el('span', { class: 'label', text: 'View' }));
    for (const m of modes)
      ui.modes.appendChild(el('button', { 'data-mode': m[0], 'aria-pressed': String(state.mode === m[0]), disabled: state.asking ? true : null,
        onclick: function () { state.mode = m[0]; render(); } }, [m[1]]));
    // Layer and head pickers.
    const layers = run.layers.length, heads = layers ? run.layers[layer].heads : 1;
    ui.layer.textContent = '';
    for (let l = 0; l < layers; ++l) ui.layer.appendChild(el('option', { value: l, text: String(l) }));
    ui.layer.value = String(layer);
    ui.layerLabel.hidden = layers < 2;
    ui.layer.disabled = !!state.asking;
    if (state.head >= heads) state.head = 0;
    ui.head.textContent = '';
    for (let h = 0; h < heads; ++h) ui.head.appendChild(el('option', { value: h, text: String(h) }));
    ui.head.value = String(state.head);
    ui.headLabel.hidden = heads < 2;
    ui.head.disabled = !!state.asking;
    ui.layerRow.hidden = layers < 2 && heads < 2;
    // Sharpness.
    if (document.activeElement !== ui.slider) ui.slider.value = String(Math.log10(state.sharpness));
    if (document.activeElement !== ui.number) ui.number.value = String(Number(state.sharpness.toPrecision(6)));
    ui.sharpValue.textContent = '= ' + short(state.sharpness);
    ui.slider.disabled = ui.number.disabled = !!state.asking || !run.recompute;
    ui.sharpNote.textContent = run.recompute ? '' :
      'This variant\'s weights are not a softmax of its scores (' + run.family + ' attention): the page shows its own run at sharpness ' + short(run.sharpness) + ' and cannot recompute it.';
    // Chips: the query; while a token question waits, the answer.
    ui.chips.textContent = '';
    ui.chips.appendChild(el('span', { class: 'label', text: state.asking && state.asking.kind === 'token' ? 'Your answer' : 'Query' }));
    c.tokens.forEach(function (t, i) {
      const isQuery = !state.asking && i === state.query;
      ui.chips.appendChild(el('button', { class: 'chip', 'data-index': i, 'aria-pressed': String(isQuery),
        tabindex: isQuery || (state.asking && i === 0) ? 0 : -1,
        onclick: function () { chipClicked(i); } }, [t]));
    });
    ui.headsAnswer.textContent = '';
    ui.headsAnswer.hidden = !(state.asking && state.asking.kind === 'head');
    if (!ui.headsAnswer.hidden) {
      ui.headsAnswer.appendChild(el('span', { class: 'label', text: 'Your answer' }));
      // One button per head the question is about (the reference's heads), whatever the run on
      // screen has: a single-head variant shown beside a multi-head question keeps every answer.
      state.asking.names.forEach(function (name, h) {
        ui.headsAnswer.appendChild(el('button', { 'data-head': h, onclick: function () { answer(h); } }, [name]));
      });
    }
  }

  function chipClicked(i) {
    if (state.asking) { if (state.asking.kind === 'token') answer(i); return; }
    state.query = i;
    render();
  }

  // ---- the body: built once per state, its numbers set again on every sharpness move ---------
  // Each panel is built with its elements and returns set(...), which writes the numbers into
  // them: a slider move recomputes and calls the setters, so the browser lays out nothing anew.
  function barsPanel(id, title, tokens, band, query, kind) {
    const box = el('div', { class: 'panel reveal' });
    box.appendChild(el('h2', { text: title }));
    const list = el('div', { id: id, class: 'bars' });
    const rows = tokens.map(function (token, j) {
      const m = isMasked(band, query, j);
      const fill = el('span', { class: 'fill' }), zero = el('span', { class: 'zero', hidden: true });
      const value = el('span', { class: 'value', text: m ? 'masked' : '' });
      const bar = el('div', { class: 'bar' + (m ? ' masked' : '') + (j === query ? ' query' : ''), 'data-key': j }, [
        el('span', { class: 'name', text: token }), el('span', { class: 'track' }, m ? [] : [fill, zero]), value]);
      list.appendChild(bar);
      return { m: m, bar: bar, fill: fill, zero: zero, value: value, token: token };
    });
    box.appendChild(list);
    box.set = function (values) {
      let lo = 0, hi = 0;
      values.forEach(function (v, j) { if (!rows[j].m) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
      if (kind === 'weights') { lo = 0; hi = 1; }  // weights on their own scale, as the GUI draws them
      const span = hi - lo || 1;
      values.forEach(function (v, j) {
        const r = rows[j];
        r.bar.setAttribute('data-value', String(v));
        r.bar.setAttribute('aria-label', r.token + ': ' + (r.m ? 'masked' : fixed(v, 3)));
        if (r.m) return;
        const from = (Math.min(v, 0) - lo) / span, to = (Math.max(v, 0) - lo) / span;
        r.fill.className = 'fill' + (v < 0 ? ' negative' : '');
        r.fill.style.left = (100 * from) + '%';
        r.fill.style.width = (100 * (to - from)) + '%';
        r.zero.hidden = !(lo < 0);
        if (lo < 0) r.zero.style.left = (100 * (0 - lo) / span) + '%';
        r.value.textContent = fixed(v, 3);
      });
    };
    return box;
  }

  function contextPanel(run, layer, tokens) {
    const box = el('div', { class: 'panel reveal' });
    box.appendChild(el('h2', { text: 'Context vector of "' + tokens[state.query] + '"' }));
    const x = run.layers[layer].x;
    // Colours of the tokens: embedding dims 0, 1, 2 as R, G, B (a fixed cosine projection for
    // other widths), each channel scaled to the tokens' range, as the GUI's swatch.
    const raw = [];
    for (let r = 0; r < x.r; ++r) {
      const c3 = [0, 0, 0];
      for (let c = 0; c < 3; ++c) {
        if (x.c === 3) c3[c] = x.v[r * 3 + c];
        else for (let k = 0; k < x.c; ++k) c3[c] += x.v[r * x.c + k] * Math.cos(Math.PI * c * (k + 0.5) / x.c);
      }
      raw.push(c3);
    }
    for (let c = 0; c < 3; ++c) {
      let lo = Infinity, hi = -Infinity;
      for (const v of raw) { lo = Math.min(lo, v[c]); hi = Math.max(hi, v[c]); }
      for (const v of raw) v[c] = hi > lo ? (v[c] - lo) / (hi - lo) : 0.5;
    }
    const to8 = function (c3) { return c3.map(function (v) { return Math.round(255 * Math.min(1, Math.max(0, v))); }); };
    const sw = el('div', { class: 'swatches' });
    const pcts = raw.map(function (c3, j) {
      const pct = el('span', { class: 'pct' });
      sw.appendChild(el('div', { class: 'swatch' }, [el('span', { class: 'box', style: 'background:' + rgb(to8(c3)) }),
        el('span', { text: tokens[j] }), pct]));
      return pct;
    });
    const blendBox = el('span', { class: 'box' });
    sw.appendChild(el('div', { class: 'swatch context' }, [blendBox, el('span', { text: 'context' })]));
    box.appendChild(sw);
    box.appendChild(el('p', { class: 'note', text: (x.c === 3 ? 'colour = embedding dims 0, 1, 2 as R, G, B (scaled to the tokens)' :
      'colour = fixed projection of the ' + x.c + ' dims to R, G, B (cosine basis)') + '; the context colour is the weighted blend.' }));
    const zText = el('p', { class: 'zvec', id: 'context-values' });
    box.appendChild(zText);
    box.set = function (row, heads) {
      const blend = [0, 0, 0];
      let any = false;
      raw.forEach(function (c3, j) {
        for (let c = 0; c < 3; ++c) blend[c] += row[j] * c3[c];
        if (row[j] !== 0) any = true;
        pcts[j].textContent = fixed(100 * row[j], 0) + '%';
      });
      // A blend of nothing would be black, which reads as a colour: no weight shows no colour.
      blendBox.style.background = any ? rgb(to8(blend)) : 'repeating-linear-gradient(45deg,#bbb 0 4px,#eee 4px 8px)';
      const z = contextRow(run, layer, state.query, heads);
      zText.textContent = 'z = [' + z.map(function (v) { return fixed(v, 4); }).join(', ') + ']';
    };
    return box;
  }

  // A heatmap on a canvas: set(values, lo, hi) draws it at the width it was first laid out at.
  function mapCanvas(holder, rows, cols, rowLabels, colLabels, opts) {
    const canvas = el('canvas', { class: 'map', tabindex: opts.onrow ? 0 : null, role: 'img', 'aria-label': opts.label || '' });
    let width = 0, geometry = null;
    canvas.set = function (values, lo, hi) {
      if (!width) width = Math.max(120, holder.clientWidth - (opts.inset || 0));
      geometry = drawMap(canvas, values, rows, cols, rowLabels, colLabels, lo, hi, Object.assign({ width: width }, opts));
    };
    if (opts.onrow) {
      canvas.onclick = function (e) {
        const b = canvas.getBoundingClientRect();
        const r = Math.floor((e.clientY - b.top - geometry.y0) / geometry.cell);
        if (geometry && r >= 0 && r < rows) opts.onrow(r);
      };
      canvas.onkeydown = function (e) {
        if (e.key === 'ArrowDown') { e.preventDefault(); opts.onrow(Math.min(rows - 1, state.query + 1)); }
        if (e.key === 'ArrowUp') { e.preventDefault(); opts.onrow(Math.max(0, state.query - 1)); }
      };
    }
    return canvas;
  }

  function mapPanel(title, rows, cols, rowLabels, colLabels, what, opts) {
    const box = el('div', { class: 'panel reveal' + (opts.wide ? ' wide' : '') });
    box.appendChild(el('h2', { text: title }));
    const canvas = mapCanvas(box, rows, cols, rowLabels, colLabels, Object.assign({ inset: 24, label: title }, opts));
    box.appendChild(canvas);
    box.appendChild(legend(0, 1, what));
    box.set = canvas.set;
    return box;
  }

  function pickQuery(r) { if (!state.asking) { state.query = r; render(); focusMap(); } }
  function focusMap() { const m = ui.body.querySelector('canvas[tabindex]'); if (m) m.focus(); }

  function renderBody(run, layer) {
    const c = currentCase(), tokens = c.tokens, t = tokens.length, q = state.query;
    ui.body.textContent = '';
    ui.setters = [];
    const title = subjectLabel(state.subject);
    for (const n of run.notes) ui.body.appendChild(el('p', { class: 'note', text: title + ': ' + n }));
    if (run.error) {
      ui.body.appendChild(el('p', { class: 'error', text: 'Cannot show ' + title + ' on case ' + c.id + ': ' + run.error }));
      if (state.mode !== 'compare') return;  // Compare still shows the runs that did not fail
      const panels = el('div', { class: 'panels' }, [comparePanel(layer, tokens)]);
      ui.body.appendChild(panels);
      return;
    }
    const l = run.layers[layer];
    ui.body.appendChild(el('p', { class: 'hidden-note', text: 'The weights are hidden until you answer the question.' }));
    const where = (run.layers.length > 1 ? 'layer ' + layer + ', ' : '') + (l.heads > 1 ? 'head ' + state.head + ', ' : '');
    const panels = el('div', { class: 'panels' });
    ui.body.appendChild(panels);
    if (state.mode === 'one') {
      const s = l.s[state.head];
      const scores = s ? barsPanel('scores', 'Scores S of "' + tokens[q] + '" (' + where + 'after scale × sharpness, before the mask)', tokens, run.band, q, 'scores') : null;
      const wb = barsPanel('weights', (run.family === 'linear' ? 'Kernel weights' : 'Softmax weights') + ' A of "' + tokens[q] + '"' + (where ? ' (' + where.slice(0, -2) + ')' : ''), tokens, run.band, q, 'weights');
      const sum = el('p', { id: 'weights-sum', class: 'sum' });
      wb.appendChild(sum);
      const context = contextPanel(run, layer, tokens);
      const map = mapPanel('A, ' + where + 'row: query, column: key', t, t, tokens, tokens, 'weight', { band: run.band, highlight: q, onrow: pickQuery, wide: t > 16 });
      for (const p of [scores, wb, context, map]) if (p) panels.appendChild(p);
      ui.setters.push(function (k) {
        const heads = allHeads(run, layer, k), a = heads[state.head];
        const row = Array.from(a.subarray(q * t, (q + 1) * t));
        const scale = run.recompute ? k : 1;
        if (scores) scores.set(Array.from(s.v.subarray(q * t, (q + 1) * t)).map(function (v) { return v * scale; }));
        wb.set(row);
        sum.textContent = 'sum = ' + fixed(row.reduce(function (x, y) { return x + y; }, 0), 6);
        context.set(row, heads);
        map.set(a, 0, 1);
      });
    } else if (state.mode === 'heads') {
      panels.appendChild(headsGrid(run, layer, tokens));
    } else if (state.mode === 'layers') {
      panels.appendChild(layersPanel(run, tokens));
    } else if (state.mode === 'compare') {
      panels.appendChild(comparePanel(layer, tokens));
    }
    const ck = check(run);
    ui.body.appendChild(el('p', { id: 'check', class: 'note', text: ck ?
      'Check: recomputed at sharpness 1, A is within ' + short(ck.a) + ' and Z within ' + short(ck.z) + ' of ' + title + '\'s own run' +
      (!(ck.a <= 1e-5 && ck.z <= 1e-5) ? ' — not softmax(S) and A · V: the page shows what softmax makes of its scores.' : '.') :
      run.recompute ? 'Check: the reference\'s A is softmax(S) by construction, recomputed here from its S.' :
        'Check: ' + title + '\'s weights are shown as it computed them.' }));
  }
  // The numbers of the body at the current sharpness.
  function refresh() { for (const set of ui.setters) set(state.sharpness); }

  function headsGrid(run, layer, tokens) {
    const box = el('div', { class: 'panel wide reveal' });
    box.appendChild(el('h2', { text: 'Every head of layer ' + layer + ' (click one to look closer)' }));
    const grid = el('div', { class: 'grid' });
    const t = tokens.length;
    const canvases = [];
    for (let h = 0; h < run.layers[layer].heads; ++h) {
      const b = el('button', { 'data-head-map': h, 'aria-pressed': String(h === state.head), 'aria-label': 'head ' + h,
        onclick: function () { state.head = h; state.mode = 'one'; render(); } }, [el('h3', { text: 'head ' + h })]);
      const canvas = mapCanvas(b, t, t, tokens, tokens, { small: true, band: run.band, highlight: state.query, inset: 10 });
      b.appendChild(canvas);
      canvases.push(canvas);
      grid.appendChild(b);
    }
    box.appendChild(grid);
    box.appendChild(legend(0, 1, 'weight'));
    ui.setters.push(function (k) {
      allHeads(run, layer, k).forEach(function (a, h) { canvases[h].set(a, 0, 1); });
    });
    return box;
  }

  function layersPanel(run, tokens) {
    // The query's path: its row of A at each layer (this head), one layer a row.
    const t = tokens.length, n = run.layers.length;
    const labels = [];
    for (let l = 0; l < n; ++l) labels.push('layer ' + l);
    const box = mapPanel('"' + tokens[state.query] + '" through the stack: its weights at each layer (head ' + state.head + ')', n, t, labels, tokens, 'weight', { wide: true, digits: 3 });
    ui.setters.push(function (k) {
      const values = new Float64Array(n * t);
      for (let l = 0; l < n; ++l) {
        const a = weights(run, l, Math.min(state.head, run.layers[l].heads - 1), k);
        for (let j = 0; j < t; ++j) values[l * t + j] = a[state.query * t + j];
      }
      box.set(values, 0, 1);
    });
    return box;
  }

  function comparePanel(layer, tokens) {
    const box = el('div', { class: 'panel wide reveal' });
    const c = currentCase(), t = tokens.length;
    box.appendChild(el('h2', { text: 'Each variant beside the reference (layer ' + layer + ', head ' + state.head + ')' }));
    const grid = el('div', { class: 'compare' });
    const ref = c.runs[referenceIndex];
    const pick = function (run) {
      const l = Math.min(layer, run.layers.length - 1);
      return { l: l, h: Math.min(state.head, run.layers[l].heads - 1) };
    };
    const cells = [];
    c.runs.forEach(function (run, i) {
      const cell = el('div');
      cell.appendChild(el('h3', { text: subjectLabel(i) }));
      grid.appendChild(cell);
      if (run.error) { cell.appendChild(el('p', { class: 'error', text: run.error })); return; }
      const entry = { run: run, at: pick(run) };
      entry.map = mapCanvas(cell, t, t, tokens, tokens, { band: run.band, highlight: state.query, digits: 2, label: 'A of ' + subjectLabel(i) });
      cell.appendChild(entry.map);
      if (i !== referenceIndex && !ref.error) {
        entry.diffTitle = el('h3');
        const both = { ahead: minBand(run.band.ahead, ref.band.ahead), behind: minBand(run.band.behind, ref.band.behind) };
        entry.diff = mapCanvas(cell, t, t, tokens, tokens, { band: both, zerosOnly: true, digits: 'short', label: '|A − ref| of ' + subjectLabel(i) });
        entry.diffLegend = el('div');
        cell.appendChild(entry.diffTitle);
        cell.appendChild(entry.diff);
        cell.appendChild(entry.diffLegend);
      }
      cells.push(entry);
    });
    box.appendChild(grid);
    box.appendChild(legend(0, 1, 'weight'));
    ui.setters.push(function (k) {
      const r = ref.error ? null : pick(ref);
      const refA = r ? weights(ref, r.l, r.h, k) : null;
      for (const e of cells) {
        const a = weights(e.run, e.at.l, e.at.h, k);
        e.map.set(a, 0, 1);
        if (!e.diff) continue;
        if (refA.length !== a.length) {
          e.diffTitle.textContent = 'Its A is not the reference\'s shape: no difference map.';
          e.diff.hidden = true;
          continue;
        }
        const d = new Float64Array(a.length);
        let hi = 0;
        for (let j = 0; j < a.length; ++j) { d[j] = Math.abs(a[j] - refA[j]); hi = Math.max(hi, d[j]); }
        e.diffTitle.textContent = '|A − ref|, largest ' + short(hi);
        e.diff.set(d, 0, hi > 0 ? hi : 1);
        e.diffLegend.replaceChildren(legend(0, hi > 0 ? hi : 1, '|A − ref|'));
      }
    });
    return box;
  }
  function minBand(a, b) { return a === null ? b : b === null ? a : Math.min(a, b); }

  // ---- questions ----------------------------------------------------------------------------
  function renderQuestions() {
    ui.questions.textContent = '';
    ui.questions.appendChild(el('h2', { text: 'Predict, then reveal' }));
    data.questions.forEach(function (q) {
      const v = state.verdicts[q.id];
      const box = el('div', { class: 'question', 'data-id': q.id });
      box.appendChild(el('p', { text: q.ask + (data.cases.length > 1 ? ' (case ' + data.cases[q.case].id + ')' : '') }));
      box.appendChild(el('button', { class: 'ask', type: 'button', disabled: state.asking && state.asking !== q ? true : null,
        onclick: function () { ask(q); } }, [state.asking === q ? 'Waiting for your answer…' : v ? 'Ask again' : 'Answer this']));
      const verdict = el('p', { class: 'verdict' + (v ? (v.right ? ' right' : ' wrong') : ''), role: 'status' });
      const explain = el('p', { class: 'explain' });
      if (v) { verdict.textContent = v.text; explain.textContent = q.explain; }
      box.appendChild(verdict);
      box.appendChild(explain);
      ui.questions.appendChild(box);
    });
  }
  function ask(q) {
    state.asking = q;
    state.caseIndex = q.case;
    state.layer = q.layer;
    state.head = q.kind === 'token' ? q.head : state.head;
    state.query = q.query;
    state.mode = 'one';
    state.sharpness = data.sharpness;  // the answer is the reference's at the exercise's sharpness
    delete state.verdicts[q.id];
    render();
    const first = q.kind === 'token' ? ui.chips.querySelector('button.chip') : ui.headsAnswer.querySelector('button');
    if (first) first.focus();
  }
  function answer(picked) {
    const q = state.asking;
    if (!q) return;
    const right = q.answer >= 0 && picked === q.answer;
    const name = function (i) { return q.kind === 'token' ? '"' + q.names[i] + '"' : q.names[i]; };
    let text;
    if (q.answer < 0) text = 'No single answer: the largest weights tie.';
    else if (right) text = 'Right: ' + name(picked) + ' gets the most weight (' + fixed(q.weights[picked], 3) + ').';
    else text = 'Not quite: you picked ' + name(picked) + ' (' + fixed(q.weights[picked], 3) + '); the most weight goes to ' + name(q.answer) + ' (' + fixed(q.weights[q.answer], 3) + ').';
    state.verdicts[q.id] = { right: right, text: text };
    state.asking = null;
    if (q.kind === 'head') { state.head = q.answer >= 0 ? q.answer : state.head; }
    render();
    const box = ui.questions.querySelector('.question[data-id="' + CSS.escape(q.id) + '"] .ask');
    if (box) box.focus();
  }

  // ---- render -------------------------------------------------------------------------------
  // Everything is drawn again from the state, but a sharpness move changes only the numbers:
  // then the controls, questions and lesson stay as they are.
  function render(from) {
    const focused = focusKey();
    renderAll(from);
    restoreFocus(focused);
  }
  // What has the keyboard focus, as a selector that finds its successor after a render (the
  // buttons are made anew): a chip, a case, a variant, a mode, a head.
  function focusKey() {
    const a = document.activeElement;
    if (!a || a === document.body || !app.contains(a)) return null;
    for (const attr of ['data-index', 'data-case', 'data-subject', 'data-mode', 'data-head-map', 'data-head'])
      if (a.hasAttribute(attr)) return a.tagName.toLowerCase() + '[' + attr + '="' + CSS.escape(a.getAttribute(attr)) + '"]';
    return a.id ? '#' + CSS.escape(a.id) : null;
  }
  function restoreFocus(key) {
    if (!key || (document.activeElement && document.activeElement !== document.body)) return;
    const e = app.querySelector(key);
    if (e && !e.disabled) e.focus();
  }
  function renderAll(from) {
    const run = currentRun();
    const layer = run.layers.length ? shownLayer(run) : 0;
    if (from === 'slider' || from === 'number' || from === 'bench') {
      if (from !== 'slider') ui.slider.value = String(Math.log10(state.sharpness));
      if (from !== 'number') ui.number.value = String(Number(state.sharpness.toPrecision(6)));
      ui.sharpValue.textContent = '= ' + short(state.sharpness);
      refresh();
      return;
    }
    rootFontPx = 0;
    renderControls(run, layer);
    ui.banner.hidden = !state.asking;
    if (state.asking) ui.banner.textContent = state.asking.ask + ' ' + (state.asking.kind === 'token' ? 'Click a token above.' : 'Click a head above.');
    renderBody(run, layer);
    refresh();
    if (data.questions.length) renderQuestions();
    ui.after.textContent = '';
    if (data.lesson_after && !state.asking)
      ui.after.appendChild(el('details', null, [el('summary', { text: 'After the questions' }), markdown(data.lesson_after)]));
  }

  buildStatic();
  render();
  // Every run checked as the page opens: recomputed at sharpness 1 against its own A and Z.
  const checks = [];
  data.cases.forEach(function (c) {
    c.runs.forEach(function (run) {
      if (!run.error) checks.push({ case: c.id, subject: subjectLabel(run.subject), check: check(run) });
    });
  });
  window.awbPage = {
    data: data, state: state, render: render, weights: weights, checks: checks, ready: true,
    // n slider updates timed in the browser (ms each): every panel of the current view
    // recomputed and redrawn at the next sharpness, and the page laid out again (what a frame
    // spends before it paints).
    timeUpdate: function (n) {
      const out = [];
      for (let i = 0; i < n; ++i) {
        const k = Math.pow(10, -1 + 2 * (i % 20) / 19);
        const t0 = performance.now();
        setSharpness(k, 'bench');
        void document.body.getBoundingClientRect().height;  // forces style and layout
        out.push(performance.now() - t0);
      }
      return out;
    }
  };
})();
