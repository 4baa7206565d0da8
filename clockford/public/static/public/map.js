// The map, live. A websocket says the map's stamp whenever the town on it changed; when the stamp is
// not the page's own, this script fetches the town's live part (data-now) and swaps it in. The socket
// carries no words: everything shown comes from the page the town renders. Without this script (or
// without websockets) the page is a plain page, fresh at each reload.
"use strict";

(function () {
  const FIRST_DELAY = 1000;
  const LONGEST_DELAY = 60000;
  const script = document.currentScript;
  const NOW = script && script.dataset.now;
  const LIVE = script && script.dataset.live;
  const town = document.getElementById("town");
  if (!town || !NOW || !LIVE || !("WebSocket" in window) || !window.fetch) return;

  let delay = FIRST_DELAY;
  let fetching = false;
  let wanted = null;

  function pageStamp() {
    const now = document.getElementById("town-now");
    return now ? now.dataset.stamp : null;
  }

  async function refresh(stamp) {
    if (fetching) {
      wanted = stamp;
      return;
    }
    fetching = true;
    try {
      const response = await fetch(NOW, { headers: { Accept: "text/html" }, cache: "no-store" });
      if (response.ok) {
        const html = await response.text();
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("town-now");
        const old = document.getElementById("town-now");
        if (fresh && old) old.replaceWith(document.importNode(fresh, true));
        // The fresh moments in the reader's own time too (static/hall/times.js), as the page drew them.
        if (fresh && old && window.hallTimes) window.hallTimes();
      }
    } catch (e) {
      // The town is out of reach for a moment: the next stamp tries again.
    } finally {
      fetching = false;
    }
    if (wanted !== null) {
      const next = wanted;
      wanted = null;
      if (next !== pageStamp()) refresh(next);
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + LIVE);
    socket.onopen = function () {
      delay = FIRST_DELAY;
    };
    socket.onmessage = function (event) {
      let said;
      try {
        said = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      if (said && typeof said.stamp === "string" && said.stamp !== pageStamp()) refresh(said.stamp);
    };
    socket.onclose = function () {
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, LONGEST_DELAY);
    };
  }

  connect();
})();
