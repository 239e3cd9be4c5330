/// `/static/live-log.js`: the run page's live log. Served by rippled itself (same origin), so the pages' policy
/// stays `script-src 'self'` without inline scripts. It reads `data-follow` and `data-offset` from `#live-log`,
/// streams `GET <follow>&offset=N` with fetch and a ReadableStream, appends what arrives (terminal colour codes
/// dropped, as the page does), and reloads the page when the stream ends: the run has ended.
public enum LiveLogScript {
  public static let source = #"""
    "use strict";
    (function () {
      var pre = document.getElementById("live-log");
      if (!pre || !window.fetch || !window.TextDecoder) { return; }
      var url = pre.getAttribute("data-follow");
      var offset = parseInt(pre.getAttribute("data-offset") || "0", 10);
      var decoder = new TextDecoder();
      var ansi = /\u001b\[[0-?]*[ -\/]*[@-~]/g;
      function stick() { return pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4; }
      function append(text) {
        var atEnd = stick();
        pre.appendChild(document.createTextNode(text.replace(ansi, "")));
        if (atEnd) { pre.scrollTop = pre.scrollHeight; }
      }
      function follow(retries) {
        fetch(url + "&offset=" + offset, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
          if (!response.ok || !response.body) { throw new Error("HTTP " + response.status); }
          var reader = response.body.getReader();
          function read() {
            return reader.read().then(function (chunk) {
              if (chunk.done) {
                append(decoder.decode());
                window.location.reload();
                return;
              }
              offset += chunk.value.length;
              append(decoder.decode(chunk.value, { stream: true }));
              return read();
            });
          }
          return read();
        }).catch(function () {
          if (retries > 0) { setTimeout(function () { follow(retries - 1); }, 2000); }
        });
      }
      pre.setAttribute("data-live", "following");
      follow(5);
    })();

    """#
}
