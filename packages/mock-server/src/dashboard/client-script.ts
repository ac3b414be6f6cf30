// The dashboard's script, served as /_mock/dashboard.js: plain browser JavaScript, no framework
// and nothing from another origin. It writes text only (textContent, never HTML), so what a
// request carried (a path, a key, a slug) cannot run in the page; the CSP's Trusted Types
// setting makes any HTML sink throw. The admin token lives in a variable: never in storage,
// never in a URL. EventSource cannot send it, so the event stream is read with fetch.
export const DASHBOARD_SCRIPT = String.raw`'use strict';
(function () {
  var token = '';
  var jobs = { offset: 0, limit: 50, status: '' };
  var ledger = { offset: 0, limit: 50 };
  var journalQuery = 'limit=50';
  var clockOffset = null; // the mock's clock minus this browser's, from the last read; none before it
  var listening = null;
  var refreshing = false;
  var again = false;
  var $ = function (id) { return document.getElementById(id); };

  function headers(extra) {
    var h = extra || {};
    if (token) h.authorization = 'Bearer ' + token;
    return h;
  }
  function showError(text) {
    var el = $('error');
    el.textContent = text || '';
    el.hidden = !text;
  }
  function needToken() {
    $('data').hidden = true;
    $('token-form').hidden = false;
    // A token was entered and the mock refused it: say so, or the form looks as if nothing ran.
    $('token-refused').hidden = !token;
    enableActions(false);
    clockOffset = null;
    tick();
    setLive(false, token ? 'admin token refused' : 'admin token needed');
  }
  function setLive(on, text) {
    var el = $('live');
    el.className = on ? 'on' : 'off';
    el.textContent = text || (on ? 'live' : 'reconnecting…');
  }
  function get(path) {
    return fetch(path, { headers: headers(), cache: 'no-store' }).then(function (res) {
      if (res.status === 401) { var e = new Error('unauthorized'); e.unauthorized = true; throw e; }
      return res.json().then(function (body) {
        if (!res.ok) throw new Error(path + ': ' + (typeof body.detail === 'string' ? body.detail : JSON.stringify(body.detail)));
        return body;
      });
    });
  }
  function post(path, body) {
    var init = { method: 'POST', headers: headers(body ? { 'content-type': 'application/json' } : {}) };
    if (body) init.body = JSON.stringify(body);
    return fetch(path, init).then(function (res) {
      if (res.status === 401) { needToken(); return; }
      if (!res.ok) return res.json().then(function (b) { showError(path + ': ' + JSON.stringify(b.detail)); });
      showError('');
      refresh();
    });
  }

  function remove(path) {
    return fetch(path, { method: 'DELETE', headers: headers() }).then(function (res) {
      if (res.status === 401) { needToken(); return; }
      if (!res.ok) return res.json().then(function (b) { showError(path + ': ' + JSON.stringify(b.detail)); });
      showError('');
      refresh();
    });
  }
  /** A stub's match or outcome as one line: its fields as name=value. */
  function fields(object) {
    var names = Object.keys(object);
    if (names.length === 0) return 'any request';
    return names.map(function (name) { return name + '=' + (typeof object[name] === 'string' ? object[name] : JSON.stringify(object[name])); }).join(' ');
  }

  function cell(row, text, className) {
    var td = document.createElement('td');
    td.textContent = text === null || text === undefined ? '' : String(text);
    if (className) td.className = className;
    td.title = td.textContent;
    row.appendChild(td);
    return td;
  }
  function fill(id, items, render) {
    var body = $(id).tBodies[0];
    var heads = $(id).tHead.rows[0].cells;
    var rows = items.map(function (item) {
      var tr = document.createElement('tr');
      render(tr, item);
      // Each cell names its column: on a narrow screen the style sheet shows rows as cards.
      for (var i = 0; i < tr.cells.length && i < heads.length; i++) tr.cells[i].setAttribute('data-label', heads[i].textContent);
      return tr;
    });
    body.replaceChildren.apply(body, rows);
  }
  function dollars(cents) { return '$' + (cents / 100).toFixed(2); }
  function timeLeft(nextAt) {
    if (!nextAt) return '';
    var ms = Date.parse(nextAt) - (Date.now() + clockOffset);
    if (ms <= 0) return 'due';
    var s = Math.ceil(ms / 1000);
    return s >= 60 ? Math.floor(s / 60) + ' min ' + (s % 60) + ' s' : s + ' s';
  }
  function tick() {
    var cells = document.querySelectorAll('td[data-next-at]');
    for (var i = 0; i < cells.length; i++) cells[i].textContent = timeLeft(cells[i].getAttribute('data-next-at'));
    // Until the mock's time is read, the page does not know it: the browser's own would mislead.
    $('clock').textContent = clockOffset === null ? '–' : new Date(Date.now() + clockOffset).toISOString();
  }
  /** The clock buttons act on the mock only when its data is shown (with a token, once it is accepted). */
  function enableActions(on) {
    var buttons = document.querySelectorAll('button[data-advance]');
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = !on;
  }
  function range(page, shown, total) {
    if (total === 0) return '(none)';
    return '(' + (page.offset + 1) + '–' + (page.offset + shown) + ' of ' + total + ', newest first)';
  }

  function render(v) {
    clockOffset = Date.parse(v.stats.now) - Date.now();
    fill('accounts', v.ledger.accounts, function (tr, a) {
      cell(tr, a.accountId); cell(tr, a.balance); cell(tr, a.held); cell(tr, a.purchased);
      cell(tr, a.rateLimited + a.injected429);
    });
    fill('checkouts', v.checkouts.checkouts, function (tr, c) {
      cell(tr, c.sessionId); cell(tr, c.accountId); cell(tr, c.credits); cell(tr, dollars(c.amountCents));
      var td = cell(tr, '');
      var pay = document.createElement('button');
      pay.type = 'button';
      pay.textContent = 'Pay';
      pay.addEventListener('click', function () {
        pay.disabled = true;
        post('/_mock/checkout/' + encodeURIComponent(c.sessionId) + '/complete');
      });
      td.appendChild(pay);
    });
    $('checkouts-empty').hidden = v.checkouts.total > 0;
    $('jobs-count').textContent = range(jobs, v.jobs.jobs.length, v.jobs.total);
    $('jobs-newer').disabled = jobs.offset === 0;
    $('jobs-older').disabled = jobs.offset + jobs.limit >= v.jobs.total;
    fill('jobs', v.jobs.jobs, function (tr, j) {
      cell(tr, j.jobId); cell(tr, j.accountId); cell(tr, j.profileId); cell(tr, j.kind);
      cell(tr, j.status, 'status-' + j.status); cell(tr, j.creditsCharged);
      var left = cell(tr, timeLeft(j.nextAt));
      if (j.nextAt) left.setAttribute('data-next-at', j.nextAt);
      if (j.error) tr.title = j.error;
    });
    $('ledger-count').textContent = range(ledger, v.ledger.entries.length, v.ledger.total);
    $('ledger-newer').disabled = ledger.offset === 0;
    $('ledger-older').disabled = ledger.offset + ledger.limit >= Math.min(v.ledger.total, v.ledger.capacity);
    fill('ledger', v.ledger.entries, function (tr, e) {
      cell(tr, e.seq); cell(tr, e.at); cell(tr, e.accountId); cell(tr, e.kind); cell(tr, e.reason);
      cell(tr, e.delta > 0 ? '+' + e.delta : e.delta); cell(tr, e.balance);
    });
    fill('journal', v.requests.requests, function (tr, r) {
      cell(tr, r.at); cell(tr, r.requestId); cell(tr, r.accountId); cell(tr, r.method); cell(tr, r.path);
      // Status 0: the connection was dropped without an answer (a reset fault), as --log says.
      var status = (r.status === 0 ? 'reset' : r.status) + (r.stubId ? ' (' + r.stubId + ')' : '');
      cell(tr, status, r.status >= 400 || r.status === 0 ? 'bad' : ''); cell(tr, r.idempotencyKey);
    });
    $('stubs-count').textContent = v.stubs.stubs.length ? '(' + v.stubs.stubs.length + ', ' + v.stats.stubs.matched + ' requests answered)' : '';
    $('stubs-empty').hidden = v.stubs.stubs.length > 0;
    fill('stubs', v.stubs.stubs, function (tr, s) {
      cell(tr, s.id); cell(tr, fields(s.match)); cell(tr, fields(s.outcome));
      cell(tr, s.times === null ? 'every request' : s.times); cell(tr, s.priority); cell(tr, s.matched);
      var td = cell(tr, '');
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Remove';
      button.setAttribute('aria-label', 'Remove ' + s.id);
      button.addEventListener('click', function () {
        button.disabled = true;
        remove('/_mock/stubs/' + encodeURIComponent(s.id));
      });
      td.appendChild(button);
    });
    $('faults').textContent = v.faults.rules.length ? JSON.stringify(v.faults, null, 2) : 'None.';
    tick();
  }

  function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    var jobsPath = '/_mock/jobs?offset=' + jobs.offset + '&limit=' + jobs.limit + (jobs.status ? '&status=' + jobs.status : '');
    Promise.all([
      get('/_mock/stats'),
      get('/_mock/ledger?offset=' + ledger.offset + '&limit=' + ledger.limit),
      get(jobsPath),
      get('/_mock/checkouts?status=pending&limit=100'),
      get('/_mock/requests?' + journalQuery),
      get('/_mock/faults'),
      get('/_mock/stubs'),
    ]).then(function (r) {
      render({ stats: r[0], ledger: r[1], jobs: r[2], checkouts: r[3], requests: r[4], faults: r[5], stubs: r[6] });
      $('token-form').hidden = true;
      $('token-refused').hidden = true;
      $('data').hidden = false;
      enableActions(true);
      showError('');
    }, function (error) {
      if (error.unauthorized) needToken();
      else showError(error.message);
    }).then(function () {
      refreshing = false;
      if (again) { again = false; refresh(); }
    });
  }

  function listen() {
    if (listening) listening.abort();
    var control = new AbortController();
    listening = control;
    fetch('/_mock/events', { headers: headers(), signal: control.signal, cache: 'no-store' }).then(function (res) {
      if (res.status === 401) { needToken(); return 'stop'; }
      if (!res.ok || !res.body) throw new Error('events: ' + res.status);
      setLive(true);
      var reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      var buffer = '';
      function read() {
        return reader.read().then(function (chunk) {
          if (chunk.done) return;
          buffer += chunk.value;
          var end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            var block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (/^event: change$/m.test(block)) refresh();
          }
          return read();
        });
      }
      return read();
    }).catch(function () {}).then(function (how) {
      if (how === 'stop' || control.signal.aborted) return;
      setLive(false);
      setTimeout(function () { if (listening === control) listen(); }, 1000);
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    $('token-form').addEventListener('submit', function (event) {
      event.preventDefault();
      token = $('token').value;
      $('token').value = '';
      listen();
      refresh();
    });
    $('journal-form').addEventListener('submit', function (event) {
      event.preventDefault();
      var params = new URLSearchParams();
      new FormData(event.target).forEach(function (value, name) { if (value !== '') params.set(name, value); });
      journalQuery = params.toString();
      refresh();
    });
    var buttons = document.querySelectorAll('button[data-advance]');
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].addEventListener('click', function (event) {
        post('/_mock/clock/advance', { ms: Number(event.target.getAttribute('data-advance')) });
      });
    }
    $('jobs-status').addEventListener('change', function (event) { jobs.status = event.target.value; jobs.offset = 0; refresh(); });
    $('jobs-older').addEventListener('click', function () { jobs.offset += jobs.limit; refresh(); });
    $('jobs-newer').addEventListener('click', function () { jobs.offset = Math.max(0, jobs.offset - jobs.limit); refresh(); });
    $('ledger-older').addEventListener('click', function () { ledger.offset += ledger.limit; refresh(); });
    $('ledger-newer').addEventListener('click', function () { ledger.offset = Math.max(0, ledger.offset - ledger.limit); refresh(); });
    setInterval(tick, 1000);
    listen();
    refresh();
  });
})();
`;
