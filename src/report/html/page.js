// Steps each game's replay: buttons, arrow keys (Home/End too) and clicks on the move list.
(function () {
  function setup(sec) {
    var f = JSON.parse(sec.getAttribute('data-frames'));
    var cells = sec.querySelectorAll('svg.board .c');
    var title = sec.querySelector('svg.board title');
    var items = sec.querySelectorAll('ol.moves li');
    var k = sec.querySelector('.counter .k');
    var at = f.m.length - 1;
    function show(i) {
      at = Math.max(0, Math.min(f.m.length - 1, i));
      var m = f.m[at], s = f.s[at];
      for (var j = 0; j < cells.length; j++) {
        var g = cells[j], mark = m.charAt(j);
        g.setAttribute('data-m', mark === ' ' ? '' : mark);
        g.setAttribute('data-s', s.charAt(j));
        g.querySelector('text').textContent = mark === ' ' ? '' : mark;
        g.classList.toggle('last', f.l[at].indexOf(j) >= 0);
      }
      title.textContent = f.t[at];
      for (var n = 0; n < items.length; n++) {
        if (n === at - 1) { items[n].setAttribute('aria-current', 'step'); } else { items[n].removeAttribute('aria-current'); }
      }
      k.textContent = String(at);
    }
    var go = { first: function () { show(0); }, prev: function () { show(at - 1); },
               next: function () { show(at + 1); }, last: function () { show(f.m.length - 1); } };
    var bar = sec.querySelector('.controls');
    bar.hidden = false;
    bar.addEventListener('click', function (e) {
      var b = e.target.closest('button');
      if (b) { go[b.getAttribute('data-go')](); }
    });
    for (var n = 0; n < items.length; n++) {
      items[n].addEventListener('click', (function (i) { return function () { show(i + 1); }; })(n));
    }
    sec.addEventListener('keydown', function (e) {
      var keys = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' };
      if (keys[e.key]) { go[keys[e.key]](); e.preventDefault(); }
    });
    show(at);
  }
  var games = document.querySelectorAll('section.game[data-frames]');
  for (var i = 0; i < games.length; i++) { setup(games[i]); }
})();
