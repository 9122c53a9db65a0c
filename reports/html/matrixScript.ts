// The only script in a run report: a click on a matrix cell fills the detail panel from the
// records (gzipped JSON in a data island, inflated in the browser). It writes text nodes only (textContent), never HTML, so record text stays text.
export const MATRIX_SCRIPT = `
(function () {
  var b64 = document.getElementById('tb-records').textContent.trim();
  var bytes = Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); });
  var ready = new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(JSON.parse);
  var panel = document.getElementById('detail');
  function el(tag, text) { var e = document.createElement(tag); if (text !== undefined) e.textContent = text; return e; }
  function show(q, s) { ready.then(function (data) { render(data, q, s); }); }
  function render(data, q, s) {
    var rs = data.filter(function (r) { return r.q === q && r.s === s; });
    panel.textContent = '';
    var close = el('button', 'close'); close.type = 'button'; close.style.float = 'right';
    close.addEventListener('click', function () { panel.classList.remove('open'); });
    panel.appendChild(close);
    rs.forEach(function (r) {
      panel.appendChild(el('h3', r.q + ' · ' + r.s + (rs.length > 1 ? ' · repeat ' + r.r : '')));
      var verdict = r.error ? 'error: ' + r.error : r.correct === null ? 'ungradable by the rule (long or procedural gold)' : r.correct ? 'correct' : 'wrong';
      var facts = [verdict, 'F1 ' + (r.f1 === null ? '–' : r.f1.toFixed(2)), 'evidence recall ' + (r.recall === null ? '–' : r.recall.toFixed(2)),
        'calls ' + r.calls, 'latency ' + Math.round(r.latencyMs) + ' ms'];
      if (r.stop) facts.push('stop: ' + r.stop);
      var p = el('p', facts.join(' · ')); p.className = r.error || r.correct === false ? 'fail' : r.correct ? 'up' : 'note'; panel.appendChild(p);
      [['question', r.question], ['answer', r.answer || '(none)'], ['gold', r.gold.join(' | ')],
       ['evidence', r.evidence.join('\\n') || '(none)'], ['search trace', r.trace.join('\\n') || '(no trace steps)']].forEach(function (kv) {
        panel.appendChild(el('b', kv[0]));
        var pre = el('pre', kv[1]); pre.className = 'detail-' + kv[0].replace(' ', '-'); panel.appendChild(pre);
      });
    });
    panel.classList.add('open');
  }
  document.querySelectorAll('table.matrix button[data-q]').forEach(function (b) {
    b.addEventListener('click', function () { show(b.getAttribute('data-q'), b.getAttribute('data-s')); });
  });
})();
`;
