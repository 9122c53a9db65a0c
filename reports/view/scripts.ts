// The viewer's inline scripts. Each is allowed by its SHA-256 in the page's Content-Security-
// Policy (reports/html/page.ts); none fetches anything, and none writes HTML: they only hide,
// reorder and navigate, so dataset and model text written into the page stays text.

/**
 * The side-by-side page: opening a side's evidence and trace fills it (text nodes only) from the
 * gzipped data island; filter the rows by verdict change, tag, strategy and text, and sort them.
 * The state lives in the URL's fragment (`#change=changed&tag=…`), so a filtered view is a link.
 */
export const PAIRS_SCRIPT = `
(function () {
  var tbody = document.querySelector('#pairs tbody');
  var rows = Array.prototype.slice.call(tbody.querySelectorAll('tr'));
  function get(id) { return document.getElementById(id); }
  var ctl = { change: get('f-change'), tag: get('f-tag'), strategy: get('f-strategy'), text: get('f-text'), sort: get('f-sort') };
  function num(r, k) { return Number(r.getAttribute(k)); }
  var order = {
    question: function (a, b) { return num(a, 'data-i') - num(b, 'data-i'); },
    strategy: function (a, b) { return a.getAttribute('data-s') < b.getAttribute('data-s') ? -1 : a.getAttribute('data-s') > b.getAttribute('data-s') ? 1 : num(a, 'data-i') - num(b, 'data-i'); },
    change: function (a, b) { return num(a, 'data-rank') - num(b, 'data-rank') || num(a, 'data-i') - num(b, 'data-i'); },
    latency: function (a, b) { return num(b, 'data-dlat') - num(a, 'data-dlat') || num(a, 'data-i') - num(b, 'data-i'); }
  };
  function apply() {
    var c = ctl.change.value, t = ctl.tag.value, s = ctl.strategy.value, x = ctl.text.value.trim().toLowerCase(), shown = 0;
    rows.slice().sort(order[ctl.sort.value] || order.question).forEach(function (r) { tbody.appendChild(r); });
    rows.forEach(function (r) {
      var ch = r.getAttribute('data-change');
      var ok = (c === 'all' || (c === 'changed' ? ch === 'fixed' || ch === 'broken' || ch === 'changed' : ch === c)) &&
        (!t || r.getAttribute('data-tags').indexOf('|' + t + '|') >= 0) &&
        (!s || r.getAttribute('data-s') === s) &&
        (!x || r.getAttribute('data-text').indexOf(x) >= 0);
      r.hidden = !ok;
      if (ok) shown++;
    });
    get('shown').textContent = String(shown);
    var state = [];
    Object.keys(ctl).forEach(function (k) { var v = ctl[k].value; if (v && !(k === 'change' && v === 'all') && !(k === 'sort' && v === 'question')) state.push(k + '=' + encodeURIComponent(v)); });
    var hash = state.length ? '#' + state.join('&') : '';
    if (hash !== location.hash && history.replaceState) history.replaceState(null, '', hash || location.pathname + location.search);
  }
  location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
    var i = kv.indexOf('='), k = kv.slice(0, i), v = kv.slice(i + 1);
    if (i > 0 && ctl[k]) { try { v = decodeURIComponent(v); } catch (e) { return; } if (ctl[k].tagName !== 'SELECT' || Array.prototype.some.call(ctl[k].options, function (o) { return o.value === v; })) ctl[k].value = v; }
  });
  ['change', 'tag', 'strategy', 'sort'].forEach(function (k) { ctl[k].addEventListener('change', apply); });
  ctl.text.addEventListener('input', apply);
  apply();
  // Evidence and traces: inflated from the data island the first time a side is opened.
  var data = null;
  function island() {
    if (!data) {
      var b64 = get('tb-pairs').textContent.trim();
      var bytes = Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); });
      data = new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(JSON.parse);
    }
    return data;
  }
  function el(tag, text, cls) { var e = document.createElement(tag); e.textContent = text; if (cls) e.className = cls; return e; }
  Array.prototype.forEach.call(document.querySelectorAll('#pairs details[data-d]'), function (d) {
    d.addEventListener('toggle', function () {
      if (!d.open || d.getAttribute('data-filled')) return;
      d.setAttribute('data-filled', '1');
      island().then(function (all) {
        var x = all[Number(d.getAttribute('data-d'))];
        if (!x) return;
        d.appendChild(el('b', 'evidence'));
        d.appendChild(el('pre', x[0].join('\\n') || '(none)', 'evidence'));
        d.appendChild(el('b', 'search trace'));
        d.appendChild(el('pre', x[1].join('\\n') || '(no trace steps)', 'trace'));
      });
    });
  });
})();
`;

/** The run list (live viewer only): pick any two runs and open them side by side. */
export const PICKER_SCRIPT = `
(function () {
  var a = document.getElementById('pick-a'), b = document.getElementById('pick-b'), go = document.getElementById('pick-go');
  go.addEventListener('click', function () {
    if (a.value && b.value && a.value !== b.value) location.href = 'compare/' + encodeURIComponent(a.value) + '/' + encodeURIComponent(b.value) + '.html';
  });
})();
`;
