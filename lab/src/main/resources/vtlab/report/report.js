// vtlab report: draws every <canvas data-chart="id"> from the JSON in #vtlab-data with Chart.js, makes tables sortable.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('vtlab-data').textContent);
  var charts = data.charts || {};

  var errorBars = {
    id: 'vtlabErrorBars',
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx;
      chart.data.datasets.forEach(function (ds, i) {
        if (ds.type !== 'bar' || !ds.errs) return;
        var meta = chart.getDatasetMeta(i);
        if (meta.hidden) return;
        var ys = chart.scales[ds.yAxisID || 'y'];
        meta.data.forEach(function (el, j) {
          var e = ds.errs[j], v = ds.data[j];
          if (e == null || v == null || !(e > 0)) return;
          var hi = ys.getPixelForValue(v + e), lo = ys.getPixelForValue(Math.max(0, v - e));
          ctx.save();
          ctx.strokeStyle = '#222';
          ctx.lineWidth = 1.5;
          ctx.beginPath();
          ctx.moveTo(el.x, hi); ctx.lineTo(el.x, lo);
          ctx.moveTo(el.x - 5, hi); ctx.lineTo(el.x + 5, hi);
          ctx.moveTo(el.x - 5, lo); ctx.lineTo(el.x + 5, lo);
          ctx.stroke();
          ctx.restore();
        });
      });
    }
  };

  // A marker belongs over its variant's bar, not in the middle of the category.
  var alignMarkers = {
    id: 'vtlabAlignMarkers',
    afterDatasetsUpdate: function (chart) {
      chart.data.datasets.forEach(function (ds, i) {
        if (ds.alignTo == null) return;
        var bar = chart.getDatasetMeta(ds.alignTo), meta = chart.getDatasetMeta(i);
        if (bar.hidden) return;
        meta.data.forEach(function (el, j) {
          // a fork's dot: several per category (ds.cats[j] its category), beside its bar's middle
          var k = ds.cats ? ds.cats[j] : j, b = bar.data[k];
          if (b) el.x = b.x + (ds.cats ? Math.min((b.width || 0) / 3, 24) : 0);
        });
      });
    }
  };

  // Stretches of x shaded behind the data (a fault's window), each labelled at the top when it has room.
  function bandsOf(spec) {
    return {
      id: 'vtlabBands',
      beforeDatasetsDraw: function (chart) {
        var bands = spec.bands || [], x = chart.scales.x, area = chart.chartArea;
        if (!bands.length || !x || spec.kind === 'bar') return;
        var ctx = chart.ctx;
        bands.forEach(function (b) {
          var x0 = Math.max(area.left, x.getPixelForValue(b.from)), x1 = Math.min(area.right, x.getPixelForValue(b.to));
          if (!(x1 > x0)) return;
          ctx.save();
          ctx.fillStyle = 'rgba(236, 112, 45, 0.16)';
          ctx.fillRect(x0, area.top, x1 - x0, area.bottom - area.top);
          if (b.label) {
            ctx.font = '11px sans-serif';
            ctx.fillStyle = '#9c4a1a';
            ctx.textAlign = 'center';
            ctx.textBaseline = 'top';
            if (ctx.measureText(b.label).width < x1 - x0 - 4) ctx.fillText(b.label, (x0 + x1) / 2, area.top + 3);
          }
          ctx.restore();
        });
      }
    };
  }

  // The dash of a joined line style, as in the static figure (ChartSpec.dash); null: not a joined line.
  var DASHES = { solid: [], dashed: [6, 4], dotted: [2, 3], dashdot: [8, 3, 2, 3], longdash: [14, 5] };

  function fmt(v) {
    if (v == null || isNaN(v)) return '';
    var a = Math.abs(v);
    return a >= 100 ? Math.round(v).toLocaleString('en-US') : a >= 1 ? v.toFixed(1) : v.toPrecision(2);
  }

  // An x value as its labelled tick says it (50%, 99.9%), else as a number.
  function tickLabel(spec, v) {
    var t = (spec.xTicks || []).filter(function (k) { return Math.abs(k.value - v) < 1e-9 * Math.max(1, Math.abs(v)); })[0];
    return t ? t.label : fmt(v);
  }

  function datasets(spec, hasY2) {
    var bars = spec.lines.filter(function (l) { return l.style === 'bar'; });
    var n = spec.categories.length;
    return spec.lines.map(function (l) {
      var ds = {
        label: l.name + (l.axis === 'y2' && hasY2 ? ' (right axis)' : ''),
        borderColor: l.color, backgroundColor: l.color,
        yAxisID: l.axis === 'y2' && hasY2 ? 'y2' : 'y'
      };
      if (spec.kind === 'bar' && l.style === 'bar') {
        ds.type = 'bar';
        ds.pointStyle = 'rect';
        ds.data = new Array(n).fill(null);
        ds.errs = new Array(n).fill(null);
        ds.rows = new Array(n).fill(null);
        l.points.forEach(function (p) { ds.data[p.x] = p.y; ds.errs[p.x] = p.err; ds.rows[p.x] = p.rows; });
        return ds;
      }
      ds.type = 'line';
      ds.order = -1; // markers and lines over bars
      if (spec.kind === 'bar' && l.style === 'forks') { // fork means: any number per category, moved beside their bar by alignMarkers
        // x by its label: the category scale reads a number as the point's own index, not the category's
        ds.data = l.points.map(function (p) { return { x: spec.categories[p.x], y: p.y }; });
        ds.cats = l.points.map(function (p) { return p.x; });
        ds.rows = l.points.map(function (p) { return p.rows; });
        ds.errs = l.points.map(function (p) { return p.err; });
        var forkOf = spec.lines.indexOf(bars.filter(function (b) { return b.color === l.color; })[0]);
        if (forkOf >= 0) ds.alignTo = forkOf;
      } else if (spec.kind === 'bar') { // markers per category, moved over the bar of the same colour by alignMarkers
        ds.data = new Array(n).fill(null);
        ds.rows = new Array(n).fill(null);
        ds.errs = new Array(n).fill(null);
        l.points.forEach(function (p) { ds.data[p.x] = p.y; ds.rows[p.x] = p.rows; ds.errs[p.x] = p.err; });
        var slot = spec.lines.indexOf(bars.filter(function (b) { return b.color === l.color; })[0]);
        if (slot >= 0) ds.alignTo = slot;
      } else {
        ds.data = l.points.map(function (p) { return { x: p.x, y: p.y }; });
        ds.rows = l.points.map(function (p) { return p.rows; });
        ds.errs = l.points.map(function (p) { return p.err; });
      }
      ds.showLine = spec.kind !== 'bar' && DASHES.hasOwnProperty(l.style);
      ds.borderDash = DASHES[l.style] || [];
      ds.borderWidth = 2;
      ds.pointStyle = l.style === 'muted' ? 'crossRot' : 'circle';
      ds.pointRadius = l.style === 'muted' ? 7 : l.style === 'points' ? 5 : l.points.length > 60 ? 0 : 3;
      ds.pointBorderWidth = l.style === 'muted' ? 2 : l.style === 'points' ? 2 : 1;
      if (l.style === 'points') ds.pointBorderColor = '#222'; // visible over a bar of the same colour
      if (l.style === 'forks') { ds.pointRadius = 3.5; ds.pointBorderColor = '#fff'; ds.pointBorderWidth = 2; } // ringed in white, as in the figure
      return ds;
    });
  }

  function render(canvas, spec) {
    var hasY2 = !!spec.y2Label && spec.lines.some(function (l) { return l.axis === 'y2' && l.points.length; });
    var small = canvas.closest('.small') !== null;
    var scales = {};
    if (spec.kind === 'bar') {
      scales.x = { type: 'category', labels: spec.categories, title: { display: true, text: spec.xLabel } };
    } else {
      var xs = [];
      spec.lines.forEach(function (l) { l.points.forEach(function (p) { if (xs.indexOf(p.x) < 0) xs.push(p.x); }); });
      xs.sort(function (a, b) { return a - b; });
      scales.x = { type: spec.logX ? 'logarithmic' : 'linear', title: { display: !small, text: spec.xLabel + (spec.logX ? ' (log scale)' : '') } };
      if (spec.xTicks && spec.xTicks.length) { // labelled ticks (a percentile axis): their values only, their labels
        scales.x.afterBuildTicks = function (axis) { axis.ticks = spec.xTicks.map(function (t) { return { value: t.value }; }); };
        scales.x.ticks = { autoSkip: false, callback: function (v) { return tickLabel(spec, v); } };
      } else if (!small && xs.length <= 10) {
        scales.x.afterBuildTicks = function (axis) { axis.ticks = xs.map(function (v) { return { value: v }; }); };
        scales.x.ticks = { callback: function (v) { return fmt(v); } };
      }
    }
    var logY = spec.logY ? ' (log scale)' : '';
    scales.y = { beginAtZero: true, title: { display: true, text: spec.yLabel + logY } };
    if (hasY2) scales.y2 = { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false }, title: { display: true, text: spec.y2Label + logY } };
    if (spec.logY) [scales.y, scales.y2].forEach(function (s) {
      if (!s) return;
      s.type = 'logarithmic';
      s.beginAtZero = false;
      s.ticks = { callback: function (v) { // 1-2-5 steps labelled, as in the static figure
        var m = Math.round(v / Math.pow(10, Math.floor(Math.log10(v))) * 1000) / 1000;
        return m === 1 || m === 2 || m === 5 ? Number(v.toPrecision(6)).toLocaleString('en-US') : '';
      } };
    });
    return new Chart(canvas, {
      type: spec.kind === 'bar' ? 'bar' : 'line',
      data: { datasets: datasets(spec, hasY2) },
      options: {
        responsive: true, maintainAspectRatio: false, animation: false,
        scales: scales,
        plugins: {
          title: { display: !small, text: spec.title.split(' — ')[0] },
          subtitle: { display: !small && spec.title.indexOf(' — ') > 0, text: spec.title.split(' — ').slice(1).join(' — ') },
          legend: {
            display: !small || spec.lines.length > 1, position: 'bottom',
            labels: {
              usePointStyle: true,
              sort: function (a, b) { return a.datasetIndex - b.datasetIndex; },
              filter: function (item, d) { return d.datasets[item.datasetIndex].data.some(function (v) { return v != null; }); }
            }
          },
          tooltip: {
            callbacks: {
              title: function (items) {
                return items.length && spec.kind !== 'bar' ? tickLabel(spec, items[0].parsed.x) : undefined;
              },
              afterLabel: function (item) {
                var ds = item.dataset, out = [];
                var e = ds.errs && ds.errs[item.dataIndex];
                if (e != null) out.push('± ' + fmt(e));
                var r = ds.rows && ds.rows[item.dataIndex];
                if (r && r.length) out.push('evidence: ' + r.join(', '));
                return out;
              }
            }
          }
        },
        onClick: function (evt, els, chart) {
          if (!els.length) return;
          var ds = chart.data.datasets[els[0].datasetIndex];
          var r = ds.rows && ds.rows[els[0].index];
          if (r && r.length) location.hash = r[0];
        }
      },
      plugins: [errorBars, alignMarkers, bandsOf(spec)]
    });
  }

  document.querySelectorAll('canvas[data-chart]').forEach(function (canvas) {
    var spec = charts[canvas.getAttribute('data-chart')];
    if (spec) render(canvas, spec);
  });

  function sortKey(row, i) {
    var c = row.cells[i];
    if (!c) return '';
    var t = c.hasAttribute('data-v') ? c.getAttribute('data-v') : c.textContent.trim();
    var n = Number(t.replace(/,/g, ''));
    return t !== '' && !isNaN(n) ? n : t.toLowerCase();
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.addEventListener('click', function () {
        var dir = th.getAttribute('data-dir') === 'asc' ? 'desc' : 'asc';
        Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute('data-dir'); });
        th.setAttribute('data-dir', dir);
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = sortKey(a, i), y = sortKey(b, i), c;
          if (typeof x === typeof y) c = x < y ? -1 : x > y ? 1 : 0;
          else c = typeof x === 'number' ? -1 : 1;
          return dir === 'asc' ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
})();
