// A letter's page marks it read only by its form's POST (hall/letters.py letter_read), never by the
// page's GET: a link prefetcher, a mail scanner or a browser's prerender may load the page without the
// person. This sends that form once the page is in view, as the person would press its button; a page
// loaded hidden (a background tab, a prerender) waits until it is shown. Without this script the
// button stays for the person to press.
"use strict";

(function () {
  const form = document.querySelector("form[data-read-in-view]");
  if (!form) return;
  let sent = false;

  function inView() {
    if (sent || document.prerendering || document.visibilityState !== "visible") return;
    sent = true;
    form.submit();
  }

  document.addEventListener("visibilitychange", inView);
  document.addEventListener("prerenderingchange", inView);
  inView();
})();
