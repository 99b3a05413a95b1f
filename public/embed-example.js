// The host page's side of nodeline's embed protocol (README: Embedding). Include it on a page
// with `<iframe data-nodeline src=".../?embed=1&chapter=...">` elements: it makes each iframe as
// tall as the height the embed reports, shows the step it reports in the `[data-status]` element
// of the iframe's section, and wires the section's `button[data-command]` controls (play, pause,
// goto with the `[data-step]` input). A plain script with no inline parts, so it runs under a
// strict Content-Security-Policy.
'use strict';

(function () {
  /** Every nodeline iframe on the page. */
  function frames() {
    return Array.prototype.slice.call(document.querySelectorAll('iframe[data-nodeline]'));
  }

  /** The origin an iframe's document comes from ('*' for file:// pages, whose origin is opaque). */
  function targetOrigin(frame) {
    var origin = new URL(frame.src, location.href).origin;
    return origin === 'null' ? '*' : origin;
  }

  function send(frame, message) {
    if (frame.contentWindow) {
      frame.contentWindow.postMessage(message, targetOrigin(frame));
    }
  }

  function sectionOf(frame) {
    return frame.closest('section') || document.body;
  }

  // Listen from the start: an embed may report before the page has finished loading.
  window.addEventListener('message', function (event) {
    var frame = frames().find(function (f) {
      return f.contentWindow === event.source;
    });
    if (!frame) {
      return;
    }
    var expected = targetOrigin(frame);
    if (expected !== '*' && event.origin !== expected) {
      return;
    }
    var data = event.data;
    if (!data || typeof data !== 'object') {
      return;
    }
    if (data.type === 'nodeline:resize' && typeof data.height === 'number' && data.height > 0) {
      frame.style.height = Math.ceil(data.height) + 'px';
    } else if (data.type === 'nodeline:state') {
      var status = sectionOf(frame).querySelector('[data-status]');
      if (status) {
        status.textContent =
          'Step ' + data.step + ' of ' + data.steps + ' (' + data.chapter + '), ' + (data.playing ? 'playing' : 'paused');
      }
    }
  });

  document.addEventListener('click', function (event) {
    var button = event.target instanceof Element ? event.target.closest('button[data-command]') : null;
    if (!button) {
      return;
    }
    var section = button.closest('section') || document.body;
    var frame = section.querySelector('iframe[data-nodeline]');
    if (!frame) {
      return;
    }
    var command = button.getAttribute('data-command');
    if (command === 'goto') {
      var input = section.querySelector('[data-step]');
      send(frame, { type: 'nodeline:goto', step: Number(input ? input.value : 1) });
    } else if (command === 'play' || command === 'pause') {
      send(frame, { type: 'nodeline:' + command });
    }
  });

  // An embed that reported before this script ran (a cached page, a slow parent) reports again.
  window.addEventListener('load', function () {
    frames().forEach(function (frame) {
      send(frame, { type: 'nodeline:query' });
    });
  });
})();
