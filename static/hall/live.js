// The queue, live. On a page with the queue ("Waiting for you"), a websocket says how many things
// wait for the person and a stamp of them; when the stamp is not the page's own, this script fetches
// the queue's page as the person and swaps in the fresh queue, and the tab's title counts what waits.
// Both addresses come from the page that loads this script (data-queue, data-live), which the town
// draws from its own routes. The socket carries no words of any item: everything shown comes from the page the town
// renders. Without this script (or without websockets) the page still works with a reload.
"use strict";

(function () {
  // The parts of the page that show the queue, in page order; any of them may be absent.
  const REGIONS = ["queue-count", "queue", "queue-pages", "queue-empty"];
  const FIRST_DELAY = 1000;
  const LONGEST_DELAY = 60000;
  const WRONG_ORIGIN = 4403; // the town will never take this page's socket: do not ask again
  const NOT_SIGNED_IN = 4401; // the sign-in may have ended (hall/live.py): the queue's page says
  const script = document.currentScript;
  const QUEUE = script && script.dataset.queue;
  const LIVE = script && script.dataset.live;

  if (!REGIONS.some((id) => document.getElementById(id)) || !("WebSocket" in window) || !QUEUE || !LIVE) return;

  let pageStamp = null; // the stamp of what the page shows, once known
  let socket = null;
  let delay = FIRST_DELAY;
  let retry = null;
  let stopped = false;
  let drawing = null; // the fetch of the queue's page under way, if any
  let wanted = null; // the newest {waiting, stamp} heard while a fetch was under way

  // A polite announcement for screen readers when the count changes; it never moves focus.
  const status = document.createElement("p");
  status.setAttribute("role", "status");
  Object.assign(status.style, {
    position: "absolute",
    width: "1px",
    height: "1px",
    overflow: "hidden",
    clip: "rect(0 0 0 0)",
    whiteSpace: "nowrap",
  });
  document.body.appendChild(status);

  // How many things wait, as the page drawn said: all of them, not only the rows of this page (the
  // queue is shown fifty at a time).
  function waitingShown() {
    const queue = document.getElementById("queue");
    const said = queue ? Number(queue.dataset.waiting) : NaN;
    return Number.isInteger(said) ? said : queue ? queue.querySelectorAll("[data-item]").length : 0;
  }

  // The queue's page the tab shows (?page=N): the fresh queue is that page's, not the first one.
  function pageAddress() {
    const address = new URL(QUEUE, location.href);
    const number = new URLSearchParams(location.search).get("page");
    if (number !== null) address.searchParams.set("page", number);
    return address.href;
  }

  let announced = waitingShown(); // what the page said when it loaded

  function announce(waiting) {
    if (waiting === announced) return;
    announced = waiting;
    if (waiting === 0) status.textContent = "Nothing waits for you now.";
    else if (waiting === 1) status.textContent = "1 thing waits for you.";
    else status.textContent = waiting + " things wait for you.";
  }

  function countTitle(waiting) {
    const plain = document.title.replace(/^\(\d+\)\s*/, "");
    document.title = waiting > 0 ? "(" + waiting + ") " + plain : plain;
  }

  // Where focus was inside the queue: the row it was in, so it can go back to the same row.
  function focusedRow() {
    const active = document.activeElement;
    if (!active || active === document.body) return null;
    const inQueue = REGIONS.some((id) => {
      const region = document.getElementById(id);
      return region && region.contains(active);
    });
    if (!inQueue) return null;
    const row = active.closest("[data-item]");
    return { item: row ? row.getAttribute("data-item") : null };
  }

  function restoreFocus(was) {
    if (!was) return;
    let target = null;
    if (was.item !== null) {
      for (const row of document.querySelectorAll("#queue [data-item]")) {
        if (row.getAttribute("data-item") === was.item) {
          target = row.querySelector("a, button") || null;
          break;
        }
      }
    }
    if (!target) {
      // The row is gone (decided or lapsed): keep the person in the same place of the page.
      target = document.getElementById("queue") || document.getElementById("queue-empty");
      if (target && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    }
    if (target) target.focus({ preventScroll: true });
  }

  function swapIn(fresh) {
    const was = focusedRow();
    REGIONS.forEach((id, i) => {
      const old = document.getElementById(id);
      const next = fresh.getElementById(id);
      const adopted = next ? document.importNode(next, true) : null;
      if (old && adopted) old.replaceWith(adopted);
      else if (old) old.remove();
      else if (adopted) {
        // Put it after the nearest region before it, else before the nearest one after it.
        const before = REGIONS.slice(0, i).reverse().map((r) => document.getElementById(r)).find(Boolean);
        const after = REGIONS.slice(i + 1).map((r) => document.getElementById(r)).find(Boolean);
        if (before) before.after(adopted);
        else if (after) after.before(adopted);
      }
    });
    if (fresh.title) document.title = fresh.title;
    // The Waiting tab's count, and each time said again in this device's own time.
    const tab = document.getElementById("nav-waiting");
    const freshTab = fresh.getElementById("nav-waiting");
    if (tab && freshTab) tab.replaceWith(document.importNode(freshTab, true));
    if (window.hallTimes) window.hallTimes();
    restoreFocus(was);
  }

  // Fetches the queue's page and swaps in the fresh queue (or reloads the tab, signed out).
  async function fetchQueue(heard) {
    try {
      const response = await fetch(pageAddress(), {
        credentials: "same-origin",
        cache: "no-store",
        // Not the person's use of the hall: an open tab must not keep a sign-in from ending when it
        // has been left unused (hall/lifetime.py UNATTENDED).
        headers: { Accept: "text/html", "X-Hall-Unattended": "1" },
      });
      if (response.status === 401) {
        // The sign-in has ended (hall/lifetime.py): the front door says why, and the queue is no
        // longer on the screen of a person who has gone.
        stopped = true;
        location.reload();
        return;
      }
      const url = new URL(response.url);
      if (response.ok && url.origin === location.origin && url.pathname === new URL(QUEUE, location.href).pathname) {
        const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
        if (REGIONS.some((id) => fresh.getElementById(id))) {
          swapIn(fresh);
          pageStamp = heard.stamp;
        } else {
          // A page without the queue is the front door: the person signed out (on another tab or
          // device). Their queue does not stay on this screen: the tab shows the front door too.
          stopped = true;
          location.reload();
        }
      }
    } catch (e) {
      // Offline for a moment: the next stamp tries again.
    }
  }

  // One fetch at a time; what is heard meanwhile is fetched after it. The promise settles once the
  // fetch under way has.
  function redraw(heard) {
    if (drawing !== null) {
      wanted = heard;
      return drawing;
    }
    drawing = fetchQueue(heard).finally(() => {
      drawing = null;
      if (wanted !== null) {
        const next = wanted;
        wanted = null;
        if (next.stamp !== pageStamp) redraw(next);
      }
    });
    return drawing;
  }

  function heard(message) {
    let data;
    try {
      data = JSON.parse(message.data);
    } catch (e) {
      return;
    }
    if (!data || typeof data.stamp !== "string" || typeof data.waiting !== "number") return;
    announce(data.waiting);
    if (pageStamp === null && data.waiting === waitingShown()) {
      // The first stamp: the page drawn a moment ago counts as many things as wait, so it is current.
      pageStamp = data.stamp;
      countTitle(data.waiting);
      return;
    }
    if (data.stamp === pageStamp) return;
    countTitle(data.waiting); // at once, even before the fetch returns
    redraw(data);
  }

  function connect() {
    retry = null;
    if (stopped) return;
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + LIVE);
    socket.addEventListener("open", () => {
      delay = FIRST_DELAY;
    });
    socket.addEventListener("message", heard);
    socket.addEventListener("close", (event) => {
      socket = null;
      if (stopped || event.code === WRONG_ORIGIN) return;
      if (event.code === NOT_SIGNED_IN) {
        // Ask the queue's page first, as on any change: if the sign-in has ended (or the person signed
        // out), it answers 401 or the front door and the tab reloads to the front door, which says why.
        // Only a page still signed in asks for a socket again: asking before the answer came would only
        // be closed again.
        redraw({ stamp: pageStamp }).finally(later);
        return;
      }
      later();
    });
  }

  // Try again later, waiting longer each time (with some jitter so that many pages do not all come
  // back at the same moment after the town restarts).
  function later() {
    if (stopped || retry !== null) return;
    retry = setTimeout(connect, delay + Math.floor(Math.random() * delay * 0.3));
    delay = Math.min(delay * 2, LONGEST_DELAY);
  }

  // A form sent the usual way (Sign out, a decision's own form) takes the tab to another page: no
  // socket is asked for meanwhile. Signing out ends this page's sign-in before the tab has left it, and
  // a socket asked for in between would only be closed (hall/live.py). A form a script sends itself (a
  // passkey's ceremony) has prevented its default, and the page stays.
  document.addEventListener("submit", (event) => {
    if (event.defaultPrevented) return;
    stopped = true;
    if (retry !== null) clearTimeout(retry);
    retry = null;
  });

  // A page put away (another page opened in the tab) lets its socket go, and a page brought back
  // from the browser's cache asks again.
  window.addEventListener("pagehide", () => {
    stopped = true;
    if (retry !== null) clearTimeout(retry);
    retry = null;
    if (socket) socket.close(1000);
  });
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    stopped = false;
    delay = FIRST_DELAY;
    if (!socket && retry === null) connect();
  });

  connect();
})();
