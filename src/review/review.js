// The review page: every change saved at once (POST to the page's own address + /mark or /settle),
// the keyboard first (1-9 tick an item, n/p next/previous student, c the comment, Esc leaves a field).
(function () {
  var here = location.pathname.replace(/\/+$/, '');
  var saved = document.getElementById('saved');
  function say(text, bad) { saved.textContent = text; saved.className = bad ? 'bad' : ''; }
  function show(state) {
    var status = document.getElementById('status');
    status.textContent = state.status;
    status.className = state.kind;
    var groups = document.querySelectorAll('fieldset.group');
    for (var i = 0; i < groups.length; i++) {
      var p = state.groups[groups[i].getAttribute('data-group')];
      if (p !== undefined) { groups[i].querySelector('legend .points').textContent = p; }
    }
  }
  function post(what, body, done) {
    say('saving…');
    var r = new XMLHttpRequest();
    r.open('POST', here + '/' + what);
    r.setRequestHeader('Content-Type', 'application/json');
    r.onload = function () {
      if (r.status === 200) { var s = JSON.parse(r.responseText); show(s); say('saved'); if (done) { done(); } }
      else { say(r.responseText || ('not saved: ' + r.status), true); }
    };
    r.onerror = function () { say('not saved: the grader is not answering (your change is still on the page)', true); };
    r.send(JSON.stringify(body));
  }
  function saveGroup(fs, done) {
    var items = [];
    var boxes = fs.querySelectorAll('input[data-item]');
    for (var i = 0; i < boxes.length; i++) { if (boxes[i].checked) { items.push(boxes[i].getAttribute('data-item')); } }
    var adjust = parseFloat(fs.querySelector('input[data-adjust]').value);
    post('mark', { group: fs.getAttribute('data-group'), items: items,
                   adjust: isFinite(adjust) ? adjust : 0,
                   comment: fs.querySelector('textarea[data-comment]').value }, done);
  }
  // A comment being typed is saved after a pause, and before the page is left.
  var pending = null, timer = null;
  function flush(then) {
    if (pending) { var fs = pending; pending = null; clearTimeout(timer); saveGroup(fs, then); }
    else if (then) { then(); }
  }
  var groups = document.querySelectorAll('fieldset.group');
  for (var g = 0; g < groups.length; g++) {
    (function (fs) {
      fs.addEventListener('change', function () { if (pending === fs) { pending = null; clearTimeout(timer); } saveGroup(fs); });
      fs.querySelector('textarea[data-comment]').addEventListener('input', function () {
        pending = fs; clearTimeout(timer); say('…'); timer = setTimeout(function () { flush(); }, 800);
      });
    })(groups[g]);
  }
  window.addEventListener('beforeunload', function (e) { if (pending) { flush(); e.preventDefault(); } });
  var cases = document.querySelectorAll('section.settle');
  for (var c = 0; c < cases.length; c++) {
    (function (sec) {
      var key = sec.getAttribute('data-case');
      sec.querySelector('[data-settle]').addEventListener('click', function () {
        var credit = parseFloat(sec.querySelector('input[data-credit]').value);
        post('settle', { 'case': key, credit: isFinite(credit) ? credit / 100 : -1,
                         reason: sec.querySelector('input[data-reason]').value }, function () {
          sec.querySelector('.who').textContent = 'settled (just now)';
        });
      });
      sec.querySelector('[data-unsettle]').addEventListener('click', function () {
        post('settle', { 'case': key, clear: true }, function () {
          sec.querySelector('.who').textContent = 'waiting for a person';
        });
      });
    })(cases[c]);
  }
  var jump = document.getElementById('jump');
  if (jump) { jump.addEventListener('change', function () { flush(function () { location.href = jump.value; }); }); }
  function go(id) { var a = document.getElementById(id); if (a) { flush(function () { location.href = a.getAttribute('href'); }); } }
  document.addEventListener('keydown', function (e) {
    var t = e.target, tag = t && t.tagName;
    if (tag === 'INPUT' && t.type !== 'checkbox' || tag === 'TEXTAREA' || tag === 'SELECT') {
      if (e.key === 'Escape') { t.blur(); }
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (/^[1-9]$/.test(e.key)) {
      var box = document.querySelector('input[data-key="' + e.key + '"]');
      if (box) { box.checked = !box.checked; box.dispatchEvent(new Event('change', { bubbles: true })); e.preventDefault(); }
    } else if (e.key === 'n' || e.key === 'z') { go('next'); }
    else if (e.key === 'p' || e.key === 'Z') { go('prev'); }
    else if (e.key === 'c') { var ta = document.querySelector('textarea[data-comment]'); if (ta) { ta.focus(); e.preventDefault(); } }
  });
})();
